#' Multi-label evaluation measures
#'
#' Computes the measures of the multi-label literature that the given inputs
#' allow: those of predicted label sets need `pred`, those of rankings need
#' `score`, the log-likelihood loss and the Brier score need `prob`.
#'
#' When `y` and `pred` (or `score`) both have column names, the columns are
#' matched by name, whatever their order, and different names are an error;
#' without names on either side they are matched by position.
#'
#' @section Definitions:
#' With \eqn{tp_l}, \eqn{fp_l}, \eqn{fn_l} the counts of label \eqn{l}:
#' * `macro_f1`: the mean over labels of \eqn{2tp_l / (2tp_l + fp_l + fn_l)};
#'   `micro_f1`: the same on the counts summed over labels.
#' * `macro_auc`: the mean over labels of the area under the ROC curve (the
#'   Mann-Whitney statistic, a tied positive/negative pair counting 1/2);
#'   `micro_auc`: the AUC of all (instance, label) pairs pooled.
#' * `hamming_loss`: the share of (instance, label) pairs predicted wrongly;
#'   `subset_accuracy`: the share of instances whose label set is exactly right.
#' * `example_f1`, `example_accuracy` (\eqn{|Y \cap P| / |Y \cup P|}{|Y and P| / |Y or P|}),
#'   `example_precision`, `example_recall`: per instance, then averaged.
#' * `ranking_loss`: per instance, the share of (relevant, irrelevant) label
#'   pairs ranked in the wrong order; `average_precision`: per instance, the
#'   mean over relevant labels of the share of relevant labels ranked at or
#'   above it; `coverage`: how far down the ranking one must go to cover all
#'   relevant labels (0 when the best-ranked label is the only relevant one);
#'   `one_error`: the share of instances whose top-ranked label is irrelevant.
#' * `log_loss`: the mean over instances of \eqn{-\log p(y_i \mid x_i)}{-log p(y_i | x_i)},
#'   the negative log-likelihood of the true label vectors (the MLCRF paper
#'   reports the sum, `n` times this).  `prob` is either the probability a
#'   model assigns to each true label vector (a vector of `n`: joint models
#'   such as [mlcrf()] and [pcc()], `predict(type = "prob", y = )`), or the
#'   n x m per-label probabilities \eqn{p_{il} = p(y_{il} = 1 \mid x_i)}{p_il = p(y_il = 1 | x_i)}
#'   of a model that treats the labels as independent ([br()] with
#'   `learner = "logistic"`, [iblr()], [mlknn()]), whose likelihood is the
#'   product over labels:
#'   \deqn{-\frac{1}{n}\sum_i \sum_l \left[y_{il}\log p_{il} + (1 - y_{il})\log(1 - p_{il})\right],}{-(1/n) sum_i sum_l [y_il log p_il + (1 - y_il) log(1 - p_il)],}
#'   each \eqn{p_{il}}{p_il} clipped to \eqn{[10^{-15}, 1 - 10^{-15}]}{[1e-15, 1 - 1e-15]}
#'   so that one certain mistake costs about 34.5 nats, not infinity.
#' * `brier`: the per-label Brier score, the mean over (instance, label)
#'   pairs of \eqn{(p_{il} - y_{il})^2}{(p_il - y_il)^2}, from the n x m
#'   per-label probabilities `prob` (for the joint models, their marginals,
#'   `predict(type = "score")`).  0 is perfect; always predicting 1/2 scores
#'   1/4.
#'
#' Lower is better for both; the cross-validation functions select by them
#' (`measure = "log_loss"`) for methods whose scores are probabilities.
#'
#' @section Variants used by some papers:
#' Computed only when named in `measures` (and not selectable in the `cv_*()`
#' functions):
#' * `macro_f1_pr`: F1 of the macro-averaged precision and recall,
#'   \eqn{2PR / (P + R)}, with \eqn{P} the mean of \eqn{tp_l / (tp_l + fp_l)}
#'   over the labels predicted at least once (a never-predicted label, whose
#'   precision is 0/0, is left out) and \eqn{R} the mean of
#'   \eqn{tp_l / (tp_l + fn_l)} over the labels with a positive (a
#'   never-predicted one counting 0); `NaN` when no label is predicted.  The
#'   macro F1 of the MLCRF paper (Pakdaman Naeini et al. 2014) is close to
#'   it: on yeast, binary relevance (logistic, cost 1, probabilities cut at
#'   1/2, 10 folds) scores 0.440 this way (the paper's BR 0.457) against
#'   0.348 as `macro_f1`.
#' * `ranking_loss_01`: the ranking loss of the 0/1 outputs `pred`, as the
#'   LEWL paper (2020) computes it: per instance, the share of (relevant,
#'   irrelevant) label pairs whose relevant label is not predicted above the
#'   irrelevant one, a tie (both predicted, or both not) counting as an
#'   error; 0 for an instance with no relevant or no irrelevant label.
#'
#' `absent` sets how `macro_f1` counts a label with no positive in `y` and no
#' positive prediction (a label absent from a test fold): `"one"` (F1 = 1,
#' Mulan's convention and the default), `"zero"` (F1 = 0) or `"drop"` (left
#' out of the mean).  On a rare label this moves the macro F1 of a fold by up
#' to 1/m per absent label; report it with the figures.
#'
#' @section Edge cases:
#' The conventions are those of Mulan (Tsoumakas et al.), so that results can
#' be compared with the literature:
#' * F1, precision and recall of empty sets are 1 when nothing is relevant and
#'   nothing is predicted (\eqn{tp + fp + fn = 0}); precision is 0 when nothing
#'   is predicted but something is relevant, recall 0 in the reverse case.  So
#'   a label with no positive in the test part and no positive prediction
#'   scores F1 = 1, and one with positive predictions scores 0.  Label-based
#'   measures average over all labels, example-based ones over all instances.
#' * A label without positives, or without negatives, has no AUC and is left
#'   out of `macro_auc` (Mulan returns NaN, mldr 0.5); NaN when no label has one.
#' * Rankings break ties in score by label position, the later label ranking
#'   first, as Mulan does.
#' * An instance with no relevant label counts 0 in `ranking_loss` and
#'   `coverage` and 1 in `one_error`, and is left out of `average_precision`
#'   (mldr counts it as 1 there).
#'
#' @section Missing labels:
#' `y` may contain `NA` (labels that were never observed, see
#' [mask_labels()]); every measure then uses the observed entries only, and
#' with `y` fully observed the definitions above are unchanged:
#' * label-based measures (`macro_f1`, `macro_auc`) are computed on each
#'   label's observed rows; a label with no observed row is left out of the
#'   average.  `micro_f1`, `micro_auc` pool the observed entries, and
#'   `hamming_loss` is the share of the observed entries predicted wrongly;
#' * example-based measures (`subset_accuracy`, `example_*`) are computed on
#'   each instance's observed labels (subset accuracy: all of them right); an
#'   instance with no observed label is left out of the average;
#' * ranking measures (`ranking_loss`, `average_precision`, `coverage`,
#'   `one_error`) rank each instance's observed labels among themselves (so
#'   `coverage` counts positions among the observed labels, and `one_error`
#'   looks at the best-ranked observed label); an instance with no observed
#'   label is left out;
#' * `log_loss` from per-label probabilities (an n x m `prob`) is the
#'   likelihood of the observed entries: the sum above runs over each
#'   instance's observed labels (a product of the observed factors), and an
#'   instance with no observed label is left out of the mean.  From the
#'   probabilities of whole label vectors (a vector `prob`) it is not
#'   defined, since a missing entry leaves the vector unknown: `NA`, with a
#'   warning.  (The cross-validation of the joint models refuses it with
#'   missing labels, as their `predict(type = "prob")` gives whole vectors
#'   only.)
#' * `brier` is the mean over the observed entries.
#'
#' A measure with nothing left to average (e.g. no entry observed) is `NaN`,
#' with a warning.  `pred` and `score` must not contain `NA`.
#'
#' @param y True labels: an n x m logical, 0/1 or -1/+1 matrix or data frame;
#'   `NA` marks a missing label (see the section Missing labels).
#' @param score Real-valued scores, n x m (higher means more likely).
#' @param pred Predicted labels, n x m, coded like `y`.
#' @param measures Names of the measures to compute; `NULL` for all that the
#'   inputs allow.  See [measure_names()].
#' @param prob For `log_loss` and `brier`: the probabilities a model gives to
#'   the true label vectors, one per instance (`log_loss` only), or an n x m
#'   matrix of per-label probabilities of a positive label (columns matched
#'   to `y` by name as `score` is).
#' @param absent How `macro_f1` counts a label with no positive and no
#'   positive prediction: `"one"` (the default), `"zero"` or `"drop"`; see
#'   the section Variants used by some papers.
#' @return A named list of numbers.
#' @references Tsoumakas G., Katakis I. and Vlahavas I. (2010). Mining
#'   multi-label data. Data Mining and Knowledge Discovery Handbook, 667-685.
#' @examples
#' y <- rbind(c(TRUE, FALSE, TRUE), c(FALSE, TRUE, FALSE))
#' score <- rbind(c(0.9, 0.2, 0.4), c(0.3, 0.8, 0.1))
#' ml_metrics(y, score = score, pred = score > 0.5)
#' # the papers' variants, and a label absent from the data left out
#' ml_metrics(y, pred = score > 0.5, measures = c("macro_f1", "macro_f1_pr", "ranking_loss_01"))
#' ml_metrics(cbind(y, FALSE), pred = cbind(score > 0.5, FALSE), measures = "macro_f1",
#'            absent = "drop")
#' @export
ml_metrics <- function(y, score = NULL, pred = NULL, measures = NULL, prob = NULL,
                       absent = c("one", "zero", "drop")) {
  absent <- match.arg(absent)
  y_names <- colnames(y)
  y <- as_labels(y, NROW(y), "y", na = "keep")
  n <- nrow(y)
  if (!is.null(score)) {
    score <- match_label_columns(score, y_names, "score")
    score <- check_score_matrix(score, y, "score")
  }
  if (!is.null(pred)) {
    pred <- match_label_columns(pred, y_names, "pred")
    pred <- as_labels(pred, n, "pred", ref = "y")
    if (ncol(pred) != ncol(y)) stop_arg("'pred' must have ", ncol(y), " columns, like 'y'")
  }
  prob_matrix <- !is.null(prob) && (is.matrix(prob) || is.data.frame(prob)) &&
    !(NCOL(prob) == 1 && ncol(y) != 1)
  if (prob_matrix) {
    prob <- check_score_matrix(match_label_columns(prob, y_names, "prob"), y, "prob")
    if (any(prob < 0 | prob > 1))
      stop_arg("'prob' must hold probabilities in [0, 1]")
  } else if (!is.null(prob)) {
    prob <- as.vector(prob)
    if (!is.numeric(prob) || length(prob) != n || anyNA(prob) || any(prob < 0 | prob > 1))
      stop_arg("'prob' must hold one probability in [0, 1] per instance (", n, ")",
               " or be an n x m matrix of per-label probabilities")
  }
  info <- all_measures()
  have <- c(pred = !is.null(pred), score = !is.null(score), prob = !is.null(prob))
  if (is.null(measures)) {
    measures <- info$name[have[info$needs] & info$default]
    if (!prob_matrix) measures <- setdiff(measures, "brier")
    if (!length(measures)) stop_arg("give 'score', 'pred' or 'prob'")
  }
  unknown <- setdiff(measures, info$name)
  if (length(unknown))
    stop_arg("unknown measure '", unknown[1], "'; the measures are ",
             paste(info$name, collapse = ", "))
  needs <- info$needs[match(measures, info$name)]
  if (any(!have[needs]))
    stop_arg("measure '", measures[!have[needs]][1], "' needs '", needs[!have[needs]][1], "'")
  values <- numeric(length(measures))
  # the measures of the C table (codes in src/metrics_core.h), but macro_f1
  # under another convention for absent labels, which R computes
  native <- measures %in% measure_table()$name & needs != "prob" &
    !(measures == "macro_f1" & absent != "one")
  codes <- match(measures[native], measure_table()$name) - 1L
  if (any(native)) values[native] <- .Call(C_ml_metrics_call, y, score, pred, codes)
  if (any(!native & needs == "pred")) {
    cnt <- label_counts(y, pred)
    if ("macro_f1" %in% measures && absent != "one")
      values[measures == "macro_f1"] <- macro_f1_absent(cnt, absent)
    if ("macro_f1_pr" %in% measures) values[measures == "macro_f1_pr"] <- macro_f1_pr(cnt)
    if ("ranking_loss_01" %in% measures)
      values[measures == "ranking_loss_01"] <- ranking_loss_01(y, pred)
  }
  missing_labels <- anyNA(y)
  if ("brier" %in% measures) {
    if (!prob_matrix)
      stop_arg("'brier' needs the per-label probabilities: 'prob' as an n x m matrix")
    values[measures == "brier"] <- brier_score(y, prob)
  }
  if ("log_loss" %in% measures) {
    if (prob_matrix) {
      keep <- rowSums(!is.na(y)) > 0
      values[measures == "log_loss"] <- -mean(label_loglik(y, prob)[keep])
    } else {
      values[measures == "log_loss"] <- if (missing_labels) NA_real_ else -mean(log(prob))
      if (missing_labels)
        warning("'log_loss' is not defined when 'y' has missing labels (the probability ",
                "of a label vector with unknown entries is unknown): NA; give the ",
                "per-label probabilities as an n x m 'prob' for the likelihood of the ",
                "observed entries", call. = FALSE)
    }
  }
  if (missing_labels && any(is.nan(values)))
    warning("measure(s) ", paste0("'", measures[is.nan(values)], "'", collapse = ", "),
            " undefined on the observed entries of 'y': NaN", call. = FALSE)
  stats::setNames(as.list(values), measures)
}

