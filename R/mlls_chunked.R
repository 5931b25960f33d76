#' MLLS, ridge and CCA from data in chunks, on future's backends
#'
#' With an [ml_chunks()] source as `x`, [mlls()], [cv_mlls()] and
#' [cca_ridge()] fit from sums over the rows (the count, the column means,
#' and the centred cross products \eqn{X_c'X_c}{Xc'Xc}, \eqn{X_c'Y_c}{Xc'Yc},
#' \eqn{Y_c'Y_c}{Yc'Yc}), on which the primal solution depends entirely: one
#' pass over the chunks gives the exact model, whatever the number of rows,
#' with memory for a chunk and a few d x d matrices.  `alpha = 0` is ridge
#' regression.
#'
#' @section Where the chunks are read:
#' The chunks are mapped with `future.apply::future_lapply()` (when installed)
#' on the workers of the `future::plan()` the user has set: sequentially by
#' default, `plan(multisession, workers = 2)` on local processes,
#' `plan(cluster, workers = c("node1", "node2"))` on other machines (which
#' must see the files), or a scheduler through `future.batchtools`.  Each
#' worker reads and reduces its own chunks; only the d x d and d x m sums
#' travel.  Each chunk is centred on its own means (in two passes) and the
#' sums are merged by the pairwise update of Chan, Golub and LeVeque, so
#' columns whose mean is large against their spread keep their digits.
#' Progress is reported through `progressr` when installed (wrap the call
#' in `progressr::with_progress()` or set `progressr::handlers(global =
#' TRUE)`), else with a text bar when the chunks run in this session.
#'
#' @section Failures and the cache:
#' A chunk that cannot be read, or whose columns differ from the first
#' chunk's, stops the fit with an error naming it (and how many others
#' failed); the other chunks still run to their end.  With `cache`, a folder,
#' each chunk's sums are saved there as soon as they are computed (with the
#' settings they depend on), and a rerun reads them back and computes only the
#' chunks that are missing.  Delete the folder when the data change.
#'
#' @section Cross-validation:
#' Each row belongs to one fold, fixed by `seed`: within chunk `i` the rows
#' are dealt to the folds in a random order that depends only on `i` and
#' `seed` (each fold gets `floor(n_i / k)` or one more of the chunk's rows),
#' whatever the worker; or by the fold column of the source (`fold` in
#' [ml_chunks()]).  The pass keeps the sums of every fold, and each fold's
#' training sums are the merge of the other folds' sums (this is the
#' subtraction of the fold from the total, done without its cancellation).
#' Every grid point of every fold is then solved from them, with no second
#' pass, and scored by the held-out squared error of the +1/-1 labels, which
#' the sums give exactly: for a fold with validation sums (n_v, means, S) and
#' a model (U, b),
#' \deqn{\sum_{i \in v} \|y_i - U'x_i - b\|^2 = tr(S_{yy}) - 2 tr(U'S_{xy}) + tr(U'S_{xx}U) + n_v \|\bar y_v - U'\bar x_v - b\|^2.}{sum ||y_i - U'x_i - b||^2 = tr(Syy) - 2 tr(U'Sxy) + tr(U'Sxx U) + n_v ||ybar_v - U'xbar_v - b||^2.}
#' `cvm` is the mean over folds of that sum divided by \eqn{n_v m}{n_v m}
#' (measure `"mse"`, lower is better); `best`, `best_1se` and the order of
#' ties are those of the in-memory [cv_mlls()].
#'
#' @section Thresholds from histograms:
#' Per-label F1 thresholds need the scores themselves, so they take a second
#' pass: at the fitted model for [mlls()] and [cca_ridge()] (`thresholds =
#' "train"`, the training scores), or at the chosen grid point for
#' [cv_mlls()] (`"oof"`, each row scored by its fold's model), which counts,
#' per label, the positives and the negatives whose score falls in each of
#' `bins` intervals of equal width between the lowest and the highest mean
#' score minus and plus 6 standard deviations (known from the sums), plus
#' one open interval on either side.  The threshold is the interval edge with
#' the best F1 (`score > threshold`; among equal F1 the highest), then the
#' chance rule of [f1_thresholds()] in its large-sample form: a label whose
#' best F1 is not above \eqn{2p/(1+p)}{2p/(1+p)} (p its prevalence) falls
#' back to the majority rule.  (The exact small-sample form, for labels with
#' rows x positives up to 1e8, is not applied.)
#'
#' **The bound.** Let \eqn{F^*} be the best F1 over all thresholds, reached
#' at a threshold \eqn{t^*} in the interval \eqn{(e_{k-1}, e_k]}, and
#' \eqn{P} the number of positives.  The edge \eqn{e_{k-1}} predicts the
#' rows \eqn{t^*} predicts plus the interval's rows at or below \eqn{t^*}:
#' at least as many true positives and at most \eqn{N_k} more false
#' positives (\eqn{N_k} the interval's negatives), so, with
#' \eqn{F = 2TP/(TP + FP + P)} increasing in TP,
#' \deqn{F^* - F(e_{k-1}) \le F^* \frac{N_k}{TP^* + FP^* + P + N_k} \le \frac{N_{max}}{P + N_{max}},}{F* - F(e) <= N_max / (P + N_max),}
#' \eqn{N_{max}} the largest count of negatives in one interval.  The fit
#' reports this bound per label (`f1_bound`; it holds for the best edge, before
#' the chance rule); the F1 of the chosen threshold
#' (`train_f1` or `oof_f1`) is exact for that threshold.
#'
#' @param x An [ml_chunks()] source.
#' @param alpha,beta,r,intercept,tol As for [mlls()] (`cv_mlls()`: the grid,
#'   as for [cv_mlls()]); `tol` is relative to the largest eigenvalue of the
#'   cross-product matrix.
#' @param thresholds `"train"` (a second pass for the F1 thresholds of the
#'   training scores), `"oof"` for `cv_mlls()` (of the out-of-fold scores at
#'   the chosen point), or `"none"` (every threshold 0, no second pass).
#' @param bins The number of score intervals of the threshold pass.
#' @param nfolds The number of folds (ignored with a fold column).
#' @param seed The seed of the fold rule (a whole number); by default drawn
#'   from the session's generator, so that `set.seed()` reproduces the folds.
#' @param select `"best"` or `"1se"`, as for [cv_mlls()].
#' @param lambda,cost As for [cca_ridge()].
#' @param cache `NULL` or a folder for each chunk's sums, see the section
#'   Failures and the cache.
#' @param progress Report progress over the chunks?
#' @param ... Not used: an unknown argument is an error.
#' @return For `mlls()`, an [mlls()] fit (`predict()` works as usual on a
#'   matrix, and [predict_chunks()] on a source), with `nobs` the rows used,
#'   `chunk_rows` the rows of each chunk, and `f1_bound`.  For `cv_mlls()`,
#'   an object of class `c("cv_mlls_chunks", "ml_cv")` with the components
#'   of [cv_mlls()] (`grid`, `cvm`, `cvsd`, `cvfold`, `best`, `best_1se`,
#'   `fit`, ...; `foldid` is `NULL`: `nfolds`, `seed` and `fold_rows` say
#'   what the folds were).  For `cca_ridge()`, a `c("cca_ridge", "br")` fit
#'   as [cca_ridge()] returns it (without `stage2`'s training details).
#' @seealso [ml_chunks()], [predict_chunks()], `vignette("beyond-memory")`.
#' @examples
#' x <- mlss::yeast$x[1:400, 1:20]
#' y <- mlss::yeast$y[1:400, 1:5]
#' parts <- split(seq_len(400), rep(1:4, c(150, 100, 99, 51)))
#' src <- ml_chunks(function(i) list(x = x[parts[[i]], ], y = y[parts[[i]], ]),
#'                  n_chunks = 4)
#' fit <- mlls(src, alpha = 0.1, beta = 0.01)
#' all.equal(fit$U, mlls(x, y, alpha = 0.1, beta = 0.01)$U)
#' cv <- cv_mlls(src, alpha = c(0, 0.1), beta = c(0.01, 1), nfolds = 3, seed = 1)
#' cv
#' cca_ridge(src, lambda = 0.01, cost = 1)
#' @name mlls.ml_chunks
#' @export
mlls.ml_chunks <- function(x, alpha, beta, r = NULL, intercept = TRUE,
                           thresholds = c("train", "none"), bins = 4096L, tol = NULL,
                           cache = NULL, progress = interactive(), ...) {
  check_no_dots(...)
  call <- match.call()
  call[[1L]] <- quote(mlls)
  pen <- check_mlls_penalties(alpha, beta)
  alpha <- pen$alpha
  beta <- pen$beta
  intercept <- check_flag(intercept, "intercept")
  thresholds <- match.arg(thresholds)
  bins <- check_bins(bins)
  progress <- check_flag(progress, "progress")
  ss <- source_sums(x, 1L, 1L, cache, progress)
  S <- ss$total
  r <- sums_rank(r, S, intercept)
  warn_constant_sums(S)
  fit <- sums_mlls_fit(S, alpha, beta, r, intercept, tol, call)
  fit$chunk_rows <- ss$rows
  if (thresholds == "train") {
    model <- list(U = list(fit$U), b = list(fit$intercept))
    h <- histogram_pass(x, ss$ref, model, 1L, 1L, sums_score_range(S, model), bins, progress)
    fit <- set_histogram_thresholds(fit, h, "train")
  }
  fit
}

