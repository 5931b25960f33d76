#' Kernel matrices
#'
#' Computes the kernel matrix between the rows of `x` and the rows of `z`, for
#' the kernels that [mlls()] accepts.
#'
#' * `"linear"`: \eqn{k(u, v) = u'v}.
#' * `"rbf"`: \eqn{k(u, v) = \exp(-\gamma \|u - v\|^2)}.
#' * `"poly"`: \eqn{k(u, v) = (\gamma u'v + c_0)^{degree}}.
#'
#' @param x A numeric matrix, data frame of numeric columns or sparse `Matrix`.
#' @param z Optional second set of rows (same columns as `x`); `NULL` means `x`.
#' @param kernel One of `"linear"`, `"rbf"`, `"poly"`.
#' @param gamma Scale of the `"rbf"` and `"poly"` kernels; `NULL` means
#'   `1 / ncol(x)`.
#' @param degree Degree of the `"poly"` kernel (a whole number >= 1).
#' @param coef0 Offset \eqn{c_0} of the `"poly"` kernel.
#' @param shift `NULL`, or a vector of `ncol(x)` numbers subtracted from the
#'   rows of `x` and `z` first.  The linear and polynomial kernels change with
#'   it, but a centred linear kernel does not: [mlls()] uses the column means
#'   of the training data, so that a large offset in the data does not cancel.
#' @details The `"rbf"` kernel depends only on differences, so it is computed
#'   on data shifted by the column means of `z` (of `x` when `z` is `NULL`); a
#'   squared distance that the formula \eqn{|u|^2 + |v|^2 - 2u'v} cannot resolve
#'   (where cancellation or a large `gamma` would spoil the kernel value) is
#'   recomputed from the difference \eqn{u - v}, and the diagonal of
#'   `kernel_matrix(x)` is exactly 1.
#' @return A dense `nrow(x)` x `nrow(z)` matrix.
#' @examples
#' x <- matrix(rnorm(20), 5)
#' kernel_matrix(x, kernel = "rbf", gamma = 0.5)
#' @export
kernel_matrix <- function(x, z = NULL, kernel = c("linear", "rbf", "poly"),
                          gamma = NULL, degree = 2, coef0 = 1, shift = NULL) {
  kernel <- match.arg(kernel)
  x <- as_features(x, "x")
  same <- is.null(z)
  z <- if (same) x else as_features(z, "z")
  if (ncol(z) != ncol(x)) stop_arg("'x' and 'z' must have the same number of columns")
  par <- kernel_parameters(kernel, ncol(x), gamma, degree, coef0)
  if (!is.null(shift)) {
    if (!is.numeric(shift) || length(shift) != ncol(x) || !all(is.finite(shift)))
      stop_arg("'shift' must be NULL or ", ncol(x), " finite numbers")
  } else if (kernel == "rbf" && !inherits(z, "sparseMatrix")) {
    shift <- colMeans(z)  # differences do not change; the cancellation does
  }
  if (!is.null(shift)) {
    x <- sweep(as.matrix(x), 2, shift)
    z <- if (same) x else sweep(as.matrix(z), 2, shift)
  }
  cross <- as.matrix(tcrossprod(x, z))
  dimnames(cross) <- NULL
  switch(kernel,
    linear = cross,
    rbf = exp(-par$gamma * rbf_dist2(x, z, cross, par$gamma, same)),
    poly = (par$gamma * cross + par$coef0)^par$degree)
}

# Squared distances |u|^2 + |v|^2 - 2u'v, with those the formula cannot
# resolve recomputed from u - v: where its rounding error (a few eps times
# |u|^2 + |v|^2) would change exp(-gamma * dist2) by more than 1e-10 and the
# kernel value is not zero anyway.
rbf_dist2 <- function(x, z, cross, gamma, same) {
  nx <- rowSums(x^2)
  nz <- if (same) nx else rowSums(z^2)
  scale <- outer(nx, nz, "+")
  dist2 <- pmax(scale - 2 * cross, 0)
  err <- 8 * .Machine$double.eps * scale
  redo <- which(gamma * err > 1e-10 & gamma * pmax(dist2 - err, 0) < 750, arr.ind = TRUE)
  if (same) {
    redo <- redo[redo[, 1] != redo[, 2], , drop = FALSE]
    diag(dist2) <- 0
  }
  if (nrow(redo) == 0) return(dist2)
  chunk <- max(1L, as.integer(1e6 / ncol(x)))
  for (start in seq(1L, nrow(redo), by = chunk)) {
    ij <- redo[start:min(nrow(redo), start + chunk - 1L), , drop = FALSE]
    diff <- as.matrix(x[ij[, 1], , drop = FALSE]) - as.matrix(z[ij[, 2], , drop = FALSE])
    dist2[ij] <- rowSums(diff^2)
  }
  dist2
}

kernel_parameters <- function(kernel, d, gamma, degree, coef0) {
  if (is.null(gamma)) gamma <- 1 / d
  if (!is.numeric(gamma) || length(gamma) != 1 || !is.finite(gamma) || gamma <= 0)
    stop_arg("'gamma' must be a single positive number")
  if (!is.numeric(degree) || length(degree) != 1 || !is.finite(degree) ||
      degree < 1 || degree != round(degree))
    stop_arg("'degree' must be a whole number >= 1")
  if (!is.numeric(coef0) || length(coef0) != 1 || !is.finite(coef0))
    stop_arg("'coef0' must be a single finite number")
  switch(kernel,
         linear = list(),
         rbf = list(gamma = gamma),
         poly = list(gamma = gamma, degree = degree, coef0 = coef0))
}

# A user-supplied kernel matrix: square (or n_new x n for prediction), finite.
check_kernel_matrix <- function(K, n = NULL, arg = "x") {
  if (inherits(K, "Matrix")) K <- as.matrix(K)
  if (!is.matrix(K) || !is.numeric(K))
    stop_arg("with kernel = \"precomputed\", '", arg, "' must be a numeric kernel matrix")
  if (is.null(n)) {
    if (nrow(K) != ncol(K)) stop_arg("the kernel matrix '", arg, "' must be square")
    if (nrow(K) == 0) stop_arg("the kernel matrix '", arg, "' has no rows")
  } else if (ncol(K) != n) {
    stop_arg("the kernel matrix '", arg, "' must have one column per training ",
             "instance (", n, "), not ", ncol(K))
  }
  storage.mode(K) <- "double"
  if (!all(is.finite(range(K)))) stop_arg("the kernel matrix '", arg, "' contains NA or Inf")
  if (is.null(n) && max(abs(K - t(K))) > 1e-8 * max(abs(K)))
    stop_arg("the kernel matrix '", arg, "' is not symmetric")
  K
}
