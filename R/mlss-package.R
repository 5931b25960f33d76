#' mlss: multi-label learning with shared subspaces
#'
#' Multi-label classification methods that share information between labels,
#' with solvers in C on R's own LAPACK and BLAS.  Start with [mlls()] and the
#' vignette `vignette("getting-started", package = "mlss")`.
#'
#' @keywords internal
#' @importFrom Matrix colMeans crossprod rowMeans rowSums tcrossprod
#' @useDynLib mlss, .registration = TRUE, .fixes = "C_"
"_PACKAGE"
