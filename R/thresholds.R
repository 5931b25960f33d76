#' Per-label thresholds that maximise F1
#'
#' For each label (column), finds the threshold on the scores that maximises
#' the F1 measure of the predictions `score > threshold` against `y`, as
#' recommended by Fan and Lin (2007) and used in every experiment of the MLLS
#' papers.
#'
#' Rules, so that the result is always defined:
#' * cut points lie half-way between consecutive distinct scores, so tied
#'   scores are never split;
#' * among cut points with the same F1 the highest threshold (fewest predicted
#'   positives) is chosen;
#' * a label without positives gets `Inf` (never predicted; its F1 is taken
#'   as 1, nothing being predicted or missed), a label without negatives
#'   `-Inf` (always predicted), and so does a best cut below every score;
#' * where the midpoint would not separate two scores (next to an infinite
#'   score, or between two adjacent doubles) the cut is the lower score
#'   itself; a score of `-Inf` is never above any threshold, so with one
#'   present "always predicted" is not on offer, and the reported F1 is always
#'   that of the predictions `score > threshold` really makes;
#' * the chance rule: a cut is kept only when scores that carry no
#'   information about the label would rarely do as well.  If the label's
#'   positives held random ranks among its observed entries, the best of all
#'   cuts would still reach some F1 (about \eqn{2 \log(n)/n}{2 log(n) / n} for a
#'   single positive among n entries, well above the \eqn{2p/(1+p)}{2p / (1 + p)} of
#'   predicting every entry at prevalence p); when the probability that it
#'   reaches the F1 of the chosen cut is above `level` (computed exactly, ties
#'   aside, while entries times positives are at most \eqn{10^8}{1e8}; beyond,
#'   when the F1 is not above \eqn{2p/(1+p)}{2p / (1 + p)}), the label falls back to the majority
#'   rule: never predicted (`Inf`, F1 0) when its positives are fewer than half
#'   of the entries, else always (`-Inf`).  Every threshold the package
#'   chooses (training and out-of-fold, in every method's cross-validation)
#'   follows this rule at one level, the option `mlss.chance_level` (see
#'   below).  Out-of-fold cuts decide it once per label, on all rows: a label
#'   the rule sends to the majority rule there gets that fallback in every
#'   fold, else each fold takes its plain F1 maximum, so that the folds score
#'   the decision the refit predicts by; on medical it stops 20 labels with one or two training positives
#'   from being predicted for hundreds of documents (see
#'   `bench/rare_labels.md`).
#'
#' @section Thresholds:
#' The level of the chance rule is a user setting: the option
#' `mlss.chance_level`, one number in \[0, 1\], default 0.05.  It is the
#' default `level` here and the level of every other threshold the package
#' chooses: the training thresholds of [mlls()], [br()], [ssmddm()] and the
#' other fits, and those of cross-validation ([cv_mlls()] and the other
#' `cv_*()`, [ml_cv()]: out-of-fold or training cuts, read once when the
#' cross-validation starts).  At 0.05, on medical (2/3 : 1/3 split,
#' `cv_mlls()`) it lifted the test macro F1 from 0.450 to 0.581 and the micro
#' F1 from 0.277 to 0.818, but on cal500 (174 labels, many of them frequent)
#' it lowered the macro F1 from 0.228 to 0.135 (`bench/rare_labels.md`).
#' `options(mlss.chance_level = 1)` turns the rule off: every cut is the plain
#' F1 maximum, as before the rule.
#'
#' @param score An n x m numeric matrix of scores (a vector is one label).
#' Missing labels (`NA` in `y`) are left out: each label's threshold is
#' chosen on its observed rows only, and its F1 is that on those rows.
#'
#' @param y The n x m true labels: logical, 0/1 or -1/+1; `NA` marks a
#'   missing label.
#' @param level The chance rule's level, one number in \[0, 1\]: a cut whose
#'   F1 random ranks reach with a probability above it is not kept.  `1` keeps
#'   every cut (the plain F1 maximum).  Defaults to the option
#'   `mlss.chance_level` (0.05 when unset).
#' @return A list with `threshold` and `f1` (the F1 each threshold reaches on
#'   the given data), both named by label.
#' @references Fan R.-E. and Lin C.-J. (2007). A study on threshold selection
#'   for multi-label classification. National Taiwan University.
#' @examples
#' f1_thresholds(c(0.9, 0.8, 0.3, 0.1), c(TRUE, FALSE, TRUE, FALSE))
#' @export
f1_thresholds <- function(score, y, level = chance_level()) {
  if (is.vector(score)) score <- matrix(score, ncol = 1)
  score <- as.matrix(score)
  if (!is.numeric(score)) stop_arg("'score' must be numeric")
  if (anyNA(score)) stop_arg("'score' contains NA")
  y <- as_labels(y, nrow(score), "y", na = "keep")
  if (ncol(y) != ncol(score)) stop_arg("'score' and 'y' must have the same number of columns")
  level <- check_chance_level(level, "'level'")
  storage.mode(score) <- "double"
  res <- .Call(C_f1_thresholds, score, y, level)
  lapply(res, stats::setNames, colnames(score) %||% colnames(y))
}

