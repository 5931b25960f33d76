#' Ensemble of pruned sets (EPS)
#'
#' `eps()` fits `n_models` pruned-sets models ([ps()]), each on a random
#' sample of the training rows (Read, Pfahringer and Holmes 2008), and
#' averages their votes into scores; a label is predicted where its score is
#' above `threshold` (0.5 by default), strictly.  Averaging lets EPS predict
#' label sets that no single model has as a class.
#'
#' The draws, from R's generator (so `set.seed()` reproduces a fit), model
#' after model: `sample.int(n, n, replace = TRUE)` (`sample = "bootstrap"`)
#' or `sample.int(n, round(fraction * n))` (`"subsample"`, without
#' replacement, `fraction` of the rows).  Each model is
#' `ps(x[rows, ], y[rows, ], p, b, strategy, learner = learner, cost = cost)`.
#'
#' Votes: with `vote = "class"` (Read et al.'s) each model gives 1 to the
#' labels of the label set it predicts (its most probable class) and 0 to
#' the others; with `vote = "score"` its marginal probability of the label
#' (`predict(type = "score")` of [ps()]).
#'
#' A sample in which every label set has fewer than `p` examples is an
#' error (lower `p`).
#'
#' @param x,y As in [ps()] (an [mlss_data()] or `mldr` object as `x`: its
#'   training rows, `y` left out; for the formula method, a formula
#'   `cbind(l1, l2) ~ .`).
#' @param data,subset,na.action For the formula method, as in [lm()].
#' @param n_models The number of models (default 10).
#' @param p,b,strategy As in [ps()] (defaults p = 2, b = 2, strategy A).
#' @param sample `"bootstrap"` or `"subsample"`, see above.
#' @param fraction For `"subsample"`: the share of rows in each sample.
#' @param vote `"class"` or `"score"`, see above.
#' @param threshold The cut on the averaged votes (one number or one per
#'   label), stored as the fit's `cut`; thresholds given to `predict()`, or
#'   stored by cross-validation ([cv_eps()]), replace it.
#' @param learner,cost The class model of each [ps()] fit: `learner` takes
#'   the strings of [br()] (`"logistic"`, the default, `"ridge"`, `"svm"`).
#'   The logistic and SVM learners penalise their intercept, so a
#'   constant added to a column of `x` changes their fits (see [br()]); the
#'   ridge learner's do not.
#' @param init A warm start: an `eps()` fit on the same rows (with as many
#'   models), whose samples are taken again instead of drawn, each model's
#'   solver starting from that model's weights (logistic and SVM learners).
#'   [cv_eps()] walks its grid of costs so in each fold.
#' @param ... Passed to [ps()] (and on to [br()]: `tol`, `max_iter`); for
#'   the formula method, the arguments of the default method.
#' @return An object of class `c("eps", "ml_fit")`, predicted by
#'   [predict.ml_fit()] (`type = "class"`: the averaged votes above the cut;
#'   `"score"`: the averaged votes): `models` (the [ps()] fits), `rows` (the
#'   sampled rows of each), `sample`, `vote`, `cut`, `labels`, `features`,
#'   `nobs`, `call`, and the fields of the contract.
#' @references Read J., Pfahringer B. and Holmes G. (2008). Multi-label
#'   classification using ensembles of pruned sets. Proceedings of the 8th
#'   IEEE International Conference on Data Mining (ICDM 2008), 995-1000.
#' @seealso [ps()], [cv_eps()], [ecc()], [rakel()].
#' @aliases print.eps predict.eps
#' @examples
#' d <- mlss::emotions
#' set.seed(1)
#' fit <- eps(d, n_models = 3, p = 3)
#' fit
#' head(predict(fit, d, type = "score"))
#' @export
eps <- function(x, ...) UseMethod("eps")

