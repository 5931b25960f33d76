#' Cross-validated MLLS over a grid of alpha and beta
#'
#' Chooses `alpha` and `beta` of [mlls()] by k-fold cross-validation over a
#' grid, as the MLLS papers do, and refits on all the data at the best pair.
#'
#' @section Cost:
#' Every (alpha, beta) pair shares the decomposition of a fold's training
#' part, so each fold is decomposed once, in C, and a grid point then costs
#' only the rank-t algebra of the closed form and the scoring of the fold's
#' validation rows, which were projected once (methods.md, section 1).  The
#' whole grid costs little more than `nfolds + 1` fits; the grid size hardly
#' matters.  For high-dimensional or kernel problems the n x n Gram matrix is
#' computed once and every fold takes its block.
#'
#' @section Folds and thresholds:
#' Folds come from [ml_folds()] (stratified, so that every label with two or
#' more positives has positives in every training part) unless `foldid` is
#' given; `set.seed()` makes them reproducible.  A fold's validation rows are
#' labelled with per-label thresholds that maximise F1 (see
#' [f1_thresholds()]), chosen
#' * `thresholds = "oof"`: on the out-of-fold scores of the other folds at the
#'   same grid point (each instance is scored by a model that did not see it),
#'   and for the final model on all out-of-fold scores at the best pair;
#' * `thresholds = "train"`: on the fold model's training scores, and for the
#'   final model on its own training scores, as [mlls()] does.
#' In high dimension training scores are nearly separable and give poor
#' thresholds; out-of-fold scores come from models fit on less data.  The
#' default, `"oof"`, was chosen by measuring both (see the package's NEWS).
#' Measures of rankings (AUC, ranking loss, ...) do not use thresholds.
#'
#' @section The best pair:
#' The pair with the best mean measure over folds; among equal means the one
#' with the largest beta, then the largest alpha (the most regularised).
#'
#' @inheritParams mlls
#' @param alpha,beta The grid: vectors of values >= 0 (`Inf` allowed, but
#'   not for both at once).  Every combination is evaluated.
#' @param nfolds Number of folds (ignored when `foldid` is given).
#' @param foldid Optional fold number of each row, in `1:k`.
#' @param measure The measure to optimise, one of [measure_names()] except
#'   `log_loss`; higher or lower is better as the measure says.
#' @param thresholds `"oof"` or `"train"`, see the section on thresholds.
#' @param keep Keep the out-of-fold scores of every grid point (an
#'   n x m x (grid size) array) in the result?
#' @param parallel Run the folds in parallel: with `future.apply` when it is
#'   installed (set a `future::plan()` first), otherwise with
#'   `parallel::mclapply()` on `getOption("mc.cores", 2L)` cores (not on
#'   Windows).
#' @param progress Show a text progress bar, one step per fold.
#' @param ... For the formula method, arguments passed to the default method.
#'
#' @return An object of class `"cv_mlls"`, a list with
#'   \item{alpha, beta}{the grid;}
#'   \item{cvm, cvsd}{matrices (alpha x beta) of the mean and the standard
#'     deviation over folds of the measure;}
#'   \item{cvfold}{the measure of every grid point on every fold;}
#'   \item{alpha_best, beta_best, best}{the chosen pair and its row in `grid`;}
#'   \item{grid}{the pairs in the order of `cvfold`'s rows;}
#'   \item{measure, higher_better, thresholds, foldid}{the settings;}
#'   \item{oof}{the out-of-fold scores when `keep = TRUE`;}
#'   \item{fit}{the [mlls()] fit on all the data at the best pair;}
#'   \item{rank, r, call}{the ranks of the folds' decompositions, r, the call.}
#' @seealso [plot.cv_mlls()], [predict.cv_mlls()].
#' @examples
#' data(yeast)
#' train <- yeast$train
#' set.seed(1)
#' cv <- cv_mlls(yeast$x[train, ], yeast$y[train, ], alpha = c(0, 0.01, 0.1, 1),
#'               beta = c(0.001, 0.01, 0.1, 1), nfolds = 3)
#' cv
#' plot(cv)
#' pred <- predict(cv, yeast$x[!train, ], type = "class")
#' ml_metrics(yeast$y[!train, ], pred = pred, measures = c("macro_f1", "micro_f1"))
#' @export
cv_mlls <- function(x, ...) UseMethod("cv_mlls")

