#' Project or classify with an MDDM fit
#'
#' Works for fits from [mddm()] and [ssmddm()].
#'
#' @param object A fit from [mddm()] or [ssmddm()].
#' @param newx New data with the training columns: a numeric matrix, data frame
#'   or sparse `Matrix` (for a fit from the formula interface, a data frame
#'   with the variables of the formula).
#' @param type `"class"` (the default, as for every method: see
#'   [predict.ml_fit()]) for a logical matrix of predicted labels
#'   (`score > threshold`), `"score"` for the scores of the per-label
#'   classifier, `"projection"` for the projected data
#'   `(newx - center) %*% P` (n_new x k).
#' @param thresholds Per-label thresholds for `type = "class"` (one number, or
#'   one per label); by default those of the classifier, chosen on the
#'   training scores (or on out-of-fold scores by cross-validation).
#' @param newdata,na.action As for [predict.ml_fit()]: `newdata` is the same
#'   as `newx`, and `na.action` says what to do with rows that have missing
#'   values.
#' @param ... Not used: an unknown argument is an error.
#' @return A matrix: n_new x m, or n_new x k for `"projection"`.
#' @examples
#' data(yeast)
#' fit <- mddm(yeast$x[yeast$train, ], yeast$y[yeast$train, ], k = 5)
#' head(predict(fit, yeast$x[!yeast$train, ]))
#' head(predict(fit, yeast$x[!yeast$train, ], type = "projection"))
#' @export
predict.mddm <- function(object, newx, type = c("class", "score", "projection"),
                         thresholds = NULL, newdata, na.action = NULL, ...) {
  check_no_dots(...)
  predict.ml_fit(object, newx, match.arg(type), thresholds, newdata, na.action)
}

# The projection of new data, and the scores of the classifier on it.
ml_scores.mddm <- function(object, x, type = "score", y = NULL, ...) {
  check_no_options(list(...))
  z <- project_data(x, object$P, object$center)
  if (type == "projection") return(z)
  ml_scores(object$classifier, z / object$scale)
}

#' @export
print.mddm <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat("\nCall:  ", paste(deparse(x$call), sep = "\n", collapse = "\n"), "\n\n", sep = "")
  cat(if (inherits(x, "ssmddm")) "Shared-subspace MDDM" else "MDDM", " on ", x$nobs,
      " instances, ", nrow(x$P), " features, ", length(x$labels), " labels (",
      x$kernel, " label kernel)\n", sep = "")
  if (inherits(x, "ssmddm")) {
    cat(x$k, " least-squares targets (", format(100 * x$share, digits = digits),
        "% of the centred label kernel's spectrum); shared subspace r = ", x$r,
        ", alpha = ", format(x$alpha, digits = digits), ", beta = ",
        format(x$beta, digits = digits), "\n", sep = "")
  } else {
    cat("projection to k = ", x$k, " dimensions, mu = ", format(x$mu, digits = digits),
        ": ", format(100 * x$share, digits = digits), "% of the dependence (",
        length(x$values), " non-zero eigenvalues)\n", sep = "")
  }
  how <- switch(x$method, primal = "the d x d cross-product matrix",
                dual = "the n x n Gram matrix",
                direct = "the d x d generalised eigenproblem")
  cat("solved through ", how, if (!is.null(x$rank)) paste0(" (rank ", x$rank, ")"),
      "\n", sep = "")
  cat("classifier: per-label ridge regression on the projection, lambda = ",
      format(x$lambda, digits = digits), ";\n", threshold_note(x$classifier, digits),
      "\n\n", sep = "")
  invisible(x)
}

