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
#' @param na_labels What to do with missing labels (`NA` in `y`), as for
#'   [br()]: `"refuse"` (an error), `"observed"` (each label's models are
#'   fitted on the rows of the training folds where it is observed) or
#'   `"negative"` (`NA` taken as `FALSE` for fitting).  In every case the
#'   folds stratify on the observed positives and are scored on the observed
#'   entries only (see [ml_cv()]).
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
#' @export
cv_br <- function(x, y, learner = c("ridge", "logistic", "svm"), cost = 10^(-3:2),
                  loss = c("squared_hinge", "hinge"), intercept = TRUE, tol = NULL,
                  max_iter = 1000L, nfolds = 5, foldid = NULL, measure = "macro_f1",
                  thresholds = c("oof", "train"), select = c("best", "1se"), keep = FALSE,
                  parallel = FALSE, progress = interactive(),
                  na_labels = c("refuse", "observed", "negative"), ...) {
  call <- match.call()
  if (inherits(x, "formula")) return(cv_formula(call, parent.frame(), "cv_br"))
  check_no_dots(...)
  learner <- match.arg(learner)
  loss <- match.arg(loss)
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
            call = call, fun = "cv_br")
}