#' The names of the evaluation measures
#'
#' @return A data frame with the `name` of each measure of [ml_metrics()],
#'   what it `needs` (`"pred"`, `"score"` or `"prob"`), whether a higher
#'   value is better (`higher_better`), whether [ml_metrics()] computes it
#'   when `measures = NULL` (`default`: not the variants `macro_f1_pr` and
#'   `ranking_loss_01`) and whether the `cv_*()` functions can select by it
#'   (`cv`; [ml_compare()] reports every measure).
#' @examples
#' measure_names()
#' @export
measure_names <- function() all_measures()

# The measures of the C table and the variants computed in R; all of them
# usable in cross-validation (the engine computes the variants fold by fold
# through ml_metrics(), point_measures() in R/cv_engine.R).
all_measures <- function() {
  base <- measure_table()
  base$default <- TRUE
  base$cv <- TRUE
  extra <- data.frame(name = c("macro_f1_pr", "ranking_loss_01"), needs = c("pred", "pred"),
                      higher_better = c(TRUE, FALSE), default = FALSE, cv = TRUE,
                      stringsAsFactors = FALSE)
  rbind(base, extra)
}

# Per-label counts on the observed entries of y: tp, fp, fn and the number of
# observed rows.
label_counts <- function(y, pred) {
  obs <- !is.na(y)
  y0 <- y & obs
  y0[is.na(y0)] <- FALSE
  p <- pred & obs
  list(tp = colSums(y0 & p), fp = colSums(!y0 & p), fn = colSums(y0 & !pred & obs),
       nobs = colSums(obs))
}

