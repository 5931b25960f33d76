#' Stratified folds for multi-label data
#'
#' Assigns instances to cross-validation folds by the iterative stratification
#' of Sechidis, Tsoumakas and Vlahavas (2011): labels are taken from the
#' rarest to the most frequent, and each instance carrying the current label
#' goes to the fold that most lacks that label (ties: the fold that most lacks
#' instances, then at random).  Every label with at least two positives then
#' has positives in every training part (all folds but one); instances without
#' labels fill the folds last.  Random choices use R's generator, so
#' `set.seed()` makes the folds reproducible.
#'
#' Missing labels (`NA` in `y`) are not positives: the folds stratify on the
#' observed positives of each label.
#'
#' @param y Labels: an n x m logical, 0/1 or -1/+1 matrix or data frame;
#'   `NA` marks a missing label.
#' @param nfolds Number of folds, between 2 and n.
#' @return An integer vector of fold numbers in `1:nfolds`, one per instance.
#' @references Sechidis K., Tsoumakas G. and Vlahavas I. (2011). On the
#'   stratification of multi-label data. ECML PKDD 2011, 145-158.
#' @examples
#' data(yeast)
#' set.seed(1)
#' folds <- ml_folds(yeast$y, 5)
#' table(folds)
#' # positives of each label per fold
#' t(sapply(split(as.data.frame(yeast$y), folds), colSums))[, 1:6]
#' @export
ml_folds <- function(y, nfolds = 5) {
  y <- as_labels(y, NROW(y), "y", na = "negative")  # stratify on observed positives
  n <- nrow(y)
  if (!is.numeric(nfolds) || length(nfolds) != 1 || is.na(nfolds) || nfolds < 2 ||
      nfolds > n || nfolds != round(nfolds))
    stop_arg("'nfolds' must be a whole number between 2 and the number of rows (", n, ")")
  nfolds <- as.integer(nfolds)
  lack_fold <- rep(n / nfolds, nfolds)                    # instances still wanted
  lack_label <- outer(colSums(y), rep(1 / nfolds, nfolds))  # positives still wanted
  fold <- integer(n)
  pick <- function(cand) cand[sample.int(length(cand), 1L)]
  remaining <- colSums(y)  # positives not yet in a fold, kept up to date row by row
  repeat {
    if (!any(remaining > 0)) break
    rarest <- which(remaining == min(remaining[remaining > 0]))
    l <- pick(rarest)
    rows <- which(fold == 0L & y[, l])
    for (i in rows[sample.int(length(rows))]) {
      remaining <- remaining - y[i, ]
      want <- lack_label[l, ]
      cand <- which(want == max(want))
      cand <- cand[lack_fold[cand] == max(lack_fold[cand])]
      k <- pick(cand)
      fold[i] <- k
      lack_label[y[i, ], k] <- lack_label[y[i, ], k] - 1
      lack_fold[k] <- lack_fold[k] - 1
    }
  }
  for (i in which(fold == 0L)[sample.int(sum(fold == 0L))]) {
    k <- pick(which(lack_fold == max(lack_fold)))
    fold[i] <- k
    lack_fold[k] <- lack_fold[k] - 1
  }
  fold
}

check_foldid <- function(foldid, n) {
  if (!is.numeric(foldid) || length(foldid) != n || anyNA(foldid) ||
      any(foldid != round(foldid)))
    stop_arg("'foldid' must hold one whole fold number per row (", n, ")")
  foldid <- as.integer(foldid)
  if (!identical(sort(unique(foldid)), seq_len(max(foldid))) || max(foldid) < 2)
    stop_arg("'foldid' must number the folds 1, 2, ..., k (k >= 2), each non-empty")
  foldid
}
