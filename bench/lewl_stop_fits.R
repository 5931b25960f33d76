# LEWL's stopping tests on whole fits (issue 23): iterations, CPU and the
# distance of the missing entries from the fixed point where each test stops,
# for the plain alternation and the Anderson-mixed one (depth 10).
#   LEWL_SF_SETS=emotions,medical LEWL_SF_RATES=0.3,0.7 \
#     nice -n 15 Rscript bench/lewl_stop_fits.R
# The protocol of bench/lewl_nystrom.R (mask_labels(by = "entry", seed =
# 2020), lewl()'s defaults k = m, lambda = beta = 1, knn = 10; the route
# LEWL_SF_APPROX, "exact" by default).  The fixed point x*: the Anderson-mixed
# fit to tol 1e-14 (its residual: the largest change of one plain iteration
# from it).  `dist`: the largest |x - x*| over the missing entries of the
# completed matrix; d_ap, d_macro_auc: hidden-entry AP and macro AUC minus
# those at x*.  LEWL_SF_LIB: the build.
lib <- Sys.getenv("LEWL_SF_LIB", "")
if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
suppressPackageStartupMessages(source(file.path("bench", "common.R")))
options(width = 160)
sets <- strsplit(Sys.getenv("LEWL_SF_SETS", "emotions,medical"), ",")[[1]]
rates <- as.numeric(strsplit(Sys.getenv("LEWL_SF_RATES", "0.3,0.7"), ",")[[1]])
approx <- Sys.getenv("LEWL_SF_APPROX", "exact")
variants <- strsplit(Sys.getenv("LEWL_SF_VARIANTS",
  "objective/0/1e-6,terms/0/1e-6,settled/0/1e-6,objective/10/1e-6,settled/10/1e-6"), ",")[[1]]
cat("lewl stopping tests, whole fits;", R.version.string, "; load:",
    readLines("/proc/loadavg"), "\n")
solve_with <- function(ymiss, prep, stop, accel, tol, max_iter = 500L) {
  old <- options(mlss.lewl_stop = stop, mlss.lewl_accel = accel)
  on.exit(options(old))
  suppressWarnings(mlss:::lewl_solve(ymiss, prep, ncol(ymiss), 1, 1, "exact", 0.5, tol,
                                     max_iter))
}
all <- list()
for (name in sets) {
  d <- load_mulan_set(name)
  y <- d$y[, colSums(d$y) > 0, drop = FALSE]
  set.seed(1)
  prep <- mlss:::lewl_prepare(d$x, 10, approx = approx)
  for (rate in rates) {
    ymiss <- mlss:::mask_labels(y, rate, by = "entry", seed = 2020)$y
    miss <- is.na(ymiss)
    t0 <- proc.time()
    ref <- solve_with(ymiss, prep, "objective", 10L, 1e-14, 3000L)
    xs <- ref$completed[miss]
    one <- mlss:::lewl_solve(ymiss, prep, ncol(ymiss), 1, 1, "exact", 0.5, 0, 1L,
                             start = ref$completed)
    mref <- hidden_entry_measures(y, miss, ref$recovered)
    cat(sprintf("\n%s rate %.1f (%s): x* by Anderson(10), tol 1e-14: %d iterations, %s, objective %.12g, residual %.3g, AP %.4f, macro AUC %.4f (CPU %.1f s)\n",
                name, rate, approx, ref$iterations,
                if (ref$converged) "converged" else "NOT converged",
                tail(ref$objective, 1), max(abs(one$completed[miss] - xs)), mref[["ap"]],
                mref[["macro_auc"]], (proc.time() - t0)[[1]]))
    for (v in variants) {
      a <- strsplit(v, "/")[[1]]
      t0 <- proc.time()
      fit <- solve_with(ymiss, prep, a[1], as.integer(a[2]), as.numeric(a[3]))
      tt <- proc.time() - t0
      m <- hidden_entry_measures(y, miss, fit$recovered)
      r <- data.frame(set = name, rate = rate, approx = approx, stop = a[1], accel = a[2],
                      tol = a[3], iterations = fit$iterations, converged = fit$converged,
                      cpu_s = tt[[1]] + tt[[2]], dist = max(abs(fit$completed[miss] - xs)),
                      ap = m[["ap"]], macro_auc = m[["macro_auc"]],
                      d_ap = m[["ap"]] - mref[["ap"]],
                      d_macro_auc = m[["macro_auc"]] - mref[["macro_auc"]])
      print(r, digits = 4, row.names = FALSE)
      all[[length(all) + 1]] <- r
    }
  }
}
cat("\nAll:\n")
print(do.call(rbind, all), digits = 4, row.names = FALSE)
