#' Calibrated label ranking (CLR)
#'
#' Pairwise comparison of labels with a virtual calibration label
#' (Fuernkranz, Huellermeier, Loza Mencia and Brinker 2008).  For every pair
#' of labels \eqn{i < j}, a binary model is fitted on the training rows where
#' exactly one of the two is relevant, with target "\eqn{i} is relevant";
#' for every label \eqn{l}, a model of \eqn{l} against the virtual label
#' \eqn{V} (binary relevance: all rows, target \eqn{y_l}).  On a new row,
#' each pairwise model gives one vote to the label it prefers, and each
#' calibration model one vote to \eqn{l} (when it predicts \eqn{l}) or to
#' \eqn{V}.  A label is predicted when it has more votes than \eqn{V}.
#'
#' @section Votes and scores:
#' A model prefers its first label where its score is above the learner's
#' natural cut: 1/2 on the probabilities of `learner = "logistic"`, 0 on the
#' decision values of `"ridge"` and `"svm"` (labels coded -1/+1).  With
#' `vote = "score"` (logistic only) the votes are soft: \eqn{p} to the first
#' label and \eqn{1 - p} to the second.  With \eqn{v_l} the votes of label
#' \eqn{l} and \eqn{v_V} those of the virtual label (at most \eqn{m} each),
#' `predict(type = "score")` gives
#' \eqn{(1 + (v_l - v_V) / m) / 2}{(1 + (v_l - v_V) / m) / 2} in \[0, 1\], and
#' `type = "class"` cuts it at the fit's `cut`, 1/2, strictly: \eqn{v_l > v_V}
#' (thresholds given to `predict()` or stored by [cv_clr()] replace the cut).
#'
#' A pair of labels never apart in training (no row has exactly one of
#' them) has no model, and gives each of the two half a vote.  A pair seen
#' apart in one direction only has a model fitted on that one target value
#' (the warning of [br()] about such constant targets is not given).
#'
#' @param x,y As in [br()] (an [mlss_data()] or `mldr` object as `x`: its
#'   training rows, `y` left out; for the formula method, a formula
#'   `cbind(l1, l2) ~ .`); `y` without `NA`.
#' @param data,subset,na.action For the formula method, as in [lm()].
#' @param learner The binary learner of every model, as in [br()]:
#'   `"logistic"` (default), `"ridge"` or `"svm"`.
#'   The logistic and SVM learners penalise their intercept, so a
#'   constant added to a column of `x` changes their fits (see [br()]); the
#'   ridge learner's do not.
#' @param cost The learner's cost (one number; 1 by default).
#' @param vote `"class"` (binary votes, the paper's) or `"score"` (soft
#'   votes, logistic only).
#' @param ... Passed to [br()] (`tol`, `max_iter`, `loss`, `intercept`); for
#'   the formula method, the arguments of the default method.
#' @return An object of class `c("clr", "ml_fit")`, predicted by
#'   [predict.ml_fit()]: `pairs` (a two-column matrix of label indices, one
#'   row per pairwise model), `apart` (the pairs that have a model),
#'   `pairwise` (the [br()] fit of the pairwise models, one column per
#'   modelled pair), `calibration` (the [br()] fit of the labels against the
#'   virtual label), `learner`, `vote`, `cut`, `labels`, `features`, `nobs`,
#'   `call`, and the fields of the contract.
#' @references Fuernkranz J., Huellermeier E., Loza Mencia E. and Brinker K.
#'   (2008). Multilabel classification via calibrated label ranking. Machine
#'   Learning 73(2), 133-153.
#' @seealso [cv_clr()], [br()].
#' @aliases print.clr predict.clr
#' @examples
#' d <- mlss::emotions
#' fit <- clr(d)
#' fit
#' head(predict(fit, d, type = "score"))
#' head(predict(fit, d))
#' @export
clr <- function(x, ...) UseMethod("clr")

