# The default method of ecc() and ebr(), which differ only in `kind`.
ensemble_default <- function(kind) {
  force(kind)
  function(x, y, n_models = 10, sample = c("bootstrap", "subsample"), fraction = 0.67,
           vote = c("class", "score"), threshold = 0.5, cost = 1, learner = NULL,
           features = 1, ...) {
    call <- match.call()
    call[[1L]] <- as.name(kind)
    sample <- match.arg(sample)
    # a bootstrap draws n rows unless a fraction is given
    if (sample == "bootstrap" && missing(fraction)) fraction <- 1
    # a learner object brings its own parameters unless a cost is given
    ensemble_fit(x, if (!missing(y)) y, kind, n_models, sample, fraction,
                 match.arg(vote), threshold, if (is.null(learner) || !missing(cost)) cost,
                 call, learner, features = features, ...)
  }
}

#' Ensembles of classifier chains and of binary relevance (ECC, EBR)
#'
#' `ecc()` fits `n_models` classifier chains ([cc()]), each on a random
#' sample of the training rows and with a random order of the labels (Read
#' et al. 2011); `ebr()` fits `n_models` binary relevance models ([br()],
#' logistic) on random samples of the rows.  Their votes are averaged into
#' scores, and a label is predicted where its score is above `threshold`
#' (0.5 by default), strictly.
#'
#' The draws, from R's generator (so `set.seed()` reproduces a fit), model
#' after model: the rows, `sample.int(n, n, replace = TRUE)`
#' (`sample = "bootstrap"`; `round(fraction * n)` rows when `fraction` is
#' given) or `sample.int(n, round(fraction * n))` (`"subsample"`, without
#' replacement), then, with `features < 1`, the model's features,
#' `sort(sample.int(d, ceiling(features * d)))` (a random subspace), then for
#' `ecc()` the chain, `sample.int(m)`.  utiml's ECC is `ecc(fraction = 0.75,
#' features = 0.5)` (its defaults: 75% of the rows drawn with replacement,
#' half of the features), with utiml's LCard cut of the averaged votes
#' instead of 0.5 (see [ml_decide()]).
#'
#' Votes: with `vote = "class"` (Read et al.'s) each model gives 1 to the
#' labels it predicts (the chain's greedy walk, or BR's training F1 cuts) and
#' 0 to the others; with `vote = "score"` its probability of the label (for
#' a chain, the probability along its greedy walk, as
#' `predict(type = "score")` of [cc()] gives it).
#'
#' A sample in which a label has no positive (or only positives) fits that
#' label as its base method does (never or always predicted, see [br()]);
#' the warnings this gives are collected into one at the end that says in how
#' many samples it happened.
#'
#' @param x,y As in [cc()] (an [mlss_data()] or `mldr` object as `x`: its
#'   training rows, `y` left out; for the formula methods, a formula
#'   `cbind(l1, l2) ~ .`).
#' @param data,subset,na.action For the formula methods, as in [lm()].
#' @param n_models The number of models (default 10, Read et al.'s).
#' @param sample `"bootstrap"` (with replacement, n rows) or `"subsample"`
#'   (without replacement, `fraction` of the rows).
#' @param fraction The share of rows in each sample: for `"subsample"` (0.67
#'   by default); for `"bootstrap"` when given (by default n rows are drawn).
#' @param vote `"class"` or `"score"`, see above.
#' @param threshold The cut on the averaged votes (one number or one per
#'   label), stored as the fit's `cut`; thresholds given to `predict()`, or
#'   stored in `fit$thresholds` (by [ml_cv()]), replace it.
#' @param cost The cost of the logistic regressions, as in [cc()] and [br()].
#'   With a `learner` and `cost` left out, the learner's own parameters.
#' @param learner `NULL` (the logistic regressions), or a learner object
#'   ([ml_learner()]) for every model: the `learner` of [cc()] (`ecc()`) or
#'   of [br()] (`ebr()`).  With `vote = "score"` the votes are the learner's
#'   probabilities, or its scores (then set `threshold` to match).
#'   The logistic regressions penalise their intercept, so a constant added
#'   to a column of `x` changes the fits (see [br()]).
#' @param features The share of the features each model sees (1, all, by
#'   default; a number in (0, 1]): each model draws its own
#'   `ceiling(features * d)` features (kept in `fit$cols`), as utiml's ECC
#'   does (`attr.space = 0.5`).
#' @param ... Passed to [cc()] or [br()] (`tol`, `max_iter`); for the
#'   formula methods, the arguments of the default method.
#' @return An object of class `c("ecc", "ml_ensemble", "ml_fit")` or
#'   `c("ebr", "ml_ensemble", "ml_fit")`, predicted by [predict.ml_fit()]
#'   (`type = "class"`: the averaged votes above the cut; `"score"`: the
#'   averaged votes): `models` (the fits), `rows` (the sampled rows of each),
#'   `cols` (the features of each, with `features < 1`),
#'   `orders` (`ecc()`: each chain's order, label names), `sample`, `vote`,
#'   `cut`, `labels`, `features`, `nobs`, `call`, and the fields of the
#'   contract (`types`, `n_features`).
#' @references Read J., Pfahringer B., Holmes G. and Frank E. (2011).
#'   Classifier chains for multi-label classification. Machine Learning
#'   85(3), 333-359.
#' @seealso [predict.ml_fit()], [cc()], [br()].
#' @aliases predict.ml_ensemble
#' @examples
#' d <- mlss::emotions
#' set.seed(1)
#' fit <- ecc(d, n_models = 5)
#' fit
#' head(predict(fit, d, type = "score"))
#' set.seed(1)
#' head(predict(ebr(d, n_models = 5, sample = "subsample"), d))
#' @export
ecc <- function(x, ...) UseMethod("ecc")