#' @rdname eps
#' @export
eps.default <- function(x, y, n_models = 10, p = 2, b = 2, strategy = c("A", "B"),
                        sample = c("bootstrap", "subsample"), fraction = 0.67,
                        vote = c("class", "score"), threshold = 0.5,
                        learner = c("logistic", "ridge", "svm"), cost = 1, init = NULL,
                        ...) {
  call <- match.call()
  call[[1L]] <- quote(eps)
  strategy <- match.arg(strategy)
  sample <- match.arg(sample)
  vote <- match.arg(vote)
  learner <- match.arg(learner)
  xy <- ml_xy(x, if (!missing(y)) y)
  x <- as_features(xy$x)
  y <- as_labels(xy$y, nrow(x), fun = "eps")
  n <- nrow(x)
  check_n_models(n_models)
  check_fraction(fraction, sample, n)
  cut <- decide_thresholds(threshold, colnames(y))
  check_eps_init(init, n, n_models, learner)
  models <- rows <- vector("list", n_models)
  for (j in seq_len(n_models)) {
    r <- if (is.null(init)) sample_rows(n, sample, fraction) else init$rows[[j]]
    # a warm start of the class models (ridge is in closed form: none)
    start <- if (!is.null(init) && learner != "ridge") list(init = init$models[[j]]$model)
    models[[j]] <- do.call(ps.default, c(list(x[r, , drop = FALSE], y[r, , drop = FALSE],
                                              p = p, b = b, strategy = strategy,
                                              learner = learner, cost = cost),
                                         start, list(...)))
    rows[[j]] <- r
  }
  new_ml_fit(list(models = models, rows = rows, sample = sample, vote = vote, p = p, b = b,
                  strategy = strategy, learner = learner, labels = colnames(y),
                  features = colnames(x), nobs = n, call = call),
             "eps", cut = cut, n_features = ncol(x))
}

#' @rdname eps
#' @export
eps.formula <- function(x, data, subset, na.action = stats::na.fail, ...) {
  md <- model_data(match.call(expand.dots = FALSE), na.action, parent.frame())
  fit <- eps.default(md$x, md$y, ...)
  with_formula(fit, md, match.call(), quote(eps))
}

# A warm start must come from eps() on as many rows, with as many models and
# the same learner.
check_eps_init <- function(init, n, n_models, learner) {
  if (is.null(init)) return(invisible())
  if (!inherits(init, "eps") || length(init$rows) != n_models || init$nobs != n ||
      !identical(init$learner, learner))
    stop_arg("'init' must be an eps() fit on the same rows, with n_models = ", n_models,
             " and learner = \"", learner, "\"")
  invisible()
}

# The rows of one model of an ensemble, from R's generator.
sample_rows <- function(n, sample, fraction) {
  if (sample == "bootstrap") sample.int(n, n, replace = TRUE)
  else sample.int(n, round(fraction * n))
}

check_n_models <- function(n_models) {
  if (!is.numeric(n_models) || length(n_models) != 1 || is.na(n_models) || n_models < 1 ||
      n_models != round(n_models))
    stop_arg("'n_models' must be one whole number >= 1")
}

check_fraction <- function(fraction, sample, n) {
  if (!is.numeric(fraction) || length(fraction) != 1 || is.na(fraction) || fraction <= 0 ||
      fraction > 1 || (sample == "subsample" && round(fraction * n) < 1))
    stop_arg("'fraction' must be one number in (0, 1] that leaves at least one row")
}

# The averaged votes (the pipeline cuts them at the fit's cut or at the
# thresholds given): each model's label set, or its marginals.
ml_scores.eps <- function(object, x, type = "score", y = NULL, ...) {
  check_no_options(list(...))
  score <- 0
  for (f in object$models)
    score <- score + (if (object$vote == "score") ml_scores(f, x) else ml_decode(f, x))
  unname(score / length(object$models))
}

#' @export
print.eps <- function(x, ...) {
  print_vote_ensemble(x, paste0("pruned-sets models (p = ", x$p, ", b = ", x$b, ", strategy ",
                                x$strategy, ", ", x$learner, ")"))
}