# macro_f1 with a label that has no positive and no positive prediction
# (tp + fp + fn = 0) counting 0 ("zero") or left out ("drop").
macro_f1_absent <- function(cnt, absent) {
  keep <- cnt$nobs > 0
  den <- 2 * cnt$tp + cnt$fp + cnt$fn
  f <- ifelse(den > 0, 2 * cnt$tp / pmax(den, 1), if (absent == "zero") 0 else NA)
  f <- f[keep]
  if (absent == "drop") f <- f[!is.na(f)]
  if (!length(f)) NaN else mean(f)
}

# F1 of the macro-averaged precision (over the labels predicted at least
# once) and recall (over the labels with a positive); NaN when no label is
# predicted.
macro_f1_pr <- function(cnt) {
  pl <- cnt$nobs > 0 & cnt$tp + cnt$fp > 0
  if (!any(pl)) return(NaN)
  prec <- mean(cnt$tp[pl] / (cnt$tp[pl] + cnt$fp[pl]))
  rl <- cnt$nobs > 0 & cnt$tp + cnt$fn > 0
  rec <- if (any(rl)) mean(cnt$tp[rl] / (cnt$tp[rl] + cnt$fn[rl])) else 0
  if (prec + rec == 0) 0 else 2 * prec * rec / (prec + rec)
}

