#' Turn scores into label sets by a decision rule
#'
#' The threshold strategies of the multi-label literature (Yang 2001; Largeron
#' et al. 2012; utiml's `*_threshold()` functions), on any n x m score
#' matrix (`predict(fit, newx, type = "score")` of any method).  A label is
#' predicted where its score is strictly above the rule's cut (the package's
#' convention, as for every `predict(type = "class")`), or, for the rules
#' that choose a number of labels (RCut, PCut), where it is among the chosen.
#'
#' The rules, and how they break ties:
#' * `"fixed"`: `score > threshold`, one cut for all labels or one per label
#'   (a vector named by label or in column order; default 0.5, the
#'   probability cut);
#' * `"rcut"` (rank cut): the `k` labels with the highest scores of each row;
#'   tied scores are taken in column order (the first label first);
#' * `"pcut"` (proportional cut): for each label l, the
#'   \eqn{\lfloor p_l n + 1/2 \rfloor}{floor(p_l n + 1/2)} rows of the n scored
#'   ones with its highest scores, \eqn{p_l} the proportion of positives of
#'   label l in the training labels `y` (or given as `proportion`); tied
#'   scores are taken in row order;
#' * `"mcut"` (maximum cut): per row, the scores sorted in decreasing order,
#'   the cut is the midpoint of the largest gap between consecutive ones: the
#'   labels above it are predicted (at least one, at most m - 1); among
#'   equal gaps the first (the fewest labels); a row whose scores are all
#'   equal gets no label;
#' * `"lcard"` (label cardinality): one cut t for the whole matrix, chosen so
#'   that the mean number of labels per row, `mean(rowSums(score > t))`,
#'   comes closest to the training label cardinality (from `y`, or given as
#'   `cardinality`); the candidates lie half-way between consecutive
#'   distinct scores (and below and above all of them), so tied scores are
#'   never split; among equally close cuts the highest (fewest labels);
#' * `"scut"` (score cut): one cut per label, the one that maximises a
#'   measure of the predictions `train_score > cut` against the training
#'   labels `y`: `measure = "f1"`, the cut of [f1_thresholds()] with its
#'   chance rule at `level` (rules for ties and empty labels there), or
#'   `"hamming"`, the cut with the fewest errors (among equal, the highest).
#'   `train_score` should be out-of-fold scores (from a cross-validation),
#'   not the scores of a fit on the same rows, which are optimistic.
#'
#' `at_least_one = TRUE` then gives every row left without a label the label
#' of its highest score (the first among tied ones): a correction that
#' raises exact match on data where almost every instance has a label (scene,
#' ML-kNN, Mulan's split: from 0.573 to 0.643, `bench/toolbox.R`).
#'
#' @section In cross-validation:
#' The same rules are one argument of the package's cross-validation,
#' `rule =` of [ml_cv()], [cv_lp()], [cv_rakel()], [cv_eps()], [cv_clr()],
#' [cv_homer()], [cv_brplus()], [cv_dbr()], and of every other `cv_*()` whose
#' labels come from scores ([cv_br()], [cv_cc()], [cv_pcc()], [cv_mlknn()],
#' [cv_cplst()], [cv_mlls()], [cv_ssmddm()]): candidates such as
#' `c("f1", "rcut", "mcut", "lcard+1")` (`"f1"` the engine's per-label cuts,
#' `"scut"` SCut with `measure = "hamming"`, `"fixed"` at 0.5, `"+1"` the
#' `at_least_one` correction), chosen with the hyperparameters by the
#' measure on out-of-fold scores; the refit then predicts by the chosen rule.
#'
#' @param score An n x m numeric matrix of scores, column names the labels
#'   (no `NA`).
#' @param rule One of `"fixed"`, `"rcut"`, `"pcut"`, `"mcut"`, `"lcard"`, `"scut"`.
#' @param threshold `"fixed"`: one cut, or one per label.
#' @param k `"rcut"`: the number of labels per row, one whole number in
#'   0..m; by default the training label cardinality rounded (from `y` or
#'   `cardinality`).
#' @param y The training labels (n_train x m; logical, 0/1 or -1/+1): the
#'   proportions of `"pcut"`, the cardinality of `"lcard"` and `"rcut"`, and
#'   the labels `"scut"` chooses its cuts on.  `NA` entries are left out.
#' @param proportion `"pcut"`: the proportion of positives of each label,
#'   instead of `y`.
#' @param cardinality `"lcard"`, `"rcut"`: the label cardinality, instead of `y`.
#' @param train_score `"scut"`: the scores of the rows of `y` (n_train x m),
#'   out-of-fold ones preferably.
#' @param measure `"scut"`: `"f1"` or `"hamming"`.
#' @param level `"scut"` with `"f1"`: the chance rule's level (see
#'   [f1_thresholds()]; the option `mlss.chance_level` by default).
#' @param at_least_one Give a row without any predicted label the label of
#'   its highest score.
#' @return An n x m logical matrix, the dimnames of `score`, with the
#'   attribute `"threshold"` where the rule has cuts (per label for
#'   fixed/SCut, one for LCard, per row for MCut).
#' @references Yang Y. (2001). A study of thresholding strategies for text
#'   categorization. SIGIR 2001, 137-145.
#'
#'   Largeron C., Moulin C. and Gery M. (2012). MCut: a thresholding strategy
#'   for multi-label classification. IDA 2012, LNCS 7619, 172-183.
#'
#'   Read J., Pfahringer B., Holmes G. and Frank E. (2011). Classifier chains
#'   for multi-label classification. Machine Learning 85(3), 333-359
#'   (the label cardinality cut).
#' @seealso [f1_thresholds()]; [ml_metrics()] to evaluate the label sets.
#' @examples
#' d <- mlss::emotions
#' fit <- mlknn(d)
#' s <- predict(fit, d, type = "score")
#' ytr <- d$y[d$train, ]
#' yte <- d$y[!d$train, ]
#' rules <- list(fixed = ml_decide(s, "fixed"),
#'               rcut = ml_decide(s, "rcut", k = 2),
#'               pcut = ml_decide(s, "pcut", y = ytr),
#'               mcut = ml_decide(s, "mcut"),
#'               lcard = ml_decide(s, "lcard", y = ytr),
#'               fixed1 = ml_decide(s, "fixed", at_least_one = TRUE))
#' sapply(rules, function(p) ml_metrics(yte, pred = p, measures = "subset_accuracy")[[1]])
#' @export
ml_decide <- function(score, rule = c("fixed", "rcut", "pcut", "mcut", "lcard", "scut"),
                      threshold = 0.5, k = NULL, y = NULL, proportion = NULL,
                      cardinality = NULL, train_score = NULL, measure = c("f1", "hamming"),
                      level = chance_level(), at_least_one = FALSE) {
  rule <- match.arg(rule)
  measure <- match.arg(measure)
  named <- !is.null(colnames(score))  # else decide_score() names them L1, L2, ...
  score <- decide_score(score, "score")
  at_least_one <- check_flag(at_least_one, "at_least_one")
  n <- nrow(score)
  m <- ncol(score)
  labels <- colnames(score)
  if (!is.null(y)) y <- as_labels(y, NROW(y), "y", na = "keep")
  if (!is.null(y) && ncol(y) != m)
    stop_arg("'y' has ", ncol(y), " label columns but 'score' has ", m)
  card <- function() {
    if (!is.null(cardinality)) {
      if (!is.numeric(cardinality) || length(cardinality) != 1 || is.na(cardinality) ||
          cardinality < 0 || cardinality > m)
        stop_arg("'cardinality' must be one number in [0, ", m, "] (labels per instance)")
      return(cardinality)
    }
    if (is.null(y)) stop_arg("rule \"", rule, "\" needs the training labels 'y' or 'cardinality'")
    sum(colMeans(y, na.rm = TRUE))
  }
  thr <- NULL
  pred <- switch(rule,
    fixed = {
      thr <- decide_thresholds(threshold, labels)
      score > rep(thr, each = n)
    },
    rcut = {
      if (is.null(k)) k <- floor(card() + 0.5)
      if (!is.numeric(k) || length(k) != 1 || is.na(k) || k < 0 || k > m || k != round(k))
        stop_arg("'k' must be one whole number in 0..", m, " (labels per row)")
      out <- matrix(FALSE, n, m)
      for (i in seq_len(n))
        out[i, order(-score[i, ], seq_len(m))[seq_len(k)]] <- TRUE
      out
    },
    pcut = {
      if (is.null(proportion)) {
        if (is.null(y)) stop_arg("rule \"pcut\" needs the training labels 'y' or 'proportion'")
        # by position when the scores have no label names of their own
        proportion <- colMeans(y, na.rm = TRUE)
        if (!named) proportion <- unname(proportion)
      }
      proportion <- decide_thresholds(proportion, labels, "proportion")
      if (any(is.na(proportion) | proportion < 0 | proportion > 1))
        stop_arg("'proportion' must lie in [0, 1], one value per label")
      out <- matrix(FALSE, n, m)
      for (l in seq_len(m)) {
        top <- floor(proportion[l] * n + 0.5)
        out[order(-score[, l], seq_len(n))[seq_len(top)], l] <- TRUE
      }
      out
    },
    mcut = {
      if (m < 2) stop_arg("rule \"mcut\" needs at least two labels")
      thr <- numeric(n)
      for (i in seq_len(n)) {
        s <- sort(score[i, ], decreasing = TRUE)
        gap <- s[-m] - s[-1]
        j <- which.max(gap)
        thr[i] <- if (gap[j] > 0) cut_between(s[j], s[j + 1]) else Inf
      }
      score > thr
    },
    lcard = {
      thr <- lcard_cut(score, card())
      score > thr
    },
    scut = {
      if (is.null(y) || is.null(train_score))
        stop_arg("rule \"scut\" needs the training labels 'y' and their scores 'train_score'")
      train_score <- decide_score(train_score, "train_score")
      if (!identical(dim(train_score), dim(y)))
        stop_arg("'train_score' must have the dimensions of 'y' (", nrow(y), " x ", m, ")")
      thr <- if (measure == "f1") f1_thresholds(train_score, y, level = level)$threshold
             else hamming_thresholds(train_score, y)$threshold
      thr <- stats::setNames(thr, labels)
      score > rep(thr, each = n)
    })
  if (at_least_one) {
    empty <- which(rowSums(pred) == 0)
    if (length(empty))
      pred[cbind(empty, max.col(score[empty, , drop = FALSE], ties.method = "first"))] <- TRUE
  }
  dimnames(pred) <- dimnames(score)
  if (!is.null(thr)) attr(pred, "threshold") <- thr
  pred
}

