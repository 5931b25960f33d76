# One whole lewl() fit on n rows (issue 23, session s39): lewl_solve() with
# lewl()'s defaults (k = m, lambda = beta = 1, tol = 1e-6, max_iter = 500)
# on bench/lewl_scale.R's enron rows (30% hidden), preparation included, CPU
# and elapsed seconds, iterations, the final objective and peak RSS; the
# build's default route for the Z-step.  Since the merge (df02fc9) a single
# prepared kernel takes the basis route only when forced: LEWL_FIT_BASIS=TRUE
# sets options(mlss.lewl_eigen = "basis") (the session's "after" figures).
#   LEWL_FIT_LIB=<build> LEWL_FIT_N=2000 Rscript bench/lewl_eigbasis_fit.R
fit_lib <- Sys.getenv("LEWL_FIT_LIB", "")
if (nzchar(fit_lib)) .libPaths(c(fit_lib, .libPaths()))
source(file.path("bench", "lewl_scale.R"))
n <- as.integer(Sys.getenv("LEWL_FIT_N", "2000"))
if (identical(Sys.getenv("LEWL_FIT_BASIS"), "TRUE")) options(mlss.lewl_eigen = "basis")
cpu <- function(tt) tt[["user.self"]] + tt[["sys.self"]]
cat("lewl whole fit; n", n, "; lib", fit_lib, "; BLAS", extSoftVersion()[["BLAS"]], "; load",
    readLines("/proc/loadavg"), "\n")
d <- bench_data(n)
k <- ncol(d$y)
tp <- system.time(prep <- mlss:::lewl_prepare(d$x, 10))
tf <- system.time(f <- suppressWarnings(mlss:::lewl_solve(d$y, prep, k, 1, 1, "exact", 0.5,
                                                            1e-6, 500L)))
cat(sprintf(paste("n %d, k %d: preparation %.2f CPU s (basis: %s); fit %d iterations, %.1f CPU s",
                  "(%.3f per iteration), %.1f s elapsed; objective %s; peak RSS %.0f MB\n"),
            n, k, cpu(tp), !is.null(prep$basis), f$iterations, cpu(tf), cpu(tf) / f$iterations,
            tf[["elapsed"]], format(tail(f$objective, 1), digits = 12), peak_mb()))
cat("load", readLines("/proc/loadavg"), "\n")
