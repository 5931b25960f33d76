# The plain reading of the null per edge of cv_mlcrf(prune = "chisq"), which
# mlcrf_edge_null() (R/mlcrf_prune.R) computes without forming these blocks:
# the reference of test-cv_mlcrf.R, and bench/mlcrf_speed.R part 5's "before"
# (moved here from R/mlcrf_prune.R in session s37: the package no longer
# uses it).

# Per edge e = (a, b) of `fit` (a refit of stage 2 on the rows (x, y)): the
# block of the negative log pseudo-likelihood's Hessian H (unpenalised) in
# the parameters (v_a, v_b, w_e) (the standardised scale, as fit$theta;
# v_a's (d + 1) weights, then v_b's, then the edge's K columns of d + 1),
# and the rows' scores G (n x that many: the derivatives of each row's
# log pseudo-likelihood terms of labels a and b), with the ridge of these
# parameters in the refit's objective times n (`ridge`, a vector: the node
# intercepts' tiny one, the node slopes' lambda_v, the (1,1) intercept's tiny
# one and the edge's lambda_w (1 - eta) elsewhere, each times 2 n).
mlcrf_edge_blocks <- function(fit, x, y) {
  parts <- mlss:::mlcrf_edge_parts(fit, x, y)
  xs <- parts$xs
  y <- parts$y
  w <- parts$w
  r <- parts$r
  n <- nrow(xs)
  p <- ncol(xs)
  K <- parts$K
  zero <- matrix(0, n, p)
  lapply(seq_along(parts$from), function(e) {
    a <- parts$from[e]
    b <- parts$to[e]
    # d z_a / d (w01, w10, w11) and d z_b / d (w01, w10, w11), per row
    da <- if (K == 3L) cbind(-y[, b], 1 - y[, b], y[, b]) else cbind(y[, b])
    db <- if (K == 3L) cbind(1 - y[, a], -y[, a], y[, a]) else cbind(y[, a])
    Aa <- cbind(xs, zero, do.call(cbind, lapply(seq_len(K), function(k) xs * da[, k])))
    Ab <- cbind(zero, xs, do.call(cbind, lapply(seq_len(K), function(k) xs * db[, k])))
    list(H = crossprod(Aa * sqrt(w[, a])) + crossprod(Ab * sqrt(w[, b])),
         G = Aa * r[, a] + Ab * r[, b],
         ridge = parts$ridge(a, b),
         nodes = seq_len(2L * p), edge = 2L * p + seq_len(K * p))
  })
}

# Three labels on three features, 90 rows: a and c driven by the features, b
# a noisy copy of a (one edge a-b); the small problem of the tests of
# cv_mlcrf()'s tolerances and of its grid-edge message.
crf_three_labels <- function(seed = 43, n = 90) {
  set.seed(seed)
  X <- matrix(runif(n * 3, -1, 1), n)
  y1 <- runif(n) < plogis(2 * X[, 1])
  list(X = X, Y = cbind(a = y1, b = ifelse(runif(n) < 0.8, y1, !y1), c = runif(n) < plogis(-X[, 2])))
}