#' @rdname mlls.ml_chunks
#' @export
cv_mlls.ml_chunks <- function(x, alpha = c(0, 10^(-6:0)), beta = 10^(-6:0), r = NULL,
                              nfolds = 5, seed = NULL, select = c("best", "1se"),
                              thresholds = c("oof", "none"), bins = 4096L,
                              intercept = TRUE, tol = NULL, cache = NULL,
                              progress = interactive(), ...) {
  call <- match.call()
  call[[1L]] <- quote(cv_mlls)
  check_no_dots(...)
  select <- match.arg(select)
  thresholds <- match.arg(thresholds)
  intercept <- check_flag(intercept, "intercept")
  bins <- check_bins(bins)
  progress <- check_flag(progress, "progress")
  if (!is.numeric(nfolds) || length(nfolds) != 1 || is.na(nfolds) || nfolds < 2 ||
      nfolds != round(nfolds))
    stop_arg("'nfolds' must be a whole number >= 2")
  nfolds <- as.integer(nfolds)
  if (is.null(seed)) seed <- sample.int(.Machine$integer.max, 1)
  if (!is.numeric(seed) || length(seed) != 1 || is.na(seed) || seed != round(seed))
    stop_arg("'seed' must be a whole number")
  ss <- source_sums(x, nfolds, seed, cache, progress)
  S <- ss$total
  m <- length(S$my)
  fold_n <- vapply(ss$folds, `[[`, 0, "n")
  if (any(fold_n == 0))
    stop_arg("fold(s) ", paste(which(fold_n == 0), collapse = ", "), " have no rows: ",
             "use fewer folds")
  rs <- if (is.null(r)) sums_rank(NULL, S, intercept) else
    unique(vapply(r, function(v) as.integer(min(check_rank(v, m), m)), 0L))
  axes <- mlls_grid_axes(alpha, beta, sort(unique(rs)))
  warn_constant_sums(S)
  grid <- do.call(expand.grid, axes)
  r_of <- function(g) if (is.null(grid$r)) rs[1] else grid$r[g]
  train <- fold_training_sums(ss$folds)
  tol_v <- sums_tol(tol, S)
  level <- chance_level()
  cvfold <- matrix(NA_real_, nrow(grid), nfolds,
                   dimnames = list(grid_names(grid), paste0("fold", seq_len(nfolds))))
  models <- vector("list", nfolds)
  for (f in seq_len(nfolds)) {
    dec <- sums_decompose(train[[f]], intercept, tol_v)
    models[[f]] <- dec
    for (g in seq_len(nrow(grid))) {
      ub <- sums_fold_point(dec, grid$alpha[g], grid$beta[g], r_of(g), level)
      cvfold[g, f] <- held_out_sse(ss$folds[[f]], ub$U, ub$b) / (fold_n[f] * m)
    }
  }
  cvm <- rowMeans(cvfold)
  cvsd <- apply(cvfold, 1, stats::sd) / sqrt(nfolds)
  order <- do.call(order, c(list(-grid$beta, -grid$alpha), if (!is.null(grid$r)) list(grid$r)))
  best <- best_grid_point(cvm, order, FALSE)
  best_1se <- one_se_point(cvm, cvsd, best, order, FALSE)
  chosen <- if (select == "1se") best_1se else best
  edge <- grid_edge(grid, axes, chosen, list(r = c(1, m)))
  if (length(edge)) message(edge_message(edge))
  point <- grid[chosen, , drop = FALSE]
  refit <- function(point, thr = NULL) {
    rr <- if (is.null(point$r)) rs[1] else point$r
    fit <- sums_mlls_fit(S, point$alpha, point$beta, rr, intercept, tol,
                         as.call(list(quote(mlls), alpha = point$alpha, beta = point$beta,
                                      r = rr)))
    if (!is.null(thr)) fit <- set_thresholds(fit, thr)
    fit
  }
  fit <- refit(point)
  if (thresholds == "oof") {
    model <- list(U = list(), b = list())
    for (f in seq_len(nfolds)) {
      ub <- sums_fold_point(models[[f]], point$alpha, point$beta, r_of(chosen), level)
      model$U[[f]] <- ub$U
      model$b[[f]] <- ub$b
    }
    rng <- sums_score_range(S, model)
    h <- histogram_pass(x, ss$ref, model, nfolds, seed, rng, bins, progress)
    fit <- set_histogram_thresholds(fit, h, "oof")
  }
  values <- unlist(lapply(names(grid), function(p)
    stats::setNames(list(grid[[p]][best], grid[[p]][best_1se]), paste0(p, c("_best", "_1se")))),
    recursive = FALSE)
  structure(c(list(grid = grid, axes = axes, cvm = shape_grid(cvm, axes),
                   cvsd = shape_grid(cvsd, axes), cvfold = cvfold, best = best,
                   best_1se = best_1se, select = select, chosen = chosen,
                   ties = sum(cvm == cvm[best], na.rm = TRUE), measure = "mse",
                   higher_better = FALSE, thresholds = thresholds, foldid = NULL,
                   nfolds = nfolds, seed = seed, fold_rows = fold_n, edge = edge,
                   fit = fit, refit = refit,
                   alpha = axes$alpha, beta = axes$beta, r = fit$r, rank = fit$rank,
                   chunk_rows = ss$rows, call = call), values),
            class = c("cv_mlls_chunks", "ml_cv"))
}

