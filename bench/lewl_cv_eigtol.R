# The Z-step eigensolver's residual tolerance (and Krylov depth) on one fit
# of cv_lewl()'s fold size (issue 23, session 41; bench/lewl_cv_grid_results.md):
# bench/lewl_scale.R's first 1600 enron rows, 30% hidden, the basis route
# (as cv_lewl()'s folds above 1200 rows), lambda 10 (LAM), beta 1, k = m,
# tol 1e-6, max_iter 500; per setting: iterations, CPU, the products per
# iteration, the objective, and the largest change of the completed matrix
# from the first setting's (1e-10, depth 3: lewl()'s).
#   OB=/usr/lib/x86_64-linux-gnu/openblas-pthread; OPENBLAS_NUM_THREADS=1 \
#   LD_PRELOAD="$OB/libblas.so.3 $OB/liblapack.so.3" LIB=<build> Rscript bench/lewl_cv_eigtol.R
lib <- Sys.getenv("LIB", "")
if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
source(file.path("bench", "common.R"))  # cpu_seconds()
source(file.path("bench", "lewl_scale.R"))
f <- bench_fold(1600)
y <- f$y
prep <- f$prep
k <- ncol(y)
lam <- as.numeric(Sys.getenv("LAM", "10"))
settings <- list(c(1e-10, 3), c(1e-8, 3), c(1e-6, 3), c(1e-4, 3), c(1e-6, 2), c(1e-6, 1))
ref <- NULL
for (s in settings) {
  c0 <- cpu_seconds()
  r <- suppressWarnings(mlss:::lewl_solve(y, prep, k, lam, 1, "exact", 0.5, tol = 1e-6,
                                          max_iter = 500, eig_tol = s[1],
                                          eig_depth = as.integer(s[2])))
  if (is.null(ref)) ref <- r
  cat(sprintf("eig_tol %g depth %d: %d iterations, %.2f CPU s, products per iteration median %g, objective %.12g, max|change| %.2e\n",
              s[1], s[2], r$iterations, cpu_seconds() - c0, median(r$eig_products),
              tail(r$objective, 1), max(abs(r$completed - ref$completed))))
}
