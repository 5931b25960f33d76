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
#' @param rule `NULL` (the default: the engine's cuts, or LP's decoder), or
#'   candidate decision rules chosen with the cost (see [cv_eps()], section
#'   Decision rules; `"decoder"` is LP's own label sets).
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
                  parallel = FALSE, progress = interactive(), rule = NULL, ...) {
  call <- match.call()
  learner <- match.arg(learner)
  fit <- function(x, y, cost) lp(x, y, learner = learner, cost = cost)
  # LP's labels come from its decoder (the most probable label set): a
  # measure of label sets is taken on those, and the refit keeps no
  # thresholds (its predict(type = "class") is the decoder's)
  cv_cost_method(environment(), call, "cv_lp", fit, decoder = TRUE)
}

#' @rdname cv_lp
#' @export
cv_rakel <- function(x, y, cost = 10^(-2:2), k = 3, m = NULL,
                     mode = c("overlapping", "disjoint"), vote = c("class", "score"),
                     learner = c("logistic", "ridge", "svm"), nfolds = 5, foldid = NULL,
                     measure = "macro_f1", thresholds = c("oof", "train"),
                     select = c("best", "1se"), keep = FALSE, parallel = FALSE,
                     progress = interactive(), rule = NULL, ...) {
  call <- match.call()
  if (inherits(x, "formula")) return(cv_formula(call, parent.frame(), "cv_rakel"))
  check_no_dots(...)
  mode <- match.arg(mode)
  vote <- match.arg(vote)
  learner <- match.arg(learner)
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
  cv_cost_method(environment(), call, "cv_rakel", fit, xy = xy)
}

