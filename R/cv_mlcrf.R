# No message that the chosen eta is the grid's smallest at or below this
# value (?cv_mlcrf, eta): smaller values were measured to gain little.
mlcrf_eta_floor <- 0.25

#' Cross-validated MLCRF over a path of edge penalties
#'
#' Chooses `lambda_w` and `eta` of [mlcrf()] by k-fold cross-validation on the
#' package's engine (see [ml_cv()]), as the MLCRF paper does: along a
#' decreasing path of `lambda_w` for each `eta`, each fold's fit starting from
#' its fit at the previous point (warm starts).  The node penalties
#' `lambda_v` are chosen once, on all the data, by the per-label
#' cross-validated logistic regressions of [mlcrf()], and then held fixed.
#'
#' A measure of label sets is computed on the validation rows' MAP label
#' vectors (`predict(type = "class")`, what the final model predicts), a
#' ranking measure on their per-label marginals, `measure = "log_loss"` on
#' the model's probability of each validation row's label vector (refused
#' with missing labels) and `"brier"` on the marginals (see [ml_metrics()]).
#'
#' Then (`prune = "ebic"`, the default, or `"chisq"`) weak edges are pruned: from the fit
#' at the chosen point, the weakest edge (least strength) is dropped and the
#' rest refitted on all the rows (stage 2 of [mlcrf()] at the chosen
#' `lambda_w` and `eta`, warm-started, to `fold_tol`), down to no edge;
#' the candidates whose criterion is within 1 of the least (the looser refits
#' moved yeast's criteria by at most 0.17; the pruning 109.1 -> 54.7 CPU s, the
#' same 29 edges, bench/mlcrf_speed.md) are refitted again to `tol`, and the one of least criterion is kept.  With `prune = "chisq"` the criterion is \eqn{-2 PL + \sum_{e \in E} c_e}{-2 PL + sum over its edges of c_e}, PL the
#' pseudo-log-likelihood of the refit on the n rows and \eqn{c_e}{c_e} the
#' (1 - `level`) quantile of what edge e would add to 2 PL if it were null: a
#' likelihood-ratio test per edge.  Its null distribution is that of the
#' ridge refit, from the chosen fit: with S and J the edge's block of the
#' pseudo-likelihood's Hessian and of its rows' score cross-products (the
#' node weights of its two labels projected out: the full potential table's
#' (0,1) and (1,0) weights overlap with them) and P its ridge
#' \eqn{2 n \lambda_w (1 - \eta)}{2 n lambda_w (1 - eta)}, a sum of \eqn{\chi^2_1}{chi^2_1} variables
#' weighted by the eigenvalues of \eqn{(2R - RSR) J}{(2R - RSR) J}, \eqn{R = (S + P)^{-1}}{R = (S + P)^-1}
#' (J, not S: the pseudo-likelihood is a composite likelihood), taken as the
#' scaled \eqn{\chi^2}{chi^2} of the same mean and variance (Satterthwaite).  The
#' mean, the edge's effective number of parameters, was about 10 on the
#' synthetic designs below (21 weights per edge) and 11 to 29 on emotions
#' (219 weights per edge), so the ridge keeps the penalty moderate where the
#' features are many.  With `prune = "ebic"` (the default) it is the
#' extended BIC (Barber and Drton 2015):
#' \eqn{-2 PL + |E| (K \log n + 4 \gamma \log m)}{-2 PL + |E| (K log n + 4 gamma log m)},
#' |E| the graph's edges, K = 3 for `edge_type = "full"` (1 for `"ising"`).
#' The default was `"chisq"` from session 34 to 37, when it recovered the
#' synthetic graphs below more often; with the solver of session 37, the
#' couplings' own ridge and `eta`'s grid c(0.25, 1) both recover all 100
#' seeds of the ten designs, the eBIC 98 and 97 of 100 against 96 and 96
#' on harder versions (250 rows; couplings of 0.5) and 39 of 40 against 40
#' on the tests' generator, and the eBIC's graphs predict as well or
#' better: on emotions' 10 folds (bench/mlcrf.R) exact match 0.352 against
#' 0.332 and log-likelihood loss 128.8 against 129.4 per test fold, on
#' yeast's 924.4 against 924.2 (se 0.6) and 0.242 both, on scene's the same
#' graphs.
#' The elimination stops early once three graphs in
#' a row have a larger criterion than the best so far (each refit costs with
#' many edges).  The chosen point of the grid stays that of the
#' cross-validation; `fit` is the pruned refit.  A refit at another point
#' (`predict(cv, s = "1se")`, `predict(cv, lambda_w = ...)`) is pruned the
#' same way; its fit before pruning is not kept.  The test costs, per edge,
#' products of n x (d + 1)(K + 2) matrices and an inverse of order (d + 1) K:
#' 3 s for the 14 edges of emotions, but slow with thousands of features
#' (`"ebic"` is then cheaper).
#'
#' Structure recovery: on synthetic data drawn from CRFs with known graphs
#' (bench/mlcrf_structure.R, results in bench/mlcrf_structure.md; 500 rows,
#' x uniform in \[-1, 1\]^6, 10 seeds per design, couplings of 0.75 on the
#' labels' signs 2y - 1), these defaults returned exactly the true edge set
#' in 10 of 10 seeds on each of the paper's four three-label designs
#' (independent labels, a single edge, a chain, a complete graph), on three
#' 5-label designs (a chain, a star, two disconnected blocks) and on three
#' 8-label ones (a chain, a star, two blocks): 100 of 100 seeds (sessions 37
#' and 38, with either rule of pruning; bench/mlcrf_structure_endtoend.R).  Before the solver of session 37
#' and the couplings' own ridge, the test per edge (`prune = "chisq"`, the
#' default then) gave 9 and 6 of 10 on the 8-label blocks and star, whose
#' hub's seven edges showed at a median of 2.5 standard errors; the
#' eBIC got 10, 10, 9, 10; 9, 6, 10;
#' 9; 9 and 2 of 10, and the cross-validated point alone (`prune =
#' "none"`, whose group lasso keeps spurious edges between labels linked
#' through a third) 9, 9, 0, 10; 6, 3, 10; 9; 9 and 0 of 10 (both measured
#' before session 37).  On emotions
#' (rows 1-400 to fit, 401-593 to test; 72 features; session 35) `"chisq"` kept 13 of
#' the cross-validated graph's 14 edges (test log loss 471.5, as the eBIC;
#' 468.5 unpruned), on Mulan's split 9 of 14 (501.7; eBIC 500.9 with 13;
#' unpruned 498.0); the first `"chisq"`, which counted all (d + 1) K = 219
#' weights of an edge as degrees of freedom, removed all 14 (530.4).
#' Expect the exact graph when every true edge stands out at about four
#' standard errors or more; below that, a weak edge may be lost, or an edge
#' between two labels linked through a third kept.  For the graph itself, see also
#' [mlcrf_stability()].  `plot(cv, type = "path")` draws the edge
#' strengths along the path ([plot.cv_mlcrf()]).
#'
#' @section Early stop of the paths:
#' Along each `eta`'s path (`lambda_w` decreasing, warm starts), once a point
#' is scored on every fold, the path stops, and its remaining (smaller, and
#' costlier: denser graphs) values of `lambda_w` are not fitted, when its
#' mean held-out measure over the folds has not improved for
#' `path_stop$patience` points (2 by default) after the path's best so far
#' (a point improves when its mean is strictly better), or has not improved
#' for one point while the path's best is worse than the best mean of all the
#' points scored so far (on any path) by more than `path_stop$margin`
#' standard errors of that point (3 by default; `Inf` leaves the patience
#' alone).  All folds stop together, on their mean, so the result does not
#' depend on `parallel`.  The points scored keep their values, so the best
#' point is that of the whole grid whenever it lies before the stops, and the
#' one-standard-error point is taken among the points scored.  The points not
#' scored have `NA` in `cvfold`, `cvm` and `cvsd`, are listed in `skipped`
#' (rows of `grid`), and `print()` says how many.  With `rule`, a point's
#' measure is that of its best rule.  `path_stop = NULL` scores every point.
#' The defaults were measured (`bench/mlcrf_speed.md`): on yeast's training
#' part they scored 40 of the 60 fold fits and cut the CPU time from 1032.0 to
#' 453.6 seconds with the same chosen point; on emotions 7 of 12 points, 34.2
#' against 16.3 seconds, the same point; replayed on the whole grid's fold
#' values, every setting of `patience` 1 to 3 and `margin` 1, 3 or `Inf`
#' kept yeast's and emotions' best point; and the ten synthetic structure
#' designs of `bench/mlcrf_structure.md` recover the same graphs as without
#' the stop (95 of 100 seeds).
#'
#' With `parallel` workers (forked: `parallel = 2`, or `TRUE` without a
#' `future::plan()`), the paths, each starting cold, run piece by piece: a
#' worker takes the next fold's fit as soon as it is free, also the next point
#' of a path ahead of the rule's decision when nothing decided is left to run,
#' and the work on points that the rule then skips is dropped; the points
#' scored, their values and the choice are those of the run in sequence.  The
#' pruning and the path of strengths then run side by side.
#'
#' @section Missing labels:
#' `NA` in `y` is an error by default, as for [mlcrf()].  With `na_labels = "negative"` the fits take `NA` as `FALSE`, but the
#' folds stratify on the observed positives, and the out-of-fold thresholds
#' and the measure of each fold use the observed entries only (see
#' [ml_metrics()]): a missing label is never scored as a negative.
#'
#' @inheritParams mlcrf
#' @inheritParams cv_mlls
#' @param lambda_w The path of edge penalties; by default `nlambda` values
#'   from `lambda_max` (the smallest that removes every edge, the largest over
#'   the values of `eta`) down to `lambda_max / 100`, evenly on a log scale.
#' @param eta The values of the group elastic-net mix to try; default
#'   c(0.25, 1) (c(0.5, 1) before session 38).  Since the constant couplings
#'   have their own ridge (session 36) a smaller eta measures better: the grid
#'   c(0.25, 0.5, 1) chose 0.25 on all of emotions' 10 folds and lowered the
#'   log-likelihood loss of the pruned fit by 3.45 per test fold against
#'   c(0.5, 1) (se 0.85; bench/mlcrf_ridge_cv.md), and on yeast's training part
#'   the held-out log loss per row from 4.041 to 3.925; c(0.25, 1) chose the
#'   same point there in 145 s on two idle cores (c(0.5, 1): 128 s).  Below
#'   0.25 the gain is small (0.1 on emotions: a further 0.17 per test fold, for
#'   1.5 times the time).  On the ten synthetic structure designs (see
#'   Details) the default returned the true edge set for
#'   100 of 100 seeds, as c(0.5, 1) did (bench/mlcrf_structure.md).  The
#'   message that the chosen point lies on the grid's edge is not given for
#'   an eta of 0.25 or less at the grid's lower end.
#' @param nlambda The length of the default path.
#' @param measure The measure that chooses the point (see [ml_metrics()]):
#'   by default `"log_loss"`, the held-out negative log-likelihood of each
#'   validation row's label vector, or `"macro_f1"` when `y` has missing
#'   labels (whose likelihood, a marginal, is not computed) or with `rule`.
#' @param path Also fit stage 1 on all the rows along the path at the chosen
#'   `eta` (warm starts) and keep the edge strengths, for
#'   `plot(cv, type = "path")` (see [plot.cv_mlcrf()])?  It costs about one
#'   more fold's path; it is fitted to `fold_tol` (it is drawn, not
#'   predicted from; yeast: 49.0 -> 41.2 CPU s, the same strengths to 4
#'   decimals) and, with `parallel`, runs beside the pruning.
#' @param fold_marginals How the validation rows' marginals and MAP are
#'   inferred on a connected component of more than 20 labels with cycles (the
#'   `loopy` argument of [predict.mlcrf()]): `"bp"` takes loopy belief
#'   propagation's marginals where it settles and runs Gibbs sampling only
#'   where it does not; `"gibbs"` samples always.  `NULL` (the default):
#'   `"gibbs"` when the measure is computed from the marginals (a ranking
#'   measure, `"brier"`), else `"bp"` (with `"log_loss"`, which uses the
#'   Bethe log Z there, or a measure of the MAP label sets, the fold
#'   marginals do not enter the choice, and sampling them cost most of the
#'   time).  BP's marginals are cheap but can be far off where the couplings
#'   are strong (mean error 0.17 on a complete 20-label graph learned from
#'   strongly dependent labels; bench/mlcrf_speed.md).  The final fit on all
#'   the data predicts with Gibbs sampling (its default).  Nothing changes
#'   with at most 20 labels per component (exact).
#' @param maxit Deprecated name of `max_iter` (accepted with a warning of
#'   class `"mlss_deprecated"` until the next release).
#' @param rule `NULL` (the default: the MAP label sets, the model's decoder),
#'   or candidate decision rules chosen with the grid point inside
#'   cross-validation by the measure on the out-of-fold scores (the
#'   marginals): `"decoder"` (the MAP label sets), `"f1"` (per-label F1 cuts
#'   of the marginals, with `thresholds = "oof"`), `"fixed"`, `"rcut"`,
#'   `"pcut"`, `"mcut"`, `"lcard"`, `"scut"`, each optionally followed by
#'   `"+1"` (at least one label per row); the refit (pruned as without
#'   rules) then predicts by the chosen rule.  Rules need a measure of label
#'   sets: with `rule`, `measure = NULL` means `"macro_f1"`.  See [cv_eps()],
#'   section Decision rules, and [ml_decide()].
#' @param prune `"ebic"` (the default since session 38): prune the chosen
#'   fit's weak edges by a backward elimination that keeps the graph of least
#'   extended BIC (see Details); `"chisq"` (the default in sessions 34-37):
#'   by the same elimination, but with a likelihood-ratio test per edge
#'   against its null distribution under the ridge refit; `"none"`: keep
#'   the fit at the cross-validated point.
#' @param gamma The extended BIC's \eqn{\gamma}{gamma} (0 is the BIC; Barber
#'   and Drton use 0.25 to 1): 0.5 by default.  On the synthetic designs,
#'   0.5 and 1 recovered the graphs equally often, 0 once less.
#' @param level The level of `prune = "chisq"`'s test per edge (0.001 by
#'   default; 0.01 recovered the synthetic graphs less often: 9 and 8 of 10 on
#'   the 5-label chain and star, 10 at 0.001).
#' @param fold_tol The tolerance of the fold fits, of the path of strengths
#'   (`path`) and of the pruning's candidate refits (`tol` is that of the
#'   fit at the chosen point and of the kept graph's refit, see Details).  The
#'   fold fits only score the grid points, so by default they stop 100 times
#'   earlier: on a fold of yeast this changed the held-out log-likelihood
#'   loss by at most 0.08 at every point of the default path, where the
#'   points differ by 15 or more, and saved a third of the time
#'   (bench/mlcrf_speed.md).
#' @param path_stop The early stop of each `eta`'s path (see the section
#'   Early stop of the paths): a list of `patience`, a whole number >= 1,
#'   and `margin`, a number >= 0 or `Inf`; `NULL` scores every grid point.
#' @param progress Report progress: a message per step (the choice of
#'   `lambda_v`, the grid, the pruning, the path) and the engine's progress
#'   bar over the folds and grid points.
#' @return An object of class `c("cv_mlcrf", "ml_cv")` with the components of
#'   [cv_mlls()] (`grid`, `cvm`, `cvsd`, `cvfold`, `best`, `best_1se`,
#'   `lambda_w_best`, `eta_best`, ..., `fit`), `fit` being the [mlcrf()] fit on
#'   all the data at the chosen point, plus `lambda_v` and (with `path = TRUE`)
#'   `path`: a list of `lambda_w`, `eta` and `strength`, the pairs x path
#'   matrix of edge strengths.  With `prune = "chisq"` or `"ebic"`, also `fit_cv` (the fit
#'   at the chosen point before pruning), `level` or `gamma`, and `ebic`: a data
#'   frame of the candidates (`edges`, `pseudo_loglik`, and `criterion` or
#'   `ebic`), from the chosen graph down to no edge (or to where the
#'   elimination stopped).  With `path_stop`, also `skipped` (the rows of
#'   `grid` not scored, possibly none) and `path_stop` (its `patience` and
#'   `margin`); when its paths ran piece by piece on workers (section Early
#'   stop of the paths), `schedule`: the fold fits `fitted`, those of them
#'   `dropped` (ahead of a stop) and those `ended` unfinished, the CPU
#'   seconds of those fitted (`cpu`), of those dropped and of the largest.
#' @references Barber R. F. and Drton M. (2015). High-dimensional Ising model
#'   selection with Bayesian information criteria. Electronic Journal of
#'   Statistics 9(1), 567-607.
#' @examples
#' x <- mlss::emotions$x[1:150, ]
#' y <- mlss::emotions$y[1:150, 1:3]
#' set.seed(1)
#' cv <- cv_mlcrf(x, y, lambda_v = 0.01, eta = 0.5, nlambda = 3, nfolds = 3)
#' cv
#' cv$fit$edges
#' plot(cv, type = "path")
#' @export
cv_mlcrf <- function(x, y, lambda_w = NULL, eta = c(0.25, 1), nlambda = 6, lambda_v = NULL,
                     edge_type = c("full", "ising"), tol = 1e-6, max_iter = 2000, nfolds = 5,
                     foldid = NULL, measure = NULL, thresholds = c("oof", "train"),
                     select = c("best", "1se"), keep = FALSE, parallel = FALSE,
                     progress = interactive(), na_labels = c("refuse", "negative"),
                     path = TRUE, fold_marginals = NULL, prune = c("ebic", "chisq", "none"),
                     gamma = 0.5, level = 0.001, rule = NULL, fold_tol = 100 * tol,
                     path_stop = list(patience = 2, margin = 3), ..., maxit) {
  call <- match.call()
  if (inherits(x, "formula")) {
    cv <- cv_formula(call, parent.frame(), "cv_mlcrf")
    # the fit before pruning rebuilds its features from a data frame as `fit` does
    if (!is.null(cv$fit_cv)) cv$fit_cv <- mlcrf_formula_parts(cv$fit_cv, cv$fit)
    return(cv)
  }
  check_no_dots(...)
  max_iter <- deprecated_maxit(max_iter, maxit, "cv_mlcrf")
  tol <- check_positive(tol, "tol")
  fold_tol <- check_positive(fold_tol, "fold_tol")
  path_stop <- check_path_stop(path_stop)
  if (!is.null(fold_marginals) && !(is.character(fold_marginals) &&
                                    length(fold_marginals) == 1 &&
                                    fold_marginals %in% c("bp", "gibbs")))
    stop_arg("'fold_marginals' must be NULL, \"bp\" or \"gibbs\"")
  edge_type <- match.arg(edge_type)
  prune <- match.arg(prune)
  if (!is.numeric(gamma) || length(gamma) != 1 || is.na(gamma) || gamma < 0)
    stop_arg("'gamma' must be one number >= 0 (0.5 by default; 0 is the plain BIC)")
  if (!is.numeric(level) || length(level) != 1 || is.na(level) || level <= 0 || level >= 1)
    stop_arg("'level' must be one number in (0, 1) (0.001 by default)")
  if (!is.numeric(eta) || !length(eta) || anyNA(eta) || any(eta < 0 | eta > 1))
    stop_arg("'eta' must be values in [0, 1]")
  if (!is.numeric(nlambda) || length(nlambda) != 1 || is.na(nlambda) || nlambda < 1)
    stop_arg("'nlambda' must be a whole number >= 1")
  xy <- ml_xy(x, y)
  x <- as_features(xy$x)
  na_labels <- match.arg(na_labels)
  y_truth <- as_labels(xy$y, nrow(x), na = if (na_labels == "negative") "keep" else "refuse",
                       fun = "cv_mlcrf")
  # the held-out likelihood by default: it recovers the label graph where
  # macro F1, which barely depends on the edges, does not (bench/mlcrf_structure.md)
  # (with decision rules, which need a measure of label sets, macro F1)
  if (is.null(measure))
    measure <- if (anyNA(y_truth) || !is.null(rule)) "macro_f1" else "log_loss"
  # the fold marginals enter the choice only through a measure of scores or
  # the Brier score: there they are sampled (BP's can be far off on strongly
  # coupled graphs, bench/mlcrf_speed.md); elsewhere BP's are enough
  if (is.null(fold_marginals))
    fold_marginals <- if (measure %in% mlcrf_marginal_measures()) "gibbs" else "bp"
  y <- y_truth  # the fits see NA as FALSE; ml_cv() scores the folds on y_truth
  if (anyNA(y)) y[is.na(y)] <- FALSE
  progress <- check_flag(progress, "progress")
  say <- function(...) if (progress) message("cv_mlcrf: ", ...)
  if (is.null(lambda_v)) {
    say("choosing lambda_v per label (", ncol(y), " logistic regressions)")
    lambda_v <- mlcrf(x, y, edges = "none", edge_type = edge_type, tol = tol,
                      max_iter = max_iter, progress = FALSE)$lambda_v
  }
  if (is.null(lambda_w)) {
    top <- max(vapply(eta, function(e)
      mlcrf_lambda_range(x, y, lambda_v, e, edge_type, tol, max_iter)$lambda_max, 0))
    if (!is.finite(top)) stop_arg("'eta' = 0 has no lambda_max: give 'lambda_w'")
    lambda_w <- top * 10^seq(0, -2, length.out = nlambda)
  }
  if (!is.numeric(lambda_w) || !length(lambda_w) || anyNA(lambda_w) || any(lambda_w < 0))
    stop_arg("'lambda_w' must be a vector of numbers >= 0")
  say(length(unique(lambda_w)) * length(unique(eta)), " grid points x ",
      if (is.null(foldid)) nfolds else max(foldid), " folds")
  # the fold fits carry the inference of the fold scores (predict()'s
  # `loopy`); the refit on all the data does not (see below).  A refit on all
  # the rows (a fold's training part has fewer) is pruned (unless "none"):
  # at the chosen point and at any other (predict(cv, s = "1se"), ...); the
  # last one's fit before pruning and candidates are kept in `pruning`.
  n_all <- nrow(x)
  pruning <- NULL
  # the refit at the chosen point (and its pruning) runs after the engine's
  # run, beside the path of strengths (in parallel when `parallel` is on):
  # the engine gets a stand-in; later refits (predict(cv, s = "1se"), ...)
  # are fitted in place, and so is the chosen fit with decision rules (the
  # engine wraps it in its rule)
  defer <- is.null(rule)
  fit <- function(x, y, lambda_w, eta, init = NULL) {
    if (defer && nrow(x) == n_all)
      return(structure(list(lambda_w = lambda_w, eta = eta), class = "mlcrf"))
    # the engine walks the grid eta by eta, each from the largest lambda_w
    # down: the first point of the next eta starts cold (the nodes alone, a
    # few edges) rather than from the last, densest fit of the previous eta
    if (!is.null(init) && !identical(init$eta, eta)) init <- NULL
    # the fold fits to fold_tol, the fits on all the rows to tol
    f <- mlcrf(x, y, lambda_v = lambda_v, lambda_w = lambda_w, eta = eta,
               edge_type = edge_type, init = init,
               tol = if (nrow(x) == n_all) tol else fold_tol, max_iter = max_iter,
               progress = FALSE)  # cv_mlcrf() and the engine report progress
    if (prune != "none" && nrow(x) == n_all) {
      say("pruning (", prune, ") at lambda_w = ", signif(lambda_w, 4), ", eta = ", eta)
      pruning <<- mlcrf_ebic_prune(f, x, y, tol, max_iter, gamma,
                                   level = if (prune == "chisq") level, cand_tol = fold_tol)
      f <- pruning$fit
    }
    f$loopy <- fold_marginals
    f
  }
  # within each eta the path runs from the largest lambda_w down (warm starts)
  grid <- list(lambda_w = sort(unique(lambda_w), decreasing = TRUE), eta = sort(unique(eta)))
  # a path per eta (the grid's rows are expand.grid(lambda_w, eta)): each
  # stops early once its held-out measure has worsened (path_stop)
  # the paths are independent (each eta's first point starts cold, see
  # fit()): with parallel workers the engine runs them piece by piece
  if (!is.null(path_stop)) {
    path_stop$path <- rep(seq_along(grid$eta), each = length(grid$lambda_w))
    path_stop$restart <- TRUE
  }
  # labels by MAP (the decoder) for measures of label sets; log_loss by the
  # model's probability of each validation row's label vector
  cv <- ml_cv_run(x, y_truth, fit, grid, na_labels = na_labels, warm_start = TRUE,
                  nfolds = nfolds, foldid = foldid, measure = measure,
                  thresholds = match.arg(thresholds), select = match.arg(select), keep = keep,
                  parallel = parallel, progress = progress, rule = rule,
                  order = function(g) order(-g$lambda_w, -g$eta),
                  order_rule = "larger lambda_w first, then larger eta", decoder = TRUE,
                  probabilities = "joint", loglik = function(model, x, y)
                    log(pmax(stats::predict(model, x, type = "prob", y = y), 1e-300)),
                  path_stop = path_stop, call = call, fun = "cv_mlcrf",
                  limits = list(eta = c(mlcrf_eta_floor, 1)))
  cv$fit$loopy <- NULL
  # refits at other points (predict(cv, s = "1se"), ...) predict as predict() does
  fold_refit <- cv$refit
  cv$refit <- function(point, thr = NULL) {
    f <- fold_refit(point, thr)
    f$loopy <- NULL
    f
  }
  cv$lambda_v <- lambda_v
  # the pruning of the chosen fit and the path of strengths on all the rows
  # (at the chosen eta) are independent: run side by side on the workers
  tasks <- list()
  deferred <- defer  # (the task clears `defer`, in this process when run in turn)
  if (deferred) {
    at <- cv$fit  # the stand-in
    say("the fit on all the rows", if (prune != "none") paste0(" and its pruning (", prune, ")"),
        " at lambda_w = ", signif(at$lambda_w, 4), ", eta = ", at$eta)
    tasks$fit <- function() {
      defer <<- FALSE
      f <- suppressMessages(fit(x, y, at$lambda_w, at$eta))
      f$loopy <- NULL
      list(fit = f, pruning = pruning)
    }
  }
  if (isTRUE(path)) {
    say("edge strengths along the path on all the rows")
    eta_chosen <- cv$grid$eta[cv$chosen]
    tasks$path <- function() mlcrf_strength_path(x, y, grid$lambda_w, eta_chosen, lambda_v,
                                                 edge_type, fold_tol, max_iter)
  }
  done <- mlcrf_side_by_side(tasks, parallel)
  if (deferred) {
    cv$fit <- done$fit$fit
    pruning <- done$fit$pruning
    defer <- FALSE
  }
  if (prune != "none") {  # the refit at the chosen point, before pruning
    cv$fit_cv <- pruning$fit_cv
    cv$ebic <- pruning$ebic
    if (prune == "ebic") cv$gamma <- gamma else cv$level <- level
  }
  if (isTRUE(path))
    cv$path <- list(lambda_w = grid$lambda_w, eta = eta_chosen, strength = done$path)
  cv
}

# Functions without arguments (a named list) run side by side on the workers
# of `parallel` (fold_apply()), or in turn: their values by name.  Warnings
# raised in a worker are raised again here (forked workers would drop them).
mlcrf_side_by_side <- function(tasks, parallel) {
  if (!length(tasks)) return(list())
  out <- fold_apply(seq_along(tasks), function(i) {
    caught <- list()
    value <- withCallingHandlers(tasks[[i]](), warning = function(w) {
      caught[[length(caught) + 1L]] <<- w
      invokeRestart("muffleWarning")
    })
    list(value = value, warnings = caught)
  }, parallel, NULL)
  # said once per kind, as the engine says the fold fits' (cv_engine())
  said <- warning_collector()
  withCallingHandlers(for (o in out) for (w in o$warnings) warning(w), warning = said$handler)
  said$emit("cv_mlcrf")
  stats::setNames(lapply(out, `[[`, "value"), names(tasks))
}
