#' RBF kernel SVM (libsvm's C-SVC) on a shared kernel matrix
#'
#' `rbf_svm()` fits the support vector machine of libsvm's C-SVC with the
#' RBF kernel \eqn{k(u, v) = \exp(-\gamma \|u - v\|^2)}{k(u, v) = exp(-gamma |u - v|^2)}:
#' the same model as [e1071::svm()] at its defaults (cost 1,
#' \eqn{\gamma = 1/d}{gamma = 1/d}, the features scaled, stopping tolerance
#' 1e-3) and, with `probability = TRUE`, Platt's probabilities as libsvm fits
#' them.  `ml_learner_rbf_svm()` makes it a learner of the transformations
#' ([br()], [cc()], [lp()], [rakel()], [ecc()], ...; see [ml_learner()]).
#'
#' The dual problem is solved by SMO with libsvm's second-order working-set
#' selection and its stopping rule (the maximal violation below `tol`), the
#' bias as libsvm computes it.  Probabilities: libsvm's procedure, a
#' 5-fold cross-validation of the SVM (its shuffle drawn from R's generator,
#' as e1071's), Platt's sigmoid fitted to those decision values by libsvm's
#' `sigmoid_train()` (Newton's method with backtracking; Lin, Lin and Weng
#' 2007).  Several classes (a factor `y`, e.g. the label sets of [lp()]):
#' one binary SVM per pair of classes, in libsvm's order (classes in the
#' order of their first row), the class probabilities by libsvm's pairwise
#' coupling (Wu, Lin and Weng 2004); without probabilities, the class of the
#' most one-vs-one votes.
#'
#' What differs from e1071 is the work, not the model: the kernel matrix of
#' the training rows is computed once (by BLAS) and shared by every binary
#' problem of the fit (the cross-validation folds of Platt's sigmoids and the
#' pairs of a multi-class fit read its entries), and it is kept for the next
#' fit on the same `x` (the same matrix, e.g. the labels of [br()] or the
#' members of an ensemble that share rows and features): one kernel for all
#' labels.  Likewise the kernel between new rows and all training rows is
#' kept for the next prediction of another label on the same rows.  Only the
#' most recent `x` (and `newx`) is kept, and only when its matrix fits in
#' `cache_mb` megabytes; above that the kernel columns are computed as the
#' solver needs them (slower, no memory).  Call `rbf_svm_cache_clear()` to
#' release it.  The solver runs without libsvm's shrinking heuristic, which
#' changes its speed but not its stopping rule, and keeps the kernel in
#' double precision (libsvm: single), so decision values agree with e1071's
#' to about the tolerance, and predictions nearly always.
#'
#' *When to use which:* `ml_learner_rbf_svm()` for the RBF SVM with or
#' without Platt's probabilities (utiml's default base learner); it needs no
#' other package and is several times faster than `ml_learner_e1071()` on
#' methods that fit many labels or pairs on the same rows.  Keep
#' `ml_learner_e1071()` for e1071's other kernels, SVM types and options
#' (class weights, nu-SVC, regression), and where e1071's exact
#' floating-point results matter.
#'
#' `scale = TRUE` scales as e1071 does: every column to mean 0 and
#' standard deviation 1 on the training rows, unless some column is constant
#' there, in which case no column is scaled (e1071 warns; here
#' `model$scaled` says so, and the learner stays silent, as it would
#' otherwise warn once per label).
#'
#' @param x A numeric matrix (or sparse `Matrix`, made dense) of training rows.
#' @param y A logical vector (one label: the probability or score of `TRUE`)
#'   or a factor of classes (at least two present).
#' @param cost The cost C of the C-SVC (e1071's `cost`).
#' @param gamma The RBF width; `NULL`: 1 / `ncol(x)`.
#' @param probability Fit Platt's probabilities?  (`FALSE`: decision values
#'   and votes only, about a sixth of the work.)
#' @param scale Scale the columns as e1071 does (see Details)?
#' @param tol The stopping tolerance of the dual solver (e1071's
#'   `tolerance`, default 1e-3).
#' @param max_iter The solver's iteration limit per binary problem (libsvm's
#'   1e7); reaching it warns (class `"mlss_not_converged"`).
#' @param cache_mb The largest kernel matrix kept, in megabytes (training:
#'   n x n, prediction: new rows x n, 8 bytes an entry).
#' @param object,newx For `predict()`: a fit of `rbf_svm()` and new rows.
#' @param type For `predict()`: `"prob"` (class probabilities: a vector, the
#'   probability of `TRUE`, for a logical `y`; an n x K matrix for a factor),
#'   `"decision"` (decision values: of `TRUE` for a logical `y`, an n x P
#'   matrix of the one-vs-one pairs otherwise) or `"class"`.
#' @param ... Unused.
#' @return `rbf_svm()`: an object of class `"rbf_svm"` (the support vectors,
#'   their coefficients, the biases `rho`, the sigmoids `probA`, `probB`, the
#'   scaling).  `ml_learner_rbf_svm()`: a learner.
#' @references Fan, Chen and Lin (2005), Working set selection using second
#'   order information for training SVM, JMLR 6.  Lin, Lin and Weng (2007), A
#'   note on Platt's probabilistic outputs for support vector machines,
#'   Machine Learning 68.  Wu, Lin and Weng (2004), Probability estimates
#'   for multi-class classification by pairwise coupling, JMLR 5.
#' @seealso [ml_learner()], [ml_learner_e1071()].
#' @examples
#' d <- mlss::emotions
#' x <- d$x[d$train, ]
#' fit <- rbf_svm(x, d$y[d$train, 1])
#' head(predict(fit, d$x[!d$train, ]))
#' # as a learner: one kernel matrix for all six labels
#' b <- br(d, learner = ml_learner_rbf_svm(probability = FALSE))
#' ml_metrics(d$y[!d$train, ], pred = predict(b, d), measures = "macro_f1")
#' @export
rbf_svm <- function(x, y, cost = 1, gamma = NULL, probability = TRUE, scale = TRUE,
                    tol = 1e-3, max_iter = 1e7, cache_mb = 512) {
  cost <- check_positive(cost, "cost")
  probability <- check_flag(probability, "probability")
  scale <- check_flag(scale, "scale")
  tol <- check_positive(tol, "tol")
  max_iter <- check_whole(max_iter, "max_iter", 1, 2^52, what = "a whole number >= 1")
  cache_mb <- check_nonnegative(cache_mb, "cache_mb")
  if (inherits(x, "Matrix")) x <- as.matrix(x)
  if (!is.matrix(x) || !is.numeric(x)) stop_arg("'x' must be a numeric matrix")
  # anyNA(), min() and max() copy nothing (range(x, 0) copied x)
  if (length(x) && (anyNA(x) || !is.finite(min(x)) || !is.finite(max(x))))
    stop_arg("'x' contains NA, NaN or infinite values")
  n <- nrow(x)
  if (is.logical(y)) {
    if (anyNA(y)) stop_arg("'y' contains NA")
    levels <- c("FALSE", "TRUE")
    y <- factor(y, levels = c(FALSE, TRUE), labels = levels)
    binary <- TRUE
  } else if (is.factor(y)) {
    if (anyNA(y)) stop_arg("'y' contains NA")
    levels <- levels(y)
    binary <- FALSE
  } else {
    stop_arg("'y' must be a logical vector (one label) or a factor (classes)")
  }
  if (length(y) != n) stop_arg("'y' must have one entry per row of 'x' (", n, ")")
  seen <- unique(as.integer(y))  # libsvm's class order: that of the first rows
  if (length(seen) < 2)
    stop_arg("'y' must hold at least two classes (a constant label needs no SVM)")
  gamma <- if (is.null(gamma)) 1 / ncol(x) else check_positive(gamma, "gamma")
  prep <- rbf_train_kernel(x, gamma, scale, cache_mb)
  nc <- length(seen)
  cls <- match(as.integer(y), seen)
  res <- .Call(C_rbfsvm_train_call, prep$K, if (is.null(prep$K)) t(prep$xs), gamma, cls,
               nc, cost, tol, as.numeric(max_iter), probability)
  if (res$status == 1L)
    warn_not_converged_msg("rbf_svm(): the dual solver reached max_iter = ", max_iter,
                           " iterations before the tolerance ", tol,
                           "; raise max_iter, or the tolerance")
  # the pairs' support vectors: coefficients != 0, rows numbered among them
  pair_len <- unlist(lapply(seq_len(nc - 1L), function(i)
    tabulate(cls, nc)[i] + tabulate(cls, nc)[(i + 1L):nc]))
  pair <- rep(seq_along(pair_len), pair_len)
  nz <- res$coef != 0
  sv_train <- sort(unique(res$rows[nz]))
  structure(list(
    levels = levels, order = seen, binary = binary,
    x_sv = prep$xs[sv_train, , drop = FALSE], sv_train = sv_train,
    start = c(0L, cumsum(tabulate(pair[nz], length(pair_len)))),
    sv = match(res$rows[nz], sv_train), coef = res$coef[nz], rho = res$rho,
    probA = if (probability) res$probA, probB = if (probability) res$probB,
    center = prep$center, scale = prep$scale, scaled = !is.null(prep$center),
    gamma = gamma, cost = cost, tol = tol, train_id = prep$id, cache_mb = cache_mb,
    sigmoid_status = res$sig_status, n_features = ncol(x)),
    class = "rbf_svm")
}