#' @export
print.cv_mlls_chunks <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat("\nCall:  ", paste(deparse(x$call), sep = "\n", collapse = "\n"), "\n\n", sep = "")
  sizes <- vapply(x$grid, function(v) length(unique(v)), 0L)
  cat(sum(x$fold_rows), " instances in ", length(x$chunk_rows), " chunks, ", x$nfolds,
      "-fold cross-validation from sums over ", nrow(x$grid), " grid points (",
      paste(sizes, names(sizes), "values", collapse = " x "), ")\n", sep = "")
  cat("measure: held-out squared error of the +1/-1 labels per entry (mse, lower is better)\n")
  print(cv_table(x), digits = digits)
  if (length(x$edge)) cat("\n", edge_message(x$edge), "\n", sep = "")
  cat("\nThe model in $fit is refitted at the ", if (x$select == "1se") "1se" else "best",
      " point", if (identical(x$thresholds, "oof"))
        ", thresholds from histograms of the out-of-fold scores", ".\n\n", sep = "")
  invisible(x)
}

#' @rdname mlls.ml_chunks
#' @export
cca_ridge.ml_chunks <- function(x, lambda, cost = NULL, r = NULL,
                                thresholds = c("train", "none"), bins = 4096L,
                                cache = NULL, progress = interactive(), ...) {
  call <- match.call()
  call[[1L]] <- quote(cca_ridge)
  check_no_dots(...)
  lambda <- check_penalty(lambda, "lambda")
  if (is.infinite(lambda)) stop_arg("'lambda' must be finite")
  thresholds <- match.arg(thresholds)
  bins <- check_bins(bins)
  progress <- check_flag(progress, "progress")
  ss <- source_sums(x, 1L, 1L, cache, progress)
  S <- ss$total
  n <- S$n
  m <- length(S$my)
  labels <- names(S$my)
  features <- names(S$mx)
  if (!is.null(r)) r <- check_rank(r, m)
  cost <- check_cost(cost, m)
  warn_constant_sums(S)
  # whitened labels Y~ = Yc E diag(1/sqrt(ev)): X'Y~ = Sxy E diag(1/sqrt(ev))
  e <- eigen(S$Syy, symmetric = TRUE)
  keep <- e$values > max(n, m) * .Machine$double.eps * max(e$values, 0)
  if (!any(keep)) stop_arg("the labels do not vary: there is nothing to correlate with")
  Wy <- e$vectors[, keep, drop = FALSE] %*% diag(1 / sqrt(e$values[keep]), sum(keep))
  Sw <- S
  Sw$Sxy <- S$Sxy %*% Wy
  Sw$my <- numeric(sum(keep))
  if (is.null(r)) r <- sum(keep)
  sub <- sums_mlls_solve(Sw, Inf, lambda, min(r, sum(keep)), TRUE, sums_tol(NULL, S))
  Theta <- t(sub$res$theta)                  # r x d
  q <- nrow(Theta)
  # the CCA eigenproblem inside span(Theta'), as cca_projection() solves it
  S1 <- Theta %*% S$Sxx %*% t(Theta) / n + lambda * diag(q)
  ZY <- Theta %*% Sw$Sxy / n
  ch <- chol((S1 + t(S1)) / 2)
  Linv <- backsolve(ch, diag(q))
  ev <- eigen(crossprod(Linv, ZY %*% t(ZY) %*% Linv) * n, symmetric = TRUE)
  A <- Linv %*% ev$vectors
  P <- t(Theta) %*% A                         # d x q
  dimnames(P) <- list(features, paste0("cc", seq_len(q)))
  # stage 2: ridge per label on Z = Xc P, from Z'Z = P'Sxx P and Z'Yc = P'Sxy
  Szz <- crossprod(P, S$Sxx %*% P)
  Szy <- crossprod(P, S$Sxy)
  W2 <- matrix(0, q, m)
  for (C in unique(cost)) {
    j <- which(cost == C)
    beta <- 1 / (2 * n * C)
    W2[, j] <- solve(Szz / n + beta * diag(q), Szy[, j, drop = FALSE] / n)
  }
  W <- P %*% W2
  dimnames(W) <- list(features, labels)
  intercept <- stats::setNames(sums_intercept(S, W), labels)
  dimnames(W2) <- list(colnames(P), labels)
  stage2 <- new_ml_fit(list(W = W2, intercept = stats::setNames(S$my, labels),
                            link = "identity", labels = labels, features = colnames(P)),
                       "br", n_features = nrow(W2))
  fit <- new_ml_fit(list(W = W, intercept = intercept,
                        thresholds = stats::setNames(rep(0, m), labels), link = "identity",
                        cost = stats::setNames(cost, labels), lambda = lambda,
                        projection = P, cor = stats::setNames(sqrt(pmax(ev$values, 0)),
                                                              colnames(P)),
                        center = S$mx, stage2 = stage2,
                        iter = stats::setNames(integer(m), labels), labels = labels,
                        features = features, n_pos = sums_positives(S), nobs = n,
                        chunk_rows = ss$rows, call = call),
                   c("cca_ridge", "br"), n_features = nrow(W))
  if (thresholds == "train") {
    model <- list(U = list(W), b = list(intercept))
    h <- histogram_pass(x, ss$ref, model, 1L, 1L, sums_score_range(S, model), bins, progress)
    fit <- set_histogram_thresholds(fit, h, "train")
  }
  fit
}

