#' Predict with an ML-kNN fit
#'
#' @param object A fit from [mlknn()].
#' @param newx New data with the training columns (a data frame of the
#'   variables for a fit from the formula interface).
#' @param type `"class"`: a logical matrix, the label where its score is above
#'   `thresholds` (1/2 by default: the paper's MAP rule); `"score"`: the
#'   posterior probabilities \eqn{P(H_1 \mid E)}{P(H1 | E)} of each label.
#' @param thresholds For `type = "class"`: one number, or one per label;
#'   0.5 by default.  F1-tuned thresholds (e.g. from [f1_thresholds()] on
#'   scores of held-out data) can be given here.
#' @param ... Not used.
#' @return An n_new x m matrix with one column per label.
#' @examples
#' tr <- mlss::emotions$train
#' fit <- mlknn(mlss::emotions$x[tr, ], mlss::emotions$y[tr, ])
#' head(predict(fit, mlss::emotions$x[!tr, ], type = "score"))
#' @export
predict.mlknn <- function(object, newx, type = c("class", "score"), thresholds = 0.5, ...) {
  check_no_dots(...)
  type <- match.arg(type)
  if (missing(newx)) stop_arg("'newx' is missing: give the data to predict")
  rows <- knn_prediction_rows(object, newx)
  score <- .Call(C_mlknn_score_call, rows$nbr, object$y, object$prior, unname(object$cond1),
                 unname(object$cond0))
  dimnames(score) <- list(rows$rownames, object$labels)
  stats::napredict(rows$na, knn_classes(score, type, thresholds, object$labels))
}

# Scores to labels (score > threshold) when type is "class".
knn_classes <- function(score, type, thresholds, labels) {
  if (type != "class") return(score)
  thresholds <- check_thresholds(thresholds, labels)
  score > rep(thresholds, each = nrow(score))
}

#' @export
print.mlknn <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat("\nCall:  ", paste(deparse(x$call), sep = "\n", collapse = "\n"), "\n\n", sep = "")
  cat("ML-kNN, k = ", x$k, " neighbours (Euclidean), smoothing s = ",
      format(x$s, digits = digits), ", on ", x$nobs, " instances, ", ncol(x$x),
      " features, ", length(x$labels), " labels\n", sep = "")
  cat("prior P(label): ", format(min(x$prior), digits = digits), " to ",
      format(max(x$prior), digits = digits), "; labels where the score > 1/2\n\n", sep = "")
  invisible(x)
}
