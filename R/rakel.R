#' RAkEL: random k-labelsets
#'
#' An ensemble of label powersets ([lp()]), each on a small random subset of
#' k labels, so that each keeps the label correlations within its subset
#' while its number of classes stays small (Tsoumakas et al. 2011).
#'
#' * `mode = "overlapping"` (RAkELo): `m` models, each on a k-labelset drawn
#'   at random among the \eqn{\binom{L}{k}}{choose(L, k)} subsets of the L
#'   labels, without repeating a subset.  Draw: `sort(sample(L, k))`, drawn
#'   again when already taken.
#' * `mode = "disjoint"` (RAkELd): the labels in a random order
#'   (`sample(L)`) cut into consecutive groups of k (the last one smaller
#'   when k does not divide L), one model each.
#'
#' The random draws come from R's generator: `set.seed()` reproduces the
#' subsets (`fit$subsets`).
#'
#' Each model votes for the labels of its subset: with `vote = "class"` (the
#' paper's) 1 for a label in the label set it predicts, 0 otherwise; with
#' `vote = "score"` the LP's marginal probability of the label.  A label's
#' score is its mean vote over the models whose subset contains it (0, never
#' predicted, for a label in no subset, which RAkELo allows when m is
#' small); a label is predicted when its score is above `threshold` (0.5 by
#' default, the paper's), strictly.
#'
#' @param x,y,data,subset,na.action As in [lp()].
#' @param k The size of the label subsets (default 3, the paper's); at most
#'   the number of labels.
#' @param m RAkELo: the number of models (default `2 * L`, the paper's, or
#'   all \eqn{\binom{L}{k}}{choose(L, k)} subsets when fewer); ignored by
#'   RAkELd.
#' @param mode `"overlapping"` (RAkELo) or `"disjoint"` (RAkELd).
#' @param vote `"class"` or `"score"`: what a model gives each label of its
#'   subset (see above).
#' @param threshold The cut on the averaged votes (one number, or one per
#'   label), stored as the fit's `cut`; thresholds given to `predict()`, or
#'   stored in `fit$thresholds` (by [ml_cv()]), replace it.
#' @param learner,cost The class model of each label powerset, as in [lp()];
#'   `learner` may also be a learner object ([ml_learner()]): a multi-class
#'   one ([ml_learner_e1071()], ...) fits each label powerset as one
#'   multi-class model (utiml's RAkEL with its SVM), any other scores each
#'   class one-vs-rest as [br()] does with it (its probabilities normalised
#'   over the classes, or the softmax of its scores); `cost` left out takes
#'   the learner's own parameters.
#'   The logistic and SVM learners penalise their intercept, so a
#'   constant added to a column of `x` changes their fits (see [br()]); the
#'   ridge learner's do not.
#' @param subsets Optional: the label subsets themselves (a list of vectors
#'   of label indices, as `fit$subsets`), instead of a random draw; `k`,
#'   `m` and `mode` then only label the fit.  A subset equal to an earlier
#'   one as a set (utiml's draws can repeat) is not fitted again: it reuses
#'   the earlier model (its labels permuted) and votes as often as it is
#'   given.
#' @param ... Passed to [br()] (`tol`, `max_iter`, ...); for the formula
#'   method, the arguments of the default method.
#' @return An object of class `c("rakel", "ml_fit")`, predicted by
#'   [predict.ml_fit()] (`type = "class"`: the averaged votes above the cut;
#'   `"score"`: the averaged votes): `subsets` (a list of label index
#'   vectors), `models` (the [lp()] fit of each, on its subset's labels),
#'   `k`, `mode`, `vote`, `cut`, `labels`, `features`, `nobs`, `call`, and the
#'   fields of the contract (`types`, `n_features`).
#' @references Tsoumakas G., Katakis I. and Vlahavas I. (2011). Random
#'   k-labelsets for multilabel classification. IEEE Transactions on
#'   Knowledge and Data Engineering 23(7), 1079-1089.
#' @seealso [predict.ml_fit()], [lp()], [cv_rakel()].
#' @aliases predict.rakel
#' @examples
#' d <- mlss::emotions
#' set.seed(1)
#' fit <- rakel(d, k = 3)
#' fit
#' head(predict(fit, d, type = "score"))
#' table(predict(fit, d, type = "score"))
#' fitd <- rakel(d, k = 2, mode = "disjoint")
#' fitd$subsets
#' @export
rakel <- function(x, ...) UseMethod("rakel")