#' Predict chunk by chunk
#'
#' Scores the rows of an [ml_chunks()] source with a fitted model, one chunk
#' at a time, on the workers of the `future::plan()` set (see
#' [mlls.ml_chunks()]).  `predict(fit, source)` does the same for an
#' [mlls()] fit.
#'
#' @param object A fitted model with a `predict()` method (from [mlls()],
#'   [cca_ridge()], [br()], ...).
#' @param source An [ml_chunks()] source with the model's feature columns
#'   (label columns, if any, are ignored).
#' @param type `"score"` or `"class"`, as for [predict.mlls()].
#' @param folder `NULL` to return the predictions, or a folder to write one
#'   `.rds` file per chunk into (`pred-000001.rds`, ...).
#' @param progress Report progress over the chunks?
#' @return A list with one n_i x m matrix per chunk; with `folder`, the paths
#'   of the files written (invisibly).
#' @examples
#' x <- mlss::yeast$x[1:200, 1:10]
#' y <- mlss::yeast$y[1:200, 1:3]
#' src <- ml_chunks(function(i) list(x = x[(i - 1) * 100 + 1:100, ],
#'                                   y = y[(i - 1) * 100 + 1:100, ]), n_chunks = 2)
#' fit <- mlls(src, alpha = 0, beta = 0.1, thresholds = "none")
#' p <- predict_chunks(fit, src)
#' str(p)
#' @export
predict_chunks <- function(object, source, type = c("score", "class"), folder = NULL,
                           progress = interactive()) {
  if (!inherits(source, "ml_chunks")) stop_arg("'source' must come from ml_chunks()")
  type <- match.arg(type)
  progress <- check_flag(progress, "progress")
  if (!is.null(folder)) {
    if (!is.character(folder) || length(folder) != 1 || is.na(folder))
      stop_arg("'folder' must be NULL or the path of a folder")
    dir.create(folder, showWarnings = FALSE, recursive = TRUE)
    if (!dir.exists(folder)) stop_arg("'folder': cannot create '", folder, "'")
  }
  features <- object$features
  res <- chunk_apply(source, seq_len(source$n_chunks), function(i) {
    ch <- read_chunk(source, i)
    xi <- ch$x
    if (!is.null(features)) {
      miss <- setdiff(features, colnames(xi))
      if (length(miss))
        stop_arg(chunk_name(source, i), " lacks the feature(s) ", label_names(miss))
      xi <- xi[, features, drop = FALSE]
    }
    p <- if (nrow(xi) == 0)
      matrix(if (type == "class") logical(0) else numeric(0), 0, length(object$labels),
             dimnames = list(NULL, object$labels))
    else stats::predict(object, xi, type = type)
    if (is.null(folder)) return(p)
    f <- file.path(folder, sprintf("pred-%06d.rds", i))
    saveRDS(p, f)
    f
  }, progress)
  if (is.null(folder)) res else invisible(unlist(res))
}

