# A plain-R reference of the decision rules of ?ml_decide ("f1", "fixed",
# "rcut", "pcut", "mcut", "lcard", "scut", each optionally with "+1", the
# at-least-one correction), written from their definitions, not from
# R/threshold_rules.R.  Shared by the tests of `rule =` in the cv_*()
# (test-cv-rules-methods.R, test-cv_lewl.R, test-cv_mlcrf.R).

# The cuts between consecutive distinct scores u (decreasing): the midpoint,
# or the lower score where the midpoint would not separate two adjacent
# doubles; above all of them and below all of them.
ref_rule_cuts <- function(u) {
  a <- u[-length(u)]
  b <- u[-1]
  t <- a / 2 + b / 2
  c(Inf, ifelse(t < a & t >= b, t, b), -Inf)
}

# The label sets of the rows `va` of the scores S by rule r, learnt on the
# rows `tr` (their scores S[tr, ] and labels y[tr, ]).  Missing labels (NA in
# y) are left out of every count: the cardinality and the proportions are
# means over the observed entries, scut's errors are counted on the observed
# entries only; on complete labels this is the plain computation.  The base
# rule "f1" cuts label j at f1_cut[j], the cut the caller wants (the
# out-of-fold F1 cuts, a fit's own cuts, ...); f1_cut is only evaluated for
# "f1", so an expensive argument costs nothing for the other rules.  Ties in
# rcut and pcut go to the earlier label / row; "+1" gives a row with no label
# its highest-scoring one (the first among equal highest).
ref_rule_decide <- function(r, S, y, tr, va, f1_cut) {
  one <- grepl("\\+1$", r)
  base <- sub("\\+1$", "", r)
  Sv <- S[va, , drop = FALSE]
  n <- nrow(Sv)
  m <- ncol(Sv)
  ytr <- y[tr, , drop = FALSE]
  card <- sum(colMeans(ytr, na.rm = TRUE))
  P <- matrix(FALSE, n, m)
  if (base == "f1") {
    P <- Sv > rep(f1_cut, each = n)
  } else if (base == "fixed") {
    P <- Sv > 0.5
  } else if (base == "rcut") {
    # the floor(cardinality + 1/2) highest scores of each row
    k <- floor(card + 0.5)
    for (i in seq_len(n)) P[i, order(-Sv[i, ], seq_len(m))[seq_len(k)]] <- TRUE
  } else if (base == "pcut") {
    # per label, its training proportion of the rows
    for (l in seq_len(m)) {
      top <- floor(mean(ytr[, l], na.rm = TRUE) * n + 0.5)
      P[order(-Sv[, l], seq_len(n))[seq_len(top)], l] <- TRUE
    }
  } else if (base == "mcut") {
    # the labels above the largest gap of each row (none where all are equal)
    for (i in seq_len(n)) {
      s <- sort(Sv[i, ], decreasing = TRUE)
      gap <- -diff(s)
      j <- which.max(gap)
      if (gap[j] > 0) P[i, ] <- Sv[i, ] > ref_rule_cuts(s[c(j, j + 1)])[2]
    }
  } else if (base == "lcard") {
    # the cut between distinct scores whose labels per row come closest to
    # the cardinality, the highest among equally close
    cuts <- ref_rule_cuts(sort(unique(as.vector(Sv)), decreasing = TRUE))
    dev <- vapply(cuts, function(t) abs(sum(Sv > t) / n - card), 0)
    P <- Sv > cuts[which.min(dev)]
  } else if (base == "scut") {
    # per label the cut with the fewest errors on the training rows
    for (l in seq_len(m)) {
      obs <- !is.na(ytr[, l])
      s <- S[tr, l][obs]
      cuts <- ref_rule_cuts(sort(unique(s), decreasing = TRUE))
      err <- vapply(cuts, function(t) sum((s > t) != ytr[obs, l]), 0)
      P[, l] <- Sv[, l] > cuts[which.min(err)]
    }
  }
  P <- matrix(as.logical(P), n, m)
  if (one) for (i in which(rowSums(P) == 0)) P[i, which.max(Sv[i, ])] <- TRUE
  P
}