# The chance rule's level of every threshold the package chooses: the option
# mlss.chance_level (see ?f1_thresholds, section Thresholds), checked, as the
# double the .Call entry points that choose thresholds take.  Read once per
# fit or cross-validation, in the main process, so that parallel workers
# need not see the option.
chance_level <- function() {
  check_chance_level(getOption("mlss.chance_level", 0.05),
                     "the option 'mlss.chance_level'")
}

check_chance_level <- function(level, what) {
  if (!is.numeric(level) || length(level) != 1 || is.na(level) || level < 0 || level > 1)
    stop_arg(what, " must be one number in [0, 1] (0.05 is the default, 1 keeps every cut)")
  as.double(level)
}

# Per-label thresholds that minimise the misclassified entries of each label
# (the Hamming loss decomposes over labels, so these cuts are exactly the
# Hamming-optimal ones for the given scores).  The candidates: never (Inf),
# half-way between consecutive distinct scores (the lower score where the
# midpoint would not separate them, as f1_thresholds() does), and always
# (-Inf, not on offer when a score is -Inf); among equally good cuts the
# highest (fewest predicted).  NA in y: left out.  Returns list(threshold,
# f1), f1 being the F1 of each cut on the data (1 when a label has no
# positives and nothing is predicted), as the refit stores it.
hamming_thresholds <- function(score, y) {
  m <- ncol(score)
  thr <- f1 <- numeric(m)
  for (l in seq_len(m)) {
    obs <- !is.na(y[, l])
    r <- hamming_cut(score[obs, l], y[obs, l])
    thr[l] <- r[1]
    f1[l] <- r[2]
  }
  list(threshold = thr, f1 = f1)
}

hamming_cut <- function(s, y) {
  npos <- sum(y)
  if (!length(s)) return(c(Inf, 1))
  o <- order(s, decreasing = TRUE)
  s <- s[o]
  y <- y[o]
  last <- c(s[-1] != s[-length(s)], TRUE)  # the last entry of each run of ties
  k <- which(last)              # predicting the top k entries
  tp <- cumsum(y)[k]
  errors <- c(npos, npos + k - 2 * tp)  # never, then each cut
  if (s[length(s)] == -Inf) errors[length(errors)] <- Inf  # "always" not on offer
  best <- which.min(errors)      # the first minimum: the highest cut
  if (best == 1) return(c(Inf, if (npos == 0) 1 else 0))
  j <- k[best - 1]
  thr <- if (j == length(s)) -Inf else {
    t <- s[j] / 2 + s[j + 1] / 2
    if (!(t < s[j])) s[j + 1] else t
  }
  c(thr, 2 * tp[best - 1] / (j + npos))
}

# The out-of-fold cuts of one grid point for the measure: column k chosen on
# the rows of the folds other than k, then the one on all rows and its F1
# (as C_cv_point_thresholds_call returns them).  Hamming loss gets
# Hamming-optimal cuts; every other measure that uses thresholds the F1 cuts
# with the chance rule at level (f1_thresholds()), the only cut with a cheap rule for
# measures that do not decompose over labels (exact match, example-based F1,
# accuracy) and the per-label optimum for macro F1.
point_thresholds <- function(score, y, foldid, nfolds, measure, threads, level) {
  if (measure != "hamming_loss")
    return(.Call(C_cv_point_thresholds_call, score, y, foldid, nfolds, threads, level))
  cols <- lapply(seq_len(nfolds), function(k) {
    keep <- foldid != k
    hamming_thresholds(score[keep, , drop = FALSE], y[keep, , drop = FALSE])$threshold
  })
  all <- hamming_thresholds(score, y)
  do.call(cbind, c(cols, list(all$threshold, all$f1)))
}

# ---- where a fit's thresholds come from --------------------------------------------

# Where the per-label thresholds of a fit come from: `threshold_source`
# ("train" or "oof") when the fit says, else "oof" when it carries the
# out-of-fold F1 (cross-validation put the thresholds there), else "train".
threshold_source <- function(fit) {
  fit$threshold_source %||% if (!is.null(fit$oof_f1)) "oof" else "train"
}

# A fit's thresholds replaced by those from the out-of-fold scores (thr: a
# list of threshold and f1), or left as the fit's own (thr NULL); the fit says
# which.
set_thresholds <- function(fit, thr) {
  if (is.null(thr)) {
    fit$threshold_source <- "train"
    return(fit)
  }
  # a model without thresholds of its own (mlknn(), iblr()) gets them named
  if (is.null(fit$thresholds)) fit$thresholds <- stats::setNames(thr$threshold, names(thr$threshold))
  else fit$thresholds[] <- thr$threshold
  fit$oof_f1 <- stats::setNames(thr$f1, names(fit$thresholds))
  fit$threshold_source <- "oof"
  fit
}