decide_score <- function(score, arg) {
  if (is.data.frame(score)) score <- as.matrix(score)
  if (is.vector(score) && is.numeric(score)) score <- matrix(score, ncol = 1)
  if (is.logical(score))   # predict()'s default type is "class": label sets, not scores
    stop_arg("'", arg, "' is logical (label sets): give scores, predict(fit, newx, ",
             "type = \"score\")")
  if (!is.matrix(score) || !is.numeric(score))
    stop_arg("'", arg, "' must be a numeric matrix of scores (rows instances, columns labels)")
  if (anyNA(score)) stop_arg("'", arg, "' contains NA")
  if (is.null(colnames(score))) colnames(score) <- paste0("L", seq_len(ncol(score)))
  storage.mode(score) <- "double"
  score
}

# One value or one per label (named by label, or in column order).
decide_thresholds <- function(v, labels, arg = "threshold") {
  m <- length(labels)
  if (!is.numeric(v) || anyNA(v) || !(length(v) %in% c(1, m)))
    stop_arg("'", arg, "' must be one number or one per label (", m, ")")
  if (length(v) == 1) return(stats::setNames(rep(as.double(v), m), labels))
  if (!is.null(names(v))) {
    if (!setequal(names(v), labels))
      stop_arg("the names of '", arg, "' must be the label names")
    v <- v[labels]
  }
  stats::setNames(as.double(v), labels)
}