#' Cross-validated EPS, CLR, HOMER, BR+ and DBR over a grid of costs
#'
#' Chooses the cost \eqn{C} of the base learner of [eps()], [clr()],
#' [homer()], [brplus()] or [dbr()] by k-fold cross-validation on the
#' package's engine ([ml_cv()]): the folds of [ml_folds()], the best and
#' one-standard-error cost (a smaller cost counted as the more regularised),
#' and a refit on all the data.  A measure of label sets is taken on the
#' scores cut at out-of-fold (or training) F1 thresholds, which the refit
#' stores; a ranking measure on the scores.  The methods' random draws (EPS's
#' samples, HOMER's initial centres, BR+'s inner folds) are made afresh by
#' each fit, from R's generator: `set.seed()` before the call reproduces the
#' result.  `cv_eps()` draws each fold's samples once, at the smallest cost,
#' and walks the larger costs on the same samples, each model's solver
#' starting from its fit at the previous cost ([eps()]'s `init`; not for
#' the ridge learner, which is in closed form): the costs are compared on
#' the same samples, and the solvers converge in fewer iterations.
#' `cv_homer()` clusters HOMER's label tree on each fit's own training rows
#' (a fold's on its training part, never on its validation rows; the
#' refit's on all rows), every tree from one seed drawn from R's generator
#' at the start ([homer()]'s `hierarchy`): the grid's costs are compared on
#' the same trees, and the refit's tree is drawn as the folds' were (drawn
#' per fit from the generator instead, the test macro F1 of one refit on
#' scene ranged from 0.614 to 0.663 over the trees of six seeds).
#'
#' @section Decision rules:
#' `rule` (here, in [cv_lp()], [cv_rakel()], [ml_cv()], and in [cv_br()],
#' [cv_cc()], [cv_pcc()], [cv_mlknn()], [cv_cplst()], [cv_mlls()],
#' [cv_ssmddm()], with the same meaning) makes the
#' decision rule a hyperparameter: a vector of candidates among `"f1"` (the
#' per-label cuts of the measure, the engine's default: F1 cuts, Hamming cuts
#' for the Hamming loss), `"fixed"` (0.5), `"rcut"`, `"pcut"`, `"mcut"`,
#' `"lcard"`, `"scut"` (per-label cuts with the fewest errors) and, for a
#' method with a decoder ([cv_lp()]), `"decoder"` (its own label sets), each
#' optionally followed by `"+1"` for the "at least one label" correction
#' (see [ml_decide()] for the rules).  Fold k's rows are decided by the rule
#' learnt from the other folds (their out-of-fold scores and labels: the
#' cuts, the proportions of PCut, the cardinality of RCut and LCard), and
#' the rule is chosen with the cost by the same measure (ties: the more
#' regularised cost, then the rule listed first).  The refit learns the rule
#' from all the rows and `predict(cv, newx)` applies it, so that it labels
#' new rows as the folds were labelled; `cv$rule_best` names it.  `NULL`
#' (the default) keeps the engine's cuts.  PCut and LCard choose their cuts
#' on the rows decided together (a fold's, or those given to `predict()`), so
#' a row's labels depend on the other rows of its batch.
#'
#' @param x,y As in [eps()]; or a formula `cbind(l1, l2) ~ .` and its data
#'   (`y`, or `data = `).
#' @param cost The grid of costs (positive numbers).
#' @param n_models,p,b,sample,vote,k,learner,inner_folds As in the fitting
#'   functions, fixed.
#' @param nfolds,foldid,measure,thresholds,select,keep,parallel,progress As
#'   in [ml_cv()].
#' @param rule `NULL`, or candidate decision rules (see Decision rules).
#' @param ... Not used.
#' @return An object of class `c("cv_<method>", "ml_cv")` with the components
#'   of [ml_cv()] (with `rule`: the grid crossed with the rules, and
#'   `rule_best`, `rule_1se`).
#' @seealso [eps()], [clr()], [homer()], [brplus()], [ml_decide()], [ml_cv()].
#' @aliases predict.ml_ruled
#' @examples
#' e <- mlss::emotions
#' set.seed(1)
#' cv <- cv_clr(e, cost = c(0.1, 1), nfolds = 3,
#'              measure = "subset_accuracy", rule = c("f1", "fixed", "mcut"))
#' cv
#' head(predict(cv, e))
#' @export
cv_eps <- function(x, y, cost = 10^(-2:2), n_models = 10, p = 2, b = 2,
                   sample = c("bootstrap", "subsample"), vote = c("class", "score"),
                   learner = c("logistic", "ridge", "svm"), nfolds = 5, foldid = NULL,
                   measure = "macro_f1", thresholds = c("oof", "train"),
                   select = c("best", "1se"), keep = FALSE, parallel = FALSE,
                   progress = interactive(), rule = NULL, ...) {
  call <- match.call()
  sample <- match.arg(sample)
  vote <- match.arg(vote)
  learner <- match.arg(learner)
  # each fold draws its samples once and walks the costs on them, each
  # model's solver starting from its fit at the previous cost
  fit <- function(x, y, cost, init = NULL)
    eps(x, y, n_models = n_models, p = p, b = b, sample = sample, vote = vote,
        learner = learner, cost = cost, init = init)
  cv_cost_method(environment(), call, "cv_eps", fit, warm_start = learner != "ridge")
}

#' @rdname cv_eps
#' @export
cv_clr <- function(x, y, cost = 10^(-2:2), learner = c("logistic", "ridge", "svm"),
                   vote = c("class", "score"), nfolds = 5, foldid = NULL,
                   measure = "macro_f1", thresholds = c("oof", "train"),
                   select = c("best", "1se"), keep = FALSE, parallel = FALSE,
                   progress = interactive(), rule = NULL, ...) {
  call <- match.call()
  learner <- match.arg(learner)
  vote <- match.arg(vote)
  fit <- function(x, y, cost) clr(x, y, learner = learner, cost = cost, vote = vote)
  cv_cost_method(environment(), call, "cv_clr", fit)
}

#' @rdname cv_eps
#' @export
cv_homer <- function(x, y, cost = 10^(-2:2), k = 3, learner = c("logistic", "ridge", "svm"),
                     nfolds = 5, foldid = NULL, measure = "macro_f1",
                     thresholds = c("oof", "train"), select = c("best", "1se"), keep = FALSE,
                     parallel = FALSE, progress = interactive(), rule = NULL, ...) {
  call <- match.call()
  if (inherits(x, "formula")) return(cv_formula(call, parent.frame(), "cv_homer"))
  check_no_dots(...)
  learner <- match.arg(learner)
  xy <- ml_xy(x, if (!missing(y)) y)
  # the label tree of each fit clustered on that fit's own training rows (a
  # fold's on the fold's training part, never on its validation rows; the
  # refit's on all rows), every draw from one seed drawn here: the same rows
  # get the same tree at every cost and in any worker
  seed <- sample.int(.Machine$integer.max, 1L)
  fit <- function(x, y, cost) homer(x, y, k = k, learner = learner, cost = cost,
                                    hierarchy = homer_seeded_tree(y, k, seed))
  cv_cost_method(environment(), call, "cv_homer", fit, xy = xy)
}