#' @rdname rbf_svm
#' @export
predict.rbf_svm <- function(object, newx, type = c("prob", "decision", "class"), ...) {
  type <- match.arg(type)
  if (inherits(newx, "Matrix")) newx <- as.matrix(newx)
  if (!is.matrix(newx) || !is.numeric(newx) || ncol(newx) != object$n_features)
    stop_arg("'newx' must be a numeric matrix with ", object$n_features, " columns")
  if (type == "prob" && is.null(object$probA))
    stop_arg("the fit has no probabilities: fit with probability = TRUE, or use ",
             "type = \"decision\" or \"class\"")
  Kte <- rbf_predict_kernel(object, newx)
  nc <- length(object$order)
  res <- .Call(C_rbfsvm_predict_call, Kte, as.integer(object$start), as.integer(object$sv),
               object$coef, object$rho, if (type == "prob") object$probA,
               if (type == "prob") object$probB, nc)
  if (type == "prob") {
    P <- matrix(0, nrow(newx), length(object$levels),
                dimnames = list(rownames(newx), object$levels))
    P[, object$order] <- res$prob
    return(if (object$binary) P[, "TRUE"] else P)
  }
  if (type == "decision") {
    dec <- res$dec
    if (object$binary) return(if (object$order[1] == 2L) dec[, 1] else -dec[, 1])
    return(dec)
  }
  # libsvm's one-vs-one vote: the first class of most votes
  votes <- matrix(0L, nrow(newx), nc)
  p <- 0L
  for (i in seq_len(nc - 1L)) for (j in (i + 1L):nc) {
    p <- p + 1L
    win <- res$dec[, p] > 0
    votes[win, i] <- votes[win, i] + 1L
    votes[!win, j] <- votes[!win, j] + 1L
  }
  factor(object$levels[object$order[max.col(votes, ties.method = "first")]],
         levels = object$levels)
}

