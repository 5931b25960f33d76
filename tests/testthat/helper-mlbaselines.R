# Plain-R references for cplst() and mlml(), written from the papers'
# equations (Chen and Lin 2012; Wu et al. 2014 as documented in ?mlml).

# Small random multi-label data: n x d features, n x m logical labels that
# depend on the features, every label with positives and negatives.
mlb_data <- function(n = 40, d = 5, m = 4, seed = 1) {
  set.seed(seed)
  X <- matrix(rnorm(n * d), n, d)
  B <- matrix(rnorm(d * m), d, m)
  Y <- X %*% B + matrix(rnorm(n * m, sd = 0.5), n, m) > 0
  Y[1, ] <- TRUE
  Y[2, ] <- FALSE
  colnames(Y) <- paste0("L", seq_len(m))
  list(X = X, Y = Y)
}

# CPLST by its definition, with the n x n hat matrix formed explicitly:
# V = top-k eigenvectors of Yc' H Yc, H = Xc (Xc'Xc + lambda I)^-1 Xc';
# ridge of Yc V on Xc; scores ybar + (xc W) V'.  Returns the scores on newx.
ref_cplst_scores <- function(X, Y, k, lambda, newx = X) {
  Y <- Y * 1
  mu <- colMeans(X)
  ybar <- colMeans(Y)
  Xc <- sweep(X, 2, mu)
  Yc <- sweep(Y, 2, ybar)
  Ginv <- solve(crossprod(Xc) + lambda * diag(ncol(X)))
  H <- Xc %*% Ginv %*% t(Xc)
  V <- eigen(t(Yc) %*% H %*% Yc, symmetric = TRUE)$vectors[, seq_len(k), drop = FALSE]
  W <- Ginv %*% t(Xc) %*% Yc %*% V
  sweep(sweep(newx, 2, mu) %*% W %*% t(V), 2, ybar, "+")
}

# The same through the n x n kernel form (for d > n): the ridge prediction of
# Yc V is Kc_new (Kc + lambda I)^-1 Yc V with Kc the centred Gram matrix.
ref_cplst_scores_dual <- function(X, Y, k, lambda, newx = X) {
  Y <- Y * 1
  n <- nrow(X)
  mu <- colMeans(X)
  ybar <- colMeans(Y)
  Xc <- sweep(X, 2, mu)
  Yc <- sweep(Y, 2, ybar)
  K <- Xc %*% t(Xc)
  H <- K %*% solve(K + lambda * diag(n))
  V <- eigen(t(Yc) %*% H %*% Yc, symmetric = TRUE)$vectors[, seq_len(k), drop = FALSE]
  A <- solve(K + lambda * diag(n), Yc %*% V)
  sweep(sweep(newx, 2, mu) %*% t(Xc) %*% A %*% t(V), 2, ybar, "+")
}
