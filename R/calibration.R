#' Per-label calibration of scores (Platt, isotonic) and a reliability plot
#'
#' `ml_calibrate()` learns, label by label, a monotone map from a method's
#' scores to probabilities, on scores of rows the model did not learn from
#' (out-of-fold scores of a cross-validation, or a held-out part): the
#' scores of a fit on its own training rows are over-confident, and a map
#' learnt on them carries that over.  `predict()` applies the maps to new
#' scores; `reliability_plot()` draws observed frequency against predicted
#' probability.
#'
#' * `"platt"` (Platt 1999): \eqn{p = 1 / (1 + e^{-(a + b s)})}{p = 1 / (1 + exp(-(a + b s)))},
#'   a and b maximising the likelihood of Platt's smoothed targets
#'   \eqn{(N_+ + 1)/(N_+ + 2)}{(N+ + 1) / (N+ + 2)} for the positives and
#'   \eqn{1/(N_- + 2)}{1 / (N- + 2)} for the negatives (which keep the fit
#'   finite when the scores separate the classes), by [stats::glm.fit()];
#' * `"isotonic"` (Zadrozny and Elkan 2002): the non-decreasing step function
#'   of the score closest to the labels in squared error (pool adjacent
#'   violators; tied scores pooled first, so they share a value); a new
#'   score takes the value of the largest training score not above it (the
#'   lowest value below them all).
#'
#' `NA` in `y` (missing labels) is left out of the label's map.
#'
#' @param score An n x m numeric matrix of scores (out-of-fold ones), column
#'   names the labels.
#' @param y The n x m true labels (logical, 0/1 or -1/+1; `NA` left out).
#' @param method `"platt"` or `"isotonic"`.
#' @param object An `"ml_calibration"` object.
#' @param newx New scores, with the labels as columns (by name when
#'   named, else in order).
#' @param prob A matrix (or vector) of predicted probabilities, or a list of
#'   them to compare (drawn in different colours, the list's names in the
#'   legend).
#' @param bins The number of equal-width bins of \[0, 1\].
#' @param col,main Colours (one per curve) and title.
#' @param ... Not used.
#' @return `ml_calibrate()`: an object of class `"ml_calibration"` (`method`,
#'   `labels`, and `maps`, one per label: `a` and `b` for Platt, `knots` and
#'   `values` for isotonic).  `predict()`: the n x m calibrated probabilities.
#'   `reliability_plot()`: invisibly, a data frame per curve of the bins
#'   (`bin`, `n`, `mean_prob`, `observed`).
#' @references Platt J. (1999). Probabilistic outputs for support vector
#'   machines and comparisons to regularized likelihood methods. Advances in
#'   Large Margin Classifiers, 61-74.
#'
#'   Zadrozny B. and Elkan C. (2002). Transforming classifier scores into
#'   accurate multiclass probability estimates. KDD 2002, 694-699.
#' @seealso [ml_cv()] for out-of-fold scores; [ml_decide()].
#' @examples
#' d <- mlss::scene
#' tr <- which(d$train)
#' half <- tr[seq(2, length(tr), 2)]              # a held-out part of the training rows
#' fit <- br(d$x[setdiff(tr, half), ], d$y[setdiff(tr, half), ])   # ridge: not probabilities
#' cal <- ml_calibrate(predict(fit, d$x[half, ], type = "score"), d$y[half, ], "platt")
#' p <- predict(cal, predict(fit, d$x[!d$train, ], type = "score"))
#' reliability_plot(list(platt = p), d$y[!d$train, ])
#' @export
ml_calibrate <- function(score, y, method = c("platt", "isotonic")) {
  method <- match.arg(method)
  score <- decide_score(score, "score")
  y <- as_labels(y, nrow(score), "y", ref = "score", na = "keep")
  if (ncol(y) != ncol(score))
    stop_arg("'score' and 'y' must have the same number of columns")
  maps <- lapply(seq_len(ncol(score)), function(l) {
    o <- !is.na(y[, l])
    if (!any(o)) stop_arg("label '", colnames(score)[l], "' has no observed entry in 'y'")
    if (method == "platt") platt_map(score[o, l], y[o, l]) else isotonic_map(score[o, l], y[o, l])
  })
  names(maps) <- colnames(score)
  structure(list(method = method, labels = colnames(score), maps = maps),
            class = "ml_calibration")
}

platt_map <- function(s, y) {
  npos <- sum(y)
  nneg <- length(y) - npos
  target <- ifelse(y, (npos + 1) / (npos + 2), 1 / (nneg + 2))
  fit <- stats::glm.fit(cbind(1, s), target, family = stats::quasibinomial())
  cf <- fit$coefficients
  if (anyNA(cf)) cf[is.na(cf)] <- 0            # constant scores: no slope
  list(a = cf[[1]], b = cf[[2]])
}

