# The scores of a linear model, br() and its relatives (the pipeline:
# predict.ml_fit() in R/predict.R): probabilities for the logistic learner,
# decision values otherwise.
ml_scores.br <- function(object, x, type = "score", y = NULL, ...) {
  check_no_options(list(...))
  if (!is.null(object$models))
    return(learner_predict_labels(object$learner, object$models, x, object$labels))
  linear_scores(x, object$W, object$intercept, object$link)
}

#' Coefficients of a linear multi-label baseline
#'
#' @param object A fit from [br()], [cca_ridge()], [cca_svm()] or [aso_svm()].
#' @param ... Not used.
#' @return The (d + 1) x m weights, intercept first, as `coef()` of a
#'   multivariate `lm` and of [mlls()]; for the logistic learner, on the scale
#'   of the log-odds.
#' @export
coef.br <- function(object, ...) {
  if (!is.null(object$models))
    stop_arg("a br fit with the learner '", object$learner$name, "' has no coefficients; ",
             "its models are in $models")
  rbind("(Intercept)" = object$intercept, object$W)
}

#' @export
print.br <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat("\nCall:  ", paste(deparse(x$call), sep = "\n", collapse = "\n"), "\n\n", sep = "")
  cat(linear_description(x, digits), " on ", x$nobs, " instances, ", x$n_features,
      " features, ", length(x$labels), " labels\n", sep = "")
  for (line in linear_details(x, digits)) cat(line, "\n", sep = "")
  cat("training macro F1 ", format(mean(x$train_f1), digits = digits),
      " with per-label thresholds tuned on the training scores\n\n", sep = "")
  invisible(x)
}

linear_description <- function(x, digits) {
  if (inherits(x, "cca_ridge")) return("CCA + ridge")
  if (inherits(x, "cca_svm")) return("CCA + linear SVM")
  if (inherits(x, "aso_svm")) return(paste0("ASO (", x$loss, " loss)"))
  if (is_learner(x$learner)) return(paste0("Binary relevance, learner '", x$learner$name, "'"))
  switch(x$learner, ridge = "Binary relevance, ridge",
         logistic = "Binary relevance, L2 logistic regression",
         svm = paste0("Binary relevance, L2 linear SVM (", x$loss, " loss)"))
}

linear_details <- function(x, digits) {
  fmt <- function(v) {
    v <- unique(v)
    if (length(v) == 1) format(v, digits = digits)
    else paste0(format(min(v), digits = digits), " to ", format(max(v), digits = digits))
  }
  out <- character()
  if (!is.null(x$cost)) out <- c(out, paste0("cost ", fmt(x$cost)))
  if (!is.null(x$projection))
    out <- c(out, paste0("CCA: ", ncol(x$projection), " directions, lambda = ",
                         format(x$lambda, digits = digits), ", canonical correlations ",
                         fmt(range(x$cor))))
  if (!is.null(x$Theta))
    out <- c(out, paste0("shared subspace r = ", nrow(x$Theta), ", alpha = ",
                         format(x$alpha, digits = digits), ", beta = ",
                         format(x$beta, digits = digits), "; ", x$n_iter,
                         " alternations", if (!x$converged) " (not converged)"))
  out
}