# A cut strictly between a > b: the midpoint, or b itself where the
# midpoint would not separate them (infinite a, adjacent doubles).
cut_between <- function(a, b) {
  if (b == -Inf) return(-Inf)
  t <- a / 2 + b / 2
  if (is.finite(t) && t < a && t >= b) t else b
}

# LCard: the cut over all entries whose mean number of labels per row is
# closest to `card` (ties: the highest cut).
lcard_cut <- function(score, card) {
  n <- nrow(score)
  s <- sort(as.vector(score), decreasing = TRUE)
  last <- c(s[-1] != s[-length(s)], TRUE)      # the last of each run of ties
  j <- c(0, which(last))                        # entries above each candidate cut
  best <- which.min(abs(j / n - card))          # the first: the highest cut
  if (best == 1) return(Inf)
  jj <- j[best]
  if (jj == length(s)) return(-Inf)
  cut_between(s[jj], s[jj + 1])
}

# ---- the decision rule as a hyperparameter of cross-validation --------------
#
# `rule` of ml_cv() and the cv_*() functions of the toolbox (R/cv_toolbox.R):
# candidate rules, each one of decision_rules, optionally followed by "+1"
# (the "at least one label" correction).  The engine (cv_engine_run() in
# R/cv_engine.R) measures each on the out-of-fold scores, fold k's rows
# decided by the rule learnt from the other folds (their out-of-fold scores
# and labels), and chooses the rule with the grid point; the refit then
# predicts by it (rule_fit(), predict.ml_ruled()).
decision_rules <- c("f1", "fixed", "rcut", "pcut", "mcut", "lcard", "scut", "decoder")

