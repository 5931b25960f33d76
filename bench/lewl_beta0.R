# Why beta = 0 never converges (issue 23, session 41): without the graph term
# nothing holds the missing entries of Yt near the labels' range, and the
# alternation moves them further out for as long as it runs while the
# objective keeps falling.  Per set (the rows of bench/lewl_beta_grid.R, 30%
# of the label entries hidden), k = m, lambda 0.1 and 10, beta 0, 0.1 and 1:
# the plain alternation (lewl()'s default scheme, tol = 0) run in blocks to
# 2000 iterations; after each block the objective, the largest |missing
# entry| of Yt, its 99th percentile and how many lie outside [-1, 2].
#   OB=/usr/lib/x86_64-linux-gnu/openblas-pthread; OPENBLAS_NUM_THREADS=1 \
#   LD_PRELOAD="$OB/libblas.so.3 $OB/liblapack.so.3" LEWL_B0_LIB=/tmp/lib \
#   Rscript bench/lewl_beta0.R [sets]     (results: bench/lewl_beta0_results.md)
lib <- Sys.getenv("LEWL_B0_LIB", "")
if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
source(file.path("bench", "common.R"))
args <- commandArgs(trailingOnly = TRUE)
sets <- if (length(args)) args else c("emotions", "yeast", "medical", "enron", "scene")
blocks <- c(50, 450, 500, 1000)  # ends at 50, 500, 1000, 2000 iterations
for (name in sets) {
  d <- load_lewl_grid_set(name)
  x <- d$x
  y <- d$y
  n <- nrow(x)
  set.seed(1)
  prep <- mlss:::lewl_prepare(x, knn = 10)
  miss <- is.na(y)
  k <- ncol(y)
  cat(sprintf("\n## %s: %d rows, m = k = %d, %d missing entries\n", name, n, k, sum(miss)))
  for (lambda in c(0.1, 10)) for (beta in c(0, 0.1, 1)) {
    Yt <- NULL
    Z0 <- NULL
    done <- 0
    c0 <- cpu_seconds()
    for (b in blocks) {
      r <- suppressWarnings(mlss:::lewl_solve(y, prep, k, lambda, beta, "exact", 0.5, tol = 0,
                                              max_iter = b, start = Yt, Z0 = Z0))
      Yt <- r$completed
      Z0 <- r$Z
      done <- done + b
      xm <- Yt[miss]
      cat(sprintf("lambda %-4g beta %-4g iter %4d: objective %.8g  max|x| %7.3f  q99 %6.3f  outside [-1, 2] %5d  (%.0f CPU s)\n",
                  lambda, beta, done, tail(r$objective, 1), max(abs(xm)),
                  stats::quantile(abs(xm), 0.99), sum(xm < -1 | xm > 2), cpu_seconds() - c0))
    }
  }
}
