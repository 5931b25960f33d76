#' Compare multi-label methods by cross-validation
#'
#' Fits every method on the training part of each fold and evaluates it on the
#' fold's held-out part with [ml_metrics()], so that methods are compared on
#' the same folds and the same measures.  A method is a function of `x` and
#' `y` returning a model whose `predict(model, newx, type = "score")` and
#' `predict(model, newx, type = "class")` give scores and label sets, as
#' [mlls()] and [cv_mlls()] do.  Tuning inside a method (e.g. [cv_mlls()])
#' happens on the training part only.
#'
#' @param x Features: matrix, data frame or sparse `Matrix`; or a data set
#'   (`mlss_data` or `mldr` object) with its labels, `y` then left out.
#' @param y Labels, as for [mlls()]; the methods receive the rows of `y` as
#'   given (a vector stays a vector).
#' @param methods A named list of functions `function(x, y)`.
#' @param nfolds,foldid The outer folds, as in [cv_mlls()].
#' @param measures Measures to report, see [measure_names()].
#' @param progress Show a progress bar (one step per fold and method)?
#' @return An object of class `"ml_comparison"`: a data frame with columns
#'   `method`, `measure`, `fold` and `value`.  `print()` shows the mean and
#'   standard deviation over folds, `plot()` draws them.
#' @examples
#' data(yeast)
#' set.seed(1)
#' small <- 1:500
#' cmp <- ml_compare(yeast$x[small, ], yeast$y[small, ], nfolds = 3, methods = list(
#'   MLLS = function(x, y) mlls(x, y, alpha = 1, beta = 0.1),
#'   ridge = function(x, y) mlls(x, y, alpha = 0, beta = 0.1)))
#' cmp
#' plot(cmp)
#' @export
ml_compare <- function(x, y, methods, nfolds = 5, foldid = NULL,
                       measures = c("macro_f1", "micro_f1", "hamming_loss", "average_precision"),
                       progress = interactive()) {
  if (missing(methods) || !is.list(methods) || !length(methods) || is.null(names(methods)) ||
      any(names(methods) == "") || !all(vapply(methods, is.function, logical(1))))
    stop_arg("'methods' must be a named list of functions function(x, y)")
  xy <- ml_xy(x, y)
  x <- xy$x
  y <- xy$y
  n <- NROW(x)
  labels <- as_labels(y, n)
  check_compare_measures(measures)
  foldid <- cv_foldid(labels, nfolds, foldid)
  bar <- if (check_flag(progress, "progress"))
    utils::txtProgressBar(0, max(foldid) * length(methods), style = 3)
  rows <- list()
  for (k in seq_len(max(foldid))) {
    va <- foldid == k
    for (name in names(methods)) {
      # an error inside a method says which method and fold it came from
      m <- tryCatch({
        model <- methods[[name]](take_rows(x, !va), take_rows(y, !va))
        newx <- take_rows(x, va)
        ml_metrics(labels[va, , drop = FALSE],
                   score = stats::predict(model, newx, type = "score"),
                   pred = stats::predict(model, newx, type = "class"), measures = measures)
      }, error = function(e)
        stop_arg("method '", name, "' failed on fold ", k, " of ", max(foldid), ": ",
                 conditionMessage(e)))
      rows[[length(rows) + 1]] <- data.frame(method = name, measure = names(m), fold = k,
                                             value = unlist(m), stringsAsFactors = FALSE)
      if (!is.null(bar)) utils::setTxtProgressBar(bar, length(rows))
    }
  }
  if (!is.null(bar)) close(bar)
  res <- do.call(rbind, rows)
  rownames(res) <- NULL
  res$method <- factor(res$method, levels = names(methods))
  res$measure <- factor(res$measure, levels = measures)
  structure(res, class = c("ml_comparison", "data.frame"))
}

# Rows i of a matrix, data frame, sparse Matrix or vector (one label or one
# feature), keeping its kind.
take_rows <- function(v, i) if (is.null(dim(v))) v[i] else v[i, , drop = FALSE]

# Measures a comparison can compute from the methods' scores and label sets.
check_compare_measures <- function(measures) {
  info <- measure_table()
  if (!is.character(measures) || !length(measures) || anyNA(measures))
    stop_arg("'measures' must be names of measures, see measure_names()")
  bad <- setdiff(measures, info$name)
  if (length(bad))
    stop_arg("unknown measure '", bad[1], "'; the measures are ",
             paste(info$name[info$needs != "prob"], collapse = ", "))
  prob <- measures[info$needs[match(measures, info$name)] == "prob"]
  if (length(prob))
    stop_arg("measure '", prob[1], "' needs the probabilities of the true label vectors, ",
             "which ml_compare() does not get from a method (it asks for scores and ",
             "label sets); compute it with ml_metrics(y, prob = ...)")
  if (anyDuplicated(measures)) stop_arg("'measures' names a measure twice")
}

comparison_summary <- function(x) {
  x <- as.data.frame(unclass(x))
  stats::aggregate(value ~ method + measure, data = x,
                   FUN = function(v) c(mean = mean(v), sd = stats::sd(v)))
}

#' @export
print.ml_comparison <- function(x, digits = 3, ...) {
  s <- comparison_summary(x)
  cell <- sprintf("%.*f (%.*f)", digits, s$value[, "mean"], digits, s$value[, "sd"])
  tab <- tapply(cell, list(s$method, s$measure), identity)
  cat("Mean (sd) over", length(unique(x$fold)), "folds\n")
  print(noquote(tab))
  invisible(x)
}

#' Plot a comparison of methods
#'
#' One panel per measure: each method's mean over folds, with bars of plus
#' and minus one standard deviation.
#'
#' @param x A result of [ml_compare()].
#' @param col Colour of the points.
#' @param ... Graphical parameters passed to [graphics::plot.default()].
#' @return `x`, invisibly.
#' @export
plot.ml_comparison <- function(x, col = "steelblue4", ...) {
  s <- comparison_summary(x)
  measures <- levels(droplevels(s$measure))
  methods <- levels(s$method)
  k <- length(measures)
  width <- max(graphics::strwidth(methods, units = "inches", cex = 1.3))
  op <- graphics::par(mfrow = c(1, k), oma = c(0, width / 0.2 + 1, 0, 0), mar = c(4, 1, 3, 1))
  on.exit(graphics::par(op))
  for (i in seq_len(k)) {
    si <- s[s$measure == measures[i], ]
    mu <- si$value[, "mean"]
    sdv <- ifelse(is.na(si$value[, "sd"]), 0, si$value[, "sd"])
    pos <- match(si$method, methods)
    lim <- range(mu - sdv, mu + sdv, na.rm = TRUE)
    args <- utils::modifyList(list(x = mu, y = pos, xlim = lim, ylim = c(0.5, length(methods) + 0.5),
                                   type = "n", yaxt = "n", xlab = "mean +- sd over folds",
                                   ylab = "", main = gsub("_", " ", measures[i])), list(...))
    do.call(graphics::plot, args)
    graphics::abline(h = seq_along(methods), col = "grey90")
    graphics::segments(mu - sdv, pos, mu + sdv, pos, col = col, lwd = 2)
    graphics::points(mu, pos, pch = 19, col = col, cex = 1.3)
    if (i == 1)
      graphics::axis(2, at = seq_along(methods), labels = methods, las = 1, outer = FALSE,
                     cex.axis = 1.3)
  }
  invisible(x)
}
