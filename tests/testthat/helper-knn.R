# Plain-R references for the kNN search, ML-kNN and IBLR, written from the
# papers (Zhang and Zhou 2007; Cheng and Huellermeier 2009), not from the C code.

# Brute force: the full distance matrix of dist(), each row ordered by
# (distance, index); self = TRUE leaves each row out of its own list.
ref_knn <- function(x, k, newx = NULL) {
  x <- as.matrix(x)
  self <- is.null(newx)
  q <- if (self) x else as.matrix(newx)
  nq <- nrow(q)
  D <- as.matrix(stats::dist(rbind(q, x)))[seq_len(nq), nq + seq_len(nrow(x)), drop = FALSE]
  if (self) diag(D) <- Inf
  index <- t(apply(D, 1, function(d) order(d, seq_along(d))[seq_len(k)]))
  if (k == 1) index <- matrix(index, ncol = 1)
  dimnames(index) <- NULL
  list(index = index, distance = matrix(D[cbind(rep(seq_len(nq), k), as.vector(index))], nq, k))
}
