# The 3-D surface the MLLS papers show: z[i, j] at x[i], y[j] on log scales
# (0 one step left of the smallest positive value), the best cell marked.
grid_persp <- function(z, x, y, xname, yname, measure, best,
                       col = grDevices::hcl.colors(50, "YlOrRd", rev = TRUE), ...) {
  if (length(x) < 2 || length(y) < 2)
    stop_arg("a surface needs at least two values of each of '", xname, "' and '", yname, "'")
  ax <- lapply(list(x, y), log_axis)
  z <- matrix(as.numeric(z), length(x), length(y))
  label <- measure_label(measure)
  # a flat surface (every grid point scores the same) still gets a z axis:
  # persp() refuses limits of zero width
  zr <- range(z, na.rm = TRUE)
  if (!(diff(zr) > 0)) zr <- zr + c(-1, 1) * max(abs(zr[1]) * 0.01, 0.01)
  facet <- (z[-1, -1] + z[-1, -ncol(z)] + z[-nrow(z), -1] + z[-nrow(z), -ncol(z)]) / 4
  fcol <- if (length(facet)) col[cut(facet, length(col), include.lowest = TRUE)] else col[1]
  args <- utils::modifyList(list(x = ax[[1]]$at, y = ax[[2]]$at, z = z, theta = 30,
                                 phi = 25, col = fcol, axes = FALSE, box = TRUE, zlim = zr,
                                 xlab = xname, ylab = yname, zlab = label,
                                 main = paste("Cross-validated", label), ticktype = "simple"),
                            list(...))
  pm <- do.call(graphics::persp, args)
  draw_persp_ticks(pm, ax, args$zlim, label, c(xname, yname))
  graphics::points(grDevices::trans3d(ax[[1]]$at[best[1]], ax[[2]]$at[best[2]],
                                      z[best[1], best[2]], pm), pch = 19, cex = 1.5)
  invisible()
}