# The candidates as a data frame: label (as given), base rule, correction.
check_rules <- function(rule, decoder) {
  if (is.null(rule)) return(NULL)
  if (!is.character(rule) || !length(rule) || anyNA(rule))
    stop_arg("'rule' must be a character vector of decision rules: ",
             paste0("\"", decision_rules, "\"", collapse = ", "),
             ", each optionally followed by \"+1\" (at least one label per row)")
  rule <- unique(rule)
  one <- grepl("\\+1$", rule)
  base <- sub("\\+1$", "", rule)
  bad <- !base %in% decision_rules
  if (any(bad))
    stop_arg("unknown decision rule(s) ", paste0("\"", rule[bad], "\"", collapse = ", "),
             " in 'rule': use ", paste0("\"", decision_rules, "\"", collapse = ", "),
             ", each optionally followed by \"+1\"")
  if (any(base == "decoder") && !decoder)
    stop_arg("'rule' = \"decoder\" is for methods whose labels come from a decoder ",
             "(lp(), cc(), pcc(), ...): this one cuts its scores")
  data.frame(label = rule, base = base, one = one, stringsAsFactors = FALSE)
}

# What a rule learns from the labels (and out-of-fold scores) of the rows it
# is chosen on, `f1`: the per-label cuts the engine chose there.
rule_params <- function(base, score, y, f1) {
  card <- function() sum(colMeans(y, na.rm = TRUE))
  switch(base,
         f1 = list(threshold = f1),
         fixed = list(threshold = 0.5),
         rcut = list(k = floor(card() + 0.5)),
         pcut = list(proportion = colMeans(y, na.rm = TRUE)),
         lcard = list(cardinality = card()),
         scut = list(threshold = hamming_thresholds(score, y)$threshold),
         list())
}

