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
#' @inheritParams cv_mlls
#' @inheritParams ssmddm
#' @param kernel The label kernel, as in [ssmddm()]: `NULL` for the linear
#'   kernel \eqn{YY'}, or an n x n matrix whose blocks the folds use.
#' @param method `"auto"`, `"primal"` or `"dual"`, as in [mlls()].
#' @return An object of class `c("cv_ssmddm", "cv_mlls")`: the components of
#'   [cv_mlls()], `fit` being the [ssmddm()] fit on all the data at the best
#'   pair, plus `k` and `lambda`.
#' @examples
#' data(yeast)
#' set.seed(1)
#' cv <- cv_ssmddm(yeast$x[1:600, ], yeast$y[1:600, ], k = 8, alpha = c(0, 0.1, 1),
#'                 beta = c(0.001, 0.1), nfolds = 3)
#' cv
#' @export
cv_ssmddm <- function(x, y, k, alpha = c(0, 10^(-6:0)), beta = 10^(-6:0), r = NULL,
                      kernel = NULL, lambda = 0.01, nfolds = 5, foldid = NULL,
                      measure = "macro_f1", thresholds = c("oof", "train"), keep = FALSE,
                      parallel = FALSE, progress = interactive(),
                      method = c("auto", "primal", "dual"), tol = NULL, ...) {
  call <- match.call()
  check_no_dots(...)
  thresholds <- match.arg(thresholds)
  method <- match.arg(method)
  cv <- cv_setup(alpha, beta, measure, keep, parallel, progress)
  if (any(is.infinite(cv$beta)))
    stop_arg("'beta' must be finite: beta = Inf shrinks the projection to zero")
  dimk <- check_dimension(k)
  lambda <- check_lambda(lambda)
  x <- as_features(x)
  n <- nrow(x)
  y <- as_labels(y, n)
  k <- target_dimension(dimk, label_spectrum(y, kernel, n)$values)
  r <- check_rank(r, k)
  if (r > k) stop_arg("'r' = ", r, " is larger than 'k' = ", k)
  foldid <- cv_foldid(y, nfolds, foldid)
  tol <- check_tol(tol, x)

  # The targets of a training part: its own MDDM label eigenvectors.
  targets <- function(tr) {
    lab <- label_spectrum(y[tr, , drop = FALSE], if (is.matrix(kernel)) kernel[tr, tr], length(tr))
    sqrt(length(tr)) * lab$vectors[, seq_len(min(k, length(lab$values))), drop = FALSE]
  }
  dual <- switch(method, auto = ncol(x) > n, primal = FALSE, dual = TRUE)
  gram <- if (dual) .Call(C_gram_matrix, native_matrix(x), TRUE)
  bar <- cv$progress_bar(max(foldid) + 1)
  folds <- cv_run_folds(x, targets, foldid, cv$grid, r, TRUE, tol, gram, "scores",
                        cv$parallel, bar)
  folds <- lapply(seq_along(folds), function(f)
    projected_ridge(folds[[f]], y[foldid != f, , drop = FALSE], lambda))
  oof <- cv_stack(folds, "scores", foldid, colnames(y), cv$grid)
  thr <- if (thresholds == "train") simplify2array(lapply(folds, `[[`, "thresholds"), higher = TRUE)
  cvfold <- cv_score(oof, y, foldid, thr, cv)

  best <- best_grid_point(rowMeans(cvfold), cv$grid, cv$higher_better)
  fit <- ssmddm(x, y, alpha = cv$grid$alpha[best], beta = cv$grid$beta[best], k = k, r = r,
                kernel = kernel, lambda = lambda, method = method, tol = tol)
  if (thresholds == "oof")
    fit$classifier <- oof_thresholds(fit$classifier, oof[, , best], y)
  cv_close(bar)
  res <- cv_result(cv, cvfold, best, foldid, thresholds, oof, folds, fit, call,
                   c("cv_ssmddm", "cv_mlls"))
  res$k <- k
  res$lambda <- lambda
  res
}

# The second stage of SSMDDM on one fold, at every grid point: the fold's
# training and validation rows projected (the training and validation
# "scores" of the MLLS machinery run on the targets), then the per-label ridge
# regression of ssmddm() on the projection, scaled by its root mean square.
# Returns the fold's label scores of its validation rows and the thresholds
# that maximise the training F1, in the layout of the cv_mlls folds.
projected_ridge <- function(fold, ytr, lambda) {
  ngrid <- dim(fold$scores)[3]
  m <- ncol(ytr)
  scores <- array(0, c(dim(fold$scores)[1], m, ngrid))
  thresholds <- matrix(0, m, ngrid)
  for (g in seq_len(ngrid)) {
    ztr <- matrix(fold$train_scores[, , g], nrow(ytr))
    zva <- matrix(fold$scores[, , g], dim(fold$scores)[1])
    s <- rms_scale(ztr)
    ridge <- mlls_solve(ztr / s, 2 * ytr - 1, 0, lambda, 1L)
    scores[, , g] <- (zva / s) %*% ridge$U + rep(ridge$intercept, each = nrow(scores))
    thresholds[, g] <- .Call(C_f1_thresholds, ridge$res$fitted, ytr)$threshold
  }
  list(scores = scores, thresholds = thresholds, rank = fold$rank)
}
