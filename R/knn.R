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
  # Squared distances of values beyond ~1e154 overflow to Inf, and those of
  # values below ~1e-162 underflow to 0: either makes neighbours ties.
  # Dividing by a power of 2 is exact, so the neighbour order is that of x;
  # the distances are scaled back.  Data all below 2^-400 are scaled up (no
  # loss); rows whose distances overflowed are searched again on the data
  # scaled down, which loses only squares negligible against theirs (one huge
  # value must not flush the other rows' distances to 0).
  search <- function(s) {
    res <- .Call(C_knn_search_call, native_matrix(knn_divide(x, s)),
                 if (!self) native_matrix(knn_divide(newx, s)),
                 as.integer(k), as.integer(block), mlss_threads())
    if (s != 1) res$distance <- res$distance * s
    res
  }
  top <- max(max_abs(x), if (!self) max_abs(newx))
  res <- search(if (top > 0 && top < 2^-400) knn_power2(top) else 1)
  lost <- rowSums(!is.finite(res$distance)) > 0
  if (any(lost)) {
    again <- search(knn_power2(top))
    res$index[lost, ] <- again$index[lost, ]
    res$distance[lost, ] <- again$distance[lost, ]
  }
  res
}

max_abs <- function(x) {
  v <- if (inherits(x, "dgCMatrix")) x@x else x
  if (length(v)) max(abs(v)) else 0
}

# 1, or the power of 2 near the largest |value| m when m is outside
# [2^-400, 2^400] (there d * (2 m)^2 neither overflows nor loses the
# squares of the largest values to underflow).
knn_power2 <- function(m) {
  m <- max(m)
  if (m == 0 || (m <= 2^400 && m >= 2^-400)) return(1)
  2^min(1023, max(-1022, floor(log2(m))))
}

knn_divide <- function(x, s) {
  if (s == 1) return(x)
  if (inherits(x, "dgCMatrix")) x@x <- x@x / s else x <- x / s
  x
}

# Rescaling of the features before a kNN method measures distances
# (`scale = TRUE` of mlknn() and iblr()): each column of a dense x to [0, 1]
# by its training range, as Weka's EuclideanDistance does for Mulan's and
# MEKA's ML-kNN and IBLR; each column of a sparse x divided by its range,
# counting its zeros (no shift, so it stays sparse).  Constant columns are left
# as they are.  Returns list(shift, width) or NULL.
knn_scaling <- function(x, scale) {
  if (!check_flag(scale, "scale")) return(NULL)
  if (inherits(x, "dgCMatrix")) {
    # the column's range, counting its implicit zeros, without a shift (so
    # that x stays sparse): distances, which a shift does not change, are
    # those of the dense scaling, and an offset changes nothing
    nnz <- diff(x@p)
    j <- rep(seq_len(ncol(x)), nnz)
    hi <- lo <- numeric(ncol(x))
    if (length(j)) {
      by_column <- split(x@x, j)
      idx <- as.integer(names(by_column))
      hi[idx] <- vapply(by_column, max, 0)
      lo[idx] <- vapply(by_column, min, 0)
    }
    zeros <- nnz < nrow(x)
    hi[zeros] <- pmax(hi[zeros], 0)
    lo[zeros] <- pmin(lo[zeros], 0)
    width <- hi - lo
    shift <- numeric(ncol(x))
  } else {
    shift <- apply(x, 2, min)
    width <- apply(x, 2, max) - shift
  }
  width[width == 0] <- 1
  list(shift = shift, width = width)
}

apply_scaling <- function(x, scaling) {
  if (is.null(scaling)) return(x)
  if (inherits(x, "dgCMatrix"))
  {
    out <- methods::as(x %*% Matrix::Diagonal(x = 1 / scaling$width), "generalMatrix")
    dimnames(out) <- dimnames(x)
    return(out)
  }
  sweep(sweep(x, 2, scaling$shift), 2, scaling$width, "/")
}

# The number of neighbours of a kNN method on n training rows (each row left
# out of its own neighbours, so at most n - 1).
check_k <- function(k, n) {
  k <- check_whole(k, "k")
  if (k > n - 1)
    stop_arg("'k' = ", k, " is too large: with ", n, " training rows (each one left ",
             "out of its own neighbours) it can be at most ", n - 1)
  as.integer(k)
}

# The training data of a kNN method (mlknn(), iblr()), checked: features and
# labels (a data set's training rows), k (check_k()), and the features
# rescaled as `scale` says (knn_scaling(), kept in the fit for new data).
knn_problem <- function(x, y, k, scale) {
  xy <- ml_xy(x, y)
  x <- as_features(xy$x)
  y <- as_labels(xy$y, nrow(x))
  k <- check_k(k, nrow(x))
  scaling <- knn_scaling(x, scale)
  list(x = apply_scaling(x, scaling), y = y, k = k, scaling = scaling)
}
