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
#' @return A dense `nrow(x)` x `nrow(z)` matrix.
#' @examples
#' x <- matrix(rnorm(20), 5)
#' kernel_matrix(x, kernel = "rbf", gamma = 0.5)
#' @export
kernel_matrix <- function(x, z = NULL, kernel = c("linear", "rbf", "poly"),
                          gamma = NULL, degree = 2, coef0 = 1) {
  kernel <- match.arg(kernel)
  x <- as_features(x, "x")
  z <- if (is.null(z)) x else as_features(z, "z")
  if (ncol(z) != ncol(x)) stop_arg("'x' and 'z' must have the same number of columns")
  par <- kernel_parameters(kernel, ncol(x), gamma, degree, coef0)
  cross <- as.matrix(tcrossprod(x, z))
  dimnames(cross) <- NULL
  switch(kernel,
    linear = cross,
    rbf = {
      dist2 <- outer(rowSums(x^2), rowSums(z^2), "+") - 2 * cross
      exp(-par$gamma * pmax(dist2, 0))
    },
    poly = (par$gamma * cross + par$coef0)^par$degree)
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
