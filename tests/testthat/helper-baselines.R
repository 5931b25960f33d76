# Plain-R references for the linear baselines (br, cca_*, aso_svm), written
# from the objectives in ?br, ?cca_ridge and ?aso_svm, not from the C code.

# Small multi-label data with overlapping classes (nothing separable).
baseline_data <- function(n = 60, d = 4, m = 3, seed = 1) {
  set.seed(seed)
  X <- matrix(rnorm(n * d), n, dimnames = list(NULL, paste0("f", seq_len(d))))
  B <- matrix(rnorm(d * m), d)
  Y <- (X %*% B + matrix(rnorm(n * m, sd = 1.5), n)) > 0
  colnames(Y) <- paste0("l", seq_len(m))
  list(X = X, Y = Y)
}

# Ridge with an unpenalised intercept: 0.5 ||w||^2 + C sum (y - b - x'w)^2.
ref_ridge <- function(X, Y, C) {
  Xc <- scale(X, scale = FALSE)
  Yc <- scale(2 * Y - 1, scale = FALSE)
  solve(crossprod(Xc) + diag(ncol(X)) / (2 * C), crossprod(Xc, Yc))
}

# The primal objectives with the bias as a penalised feature of value 1;
# w = c(weights, bias).
ref_logistic_objective <- function(w, X, y, C) {
  z <- drop(cbind(X, 1) %*% w)
  0.5 * sum(w^2) + C * sum(log1p(exp(-y * z)))
}
ref_logistic_gradient <- function(w, X, y, C) {
  Z <- cbind(X, 1)
  z <- drop(Z %*% w)
  w - C * drop(crossprod(Z, y / (1 + exp(y * z))))
}
ref_svm_primal <- function(w, X, y, C, loss) {
  xi <- pmax(0, 1 - y * drop(cbind(X, 1) %*% w))
  0.5 * sum(w^2) + C * sum(if (loss == "hinge") xi else xi^2)
}
# The dual objective (to be maximised): sum a - 0.5 ||sum a_i y_i x_i||^2
# - sum a^2 / (4C) for the squared hinge.
ref_svm_dual <- function(a, X, y, C, loss) {
  v <- colSums(a * y * cbind(X, 1))
  sum(a) - 0.5 * sum(v^2) - if (loss == "hinge") 0 else sum(a^2) / (4 * C)
}

# Regularised CCA: top eigenvectors of (Xc'Xc + n lambda I)^-1 Xc'Yc (Yc'Yc)^-1 Yc'Xc.
ref_cca <- function(X, Y, lambda) {
  n <- nrow(X)
  Xc <- scale(X, scale = FALSE)
  Yc <- scale(2 * Y - 1, scale = FALSE)
  M <- solve(crossprod(Xc) + n * lambda * diag(ncol(X)),
             crossprod(Xc, Yc) %*% solve(crossprod(Yc), crossprod(Yc, Xc)))
  e <- eigen(M)
  list(values = Re(e$values), vectors = Re(e$vectors))
}
