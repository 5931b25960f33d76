#' Cross-validated MLLS over a grid of alpha, beta (and r)
#'
#' Chooses `alpha` and `beta` of [mlls()] (and `r`, when several values are
#' given) by k-fold cross-validation over a grid, as the MLLS papers do, and
#' refits on all the data at the chosen point.  It runs on the package's
#' cross-validation engine (see [ml_cv()]), with MLLS's fast path.
#'
#' @section Cost:
#' Every grid point shares the decomposition of a fold's training part, so
#' each fold is decomposed once, in C, and a grid point then costs only the
#' rank-t algebra of the closed form and the scoring of the fold's validation
#' rows, which were projected once (methods.md, section 1): about
#' \eqn{n_{val} t m}{n_val t m} operations per fold, against the
#' \eqn{O(t^3)}{O(t^3)} of a decomposition.  For high-dimensional or kernel
#' problems the n x n Gram matrix is computed once and every fold takes its
#' block.  The grid is evaluated one point at a time over all folds, so memory
#' holds one n x m matrix of scores, whatever the grid size (`keep = TRUE`
#' keeps them all).  See `bench/cv_grid.R` and `bench/many_labels.R`.
#'
#' @section Folds and thresholds:
#' Folds come from [ml_folds()] (stratified, so that every label with two or
#' more positives has positives in every training part) unless `foldid` is
#' given; `set.seed()` makes them reproducible.  A fold's validation rows are
#' labelled with per-label thresholds that maximise F1 (see
#' [f1_thresholds()]), chosen
#' * `thresholds = "oof"`: on the out-of-fold scores of the other folds at the
#'   same grid point (each instance is scored by a model that did not see it),
#'   and for the final model on all out-of-fold scores at the chosen point;
#' * `thresholds = "train"`: on the fold model's training scores, and for the
#'   final model on its own training scores, as [mlls()] does.
#' In high dimension training scores are nearly separable and give poor
#' thresholds; out-of-fold scores come from models fit on less data.  The
#' default, `"oof"`, was chosen by measuring both: on Yahoo Arts (1000
#' training pages) it gave a test macro F1 of 0.400 against 0.338 for
#' `"train"` (8 x 8 grid), on yeast 0.474 against 0.470.
#' Measures of rankings (AUC, ranking loss, ...) do not use thresholds.
#'
#' The cut follows the measure.  With `measure = "hamming_loss"` each label is
#' cut where it misclassifies the fewest entries (never predicting it is a
#' candidate); the Hamming loss decomposes over labels, so these cuts are
#' exactly optimal for the scores, and the folds and the final model use
#' them.  Every other measure that uses thresholds is cut at the F1 cuts
#' above: optimal per label for macro F1; for measures that do not decompose
#' over labels (micro and example-based F1, accuracy, exact match) no cheap
#' optimal cut exists and the F1 cut is the one used.  With
#' `thresholds = "train"` the fold models' own F1 cuts are used whatever the
#' measure.
#'
#' @section Thresholds:
#' Every F1 cut (out-of-fold, training, and the final model's) follows the
#' chance rule of [f1_thresholds()]: a label whose best cut random scores
#' would reach with probability above the level falls back to the majority
#' rule (never predicted when rare).  The level is the option
#' `mlss.chance_level`, default 0.05, read once when `cv_mlls()` starts.  On
#' medical (2/3 : 1/3 split) the rule at 0.05 lifted the test macro F1 from
#' 0.450 to 0.581 and the micro F1 from 0.277 to 0.818, with 1.33 labels
#' predicted per document (1.24 true) instead of 6.47; on cal500, where many
#' labels are frequent, it lowered the macro F1 from 0.228 to 0.135
#' (`bench/rare_labels.md`).  `options(mlss.chance_level = 1)` turns it off
#' (every cut the plain F1 maximum).
#'
#' @section The chosen point:
#' `best` is the grid point with the best mean measure over folds; among
#' equal means the most regularised one: the largest beta, then the largest
#' alpha, then the smallest r.  `best_1se` is the most regularised point (in
#' the same order) whose mean is within one standard error (`cvsd`) of the
#' best, as `cv.glmnet`'s `lambda.1se`.  `select` says at which of the two
#' the model is refitted.  When r reaches the rank of X'Y (after centring) the
#' shared subspace is the whole span of the fit and alpha has no effect: MLLS
#' is then ridge regression, and `cv_mlls()` says so.
#'
#' When the chosen point takes the largest or the smallest value of an axis
#' where the grid could go further (not alpha or beta = 0 or `Inf`, not r
#' = 1 or the number of labels), `cv_mlls()` says so in a message and
#' `print()` repeats it (`$edge`).
#'
#' The default grid was measured against a wider one (alpha up to 100, beta
#' up to 1000) on the Mulan train/test splits of emotions, yeast and scene:
#' both chose beta = 0.01 on all three, and test macro F1 was 0.656, 0.480
#' and 0.703 with the default against 0.656, 0.478 (alpha moving to 100, the
#' new top) and 0.703 with the wider grid, so the default stays
#' (`bench/rare_labels.md`).
#'
#' @section Missing labels:
#' `NA` in `y` is an error by default, as for [mlls()]
#' (see its section Missing labels).  With `na_labels = "negative"` the fits take `NA` as `FALSE`, but the
#' folds stratify on the observed positives, and the out-of-fold thresholds
#' and the measure of each fold use the observed entries only (see
#' [ml_metrics()]): a missing label is never scored as a negative.
#'
#' @inheritParams mlls
#' @param alpha,beta The grid: vectors of values >= 0 (`Inf` allowed, but
#'   not for both at once).  Every combination is evaluated.
#' @param r The dimension of the shared subspace: one value (default as in
#'   [mlls()]), or several, which become a third axis of the grid.
#' @param nfolds Number of folds (ignored when `foldid` is given).
#' @param foldid Optional fold number of each row, in `1:k`.
#' @param measure The measure to optimise, one of [measure_names()]; higher or
#'   lower is better as the measure says.  `"log_loss"` and `"brier"` need
#'   probabilities (see [ml_metrics()]) and are refused, with a message,
#'   by a method whose scores are not probabilities.
#' @param thresholds `"oof"` or `"train"`, see the section on thresholds.
#' @param select Refit at the `"best"` point or at the one-standard-error
#'   point (`"1se"`), see the section on the chosen point.
#' @param keep Keep the out-of-fold scores of every grid point (an
#'   n x m x (grid size) array) in the result?
#' @param parallel Prepare the folds in parallel: `TRUE` or a number of
#'   workers.  With `TRUE`, a `future::plan()` set by the user is followed when
#'   future.apply is installed; otherwise, and with a number, the folds run in
#'   forked processes of `parallel::mclapply()` (`getOption("mc.cores", 2L)`
#'   workers for `TRUE`; not on Windows).  The package's own C loops use
#'   `getOption("mlss.threads", 2L)` threads (at most the cores, one in a forked
#'   worker), and so does OpenBLAS in a forked worker when it is R's BLAS (two
#'   workers each running OpenBLAS on every core slow each other down:
#'   `cv_lewl()`'s default grid on 2000 enron rows took 225 s elapsed on two
#'   workers with two OpenBLAS threads each, 142 s with one); `set.seed()`
#'   reproduces a parallel run.
#' @param progress Show a text progress bar (one step per fold and per grid
#'   point).
#' @param rule `NULL` (the default: the engine's per-label cuts of the
#'   measure, stored in the refit), or candidate decision rules chosen with
#'   the grid point inside cross-validation by the measure on the out-of-fold
#'   scores: `"f1"`, `"fixed"`, `"rcut"`, `"pcut"`, `"mcut"`, `"lcard"`,
#'   `"scut"`, each optionally followed by `"+1"` (at least one label per
#'   row); the refit then predicts by the chosen rule.  See [cv_eps()],
#'   section Decision rules, and [ml_decide()].
#' @param ... For the formula method, arguments passed to the default method.
#'
#' @return An object of class `c("cv_mlls", "ml_cv")`, a list with
#'   \item{grid}{the grid points (a data frame, one row each, in the order of
#'     `cvfold`'s rows);}
#'   \item{cvm, cvsd}{arrays (alpha x beta, or alpha x beta x r) of the mean
#'     over folds of the measure and of its standard error (the standard
#'     deviation over folds divided by the square root of their number, as in
#'     `cv.glmnet`);}
#'   \item{cvfold}{the measure of every grid point on every fold;}
#'   \item{best, best_1se, select, chosen, ties}{the rows of `grid` of the best
#'     and the one-standard-error points, which one the fit used (by name and
#'     row), and how many points tie at the best mean;}
#'   \item{alpha_best, beta_best, alpha_1se, beta_1se}{their values;}
#'   \item{measure, higher_better, thresholds, foldid}{the settings;}
#'   \item{oof}{the out-of-fold scores when `keep = TRUE`;}
#'   \item{oof_thresholds, oof_f1}{the thresholds from all out-of-fold scores
#'     at every grid point and their F1 (labels x grid points), with
#'     `thresholds = "oof"`;}
#'   \item{fit}{the [mlls()] fit on all the data at the chosen point;}
#'   \item{refit}{a function that refits at another point (used by
#'     [predict.ml_cv()]): the object keeps a reference to the data for it;}
#'   \item{alpha, beta, r, rank, call}{the grid's values, the dimension of the
#'     shared subspace of the fit, the ranks of the folds' decompositions, the
#'     call.}
#' @seealso [plot.ml_cv()], [predict.ml_cv()], [as.data.frame.ml_cv()],
#'   [ml_cv()] for any other method.
#' @examples
#' train <- mlss::yeast$train
#' set.seed(1)
#' cv <- cv_mlls(mlss::yeast$x[train, ], mlss::yeast$y[train, ],
#'               alpha = c(0, 0.01, 0.1, 1), beta = c(0.001, 0.01, 0.1, 1), nfolds = 3)
#' cv
#' plot(cv)
#' pred <- predict(cv, mlss::yeast$x[!train, ], type = "class")
#' ml_metrics(mlss::yeast$y[!train, ], pred = pred, measures = c("macro_f1", "micro_f1"))
#' @export
cv_mlls <- function(x, ...) UseMethod("cv_mlls")

