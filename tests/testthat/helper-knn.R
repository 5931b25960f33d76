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

# ML-kNN, Zhang and Zhou (2007), Fig. 2, transcribed: returns the posteriors
# P(H1 | E) of the rows of newx (n_new x m).
ref_mlknn <- function(x, y, newx, k, s) {
  y <- as.matrix(y) * 1
  n <- nrow(x)
  m <- ncol(y)
  nb <- ref_knn(x, k)$index                    # leave-self-out neighbours
  nq <- ref_knn(x, k, newx)$index
  out <- matrix(0, nrow(newx), m)
  for (l in seq_len(m)) {
    prior1 <- (s + sum(y[, l])) / (s * 2 + n)
    prior0 <- 1 - prior1
    c1 <- c0 <- numeric(k + 1)                 # c[j + 1] for j = 0..k
    for (i in seq_len(n)) {
      delta <- sum(y[nb[i, ], l])
      if (y[i, l] == 1) c1[delta + 1] <- c1[delta + 1] + 1
      else c0[delta + 1] <- c0[delta + 1] + 1
    }
    for (t in seq_len(nrow(newx))) {
      Ct <- sum(y[nq[t, ], l])
      p1 <- prior1 * (s + c1[Ct + 1]) / (s * (k + 1) + sum(c1))
      p0 <- prior0 * (s + c0[Ct + 1]) / (s * (k + 1) + sum(c0))
      out[t, l] <- p1 / (p1 + p0)
    }
  }
  out
}

# IBLR-ML, Cheng and Huellermeier (2009), transcribed: the neighbour label
# fractions as inputs (leave-self-out on the training set), one penalised
# logistic regression per label by optim() (the objective of br(), bias
# penalised: ref_logistic_objective() of helper-baselines.R); returns the
# probabilities of the rows of newx.
ref_iblr <- function(x, y, newx, k, C, features = FALSE) {
  y <- as.matrix(y) * 1
  z <- function(nbr) sapply(seq_len(ncol(y)), function(l)
    rowMeans(matrix(y[nbr, l], nrow(nbr))))
  Z <- z(ref_knn(x, k)$index)
  Zq <- z(ref_knn(x, k, newx)$index)
  if (features) {
    Z <- cbind(as.matrix(x), Z)
    Zq <- cbind(as.matrix(newx), Zq)
  }
  sapply(seq_len(ncol(y)), function(l) {
    o <- optim(numeric(ncol(Z) + 1), ref_logistic_objective, ref_logistic_gradient, X = Z,
               y = 2 * y[, l] - 1, C = C, method = "BFGS",
               control = list(reltol = 1e-15, maxit = 5000))
    stats::plogis(drop(cbind(Zq, 1) %*% o$par))
  })
}