# ---- the solver from sums ----------------------------------------------------------

check_bins <- function(bins) {
  if (!is.numeric(bins) || length(bins) != 1 || is.na(bins) || bins < 2 || bins > 2^20 ||
      bins != round(bins))
    stop_arg("'bins' must be a whole number from 2 to 2^20")
  as.integer(bins)
}

# The default r of mlls() from the sums' dimensions.
sums_rank <- function(r, S, intercept) {
  d <- length(S$mx)
  m <- length(S$my)
  if (!is.null(r)) {
    r <- check_rank(r, m)
    if (r > m) r <- structure(m, requested = r)
    return(r)
  }
  q <- min(d, m, S$n - intercept)
  as.integer(max(1, min(default_rank(m), ceiling(q / 2))))
}

sums_tol <- function(tol, S) {
  if (is.null(tol)) tol <- max(S$n, length(S$mx)) * .Machine$double.eps
  if (!is.numeric(tol) || length(tol) != 1 || is.na(tol) || !(tol >= 0 && tol < 1))
    stop_arg("'tol' must be a number in [0, 1)")
  as.numeric(tol)
}

sums_positives <- function(S) stats::setNames(round(S$n * (S$my + 1) / 2), names(S$my))

warn_constant_sums <- function(S) {
  npos <- sums_positives(S)
  none <- names(npos)[npos == 0]
  all <- names(npos)[npos == S$n]
  if (length(none))
    warning("label(s) ", paste0("'", none, "'", collapse = ", "),
            " have no positive example: kept, but never predicted", call. = FALSE)
  if (length(all))
    warning("label(s) ", paste0("'", all, "'", collapse = ", "),
            " are positive for every example: kept, and always predicted", call. = FALSE)
}

