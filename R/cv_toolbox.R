#' Cross-validated label powerset and RAkEL over a grid of costs
#'
#' Chooses the cost \eqn{C} of the class model of [lp()] or [rakel()] by
#' k-fold cross-validation on the package's engine ([ml_cv()]): the folds of
#' [ml_folds()], the best and one-standard-error cost (a smaller cost counted
#' as the more regularised), and a refit on all the data.  A measure of label
#' sets (F1, Hamming loss, subset accuracy) is taken, for `cv_lp()`, on the
#' label sets LP predicts (its most probable set, the decoder of
#' `predict(type = "class")`; the refit then keeps no thresholds), and, for
#' `cv_rakel()`, on the averaged votes cut at out-of-fold (or training) F1
#' thresholds, which the refit stores; a ranking measure on the scores (LP's
#' per-label marginals, RAkEL's averaged votes).  RAkEL's label
#' subsets are drawn once, before the folds (so `set.seed()` before the call
#' reproduces them), and every fold and grid point uses the same ones.
#'
#' @param x,y As in [lp()]; or a formula `cbind(l1, l2) ~ .` and its data
#'   (`y`, or `data = `).
#' @param cost The grid of costs (positive numbers).
#' @param learner As in [lp()], fixed.
#' @param k,m,mode,vote As in [rakel()], fixed.
#' @param nfolds,foldid,measure,thresholds,select,keep,parallel,progress As
#'   in [ml_cv()].
#' @param ... Not used.
#' @return An object of class `c("cv_lp", "ml_cv")` or `c("cv_rakel",
#'   "ml_cv")` with the components of [ml_cv()], `fit` being the fit on all
#'   the data at the chosen cost (for `cv_rakel()`, its thresholds the
#'   out-of-fold ones, see [ml_cv()]).
#' @seealso [lp()], [rakel()], [ml_cv()].
#' @examples
#' e <- mlss::emotions
#' set.seed(1)
#' cv <- cv_lp(e, cost = c(0.1, 1), nfolds = 3)
#' cv
#' set.seed(1)
#' cvr <- cv_rakel(e, cost = c(0.1, 1), k = 2, m = 4, nfolds = 3)
#' cvr$cost_best
#' @export
cv_lp <- function(x, y, cost = 10^(-2:2), learner = c("logistic", "ridge", "svm"),
                  nfolds = 5, foldid = NULL, measure = "macro_f1",
                  thresholds = c("oof", "train"), select = c("best", "1se"), keep = FALSE,
                  parallel = FALSE, progress = interactive(), ...) {
  call <- match.call()
  if (inherits(x, "formula")) return(cv_formula(call, parent.frame(), "cv_lp"))
  check_no_dots(...)
  learner <- match.arg(learner)
  cost <- check_cost_grid(cost)
  xy <- ml_xy(x, y)
  fit <- function(x, y, cost) lp(x, y, learner = learner, cost = cost)
  # LP's labels come from its decoder (the most probable label set): a
  # measure of label sets is taken on those, and the refit keeps no
  # thresholds (its predict(type = "class") is the decoder's)
  ml_cv_run(xy$x, xy$y, fit, grid = list(cost = cost), nfolds = nfolds, foldid = foldid,
            measure = measure, thresholds = match.arg(thresholds),
            select = match.arg(select), keep = keep, parallel = parallel,
            progress = progress, order = function(grid) order(grid$cost),
            order_rule = "smaller cost first (a stronger penalty)", decoder = TRUE,
            call = call, fun = "cv_lp")
}

#' @rdname cv_lp
#' @export
cv_rakel <- function(x, y, cost = 10^(-2:2), k = 3, m = NULL,
                     mode = c("overlapping", "disjoint"), vote = c("class", "score"),
                     learner = c("logistic", "ridge", "svm"), nfolds = 5, foldid = NULL,
                     measure = "macro_f1", thresholds = c("oof", "train"),
                     select = c("best", "1se"), keep = FALSE, parallel = FALSE,
                     progress = interactive(), ...) {
  call <- match.call()
  if (inherits(x, "formula")) return(cv_formula(call, parent.frame(), "cv_rakel"))
  check_no_dots(...)
  mode <- match.arg(mode)
  vote <- match.arg(vote)
  learner <- match.arg(learner)
  cost <- check_cost_grid(cost)
  xy <- ml_xy(x, y)
  # the subsets, drawn once: those of a RAkEL fit's own draw on these labels
  L <- ncol(as_labels(xy$y, NROW(xy$y), fun = "cv_rakel"))
  if (!is.numeric(k) || length(k) != 1 || is.na(k) || k < 1 || k > L || k != round(k))
    stop_arg("'k' must be one whole number in 1..", L, " (the size of the label subsets)")
  subsets <- if (mode == "disjoint") rakel_disjoint(L, k) else {
    total <- choose(L, k)
    if (is.null(m)) m <- min(2 * L, total)
    if (!is.numeric(m) || length(m) != 1 || is.na(m) || m < 1 || m != round(m) || m > total)
      stop_arg("'m' must be one whole number in 1..", total)
    rakel_overlapping(L, k, m)
  }
  fit <- function(x, y, cost) rakel(x, y, k = k, mode = mode, vote = vote, learner = learner,
                                    cost = cost, subsets = subsets)
  ml_cv_run(xy$x, xy$y, fit, grid = list(cost = cost), nfolds = nfolds, foldid = foldid,
            measure = measure, thresholds = match.arg(thresholds),
            select = match.arg(select), keep = keep, parallel = parallel,
            progress = progress, order = function(grid) order(grid$cost),
            order_rule = "smaller cost first (a stronger penalty)", call = call,
            fun = "cv_rakel")
}

check_cost_grid <- function(cost) {
  if (!is.numeric(cost) || !length(cost) || anyNA(cost) || any(cost <= 0) ||
      !all(is.finite(cost)))
    stop_arg("'cost' must be a vector of positive numbers")
  sort(unique(as.numeric(cost)))
}
