#' Cross-validated MLLS over a grid of alpha and beta
#'
#' Chooses `alpha` and `beta` of [mlls()] by k-fold cross-validation over a
#' grid, as the MLLS papers do, and refits on all the data at the best pair.
#'
#' @section Cost:
#' Every (alpha, beta) pair shares the decomposition of a fold's training
#' part, so each fold is decomposed once, in C, and a grid point then costs
#' only the rank-t algebra of the closed form and the scoring of the fold's
#' validation rows, which were projected once (methods.md, section 1): about
#' \eqn{n_{val} t m}{n_val t m} operations per fold, against the
#' \eqn{O(t^3)}{O(t^3)} of a decomposition.  For high-dimensional or kernel
#' problems the n x n Gram matrix is computed once and every fold takes its
#' block.  On Yahoo Arts (1000 pages, 17973 words) the 8 x 8 grid cost 1.4
#' times the six decompositions alone and the 20 x 20 grid 2.9 times, where
#' refitting at every grid point would cost about 47 and 114 times as much as
#' `cv_mlls()` (see `bench/cv_grid.R`).
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
#' default, `"oof"`, was chosen by measuring both: on Yahoo Arts (1000
#' training pages) it gave a test macro F1 of 0.400 against 0.338 for
#' `"train"` (8 x 8 grid), on yeast 0.474 against 0.470.
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
  check_no_dots(...)
  thresholds <- match.arg(thresholds)
  method <- match.arg(method)
  cv <- cv_setup(alpha, beta, measure, keep, parallel, progress)
  d <- mlls_inputs(x, y, r, intercept, kernel)
  warn_constant_labels(d$y)
  foldid <- cv_foldid(d$y, nfolds, foldid)
  tol <- check_tol(tol, d$x)

  # The folds: each decomposed once, all grid points scored on its validation rows.
  y_pm <- 2 * d$y - 1
  train_out <- if (thresholds == "train") "thresholds" else "nothing"
  bar <- cv$progress_bar(max(foldid) + 1)
  folds <- cv_run_folds(d$x, function(tr) y_pm[tr, , drop = FALSE], foldid, cv$grid, d$r,
                        d$intercept, tol, cv_gram(d, method, gamma, degree, coef0),
                        train_out, cv$parallel, bar)
  oof <- cv_stack(folds, "scores", foldid, colnames(d$y), cv$grid)
  thr <- if (thresholds == "train") simplify2array(lapply(folds, `[[`, "thresholds"), higher = TRUE)
  cvfold <- cv_score(oof, d$y, foldid, thr, cv)

  # The final fit at the best pair.
  best <- best_grid_point(rowMeans(cvfold), cv$grid, cv$higher_better)
  a <- cv$grid$alpha[best]
  b <- cv$grid$beta[best]
  fit <- mlls_solve(d$x, y_pm, a, b, d$r, d$intercept, d$kernel, gamma, degree, coef0,
                    method, tol)
  fit <- mlls_finish(fit, d$y, a, b, d$r, fit_call(call, a, b))
  if (thresholds == "oof") fit <- oof_thresholds(fit, oof[, , best], d$y)
  cv_close(bar)
  cv_result(cv, cvfold, best, foldid, thresholds, oof, folds, fit, call, "cv_mlls")
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

# The grid, the measure and the switches every cross-validation shares.
cv_setup <- function(alpha, beta, measure, keep, parallel, progress) {
  alpha <- check_grid(alpha, "alpha")
  beta <- check_grid(beta, "beta")
  grid <- expand.grid(alpha = alpha, beta = beta)
  if (any(is.infinite(grid$alpha) & is.infinite(grid$beta)))
    stop_arg("the grid pairs alpha = Inf with beta = Inf; drop one of them")
  info <- measure_table()
  ok <- info$name[info$needs != "prob"]
  if (!is.character(measure) || length(measure) != 1 || !measure %in% ok)
    stop_arg("'measure' must be one of ", paste(ok, collapse = ", "))
  progress <- check_flag(progress, "progress")
  list(alpha = alpha, beta = beta, grid = grid, measure = measure,
       code = match(measure, info$name) - 1L,
       higher_better = info$higher_better[match(measure, info$name)],
       keep = check_flag(keep, "keep"), parallel = check_flag(parallel, "parallel"),
       progress_bar = function(steps) if (progress) utils::txtProgressBar(0, steps, style = 3))
}

