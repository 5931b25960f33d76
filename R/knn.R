# The exact k-nearest-neighbour search shared by ML-kNN, IBLR and the
# neighbour graphs of other methods (src/knn_core.c).

# The k nearest training rows (Euclidean) of each query row.
#   x     training rows: a dense numeric matrix or a dgCMatrix (n x d), as
#         as_features() gives;
#   k     the number of neighbours, 1 <= k <= n (k <= n - 1 when newx is NULL);
#   newx  query rows (dense or sparse, the same d columns), or NULL for the
#         training rows themselves, each one left out of its own list by index
#         (an exact duplicate of row i is still a neighbour, at distance 0).
# Returns list(index = nq x k integer matrix of 1-based rows of x, by
# increasing distance, ties broken by the lower index; distance = nq x k
# Euclidean distances).  Exact: distances are preselected from
# ||q||^2 + ||x||^2 - 2 q'x by blocks of query rows (BLAS dgemm for dense x, a
# sparse product for sparse x, never an n x n matrix), and every candidate
# within the rounding error of the k-th is recomputed directly as
# sqrt(sum (q - x)^2), which decides the order.  A sparse x makes a dense
# newx sparse; a dense x makes a sparse newx dense.  `block` (query rows per
# dgemm; 0 = automatic) is for the tests.
knn_search <- function(x, k, newx = NULL, block = 0L) {
  x <- as_features(x)
  self <- is.null(newx)
  n <- nrow(x)
  kmax <- n - self
  if (!is.numeric(k) || length(k) != 1 || is.na(k) || k != round(k) || k < 1 || k > kmax)
    stop_arg("'k' must be a whole number from 1 to ", kmax,
             if (self) " (the number of training rows less one: each row is left out of its own neighbours)"
             else " (the number of training rows)")
  sparse <- inherits(x, "dgCMatrix")
  if (!self) {
    newx <- as_features(newx, "newx")
    if (ncol(newx) != ncol(x))
      stop_arg("'newx' has ", ncol(newx), " columns but 'x' has ", ncol(x))
    if (sparse && !inherits(newx, "dgCMatrix"))
      newx <- methods::as(methods::as(newx, "CsparseMatrix"), "generalMatrix")
    if (!sparse && inherits(newx, "dgCMatrix")) newx <- as.matrix(newx)
  }
  .Call(C_knn_search_call, native_matrix(x), if (!self) native_matrix(newx),
        as.integer(k), as.integer(block), mlss_threads())
}
