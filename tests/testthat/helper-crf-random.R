# Random MLCRF problems shared by test-mlcrf-inference.R and
# test-approx-guarantees.R.

# The edges of the complete graph on m labels, (1, 2), (1, 3), ..., (m-1, m).
dense_pairs <- function(m) {
  p <- which(upper.tri(diag(m)), arr.ind = TRUE)
  p[order(p[, 1], p[, 2]), , drop = FALSE]
}

# Random potentials of n rows on the complete graph of m labels (node
# potentials N(0, 1), pair potentials N(0, sd^2)), and the 0-based ends of
# the edges as the inference takes them.
dense_potentials <- function(n, m, sd) {
  pairs <- dense_pairs(m)
  list(pairs = pairs, node = matrix(rnorm(n * m), n),
       pair = matrix(rnorm(n * 3 * nrow(pairs), sd = sd), n),
       f = pairs[, 1] - 1L, t = pairs[, 2] - 1L)
}

# An MLCRF fit on small random data: after set.seed(seed), the data of
# crf_random_data(n, d, m) (helper-mlcrf.R) and the fit of mlcrf() on them
# with the arguments in ...; returns list(x, y, fit).
crf_random_fit <- function(seed, n, d, m, ...) {
  set.seed(seed)
  dat <- crf_random_data(n, d, m)
  c(dat, list(fit = mlcrf(dat$x, dat$y, ...)))
}
