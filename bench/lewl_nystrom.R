# Recovery quality of lewl()'s Nystrom route against the exact route forced
# (issue 23), run from the package directory:  Rscript bench/lewl_nystrom.R
#
# The paper's Table 2 protocol: a share `rate` of the label entries hidden
# uniformly at random (mask_labels(by = "entry", seed = 2020)), lewl() with
# its defaults fitted on the rest, the hidden entries scored by $recovered:
# average precision (ml_metrics() on the true labels with every other entry
# NA) and the AUC of the hidden entries pooled (micro) and label by label
# (macro).  Each set at rates 0.3 and 0.7, with approx = "exact" and
# approx = "nystrom" at each number of landmarks; the difference nystrom -
# exact is the figure the issue bounds (0.005).
# Environment: LEWL_NYS_SETS ("emotions,yeast,medical,enron"), LEWL_NYS_RATES
# ("0.3,0.7"), LEWL_NYS_LANDMARKS ("500": the default of lewl()),
# LEWL_NYS_DIAG ("TRUE": the Nystrom kernel with its exact diagonal, lewl()'s
# default; "FALSE": the low-rank factor alone, options(mlss.lewl_nystrom_diag),
# the Gram route; "TRUE,FALSE": both, against one exact fit),
# LEWL_NYS_K ("default": lewl()'s k = m; "half": ceiling(m / 2), lewl()'s default
# before issue 22 and the k of the first table of the results), LEWL_NYS_EXACT
# ("TRUE"; "FALSE" skips the exact route: the d_* columns are then against the
# first Nystrom row, and the exact figures come from an earlier run).
# LEWL_NYS_STOP (unset: lewl()'s default stopping test; "settled", "objective"
# or "terms": options(mlss.lewl_stop)), LEWL_NYS_ACCEL (unset: lewl()'s
# default; a depth d: options(mlss.lewl_accel = d)), LEWL_NYS_LIB (the build),
# LEWL_NYS_EIGEN ("auto": the Z-step lewl() takes, options(mlss.lewl_eigen);
# "auto,iterative": the Nystrom fits both by the default route (with the
# diagonal: the projected Z-step, session s37) and by the eigensolver's exact
# eigenvectors).  LEWL_NYS_ACCELS (unset: the Nystrom fits as the exact one;
# a list of depths, e.g. "0,10": each Nystrom fit once per depth, with
# options(mlss.lewl_accel = d) for that fit only, the exact route at lewl()'s
# default or LEWL_NYS_ACCEL; session s38).
# Results: bench/lewl_nystrom_results.md.
lib <- Sys.getenv("LEWL_NYS_LIB", "")
if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
if (nzchar(Sys.getenv("LEWL_NYS_STOP"))) options(mlss.lewl_stop = Sys.getenv("LEWL_NYS_STOP"))
if (nzchar(Sys.getenv("LEWL_NYS_ACCEL")))
  options(mlss.lewl_accel = as.integer(Sys.getenv("LEWL_NYS_ACCEL")))
suppressPackageStartupMessages(source(file.path("bench", "common.R")))
options(width = 150)
sets <- strsplit(Sys.getenv("LEWL_NYS_SETS", "emotions,yeast,medical,enron"), ",")[[1]]
rates <- as.numeric(strsplit(Sys.getenv("LEWL_NYS_RATES", "0.3,0.7"), ",")[[1]])
marks <- as.integer(strsplit(Sys.getenv("LEWL_NYS_LANDMARKS", "500"), ",")[[1]])
half_k <- Sys.getenv("LEWL_NYS_K", "default") == "half"
diags <- as.logical(strsplit(Sys.getenv("LEWL_NYS_DIAG", "TRUE"), ",")[[1]])
eigens <- strsplit(Sys.getenv("LEWL_NYS_EIGEN", "auto"), ",")[[1]]
accels <- if (nzchar(Sys.getenv("LEWL_NYS_ACCELS")))
  as.integer(strsplit(Sys.getenv("LEWL_NYS_ACCELS"), ",")[[1]]) else NA
accel0 <- getOption("mlss.lewl_accel")
options(mlss.lewl_nystrom_diag = diags[1])
cat("lewl Nystrom vs exact;", R.version.string, "; stop:", getOption("mlss.lewl_stop", "default"),
    "; accel:", getOption("mlss.lewl_accel", "default"), "; diag:",
    getOption("mlss.lewl_nystrom_diag"), "; load:", readLines("/proc/loadavg"), "\n")



rows <- list()
for (name in sets) {
  d <- load_mulan_set(name)
  y <- d$y[, colSums(d$y) > 0, drop = FALSE]
  for (rate in rates) {
    ymiss <- mlss:::mask_labels(y, rate, by = "entry", seed = 2020)$y
    hidden <- is.na(ymiss)
    routes <- c(if (as.logical(Sys.getenv("LEWL_NYS_EXACT", "TRUE")))
                  list(list(approx = "exact", landmarks = NULL)),
                unlist(lapply(diags, function(dg) unlist(lapply(marks, function(r)
                  unlist(lapply(eigens, function(e) lapply(accels, function(a)
                    list(approx = "nystrom", landmarks = r, diag = dg, eigen = e,
                         accel = a))), recursive = FALSE)), recursive = FALSE)),
                       recursive = FALSE))
    base <- NULL
    for (rt in routes) {
      set.seed(1)
      options(mlss.lewl_nystrom_diag = if (is.null(rt$diag)) TRUE else rt$diag)
      options(mlss.lewl_eigen = if (is.null(rt$eigen)) "auto" else rt$eigen)
      options(mlss.lewl_accel = if (is.null(rt$accel) || is.na(rt$accel)) accel0 else rt$accel)
      tt <- system.time(fit <- suppressWarnings(
        lewl(d$x, ymiss, k = if (half_k) ceiling(ncol(ymiss) / 2), approx = rt$approx,
             landmarks = rt$landmarks)))
      m <- hidden_entry_measures(y, hidden, fit$recovered)
      if (is.null(base)) base <- m
      r <- data.frame(set = name, n = nrow(y), rate = rate, route = rt$approx,
                      landmarks = if (is.null(rt$landmarks)) NA else rt$landmarks,
                      diag = if (is.null(rt$diag)) NA else rt$diag,
                      eigen = if (is.null(rt$eigen)) "auto" else rt$eigen,
                      accel = if (is.null(getOption("mlss.lewl_accel"))) NA
                              else getOption("mlss.lewl_accel"),
                      t(m), d_ap = m[["ap"]] - base[["ap"]],
                      d_micro_auc = m[["micro_auc"]] - base[["micro_auc"]],
                      d_macro_auc = m[["macro_auc"]] - base[["macro_auc"]],
                      iterations = fit$iterations, accel_steps = fit$accel_steps,
                      accel_refused = fit$accel_rejected,
                      objective = tail(fit$objective, 1),
                      products = round(mean(fit$eig_products)), cpu_s = tt[[1]] + tt[[2]],
                      elapsed_s = tt[[3]])
      print(r, digits = 4, row.names = FALSE)
      rows[[length(rows) + 1]] <- r
    }
  }
}
tab <- do.call(rbind, rows)
cat("\nAll:\n")
print(tab, digits = 4, row.names = FALSE)
ny <- tab[tab$route == "nystrom", ]
cat("\nlargest |difference| nystrom - exact: AP", format(max(abs(ny$d_ap)), digits = 3),
    "; micro AUC", format(max(abs(ny$d_micro_auc)), digits = 3), "; macro AUC",
    format(max(abs(ny$d_macro_auc)), digits = 3), "\n")
