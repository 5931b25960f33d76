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
    i <- switch(s, chosen = object$chosen, best = object$best, "1se" = object$best_1se)
    fit <- if (i == object$chosen) object$fit else
      object$refit(object$grid[i, , drop = FALSE], cv_point_thresholds(object, i))
    return(list(fit = fit, rest = args))
  }
  if (s != "chosen") stop_arg("give either 's' or values of the hyperparameters, not both")
  point <- object$grid[object$best, , drop = FALSE]
  for (p in names(args)[named]) {
    v <- args[[p]]
    if (is.character(object$grid[[p]])) {  # a decision rule chosen in CV
      if (!is.character(v) || length(v) != 1 || !v %in% object$grid[[p]])
        stop_arg("'", p, "' must be one of ",
                 paste0("\"", unique(object$grid[[p]]), "\"", collapse = ", "))
    } else if (!is.numeric(v) || length(v) != 1 || is.na(v))
      stop_arg("'", p, "' must be one number")
    point[[p]] <- v
  }
  rest <- args[!named]
  i <- which(do.call(paste, object$grid) == do.call(paste, point))
  if (!length(i) && identical(object$thresholds, "oof"))
    message("this point is not on the grid: its thresholds come from the training scores")
  thr <- if (length(i)) cv_point_thresholds(object, i[1])
  list(fit = object$refit(point, thr), rest = rest)
}

# The out-of-fold thresholds of grid row i and their F1, or NULL.
cv_point_thresholds <- function(object, i) {
  if (is.null(object$oof_thresholds)) return(NULL)
  list(threshold = object$oof_thresholds[, i], f1 = object$oof_f1[, i])
}

#' @export
print.ml_cv <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat("\nCall:  ", paste(deparse(x$call), sep = "\n", collapse = "\n"), "\n\n", sep = "")
  sizes <- vapply(x$grid, function(v) length(unique(v)), 0L)
  cat(length(x$foldid), " instances, ", max(x$foldid), "-fold cross-validation over ",
      nrow(x$grid), " grid points (", paste(sizes, names(sizes), "values", collapse = " x "),
      ")", if (identical(x$scored_by %||% "thresholds", "thresholds"))
        paste0("; thresholds from ", if (identical(x$thresholds, "oof")) "out-of-fold"
               else "training", " scores"), "\n", sep = "")
  cat("measure: ", x$measure, " (", if (x$higher_better) "higher" else "lower",
      " is better)", cv_scored_by(x), "; se = standard error over folds\n", sep = "")
  if (!is.null(x$order_rule))
    cat("regularisation order (ties and the 1se point): ", x$order_rule, "\n", sep = "")
  cat("\n")
  print(cv_table(x), digits = digits)
  if (length(x$edge)) cat("\n", edge_message(x$edge), "\n", sep = "")
  if (length(x$skipped)) cat("\n", path_stop_message(x), "\n", sep = "")
  if (x$ties > 1)
    cat("\n", x$ties, " grid points tie at the best mean: the most regularised is taken\n",
        sep = "")
  cat("\nThe model in $fit is refitted at the ", if (x$select == "1se") "1se" else "best",
      " point.\n\n", sep = "")
  invisible(x)
}

# How the folds were scored, for print().
cv_scored_by <- function(x) {
  switch(x$scored_by %||% "",
         decoder = ", on the label sets of predict(type = \"class\")",
         scores = ", on the scores",
         probabilities = ", on the probabilities",
         "")
}

