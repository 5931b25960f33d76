# The diagonal route's eigensolver started from the low-rank part's exact
# eigenvectors (options(mlss.lewl_eig_warm_gram)) against the previous
# iteration's vectors, with and without Anderson mixing (issue 23, session
# s35), run from the package directory:
#   LEWL_WARM_N=5000 Rscript bench/lewl_warm_gram.R
# bench/lewl_scale.R's enron-shaped rows, 30% hidden, 500 landmarks with the
# diagonal, k = m, lambda = beta = 1, 6 iterations (tol 0): the eigensolver's
# products (block columns) per iteration, CPU s per iteration, the objective
# after 6.  LEWL_WARM_LIB: the build to time.
lib <- Sys.getenv("LEWL_WARM_LIB", "")
if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
source(file.path("bench", "lewl_scale.R"))
n <- as.integer(Sys.getenv("LEWL_WARM_N", "5000"))
d <- bench_data(n)
set.seed(1)
prep <- mlss:::lewl_prepare(d$x, 10, approx = "nystrom")
k <- ncol(d$y)
for (warm in c(FALSE, TRUE)) for (acc in c(0L, 10L)) {
  tt <- system.time(f <- suppressWarnings(mlss:::lewl_solve(
    d$y, prep, k, 1, 1, "exact", 0.5, 0, 6L, accel = acc, eig_warm_gram = warm)))
  cat("n", n, "warm_gram", warm, "accel", acc, "products", f$eig_products, "cpu/iter",
      round((tt[1] + tt[2]) / 6, 2), "obj", format(tail(f$objective, 1), digits = 12), "\n")
}