#' @rdname cv_mlls
#' @export
cv_mlls.default <- function(x, y, alpha = c(0, 10^(-6:0)), beta = 10^(-6:0), r = NULL,
                            nfolds = 5, foldid = NULL, measure = "macro_f1",
                            thresholds = c("oof", "train"), keep = FALSE,
                            parallel = FALSE, progress = interactive(), intercept = TRUE,
                            kernel = NULL, gamma = NULL, degree = 2, coef0 = 1,
                            method = c("auto", "primal", "dual"), tol = NULL, ...) {
  call <- match.call()
  call[[1L]] <- quote(cv_mlls)
  if (...length()) stop_arg("unknown argument(s): ", paste(names(list(...)), collapse = ", "))
  thresholds <- match.arg(thresholds)
  method <- match.arg(method)
  alpha <- check_grid(alpha, "alpha")
  beta <- check_grid(beta, "beta")
  grid <- expand.grid(alpha = alpha, beta = beta)
  if (any(is.infinite(grid$alpha) & is.infinite(grid$beta)))
    stop_arg("the grid pairs alpha = Inf with beta = Inf; drop one of them")
  info <- measure_table()
  if (!is.character(measure) || length(measure) != 1 || !measure %in% info$name[-nrow(info)])
    stop_arg("'measure' must be one of ", paste(info$name[-nrow(info)], collapse = ", "))
  keep <- check_flag(keep, "keep")
  parallel <- check_flag(parallel, "parallel")
  progress <- check_flag(progress, "progress")

  d <- mlls_inputs(x, y, r, intercept, kernel)
  n <- nrow(d$y)
  warn_constant_labels(d$y)
  foldid <- if (is.null(foldid)) ml_folds(d$y, nfolds) else check_foldid(foldid, n)
  nfolds <- max(foldid)
  warn_sparse_labels(d$y, foldid)
  if (is.null(tol)) tol <- max(dim(d$x)) * .Machine$double.eps

  # The folds: each decomposed once, all grid points scored on its validation rows.
  gram <- cv_gram(d, method, gamma, degree, coef0)
  y_pm <- 2 * d$y - 1
  train_thr <- thresholds == "train"
  run_fold <- function(k) {
    va <- which(foldid == k)
    if (is.null(gram)) {
      .Call(C_cv_mlls_fold_primal, native_matrix(d$x[-va, , drop = FALSE]),
            native_matrix(d$x[va, , drop = FALSE]), y_pm[-va, , drop = FALSE],
            grid$alpha, grid$beta, d$r, d$intercept, as.double(tol), train_thr)
    } else {
      .Call(C_cv_mlls_fold_gram, gram, which(foldid != k), y_pm[-va, , drop = FALSE],
            grid$alpha, grid$beta, d$r, d$intercept, as.double(tol), train_thr)
    }
  }
  bar <- if (progress) utils::txtProgressBar(0, nfolds + 1, style = 3)
  folds <- fold_apply(seq_len(nfolds), run_fold, parallel, bar)

  oof <- array(0, c(n, ncol(d$y), nrow(grid)),
               dimnames = list(rownames(d$y), colnames(d$y), grid_names(grid)))
  for (k in seq_len(nfolds)) oof[foldid == k, , ] <- folds[[k]]$scores
  thr <- if (train_thr) {
    simplify2array(lapply(folds, `[[`, "thresholds"), higher = TRUE)
  } else {
    .Call(C_cv_oof_thresholds_call, oof, d$y, foldid, nfolds)
  }
  code <- match(measure, info$name) - 1L
  cvfold <- .Call(C_cv_measures_call, oof, d$y, foldid, thr, code)
  dimnames(cvfold) <- list(grid_names(grid), paste0("fold", seq_len(nfolds)))
  higher <- info$higher_better[code + 1L]
  best <- best_grid_point(rowMeans(cvfold), grid, higher)

  # The final fit at the best pair.
  fit <- mlls_solve(d$x, y_pm, grid$alpha[best], grid$beta[best], d$r, d$intercept,
                    d$kernel, gamma, degree, coef0, method, tol)
  fit <- mlls_finish(fit, d$y, grid$alpha[best], grid$beta[best], d$r,
                     fit_call(call, grid$alpha[best], grid$beta[best]))
  if (!train_thr) {
    oof_thr <- f1_thresholds(oof[, , best], d$y)
    fit$thresholds <- oof_thr$threshold
    fit$oof_f1 <- oof_thr$f1
  }
  if (!is.null(bar)) {
    utils::setTxtProgressBar(bar, nfolds + 1)
    close(bar)
  }

  shape <- function(v) matrix(v, length(alpha), length(beta),
                              dimnames = list(alpha = format_grid(alpha), beta = format_grid(beta)))
  structure(list(alpha = alpha, beta = beta, cvm = shape(rowMeans(cvfold)),
                 cvsd = shape(apply(cvfold, 1, stats::sd)), cvfold = cvfold,
                 alpha_best = grid$alpha[best], beta_best = grid$beta[best], best = best,
                 grid = grid, measure = measure, higher_better = higher,
                 thresholds = thresholds, foldid = foldid, oof = if (keep) oof,
                 fit = fit, rank = vapply(folds, `[[`, 0L, "rank"), r = fit$r, call = call),
            class = "cv_mlls")
}