#' @rdname ecc
#' @export
ecc.default <- ensemble_default("ecc")

#' @rdname ecc
#' @export
ecc.formula <- formula_method("ecc")

#' @rdname ecc
#' @export
ebr <- function(x, ...) UseMethod("ebr")

#' @rdname ecc
#' @export
ebr.default <- ensemble_default("ebr")

#' @rdname ecc
#' @export
ebr.formula <- formula_method("ebr")

ensemble_fit <- function(x, y, kind, n_models, sample, fraction, vote, threshold, cost, call,
                         learner = NULL, features = 1, ...) {
  if (!is.null(learner)) learner <- validate_ml_learner(learner)
  xy <- ml_xy(x, y)
  x <- as_features(xy$x)
  y <- as_labels(xy$y, nrow(x), fun = kind)
  n <- nrow(x)
  m <- ncol(y)
  if (!is.numeric(n_models) || length(n_models) != 1 || is.na(n_models) || n_models < 1 ||
      n_models != round(n_models))
    stop_arg("'n_models' must be one whole number >= 1")
  if (!is.numeric(fraction) || length(fraction) != 1 || is.na(fraction) || fraction <= 0 ||
      fraction > 1 || (sample == "subsample" && round(fraction * n) < 1))
    stop_arg("'fraction' must be one number in (0, 1] that leaves at least one row")
  if (!is.numeric(features) || length(features) != 1 || is.na(features) || features <= 0 ||
      features > 1)
    stop_arg("'features' must be one number in (0, 1] (the share of features per model)")
  d <- ncol(x)
  cut <- decide_thresholds(threshold, colnames(y))
  x <- learner_input(learner, x)  # dense once, not per model and label
  models <- rows <- orders <- cols <- vector("list", n_models)
  constant <- 0L
  for (j in seq_len(n_models)) {
    r <- if (sample == "bootstrap") sample.int(n, max(1L, round(fraction * n)), replace = TRUE)
         else sample.int(n, round(fraction * n))
    cj <- if (features < 1) sort(sample.int(d, ceiling(features * d)))
    xj <- if (is.null(cj)) x[r, , drop = FALSE] else x[r, cj, drop = FALSE]
    ord <- if (kind == "ecc") sample.int(m)
    yj <- y[r, , drop = FALSE]
    npos <- colSums(yj)
    flat <- any(npos == 0 | npos == nrow(yj))
    constant <- constant + flat
    fit_one <- function() {
      # cost = NULL with a learner object: the learner's own parameters
      if (kind == "ecc") {
        if (is.null(learner)) cc(xj, yj, order = ord, cost = cost, ...)
        else if (is.null(cost)) cc(xj, yj, order = ord, learner = learner, ...)
        else cc(xj, yj, order = ord, cost = cost, learner = learner, ...)
      } else br(xj, yj, learner = learner %||% "logistic", cost = cost, ...)
    }
    # the base methods' warnings about constant labels, expected in such a
    # sample, are counted and said once below; classed ones pass
    models[[j]] <- withCallingHandlers(fit_one(), warning = function(w) {
      if (flat && identical(class(w), c("simpleWarning", "warning", "condition")))
        invokeRestart("muffleWarning")
    })
    rows[[j]] <- r
    if (!is.null(cj)) cols[[j]] <- cj
    if (kind == "ecc") orders[[j]] <- colnames(y)[ord]
  }
  if (constant)
    warning("in ", constant, " of the ", n_models, " samples some label had no positive ",
            "(or only positives): those models never (or always) predict it", call. = FALSE)
  # the averaged votes cut at `threshold`: the method's own cut, so that
  # thresholds given to predict() or stored by cross-validation replace it
  new_ml_fit(list(models = models, rows = rows, cols = if (features < 1) cols,
                  orders = if (kind == "ecc") orders,
                  learner = learner, sample = sample, vote = vote, labels = colnames(y),
                  features = colnames(x), nobs = n, call = call),
             c(kind, "ml_ensemble"), cut = cut, n_features = ncol(x))
}