#' @export
print.rbf_svm <- function(x, ...) {
  cat("RBF SVM (C-SVC): ", length(x$order), " classes, ", length(x$sv_train),
      " support vectors, cost ", format(x$cost), ", gamma ", format(x$gamma),
      if (!x$scaled) ", features not scaled", if (!is.null(x$probA)) ", Platt's probabilities",
      "\n", sep = "")
  invisible(x)
}

#' @rdname rbf_svm
#' @export
ml_learner_rbf_svm <- function(cost = 1, gamma = NULL, probability = TRUE, scale = TRUE,
                               tol = 1e-3, max_iter = 1e7, cache_mb = 512) {
  fit <- function(x, y, cost = 1, gamma = NULL, probability = TRUE, scale = TRUE,
                  tol = 1e-3, max_iter = 1e7, cache_mb = 512)
    rbf_svm(x, y, cost = cost, gamma = gamma, probability = probability, scale = scale,
            tol = tol, max_iter = max_iter, cache_mb = cache_mb)
  predict <- function(model, newx) {
    if (!model$binary)
      return(if (!is.null(model$probA)) stats::predict(model, newx, type = "prob")
             else one_hot(stats::predict(model, newx, type = "class"), model$levels))
    stats::predict(model, newx, type = if (is.null(model$probA)) "decision" else "prob")
  }
  validate_ml_learner(with_type_of(new_ml_learner(
    "rbf svm", fit, predict, type = if (isTRUE(probability)) "prob" else "score",
    sparse = FALSE,
    params = list(cost = cost, gamma = gamma, probability = probability, scale = scale,
                  tol = tol, max_iter = max_iter, cache_mb = cache_mb),
    regression = FALSE, multiclass = TRUE), "probability"))
}