isotonic_map <- function(s, y) {
  knots <- sort(unique(s))
  g <- match(s, knots)
  w <- tabulate(g, length(knots))
  v <- as.vector(rowsum(as.numeric(y), g, reorder = TRUE)) / w
  list(knots = knots, values = pava(v, w))
}

# Weighted pool-adjacent-violators: the non-decreasing fit to v (weights w)
# in weighted squared error.
pava <- function(v, w) {
  val <- numeric(0)
  wt <- numeric(0)
  size <- integer(0)
  for (i in seq_along(v)) {
    val <- c(val, v[i])
    wt <- c(wt, w[i])
    size <- c(size, 1L)
    k <- length(val)
    while (k > 1 && val[k - 1] > val[k]) {
      merged <- (wt[k - 1] * val[k - 1] + wt[k] * val[k]) / (wt[k - 1] + wt[k])
      val[k - 1] <- merged
      wt[k - 1] <- wt[k - 1] + wt[k]
      size[k - 1] <- size[k - 1] + size[k]
      val <- val[-k]
      wt <- wt[-k]
      size <- size[-k]
      k <- k - 1
    }
  }
  rep(val, size)
}

#' @rdname ml_calibrate
#' @export
predict.ml_calibration <- function(object, newx, ...) {
  check_no_dots(...)
  if (missing(newx)) stop_arg("'newx' is missing: give the scores to calibrate")
  newscore <- decide_score(newx, "newx")
  if (ncol(newscore) != length(object$labels))
    stop_arg("'newx' has ", ncol(newscore), " columns, not the ", length(object$labels),
             " labels of the calibration")
  if (!is.null(colnames(newx))) {
    if (!setequal(colnames(newx), object$labels))
      stop_arg("the columns of 'newx' must be the labels of the calibration")
    newscore <- newscore[, object$labels, drop = FALSE]
  }
  out <- newscore
  for (l in seq_along(object$labels)) {
    mp <- object$maps[[l]]
    s <- newscore[, l]
    out[, l] <- if (object$method == "platt") stats::plogis(mp$a + mp$b * s) else
      mp$values[pmax(findInterval(s, mp$knots), 1L)]
  }
  colnames(out) <- object$labels
  out
}

#' @export
print.ml_calibration <- function(x, ...) {
  cat("Calibration of ", length(x$labels), " labels' scores (",
      if (x$method == "platt") "Platt's logistic map" else "isotonic regression",
      "); predict(object, scores) gives probabilities\n", sep = "")
  invisible(x)
}

#' @rdname ml_calibrate
#' @export
reliability_plot <- function(prob, y, bins = 10, col = NULL, main = "Reliability") {
  if (!is.list(prob) || is.data.frame(prob)) prob <- list(prob)
  if (is.null(names(prob))) names(prob) <- paste("curve", seq_along(prob))
  if (!is.numeric(bins) || length(bins) != 1 || is.na(bins) || bins < 1 || bins != round(bins))
    stop_arg("'bins' must be one whole number >= 1")
  yv <- as.vector(as_labels(y, NROW(y), "y", na = "keep"))
  col <- col %||% grDevices::palette.colors(max(2, length(prob) + 1))[-1]
  graphics::plot(c(0, 1), c(0, 1), type = "n", xlab = "predicted probability",
                 ylab = "observed frequency", main = main)
  graphics::abline(0, 1, lty = 2, col = "grey50")
  out <- list()
  for (k in seq_along(prob)) {
    p <- as.vector(as.matrix(prob[[k]]))
    if (length(p) != length(yv) || !is.numeric(p) || anyNA(p) || any(p < 0 | p > 1))
      stop_arg("each 'prob' must be probabilities in [0, 1] with the dimensions of 'y'")
    o <- !is.na(yv)
    b <- pmin(floor(p[o] * bins), bins - 1) + 1
    n <- tabulate(b, bins)
    mp <- as.vector(tapply(p[o], factor(b, levels = seq_len(bins)), mean))
    ob <- as.vector(tapply(yv[o], factor(b, levels = seq_len(bins)), mean))
    tab <- data.frame(bin = seq_len(bins), n = n, mean_prob = mp, observed = ob)
    keep <- n > 0
    graphics::lines(mp[keep], ob[keep], col = col[k], lwd = 2)
    graphics::points(mp[keep], ob[keep], col = col[k], pch = 19,
                     cex = 0.5 + 1.5 * sqrt(n[keep] / max(n)))
    out[[names(prob)[k]]] <- tab
  }
  if (length(prob) > 1 || !identical(names(prob), "curve 1"))
    graphics::legend("topleft", legend = names(prob), col = col[seq_along(prob)], lwd = 2,
                     bty = "n")
  invisible(out)
}