#' @rdname cv_eps
#' @export
cv_brplus <- function(x, y, cost = 10^(-2:2), learner = c("logistic", "ridge", "svm"),
                      inner_folds = 5, nfolds = 5, foldid = NULL, measure = "macro_f1",
                      thresholds = c("oof", "train"), select = c("best", "1se"),
                      keep = FALSE, parallel = FALSE, progress = interactive(), rule = NULL,
                      ...) {
  call <- match.call()
  learner <- match.arg(learner)
  fit <- function(x, y, cost) brplus(x, y, learner = learner, cost = cost,
                                     inner_folds = inner_folds)
  cv_cost_method(environment(), call, "cv_brplus", fit)
}

#' @rdname cv_eps
#' @export
cv_dbr <- function(x, y, cost = 10^(-2:2), learner = c("logistic", "ridge", "svm"),
                   nfolds = 5, foldid = NULL, measure = "macro_f1",
                   thresholds = c("oof", "train"), select = c("best", "1se"), keep = FALSE,
                   parallel = FALSE, progress = interactive(), rule = NULL, ...) {
  call <- match.call()
  learner <- match.arg(learner)
  fit <- function(x, y, cost) dbr(x, y, learner = learner, cost = cost)
  cv_cost_method(environment(), call, "cv_dbr", fit)
}

# The steps the toolbox's cv_*() share, called last from one of them with its
# frame `env` (its arguments x, y, cost, nfolds, foldid, measure, thresholds,
# select, keep, parallel, progress, rule and ...), its match.call() and its
# name: the formula interface, the check of ..., and the engine run over the
# costs (cv_cost_run()) with fit(x, y, cost) per grid point.  `xy`: x and y
# already read by a method that needs the labels first (it has then done the
# first two steps itself); `...`: to cv_cost_run().
cv_cost_method <- function(env, call, fun, fit, xy = NULL, ...) {
  if (is.null(xy)) {
    if (inherits(env$x, "formula")) return(cv_formula(call, parent.frame(2), fun))
    eval(quote(check_no_dots(...)), env)
    xy <- list(x = env$x, y = if (!eval(quote(missing(y)), env)) env$y)
  }
  cv_cost_run(xy$x, xy$y, fit, env$cost, env$nfolds, env$foldid, env$measure,
              match.arg(env$thresholds, c("oof", "train")),
              match.arg(env$select, c("best", "1se")), env$keep, env$parallel,
              env$progress, env$rule, call, fun, ...)
}

# The engine run of a toolbox method over a grid of costs (`decoder`: its
# labels come from its own decoder, as LP's).
cv_cost_run <- function(x, y, fit, cost, nfolds, foldid, measure, thresholds, select, keep,
                        parallel, progress, rule, call, fun, decoder = FALSE,
                        warm_start = FALSE) {
  cost <- check_cost_grid(cost)
  xy <- ml_xy(x, if (!missing(y)) y)
  ml_cv_run(xy$x, xy$y, fit, grid = list(cost = cost), warm_start = warm_start,
            nfolds = nfolds, foldid = foldid,
            measure = measure, thresholds = thresholds, select = select, keep = keep,
            parallel = parallel, progress = progress, order = function(grid) order(grid$cost),
            order_rule = "smaller cost first (a stronger penalty)", decoder = decoder,
            rule = rule, call = call, fun = fun)
}

check_cost_grid <- function(cost) {
  if (!is.numeric(cost) || !length(cost) || anyNA(cost) || any(cost <= 0) ||
      !all(is.finite(cost)))
    stop_arg("'cost' must be a vector of positive numbers")
  sort(unique(as.numeric(cost)))
}
