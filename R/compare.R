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
#'   (`mlss_data` or `mldr` object) with its labels, `y` then left out: its
#'   training rows when it has a train/test split (see [mlss_data()]).
#' @param y Labels, as for [mlls()]; the methods receive the rows of `y` as
#'   given (a vector stays a vector).
#' @param na_labels What to do with missing labels (`NA` in `y`), as in
#'   [ml_cv()]: `"refuse"` (an error), `"observed"` (the methods get `y` with
#'   its `NA`; `"keep"`, its old spelling, is deprecated) or `"negative"`
#'   (they get `NA` as `FALSE`).  The folds stratify on
#'   the observed positives and are scored on the observed entries only.
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
                       progress = interactive(), na_labels = c("refuse", "observed", "negative")) {
  if (missing(methods) || !is.list(methods) || !length(methods) || is.null(names(methods)) ||
      any(names(methods) == "") || !all(vapply(methods, is.function, logical(1))))
    stop_arg("'methods' must be a named list of functions function(x, y)")
  xy <- ml_xy(x, y)
  x <- xy$x
  y <- xy$y
  n <- NROW(x)
  na_labels <- na_labels_arg(na_labels, "ml_compare")
  # labels (NA kept) are what the folds are scored on; y what the methods see
  labels <- as_labels(y, n, na = if (na_labels == "refuse") "refuse" else "keep",
                      fun = "ml_compare")
  if (na_labels == "negative") y <- replace(labels, is.na(labels), FALSE)
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
#' and minus one standard deviation.  Methods are listed from top to bottom in
#' the order of `print()`; each panel says whether higher or lower is better.
#'
#' @param x A result of [ml_compare()].
#' @param col Colour of the points.
#' @param scale `"shared"`: the panels of all the measures that lie between 0
#'   and 1 have the same horizontal scale (each centred on its own values), so
#'   that a difference looks as large in every panel; the others (coverage)
#'   have their own.  `"free"`: each panel fits its own values.
#' @param ... Graphical parameters passed to [graphics::plot.default()].
#' @return `x`, invisibly.
#' @export
plot.ml_comparison <- function(x, col = "steelblue4", scale = c("shared", "free"), ...) {
  scale <- match.arg(scale)
  s <- comparison_summary(x)
  measures <- levels(droplevels(s$measure))
  methods <- levels(s$method)
  k <- length(measures)
  nm <- length(methods)
  info <- measure_table()
  higher <- info$higher_better[match(measures, info$name)]
  higher[is.na(higher)] <- TRUE
  mu_all <- s$value[, "mean"]
  sd_all <- ifelse(is.na(s$value[, "sd"]), 0, s$value[, "sd"])
  unit <- tapply(mu_all >= 0 & mu_all <= 1, s$measure, all)[measures] &
    !measures %in% c("coverage", "log_loss")
  # "shared": the panels of measures in [0, 1] all span the widest of their
  # ranges, each centred on its own values, so that a difference of 0.01 is
  # as long in every panel
  span <- vapply(measures, function(m) {
    j <- s$measure == m
    diff(range(c(mu_all[j] - sd_all[j], mu_all[j] + sd_all[j]), na.rm = TRUE))
  }, 0)
  common <- if (any(unit)) max(span[unit]) else 0
  width <- max(graphics::strwidth(methods, units = "inches", cex = 1.1))
  op <- graphics::par(mfrow = c(1, k), oma = c(2, width / graphics::par("csi") + 1.2, 0, 0),
                      mar = c(2.5, 0.8, 4.4, 0.8))
  on.exit(graphics::par(op))
  for (i in seq_len(k)) {
    si <- s[s$measure == measures[i], ]
    mu <- si$value[, "mean"]
    sdv <- ifelse(is.na(si$value[, "sd"]), 0, si$value[, "sd"])
    pos <- nm + 1L - match(si$method, methods)   # the first method on top
    lim <- range(mu - sdv, mu + sdv, na.rm = TRUE)
    if (scale == "shared" && unit[i]) lim <- mean(lim) + c(-0.5, 0.5) * common
    args <- utils::modifyList(list(x = mu, y = pos, xlim = lim, ylim = c(0.5, nm + 0.5),
                                   type = "n", xaxt = "n", yaxt = "n", xlab = "", ylab = "",
                                   main = ""), list(...))
    do.call(graphics::plot, args)
    # ticks away from the panel's edges, so that neighbours' labels never meet
    usr <- graphics::par("usr")[1:2]
    at <- pretty(usr, 4)
    at <- at[at >= usr[1] + 0.06 * diff(usr) & at <= usr[2] - 0.06 * diff(usr)]
    graphics::axis(1, at = at)
    if (i == 1) text_size <- panel_text_size(measures)
    graphics::title(main = text_size$titles[i], line = 2, cex.main = text_size$main)
    graphics::mtext(if (higher[i]) "higher is better" else "lower is better", side = 3,
                    line = 0.6, cex = text_size$note, font = if (higher[i]) 1 else 2)
    graphics::abline(h = seq_len(nm), col = "grey90")
    graphics::segments(mu - sdv, pos, mu + sdv, pos, col = col, lwd = 2)
    graphics::points(mu, pos, pch = 19, col = col, cex = 1.3)
    if (i == 1)
      graphics::axis(2, at = rev(seq_len(nm)), labels = methods, las = 1, outer = FALSE,
                     cex.axis = 1.1)
  }
  graphics::par(mfrow = c(1, 1))
  note <- paste0("mean and sd over folds",
                 if (scale == "shared" && sum(unit) > 1) "; measures in [0, 1] on one scale")
  fit <- graphics::par("din")[1] / graphics::strwidth(note, "inches")
  graphics::mtext(note, side = 1, outer = TRUE, line = 0.6, cex = min(0.9, 0.8 * fit))
  invisible(x)
}

# Panel titles and notes of the comparison plot, one size for all panels: at
# most R's default, smaller (a long title on two lines) when a panel is too
# narrow.  strwidth() measures relative to par("cex"), as cex.main is; the
# cex of mtext() is absolute.
panel_text_size <- function(measures) {
  pin <- graphics::par("pin")[1]
  titles <- capitalise(measure_label(measures))
  widest <- function(s) max(graphics::strwidth(unlist(strsplit(s, "\n")), "inches", font = 2))
  fit <- pin / vapply(titles, widest, 0)
  long <- fit < 1.1 & grepl(" ", titles)
  titles[long] <- sub(" ", "\n", titles[long])
  fit <- pin / vapply(titles, widest, 0)
  note <- pin / graphics::strwidth("higher is better", "inches", font = 2)
  list(titles = titles, main = min(1.2, 0.95 * fit),
       note = graphics::par("cex") * min(1, 0.95 * note))
}