# The heat map of a measure over a grid of two hyperparameters, for any
# cross-validation result: z[i, j] is the value at x[i] (horizontal axis,
# named xname) and y[j] (vertical axis, yname); `best` the (i, j) of the best
# cell, by default the best value.  Cells are equal in size whatever the
# spacing of the values, the darkest colour is the best value (col runs from
# worst to best), numbers are printed in the cells when they fit, in white on
# dark cells, tick labels are thinned so that they never overlap, the left
# margin is as wide as the longest tick label, and a colour key is drawn in
# the right margin.  Base graphics; returns the cells (position, value,
# colour, colour of the number, best or not), invisibly.
grid_heatmap <- function(z, x, y, xname, yname, measure, higher_better = TRUE, best = NULL,
                         col = grDevices::hcl.colors(50, "YlOrRd", rev = TRUE),
                         main = paste("Cross-validated", measure_label(measure)),
                         digits = 3, ...) {
  z <- matrix(as.numeric(z), length(x), length(y))
  if (!any(is.finite(z))) stop_arg("there is no finite value to plot")
  if (is.null(best)) {
    score <- if (higher_better) z else -z
    score[!is.finite(score)] <- -Inf
    best <- arrayInd(which.max(score), dim(z))
  }
  xl <- grid_labels(x)
  yl <- grid_labels(y)
  # colours: col[1] the worst value, col[length(col)] the best
  zr <- range(z[is.finite(z)])
  if (zr[1] == zr[2]) zr <- zr + c(-0.5, 0.5) * max(abs(zr[1]) * 1e-3, 1e-3)
  cols <- if (higher_better) col else rev(col)
  op <- graphics::par(c("mar", "las", "mgp"))
  on.exit(graphics::par(op))
  ylab_w <- max(graphics::strwidth(yl, units = "inches", cex = graphics::par("cex.axis")))
  lines_w <- ylab_w / graphics::par("csi")
  key_w <- max(graphics::strwidth(format_key(pretty(zr, 4)), units = "inches",
                                  cex = 0.8)) / graphics::par("csi")
  graphics::par(mar = c(4.1, lines_w + 2.6, 3.6, key_w + 3.2), mgp = c(2.4, 0.6, 0))
  dots <- list(...)
  if (!is.null(dots$xlab)) xname <- dots$xlab   # drawn below, where they fit
  if (!is.null(dots$ylab)) yname <- dots$ylab
  dots$xlab <- dots$ylab <- NULL
  args <- utils::modifyList(list(x = seq_along(x), y = seq_along(y), z = z, col = cols,
                                 zlim = zr, axes = FALSE, xlab = "", ylab = "", main = ""),
                            dots)
  do.call(graphics::image, args)
  graphics::title(main = main, line = 2.2)
  graphics::mtext(paste0(if (higher_better) "higher" else "lower", " is better; ",
                         "darker is better"), side = 3, line = 0.9, cex = 0.85)
  graphics::title(xlab = xname, line = 2.4)
  graphics::title(ylab = yname, line = lines_w + 1.3)
  thin_axis(1, x, xl)
  thin_axis(2, y, yl)
  graphics::box()
  # the numbers, sized to fit a cell, white on dark cells
  cell <- graphics::par("pin") / c(length(x), length(y))
  txt <- ifelse(is.finite(z), formatC(z, digits = digits, format = "f"), "NA")
  tw <- max(graphics::strwidth(txt, units = "inches", font = 2))
  th <- graphics::strheight("0", units = "inches")
  cex <- min(0.9, 0.8 * cell[1] / tw, 0.7 * cell[2] / th)
  at <- expand.grid(i = seq_along(x), j = seq_along(y))
  fill <- cols[pmax(1L, pmin(length(cols),
                             1L + floor((z - zr[1]) / diff(zr) * length(cols))))]
  fill[!is.finite(z)] <- "white"
  ink <- ifelse(luminance(fill) < 0.5, "white", "black")
  isbest <- at$i == best[1] & at$j == best[2]
  if (cex >= 0.6) {
    graphics::text(at$i, at$j, txt, cex = cex, col = ink, font = ifelse(isbest, 2, 1))
  }
  # the best cell: a white frame inside a black one, visible on any colour
  graphics::rect(best[1] - 0.5, best[2] - 0.5, best[1] + 0.5, best[2] + 0.5,
                 border = "black", lwd = 3.5)
  graphics::rect(best[1] - 0.44, best[2] - 0.44, best[1] + 0.44, best[2] + 0.44,
                 border = "white", lwd = 1.5)
  draw_key(zr, cols, higher_better)
  invisible(data.frame(at, value = as.vector(z), fill = fill, ink = ink, best = isbest,
                       stringsAsFactors = FALSE))
}

# The measure's name in a sentence ("macro F1", "Hamming loss").
measure_label <- function(measure) {
  known <- c(macro_f1 = "macro F1", micro_f1 = "micro F1", macro_auc = "macro AUC",
             micro_auc = "micro AUC", hamming_loss = "Hamming loss",
             subset_accuracy = "subset accuracy", example_f1 = "example-based F1",
             example_accuracy = "example-based accuracy",
             example_precision = "example-based precision",
             example_recall = "example-based recall", ranking_loss = "ranking loss",
             average_precision = "average precision", coverage = "coverage",
             one_error = "one-error", log_loss = "log loss")
  out <- unname(known[measure])
  ifelse(is.na(out), gsub("_", " ", measure), out)
}

capitalise <- function(s) paste0(toupper(substring(s, 1, 1)), substring(s, 2))

# Tick labels of grid values: "0", "Inf", else 2 significant digits.
grid_labels <- function(v) {
  vapply(v, function(a) if (a == 0) "0" else if (is.infinite(a)) "Inf" else
    format(a, digits = 2), "")
}

format_key <- function(v) format(v, trim = TRUE)