# The averaged votes of the models (the pipeline, predict.ml_fit() in
# R/predict.R, cuts them at the fit's cut or at the thresholds given).  A
# model's class vote is what its own predict(type = "class") gives: the
# chain's greedy walk, BR's scores above its training F1 thresholds.
ml_scores.ml_ensemble <- function(object, x, type = "score", y = NULL, ...) {
  check_no_options(list(...))
  x <- x_all <- learner_input(object$learner, x)
  score <- 0
  for (j in seq_along(object$models)) {
    f <- object$models[[j]]
    if (!is.null(object$cols)) x <- x_all[, object$cols[[j]], drop = FALSE]
    v <- if (object$vote == "score") ml_scores(f, x) else
         if (is.null(fit_thresholds(f)) && !is.null(f$decoder)) ml_decode(f, x) else
         classify_scores(ml_scores(f, x), fit_thresholds(f) %||% f$cut, f$labels)
    score <- score + v
  }
  unname(score / length(object$models))
}

#' @export
print.ml_ensemble <- function(x, ...) {
  what <- if (inherits(x, "ecc")) "classifier chains (random orders)" else
    "binary relevance models"
  what <- paste0(what, if (!is.null(x$learner)) paste0(", learner '", x$learner$name, "'")
                       else if (inherits(x, "ebr")) " (logistic)")
  print_vote_ensemble(x, what)
}

# The print() of an ensemble whose votes are averaged (ECC, EBR, EPS): the
# call, what its models are, and the cut of the averaged votes.
print_vote_ensemble <- function(x, what) {
  cat("\nCall:  ", paste(deparse(x$call), sep = "\n", collapse = "\n"), "\n\n", sep = "")
  cat("Ensemble of ", length(x$models), " ", what, " on ", x$sample, " samples of ", x$nobs,
      " instances, ", length(x$features), " features, ", length(x$labels), " labels\n",
      sep = "")
  cut <- x$thresholds %||% x$cut
  cat("votes (", x$vote, ") averaged, labels above ", format(unique(cut)[1]),
      if (length(unique(cut)) > 1) " (per label)",
      if (!is.null(x$thresholds)) " (stored thresholds)", "\n\n", sep = "")
  invisible(x)
}