#' @rdname cv_mlls
#' @export
cv_mlls.default <- function(x, y, alpha = c(0, 10^(-6:0)), beta = 10^(-6:0), r = NULL,
                            nfolds = 5, foldid = NULL, measure = "macro_f1",
                            thresholds = c("oof", "train"), select = c("best", "1se"),
                            keep = FALSE, parallel = FALSE, progress = interactive(),
                            intercept = TRUE, kernel = NULL, gamma = NULL, degree = 2,
                            coef0 = 1, method = c("auto", "primal", "dual"), tol = NULL,
                            na_labels = c("refuse", "negative"), rule = NULL, ...) {
  call <- match.call()
  call[[1L]] <- quote(cv_mlls)
  check_no_dots(...)
  opt <- cv_options(measure, match.arg(thresholds), match.arg(select), keep, parallel,
                    progress, rule)
  method <- match.arg(method)
  xy <- ml_xy(x, y)
  na_labels <- match.arg(na_labels)
  d <- mlls_inputs(xy$x, xy$y, NULL, intercept, kernel,
                   if (na_labels == "negative") "keep" else "refuse", "cv_mlls")
  # the folds are scored against y_truth (NA left out); the fits see NA as FALSE
  y_truth <- d$y
  if (anyNA(d$y)) d$y[is.na(d$y)] <- FALSE
  # several r: each checked, and none above the number of labels (the rank of
  # X'Y cannot be larger; the refit says so for the chosen one)
  rs <- if (is.null(r)) d$r else
    unique(vapply(r, function(v) as.integer(min(check_rank(v, ncol(d$y)), ncol(d$y))), 0L))
  axes <- mlls_grid_axes(alpha, beta, sort(unique(rs)))
  warn_constant_labels(d$y)
  foldid <- cv_foldid(y_truth, nfolds, foldid)
  tol <- check_tol(tol, d$x)

  train_out <- if (opt$thresholds == "train") 1L else 0L
  gram <- cv_gram(d, method, gamma, degree, coef0)
  grid <- do.call(expand.grid, axes)
  r_of <- function(point) if (is.null(point$r)) rs[1] else point$r
  spec <- list(
    name = "mlls", grid = grid, axes = axes, limits = list(r = c(1, ncol(d$y))),
    prepare = function(train) mlls_prepare_fold(d$x, gram, train,
                                                d$y[train, , drop = FALSE],
                                                d$intercept, tol, train_out, min(axes$beta),
                                                opt$level),
    score = function(state, g) .Call(C_cv_mlls_score, state, grid$alpha[g], grid$beta[g],
                                     as.integer(r_of(grid[g, , drop = FALSE]))),
    refit = function(point, thr) {
      a <- point$alpha
      b <- point$beta
      rr <- r_of(point)
      # with out-of-fold thresholds the n x m training scores are not needed
      fit <- mlls_solve(d$x, d$y, a, b, rr, d$intercept, d$kernel, gamma, degree, coef0,
                        method, tol, fitted = is.null(thr))
      fit <- mlls_finish(fit, d$y, a, b, rr, fit_call(call, a, b, rr), thr)
      set_thresholds(fit, thr)
    },
    order = function(grid) do.call(order, c(list(-grid$beta, -grid$alpha),
                                            if (!is.null(grid$r)) list(grid$r))),
    order_rule = "larger beta first, then larger alpha, then smaller r", fun = "cv_mlls")
  cv <- cv_engine(spec, y_truth, foldid, opt, call)
  rm(gram, spec)  # the refit kept in cv needs neither
  mlls_cv_finish(cv, r_of(cv$grid[cv$chosen, ]))
}

