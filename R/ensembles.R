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
#' after model: the rows, `sample.int(n, n, replace = TRUE)` (`sample =
#' "bootstrap"`) or `sample.int(n, round(fraction * n))` (`"subsample"`,
#' without replacement), then for `ecc()` the chain, `sample.int(m)`.
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
#' @param x,y As in [cc()] (an [mlss_data()] object as `x`: its training rows).
#' @param n_models The number of models (default 10, Read et al.'s).
#' @param sample `"bootstrap"` (with replacement, n rows) or `"subsample"`
#'   (without replacement, `fraction` of the rows).
#' @param fraction For `"subsample"`: the share of rows in each sample.
#' @param vote `"class"` or `"score"`, see above.
#' @param threshold The cut on the averaged votes (one number or one per
#'   label), stored as the fit's `thresholds`.
#' @param cost The cost of the logistic regressions, as in [cc()] and [br()].
#' @param ... Passed to [cc()] or [br()] (`tol`, `max_iter`).
#' @return An object of class `c("ecc", "ml_ensemble")` or `c("ebr",
#'   "ml_ensemble")`: `models` (the fits), `rows` (the sampled rows of each),
#'   `orders` (`ecc()`: each chain's order, label names), `vote`,
#'   `thresholds`, `labels`, `features`, `nobs`, `call`.
#' @references Read J., Pfahringer B., Holmes G. and Frank E. (2011).
#'   Classifier chains for multi-label classification. Machine Learning
#'   85(3), 333-359.
#' @seealso [predict.ml_ensemble()], [cc()], [br()].
#' @examples
#' d <- mlss::emotions
#' set.seed(1)
#' fit <- ecc(d, n_models = 5)
#' fit
#' head(predict(fit, d, type = "score"))
#' set.seed(1)
#' head(predict(ebr(d, n_models = 5, sample = "subsample"), d))
#' @export
ecc <- function(x, y, n_models = 10, sample = c("bootstrap", "subsample"), fraction = 0.67,
                vote = c("class", "score"), threshold = 0.5, cost = 1, ...) {
  call <- match.call()
  ensemble_fit(x, y, "ecc", n_models, match.arg(sample), fraction, match.arg(vote),
               threshold, cost, call, ...)
}

#' @rdname ecc
#' @export
ebr <- function(x, y, n_models = 10, sample = c("bootstrap", "subsample"), fraction = 0.67,
                vote = c("class", "score"), threshold = 0.5, cost = 1, ...) {
  call <- match.call()
  ensemble_fit(x, y, "ebr", n_models, match.arg(sample), fraction, match.arg(vote),
               threshold, cost, call, ...)
}

ensemble_fit <- function(x, y, kind, n_models, sample, fraction, vote, threshold, cost, call,
                         ...) {
  xy <- ml_xy(x, if (!missing(y)) y)
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
  thresholds <- decide_thresholds(threshold, colnames(y))
  models <- rows <- orders <- vector("list", n_models)
  constant <- 0L
  for (j in seq_len(n_models)) {
    r <- if (sample == "bootstrap") sample.int(n, n, replace = TRUE)
         else sample.int(n, round(fraction * n))
    ord <- if (kind == "ecc") sample.int(m)
    yj <- y[r, , drop = FALSE]
    npos <- colSums(yj)
    flat <- any(npos == 0 | npos == nrow(yj))
    constant <- constant + flat
    fit_one <- function() {
      if (kind == "ecc") cc(x[r, , drop = FALSE], yj, order = ord, cost = cost, ...)
      else br(x[r, , drop = FALSE], yj, learner = "logistic", cost = cost, ...)
    }
    # the base methods' warnings about constant labels, expected in such a
    # sample, are counted and said once below; classed ones pass
    models[[j]] <- withCallingHandlers(fit_one(), warning = function(w) {
      if (flat && identical(class(w), c("simpleWarning", "warning", "condition")))
        invokeRestart("muffleWarning")
    })
    rows[[j]] <- r
    if (kind == "ecc") orders[[j]] <- colnames(y)[ord]
  }
  if (constant)
    warning("in ", constant, " of the ", n_models, " samples some label had no positive ",
            "(or only positives): those models never (or always) predict it", call. = FALSE)
  structure(list(models = models, rows = rows, orders = if (kind == "ecc") orders,
                 sample = sample, vote = vote, thresholds = thresholds,
                 labels = colnames(y), features = colnames(x), nobs = n, call = call),
            class = c(kind, "ml_ensemble"))
}

#' Predict with an ensemble of chains or of binary relevance
#'
#' @param object A fit from [ecc()] or [ebr()].
#' @param newx New data with the training columns (a matrix, data frame or
#'   sparse `Matrix`, or a data set: its test rows).
#' @param type `"class"` (the averaged votes above the thresholds) or
#'   `"score"` (the averaged votes).
#' @param thresholds For `type = "class"`: one cut or one per label; by
#'   default the fit's.
#' @param ... Not used.
#' @return An n x m matrix, the label names as column names.
#' @seealso [ecc()], [ml_decide()].
#' @examples
#' d <- mlss::emotions
#' set.seed(3)
#' fit <- ebr(d, n_models = 3)
#' head(predict(fit, d, type = "score"))
#' @export
predict.ml_ensemble <- function(object, newx, type = c("class", "score"),
                                thresholds = object$thresholds, ...) {
  check_no_dots(...)
  type <- match.arg(type)
  if (missing(newx)) stop_arg("'newx' is missing: give the data to predict")
  score <- NULL
  for (f in object$models) {
    v <- predict(f, newx, type = if (object$vote == "class") "class" else "score")
    score <- if (is.null(score)) v + 0 else score + v
  }
  score <- score / length(object$models)
  if (type == "class") {
    thresholds <- decide_thresholds(thresholds, object$labels, "thresholds")
    score <- score > rep(thresholds, each = nrow(score))
  }
  score
}

#' @export
print.ml_ensemble <- function(x, ...) {
  cat("\nCall:  ", paste(deparse(x$call), sep = "\n", collapse = "\n"), "\n\n", sep = "")
  what <- if (inherits(x, "ecc")) "classifier chains (random orders)" else
    "binary relevance models (logistic)"
  cat("Ensemble of ", length(x$models), " ", what, " on ", x$sample, " samples of ", x$nobs,
      " instances, ", length(x$features), " features, ", length(x$labels), " labels\n",
      sep = "")
  cat("votes (", x$vote, ") averaged, labels above ", format(unique(x$thresholds)[1]),
      if (length(unique(x$thresholds)) > 1) " (per label)", "\n\n", sep = "")
  invisible(x)
}
