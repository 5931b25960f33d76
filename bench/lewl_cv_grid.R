# cv_lewl()'s whole default grid on 2000 rows (issue 23's goal: under two
# minutes), timed: Rscript bench/lewl_cv_grid.R (LEWL_GRID_LIB: the build).
# Data: bench/lewl_scale.R's 2000 enron rows, 30% of the label entries
# hidden; cv_lewl(x, y) with every default (5 folds, lambda 10^(-1:1), beta
# c(0, 1, 10), k = ceiling(m * c(1/2, 1)): 18 points), set.seed(1).  Each
# fold fit (and the refit) is logged as it ends: its grid point, iterations
# and the process's CPU (user + sys, children included) and elapsed time so
# far, so that a run stopped early still says how far it got.
lib <- Sys.getenv("LEWL_GRID_LIB", "")
if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
source(file.path("bench", "lewl_scale.R"))
cpu <- function() {
  p <- proc.time()
  sum(p[c("user.self", "sys.self", "user.child", "sys.child")], na.rm = TRUE)
}
cat("cv_lewl default grid, 2000 rows; BLAS", extSoftVersion()[["BLAS"]], "; LAPACK",
    La_library(), "; load", readLines("/proc/loadavg"), "\n")
d <- bench_data(2000)
c0 <- cpu()
e0 <- proc.time()[["elapsed"]]
nfit <- 0L
log_fit <- quote({
  nfit <<- nfit + 1L
  f <- returnValue()
  cat(sprintf("fit %3d: lambda %g beta %g k %d: %d iterations; %.1f CPU s, %.1f s elapsed so far; load %s\n",
              nfit, lambda, beta, k, f$iterations, cpu() - c0,
              proc.time()[["elapsed"]] - e0, readLines("/proc/loadavg")))
})
suppressMessages(trace(mlss:::lewl_solve, exit = log_fit, print = FALSE,
                       where = asNamespace("mlss")))
set.seed(1)
cv <- suppressWarnings(cv_lewl(d$x, d$y, progress = FALSE))
cat(sprintf("cv_lewl done: %.1f CPU s (%.2f min), %.1f s elapsed; %d fits; peak RSS %.0f MB\n",
            cpu() - c0, (cpu() - c0) / 60, proc.time()[["elapsed"]] - e0, nfit, peak_mb()))
print(cv)
cat("load", readLines("/proc/loadavg"), "\n")
