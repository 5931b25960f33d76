#' Predictions and coefficients of a cross-validated MLLS fit
#'
#' These delegate to the [mlls()] fit on all the data at the best pair of
#' alpha and beta, `object$fit`.
#'
#' @param object A result of [cv_mlls()].
#' @param ... Passed to [predict.mlls()] or [coef.mlls()].
#' @return As [predict.mlls()] and [coef.mlls()].
#' @export
predict.cv_mlls <- function(object, ...) stats::predict(object$fit, ...)

#' @rdname predict.cv_mlls
#' @export
coef.cv_mlls <- function(object, ...) stats::coef(object$fit, ...)

#' @export
print.cv_mlls <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat("\nCall:  ", paste(deparse(x$call), sep = "\n", collapse = "\n"), "\n\n", sep = "")
  cat(length(x$foldid), " instances, ", max(x$foldid), "-fold cross-validation over ",
      length(x$alpha), " alpha x ", length(x$beta), " beta values; thresholds from ",
      if (x$thresholds == "oof") "out-of-fold" else "training", " scores\n", sep = "")
  cat("measure: ", x$measure, " (", if (x$higher_better) "higher" else "lower",
      " is better)\n\n", sep = "")
  i <- x$best
  tab <- data.frame(alpha = x$grid$alpha[i], beta = x$grid$beta[i],
                    mean = x$cvm[i], sd = x$cvsd[i], r = x$r, row.names = "best")
  ridge <- which(x$grid$alpha == 0)
  if (class(x)[1] == "cv_mlls" && length(ridge) && !i %in% ridge) {
    j <- ridge[best_grid_point(x$cvm[ridge], x$grid[ridge, ], x$higher_better)]
    tab <- rbind(tab, data.frame(alpha = 0, beta = x$grid$beta[j], mean = x$cvm[j],
                                 sd = x$cvsd[j], r = NA, row.names = "best ridge (alpha = 0)"))
  }
  print(tab, digits = digits)
  cat("\n")
  invisible(x)
}
