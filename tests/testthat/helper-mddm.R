# Plain-R references for MDDM, written from the equations with d x d matrices,
# solve()/eigen()/svd(), independently of the C code.

# The generalised eigenproblem X'HLHX p = lambda (mu Xc'Xc + (1 - mu) I) p with
# eigen(solve(S1, S2)); for a singular S1 (mu = 1, rank(Xc) < d) the
# pseudo-inverse, whose eigenvectors with non-zero eigenvalues are the
# minimum-norm solutions.  Columns scaled so that P'S1P = I.
ref_mddm <- function(X, L, mu, k) {
  d <- ncol(X)
  Xc <- scale(X, scale = FALSE)
  S2 <- crossprod(Xc, L %*% Xc)
  S1 <- mu * crossprod(Xc) + (1 - mu) * diag(d)
  S1inv <- if (mu < 1 || qr(Xc)$rank == d) solve(S1) else pinv(S1)
  e <- eigen(S1inv %*% S2)
  P <- Re(e$vectors[, seq_len(k), drop = FALSE])
  P <- P %*% diag(1 / sqrt(diag(crossprod(P, S1 %*% P))), k)
  list(P = P, values = Re(e$values[seq_len(k)]), S1 = S1, S2 = S2)
}

# The largest principal angle between the column spaces of A and B (same
# dimension), through its sine: accurate for small angles, unlike acos().
max_angle <- function(A, B) {
  qa <- qr.Q(qr(A))
  qb <- qr.Q(qr(B))
  asin(min(1, max(svd(qb - qa %*% crossprod(qa, qb))$d)))
}

# Top-k eigenvectors of the centred label kernel HLH.
ref_targets <- function(L, k) {
  n <- nrow(L)
  H <- diag(n) - 1 / n
  eigen(H %*% L %*% H, symmetric = TRUE)$vectors[, seq_len(k), drop = FALSE]
}

# Column j of A equals c_j times column j of B for some c_j != 0.
same_columns_up_to_scale <- function(A, B) {
  cs <- colSums(A * B) / colSums(B * B)
  max(abs(A - B %*% diag(cs, ncol(B)))) / max(abs(A))
}

label_problem <- function(n, d, m, seed, density = 0.4) {
  set.seed(seed)
  X <- matrix(rnorm(n * d), n, d)
  Y <- matrix(runif(n * m) < density, n, m)
  list(X = X, Y = Y, L = tcrossprod(Y + 0))
}
