# The posterior probabilities of the labels given the neighbours' counts.
ml_scores.mlknn <- function(object, x, type = "score", y = NULL, ...) {
  check_no_options(list(...))
  nbr <- knn_neighbours(object, x)
  .Call(C_mlknn_score_call, nbr, object$y, object$prior, unname(object$cond1),
        unname(object$cond0))
}

# The k nearest training rows of checked new data, scaled as the training data.
knn_neighbours <- function(object, x) {
  knn_search(object$x, object$k, apply_scaling(x, object$scaling))$index
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