# The cross products the solution depends on: centred (intercept) or raw.
sums_cross <- function(S, intercept) {
  if (intercept) return(list(A = S$Sxx, B = S$Sxy))
  list(A = S$Sxx + S$n * tcrossprod(S$mx), B = S$Sxy + S$n * tcrossprod(S$mx, S$my))
}

# The eigendecomposition of the (centred) cross-product matrix, as the
# primal route of mlls() takes it: basis V1 (d x t), s (t), P = V1'B (t x m).
sums_decompose <- function(S, intercept, tol) {
  cp <- sums_cross(S, intercept)
  if (!all(is.finite(cp$A)) || !all(is.finite(cp$B)))
    stop_arg("the cross products of the data overflow: rescale the features")
  e <- eigen(cp$A, symmetric = TRUE)
  top <- max(abs(e$values), 0)
  keep <- e$values > tol * top
  V1 <- e$vectors[, keep, drop = FALSE]
  list(V1 = V1, s = sqrt(e$values[keep]), P = crossprod(V1, cp$B), n = S$n,
       mx = S$mx, my = S$my, mx_lo = S$mx_lo, my_lo = S$my_lo, intercept = intercept,
       d = length(S$mx), m = length(S$my))
}

# b = ybar - U'xbar, with both parts of the means.
sums_intercept <- function(S, U) {
  (S$my - drop(crossprod(U, S$mx))) + (S$my_lo - drop(crossprod(U, S$mx_lo)))
}

# U and b of one grid point from a fold's decomposition, through the same C
# routine as cv_mlls() (cv_mlls_score on a state whose "validation rows" are
# the basis vectors: its scores are then T, U = V1 T).
sums_fold_point <- function(dec, alpha, beta, r, level) {
  t <- length(dec$s)
  if (t == 0 || (is.infinite(beta))) {
    U <- matrix(0, dec$d, dec$m)
  } else {
    state <- list(s = dec$s, P = dec$P,
                  PPt = if (dec$m > t) tcrossprod(dec$P),
                  Zva = diag(1, t), Ztr = NULL, ybar = numeric(dec$m), ytr = NULL,
                  n_tr = as.integer(dec$n), level = as.double(level))
    Tm <- .Call(C_cv_mlls_score, state, as.double(alpha), as.double(beta),
                as.integer(max(1L, r)))$scores
    U <- dec$V1 %*% Tm
  }
  b <- if (dec$intercept) sums_intercept(dec, U) else numeric(dec$m)
  list(U = U, b = b)
}