cv_foldid <- function(y, nfolds, foldid) {
  foldid <- if (is.null(foldid)) ml_folds(y, nfolds) else check_foldid(foldid, nrow(y))
  warn_sparse_labels(y, foldid)
  foldid
}

# Every fold decomposed once in C and scored at every grid point.  targets(tr)
# gives the training targets of the rows tr; gram is the n x n matrix whose
# blocks the folds decompose, or NULL for the primal form on the rows of x;
# train_out says what comes back of the training rows besides the validation
# scores: "nothing", "thresholds" (per label, from the training scores) or
# "scores" (the training scores).
cv_run_folds <- function(x, targets, foldid, grid, r, intercept, tol, gram, train_out,
                         parallel, bar) {
  out <- match(train_out, c("nothing", "thresholds", "scores")) - 1L
  run_fold <- function(k) {
    tr <- which(foldid != k)
    if (is.null(gram)) {
      .Call(C_cv_mlls_fold_primal, native_matrix(x[tr, , drop = FALSE]),
            native_matrix(x[-tr, , drop = FALSE]), targets(tr), grid$alpha, grid$beta,
            as.integer(r), intercept, as.double(tol), out)
    } else {
      .Call(C_cv_mlls_fold_gram, gram, tr, targets(tr), grid$alpha, grid$beta,
            as.integer(r), intercept, as.double(tol), out)
    }
  }
  fold_apply(seq_len(max(foldid)), run_fold, parallel, bar)
}

# The folds' validation scores stacked into the n x m x (grid size) array of
# out-of-fold scores.
cv_stack <- function(folds, field, foldid, labels, grid) {
  first <- folds[[1]][[field]]
  oof <- array(0, c(length(foldid), dim(first)[2], nrow(grid)),
               dimnames = list(NULL, labels, grid_names(grid)))
  for (k in seq_along(folds)) oof[foldid == k, , ] <- folds[[k]][[field]]
  oof
}

# The measure of every grid point on every fold, the labels of a fold coming
# from thresholds (m x grid x folds), or from the out-of-fold scores of the
# other folds when thresholds is NULL.
cv_score <- function(oof, y, foldid, thresholds, cv) {
  if (is.null(thresholds))
    thresholds <- .Call(C_cv_oof_thresholds_call, oof, y, foldid, max(foldid))
  cvfold <- .Call(C_cv_measures_call, oof, y, foldid, thresholds, cv$code)
  dimnames(cvfold) <- list(grid_names(cv$grid), paste0("fold", seq_len(max(foldid))))
  cvfold
}

# The final fit's thresholds from all out-of-fold scores at the best pair.
oof_thresholds <- function(fit, oof, y) {
  res <- f1_thresholds(oof, y)
  fit$thresholds <- res$threshold
  fit$oof_f1 <- res$f1
  fit
}

cv_close <- function(bar) {
  if (is.null(bar)) return(invisible())
  utils::setTxtProgressBar(bar, bar$getVal() + 1)
  close(bar)
}

cv_result <- function(cv, cvfold, best, foldid, thresholds, oof, folds, fit, call, class) {
  shape <- function(v) matrix(v, length(cv$alpha), length(cv$beta),
                              dimnames = list(alpha = format_grid(cv$alpha),
                                              beta = format_grid(cv$beta)))
  structure(list(alpha = cv$alpha, beta = cv$beta, cvm = shape(rowMeans(cvfold)),
                 cvsd = shape(apply(cvfold, 1, stats::sd)), cvfold = cvfold,
                 alpha_best = cv$grid$alpha[best], beta_best = cv$grid$beta[best],
                 best = best, grid = cv$grid, measure = cv$measure,
                 higher_better = cv$higher_better, thresholds = thresholds,
                 foldid = foldid, oof = if (cv$keep) oof, fit = fit,
                 rank = vapply(folds, `[[`, 0L, "rank"), r = fit$r, call = call),
            class = class)
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
  score[is.na(score)] <- -Inf  # a measure undefined on some fold never wins
  cand <- which(score == max(score))
  cand[order(-grid$beta[cand], -grid$alpha[cand])][1]
}

fit_call <- function(call, alpha, beta) {
  args <- as.list(call)[-1L]
  keep <- intersect(names(args), c("x", "y", "r", "intercept", "kernel", "gamma",
                                   "degree", "coef0", "method", "tol"))
  as.call(c(quote(mlls), args[keep], list(alpha = alpha, beta = beta)))
}
