#' Cross-validated binary relevance over a grid of costs
#'
#' Chooses the cost of [br()] (one cost shared by all labels) by k-fold
#' cross-validation on the package's engine (see [ml_cv()]): the folds of
#' [ml_folds()], out-of-fold thresholds as in [cv_mlls()], the best and
#' one-standard-error costs, a refit on all the data (carrying the
#' out-of-fold thresholds of the chosen cost in `$fit$thresholds`).  The costs are walked
#' from the smallest (the most regularised) up, each fold's logistic or SVM
#' solver starting from its solution at the previous cost (warm starts);
#' ridge is in closed form.  With `learner = "logistic"` the scores are
#' probabilities and `measure = "log_loss"` and `"brier"` apply (see
#' [ml_metrics()]).
#'
#' @section Missing labels:
#' As for [br()], with `na_labels`: `"refuse"` (an error), `"observed"` or
#' `"negative"`.  The folds stratify on the observed positives, and the
#' out-of-fold thresholds and the measure of each fold use the observed
#' entries only, whatever the rule for fitting.
#'
#' @inheritParams br
#' @inheritParams cv_mlls
#' @param cost The grid of costs (> 0); LIBLINEAR's C.
#' @param learner `"ridge"`, `"logistic"`, `"svm"`, or a learner object
#'   ([ml_learner()]).  A built-in learner object without `params` walks the
#'   `cost` grid as its name does (its other settings from the object).
#' @param params For a learner object: the grid of its parameters, a named
#'   list of values (every combination is a grid point, tried in the order
#'   given; ties go to the first), e.g. `list(mtry = c(2, 4, 8))` for
#'   [ml_learner_ranger()].  Each fold fits [br()] with
#'   `update(learner, <point>)`; with `parallel` the folds of a grid point
#'   run in parallel (future, or forked processes, see [ml_cv()]).  `NULL`
#'   for a built-in learner: the `cost` grid.
#' @param na_labels What to do with missing labels (`NA` in `y`), as for
#'   [br()]: `"refuse"` (an error), `"observed"` (each label's models are
#'   fitted on the rows of the training folds where it is observed) or
#'   `"negative"` (`NA` taken as `FALSE` for fitting).  In every case the
#'   folds stratify on the observed positives and are scored on the observed
#'   entries only (see [ml_cv()]).
#' @param rule `NULL` (the default: the engine's per-label cuts of the
#'   measure, stored in the refit), or candidate decision rules chosen with
#'   the grid point inside cross-validation by the measure on the out-of-fold
#'   scores: `"f1"`, `"fixed"`, `"rcut"`, `"pcut"`, `"mcut"`, `"lcard"`,
#'   `"scut"`, each optionally followed by `"+1"` (at least one label per
#'   row); the refit then predicts by the chosen rule.  See [cv_eps()],
#'   section Decision rules, and [ml_decide()].
#' @return An object of class `c("cv_br", "ml_cv")` with the components of
#'   [cv_mlls()] (`grid`, `cvm`, `cvsd`, `cvfold`, `best`, `best_1se`,
#'   `cost_best`, `cost_1se`, `fit`, ...), `fit` being the [br()] fit on all
#'   the data at the chosen cost.
#' @examples
#' train <- mlss::yeast$train
#' set.seed(1)
#' cv <- cv_br(mlss::yeast$x[train, ], mlss::yeast$y[train, ], learner = "logistic",
#'             cost = 10^(-2:1), nfolds = 3)
#' cv
#' \donttest{
#' # a random forest's mtry, tuned on the engine
#' if (requireNamespace("ranger", quietly = TRUE)) {
#'   d <- mlss::emotions
#'   set.seed(1)
#'   cv_br(d$x[d$train, ], d$y[d$train, ], learner = ml_learner_ranger(num.trees = 50),
#'         params = list(mtry = c(4, 16)), nfolds = 3)
#' }
#' }
#' @export
cv_br <- function(x, y, learner = c("ridge", "logistic", "svm"), cost = 10^(-3:2),
                  loss = c("squared_hinge", "hinge"), intercept = TRUE, tol = NULL,
                  max_iter = 1000L, nfolds = 5, foldid = NULL, measure = "macro_f1",
                  thresholds = c("oof", "train"), select = c("best", "1se"), keep = FALSE,
                  parallel = FALSE, progress = interactive(),
                  na_labels = c("refuse", "observed", "negative"), params = NULL,
                  rule = NULL, ...) {
  call <- match.call()
  if (inherits(x, "formula")) return(cv_formula(call, parent.frame(), "cv_br"))
  check_no_dots(...)
  if (is_learner(learner)) {
    learner <- validate_ml_learner(learner)
    if (is.null(learner$builtin) || !is.null(params))
      return(cv_br_learner(x, y, learner, params, nfolds, foldid, measure,
                           match.arg(thresholds), match.arg(select), keep, parallel, progress,
                           match.arg(na_labels), call, rule))
    # a built-in learner object without 'params': the cost path of its solver
    s <- builtin_settings(learner)
    learner <- s$learner
    if (missing(loss)) loss <- s$loss
    if (missing(intercept)) intercept <- s$intercept
    if (is.null(tol)) tol <- s$tol
    if (missing(max_iter)) max_iter <- s$max_iter
  } else if (!is.null(params)) {
    stop_arg("'params' tunes a learner object (ml_learner()); with learner = \"",
             learner[1], "\" the grid is 'cost'")
  }
  learner <- match.arg(learner, c("ridge", "logistic", "svm"))
  loss <- match.arg(loss, c("squared_hinge", "hinge"))
  if (!is.numeric(cost) || !length(cost) || anyNA(cost) || any(!is.finite(cost)) ||
      any(cost <= 0))
    stop_arg("'cost' must be a vector of positive numbers")
  na_labels <- match.arg(na_labels)
  warm <- learner != "ridge"
  fit <- function(x, y, cost, init = NULL)
    br(x, y, learner = learner, cost = cost, loss = loss, intercept = intercept, tol = tol,
       max_iter = max_iter, init = init, na_labels = na_labels)
  if (na_labels == "refuse") {  # refuse here, so that the error names cv_br()
    xy <- ml_xy(x, y)
    if (anyNA(xy$y)) as_labels(xy$y, NROW(xy$y), fun = "cv_br", observed = TRUE)
  }
  ml_cv_run(x, y, fit, grid = list(cost = sort(unique(cost))), warm_start = warm,
            nfolds = nfolds, foldid = foldid, measure = measure,
            thresholds = match.arg(thresholds), select = match.arg(select), keep = keep,
            parallel = parallel, progress = progress,
            order = function(grid) order(grid$cost),
            order_rule = "smaller cost first (a stronger penalty)",
            na_labels = na_labels,
            probabilities = if (learner == "logistic") "label",
            no_prob_hint = paste0("learner = \"", learner, "\" gives ",
                                  if (learner == "ridge") "regression" else "decision",
                                  " values; learner = \"logistic\" gives probabilities"),
            rule = rule, call = call, fun = "cv_br")
}