# The label sets of the rule (params from rule_params()) on the scores `score`
# (a logical matrix); `pred`: the decoder's label sets, for "decoder".
apply_rule <- function(base, one, params, score, pred = NULL) {
  m <- ncol(score)
  out <- switch(base,
    decoder = pred > 0,
    f1 = , fixed = , scut = score > rep(rep_len(params$threshold, m), each = nrow(score)),
    rcut = ml_decide(score, "rcut", k = min(max(params$k, 0), m)),
    pcut = ml_decide(score, "pcut", proportion = params$proportion),
    mcut = if (m < 2) score > Inf else ml_decide(score, "mcut"),
    lcard = ml_decide(score, "lcard", cardinality = params$cardinality))
  if (one && nrow(score)) {
    empty <- which(rowSums(out) == 0)
    if (length(empty))
      out[cbind(empty, max.col(score[empty, , drop = FALSE], ties.method = "first"))] <- TRUE
  }
  out <- matrix(as.logical(out), nrow(score), m)
  dimnames(out) <- dimnames(score)
  out
}

# The per-fold measures of one rule at one grid point: fold k's rows decided
# by the rule learnt on the other folds' out-of-fold scores and labels (`thr`:
# the m x nfolds cuts of the engine, the "f1" rule's), scored as the decoder's
# label sets are.
rule_fold_measures <- function(rule, score, y, foldid, nfolds, thr, pred, opt) {
  n <- nrow(score)
  m <- ncol(score)
  P <- matrix(0, n, m)
  for (k in seq_len(nfolds)) {
    va <- foldid == k
    tr <- !va
    params <- rule_params(rule$base, score[tr, , drop = FALSE], y[tr, , drop = FALSE],
                          thr[, k])
    P[va, ] <- apply_rule(rule$base, rule$one, params, score[va, , drop = FALSE],
                          if (!is.null(pred)) pred[va, , drop = FALSE])
  }
  point_measures(P, y, foldid, matrix(0.5, m, nfolds), opt)
}

# The refit predicting by a rule: its parameters learnt on all the rows (the
# out-of-fold cuts `f1` of the chosen point, the Hamming cuts `scut` of its
# out-of-fold scores, the labels' proportions and cardinality).  The "f1"
# rule of a method that cuts its scores, and the "decoder" rule, leave the
# refit as it is (its predict() already does that).
rule_fit <- function(fit, rule, y, f1, scut, decoder) {
  if (!rule$one && (rule$base == "decoder" || (rule$base == "f1" && !decoder))) return(fit)
  if (rule$base == "f1" && decoder) {
    if (is.null(f1)) stop_arg("rule \"f1\" for a method with a decoder needs thresholds = \"oof\"")
    fit <- set_thresholds(fit, list(threshold = stats::setNames(f1, colnames(y)),
                                    f1 = rep(NA_real_, ncol(y))))
  }
  params <- switch(rule$base,
                   f1 = list(threshold = fit_thresholds(fit) %||% fit$cut),
                   scut = list(threshold = scut),
                   decoder = list(),
                   rule_params(rule$base, NULL, y, NULL))
  fit$decision <- c(list(rule = rule$label, base = rule$base, at_least_one = rule$one), params)
  class(fit) <- unique(c("ml_ruled", class(fit)))
  fit
}

#' @export
predict.ml_ruled <- function(object, ...) {
  inner <- object
  class(inner) <- setdiff(class(object), "ml_ruled")
  inner$decision <- NULL
  args <- list(...)
  types <- object$types %||% c("class", "score")
  type <- if (is.null(args[["type"]])) types[1] else match.arg(args[["type"]], types)
  if (type != "class" || !is.null(args[["thresholds"]]))
    return(stats::predict(inner, ...))
  args[["type"]] <- "score"
  s <- do.call(stats::predict, c(list(inner), args))
  ok <- stats::complete.cases(s)
  out <- matrix(NA, nrow(s), ncol(s), dimnames = dimnames(s))
  d <- object$decision
  pred <- if (d$base == "decoder") {
    args[["type"]] <- "class"
    do.call(stats::predict, c(list(inner), args))[ok, , drop = FALSE]
  }
  out[ok, ] <- apply_rule(d$base, d$at_least_one, d, s[ok, , drop = FALSE], pred)
  out
}
