#' Cross-validated shared-subspace MDDM over a grid of alpha and beta
#'
#' Chooses `alpha` and `beta` of [ssmddm()] by k-fold cross-validation, with
#' the machinery of [cv_mlls()]: each fold's training part is decomposed once
#' (in C) and every grid point then costs only rank-t algebra, the projection
#' of the fold's rows, and the per-label ridge regression of [ssmddm()] in the
#' k-dimensional projected space (a k x k system).  The grid size hardly
#' changes the cost.
#'
#' Each fold computes its own MDDM targets from the labels of its training
#' part, as [ssmddm()] would on those rows; `k` is fixed on all the data (a
#' share in (0, 1) is turned into a dimension there) and reduced in a fold
#' whose label kernel has a smaller rank.  Thresholds, the best pair and the
#' returned object are as in [cv_mlls()].
#'
#' @section Missing labels:
#' `NA` in `y` is an error by default, as for [ssmddm()].  With `na_labels = "negative"` the fits take `NA` as `FALSE`, but the
#' folds stratify on the observed positives, and the out-of-fold thresholds
#' and the measure of each fold use the observed entries only (see
#' [ml_metrics()]): a missing label is never scored as a negative.
#'
#' @inheritParams cv_mlls
#' @inheritParams ssmddm
#' @param kernel The label kernel, as in [ssmddm()]: `NULL` for the linear
#'   kernel \eqn{YY'}, or an n x n matrix whose blocks the folds use.
#' @param method `"auto"`, `"primal"` or `"dual"`, as in [mlls()].
#' @param rule `NULL` (the default: the engine's per-label cuts of the
#'   measure, stored in the refit), or candidate decision rules chosen with
#'   the grid point inside cross-validation by the measure on the out-of-fold
#'   scores: `"f1"`, `"fixed"`, `"rcut"`, `"pcut"`, `"mcut"`, `"lcard"`,
#'   `"scut"`, each optionally followed by `"+1"` (at least one label per
#'   row); the refit then predicts by the chosen rule.  See [cv_eps()],
#'   section Decision rules, and [ml_decide()].
#' @return An object of class `c("cv_ssmddm", "ml_cv")`: the components of
#'   [cv_mlls()], `fit` being the [ssmddm()] fit on all the data at the chosen
#'   point, plus `k` and `lambda`.
#' @examples
#' set.seed(1)
#' cv <- cv_ssmddm(mlss::yeast$x[1:600, ], mlss::yeast$y[1:600, ], k = 8,
#'                 alpha = c(0, 0.1, 1), beta = c(0.001, 0.1), nfolds = 3)
#' cv
#' @export
cv_ssmddm <- function(x, y, k, alpha = c(0, 10^(-6:0)), beta = 10^(-6:0), r = NULL,
                      kernel = NULL, lambda = 0.01, nfolds = 5, foldid = NULL,
                      measure = "macro_f1", thresholds = c("oof", "train"),
                      select = c("best", "1se"), keep = FALSE, parallel = FALSE,
                      progress = interactive(), method = c("auto", "primal", "dual"),
                      tol = NULL, na_labels = c("refuse", "negative"), rule = NULL, ...) {
  call <- match.call()
  if (inherits(x, "formula")) return(cv_formula(call, parent.frame(), "cv_ssmddm"))
  check_no_dots(...)
  opt <- cv_options(measure, match.arg(thresholds), match.arg(select), keep, parallel,
                    progress, rule)
  method <- match.arg(method)
  axes <- mlls_grid_axes(alpha, beta, NULL)
  if (any(is.infinite(axes$beta)))
    stop_arg("'beta' must be finite: beta = Inf shrinks the projection to zero")
  dimk <- check_dimension(k)
  lambda <- check_lambda(lambda)
  xy <- ml_xy(x, y)
  x <- as_features(xy$x)
  n <- nrow(x)
  na_labels <- match.arg(na_labels)
  y <- as_labels(xy$y, n, na = if (na_labels == "negative") "keep" else "refuse",
                 fun = "cv_ssmddm")
  # the folds are scored against y_truth (NA left out); the fits see NA as FALSE
  y_truth <- y
  if (anyNA(y)) y[is.na(y)] <- FALSE
  k <- target_dimension(dimk, label_spectrum(y, kernel, n)$values)
  r <- check_rank(r, k)
  if (r > k) stop_arg("'r' = ", r, " is larger than 'k' = ", k)
  foldid <- cv_foldid(y_truth, nfolds, foldid)
  tol <- check_tol(tol, x)

  # The targets of a training part: its own MDDM label eigenvectors.
  targets <- function(tr) {
    if (all(colSums(y[tr, , drop = FALSE]) %in% c(0, length(tr))))
      stop_arg("a fold's training part has every label constant: use fewer folds, ",
               "or a foldid that spreads each label's positives over the folds")
    lab <- label_spectrum(y[tr, , drop = FALSE], if (is.matrix(kernel)) kernel[tr, tr],
                          length(tr))
    sqrt(length(tr)) * lab$vectors[, seq_len(min(k, length(lab$values))), drop = FALSE]
  }
  dual <- switch(method, auto = ncol(x) > n, primal = FALSE, dual = TRUE)
  gram <- if (dual) .Call(C_gram_matrix, native_matrix(x), TRUE)
  grid <- do.call(expand.grid, axes)
  spec <- list(
    name = "ssmddm", grid = grid, axes = axes,
    prepare = function(train)
      list(fold = mlls_prepare_fold(x, gram, train, targets(train), TRUE, tol, 2L,
                                    min(axes$beta)),
           ytr = y[train, , drop = FALSE]),
    score = function(state, g) {
      proj <- .Call(C_cv_mlls_score, state$fold, grid$alpha[g], grid$beta[g], r)
      projected_ridge(proj, state$ytr, lambda, opt$level)
    },
    refit = function(point, thr) {
      fit <- ssmddm(x, y, alpha = point$alpha, beta = point$beta, k = k, r = r,
                    kernel = kernel, lambda = lambda, method = method, tol = tol,
                    na_labels = "negative")
      fit$classifier <- set_thresholds(fit$classifier, thr)
      fit
    },
    order = function(grid) order(-grid$beta, -grid$alpha),
    order_rule = "larger beta first, then larger alpha", fun = "cv_ssmddm")
  cv <- cv_engine(spec, y_truth, foldid, opt, call)
  rm(gram, spec)  # the refit kept in cv needs neither
  cv$alpha <- axes$alpha
  cv$beta <- axes$beta
  cv$k <- k
  cv$lambda <- lambda
  cv
}

# The second stage of SSMDDM on one fold at one grid point: the fold's
# training and validation rows projected (the training and validation
# "scores" of the MLLS machinery run on the targets), then the per-label ridge
# regression of ssmddm() on the projection, scaled by its root mean square.
# Returns the validation rows' label scores and the thresholds that maximise
# the training F1.
projected_ridge <- function(proj, ytr, lambda, level) {
  s <- rms_scale(proj$train_scores)
  ridge <- mlls_solve(proj$train_scores / s, 2 * ytr - 1, 0, lambda, 1L)
  scores <- (proj$scores / s) %*% ridge$U + rep(ridge$intercept, each = nrow(proj$scores))
  list(scores = scores,
       thresholds = .Call(C_f1_thresholds, ridge$res$fitted, ytr, level)$threshold)
}
