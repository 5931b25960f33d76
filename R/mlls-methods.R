#' Predict with an MLLS fit
#'
#' @param object A fit from [mlls()].
#' @param newx New data with the training columns: a numeric matrix, data frame
#'   or sparse `Matrix` (for a fit from the formula interface, a data frame
#'   with the variables of the formula).  For `kernel = "precomputed"`, the
#'   kernel matrix between the new points (rows) and the training points.
#' @param type `"score"` for the real-valued scores, `"class"` for a logical
#'   matrix of predicted labels (`score > threshold`).
#' @param thresholds Per-label thresholds for `type = "class"` (one number, or
#'   one per label); by default those stored in the fit.
#' @param ... Not used.
#' @return An n_new x m matrix with one column per label.
#' @examples
#' data(yeast)
#' fit <- mlls(yeast$x[yeast$train, ], yeast$y[yeast$train, ], alpha = 0.1, beta = 0.01)
#' head(predict(fit, yeast$x[!yeast$train, ]))
#' head(predict(fit, yeast$x[!yeast$train, ], type = "class"))
#' @export
predict.mlls <- function(object, newx, type = c("score", "class"),
                         thresholds = object$thresholds, ...) {
  type <- match.arg(type)
  if (missing(newx)) stop_arg("'newx' is missing: give the data to predict")
  score <- mlls_scores(object, newx)
  if (type == "score") return(score)
  thresholds <- check_thresholds(thresholds, object$labels)
  score > rep(thresholds, each = nrow(score))
}

mlls_scores <- function(object, newx) {
  if (!is.null(object$terms)) newx <- formula_newx(object, newx)
  if (identical(object$method, "kernel")) {
    kern <- object$kernel
    if (kern$name == "precomputed") {
      Knew <- check_kernel_matrix(newx, kern$n, "newx")
    } else {
      newx <- check_newx_columns(as_features(newx, "newx"), object$features,
                                 ncol(kern$x))
      Knew <- do.call(kernel_matrix, c(list(newx, kern$x, kernel = kern$name), kern$par))
    }
    if (kern$centered)
      Knew <- Knew - rowMeans(Knew) - rep(kern$center$col, each = nrow(Knew)) + kern$center$all
    score <- Knew %*% object$A
  } else {
    newx <- check_newx_columns(as_features(newx, "newx"), object$features, nrow(object$U))
    score <- as.matrix(newx %*% object$U)
  }
  score <- score + rep(object$intercept, each = nrow(score))
  dimnames(score) <- list(rownames(newx), object$labels)
  score
}

formula_newx <- function(object, newx) {
  if (!is.data.frame(newx)) return(newx)
  terms <- stats::delete.response(object$terms)
  mf <- stats::model.frame(terms, newx, xlev = object$xlevels, na.action = stats::na.fail)
  xm <- stats::model.matrix(terms, mf, contrasts.arg = object$contrasts)
  xm[, colnames(xm) != "(Intercept)", drop = FALSE]
}

check_thresholds <- function(thresholds, labels) {
  if (!is.numeric(thresholds) || anyNA(thresholds) ||
      !length(thresholds) %in% c(1L, length(labels)))
    stop_arg("'thresholds' must be one number or one per label (", length(labels), ")")
  if (length(thresholds) == 1) thresholds <- rep(thresholds, length(labels))
  if (!is.null(names(thresholds)) && setequal(names(thresholds), labels))
    thresholds <- thresholds[labels]
  thresholds
}

#' @export
print.mlls <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat("\nCall:  ", paste(deparse(x$call), sep = "\n", collapse = "\n"), "\n\n", sep = "")
  d <- if (is.null(x$U)) "kernel" else paste(nrow(x$U), "features")
  cat("MLLS on ", x$nobs, " instances, ", d, ", ", length(x$labels), " labels\n", sep = "")
  cat("shared subspace r = ", x$r, ", alpha = ", format(x$alpha, digits = digits),
      ", beta = ", format(x$beta, digits = digits), "\n", sep = "")
  how <- switch(x$method,
                primal = "the d x d cross-product matrix",
                dual = "the n x n Gram matrix",
                kernel = paste0("the n x n ", x$kernel$name, " kernel matrix"))
  if (identical(x$decomposition, "svd")) how <- "a thin SVD of the centred data"
  cat("solved through ", how, " (rank ", x$rank, ")\n", sep = "")
  cat("training macro F1 ", format(mean(x$train_f1), digits = digits),
      " with per-label thresholds tuned on the training scores\n\n", sep = "")
  invisible(x)
}

#' Summarise an MLLS fit
#'
#' One row per label: the number of positive training examples, the intercept,
#' the threshold, the training F1 it reaches, and the share of the label's
#' weight vector that lies in the shared subspace (\eqn{\|\Theta' v_l\| / \|u_l\|}{||Theta'v_l|| / ||u_l||},
#' linear fits only).
#'
#' @param object A fit from [mlls()].
#' @param x A `summary.mlls` object.
#' @param digits Significant digits to print.
#' @param ... Not used.
#' @return An object of class `summary.mlls`, a list with the fit's settings
#'   and the per-label table `labels`.
#' @export
summary.mlls <- function(object, ...) {
  tab <- data.frame(positives = object$n_pos, intercept = object$intercept,
                    threshold = object$thresholds, train_f1 = object$train_f1,
                    row.names = object$labels)
  if (!is.null(object$U)) {
    shared <- sqrt(colSums((t(object$Theta) %*% object$V)^2))
    tab$shared <- ifelse(colSums(object$U^2) > 0, shared / sqrt(colSums(object$U^2)), NA)
  }
  structure(list(call = object$call, nobs = object$nobs, r = object$r,
                 alpha = object$alpha, beta = object$beta, method = object$method,
                 rank = object$rank, labels = tab),
            class = "summary.mlls")
}

#' @rdname summary.mlls
#' @export
print.summary.mlls <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat("\nCall:  ", paste(deparse(x$call), sep = "\n", collapse = "\n"), "\n\n", sep = "")
  cat("MLLS, ", x$method, " solution of rank ", x$rank, "; r = ", x$r,
      ", alpha = ", format(x$alpha, digits = digits), ", beta = ",
      format(x$beta, digits = digits), "\n\n", sep = "")
  print(x$labels, digits = digits)
  cat("\ntraining macro F1 ", format(mean(x$labels$train_f1), digits = digits), "\n",
      sep = "")
  invisible(x)
}

#' Coefficients of an MLLS fit
#'
#' @param object A fit from [mlls()].
#' @param type `"U"` (the default): the (d + 1) x m weights of the scores,
#'   intercept first, as `coef()` of a multivariate `lm`; `"W"`: the weights
#'   outside the subspace; `"V"`: the r x m weights in the subspace; `"Theta"`:
#'   the r x d basis of the subspace.
#' @param ... Not used.
#' @return A matrix.
#' @export
coef.mlls <- function(object, type = c("U", "W", "V", "Theta"), ...) {
  type <- match.arg(type)
  if (type != "V" && is.null(object$U))
    stop_arg("a kernel fit has no weights in the input space; its dual ",
             "coefficients are in $A and $B")
  switch(type,
         U = rbind("(Intercept)" = object$intercept, object$U),
         W = object$W, V = object$V, Theta = object$Theta)
}
