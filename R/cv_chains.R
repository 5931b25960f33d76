#' Cross-validated classifier chains over a grid of costs
#'
#' Chooses the cost of [cc()] or [pcc()] (one cost shared by all labels) by
#' k-fold cross-validation on the package's engine (see [ml_cv()]): the folds
#' of [ml_folds()], the best and one-standard-error costs, a refit on all the
#' data.  The costs are walked from the smallest (the most regularised) up,
#' each fold's chain starting from its fit at the previous cost (warm
#' starts).
#'
#' The validation rows are scored by `predict(type = "score")`: for `cv_cc()`
#' the probabilities along the greedy path, for `cv_pcc()` the marginals
#' (with the inference of `inference`), thresholded per label as in
#' [cv_mlls()] (out-of-fold F1 cuts by default) so that every measure of
#' [ml_metrics()] applies; the final model's `predict(type = "class")` still
#' gives the greedy or MAP label vectors.
#'
#' @inheritParams chains
#' @inheritParams cv_mlls
#' @param cost The grid of costs (> 0).
#' @return An object of class `c("cv_cc", "ml_cv")` or `c("cv_pcc",
#'   "ml_cv")` with the components of [cv_mlls()] (`grid`, `cvm`, `cvsd`,
#'   `cvfold`, `best`, `best_1se`, `cost_best`, `cost_1se`, `fit`, ...), `fit`
#'   being the chain fitted on all the data at the chosen cost.
#' @examples
#' x <- mlss::emotions$x[1:300, ]
#' y <- mlss::emotions$y[1:300, ]
#' set.seed(1)
#' cv <- cv_pcc(x, y, cost = 10^(-2:0), nfolds = 3)
#' cv
#' @export
cv_cc <- function(x, y, order = NULL, cost = 10^(-3:2), tol = NULL, max_iter = 1000L,
                  nfolds = 5, foldid = NULL, measure = "macro_f1",
                  thresholds = c("oof", "train"), select = c("best", "1se"), keep = FALSE,
                  parallel = FALSE, progress = interactive(), ...) {
  call <- match.call()
  check_no_dots(...)
  fit <- function(x, y, cost, init = NULL)
    cc(x, y, order = order, cost = cost, tol = tol, max_iter = max_iter, init = init)
  cv <- cv_chain(x, y, fit, cost, nfolds, foldid, measure, match.arg(thresholds),
                 match.arg(select), keep, parallel, progress)
  cv$call <- call
  cv
}

#' @rdname cv_cc
#' @export
cv_pcc <- function(x, y, order = NULL, cost = 10^(-3:2),
                   inference = c("exact", "beam", "sample"), beam_width = 10L,
                   n_samples = 1000L, tol = NULL, max_iter = 1000L, nfolds = 5,
                   foldid = NULL, measure = "macro_f1", thresholds = c("oof", "train"),
                   select = c("best", "1se"), keep = FALSE, parallel = FALSE,
                   progress = interactive(), ...) {
  call <- match.call()
  check_no_dots(...)
  inference <- match.arg(inference)
  fit <- function(x, y, cost, init = NULL)
    pcc(x, y, order = order, cost = cost, inference = inference, beam_width = beam_width,
        n_samples = n_samples, tol = tol, max_iter = max_iter, init = init)
  cv <- cv_chain(x, y, fit, cost, nfolds, foldid, measure, match.arg(thresholds),
                 match.arg(select), keep, parallel, progress)
  cv$call <- call
  cv
}

cv_chain <- function(x, y, fit, cost, nfolds, foldid, measure, thresholds, select, keep,
                     parallel, progress) {
  if (!is.numeric(cost) || !length(cost) || anyNA(cost) || any(!is.finite(cost)) ||
      any(cost <= 0))
    stop_arg("'cost' must be a vector of positive numbers")
  ml_cv(x, y, fit, grid = list(cost = sort(unique(cost))), warm_start = TRUE,
        nfolds = nfolds, foldid = foldid, measure = measure, thresholds = thresholds,
        select = select, keep = keep, parallel = parallel, progress = progress,
        order = function(grid) order(grid$cost))
}
