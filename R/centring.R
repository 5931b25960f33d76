# Centring the features accurately, whatever their column means: the methods
# that centre x (mlls(), mddm(), cplst(), aso_svm(), lewl(), mlcrf(), the
# chunked sums) share these, so that an offset of the features never costs
# digits of the scores (test-offset.R).

# H K H, an n x n kernel matrix centred on both sides (H = I - 11'/n): the
# label kernel of mddm(), the kernel term of lewl()'s eigenbasis.
centre_kernel <- function(K) K - rowMeans(K) - rep(colMeans(K), each = nrow(K)) + mean(K)

# A dense x centred in two passes (the second removes the rounding of the
# first, which a column mean large against its spread leaves): the centred
# matrix and the column means.
centre_dense_columns <- function(x) {
  n <- nrow(x)
  mu <- colMeans(x)
  xc <- x - rep(mu, each = n)
  c2 <- colMeans(xc)
  list(x = xc - rep(c2, each = n), center = mu + c2)
}

# A sparse column whose mean is large against its spread loses its variance to
# cancellation when centred implicitly (X'X - n mu mu').  Such a column is
# mostly non-zero anyway (|mean| > sd needs more than half of it non-zero), so
# it is stored centred, explicitly: the implicit centring of the C code then
# removes a mean of about zero.  Other columns stay as they are.
centre_offset_columns <- function(x) {
  n <- nrow(x)
  nnz <- diff(x@p)
  mu <- Matrix::colSums(x) / n
  j <- rep.int(seq_len(ncol(x)), nnz)
  ss <- (n - nnz) * mu^2  # the zeros' squared deviations, then the non-zeros'
  if (length(j)) {
    dev <- rowsum((x@x - mu[j])^2, j)
    idx <- as.integer(rownames(dev))
    ss[idx] <- ss[idx] + dev[, 1]
  }
  offset <- mu != 0 & mu^2 > ss / n
  offset[is.na(offset)] <- FALSE  # Inf: the overflow is reported later
  if (!any(offset)) return(x)
  D <- as.matrix(x[, offset, drop = FALSE])
  D <- sweep(D, 2, mu[offset])
  D <- sweep(D, 2, colMeans(D))  # a second pass removes the error of the first
  out <- cbind(x[, !offset, drop = FALSE], methods::as(D, "CsparseMatrix"))
  out <- out[, order(c(which(!offset), which(offset))), drop = FALSE]
  methods::as(methods::as(out, "generalMatrix"), "dMatrix")
}

# x centred as the products below want it: a dense x explicitly, in two
# passes (centre_dense_columns()); a sparse x only in its offset columns
# (centre_offset_columns()), which leaves a small shift, the column means of
# the returned x, for the products to remove implicitly.  Returns the x, the
# true column means (center) and that shift (zero for a dense x).
centred_columns <- function(x) {
  if (inherits(x, "sparseMatrix")) {
    xs <- centre_offset_columns(x)
    return(list(x = xs, center = as.numeric(Matrix::colMeans(x)),
                shift = as.numeric(Matrix::colMeans(xs))))
  }
  d <- centre_dense_columns(x)
  list(x = d$x, center = d$center, shift = numeric(ncol(x)))
}

# The centred features Xc = X - 1 mu' as products, accurate whatever the
# column means: implicit centring (X'X - n mu mu', X X' - X mu 1' - ...)
# cancels the digits of columns whose mean is large against their spread (an
# offset of 1e4 on unit data costs 1e-3 of the scores).  A dense x is centred
# explicitly in two passes (the second removes the rounding of the first); a
# sparse x keeps its sparse columns and has only its offset columns, which
# are mostly non-zero anyway, centred explicitly (centre_offset_columns()),
# so that the implicit shift `s` left is small against every column's spread.
# Returns the true column means and closures for Xc B, Xc'C, Xc'Xc, Xc Xc'.
centred_features <- function(x) {
  n <- nrow(x)
  cc <- centred_columns(x)
  xs <- cc$x
  center <- cc$center
  s <- cc$shift
  prod <- function(B) as.matrix(xs %*% B) - rep(drop(crossprod(s, B)), each = n)
  tprod <- function(C) as.matrix(Matrix::crossprod(xs, C)) - outer(s, colSums(as.matrix(C)))
  cross <- function() as.matrix(Matrix::crossprod(xs)) - n * tcrossprod(s)
  gram <- function() {
    K <- as.matrix(Matrix::tcrossprod(xs))
    if (any(s != 0)) {
      xm <- as.numeric(xs %*% s)
      K <- K - xm - rep(xm, each = n) + sum(s^2)
    }
    K
  }
  finite <- function(P) {
    if (!all(is.finite(P)))
      stop_arg("the cross products of 'x' overflow (its largest value is ",
               format(max(abs(xs)), digits = 3), "): rescale 'x'")
    P
  }
  list(center = center, prod = prod, tprod = tprod,
       crossprod = function() finite(cross()), gram = function() finite(gram()))
}
