#' Cross-validated LEWL over lambda, beta and k
#'
#' Chooses `lambda`, `beta` (and `k` unless given as one number) of [lewl()]
#' by k-fold cross-validation on the package's engine (see [ml_cv()]): each
#' fold's kNN graph and kernel matrix (above 1200 rows with the
#' eigendecomposition of the centred kernel, see [lewl()]; or its Nystrom
#' factor, see [lewl()]'s `approx`) are computed once and shared by every grid point, and the
#' eigensolver of each fold's Z-step starts from the fold's embedding at the
#' previous `lambda` of the same `beta` and `k` (the fit is, to the
#' eigensolver's tolerance, the one a cold start gives, only the work changes;
#' `warm_start = TRUE` also starts the missing entries from the previous grid
#' point's, along the whole grid, which changes the fits); the held-out fold is predicted from its features and scored
#' on its observed labels only; the best and one-standard-error points; a
#' refit on all the data.
#'
#' With `parallel` on forked workers, each fold's fit at each grid point is
#' scheduled on its own as a worker comes free, so that no worker waits for
#' the last fold of a grid point; the result is the sequence's, bit for bit.
#' On 2000 enron rows with the default grid (`bench/lewl_cv_grid.R`,
#' OpenBLAS, one thread per worker) `parallel = 2` took 105-118 s elapsed
#' and 186-193 s in sequence (session 43); two fits running at once on that
#' 2-core machine each took about a fifth to a third longer than one alone,
#' which bounds what the second worker gains.
#'
#' The fold fits stop the Z-step's iterative eigensolver (see [lewl()]) at a
#' residual of 1e-6 times the largest Ritz value instead of `lewl()`'s 1e-10;
#' the refit keeps 1e-10, and folds of up to 1200 rows, where the formed
#' matrix is reduced exactly, are unaffected (`options(mlss.lewl_cv_eig_tol =
#' 1e-10)` makes the fold fits those of [lewl()] again).  A looser residual costs a few
#' digits of the embedding, which the cross-validated scores do not see, and
#' about half of the fold fits' work: on 2000 enron rows with the default
#' grid (`bench/lewl_cv_grid.R`, OpenBLAS, one thread, two runs of each side
#' by side) 231-236 CPU s in all against 466-471, every fold fit taking the
#' same number of iterations and every grid point the same cross-validated
#' macro F1 (the differences are 0); on one 1600-row fit (lambda 10, beta 1,
#' k = 53; 393 iterations either way) the recovered entries moved by at
#' most 1.6e-4 and the objective by 2e-9 of itself.  That fit chose 1e-6: it
#' took 23.7 CPU s against 63.2 at 1e-10 and 40.1 at 1e-8, while 1e-4 saved
#' little more (21.4) and moved the entries by 2.7e-3
#' (`bench/lewl_cv_eigtol.R`, `bench/lewl_cv_grid_results.md`).  For scale: the plain
#' alternation's own stopping test left the largest recovered entry 0.55
#' from its fixed point on emotions and 0.70 on medical (see [lewl()],
#' Details).
#'
#' @inheritParams lewl
#' @inheritParams cv_mlls
#' @param lambda,beta Grids of values (>= 0) of the HSIC and the graph weights
#'   (defaults `10^(-1:1)` and `c(1, 10)`).  The default beta grid leaves out
#'   `beta = 0` (no graph term; the default was `c(0, 1, 10)` in earlier
#'   development versions): with missing labels its fits mostly do not converge, because the
#'   missing entries drift without settling (by 2000 iterations the largest
#'   grew to 2.5-5.0 on all five sets at `lambda = 0.1` and to 10-43 on three
#'   at `lambda = 10`, `bench/lewl_beta0_results.md`; see [lewl()]'s `beta`), so its
#'   cross-validated score is that of wherever `max_iter` stops them (on yeast
#'   0.4101, 0.4184 and 0.4168 at `max_iter` 250, 500 and 1000), and it cost
#'   67-98\% of the fold fits' CPU on five sets of up to 1000 rows, 30\%
#'   hidden (`bench/lewl_beta_grid_results.md`).  There it had been the
#'   chosen point on yeast and medical, 0.013 and 0.007 macro F1 (1.5 and
#'   1.1 standard errors) above the best point at `beta = 1` or 10; on
#'   emotions, scene and enron the chosen point is the same without it.  A
#'   `beta` grid containing 0 is still accepted (its fits warn).  `beta =
#'   0.1` is slow too (on 1000 enron rows 24 of its 30 fold fits stopped at
#'   `max_iter`), and on enron its missing entries drift as well.
#' @param k The embedding dimension: one number, or a grid; default the
#'   distinct values of `ceiling(m * c(1/2, 1))` for `m` labels ([lewl()]'s
#'   default `k = m` and half of it; `bench/lewl_default_k_results.md`).
#' @param thresholds `"train"` (default): each fold's own adaptive threshold
#'   (that of [lewl()], chosen on its training part); `"oof"`: per-label
#'   thresholds chosen on the out-of-fold scores, as in [cv_mlls()].
#' @param rule `NULL` (the default: the engine's per-label cuts of the
#'   measure, stored in the refit), or candidate decision rules chosen with
#'   the grid point inside cross-validation by the measure on the out-of-fold
#'   scores: `"f1"`, `"fixed"`, `"rcut"`, `"pcut"`, `"mcut"`, `"lcard"`,
#'   `"scut"`, each optionally followed by `"+1"` (at least one label per
#'   row); the refit then predicts by the chosen rule.  See [cv_eps()],
#'   section Decision rules, and [ml_decide()].  The rules learn their
#'   parameters (cardinality, proportions, SCut's cuts) from the observed
#'   training entries only; `"f1"` is the fold's own cut with `thresholds =
#'   "train"` (LEWL's adaptive threshold) and the out-of-fold per-label cut
#'   with `thresholds = "oof"`.
#' @param warm_start `FALSE` (default) or `TRUE`: each fold's fit at a grid
#'   point starts its missing entries from the fold's completed matrix at the
#'   previous grid point (the rows of `grid`, in order) instead of from
#'   `init` (the eigensolver starts from the previous embedding either way).
#'   It changes the fits, not only the work: LEWL's objective is not convex
#'   in the missing entries and the embedding together (a rank-`k` fit of a
#'   partly missing matrix), and its iterations stop on the objective's
#'   relative change while the entries can still drift along a flat valley.
#'   Measured (`bench/lewl_cv_warm.R`: the first 300 rows of emotions, 30\%
#'   hidden, 3 folds, `beta = c(1, 10)`, the default `lambda` and `k`): 1823
#'   iterations of the fold fits against 1750 cold, 12.1 against 12.0 s CPU,
#'   the same chosen point, the cross-validated macro F1 moved by up to 0.024
#'   and out-of-fold scores by up to 1.55 (at `k = 6`).  On one fold of
#'   emotions (474 rows), point by point, the warm fits took from 43\% fewer
#'   to 32\% more iterations, and at `beta = 0` (no graph), where neither
#'   start converged in 500 iterations, the recovered entries differed by up
#'   to 1 (`bench/lewl_scale_results.md`).  Hence not the default.
#' @param ... Further arguments of [lewl()] (`knn`, `t`, `gamma`,
#'   `regressor`, `ridge`, `threshold`, `recovery`, `init`, `tol`,
#'   `max_iter`, `approx`, `landmarks`), the same at every grid point.
#' @return An object of class `c("cv_lewl", "ml_cv")` with the components of
#'   [cv_mlls()] (`grid`, `cvm`, `cvsd`, `cvfold`, `best`, `best_1se`,
#'   `lambda_best`, `beta_best`, `k_best`, ..., `fit`), `fit` being the
#'   [lewl()] fit on all the data at the chosen point.
#' @examples
#' data(yeast, package = "mlss")
#' set.seed(1)
#' x <- yeast$x[1:200, ]
#' y <- yeast$y[1:200, 1:6]
#' cv <- cv_lewl(x, y, lambda = c(0.1, 1), beta = c(1, 10), k = 3, nfolds = 3)
#' cv
#' @export
cv_lewl <- function(x, y, lambda = 10^(-1:1), beta = c(1, 10), k = NULL, nfolds = 5,
                    foldid = NULL, measure = "macro_f1", thresholds = c("train", "oof"),
                    select = c("best", "1se"), keep = FALSE, parallel = FALSE,
                    progress = interactive(), rule = NULL, warm_start = FALSE, ...) {
  call <- match.call()
  if (inherits(x, "formula")) return(cv_formula(call, parent.frame(), "cv_lewl"))
  lambda <- check_grid(lambda, "lambda")
  beta <- check_grid(beta, "beta")
  opt <- cv_options(measure, match.arg(thresholds), match.arg(select), keep, parallel,
                    progress, rule)
  xy <- ml_xy(x, y)
  x <- as_features(xy$x)
  y <- as_labels(xy$y, nrow(x), na = "keep", fun = "cv_lewl")
  check_lewl_labels(y)
  m <- ncol(y)
  k <- if (is.null(k)) unique(as.integer(ceiling(m * c(0.5, 1))))
       else vapply(k, check_whole, 1L, "k", 1, nrow(x))
  warm_start <- check_flag(warm_start, "warm_start")
  args <- lewl_cv_args(list(...), nrow(x))
  foldid <- cv_foldid(y, nfolds, foldid)
  axes <- list(lambda = lambda, beta = beta, k = sort(unique(k)))
  grid <- do.call(expand.grid, axes)
  # fits that stop at max_iter warn with class "mlss_not_converged": the
  # engine collects them into one warning with their count
  fit_rows <- function(rows, prep, point, Z0 = NULL, start = NULL, eig_tol = lewl_eig_tol) {
    yr <- y[rows, , drop = FALSE]
    check_lewl_labels(yr, warn = FALSE)  # the engine warns of labels thin in a fold
    lewl_fit_prepared(x[rows, , drop = FALSE], yr, prep, point$k, point$lambda,
                      point$beta, args$regressor, args$ridge, args$threshold,
                      args$recovery, args$init, args$tol, args$max_iter, Z0 = Z0,
                      start = start, eig_tol = eig_tol)
  }
  fold_eig_tol <- getOption("mlss.lewl_cv_eig_tol", lewl_cv_eig_tol)
  if (!is.numeric(fold_eig_tol) || length(fold_eig_tol) != 1 ||
      !(fold_eig_tol > 0 && fold_eig_tol < 1))
    stop_arg("options(mlss.lewl_cv_eig_tol) must be one number in (0, 1) (the fold fits' ",
             "eigensolver tolerance, see ?cv_lewl)")
  method <- list(
    name = "lewl", grid = grid, axes = axes, parallel_score = TRUE,
    prepare = function(train)
      list(train = train, prep = lewl_prepare(x[train, , drop = FALSE], args$knn,
                                              args$t, args$gamma, args$approx,
                                              args$landmarks,
                                              eig_basis = lewl_use_basis(length(train),
                                                                         shared = TRUE))),
    # along lambda at each (beta, k) (the engine's paths, contiguous rows of
    # `grid`), each fold's eigensolver starts from the embedding of the
    # fold's previous grid point (a warm start of the eigenvectors only: the
    # fit is the one a cold start gives), and with parallel workers the fold
    # fits are scheduled one by one; warm_start = TRUE: the missing entries
    # too start from the previous point's completed matrix (another path,
    # another fit), along the whole grid
    paths = if (warm_start) rep(1L, nrow(grid))
            else rep(seq_len(nrow(grid) / length(lambda)), each = length(lambda)),
    score = function(state, g) {
      model <- fit_rows(state$train, state$prep, grid[g, , drop = FALSE], state$Z,
                        if (warm_start) state$Yt, eig_tol = fold_eig_tol)
      va <- seq_len(nrow(x))[-state$train]
      state$Z <- model$Z
      if (warm_start) state$Yt <- model$completed
      list(scores = stats::predict(model, x[va, , drop = FALSE], type = "score"),
           thresholds = model$thresholds, state = state)
    },
    refit = function(point, thr) {
      rows <- seq_len(nrow(x))
      fit <- fit_rows(rows, lewl_prepare(x, args$knn, args$t, args$gamma, args$approx,
                                        args$landmarks), point)
      if (!is.null(thr)) fit$thresholds[] <- thr$threshold
      fit
    },
    # the most regularised first: the smoothest labels, the most
    # feature-driven embedding, the smallest dimension
    order = function(grid) order(-grid$beta, -grid$lambda, grid$k),
    order_rule = "larger beta first, then larger lambda, then smaller k", fun = "cv_lewl")
  cv <- cv_engine(method, y, foldid, opt, call)
  cv$call <- call
  cv
}

