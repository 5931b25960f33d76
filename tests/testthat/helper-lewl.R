# Plain-R references for LEWL (methods.md section 4), written from the
# equations: brute-force neighbours, dense Laplacian, eigen() and solve().

lewl_problem <- function(n = 40, d = 5, m = 5, rate = 0.3, seed = 1) {
  set.seed(seed)
  x <- matrix(rnorm(n * d), n, d)
  w <- matrix(rnorm(d * m), d, m)
  y <- (x %*% w + matrix(rnorm(n * m, sd = 0.5), n, m)) > 0.3
  y[1, ] <- TRUE  # every label has a positive
  colnames(y) <- paste0("L", seq_len(m))
  ymiss <- y
  ymiss[matrix(runif(n * m) < rate, n, m)] <- NA
  ymiss[1, ] <- TRUE
  list(x = x, y = y, ymiss = ymiss)
}

# W: w_ij = exp(-|x_i - x_j|^2 / t) where i is among the knn nearest of j or
# j among those of i (ties by lower index), else 0.
ref_lewl_graph <- function(x, knn, t) {
  d2 <- as.matrix(dist(x))^2
  n <- nrow(x)
  A <- matrix(FALSE, n, n)
  for (i in seq_len(n)) {
    di <- d2[i, ]
    di[i] <- Inf
    A[i, order(di)[seq_len(knn)]] <- TRUE
  }
  A <- A | t(A)
  W <- ifelse(A, exp(-d2 / t), 0)
  W
}

ref_lewl_kernel <- function(x, gamma) exp(-gamma * as.matrix(dist(x))^2)

ref_centre <- function(n) diag(n) - matrix(1 / n, n, n)

ref_lewl_objective <- function(Yt, Z, D, W, K, lambda, beta) {
  L <- diag(rowSums(W)) - W
  H <- ref_centre(nrow(K))
  sum((Yt - Z %*% D)^2) + beta * sum(diag(t(Yt) %*% L %*% Yt)) -
    lambda * sum(diag(K %*% H %*% Z %*% t(Z) %*% H))
}

ref_lewl_zstep <- function(Yt, K, lambda, k) {
  H <- ref_centre(nrow(K))
  e <- eigen(Yt %*% t(Yt) + lambda * H %*% K %*% H, symmetric = TRUE)
  e$vectors[, seq_len(k), drop = FALSE]
}

# The minimiser over the missing entries (miss) of ||Yt - ZD||^2 +
# beta tr(Yt' L Yt), the observed ones held at their values in Yt.
ref_lewl_recover_exact <- function(Yt, ZD, W, beta, miss) {
  A <- diag(nrow(W)) + beta * (diag(rowSums(W)) - W)
  for (j in seq_len(ncol(Yt))) {
    M <- which(miss[, j])
    O <- which(!miss[, j])
    if (!length(M)) next
    Yt[M, j] <- solve(A[M, M, drop = FALSE],
                      ZD[M, j] - A[M, O, drop = FALSE] %*% Yt[O, j])
  }
  Yt
}

# The paper's formula: P_Omega^c((I + beta L)^{-1} Z D), observed entries kept.
ref_lewl_recover_paper <- function(Yt, ZD, W, beta, miss) {
  A <- diag(nrow(W)) + beta * (diag(rowSums(W)) - W)
  full <- solve(A, ZD)
  Yt[miss] <- full[miss]
  Yt
}

projector <- function(Z) Z %*% solve(crossprod(Z), t(Z))