#' @rdname cv_mlls
#' @export
cv_mlls.formula <- function(x, data, subset, na.action = stats::na.fail, ...) {
  md <- model_data(match.call(expand.dots = FALSE), na.action, parent.frame())
  cv <- cv_mlls.default(md$x, md$y, ...)
  cv$call <- match.call()
  cv$call[[1L]] <- quote(cv_mlls)
  cv$fit <- structure(c(unclass(cv$fit), md$formula_parts), class = class(cv$fit))
  refit <- cv$refit
  cv$refit <- function(point, thr)
    structure(c(unclass(fit <- refit(point, thr)), md$formula_parts), class = class(fit))
  cv
}

# The axes of the MLLS grid: alpha and beta, and r when it has several values.
mlls_grid_axes <- function(alpha, beta, r) {
  axes <- list(alpha = check_grid(alpha, "alpha"), beta = check_grid(beta, "beta"))
  if (any(is.infinite(axes$alpha)) && any(is.infinite(axes$beta)))
    stop_arg("the grid pairs alpha = Inf with beta = Inf; drop one of them")
  if (length(r) > 1) axes$r <- r
  axes
}

# A fold of cross-validated MLLS decomposed in C (see cv_mlls.c): the primal
# form on the fold's rows of x (through the Gram matrix, or the data's SVD
# where the smallest beta of the grid, beta_min, needs it), or the dual form
# on its block of gram.  level: the chance rule's, for the training
# thresholds (train_out = 1).
mlls_prepare_fold <- function(x, gram, train, targets, intercept, tol, train_out, beta_min,
                              level = chance_level()) {
  if (is.null(gram)) {
    .Call(C_cv_mlls_prepare_primal, native_matrix(x), train, targets, intercept,
          as.double(tol), train_out, as.double(beta_min), level)
  } else {
    .Call(C_cv_mlls_prepare_gram, gram, train, targets, intercept, as.double(tol), train_out,
          level)
  }
}

