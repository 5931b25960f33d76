#' Predictions and coefficients of a cross-validated model
#'
#' By default these delegate to `object$fit`, the model refitted on all the
#' data at the chosen grid point.  `s = "best"` or `s = "1se"` use the best or
#' the one-standard-error point instead, and hyperparameters given by name
#' (e.g. `alpha = 0, beta = 1` for [cv_mlls()]) any other point; the model is
#' then refitted on the data the cross-validation kept, with the out-of-fold
#' thresholds of that grid point (or its own training thresholds, with a
#' message, at a point off the grid).
#'
#' @param object A result of [cv_mlls()], [cv_ssmddm()] or [ml_cv()].
#' @param newx New rows, as for the fitted model's `predict()` method.
#' @param s Which grid point: `"chosen"` (the one of `object$fit`), `"best"`
#'   or `"1se"`.
#' @param ... Hyperparameters of the grid by name (see above), then arguments
#'   of the fitted model's `predict()` or `coef()` method (e.g. `type`).
#' @return As the fitted model's `predict()` and `coef()` methods.
#' @examples
#' set.seed(1)
#' cv <- cv_mlls(mlss::yeast$x[1:300, ], mlss::yeast$y[1:300, ], alpha = c(0, 1),
#'               beta = c(0.01, 1), nfolds = 3)
#' head(predict(cv, mlss::yeast$x[301:310, ], type = "class"))
#' head(predict(cv, mlss::yeast$x[301:310, ], s = "1se"))
#' dim(coef(cv, alpha = 0, beta = 0.1))
#' @export
predict.ml_cv <- function(object, newx, s = c("chosen", "best", "1se"), ...) {
  m <- cv_model(object, match.arg(s), list(...))
  do.call(stats::predict, c(list(m$fit, newx), m$rest))
}

#' @rdname predict.ml_cv
#' @export
coef.ml_cv <- function(object, s = c("chosen", "best", "1se"), ...) {
  m <- cv_model(object, match.arg(s), list(...))
  do.call(stats::coef, c(list(m$fit), m$rest))
}

# The model at the grid point asked for, and the arguments left for predict().
cv_model <- function(object, s, args) {
  named <- names(args) %in% names(object$grid)
  if (!any(named)) {
    chosen <- if (object$select == "1se") object$best_1se else object$best
    i <- switch(s, chosen = chosen, best = object$best, "1se" = object$best_1se)
    fit <- if (i == chosen) object$fit else
      object$refit(object$grid[i, , drop = FALSE], object$oof_thresholds[, i])
    return(list(fit = fit, rest = args))
  }
  if (s != "chosen") stop_arg("give either 's' or values of the hyperparameters, not both")
  point <- object$grid[object$best, , drop = FALSE]
  for (p in names(args)[named]) {
    v <- args[[p]]
    if (!is.numeric(v) || length(v) != 1 || is.na(v))
      stop_arg("'", p, "' must be one number")
    point[[p]] <- v
  }
  rest <- args[!named]
  i <- which(do.call(paste, object$grid) == do.call(paste, point))
  if (!length(i) && identical(object$thresholds, "oof"))
    message("this point is not on the grid: its thresholds come from the training scores")
  thr <- if (length(i)) object$oof_thresholds[, i[1]]
  list(fit = object$refit(point, thr), rest = rest)
}

#' @export
print.ml_cv <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat("\nCall:  ", paste(deparse(x$call), sep = "\n", collapse = "\n"), "\n\n", sep = "")
  sizes <- vapply(x$grid, function(v) length(unique(v)), 0L)
  cat(length(x$foldid), " instances, ", max(x$foldid), "-fold cross-validation over ",
      nrow(x$grid), " grid points (", paste(sizes, names(sizes), "values", collapse = " x "),
      "); thresholds from ", if (identical(x$thresholds, "oof")) "out-of-fold" else "training",
      " scores\n", sep = "")
  cat("measure: ", x$measure, " (", if (x$higher_better) "higher" else "lower",
      " is better); se = standard error over folds\n\n", sep = "")
  print(cv_table(x), digits = digits)
  if (x$ties > 1)
    cat("\n", x$ties, " grid points tie at the best mean: the most regularised is taken\n",
        sep = "")
  cat("\nThe model in $fit is refitted at the ", if (x$select == "1se") "1se" else "best",
      " point.\n\n", sep = "")
  invisible(x)
}

# The rows print() shows: the best and one-standard-error points, and those
# a method adds (cv_table_extra()).
cv_table <- function(x) {
  row <- function(i, name)
    data.frame(x$grid[i, , drop = FALSE], mean = mean(x$cvfold[i, ]),
               se = stats::sd(x$cvfold[i, ]) / sqrt(ncol(x$cvfold)), row.names = name,
               check.names = FALSE)
  tab <- rbind(row(x$best, "best"), row(x$best_1se, "1se"))
  extra <- cv_table_extra(x)
  for (name in names(extra)) tab <- rbind(tab, row(extra[[name]], name))
  tab
}

cv_table_extra <- function(x) UseMethod("cv_table_extra")
cv_table_extra.default <- function(x) NULL
# MLLS: the best ridge regression (alpha = 0) on the same grid, for comparison.
cv_table_extra.cv_mlls <- function(x) {
  ridge <- which(x$grid$alpha == 0)
  if (!length(ridge) || x$best %in% ridge) return(NULL)
  cvm <- rowMeans(x$cvfold)
  list("best ridge (alpha = 0)" =
         best_grid_point(cvm, ridge[order(-x$grid$beta[ridge])], x$higher_better))
}

