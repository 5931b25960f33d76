#' Plots of a multi-label data set's labels
#'
#' Four views of the labels, in base graphics: the label frequencies (bars,
#' most frequent first), the histogram of the number of labels per instance
#' (whose mean is the cardinality), the co-occurrence of pairs of labels as a
#' heat map (colour on a square-root scale of the count, the diagonal left
#' blank), and the same co-occurrence in a circle (chord) layout: the
#' labels around a circle, each with a dot whose area grows with its count,
#' joined by curves whose width and darkness grow with the number of
#' instances carrying both.  The circle stays legible up to about 50 labels;
#' beyond, only the strongest `max_links` pairs are drawn and the names get
#' small (the heat map then reads better).
#'
#' @param x An `"ml_stats"` object ([ml_stats()]), or for `plot.mlss_data()`
#'   a data set.
#' @param type `"frequency"`, `"cardinality"`, `"heatmap"` or `"chord"`.
#' @param max_links The chord layout: at most this many pairs drawn, the ones
#'   with the most shared instances (default `3 * m`, all pairs for small m).
#' @param col Colours: of the bars (frequency, cardinality), the palette of
#'   the heat map (a vector of colours, light to dark), or of the curves and
#'   dots (chord: one colour).
#' @param main Title.
#' @param ... Further graphical arguments, passed to [graphics::barplot()]
#'   for the bar plots and ignored by the others.
#' @return `x`, invisibly.
#' @seealso [ml_stats()].
#' @examples
#' s <- ml_stats(mlss::emotions)
#' op <- par(mfrow = c(2, 2))
#' plot(s, "frequency")
#' plot(s, "cardinality")
#' plot(s, "heatmap")
#' plot(s, "chord")
#' par(op)
#' @export
plot.ml_stats <- function(x, type = c("frequency", "cardinality", "heatmap", "chord"),
                          max_links = NULL, col = NULL, main = NULL, ...) {
  type <- match.arg(type)
  switch(type,
         frequency = plot_label_frequency(x, col, main, ...),
         cardinality = plot_cardinality(x, col, main, ...),
         heatmap = plot_cooccurrence_heatmap(x, col, main),
         chord = plot_cooccurrence_chord(x, max_links, col, main))
  invisible(x)
}

#' @rdname plot.ml_stats
#' @export
plot.mlss_data <- function(x, type = c("frequency", "cardinality", "heatmap", "chord"), ...) {
  plot(ml_stats(x), type = type, ...)
  invisible(x)
}

# A character size, at most `cex`, at which the longest name is at most
# `inches` long.
fit_names_cex <- function(nm, cex, inches) {
  w <- max(graphics::strwidth(nm, units = "inches", cex = 1), 1e-3)
  max(0.3, min(cex, inches / w))
}

# Character size at which n names fit along `inches` of axis (one line each),
# between 0.3 and 1.
names_cex <- function(n, inches) {
  line <- graphics::par("csi")                 # inches per line of text at cex 1
  max(0.3, min(1, inches / (n * line * 1.05)))
}

plot_label_frequency <- function(s, col, main, ...) {
  lab <- s$label
  o <- order(-lab$count, seq_len(nrow(lab)))
  counts <- stats::setNames(lab$count[o], lab$label[o])
  m <- length(counts)
  show <- m <= 80
  cex <- names_cex(m, graphics::par("pin")[1])
  op <- graphics::par(mar = graphics::par("mar") + c(if (show) {
    w <- max(graphics::strwidth(names(counts), units = "inches", cex = cex))
    max(0, w / graphics::par("csi") - 3.5)
  } else 0, 0, 0, 0))
  on.exit(graphics::par(op))
  graphics::barplot(counts, names.arg = if (show) names(counts) else NA, las = 2,
                    cex.names = cex, col = col %||% "steelblue", border = NA,
                    ylab = "instances", main = main %||% "Label frequencies", ...)
  if (!show) graphics::mtext(paste(m, "labels, most frequent first"), side = 1, line = 1)
}

plot_cardinality <- function(s, col, main, ...) {
  tab <- s$labels_per_instance
  graphics::barplot(tab, col = col %||% "steelblue", border = NA,
                    xlab = "labels per instance", ylab = "instances",
                    main = main %||% "Labels per instance", ...)
  graphics::mtext(paste0("cardinality ", format(s$cardinality, digits = 3)),
                  side = 3, line = 0.2, cex = 0.8)
}