# The MLLS fields of the result, and a word when alpha could not matter.
mlls_cv_finish <- function(cv, r_asked) {
  cv$alpha <- cv$axes$alpha
  cv$beta <- cv$axes$beta
  cv$r <- cv$fit$r
  cv$rank <- cv$fit$rank
  if ((cv$fit$r < r_asked || cv$fit$r >= min(cv$fit$rank, ncol(cv$fit$V))) &&
      any(cv$alpha > 0))
    message("r = ", cv$fit$r, " reaches the rank of X'Y: the shared subspace is the whole ",
            "fit and alpha has no effect (MLLS is ridge regression here); give a smaller r")
  cv
}

# The n x n matrix whose blocks the folds decompose: the kernel matrix, or the
# Gram matrix when x has more columns than rows; NULL for the primal form.
cv_gram <- function(d, method, gamma, degree, coef0) {
  if (identical(d$kernel, "precomputed")) return(d$x)
  if (!is.null(d$kernel)) {  # with mlls()'s parameters (and shift, for accuracy)
    spec <- mlls_kernel_spec(d$kernel, d$x, gamma, degree, coef0, d$intercept)
    return(do.call(kernel_matrix, c(list(d$x, kernel = d$kernel), spec$par)))
  }
  dual <- switch(method, auto = ncol(d$x) > nrow(d$x), primal = FALSE, dual = TRUE)
  if (dual) .Call(C_gram_matrix, native_matrix(d$x), d$intercept)
}

fit_call <- function(call, alpha, beta, r) {
  args <- as.list(call)[-1L]
  keep <- intersect(names(args), c("x", "y", "intercept", "kernel", "gamma",
                                   "degree", "coef0", "method", "tol"))
  as.call(c(quote(mlls), args[keep], list(alpha = alpha, beta = beta, r = r)))
}
