# Plain-R measures on the observed entries of a label matrix with NA, written
# from the definitions in ?ml_metrics (Mulan's conventions) and its section
# "Missing labels": a label-based measure on each label's observed rows, an
# example-based or ranking one on each instance's observed labels.

ref_f1 <- function(tp, fp, fn) if (tp + fp + fn == 0) 1 else 2 * tp / (2 * tp + fp + fn)

ref_counts <- function(y, p) c(tp = sum(y & p), fp = sum(!y & p), fn = sum(y & !p))

ref_macro_f1 <- function(Y, P) {
  f <- vapply(seq_len(ncol(Y)), function(l) {
    o <- !is.na(Y[, l])
    if (!any(o)) return(NA_real_)
    cnt <- ref_counts(Y[o, l], P[o, l])
    ref_f1(cnt[["tp"]], cnt[["fp"]], cnt[["fn"]])
  }, 0)
  mean(f, na.rm = TRUE)
}

ref_micro_f1 <- function(Y, P) {
  o <- !is.na(Y)
  cnt <- ref_counts(Y[o], P[o])
  ref_f1(cnt[["tp"]], cnt[["fp"]], cnt[["fn"]])
}

ref_hamming <- function(Y, P) { o <- !is.na(Y); mean(Y[o] != P[o]) }

# One value per instance with an observed label, then the mean.
ref_example <- function(Y, P, what) {
  v <- vapply(seq_len(nrow(Y)), function(i) {
    o <- !is.na(Y[i, ])
    if (!any(o)) return(NA_real_)
    y <- Y[i, o]; p <- P[i, o]
    tp <- sum(y & p); fp <- sum(!y & p); fn <- sum(y & !p)
    empty <- tp + fp + fn == 0
    switch(what,
           subset_accuracy = as.numeric(fp + fn == 0),
           example_f1 = ref_f1(tp, fp, fn),
           example_accuracy = if (empty) 1 else tp / (tp + fp + fn),
           example_precision = if (empty) 1 else if (tp + fp == 0) 0 else tp / (tp + fp),
           example_recall = if (empty) 1 else if (tp + fn == 0) 0 else tp / (tp + fn))
  }, 0)
  mean(v, na.rm = TRUE)
}

# Ranking measures: the observed labels of each instance ranked by decreasing
# score, a tie going to the later label.  NA for an instance left out.
ref_ranking <- function(Y, S, what) {
  v <- vapply(seq_len(nrow(Y)), function(i) {
    o <- which(!is.na(Y[i, ]))
    if (!length(o)) return(NA_real_)
    y <- Y[i, o]; s <- S[i, o]
    rank <- order(-s, -seq_along(s))     # best first
    rel <- y[rank]                       # relevance down the ranking
    nrel <- sum(y); m <- length(y)
    switch(what,
           ranking_loss = {
             if (nrel == 0 || nrel == m) 0 else {
               bad <- 0
               for (a in which(y)) for (b in which(!y))
                 bad <- bad + (which(rank == b) < which(rank == a))
               bad / (nrel * (m - nrel))
             }
           },
           average_precision = if (nrel == 0) NA_real_ else
             mean(vapply(which(rel), function(k) sum(rel[1:k]) / k, 0)),
           coverage = if (nrel == 0) 0 else max(which(rel)) - 1,
           one_error = as.numeric(!rel[1]))
  }, 0)
  mean(v, na.rm = TRUE)
}

ref_auc <- function(s, y) {
  pos <- s[y]; neg <- s[!y]
  if (!length(pos) || !length(neg)) return(NA_real_)
  mean(outer(pos, neg, ">") + 0.5 * outer(pos, neg, "=="))
}

ref_macro_auc <- function(Y, S)
  mean(vapply(seq_len(ncol(Y)), function(l) {
    o <- !is.na(Y[, l]); ref_auc(S[o, l], Y[o, l])
  }, 0), na.rm = TRUE)

ref_micro_auc <- function(Y, S) { o <- !is.na(Y); ref_auc(S[o], Y[o]) }

# A random label matrix with a share of NA, predictions and tied scores.
missing_problem <- function(n = 40, m = 5, na_rate = 0.3, seed = 1) {
  set.seed(seed)
  Y <- matrix(runif(n * m) < 0.35, n, m, dimnames = list(NULL, paste0("L", 1:m)))
  Y[matrix(runif(n * m) < na_rate, n, m)] <- NA
  list(Y = Y, P = matrix(runif(n * m) < 0.4, n, m),
       S = matrix(round(runif(n * m), 1), n, m))
}