plot_cooccurrence_heatmap <- function(s, col, main) {
  co <- s$cooccurrence
  m <- nrow(co)
  diag(co) <- NA                                # the counts would swamp the pairs
  pal <- col %||% grDevices::hcl.colors(64, "Blues 3", rev = TRUE)
  nm <- s$label$label
  side <- min(graphics::par("din")) - 0.6       # inches for names and cells
  cex <- fit_names_cex(nm, names_cex(m, 0.6 * side), 0.3 * side)
  w <- max(graphics::strwidth(nm, units = "inches", cex = cex)) / graphics::par("csi")
  op <- graphics::par(mar = c(w + 1, w + 1, 3, 1))
  on.exit(graphics::par(op))
  zmax <- max(co, 1, na.rm = TRUE)
  # colour by the square root of the count: a few frequent pairs would
  # otherwise leave every other cell white
  graphics::image(seq_len(m), seq_len(m), sqrt(co[, m:1, drop = FALSE]), col = pal,
                  zlim = c(0, sqrt(zmax)), axes = FALSE, xlab = "", ylab = "",
                  main = main %||% "Label co-occurrence")
  graphics::mtext(paste0("instances with both labels (0 to ", zmax, ", square-root colour scale)"),
                  side = 3, line = 0.2, cex = 0.7)
  graphics::axis(1, at = seq_len(m), labels = nm, las = 2, cex.axis = cex, tick = FALSE,
                 line = -0.5)
  graphics::axis(2, at = seq_len(m), labels = rev(nm), las = 2, cex.axis = cex, tick = FALSE,
                 line = -0.5)
  if (m <= 12) {
    cells <- which(!is.na(co), arr.ind = TRUE)
    v <- co[cells]
    graphics::text(cells[, 1], m + 1 - cells[, 2], v, cex = 0.7 * cex,
                   col = ifelse(v > zmax / 2, "white", "black"))
  }
  graphics::box()
}

plot_cooccurrence_chord <- function(s, max_links, col, main) {
  co <- s$cooccurrence
  m <- nrow(co)
  nm <- s$label$label
  if (is.null(max_links)) max_links <- 3 * m
  if (!is.numeric(max_links) || length(max_links) != 1 || is.na(max_links) || max_links < 0)
    stop_arg("'max_links' must be one number >= 0 (the number of pairs drawn)")
  base <- col %||% "steelblue4"
  ang <- pi / 2 - 2 * pi * (seq_len(m) - 1) / m  # clockwise from the top
  px <- cos(ang)
  py <- sin(ang)
  op <- graphics::par(mar = c(1, 0.5, 2.5, 0.5))
  on.exit(graphics::par(op))
  side <- min(graphics::par("pin"))             # inches across the circle and its names
  cex <- fit_names_cex(nm, names_cex(m, pi * side * 0.45), 0.25 * side)
  w <- max(graphics::strwidth(nm, units = "inches", cex = cex))
  lim <- 1.12 / (1 - 2 * w / side)              # circle + names fill the square
  graphics::plot.new()
  graphics::plot.window(c(-lim, lim), c(-lim, lim), asp = 1)
  graphics::title(main = main %||% "Label co-occurrence")
  pairs <- which(upper.tri(co) & co > 0, arr.ind = TRUE)
  if (nrow(pairs)) {
    v <- co[pairs]
    keep <- order(-v)[seq_len(min(length(v), max_links))]
    pairs <- pairs[keep, , drop = FALSE]
    v <- v[keep]
    o <- order(v)                               # the strongest on top
    vmax <- max(v)
    t <- seq(0, 1, length.out = 30)
    for (k in o) {
      i <- pairs[k, 1]
      j <- pairs[k, 2]
      # a quadratic Bezier curve bent towards the centre
      cx <- 0.15 * (px[i] + px[j])
      cy <- 0.15 * (py[i] + py[j])
      bx <- (1 - t)^2 * px[i] + 2 * (1 - t) * t * cx + t^2 * px[j]
      by <- (1 - t)^2 * py[i] + 2 * (1 - t) * t * cy + t^2 * py[j]
      f <- v[k] / vmax
      graphics::lines(bx, by, lwd = 0.5 + 5 * f,
                      col = grDevices::adjustcolor(base, alpha.f = 0.15 + 0.6 * f))
    }
  }
  cnt <- s$label$count
  graphics::points(px, py, pch = 19, col = base,
                   cex = 0.4 + 1.6 * sqrt(cnt / max(cnt, 1)))
  deg <- ang * 180 / pi
  right <- px >= -1e-9
  # the names start beyond the largest point whatever the device size: a gap
  # in text widths, not in user coordinates (0.08 sat under the points at 400 x 300)
  out <- 1 + graphics::strwidth("MM", cex = cex)
  for (i in seq_len(m)) {
    graphics::text(out * px[i], out * py[i], nm[i], cex = cex,
                   srt = if (right[i]) deg[i] else deg[i] + 180,
                   adj = if (right[i]) 0 else 1, xpd = TRUE)
  }
  if (nrow(pairs) && nrow(pairs) < sum(upper.tri(co) & co > 0))
    graphics::mtext(paste("the", nrow(pairs), "strongest of",
                          sum(upper.tri(co) & co > 0), "pairs"), side = 1, line = -0.5,
                    cex = 0.7)
}
