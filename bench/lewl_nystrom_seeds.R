# Is the Nystrom route's gap to the exact route on enron (+0.016 macro AUC at
# rate 0.3 with the mask of seed 2020; bench/lewl_scale_results.md, sessions
# s38 and 41) a property of the route or of the one mask?  bench/lewl_nystrom.R's
# protocol (lewl()'s defaults, set.seed(1) before each fit, the Nystrom route
# forced with 500 landmarks against approx = "exact"), repeated over masks
# (mask_labels(by = "entry", seed = s)), with the hidden-entry measures of
# bench/common.R; per set and rate: the differences nystrom - exact per mask,
# their mean, standard deviation and a 95% t interval of the mean, and the
# macro AUC over the labels with more than 5 hidden positives.
#   OB=/usr/lib/x86_64-linux-gnu/openblas-pthread; OPENBLAS_NUM_THREADS=1 \
#   LD_PRELOAD="$OB/libblas.so.3 $OB/liblapack.so.3" LIB=<build> Rscript bench/lewl_nystrom_seeds.R
# Environment: LEWL_SEEDS_SETS ("enron"), LEWL_SEEDS_RATES ("0.3,0.7"),
# LEWL_SEEDS ("2020,1,2,3,4,5,6,7": the mask seeds; 2020 is the issue's),
# LEWL_SEEDS_LANDMARKS ("500": the Nystrom fits' landmarks, one fit per
# number against the same exact fit; session 43).
lib <- Sys.getenv("LIB", "")
if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
suppressPackageStartupMessages(source(file.path("bench", "common.R")))
sets <- strsplit(Sys.getenv("LEWL_SEEDS_SETS", "enron"), ",")[[1]]
rates <- as.numeric(strsplit(Sys.getenv("LEWL_SEEDS_RATES", "0.3,0.7"), ",")[[1]])
seeds <- as.integer(strsplit(Sys.getenv("LEWL_SEEDS", "2020,1,2,3,4,5,6,7"), ",")[[1]])
marks <- as.integer(strsplit(Sys.getenv("LEWL_SEEDS_LANDMARKS", "500"), ",")[[1]])
for (set in sets) {
  d <- load_mulan_set(set)
  y <- d$y[, colSums(d$y) > 0, drop = FALSE]
  for (rate in rates) {
    rows <- lapply(stats::setNames(marks, marks), function(r) NULL)
    for (s in seeds) {
      ymiss <- mlss:::mask_labels(y, rate, by = "entry", seed = s)$y
      hidden <- is.na(ymiss)
      m <- list()
      for (route in c("exact", paste0("nystrom", marks))) {
        set.seed(1)
        c0 <- cpu_seconds()
        r <- if (route == "exact") NULL else as.integer(sub("nystrom", "", route))
        fit <- suppressWarnings(lewl(d$x, ymiss, approx = if (is.null(r)) "exact" else "nystrom",
                                     landmarks = r))
        m[[route]] <- c(hidden_entry_measures(y, hidden, fit$recovered),
                        # the labels whose AUC does not turn on one entry's rank
                        macro_auc_gt5 = hidden_macro_auc(y, hidden, fit$recovered, 6),
                        iterations = fit$iterations, cpu = cpu_seconds() - c0)
      }
      for (r in marks) {
        ny <- m[[paste0("nystrom", r)]]
        dm <- ny - m$exact
        cat(sprintf("%s rate %.1f seed %4d: exact ap %.4f micro %.4f macro %.4f macro>5 %.4f (%d it, %.0f s); nystrom (%d landmarks) - exact %+.4f %+.4f %+.4f %+.4f (%d it, %.0f s)\n",
                    set, rate, s, m$exact[["ap"]], m$exact[["micro_auc"]], m$exact[["macro_auc"]],
                    m$exact[["macro_auc_gt5"]], m$exact[["iterations"]], m$exact[["cpu"]], r,
                    dm[["ap"]], dm[["micro_auc"]], dm[["macro_auc"]], dm[["macro_auc_gt5"]],
                    ny[["iterations"]], ny[["cpu"]]))
        rows[[as.character(r)]] <- rbind(rows[[as.character(r)]],
                                         dm[c("ap", "micro_auc", "macro_auc", "macro_auc_gt5")])
      }
    }
    for (r in marks) {
      ci <- apply(rows[[as.character(r)]], 2, function(v) {
        h <- stats::qt(0.975, length(v) - 1) * stats::sd(v) / sqrt(length(v))
        sprintf("%+.4f (sd %.4f; 95%% interval %+.4f to %+.4f)", mean(v), stats::sd(v),
                mean(v) - h, mean(v) + h)
      })
      cat(sprintf("%s rate %.1f over %d masks, nystrom (%d landmarks) - exact: mean\n", set,
                  rate, length(seeds), r))
      cat(paste0("  ", names(ci), ": ", ci, collapse = "\n"), "\n")
    }
  }
}