# sum over the rows of V of ||y - U'x - b||^2 (y in +1/-1), from V's sums.
held_out_sse <- function(V, U, b) {
  if (V$n == 0) return(0)
  mean_res <- sums_intercept(V, U) - b
  sum(diag(V$Syy)) - 2 * sum(U * V$Sxy) + sum(U * (V$Sxx %*% U)) + V$n * sum(mean_res^2)
}

# The C fit of mlls() on pseudo-data with the same cross products: rows
# Xp = sqrt(t/n) diag(s) V1' (t x d) and targets Yp = sqrt(t/n) diag(1/s) V1'B,
# so that Xp'Xp / t = A / n and Xp'Yp / t = B / n (t = rank): the solver
# sees the problem of the n rows through t rows.  Not centred again (the sums
# are).  Returns mlls_solve()'s list, for mlls_finish().
sums_mlls_solve <- function(S, alpha, beta, r, intercept, tol) {
  dec <- sums_decompose(S, intercept, tol)
  t <- length(dec$s)
  if (t == 0) return(NULL)
  sc <- sqrt(t / S$n)
  Xp <- sc * (dec$s * t(dec$V1))
  colnames(Xp) <- names(S$mx)
  Yp <- sc * (dec$P / dec$s)
  # every kept eigenvalue is above tol of the largest: the C route keeps them
  fit <- mlls_solve(Xp, Yp, alpha, beta, r, intercept = FALSE, method = "primal",
                    tol = min(tol, 0.5 * min(dec$s)^2 / max(dec$s)^2), fitted = FALSE)
  fit$t <- t
  fit
}

# An mlls object from sums.
sums_mlls_fit <- function(S, alpha, beta, r, intercept, tol, call) {
  tol <- sums_tol(tol, S)
  labels <- names(S$my)
  m <- length(labels)
  fit <- sums_mlls_solve(S, alpha, beta, r, intercept, tol)
  if (is.null(fit))
    stop_arg("the features do not vary", if (intercept) " (after centring)",
             ": there is nothing to fit")
  # mlls_finish() with t stand-in rows (sdev = s / sqrt(n) comes out right)
  yfake <- matrix(FALSE, fit$t, m, dimnames = list(NULL, labels))
  out <- mlls_finish(fit, yfake, alpha, beta, r, call,
                     thr = list(threshold = numeric(m)))
  out$intercept[] <- if (intercept) sums_intercept(S, out$U) else 0
  out$n_pos <- sums_positives(S)
  out$nobs <- S$n
  out$threshold_source <- "none"
  out$train_f1 <- NULL
  if (beta == 0) note_rank(out$rank, S$n - intercept, length(S$mx))
  out
}

# ---- thresholds from histograms ----------------------------------------------------

# The interval edges per label: `bins` equal intervals between the lowest
# mean score minus 6 sd and the highest mean plus 6 sd over the models
# (mean and sd of x'U_l + b_l over all rows, from the sums).
sums_score_range <- function(S, model) {
  lo <- hi <- NULL
  for (f in seq_along(model$U)) {
    U <- model$U[[f]]
    mu <- drop(crossprod(U, S$mx)) + model$b[[f]]
    sd <- sqrt(pmax(colSums(U * (S$Sxx %*% U)) / S$n, 0))
    lo <- pmin(lo %||% Inf, mu - 6 * sd)
    hi <- pmax(hi %||% -Inf, mu + 6 * sd)
  }
  flat <- !(hi > lo)
  lo[flat] <- lo[flat] - 1
  hi[flat] <- hi[flat] + 1
  list(lo = lo, hi = hi)
}

