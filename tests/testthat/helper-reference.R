# Plain-R transcriptions of the equations, written independently of the C code:
# dense d x d (or n x n) matrices, solve() and eigen(), no SVD tricks.

# MLLS closed form (Ji et al. 2010, Lemma 2.2 and Theorem 2.3), no intercept.
ref_mlls <- function(X, Y, alpha, beta, r) {
  n <- nrow(X); d <- ncol(X)
  A <- crossprod(X) / n
  S <- solve(A + beta * diag(d)) %*% crossprod(X, Y) %*% crossprod(Y, X) %*%
    solve(A + (alpha + beta) * diag(d))
  e <- eigen(S)
  theta_t <- qr.Q(qr(Re(e$vectors[, seq_len(r), drop = FALSE])))
  U <- solve(A + (alpha + beta) * diag(d) - alpha * tcrossprod(theta_t), crossprod(X, Y)) / n
  list(U = U, Theta = t(theta_t), values = Re(e$values))
}

# Optimal U for a given orthonormal Theta (Lemma 2.2), and the objective.
ref_u_given_theta <- function(X, Y, alpha, beta, Theta) {
  n <- nrow(X); d <- ncol(X)
  solve(crossprod(X) / n + (alpha + beta) * diag(d) - alpha * crossprod(Theta),
        crossprod(X, Y)) / n
}
ref_objective <- function(X, Y, alpha, beta, U, Theta) {
  V <- Theta %*% U
  sum((X %*% U - Y)^2) / nrow(X) + alpha * sum((U - t(Theta) %*% V)^2) + beta * sum(U^2)
}

# Kernel MLLS through the paper's Theorem 5.1 (needs an invertible K):
# B from S2 b = lambda S1 b with B'KB = I, then A from the normal equations
# ((1/n) K + (alpha + beta) I - alpha B B'K) A = Y / n.
ref_kernel_mlls <- function(K, Y, alpha, beta, r) {
  n <- nrow(K)
  N <- K %*% K / n + (alpha + beta) * K
  KNK <- K %*% solve(N, K)
  S1 <- K - alpha * KNK
  S2 <- KNK %*% Y %*% t(Y) %*% KNK
  e <- eigen(solve(S1, S2))
  B <- Re(e$vectors[, seq_len(r), drop = FALSE])
  ev <- eigen(crossprod(B, K %*% B), symmetric = TRUE)
  B <- B %*% ev$vectors %*% diag(1 / sqrt(ev$values), r) %*% t(ev$vectors)
  A <- solve(K / n + (alpha + beta) * diag(n) - alpha * B %*% t(B) %*% K, Y / n)
  list(A = A, B = B)
}

# Orthogonal projector onto the row space of Theta (r x d): subspaces agree
# when their projectors do.
row_projector <- function(Theta) tcrossprod(qr.Q(qr(t(Theta))))
subspace_distance <- function(T1, T2) max(abs(row_projector(T1) - row_projector(T2)))

# The grid point cross-validation should choose, in plain R: the best mean
# measure; among equal means the largest beta, then the largest alpha.  An
# undefined mean never wins.
ref_best <- function(cvfold, grid, higher = TRUE) {
  v <- rowMeans(cvfold)
  if (!higher) v <- -v
  v[is.na(v)] <- -Inf
  top <- which(v == max(v))
  top <- top[grid$beta[top] == max(grid$beta[top])]
  unname(top[grid$alpha[top] == max(grid$alpha[top])])
}

# Moore-Penrose pseudo-inverse through the SVD.
pinv <- function(X, tol = 1e-10) {
  s <- svd(X)
  keep <- s$d > tol * s$d[1]
  s$v[, keep, drop = FALSE] %*% (t(s$u[, keep, drop = FALSE]) / s$d[keep])
}

rel_diff <- function(a, b) max(abs(a - b)) / max(abs(b))

random_problem <- function(n, d, m, seed) {
  set.seed(seed)
  X <- matrix(rnorm(n * d), n, d)
  Y <- matrix(sample(c(-1, 1), n * m, replace = TRUE), n, m)
  list(X = X, Y = Y)
}

sparse_version <- function(X, density = 0.3, seed = 1) {
  set.seed(seed)
  X[matrix(runif(length(X)) > density, nrow(X))] <- 0
  X
}