# The residual tolerance of the Z-step's eigensolver in cv_lewl()'s fold
# fits (lewl() and the refit: lewl_eig_tol): see ?cv_lewl, Details.
lewl_cv_eig_tol <- 1e-6

# The arguments of lewl() that cv_lewl() passes on, checked once, with
# lewl()'s defaults.
lewl_cv_args <- function(dots, n) {
  known <- c("knn", "t", "gamma", "regressor", "ridge", "threshold", "recovery", "init",
             "tol", "max_iter", "approx", "landmarks")
  bad <- setdiff(names(dots), known)
  if (length(bad) || (length(dots) && is.null(names(dots))))
    stop_arg("unknown argument(s): ", paste(if (length(bad)) bad else "(unnamed)",
                                           collapse = ", "))
  def <- formals(lewl.default)
  a <- lapply(stats::setNames(known, known), function(nm)
    if (nm %in% names(dots)) dots[[nm]] else eval(def[[nm]]))
  if (!is.function(a$regressor)) a$regressor <- match.arg(a$regressor, c("ridge", "kernel_ridge"))
  a$threshold <- match.arg(a$threshold, c("global", "label"))
  a$recovery <- match.arg(a$recovery, c("exact", "paper"))
  a$approx <- match.arg(a$approx, c("auto", "exact", "nystrom"))
  if (!is.null(a$landmarks))
    a$landmarks <- check_whole(a$landmarks, "landmarks", 1, .Machine$integer.max)
  a$knn <- check_whole(a$knn, "knn", 1, n - 1L)
  a$ridge <- check_nonnegative(a$ridge, "ridge")
  a$tol <- check_nonnegative(a$tol, "tol")
  a$max_iter <- check_whole(a$max_iter, "max_iter", 1, .Machine$integer.max)
  a
}
