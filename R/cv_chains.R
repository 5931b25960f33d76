#' Cross-validated classifier chains over a grid of costs
#'
#' Chooses the cost of [cc()] or [pcc()] (one cost shared by all labels) by
#' k-fold cross-validation on the package's engine (see [ml_cv()]): the folds
#' of [ml_folds()], the best and one-standard-error costs, a refit on all the
#' data.  The costs are walked from the smallest (the most regularised) up,
#' each fold's chain starting from its fit at the previous cost (warm
#' starts).
#'
#' The cross-validated measure is that of what `predict()` returns.  A
#' measure of label sets (macro and micro F1, Hamming loss, subset accuracy,
#' ...) is computed on the validation rows' `predict(type = "class")`: the
#' greedy label vectors for `cv_cc()`, the MAP vectors (with the inference of
#' `inference`) for `cv_pcc()`, without thresholds.  A ranking measure (AUC,
#' ranking loss, average precision, ...) is computed on `predict(type =
#' "score")`: the probabilities along the greedy path for `cv_cc()`, the
#' marginals for `cv_pcc()`.  `cv_pcc()` also takes `measure = "log_loss"`
#' (the chain rule's probability of each validation row's label vector) and
#' `"brier"` (on the marginals); `cv_cc()`'s scores are not marginals, and
#' both are refused there.
#'
#' @inheritParams chains
#' @inheritParams cv_mlls
#' @param cost The grid of costs (> 0).
#' @param na_labels What to do with missing labels (`NA` in `y`):
#'   `"refuse"` (an error) or `"negative"` (the fits take `NA` as `FALSE`);
#'   the folds are scored on the observed entries only (`"log_loss"` of
#'   `cv_pcc()` is then refused: see [ml_metrics()]).
#' @param rule `NULL` (the default: the chain's own label sets, its
#'   decoder), or candidate decision rules chosen with the cost inside
#'   cross-validation by the measure on the out-of-fold scores: `"decoder"`
#'   (the chain's label sets), `"f1"` (per-label F1 cuts of the scores, with
#'   `thresholds = "oof"`), `"fixed"`, `"rcut"`, `"pcut"`, `"mcut"`,
#'   `"lcard"`, `"scut"`, each optionally followed by `"+1"` (at least one
#'   label per row); the refit then predicts by the chosen rule.  See
#'   [cv_eps()], section Decision rules, and [ml_decide()].
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
                  parallel = FALSE, progress = interactive(),
                  na_labels = c("refuse", "negative"), rule = NULL, ...) {
  call <- match.call()
  if (inherits(x, "formula")) return(cv_formula(call, parent.frame(), "cv_cc"))
  check_no_dots(...)
  fit <- function(x, y, cost, init = NULL)
    cc(x, y, order = order, cost = cost, tol = tol, max_iter = max_iter, init = init)
  cv_chain(x, y, fit, cost, nfolds, foldid, measure, match.arg(thresholds),
           match.arg(select), keep, parallel, progress, match.arg(na_labels), call, "cv_cc",
           probabilities = NULL, rule = rule)
}

#' @rdname cv_cc
#' @export
cv_pcc <- function(x, y, order = NULL, cost = 10^(-3:2),
                   inference = c("exact", "beam", "sample"), beam_width = 10L,
                   n_samples = 1000L, tol = NULL, max_iter = 1000L, nfolds = 5,
                   foldid = NULL, measure = "macro_f1", thresholds = c("oof", "train"),
                   select = c("best", "1se"), keep = FALSE, parallel = FALSE,
                   progress = interactive(), na_labels = c("refuse", "negative"), rule = NULL,
                   ...) {
  call <- match.call()
  if (inherits(x, "formula")) return(cv_formula(call, parent.frame(), "cv_pcc"))
  check_no_dots(...)
  inference <- match.arg(inference)
  fit <- function(x, y, cost, init = NULL)
    pcc(x, y, order = order, cost = cost, inference = inference, beam_width = beam_width,
        n_samples = n_samples, tol = tol, max_iter = max_iter, init = init)
  cv_chain(x, y, fit, cost, nfolds, foldid, measure, match.arg(thresholds),
           match.arg(select), keep, parallel, progress, match.arg(na_labels), call, "cv_pcc",
           probabilities = "joint", rule = rule)
}

# Both chains: labels by the chain's decoder (greedy or MAP); for PCC the
# probability of a label vector by the chain rule (log_loss).
cv_chain <- function(x, y, fit, cost, nfolds, foldid, measure, thresholds, select, keep,
                     parallel, progress, na_labels, call, fun, probabilities,
                     rule = NULL) {
  if (!is.numeric(cost) || !length(cost) || anyNA(cost) || any(!is.finite(cost)) ||
      any(cost <= 0))
    stop_arg("'cost' must be a vector of positive numbers")
  ml_cv_run(x, y, fit, grid = list(cost = sort(unique(cost))), warm_start = TRUE,
            nfolds = nfolds, foldid = foldid, measure = measure, thresholds = thresholds,
            select = select, keep = keep, parallel = parallel, progress = progress,
            order = function(grid) order(grid$cost),
            order_rule = "smaller cost first (a stronger penalty)", na_labels = na_labels,
            decoder = TRUE, probabilities = probabilities,
            loglik = if (identical(probabilities, "joint")) function(model, x, y)
              log(pmax(stats::predict(model, x, type = "prob", y = y), 1e-300)),
            no_prob_hint = "the greedy walk's conditional probabilities along its own path, not marginals; cv_pcc() gives them",
            rule = rule, call = call, fun = fun)
}