#' @rdname rbf_svm
#' @export
rbf_svm_cache_clear <- function() {
  rm(list = ls(rbf_cache, all.names = TRUE), envir = rbf_cache)
  invisible(NULL)
}

# The most recent training x with its scaling and kernel, and the most recent
# new rows with their kernel against those training rows.
rbf_cache <- new.env(parent = emptyenv())

# e1071's scaling: every column to mean 0, sd 1, unless one is constant.
rbf_scaling <- function(x, scale) {
  if (!scale || nrow(x) < 2) return(list(xs = x, center = NULL, scale = NULL))
  center <- colMeans(x)
  s <- sqrt(colSums(sweep(x, 2, center)^2) / (nrow(x) - 1))
  if (any(s == 0)) return(list(xs = x, center = NULL, scale = NULL))
  list(xs = sweep(sweep(x, 2, center), 2, s, "/"), center = center, scale = s)
}

# The scaled rows and their kernel (NULL above the cap), from the cache when
# x, gamma and scale are those of the last fit.
rbf_train_kernel <- function(x, gamma, scale, cache_mb) {
  fits <- 8 * nrow(x)^2 <= cache_mb * 2^20
  tr <- rbf_cache$train
  if (is.null(tr) || tr$gamma != gamma || tr$scale_flag != scale ||
      (fits && is.null(tr$K)) || !identical(tr$x, x)) {
    sc <- rbf_scaling(x, scale)
    rbf_cache$counter <- (rbf_cache$counter %||% 0) + 1
    tr <- list(x = x, gamma = gamma, scale_flag = scale, xs = sc$xs, center = sc$center,
               scale = sc$scale, id = rbf_cache$counter,
               K = if (fits) rbf_kernel(sc$xs, NULL, gamma))
    rbf_cache$pred <- NULL
    rbf_cache$train <- tr
  }
  # a kernel above this fit's cap is not used (nor kept for it)
  if (!fits) tr$K <- NULL
  tr
}

# The kernel between new rows and the model's support vectors: columns of the
# cached kernel against all training rows when the model comes from the
# cached training x.
rbf_predict_kernel <- function(object, newx) {
  scale_new <- function(z) {
    if (is.null(object$center)) return(z)
    sweep(sweep(z, 2, object$center), 2, object$scale, "/")
  }
  tr <- rbf_cache$train
  if (!is.null(tr) && identical(tr$id, object$train_id)) {
    pr <- rbf_cache$pred
    if (!is.null(pr) && pr$id == tr$id && identical(pr$newx, newx))
      return(pr$K[, object$sv_train, drop = FALSE])
    if (8 * nrow(newx) * nrow(tr$xs) <= object$cache_mb * 2^20) {
      K <- rbf_kernel(scale_new(newx), tr$xs, object$gamma)
      rbf_cache$pred <- list(id = tr$id, newx = newx, K = K)
      return(K[, object$sv_train, drop = FALSE])
    }
  }
  rbf_kernel(scale_new(newx), object$x_sv, object$gamma)
}

# exp(-gamma |u - v|^2) between the rows of x and z (NULL: x), by libsvm's
# formula |u|^2 + |v|^2 - 2u'v with the cross-products by BLAS (its rounding,
# a few eps times |u|^2 + |v|^2, is far below the kernel's on scaled data;
# kernel_matrix() guards against it for any data, at many times the cost).
# Mostly-zero rows (unscaled 0/1 features, e.g. medical's words) go through
# sparse products, which cost their non-zeros (as libsvm's representation).
rbf_kernel <- function(x, z, gamma) {
  nx <- rowSums(x^2)
  nz <- if (is.null(z)) nx else rowSums(z^2)
  sparse <- function(a) methods::as(methods::as(a, "CsparseMatrix"), "generalMatrix")
  mostly_zero <- function(a) length(a) > 1e4 && sum(a != 0) < 0.1 * length(a)
  cross <- if (mostly_zero(x) && (is.null(z) || mostly_zero(z))) {
    as.matrix(if (is.null(z)) Matrix::tcrossprod(sparse(x))
              else Matrix::tcrossprod(sparse(x), sparse(z)))
  } else if (is.null(z)) tcrossprod(x) else x %*% t(z)
  dimnames(cross) <- NULL
  K <- exp(-gamma * pmax(outer(nx, nz, "+") - 2 * cross, 0))
  if (is.null(z)) diag(K) <- 1
  K
}