#' @export
summary.ml_cv <- function(object, ...) {
  check_no_dots(...)
  structure(list(print = utils::capture.output(print(object)),
                 table = utils::head(as.data.frame(object)[order_by_measure(object), ], 10)),
            class = "summary.ml_cv")
}

order_by_measure <- function(object) {
  cvm <- rowMeans(object$cvfold)
  order(if (object$higher_better) -cvm else cvm, na.last = TRUE)
}

#' @export
print.summary.ml_cv <- function(x, ...) {
  cat(x$print, sep = "\n")
  cat("The ten best grid points:\n")
  print(x$table, digits = 4)
  invisible(x)
}

#' The cross-validation results as a data frame
#'
#' One row per grid point: the hyperparameters, the mean measure over folds,
#' its standard error, the measure on each fold, and which points are the best
#' and the one-standard-error ones.
#' @param x A result of [cv_mlls()], [cv_ssmddm()] or [ml_cv()].
#' @param row.names,optional Ignored (for the generic).
#' @param ... Not used.
#' @return A data frame.
#' @examples
#' set.seed(1)
#' cv <- cv_mlls(mlss::yeast$x[1:300, ], mlss::yeast$y[1:300, ], alpha = c(0, 1),
#'               beta = c(0.01, 1), nfolds = 3)
#' as.data.frame(cv)
#' @export
as.data.frame.ml_cv <- function(x, row.names = NULL, optional = FALSE, ...) {
  check_no_dots(...)
  n <- nrow(x$grid)
  data.frame(x$grid, mean = rowMeans(x$cvfold),
             se = apply(x$cvfold, 1, stats::sd) / sqrt(ncol(x$cvfold)),
             unclass(as.data.frame(x$cvfold, row.names = NULL)),
             best = seq_len(n) == x$best, best_1se = seq_len(n) == x$best_1se,
             row.names = NULL, check.names = FALSE)
}

#' Plot a cross-validation
#'
#' With one hyperparameter that varies, the mean measure against it with
#' error bars of one standard error, the best and the one-standard-error
#' points marked; with two or more, the heat map of [plot.cv_mlls()] over the
#' first two, the others held at the chosen point.
#'
#' @param x A result of [ml_cv()], [cv_mlls()] or [cv_ssmddm()].
#' @param ... Graphical parameters passed to [graphics::plot()] (the curve),
#'   overriding the defaults (e.g. `main`, `ylim`).
#' @return `x`, invisibly.
#' @examples
#' set.seed(1)
#' cv <- cv_mlls(mlss::yeast$x[1:300, ], mlss::yeast$y[1:300, ], alpha = 0,
#'               beta = 10^(-3:1), nfolds = 3)
#' plot(cv)
#' @export
plot.ml_cv <- function(x, ...) {
  varying <- names(Filter(function(v) length(unique(v)) > 1, x$grid))
  if (length(varying) >= 2) return(plot_cv_heatmap(x, varying[1:2], ...))
  p <- if (length(varying)) varying else names(x$grid)[1]
  v <- x$grid[[p]]
  cvm <- rowMeans(x$cvfold)
  se <- apply(x$cvfold, 1, stats::sd) / sqrt(ncol(x$cvfold))
  ax <- log_axis(v)
  o <- order(ax$at)
  label <- measure_label(x$measure)
  lo <- cvm - se
  hi <- cvm + se
  args <- utils::modifyList(list(x = ax$at[o], y = cvm[o], type = "b", pch = 19, xaxt = "n",
                                 xlab = p, ylab = label, ylim = range(lo, hi, na.rm = TRUE),
                                 main = paste("cross-validated", label)), list(...))
  do.call(graphics::plot, args)
  graphics::axis(1, at = ax$at, labels = ax$labels)
  graphics::arrows(ax$at, lo, ax$at, hi, angle = 90, code = 3,
                   length = 0.03, col = "grey40")
  graphics::abline(v = ax$at[x$best], lty = 2)
  graphics::abline(v = ax$at[x$best_1se], lty = 3)
  graphics::legend("bottomright", c("best", "1se"), lty = c(2, 3), bty = "n",
                   title = if (x$higher_better) "higher is better" else "lower is better")
  invisible(x)
}

# The measure's name as a plot label: "macro F1", "ranking loss", ...
measure_label <- function(measure) {
  label <- gsub("_", " ", measure)
  sub("f1$", "F1", sub("auc$", "AUC", label))
}

# The heat map over two hyperparameters, the others held at the chosen point.
plot_cv_heatmap <- function(x, axes, ...) {
  chosen <- if (x$select == "1se") x$best_1se else x$best
  others <- setdiff(names(x$grid), axes)
  keep <- rep(TRUE, nrow(x$grid))
  for (p in others) keep <- keep & x$grid[[p]] == x$grid[[p]][chosen]
  g <- x$grid[keep, , drop = FALSE]
  cvm <- rowMeans(x$cvfold)[keep]
  a <- sort(unique(g[[axes[1]]]))
  b <- sort(unique(g[[axes[2]]]))
  z <- matrix(NA_real_, length(a), length(b))
  z[cbind(match(g[[axes[1]]], a), match(g[[axes[2]]], b))] <- cvm
  view <- list(alpha = a, beta = b, cvm = z, alpha_best = x$grid[[axes[1]]][chosen],
               beta_best = x$grid[[axes[2]]][chosen], measure = x$measure,
               best = which(a == x$grid[[axes[1]]][chosen]) +
                 length(a) * (which(b == x$grid[[axes[2]]][chosen]) - 1))
  plot.cv_mlls(view, xlab = axes[1], ylab = axes[2], ...)
  invisible(x)
}
