# The scores f(newx) D: the regression from the features to the embedding,
# decoded to the labels.
ml_scores.lewl <- function(object, x, type = "score", y = NULL, ...) {
  check_no_options(list(...))
  as.matrix(object$regression$predict(x) %*% object$D)
}

#' @export
print.lewl <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat("\nCall:  ", paste(deparse(x$call), sep = "\n", collapse = "\n"), "\n\n", sep = "")
  cat("LEWL on ", x$nobs, " instances, ", x$d, " features, ", length(x$labels),
      " labels (", sum(x$missing), " missing entries, ",
      format(100 * mean(x$missing), digits = digits), "%)\n", sep = "")
  cat("embedding k = ", x$k, ", lambda = ", format(x$lambda, digits = digits),
      ", beta = ", format(x$beta, digits = digits), "; graph: ", x$knn,
      " neighbours, t = ", format(x$t, digits = digits), "; kernel gamma = ",
      format(x$gamma, digits = digits), "\n", sep = "")
  cat(if (x$converged) "converged" else "NOT converged", " after ", x$iterations,
      " iterations (", x$recovery, " recovery), objective ",
      format(x$objective[length(x$objective)], digits = digits), "\n", sep = "")
  cat("regression to the embedding: ", x$regression$type,
      if (x$regression$type != "user") paste0(" (penalty ", format(x$ridge, digits = digits), ")"),
      "; threshold: ", if (x$threshold_type == "global")
        paste0("one cut at ", format(x$thresholds[1], digits = digits))
      else "one cut per label", " (F1 on the observed training entries)\n\n", sep = "")
  invisible(x)
}

#' @export
summary.lewl <- function(object, ...) {
  check_no_dots(...)
  miss <- object$missing
  rec <- object$recovered
  tab <- data.frame(missing = colSums(miss),
                    observed_positive = colSums(rec * !miss),
                    recovered_mean = ifelse(colSums(miss) > 0,
                                            colSums(rec * miss) / pmax(colSums(miss), 1), NA),
                    threshold = object$thresholds, row.names = object$labels)
  structure(list(fit = object, labels = tab), class = "summary.lewl")
}

#' @export
print.summary.lewl <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  print(x$fit, digits = digits)
  cat("Per label (recovered_mean: mean score of the missing entries):\n")
  print(x$labels, digits = digits)
  invisible(x)
}

#' Parts of a LEWL fit
#'
#' @param object A fit from [lewl()].
#' @param type `"D"` for the k x m decoder (default), `"Z"` for the n x k
#'   embedding of the training instances.
#' @param ... Not used.
#' @return A matrix.
#' @examples
#' data(yeast, package = "mlss")
#' fit <- lewl(yeast$x[1:200, ], yeast$y[1:200, ], k = 3)
#' coef(fit)
#' @export
coef.lewl <- function(object, type = c("D", "Z"), ...) {
  check_no_dots(...)
  type <- match.arg(type)
  object[[type]]
}

#' Plot the objective of a LEWL fit
#'
#' Draws the objective after each iteration of the alternating updates.
#'
#' @param x A fit from [lewl()].
#' @param ... Graphical parameters passed to [plot()], replacing the defaults.
#' @return `x`, invisibly.
#' @examples
#' data(yeast, package = "mlss")
#' plot(lewl(yeast$x[1:200, ], yeast$y[1:200, ], k = 3))
#' @export
plot.lewl <- function(x, ...) {
  do.call(graphics::plot, lewl_plot_args(x, ...))
  invisible(x)
}

# plot()'s arguments for a fit's objective: the defaults, replaced by `...`.
lewl_plot_args <- function(x, ...) {
  iter <- seq_along(x$objective)
  defaults <- list(x = iter, y = x$objective, type = "b", pch = 20, xlab = "iteration",
                   ylab = "objective", main = "LEWL objective")
  # a short run gets a tick per iteration, not fractional ones (1.2, 1.4, ...)
  if (length(iter) %in% 2:5) defaults$xaxp <- c(1, length(iter), length(iter) - 1)
  utils::modifyList(defaults, list(...))
}
