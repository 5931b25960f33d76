# The probabilities of the labels' logistic models on the neighbours' label
# means (and the features, IBLR-ML+).
ml_scores.iblr <- function(object, x, type = "score", y = NULL, ...) {
  check_no_options(list(...))
  x <- apply_scaling(x, object$scaling)
  z <- neighbour_label_means(knn_search(object$x, object$k, x)$index, object$y)
  eta <- z %*% object$alpha + rep(object$intercept, each = nrow(z))
  if (object$use_features) eta <- eta + as.matrix(x %*% object$W)
  stats::plogis(eta)
}

#' @export
print.iblr <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat("\nCall:  ", paste(deparse(x$call), sep = "\n", collapse = "\n"), "\n\n", sep = "")
  cat(if (x$use_features) "IBLR-ML+" else "IBLR-ML", ", k = ", x$k,
      " neighbours (Euclidean), L2 logistic regression per label (cost ",
      paste(format(unique(range(x$cost)), digits = digits), collapse = " to "), "), on ",
      x$nobs, " instances, ", ncol(x$x), " features, ", length(x$labels), " labels\n",
      sep = "")
  cat("labels where P(label | neighbours", if (x$use_features) ", x", ") > 1/2\n\n", sep = "")
  invisible(x)
}
