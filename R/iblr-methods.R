#' Predict with an IBLR fit
#'
#' @param object A fit from [iblr()].
#' @param newx New data with the training columns (a data frame of the
#'   variables for a fit from the formula interface).
#' @param type `"class"`: a logical matrix, the label where its probability is
#'   above `thresholds` (1/2 by default: the paper's rule); `"score"`: the
#'   probabilities \eqn{P(y_l = 1 \mid x)}{P(y_l = 1 | x)} of the labels'
#'   logistic models.
#' @param thresholds For `type = "class"`: one number, or one per label;
#'   0.5 by default.
#' @param ... Not used.
#' @return An n_new x m matrix with one column per label.
#' @examples
#' tr <- mlss::emotions$train
#' fit <- iblr(mlss::emotions$x[tr, ], mlss::emotions$y[tr, ])
#' head(predict(fit, mlss::emotions$x[!tr, ], type = "score"))
#' @export
predict.iblr <- function(object, newx, type = c("class", "score"), thresholds = 0.5, ...) {
  check_no_dots(...)
  type <- match.arg(type)
  if (missing(newx)) stop_arg("'newx' is missing: give the data to predict")
  rows <- knn_prediction_rows(object, newx)
  z <- neighbour_label_means(rows$nbr, object$y)
  eta <- z %*% object$alpha + rep(object$intercept, each = nrow(z))
  if (object$use_features) eta <- eta + as.matrix(rows$x %*% object$W)
  score <- stats::plogis(eta)
  dimnames(score) <- list(rows$rownames, object$labels)
  stats::napredict(rows$na, knn_classes(score, type, thresholds, object$labels))
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
