# The scores of an MLLS fit (the pipeline: predict.ml_fit() in R/predict.R).
ml_scores.mlls <- function(object, x, type = "score", y = NULL, ...) {
  check_no_options(list(...))
  if (identical(object$method, "kernel")) {
    kern <- object$kernel
    Knew <- if (kern$name == "precomputed") x
            else do.call(kernel_matrix, c(list(x, kern$x, kernel = kern$name), kern$par))
    if (kern$centered)
      Knew <- Knew - rowMeans(Knew) - rep(kern$center$col, each = nrow(Knew)) + kern$center$all
    score <- Knew %*% object$A
  } else {
    score <- as.matrix(x %*% object$U)
  }
  score <- score + rep(object$intercept, each = nrow(score))
  dimnames(score) <- list(rownames(x), object$labels)
  score
}

# New data of a kernel fit on a precomputed kernel: the kernel matrix between
# the new points and the training points.
ml_newx.mlls <- function(object, x, arg = "newx") {
  if (identical(object$kernel$name, "precomputed"))
    return(check_kernel_matrix(x, object$kernel$n, arg))
  ml_newx.default(object, x, arg)
}

# The scores of new data given as the user gives them, for a solution of
# mlls_solve() that is not a fit (lewl's ridge regression).
mlls_scores <- function(object, newx) {
  kern <- object$kernel
  object$n_features <- if (is.null(kern)) nrow(object$U)
                       else if (kern$name == "precomputed") kern$n else ncol(kern$x)
  ml_scores.mlls(object, ml_newx.mlls(object, newx))
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
  cat(threshold_note(x, digits), "\n\n", sep = "")
  invisible(x)
}

#' Fitted values and residuals are not kept
#'
#' Fits from [mlls()], [mddm()] and [ssmddm()] do not keep their training data
#' (a large or sparse `x` would be copied into every fit), so `fitted()` and
#' `residuals()` stop with an explanation instead of returning `NULL`:
#' `predict(fit, x)` gives the training scores.
#'
#' @param object A fit.
#' @param ... Not used.
#' @return Nothing: an error.
#' @name fitted.mlls
#' @export
fitted.mlls <- function(object, ...) no_training_data("fitted")

#' @rdname fitted.mlls
#' @export
residuals.mlls <- function(object, ...) no_training_data("residuals")

#' @rdname fitted.mlls
#' @export
fitted.mddm <- function(object, ...) no_training_data("fitted")

#' @rdname fitted.mlls
#' @export
residuals.mddm <- function(object, ...) no_training_data("residuals")

#' Summarise an MLLS fit
#'
#' One row per label: the number of positive training examples, the intercept,
#' the threshold, the F1 it reaches on the scores it was chosen on (training
#' F1 `train_f1`, or out-of-fold F1 `oof_f1` when cross-validation chose the
#' thresholds), and the share of the label's
#' weight vector that lies in the shared subspace (\eqn{\|\Theta' v_l\| / \|u_l\|}{||Theta'v_l|| / ||u_l||},
#' linear fits only).
#'
#' @param object A fit from [mlls()].
#' @param x A `summary.mlls` object.
#' @param digits Significant digits to print.
#' @param max_labels How many labels to print (the first ones); the whole
#'   table is in the `labels` component.
#' @param ... Not used.
#' @return An object of class `summary.mlls`, a list with the fit's settings
#'   and the per-label table `labels`.
#' @export
summary.mlls <- function(object, ...) {
  check_no_dots(...)
  tab <- data.frame(positives = object$n_pos, intercept = object$intercept,
                    threshold = object$thresholds, train_f1 = object$train_f1,
                    row.names = object$labels)
  # the training F1 belongs to the thresholds tuned on the training scores:
  # with out-of-fold thresholds, their out-of-fold F1 replaces it
  if (threshold_source(object) == "oof") {
    tab$train_f1 <- NULL
    if (!is.null(object$oof_f1)) tab$oof_f1 <- object$oof_f1
  }
  if (!is.null(object$U)) {
    shared <- sqrt(colSums((t(object$Theta) %*% object$V)^2))
    tab$shared <- ifelse(colSums(object$U^2) > 0, shared / sqrt(colSums(object$U^2)), NA)
  }
  structure(list(call = object$call, nobs = object$nobs, r = object$r,
                 alpha = object$alpha, beta = object$beta, method = object$method,
                 rank = object$rank, labels = tab,
                 threshold_source = threshold_source(object)),
            class = "summary.mlls")
}

#' @rdname summary.mlls
#' @export
print.summary.mlls <- function(x, digits = max(3L, getOption("digits") - 3L),
                               max_labels = 20L, ...) {
  cat("\nCall:  ", paste(deparse(x$call), sep = "\n", collapse = "\n"), "\n\n", sep = "")
  cat("MLLS, ", x$method, " solution of rank ", x$rank, "; r = ", x$r,
      ", alpha = ", format(x$alpha, digits = digits), ", beta = ",
      format(x$beta, digits = digits), "\n\n", sep = "")
  print_label_table(x$labels, digits, max_labels)
  f1 <- if (!is.null(x$labels$train_f1)) c(training = mean(x$labels$train_f1))
        else if (!is.null(x$labels$oof_f1)) c("out-of-fold" = mean(x$labels$oof_f1))
  cat("\nthresholds chosen on the ",
      if (identical(x$threshold_source, "oof")) "out-of-fold" else "training", " scores",
      if (length(f1)) paste0("; ", names(f1), " macro F1 ", format(f1, digits = digits)),
      "\n", sep = "")
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
  check_no_dots(...)
  type <- match.arg(type)
  if (type != "V" && is.null(object$U))
    stop_arg("a kernel fit has no weights in the input space; its dual ",
             "coefficients are in $A and $B")
  switch(type,
         U = rbind("(Intercept)" = object$intercept, object$U),
         W = object$W, V = object$V, Theta = object$Theta)
}