#' Plot the spectrum of an MDDM fit
#'
#' Draws the non-zero eigenvalues of the problem, those kept in the projection
#' in black: for [mddm()] the eigenvalues of the generalised eigenproblem (the
#' dependence each direction captures), for [ssmddm()] those of the centred
#' label kernel, whose top eigenvectors are the least-squares targets.
#'
#' @param x A fit from [mddm()] or [ssmddm()].
#' @param ... Graphical parameters passed to [plot()], replacing the defaults.
#' @return `x`, invisibly.
#' @examples
#' data(yeast)
#' plot(mddm(yeast$x[yeast$train, ], yeast$y[yeast$train, ], k = 0.8))
#' @export
plot.mddm <- function(x, ...) {
  v <- x$values
  i <- seq_along(v)
  what <- if (inherits(x, "ssmddm")) "centred label kernel" else "MDDM eigenproblem"
  args <- list(x = i, y = v, type = "h", lwd = 3,
               col = ifelse(i <= x$k, "black", "grey70"),
               xlab = "index", ylab = "eigenvalue",
               main = paste0("Spectrum of the ", what, " (k = ", x$k, ")"))
  dots <- list(...)
  args[names(dots)] <- dots
  do.call(graphics::plot, args)
  graphics::abline(v = x$k + 0.5, lty = 2, col = "grey40")
  invisible(x)
}

#' Coefficients of an MDDM fit
#'
#' @param object A fit from [mddm()] or [ssmddm()].
#' @param type `"P"` (the default): the d x k projection; `"U"`: the
#'   (d + 1) x m weights of the classifier's scores in the input space,
#'   intercept first, so that `cbind(1, newx) %*% coef(fit, "U")` equals
#'   `predict(fit, newx, type = "score")`.
#' @param ... Not used.
#' @return A matrix.
#' @export
coef.mddm <- function(object, type = c("P", "U"), ...) {
  check_no_dots(...)
  type <- match.arg(type)
  if (type == "P") return(object$P)
  U <- object$P %*% object$classifier$U / object$scale
  rbind("(Intercept)" = object$classifier$intercept - drop(object$center %*% U), U)
}

#' Summarise an MDDM fit
#'
#' @param object A fit from [mddm()] or [ssmddm()].
#' @param x A `summary.mddm` object.
#' @param digits Significant digits to print.
#' @param max_labels How many labels to print (the first ones); the whole
#'   table is in the `labels` component.
#' @param ... Not used.
#' @return An object of class `summary.mddm`: a list with the fit's settings,
#'   `spectrum` (each eigenvalue, its share of the sum and the cumulative
#'   share, and whether it is kept) and `labels` (per label: positives,
#'   threshold, training F1 of the classifier).
#' @export
summary.mddm <- function(object, ...) {
  check_no_dots(...)
  v <- object$values
  spectrum <- data.frame(eigenvalue = v, share = v / sum(v), cumulative = cumsum(v) / sum(v),
                         kept = seq_along(v) <= object$k)
  cls <- object$classifier
  labels <- data.frame(positives = cls$n_pos, threshold = cls$thresholds,
                       train_f1 = cls$train_f1, row.names = object$labels)
  if (threshold_source(cls) == "oof") {
    labels$train_f1 <- NULL
    if (!is.null(cls$oof_f1)) labels$oof_f1 <- cls$oof_f1
  }
  structure(list(call = object$call, k = object$k, method = object$method,
                 ssmddm = inherits(object, "ssmddm"), spectrum = spectrum,
                 labels = labels),
            class = "summary.mddm")
}

#' @rdname summary.mddm
#' @export
print.summary.mddm <- function(x, digits = max(3L, getOption("digits") - 3L),
                               max_labels = 20L, ...) {
  cat("\nCall:  ", paste(deparse(x$call), sep = "\n", collapse = "\n"), "\n\n", sep = "")
  cat(if (x$ssmddm) "Spectrum of the centred label kernel" else "MDDM spectrum",
      " (", x$method, " solution), k = ", x$k, ":\n", sep = "")
  show <- seq_len(min(nrow(x$spectrum), max(10L, x$k + 5L)))
  print(x$spectrum[show, ], digits = digits)
  if (length(show) < nrow(x$spectrum))
    cat("... and ", nrow(x$spectrum) - length(show), " smaller eigenvalues\n", sep = "")
  cat("\nPer-label classifier on the projection:\n")
  print_label_table(x$labels, digits, max_labels)
  f1 <- if (!is.null(x$labels$train_f1)) c(training = mean(x$labels$train_f1))
        else if (!is.null(x$labels$oof_f1)) c("out-of-fold" = mean(x$labels$oof_f1))
  if (length(f1)) cat("\n", names(f1), " macro F1 ", format(f1, digits = digits), "\n", sep = "")
  invisible(x)
}
