# A plain-R label powerset for the LP, PS and RAkEL tests: the distinct rows
# of y as classes (most frequent first, then first seen), br()'s logistic
# regression on each class indicator, the probabilities normalised; the
# label set of the most probable class, and each label's marginal.
lp_reference <- function(x, y, newx, cost = 1) {
  sets <- unique(y)                                   # order of first appearance
  idx <- apply(y, 1, function(r) which(apply(sets, 1, function(s) all(s == r))))
  cnt <- tabulate(idx, nrow(sets))
  ord <- order(-cnt, seq_len(nrow(sets)))             # most frequent first
  sets <- sets[ord, , drop = FALSE]
  idx <- match(idx, ord)
  if (nrow(sets) == 1) {
    P <- matrix(1, nrow(newx), 1)
  } else {
    Z <- vapply(seq_len(nrow(sets)), function(k) idx == k, logical(nrow(y)))
    colnames(Z) <- paste0("c", seq_len(ncol(Z)))
    q <- predict(br(x, Z, learner = "logistic", cost = cost), newx, type = "score")
    P <- q / rowSums(q)
  }
  best <- apply(P, 1, which.max)
  cls <- sets[best, , drop = FALSE]
  marg <- sapply(seq_len(ncol(y)), function(l) rowSums(P[, sets[, l] == 1, drop = FALSE]))
  list(sets = sets, P = P, class = cls, score = matrix(marg, nrow(newx)))
}

# Small problems for the LP, PS and RAkEL tests: y from a noisy linear model
# of x, and n_new new rows.
labelset_problem <- function(seed = 1, n = 60, d = 4, m = 3, sd = 0.7, n_new = 15) {
  set.seed(seed)
  x <- matrix(rnorm(n * d), n, d, dimnames = list(NULL, paste0("f", 1:d)))
  w <- matrix(rnorm(d * m), d, m)
  y <- x %*% w + matrix(rnorm(n * m, sd = sd), n, m) > 0
  colnames(y) <- paste0("l", 1:m)
  list(x = x, y = y,
       newx = matrix(rnorm(n_new * d), n_new, d, dimnames = list(NULL, colnames(x))))
}