# The rows print() shows: the best and one-standard-error points, and those
# a method adds (cv_table_extra()).
cv_table <- function(x) {
  row <- function(i, name)
    data.frame(x$grid[i, , drop = FALSE], mean = as.vector(x$cvm)[i],
               se = as.vector(x$cvsd)[i], row.names = name,
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
  cvm <- as.vector(x$cvm)
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
  cvm <- as.vector(object$cvm)
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
  data.frame(x$grid, mean = as.vector(x$cvm), se = as.vector(x$cvsd),
             unclass(as.data.frame(x$cvfold, row.names = NULL)),
             best = seq_len(n) == x$best, best_1se = seq_len(n) == x$best_1se,
             row.names = NULL, check.names = FALSE)
}

#' Plot a cross-validation
#'
#' With one hyperparameter that varies, the mean measure against it (on a log
#' scale, 0 one step left of the smallest positive value) with error bars of
#' one standard error, the best and the one-standard-error points marked.
#' With two or more, a heat map over the first two (`type = "heatmap"`), the
#' others held at the chosen point: each grid point is a cell holding its
#' value, darker cells are better (for a measure where lower is better, such
#' as Hamming loss, the darkest cells are the lowest), a key on the right gives
#' the scale, and the best point is framed; or the 3-D surface the MLLS papers
#' show (`type = "persp"`), the best point marked.
#'
#' @param x A result of [cv_mlls()], [cv_ssmddm()] or [ml_cv()].
#' @param type `"heatmap"` or `"persp"`, for two or more hyperparameters.
#' @param col Colours, from worst to best for the heat map (the default runs
#'   from pale yellow to dark red), from low to high for the surface.
#' @param ... Graphical parameters passed to [graphics::plot()] (the curve),
#'   [graphics::image()] or [graphics::persp()], overriding the defaults (e.g.
#'   `main`, `theta`, `phi`).
#' @return `x`, invisibly.
#' @examples
#' set.seed(1)
#' x <- mlss::yeast$x[1:600, ]
#' y <- mlss::yeast$y[1:600, ]
#' cv <- cv_mlls(x, y, alpha = c(0, 0.01, 0.1, 1), beta = c(0.01, 0.1, 1), nfolds = 3)
#' plot(cv)
#' plot(cv, type = "persp")
#' ridge <- cv_mlls(x, y, alpha = 0, beta = 10^(-3:1), nfolds = 3)
#' plot(ridge)
#' @export
plot.ml_cv <- function(x, type = c("heatmap", "persp"),
                       col = grDevices::hcl.colors(50, "YlOrRd", rev = TRUE), ...) {
  type <- match.arg(type)
  varying <- names(Filter(function(v) length(unique(v)) > 1, x$grid))
  if (length(varying) < 2) {
    if (type == "persp")
      stop_arg("a surface needs at least two values of each of two hyperparameters")
    cv_curve(x, if (length(varying)) varying else names(x$grid)[1], ...)
    return(invisible(x))
  }
  # the first two varying hyperparameters, the others at the chosen point
  axes <- varying[1:2]
  chosen <- x$chosen
  keep <- rep(TRUE, nrow(x$grid))
  for (p in setdiff(names(x$grid), axes)) keep <- keep & x$grid[[p]] == x$grid[[p]][chosen]
  g <- x$grid[keep, , drop = FALSE]
  cvm <- as.vector(x$cvm)[keep]
  a <- sort(unique(g[[axes[1]]]))
  b <- sort(unique(g[[axes[2]]]))
  z <- matrix(NA_real_, length(a), length(b))
  z[cbind(match(g[[axes[1]]], a), match(g[[axes[2]]], b))] <- cvm
  best <- c(match(x$grid[[axes[1]]][x$best], a), match(x$grid[[axes[2]]][x$best], b))
  if (anyNA(best)) best <- NULL  # the best point lies in another slice
  held <- setdiff(names(x$grid), axes)
  main <- paste0("Cross-validated ", measure_label(x$measure),
                 if (length(held)) paste0(" at ", paste0(held, " = ",
                                                         unlist(x$grid[chosen, held]),
                                                         collapse = ", ")))
  if (type == "heatmap") {
    grid_heatmap(z, a, b, axes[1], axes[2], x$measure, x$higher_better, best = best,
                 col = col, main = main, ...)
  } else {
    if (is.null(best)) best <- arrayInd(which.max(if (x$higher_better) z else -z), dim(z))
    grid_persp(z, a, b, axes[1], axes[2], x$measure, best, col = col, ...)
  }
  invisible(x)
}

# The mean measure against one hyperparameter, with standard-error bars.
cv_curve <- function(x, p, ...) {
  v <- x$grid[[p]]
  cvm <- as.vector(x$cvm)  # in the order of the grid's rows
  se <- as.vector(x$cvsd)
  ax <- log_axis(v)
  o <- order(ax$at)
  label <- measure_label(x$measure)
  lo <- cvm - se
  hi <- cvm + se
  args <- utils::modifyList(list(x = ax$at[o], y = cvm[o], type = "b", pch = 19, xaxt = "n",
                                 xlab = p, ylab = label, ylim = range(lo, hi, na.rm = TRUE),
                                 main = paste("Cross-validated", label)), list(...))
  do.call(graphics::plot, args)
  graphics::mtext(paste(if (x$higher_better) "higher" else "lower", "is better"), side = 3,
                  line = 0.4, cex = 0.85)
  graphics::axis(1, at = ax$at, labels = ax$labels)
  ok <- is.finite(lo) & is.finite(hi) & hi > lo
  graphics::arrows(ax$at[ok], lo[ok], ax$at[ok], hi[ok], angle = 90, code = 3,
                   length = 0.03, col = "grey40")
  graphics::abline(v = ax$at[x$best], lty = 2)
  graphics::abline(v = ax$at[x$best_1se], lty = 3, col = "grey30")
  graphics::legend("bottomright", c("best", "1se"), lty = c(2, 3), col = c("black", "grey30"),
                   bty = "n", inset = 0.02)
}

#' @export
fitted.ml_cv <- function(object, ...) no_training_data("fitted")

#' @export
residuals.ml_cv <- function(object, ...) no_training_data("residuals")

# The axes (of two or more values) on which the chosen point takes the
# largest or smallest value where the grid could go further: below the
# smallest only when it is above the axis's lower limit, above the largest
# only when it is below the upper limit (limits: a list by axis, default
# c(0, Inf)).  A named character vector, "largest" or "smallest", by axis.
grid_edge <- function(grid, axes, chosen, limits = NULL) {
  edge <- character()
  for (a in names(axes)) {
    v <- axes[[a]]
    if (length(v) < 2) next
    lim <- limits[[a]] %||% c(0, Inf)
    at <- grid[[a]][chosen]
    if (at == max(v) && at < lim[2]) edge[a] <- "largest"
    else if (at == min(v) && at > lim[1]) edge[a] <- "smallest"
  }
  attr(edge, "values") <- vapply(names(edge), function(a) format(grid[[a]][chosen], digits = 3), "")
  if (length(edge)) edge else NULL
}

edge_message <- function(edge) {
  vals <- attr(edge, "values")
  paste0("the chosen point is on the edge of the grid (",
         paste0(names(edge), " = ", vals, ", the ", edge, " value", collapse = "; "),
         "): the best may lie beyond it; extend the grid in that direction")
}