# cv_br() over the parameters of a learner object: the grid of `params`
# (every combination), each point a br() fit of update(learner, point) per
# fold, the folds in parallel when asked (the engine's fold_apply()).
cv_br_learner <- function(x, y, learner, params, nfolds, foldid, measure, thresholds, select,
                          keep, parallel, progress, na_labels, call,
                          rule = NULL) {
  if (is.null(params)) params <- list(cost = 10^(-3:2))[!is.null(learner$builtin)]
  if (!is.list(params) || !length(params) || is.null(names(params)) ||
      any(names(params) == "") || any(lengths(params) == 0))
    stop_arg("'params' must be a named list of parameter values of the learner, e.g. ",
             "list(mtry = c(2, 4))")
  if (!is.null(learner$builtin) || !"..." %in% names(formals(learner$fit))) {
    known <- if (!is.null(learner$builtin)) names(learner$params)
             else names(formals(learner$fit))[-(1:2)]
    bad <- setdiff(names(params), known)
    if (length(bad))
      stop_arg("'params': the learner '", learner$name, "' has no parameter(s) ",
               paste0("'", bad, "'", collapse = ", "))
  }
  base <- learner
  fit <- function(x, y, ...)
    br(x, y, learner = stats::update(base, ...), na_labels = na_labels)
  if (na_labels == "refuse") {
    xy <- ml_xy(x, y)
    if (anyNA(xy$y)) as_labels(xy$y, NROW(xy$y), fun = "cv_br", observed = TRUE)
  }
  ml_cv_run(x, y, fit, grid = params, warm_start = FALSE, nfolds = nfolds, foldid = foldid,
            measure = measure, thresholds = thresholds, select = select, keep = keep,
            parallel = parallel, progress = progress,
            order = function(grid) seq_len(nrow(grid)),
            order_rule = "the first grid point (in the order given)",
            na_labels = c(refuse = "refuse", observed = "keep", negative = "negative")[[na_labels]],
            probabilities = if (learner$type == "prob") "label",
            no_prob_hint = paste0("the learner '", learner$name, "' gives scores"),
            rule = rule, call = call, fun = "cv_br")
}
