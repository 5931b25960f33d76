#' Predict with MLML on new data
#'
#' MLML is transductive (see [mlml()], "New data"): the new rows join the
#' training rows as instances whose labels are all missing, the instance
#' graph is rebuilt on all of them, and the QP is solved again, warm-started
#' from the training solution.  The cost is that of a fit on
#' `n + nrow(newx)` rows.
#'
#' @param object A fit from [mlml()].
#' @param newx New data with the training columns (for a fit from the formula
#'   interface, a data frame with the variables of the formula).  Missing:
#'   the training rows' completed scores, `object$recovered`.
#' @param type `"class"` (the default, as for every method: see
#'   [predict.ml_fit()]) for a logical matrix (`score > threshold`),
#'   `"score"` for the scores in \[-1, 1\].
#' @param thresholds Per-label thresholds for `type = "class"`; by default
#'   those of the fit (see [mlml()], "What was reconstructed").
#' @param newdata,na.action As for [predict.ml_fit()].
#' @param ... Not used.
#' @return An n_new x m matrix with one column per label.
#' @examples
#' data(emotions)
#' train <- seq_len(400)
#' fit <- mlml(emotions$x[train, ], emotions$y[train, ])
#' pred <- predict(fit, emotions$x[-train, ])
#' ml_metrics(emotions$y[-train, ], pred = pred, measures = "macro_f1")
#' @export
predict.mlml <- function(object, newx, type = c("class", "score"), thresholds = NULL,
                         newdata, na.action = NULL, ...) {
  check_no_dots(...)
  type <- match.arg(type)
  if (missing(newx) && missing(newdata)) {
    if (type == "score") return(object$recovered)
    return(classify_scores(object$recovered, thresholds %||% object$thresholds,
                           object$labels))
  }
  predict.ml_fit(object, newx, type, thresholds, newdata, na.action)
}

# The new rows join the training rows, their labels all missing, and the QP
# is solved again, warm-started from the training solution.
ml_scores.mlml <- function(object, x, type = "score", y = NULL, ...) {
  check_no_options(list(...))
  nnew <- nrow(x)
  m <- length(object$labels)
  xall <- if (inherits(object$x, "sparseMatrix") || inherits(x, "sparseMatrix"))
    rbind(methods::as(object$x, "CsparseMatrix"), methods::as(x, "CsparseMatrix"))
  else rbind(object$x, x)
  Y <- rbind(object$y, matrix(0, nnew, m))
  Z0 <- rbind(unname(object$recovered), matrix(0, nnew, m))
  sol <- mlml_run(xall, Y, Z0, object$label_similarity, object$beta, object$gamma,
                  object$knn, object$loss, object$max_iter, object$tol)
  if (!sol$converged)
    warn_not_converged_msg("MLML stopped at 'max_iter' (", object$max_iter,
                           ") before reaching 'tol'")
  sol$Z[object$nobs + seq_len(nnew), , drop = FALSE]
}

#' @export
print.mlml <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat("\nCall:  ", paste(deparse(x$call), sep = "\n", collapse = "\n"), "\n\n", sep = "")
  cat("MLML (", x$loss, " loss) on ", x$nobs, " instances, ", length(x$labels), " labels, ",
      x$n_missing, " missing label(s) (",
      format(100 * x$n_missing / (x$nobs * length(x$labels)), digits = digits), "%)\n",
      sep = "")
  cat("beta = ", format(x$beta, digits = digits), ", gamma = ", format(x$gamma, digits = digits),
      ", ", x$knn, " nearest neighbours\n", sep = "")
  cat("projected gradient: ", x$iter, " steps, ",
      if (x$converged) "converged" else "not converged", ", objective ",
      format(x$objective[length(x$objective)], digits = digits), "\n\n", sep = "")
  invisible(x)
}
