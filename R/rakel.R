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
#'   label), stored as the fit's `thresholds`.
#' @param learner,cost The class model of each label powerset, as in [lp()].
#' @param subsets Optional: the label subsets themselves (a list of vectors
#'   of label indices, as `fit$subsets`), instead of a random draw; `k`,
#'   `m` and `mode` then only label the fit.
#' @param ... Passed to [br()] (`tol`, `max_iter`, ...); for the formula
#'   method, the arguments of the default method.
#' @return An object of class `"rakel"`: `subsets` (a list of label index
#'   vectors), `models` (the [lp()] fit of each, on its subset's labels),
#'   `k`, `mode`, `vote`, `thresholds`, `labels`, `features`, `nobs`, `call`.
#' @references Tsoumakas G., Katakis I. and Vlahavas I. (2011). Random
#'   k-labelsets for multilabel classification. IEEE Transactions on
#'   Knowledge and Data Engineering 23(7), 1079-1089.
#' @seealso [predict.rakel()], [lp()].
#' @examples
#' d <- mlss::emotions
#' set.seed(1)
#' fit <- rakel(d, k = 3)
#' fit
#' head(predict(fit, d, type = "score"))
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
  learner <- match.arg(learner)
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
  thresholds <- decide_thresholds(threshold, colnames(y))
  models <- lapply(seq_along(subsets), function(j) {
    fit <- lp_fit(x, y[, subsets[[j]], drop = FALSE], seq_len(nrow(x)), learner, cost, ...)
    structure(fit, class = "lp")
  })
  structure(list(subsets = subsets, models = models, k = k, mode = mode, vote = vote,
                 thresholds = thresholds, labels = colnames(y), features = colnames(x),
                 nobs = nrow(x), call = call),
            class = "rakel")
}

#' @rdname rakel
#' @export
rakel.formula <- function(x, data, subset, na.action = stats::na.fail, ...) {
  md <- model_data(match.call(expand.dots = FALSE), na.action, parent.frame())
  fit <- rakel.default(md$x, md$y, ...)
  with_formula(fit, md, match.call(), quote(rakel))
}

# Subsets given by the user (as fit$subsets): label indices in 1..L.
check_subsets <- function(subsets, L) {
  ok <- is.list(subsets) && length(subsets) > 0 &&
    all(vapply(subsets, function(s) is.numeric(s) && length(s) > 0 && !anyNA(s) &&
                 all(s == round(s)) && all(s >= 1 & s <= L) && !anyDuplicated(s), NA))
  if (!ok) stop_arg("'subsets' must be a list of vectors of distinct label indices in 1..", L)
  lapply(subsets, as.integer)
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

#' Predict with RAkEL
#'
#' @param object A fit from [rakel()].
#' @param newx New data with the training columns (a matrix, data frame or
#'   sparse `Matrix`, or a data set: its test rows).
#' @param type `"class"` (a logical matrix: the averaged votes above the
#'   fit's thresholds) or `"score"` (the averaged votes).
#' @param thresholds For `type = "class"`: one cut or one per label; by
#'   default the fit's.
#' @param ... Not used.
#' @return An n x m matrix, the label names as column names.
#' @seealso [rakel()], [ml_decide()].
#' @examples
#' d <- mlss::emotions
#' set.seed(2)
#' fit <- rakel(d, k = 2, m = 6)
#' table(predict(fit, d, type = "score"))
#' @export
predict.rakel <- function(object, newx, type = c("class", "score"),
                          thresholds = object$thresholds, ...) {
  check_no_dots(...)
  type <- match.arg(type)
  if (missing(newx)) stop_arg("'newx' is missing: give the data to predict")
  if (!is.null(object$terms) && is.data.frame(newx)) {
    rows <- prediction_rows(object, newx, length(object$features), NULL)
    newx <- rows$x
    na <- rows$na
  } else {
    na <- NULL
  }
  L <- length(object$labels)
  votes <- NULL
  used <- numeric(L)
  for (j in seq_along(object$models)) {
    s <- object$subsets[[j]]
    v <- predict.lp(object$models[[j]], newx,
                    type = if (object$vote == "class") "class" else "score")
    if (is.null(votes)) votes <- matrix(0, nrow(v), L, dimnames = list(rownames(v), object$labels))
    votes[, s] <- votes[, s] + v
    used[s] <- used[s] + 1
  }
  score <- votes / rep(pmax(used, 1), each = nrow(votes))
  if (type == "class") {
    thresholds <- decide_thresholds(thresholds, object$labels, "thresholds")
    score <- score > rep(thresholds, each = nrow(score))
  }
  stats::napredict(na, score)
}

#' @export
print.rakel <- function(x, ...) {
  cat("\nCall:  ", paste(deparse(x$call), sep = "\n", collapse = "\n"), "\n\n", sep = "")
  cat("RAkEL", if (x$mode == "disjoint") "d" else "o", ": ", length(x$models),
      " label powersets on ", if (x$mode == "disjoint") "disjoint " else "random ",
      x$k, "-labelsets, ", x$nobs, " instances, ", length(x$features), " features, ",
      length(x$labels), " labels\n", sep = "")
  ncls <- vapply(x$models, function(f) nrow(f$sets), 0)
  cat("classes per model: ", min(ncls), " to ", max(ncls), "; votes (", x$vote,
      ") averaged, labels above ", format(unique(x$thresholds)[1]),
      if (length(unique(x$thresholds)) > 1) " (per label)", "\n\n", sep = "")
  invisible(x)
}
