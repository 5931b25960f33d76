#' Cross-validated ML-kNN over a grid of neighbourhood sizes
#'
#' Chooses `k` of [mlknn()] by k-fold cross-validation on the package's engine
#' (see [ml_cv()]): the folds of [ml_folds()], the measure computed on the
#' out-of-fold posteriors with out-of-fold (or training) F1 thresholds as in
#' [cv_mlls()], the best and one-standard-error `k` (larger `k` counted as
#' the more regularised), and a refit on all the data.  The refitted model
#' carries the out-of-fold thresholds of the chosen `k` in `$fit$thresholds`
#' (with `thresholds = "oof"`), the cuts the cross-validated measure was
#' computed with: `predict(cv, newx, type = "class", thresholds =
#' cv$fit$thresholds)` gives the labels whose measure `print(cv)` reports.
#' The posteriors are probabilities, so `measure = "log_loss"` and
#' `"brier"` apply (see [ml_metrics()]).
#'
#' @inheritParams mlknn
#' @inheritParams cv_mlls
#' @param k The grid of neighbourhood sizes (whole numbers >= 1).
#' @param s,scale As in [mlknn()], fixed.
#' @param na_labels What to do with missing labels (`NA` in `y`):
#'   `"refuse"` (an error) or `"negative"` (the fits take `NA` as `FALSE`);
#'   the folds are scored on the observed entries only.
#' @param rule `NULL` (the default: the engine's per-label cuts of the
#'   measure, stored in the refit), or candidate decision rules chosen with
#'   the grid point inside cross-validation by the measure on the out-of-fold
#'   scores: `"f1"`, `"fixed"`, `"rcut"`, `"pcut"`, `"mcut"`, `"lcard"`,
#'   `"scut"`, each optionally followed by `"+1"` (at least one label per
#'   row); the refit then predicts by the chosen rule.  See [cv_eps()],
#'   section Decision rules, and [ml_decide()].
#' @return An object of class `c("cv_mlknn", "ml_cv")` with the components of
#'   [ml_cv()], `fit` being the [mlknn()] fit on all the data at the chosen `k`.
#' @examples
#' e <- mlss::emotions
#' set.seed(1)
#' cv <- cv_mlknn(e$x, e$y, k = c(5, 10, 20), nfolds = 3)
#' cv
#' @export
cv_mlknn <- function(x, y, k = c(5, 10, 15, 20), s = 1, scale = TRUE, nfolds = 5, foldid = NULL,
                     measure = "macro_f1", thresholds = c("oof", "train"),
                     select = c("best", "1se"), keep = FALSE, parallel = FALSE,
                     progress = interactive(), na_labels = c("refuse", "negative"), rule = NULL,
                     ...) {
  call <- match.call()
  if (inherits(x, "formula")) return(cv_formula(call, parent.frame(), "cv_mlknn"))
  check_no_dots(...)
  if (!is.numeric(k) || !length(k) || anyNA(k) || any(k != round(k)) || any(k < 1))
    stop_arg("'k' must be a vector of whole numbers >= 1")
  fit <- function(x, y, k) mlknn(x, y, k = k, s = s, scale = scale)
  ml_cv_run(x, y, fit, grid = list(k = sort(unique(as.integer(k)))), nfolds = nfolds,
            foldid = foldid, measure = measure, thresholds = match.arg(thresholds),
            select = match.arg(select), keep = keep, parallel = parallel,
            progress = progress, order = function(grid) order(-grid$k),
            order_rule = "larger k first (more neighbours, smoother posteriors)",
            na_labels = match.arg(na_labels), probabilities = "label", rule = rule,
            call = call, fun = "cv_mlknn")
}