# An axis of equal cells at 1..n with every k-th label, k as small as keeps
# the labels from touching; a tick at every cell.
thin_axis <- function(side, v, labels) {
  n <- length(v)
  room <- graphics::par("pin")[if (side == 1) 1 else 2] / n
  need <- if (side == 1) max(graphics::strwidth(labels, units = "inches")) * 1.15
          else graphics::strheight("0", units = "inches") * 1.6
  step <- max(1L, ceiling(need / room))
  show <- seq(1L, n, by = step)
  graphics::axis(side, at = seq_len(n), labels = FALSE, tcl = -0.3)
  graphics::axis(side, at = show, labels = labels[show], las = 1, tick = FALSE)
}

luminance <- function(col) {
  rgb <- grDevices::col2rgb(col) / 255
  drop(c(0.299, 0.587, 0.114) %*% rgb)
}

# A colour key in the right margin, the height of the plot region, with
# ticks at pretty values.
draw_key <- function(zr, cols, higher_better) {
  usr <- graphics::par("usr")
  pin <- graphics::par("pin")
  per_in <- (usr[2] - usr[1]) / pin[1]
  csi <- graphics::par("csi")
  x0 <- usr[2] + 0.6 * csi * per_in
  x1 <- x0 + 0.9 * csi * per_in
  k <- length(cols)
  yb <- usr[3] + (usr[4] - usr[3]) * (seq_len(k) - 1) / k
  yt <- usr[3] + (usr[4] - usr[3]) * seq_len(k) / k
  graphics::rect(x0, yb, x1, yt, col = cols, border = NA, xpd = NA)
  graphics::rect(x0, usr[3], x1, usr[4], border = "grey30", xpd = NA)
  ticks <- pretty(zr, 4)
  ticks <- ticks[ticks >= zr[1] & ticks <= zr[2]]
  ty <- usr[3] + (ticks - zr[1]) / diff(zr) * (usr[4] - usr[3])
  graphics::segments(x1, ty, x1 + 0.25 * csi * per_in, ty, xpd = NA)
  graphics::text(x1 + 0.35 * csi * per_in, ty, format_key(ticks), adj = c(0, 0.5),
                 cex = 0.8, xpd = NA)
}

# Positions on a log10 scale, with 0 one step left of the smallest positive
# value (a step being the median spacing of the positive values, or 1).
log_axis <- function(v) {
  pos <- v[v > 0 & is.finite(v)]
  at <- rep(NA_real_, length(v))
  at[v > 0 & is.finite(v)] <- log10(pos)
  step <- if (length(pos) > 1) stats::median(diff(sort(log10(pos)))) else 1
  base <- if (length(pos)) log10(min(pos)) else 0
  top <- if (length(pos)) log10(max(pos)) else 0
  at[v == 0] <- base - step
  at[is.infinite(v)] <- top + step
  labels <- ifelse(v == 0, "0", ifelse(is.infinite(v), "Inf", format(v, digits = 2)))
  list(at = at, labels = labels)
}

# Tick labels of the persp() box: alpha along the front edge, beta along the
# right edge, the measure along the front-left vertical edge (theta = 30).
draw_persp_ticks <- function(pm, ax, zr, zlab, names) {
  a <- range(ax[[1]]$at)
  b <- range(ax[[2]]$at)
  graphics::text(grDevices::trans3d(mean(a), b[1], zr[1], pm), names[1], pos = 1, offset = 2)
  graphics::text(grDevices::trans3d(a[2], mean(b), zr[1], pm), names[2], pos = 4, offset = 3.5)
  graphics::text(grDevices::trans3d(a[1], b[1], zr[2], pm), zlab, pos = 3, offset = 1)
  graphics::text(grDevices::trans3d(ax[[1]]$at, b[1], zr[1], pm), labels = ax[[1]]$labels,
                 cex = 0.7, pos = 1)
  graphics::text(grDevices::trans3d(a[2], ax[[2]]$at, zr[1], pm), labels = ax[[2]]$labels,
                 cex = 0.7, pos = 4)
  zt <- pretty(zr, 4)
  zt <- zt[zt >= zr[1] & zt <= zr[2]]
  graphics::text(grDevices::trans3d(a[1], b[1], zt, pm), labels = format(zt), cex = 0.7, pos = 2)
}