#' @rdname cv_mlls
#' @export
cv_mlls.formula <- function(x, data, subset, na.action = stats::na.fail, ...) {
  md <- model_data(match.call(expand.dots = FALSE), na.action, parent.frame())
  cv <- cv_mlls.default(md$x, md$y, ...)
  cv$call <- match.call()
  cv$call[[1L]] <- quote(cv_mlls)
  cv$fit <- structure(c(unclass(cv$fit), md$formula_parts), class = "mlls")
  cv
}

check_grid <- function(v, arg) {
  if (!is.numeric(v) || !length(v) || anyNA(v) || any(v < 0))
    stop_arg("'", arg, "' must be a vector of numbers >= 0")
  sort(unique(as.numeric(v)))
}

format_grid <- function(v) vapply(v, format, "", digits = 3)
grid_names <- function(grid) paste0("alpha=", format_grid(grid$alpha), ",beta=", format_grid(grid$beta))

# The n x n matrix whose blocks the folds decompose: the kernel matrix, or the
# Gram matrix when x has more columns than rows; NULL for the primal form.
cv_gram <- function(d, method, gamma, degree, coef0) {
  if (identical(d$kernel, "precomputed")) return(d$x)
  if (!is.null(d$kernel))
    return(kernel_matrix(d$x, kernel = d$kernel, gamma = gamma, degree = degree, coef0 = coef0))
  dual <- switch(method, auto = ncol(d$x) > nrow(d$x), primal = FALSE, dual = TRUE)
  if (dual) .Call(C_gram_matrix, native_matrix(d$x), d$intercept)
}

# lapply() over the folds, in parallel when asked: through future.apply when
# it is installed (the user's future::plan() decides where), else forked
# processes of parallel::mclapply().
fold_apply <- function(folds, fun, parallel, bar,
                       backend = if (requireNamespace("future.apply", quietly = TRUE))
                         "future" else "multicore") {
  if (!parallel) {
    return(lapply(folds, function(k) {
      res <- fun(k)
      if (!is.null(bar)) utils::setTxtProgressBar(bar, k)
      res
    }))
  }
  res <- switch(backend,
                future = future.apply::future_lapply(folds, fun, future.seed = TRUE),
                multicore = parallel::mclapply(folds, fun, mc.cores = getOption("mc.cores", 2L)))
  if (!is.null(bar)) utils::setTxtProgressBar(bar, length(folds))
  res
}

# Labels with fewer positives than it takes to have one in every training part.
warn_sparse_labels <- function(y, foldid) {
  folds_with <- colSums(rowsum(y * 1, foldid) > 0)
  thin <- colnames(y)[folds_with < 2 & colSums(y) > 0]
  if (length(thin))
    warning("label(s) ", paste0("'", thin, "'", collapse = ", "), " have positives in ",
            "only one fold: that fold's training part has none", call. = FALSE)
}

best_grid_point <- function(cvm, grid, higher) {
  score <- if (higher) cvm else -cvm
  cand <- which(score == max(score))
  cand[order(-grid$beta[cand], -grid$alpha[cand])][1]
}

fit_call <- function(call, alpha, beta) {
  args <- as.list(call)[-1L]
  keep <- intersect(names(args), c("x", "y", "r", "intercept", "kernel", "gamma",
                                   "degree", "coef0", "method", "tol"))
  as.call(c(quote(mlls), args[keep], list(alpha = alpha, beta = beta)))
}