# The second pass: per label, the counts of positives and of negatives in
# each interval (-Inf, e_1], (e_1, e_2], ..., (e_B, Inf) of the scores of
# model f at the rows of fold f (one model: every row).
histogram_pass <- function(source, ref, model, nfolds, seed, range, bins, progress) {
  m <- length(ref$labels)
  edges <- lapply(seq_len(m), function(l) seq(range$lo[l], range$hi[l], length.out = bins))
  per <- chunk_apply(source, seq_len(source$n_chunks), function(i) {
    ch <- conform_chunk(read_chunk(source, i), ref, i, source)
    fold <- if (nfolds > 1 && nrow(ch$x)) rows_fold(ch, i, nfolds, seed) else rep(1L, nrow(ch$x))
    counts <- chunk_histogram(ch$x, ch$y, fold, model, edges, bins)
    size <- length(ch$x)
    rm(ch)
    collect_garbage(size)
    counts
  }, progress, reduce = function(a, b) list(pos = a$pos + b$pos, neg = a$neg + b$neg))
  list(pos = per$pos, neg = per$neg, edges = edges)
}

# One chunk's counts: per label, the positives and the negatives of each
# interval, with the scores of model f at the rows of fold f.  A dense chunk
# is scored in blocks of rows, as its sums are taken (fold_block_sums()): the
# scores of a block and its rows of each fold are copies of a block, not of
# the chunk (an n x m score matrix and the fold subsets x[fold == f, ] of a
# chunk of 10^5 x 200 were 40 and 160 MB more per process).  The counts do
# not depend on the blocks.
chunk_histogram <- function(x, y, fold, model, edges, bins,
                            block = if (inherits(x, "sparseMatrix")) nrow(x) else block_rows(ncol(x))) {
  n <- nrow(x)
  m <- length(edges)
  pos <- neg <- matrix(0, bins + 1, m)
  if (n == 0) return(list(pos = pos, neg = neg))
  for (start in seq(1, n, by = block)) {
    r <- start:min(n, start + block - 1)
    xb <- if (length(r) == n) x else x[r, , drop = FALSE]
    yb <- y[r, , drop = FALSE]
    fb <- fold[r]
    score <- matrix(0, length(r), m)
    for (f in unique(fb)) {
      rows <- which(fb == f)
      xf <- if (length(rows) == length(r)) xb else xb[rows, , drop = FALSE]
      score[rows, ] <- as.matrix(xf %*% model$U[[f]]) + rep(model$b[[f]], each = length(rows))
    }
    for (l in seq_len(m)) {
      bin <- findInterval(score[, l], edges[[l]], left.open = TRUE) + 1L
      pos[, l] <- pos[, l] + tabulate(bin[yb[, l]], bins + 1)
      neg[, l] <- neg[, l] + tabulate(bin[!yb[, l]], bins + 1)
    }
  }
  list(pos = pos, neg = neg)
}

# F1 thresholds from the counts: candidates -Inf (every row predicted), the
# edges, Inf (none); among equal F1 the highest; then the large-sample
# chance rule.  Returns threshold, f1 (exact for the threshold chosen) and
# bound (see ?mlls.ml_chunks).
histogram_thresholds <- function(h) {
  m <- ncol(h$pos)
  thr <- f1 <- bound <- numeric(m)
  for (l in seq_len(m)) {
    p <- h$pos[, l]
    q <- h$neg[, l]
    P <- sum(p)
    n <- P + sum(q)
    # above candidate k (k = 0: -Inf, k = 1..B: edge k, k = B + 1: Inf)
    tp <- rev(cumsum(rev(c(p, 0))))
    fp <- rev(cumsum(rev(c(q, 0))))
    cand <- c(-Inf, h$edges[[l]], Inf)
    f <- ifelse(tp + fp + P > 0, 2 * tp / (tp + fp + P), 1)
    k <- max(which(f == max(f)))
    thr[l] <- cand[k]
    f1[l] <- f[k]
    bound[l] <- if (P > 0) max(q) / (P + max(q)) else 0
    if (P == 0) {
      thr[l] <- Inf
      f1[l] <- 1
    } else if (P < n && f1[l] <= 2 * (P / n) / (1 + P / n)) {
      thr[l] <- if (P < n / 2) Inf else -Inf
      f1[l] <- if (P < n / 2) 0 else 2 * P / (P + n)
    }
  }
  list(threshold = thr, f1 = f1, bound = bound)
}

set_histogram_thresholds <- function(fit, h, source) {
  th <- histogram_thresholds(h)
  labels <- fit$labels
  fit$thresholds <- stats::setNames(th$threshold, labels)
  if (source == "train") fit$train_f1 <- stats::setNames(th$f1, labels)
  else fit$oof_f1 <- stats::setNames(th$f1, labels)
  fit$f1_bound <- stats::setNames(th$bound, labels)
  fit$threshold_source <- source
  fit$histograms <- h
  fit
}