# The ranking loss of 0/1 outputs, ties counting as errors: per instance, the
# share of (relevant, irrelevant) pairs of observed labels that are not
# (relevant predicted, irrelevant not predicted); 0 without such pairs;
# instances with no observed label left out.
ranking_loss_01 <- function(y, pred) {
  obs <- !is.na(y)
  y0 <- y & obs
  y0[is.na(y0)] <- FALSE
  npos <- rowSums(y0)
  nneg <- rowSums(!y0 & obs)
  right <- rowSums(y0 & pred) * rowSums(!y0 & !pred & obs)
  loss <- ifelse(npos > 0 & nneg > 0, 1 - right / pmax(npos * nneg, 1), 0)
  keep <- rowSums(obs) > 0
  if (!any(keep)) NaN else mean(loss[keep])
}

# The order is that of the codes in src/metrics_core.h.
measure_table <- function() {
  data.frame(
    name = c("macro_f1", "micro_f1", "macro_auc", "micro_auc", "hamming_loss",
             "subset_accuracy", "example_f1", "example_accuracy", "example_precision",
             "example_recall", "ranking_loss", "average_precision", "coverage",
             "one_error", "log_loss", "brier"),
    needs = c("pred", "pred", "score", "score", "pred", "pred", "pred", "pred", "pred",
              "pred", "score", "score", "score", "score", "prob", "prob"),
    higher_better = c(TRUE, TRUE, TRUE, TRUE, FALSE, TRUE, TRUE, TRUE, TRUE, TRUE,
                      FALSE, TRUE, FALSE, FALSE, FALSE, FALSE),
    stringsAsFactors = FALSE)
}