#' @rdname clr
#' @export
clr.default <- function(x, y, learner = c("logistic", "ridge", "svm"), cost = 1,
                        vote = c("class", "score"), ...) {
  call <- match.call()
  call[[1L]] <- quote(clr)
  learner <- match.arg(learner)
  vote <- match.arg(vote)
  if (vote == "score" && learner != "logistic")
    stop_arg("'vote' = \"score\" needs probabilities: use learner = \"logistic\"")
  xy <- ml_xy(x, if (!missing(y)) y)
  x <- as_features(xy$x)
  y <- as_labels(xy$y, nrow(x), fun = "clr")
  m <- ncol(y)
  if (m < 2) stop_arg("'y' must have at least two labels for pairwise comparisons")
  pairs <- t(utils::combn(m, 2))
  Z <- matrix(NA, nrow(y), nrow(pairs))
  for (p in seq_len(nrow(pairs))) {
    i <- pairs[p, 1]
    j <- pairs[p, 2]
    apart <- y[, i] != y[, j]
    Z[apart, p] <- y[apart, i]
  }
  apart <- colSums(!is.na(Z)) > 0
  colnames(Z) <- paste0(colnames(y)[pairs[, 1]], ">", colnames(y)[pairs[, 2]])
  # constant targets (a pair apart in one direction only) are expected
  pairwise <- if (any(apart)) quiet_constant(
    br(x, Z[, apart, drop = FALSE], learner = learner, cost = cost, na_labels = "observed", ...))
  calibration <- br(x, y, learner = learner, cost = cost, ...)
  new_ml_fit(list(pairs = pairs, apart = apart, pairwise = pairwise,
                  calibration = calibration, learner = learner, vote = vote,
                  labels = colnames(y), features = colnames(x), nobs = nrow(x),
                  call = call),
             "clr", cut = stats::setNames(rep(0.5, m), colnames(y)), n_features = ncol(x))
}

#' @rdname clr
#' @export
clr.formula <- function(x, data, subset, na.action = stats::na.fail, ...) {
  md <- model_data(match.call(expand.dots = FALSE), na.action, parent.frame())
  fit <- clr.default(md$x, md$y, ...)
  with_formula(fit, md, match.call(), quote(clr))
}

# A model's vote for its first label: 1/0 at the learner's natural cut, or
# the probability (vote = "score").
clr_votes <- function(object, s) {
  if (object$vote == "score") return(s)
  s > natural_cut(object$learner)
}

# The votes of every label and of the virtual one, as scores in [0, 1].
ml_scores.clr <- function(object, x, type = "score", y = NULL, ...) {
  check_no_options(list(...))
  m <- length(object$labels)
  n <- nrow(x)
  v <- matrix(0, n, m)
  pairs <- object$pairs
  if (!is.null(object$pairwise)) {
    w <- clr_votes(object, ml_scores(object$pairwise, x))
    ap <- pairs[object$apart, , drop = FALSE]
    for (p in seq_len(nrow(ap))) {
      v[, ap[p, 1]] <- v[, ap[p, 1]] + w[, p]
      v[, ap[p, 2]] <- v[, ap[p, 2]] + (1 - w[, p])
    }
  }
  for (p in which(!object$apart)) v[, pairs[p, ]] <- v[, pairs[p, ]] + 0.5
  cal <- clr_votes(object, ml_scores(object$calibration, x))
  v <- v + cal
  vV <- rowSums(1 - cal)
  (1 + (v - vV) / m) / 2
}

# br()'s warnings about labels without positives or negatives, muffled where
# a method expects them (and says so in its documentation).
quiet_constant <- function(expr) withCallingHandlers(expr, warning = function(w) {
  if (identical(class(w), c("simpleWarning", "warning", "condition")) &&
      grepl("no positive example|positive for every example", conditionMessage(w)))
    invokeRestart("muffleWarning")
})

# The learner's natural cut of its scores: 1/2 on probabilities, 0 on
# decision values (labels coded -1/+1).
natural_cut <- function(learner) if (learner == "logistic") 0.5 else 0

#' @export
print.clr <- function(x, ...) {
  cat("\nCall:  ", paste(deparse(x$call), sep = "\n", collapse = "\n"), "\n\n", sep = "")
  cat("Calibrated label ranking: ", sum(x$apart), " pairwise models (of ", nrow(x$pairs),
      " pairs) and ", length(x$labels), " calibration models (", x$learner, ", ", x$vote,
      " votes) on ", x$nobs, " instances, ", length(x$features), " features, ",
      length(x$labels), " labels\n", sep = "")
  cat("labels predicted with more votes than the virtual label",
      if (!is.null(x$thresholds)) " (stored thresholds replace the cut)", "\n\n", sep = "")
  invisible(x)
}
