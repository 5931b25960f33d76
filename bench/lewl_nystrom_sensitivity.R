# How finely does enron's hidden-entry macro AUC resolve a change of the
# kernel?  (Issue 23's bar: the Nystrom route within 0.005 of the exact route;
# session 43, bench/lewl_scale_results.md.)  Per mask (mask_labels(by =
# "entry", seed = s) at rate LEWL_SENS_RATE), every fit run the same number of
# iterations (tol = 0, max_iter = LEWL_SENS_ITER), so that the stopping point
# does not differ between fits: the exact route at the median-heuristic gamma,
# at gamma (1 + 1e-3) and at gamma (1 + 1e-2), and the Nystrom route with 500
# and 1500 landmarks (set.seed(1) before each fit); the measures of
# bench/common.R and their differences from the first fit.
#   OB=/usr/lib/x86_64-linux-gnu/openblas-pthread; OPENBLAS_NUM_THREADS=1 \
#   LD_PRELOAD="$OB/libblas.so.3 $OB/liblapack.so.3" LIB=<build> Rscript bench/lewl_nystrom_sensitivity.R
# Environment: LEWL_SENS_SEEDS ("4,2020,1"), LEWL_SENS_RATE ("0.3"),
# LEWL_SENS_ITER ("150").
lib <- Sys.getenv("LIB", "")
if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
suppressPackageStartupMessages(source(file.path("bench", "common.R")))
seeds <- as.integer(strsplit(Sys.getenv("LEWL_SENS_SEEDS", "4,2020,1"), ",")[[1]])
rate <- as.numeric(Sys.getenv("LEWL_SENS_RATE", "0.3"))
iters <- as.integer(Sys.getenv("LEWL_SENS_ITER", "150"))
d <- load_mulan_set("enron")
y <- d$y[, colSums(d$y) > 0, drop = FALSE]
variants <- list(exact = list("exact", 0, NULL), "gamma x 1.001" = list("exact", 1e-3, NULL),
                 "gamma x 1.01" = list("exact", 1e-2, NULL),
                 "nystrom 500" = list("nystrom", 0, 500), "nystrom 1500" = list("nystrom", 0, 1500))
for (s in seeds) {
  ymiss <- mlss:::mask_labels(y, rate, by = "entry", seed = s)$y
  hidden <- is.na(ymiss)
  g0 <- NULL
  ref <- NULL
  for (v in names(variants)) {
    a <- variants[[v]]
    set.seed(1)
    fit <- suppressWarnings(lewl(d$x, ymiss, approx = a[[1]],
                                 gamma = if (!is.null(g0)) g0 * (1 + a[[2]]),
                                 landmarks = a[[3]], tol = 0, max_iter = iters))
    if (is.null(g0)) g0 <- fit$gamma
    m <- c(hidden_entry_measures(y, hidden, fit$recovered),
           macro_auc_gt5 = hidden_macro_auc(y, hidden, fit$recovered, 6))
    if (is.null(ref)) ref <- m
    cat(sprintf("enron rate %.1f seed %4d, %d iterations, %-12s: ap %.4f micro %.4f macro %.4f macro>5 %.4f; minus exact %+.4f %+.4f %+.4f %+.4f\n",
                rate, s, fit$iterations, v, m[["ap"]], m[["micro_auc"]], m[["macro_auc"]],
                m[["macro_auc_gt5"]], m[["ap"]] - ref[["ap"]],
                m[["micro_auc"]] - ref[["micro_auc"]], m[["macro_auc"]] - ref[["macro_auc"]],
                m[["macro_auc_gt5"]] - ref[["macro_auc_gt5"]]))
  }
}
