#' Cross-validated CPLST over a grid of k and lambda
#'
#' Chooses the number of label directions `k` and the ridge penalty `lambda`
#' of [cplst()] by k-fold cross-validation on the package's engine (see
#' [ml_cv()]): the folds of [ml_folds()], out-of-fold thresholds, the best and
#' one-standard-error points, a refit on all the data.  The grid runs from
#' the most regularised point (fewest label directions `k`, then the largest
#' `lambda`) to the least, so that ties and the one-standard-error point go
#' to the simpler model.
#'
#' @inheritParams cplst
#' @inheritParams cv_mlls
#' @param k The grid of numbers of label directions (whole numbers from 1 to
#'   the number of labels); `NULL` for about five values spread from 1 to m.
#' @param lambda The grid of ridge penalties (>= 0).
#' @param rule `NULL` (the default: the engine's per-label cuts of the
#'   measure, stored in the refit), or candidate decision rules chosen with
#'   the grid point inside cross-validation by the measure on the out-of-fold
#'   scores: `"f1"`, `"fixed"`, `"rcut"`, `"pcut"`, `"mcut"`, `"lcard"`,
#'   `"scut"`, each optionally followed by `"+1"` (at least one label per
#'   row); the refit then predicts by the chosen rule.  See [cv_eps()],
#'   section Decision rules, and [ml_decide()].
#' @return An object of class `c("cv_cplst", "ml_cv")` with the components of
#'   [ml_cv()] (`grid`, `cvm`, `cvsd`, `cvfold`, `best`, `best_1se`, `fit`,
#'   `foldid`, ...), `fit` being the [cplst()] fit on all the data at the
#'   chosen point.
#' @examples
#' train <- mlss::yeast$train
#' set.seed(1)
#' cv <- cv_cplst(mlss::yeast$x[train, ], mlss::yeast$y[train, ], k = c(4, 8, 14),
#'                lambda = c(0.1, 10), nfolds = 3)
#' cv
#' @export
cv_cplst <- function(x, y, k = NULL, lambda = 10^(-2:2), na_labels = c("negative", "refuse"),
                     nfolds = 5, foldid = NULL, measure = "macro_f1",
                     thresholds = c("oof", "train"), select = c("best", "1se"), keep = FALSE,
                     parallel = FALSE, progress = interactive(), rule = NULL, ...) {
  call <- match.call()
  if (inherits(x, "formula")) return(cv_formula(call, parent.frame(), "cv_cplst"))
  check_no_dots(...)
  na_labels <- match.arg(na_labels)
  xy <- ml_xy(x, y)
  y <- as_labels(xy$y, NROW(xy$x), na = "keep")
  if (anyNA(y)) {
    if (na_labels == "refuse") refuse_missing_labels(y, "y", "cv_cplst")
    y[is.na(y)] <- FALSE
  }
  m <- ncol(y)
  if (is.null(k)) k <- unique(pmax(1L, round(seq(1, m, length.out = min(m, 5L)))))
  k <- unique(vapply(k, check_cplst_k, integer(1), m = m))
  if (!is.numeric(lambda) || !length(lambda) || anyNA(lambda) || any(!is.finite(lambda)) ||
      any(lambda < 0))
    stop_arg("'lambda' must be a vector of numbers >= 0")
  fit <- function(x, y, k, lambda) cplst(x, y, k = k, lambda = lambda)
  ml_cv_run(xy$x, y, fit, grid = list(k = sort(k), lambda = sort(unique(lambda))),
            nfolds = nfolds, foldid = foldid, measure = measure,
            thresholds = match.arg(thresholds), select = match.arg(select), keep = keep,
            parallel = parallel, progress = progress,
            # most regularised first: fewer label directions, then more ridge
            order = function(grid) order(grid$k, -grid$lambda),
            order_rule = "smaller k first (fewer label directions), then larger lambda",
            rule = rule, call = call, fun = "cv_cplst")
}