# Columns of `pred` or `score` put in the order of the labels of `y` when both
# have column names; an error when the names differ, since matching by
# position would then compare different labels without a word.
match_label_columns <- function(v, y_names, arg) {
  v_names <- colnames(v)
  if (is.null(y_names) || is.null(v_names) || identical(v_names, y_names)) return(v)
  if (anyDuplicated(v_names)) stop_arg("the column names of '", arg, "' are not unique")
  if (!setequal(v_names, y_names) || length(v_names) != length(y_names)) {
    only_v <- setdiff(v_names, y_names)
    only_y <- setdiff(y_names, v_names)
    stop_arg("the column names of '", arg, "' are not the labels of 'y'",
             if (length(only_v)) paste0("; '", arg, "' has '", only_v[1], "'"),
             if (length(only_y)) paste0("; 'y' has '", only_y[1], "'"),
             if (length(only_v) + length(only_y) > 2) " (and more)",
             ". Give them the same names, or no names to match by position")
  }
  v[, y_names, drop = FALSE]
}

check_score_matrix <- function(score, y, arg) {
  if (is.data.frame(score)) score <- as.matrix(score)
  if (is.vector(score)) score <- matrix(score, ncol = 1)
  if (!is.matrix(score) || !is.numeric(score))
    stop_arg("'", arg, "' must be a numeric matrix")
  if (!identical(dim(score), dim(y)))
    stop_arg("'", arg, "' must be ", nrow(y), " x ", ncol(y), ", like 'y' (it is ",
             nrow(score), " x ", ncol(score), ")")
  if (anyNA(score)) stop_arg("'", arg, "' contains NA")
  storage.mode(score) <- "double"
  score
}

# The log-likelihood of each row's observed labels under independent
# per-label probabilities p (n x m): the sum over the observed entries of
# log p or log(1 - p), p clipped to [1e-15, 1 - 1e-15]; 0 for a row with no
# observed label.
label_loglik <- function(y, p) {
  eps <- 1e-15
  p <- pmin(pmax(p, eps), 1 - eps)
  ll <- ifelse(y, log(p), log1p(-p))
  rowSums(ll, na.rm = TRUE)
}

# The Brier score of per-label probabilities: the mean of (p - y)^2 over the
# observed entries.
brier_score <- function(y, p) {
  obs <- !is.na(y)
  if (!any(obs)) return(NaN)
  mean((p[obs] - y[obs])^2)
}