#' @rdname rakel
#' @export
rakel.default <- function(x, y, k = 3, m = NULL, mode = c("overlapping", "disjoint"),
                          vote = c("class", "score"), threshold = 0.5,
                          learner = c("logistic", "ridge", "svm"), cost = 1,
                          subsets = NULL, ...) {
  call <- match.call()
  call[[1L]] <- quote(rakel)
  mode <- match.arg(mode)
  base <- NULL
  if (is_learner(learner)) {
    base <- learner <- validate_ml_learner(learner)
    if (missing(cost)) cost <- NULL  # the learner's own parameters
  } else learner <- match.arg(learner)
  vote <- match.arg(vote)
  xy <- ml_xy(x, y)
  x <- as_features(xy$x)
  y <- as_labels(xy$y, nrow(x), fun = "rakel")
  L <- ncol(y)
  if (!is.numeric(k) || length(k) != 1 || is.na(k) || k < 1 || k > L || k != round(k))
    stop_arg("'k' must be one whole number in 1..", L, " (the size of the label subsets)")
  subsets <- if (!is.null(subsets)) check_subsets(subsets, L) else
             if (mode == "disjoint") rakel_disjoint(L, k) else {
    total <- choose(L, k)
    if (is.null(m)) m <- min(2 * L, total)
    if (!is.numeric(m) || length(m) != 1 || is.na(m) || m < 1 || m != round(m) || m > total)
      stop_arg("'m' must be one whole number in 1..", total,
               " (the number of distinct ", k, "-labelsets of ", L, " labels)")
    rakel_overlapping(L, k, m)
  }
  cut <- decide_thresholds(threshold, colnames(y))
  x <- learner_input(base, x)  # dense once, not per model and class
  # a subset equal to an earlier one as a set is not fitted again: its model
  # is the earlier one's with the labels permuted (`same`: the earlier index)
  same <- rakel_same(subsets)
  models <- vector("list", length(subsets))
  for (j in seq_along(subsets)) {
    models[[j]] <- if (same[j] < j) {
      lp_permute(models[[same[j]]], match(subsets[[j]], subsets[[same[j]]]))
    } else {
      f <- lp_fit(x, y[, subsets[[j]], drop = FALSE], seq_len(nrow(x)), learner, cost, ...)
      new_lp_fit(f, "lp")
    }
  }
  # the averaged votes cut at `threshold`: the method's own cut, so that
  # thresholds given to predict() or stored by cross-validation replace it
  new_ml_fit(list(subsets = subsets, models = models, same = same, learner = base, k = k,
                  mode = mode, vote = vote,
                  labels = colnames(y), features = colnames(x), nobs = nrow(x), call = call),
             "rakel", cut = cut, n_features = ncol(x))
}

#' @rdname rakel
#' @export
rakel.formula <- formula_method("rakel")

# Subsets given by the user (as fit$subsets): label indices in 1..L.
check_subsets <- function(subsets, L) {
  ok <- is.list(subsets) && length(subsets) > 0 &&
    all(vapply(subsets, function(s) is.numeric(s) && length(s) > 0 && !anyNA(s) &&
                 all(s == round(s)) && all(s >= 1 & s <= L) && !anyDuplicated(s), NA))
  if (!ok) stop_arg("'subsets' must be a list of vectors of distinct label indices in 1..", L)
  lapply(subsets, as.integer)
}

# For each subset, the first subset equal to it as a set (itself if none).
rakel_same <- function(subsets) {
  keys <- vapply(subsets, function(s) paste(sort(s), collapse = ","), "")
  match(keys, keys)
}

# An LP fit whose labels are those of `f` in the order perm (f's label
# perm[i] is the new label i): the same classes and model, the label sets'
# columns (and their keys) permuted.
lp_permute <- function(f, perm) {
  # a multi-class model names its classes by the original keys
  f$model_classes <- f$model_classes %||% rownames(f$sets)
  f$sets <- f$sets[, perm, drop = FALSE]
  keys <- label_set_keys(f$sets)
  rownames(f$sets) <- names(f$counts) <- keys
  f$labels <- f$labels[perm]
  f$permuted <- TRUE
  f
}

# m distinct k-subsets of 1..L, each sort(sample(L, k)), redrawn when taken.
rakel_overlapping <- function(L, k, m) {
  out <- vector("list", m)
  seen <- character()
  j <- 0L
  while (j < m) {
    s <- sort(sample.int(L, k))
    key <- paste(s, collapse = ",")
    if (key %in% seen) next
    seen <- c(seen, key)
    j <- j + 1L
    out[[j]] <- s
  }
  out
}

# A random partition of 1..L into groups of k (the last smaller).
rakel_disjoint <- function(L, k) {
  perm <- sample.int(L)
  unname(split(perm, (seq_len(L) - 1L) %/% k))
}

# The averaged votes of the label powersets (the pipeline, predict.ml_fit()
# in R/predict.R, cuts them at the fit's cut or at the thresholds given).
ml_scores.rakel <- function(object, x, type = "score", y = NULL, ...) {
  check_no_options(list(...))
  L <- length(object$labels)
  x <- learner_input(object$learner, x)
  votes <- matrix(0, nrow(x), L)
  used <- numeric(L)
  same <- object$same %||% seq_along(object$models)
  vs <- vector("list", length(object$models))
  for (j in seq_along(object$models)) {
    s <- object$subsets[[j]]
    f <- object$models[[j]]
    v <- if (same[j] < j) {
      # the votes of the earlier model on the same set, permuted
      vs[[same[j]]][, match(s, object$subsets[[same[j]]]), drop = FALSE]
    } else if (object$vote == "class") ml_decode(f, x) else ml_scores(f, x)
    if (same[j] == j && j %in% same[-j]) vs[[j]] <- v
    votes[, s] <- votes[, s] + v
    used[s] <- used[s] + 1
  }
  votes / rep(pmax(used, 1), each = nrow(votes))
}

#' @export
print.rakel <- function(x, ...) {
  cat("\nCall:  ", paste(deparse(x$call), sep = "\n", collapse = "\n"), "\n\n", sep = "")
  cat("RAkEL", if (x$mode == "disjoint") "d" else "o", ": ", length(x$models),
      " label powersets on ", if (x$mode == "disjoint") "disjoint " else "random ",
      x$k, "-labelsets, ", x$nobs, " instances, ", length(x$features), " features, ",
      length(x$labels), " labels",
      if (!is.null(x$learner)) paste0(", learner '", x$learner$name, "'"), "\n", sep = "")
  ncls <- vapply(x$models, function(f) nrow(f$sets), 0)
  cut <- x$thresholds %||% x$cut
  cat("classes per model: ", min(ncls), " to ", max(ncls), "; votes (", x$vote,
      ") averaged, labels above ", format(unique(cut)[1]),
      if (length(unique(cut)) > 1) " (per label)",
      if (!is.null(x$thresholds)) " (stored thresholds)", "\n\n", sep = "")
  invisible(x)
}
