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

# MLML's graphs from the definitions in ?mlml, with dense matrices: the
# normalised adjacency of the symmetrised kNN graph (heat kernel, sigma^2 the
# mean squared neighbour distance) and the label cosine graph.
ref_mlml_graphs <- function(X, Y, knn) {
  n <- nrow(X)
  D2 <- as.matrix(dist(X))^2
  diag(D2) <- Inf
  nb <- t(apply(D2, 1, function(d) order(d)[seq_len(knn)]))
  A <- matrix(FALSE, n, n)
  A[cbind(rep(seq_len(n), knn), as.vector(nb))] <- TRUE
  A <- A | t(A)
  sigma2 <- mean(D2[cbind(rep(seq_len(n), knn), as.vector(nb))])
  W <- ifelse(A, exp(-D2 / sigma2), 0)
  SX <- diag(1 / sqrt(rowSums(W))) %*% W %*% diag(1 / sqrt(rowSums(W)))
  P <- 1 * (!is.na(Y) & Y)
  m <- ncol(Y)
  WC <- matrix(0, m, m)
  for (a in 1:m) for (b in 1:m)
    if (a != b && sum(P[, a]) > 0 && sum(P[, b]) > 0)
      WC[a, b] <- sum(P[, a] * P[, b]) / sqrt(sum(P[, a]) * sum(P[, b]))
  dc <- rowSums(WC)
  SC <- WC / sqrt(outer(dc, dc))
  SC[dc == 0, ] <- 0
  SC[, dc == 0] <- 0
  LC <- diag(as.numeric(dc > 0)) - SC
  list(LX = diag(n) - SX, LC = LC)
}

# The MLML objective and its gradient on Z (n x m), Ys in {-1, 0, 1}.
ref_mlml_objective <- function(Z, Ys, g, beta, gamma, loss) {
  fit <- if (loss == "linear") -sum(Ys * Z) else 0.5 * sum((Z - Ys)[Ys != 0]^2)
  fit + beta * sum(Z * (g$LX %*% Z)) + gamma * sum(Z * (Z %*% g$LC))
}
ref_mlml_gradient <- function(Z, Ys, g, beta, gamma, loss) {
  gl <- if (loss == "linear") -Ys else (Z - Ys) * (Ys != 0)
  gl + 2 * beta * g$LX %*% Z + 2 * gamma * Z %*% g$LC
}

# The QP solved by L-BFGS-B (optim), independent of the package's solver.
ref_mlml_optim <- function(X, Y, beta, gamma, knn, loss) {
  g <- ref_mlml_graphs(X, Y, knn)
  Ys <- ifelse(is.na(Y), 0, ifelse(Y, 1, -1))
  n <- nrow(Ys)
  m <- ncol(Ys)
  f <- function(z) ref_mlml_objective(matrix(z, n, m), Ys, g, beta, gamma, loss)
  gr <- function(z) as.vector(ref_mlml_gradient(matrix(z, n, m), Ys, g, beta, gamma, loss))
  o <- optim(as.vector(Ys), f, gr, method = "L-BFGS-B", lower = -1, upper = 1,
             control = list(factr = 1, pgtol = 0, maxit = 10000))
  list(Z = matrix(o$par, n, m), value = o$value, graphs = g, Ys = Ys)
}
