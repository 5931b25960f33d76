#' Plot the cross-validated measure over alpha and beta
#'
#' A heat map of the mean measure over the grid (`type = "heatmap"`), or the
#' 3-D surface the MLLS papers show (`type = "persp"`).  Both axes are on a
#' log scale; a grid value of 0 gets its own tick one step left of the
#' smallest positive value.  The best pair is marked.
#'
#' @param x A result of [cv_mlls()].
#' @param type `"heatmap"` or `"persp"`.
#' @param col Colours of the heat map or surface.
#' @param ... Graphical parameters passed to [graphics::image()] or
#'   [graphics::persp()], overriding the defaults (e.g. `main`, `theta`, `phi`).
#' @return `x`, invisibly.
#' @examples
#' data(yeast)
#' set.seed(1)
#' cv <- cv_mlls(yeast$x[1:600, ], yeast$y[1:600, ], alpha = c(0, 0.01, 0.1, 1),
#'               beta = c(0.01, 0.1, 1), nfolds = 3)
#' plot(cv)
#' plot(cv, type = "persp")
#' @export
plot.cv_mlls <- function(x, type = c("heatmap", "persp"),
                         col = grDevices::hcl.colors(50, "YlOrRd", rev = TRUE), ...) {
  type <- match.arg(type)
  if (type == "persp" && (length(x$alpha) < 2 || length(x$beta) < 2))
    stop_arg("a surface needs at least two values of alpha and two of beta")
  ax <- lapply(list(alpha = x$alpha, beta = x$beta), log_axis)
  z <- unclass(x$cvm)
  dimnames(z) <- NULL
  label <- gsub("_", " ", x$measure)
  best <- c(ax$alpha$at[match(x$alpha_best, x$alpha)], ax$beta$at[match(x$beta_best, x$beta)])
  if (type == "heatmap") {
    args <- utils::modifyList(list(x = ax$alpha$at, y = ax$beta$at, z = z, col = col,
                                   axes = FALSE, xlab = "alpha", ylab = "beta",
                                   main = paste("cross-validated", label)), list(...))
    do.call(graphics::image, args)
    graphics::axis(1, at = ax$alpha$at, labels = ax$alpha$labels)
    graphics::axis(2, at = ax$beta$at, labels = ax$beta$labels, las = 1)
    graphics::box()
    cells <- expand.grid(a = ax$alpha$at, b = ax$beta$at)
    graphics::text(cells$a, cells$b, format(round(as.vector(z), 3), nsmall = 3), cex = 0.7)
    half <- function(at) if (length(at) > 1) min(diff(sort(at))) / 2 else 0.5
    graphics::rect(best[1] - half(ax$alpha$at), best[2] - half(ax$beta$at),
                   best[1] + half(ax$alpha$at), best[2] + half(ax$beta$at), lwd = 3)
  } else {
    facet <- (z[-1, -1] + z[-1, -ncol(z)] + z[-nrow(z), -1] + z[-nrow(z), -ncol(z)]) / 4
    fcol <- if (length(facet)) col[cut(facet, length(col), include.lowest = TRUE)] else col[1]
    args <- utils::modifyList(list(x = ax$alpha$at, y = ax$beta$at, z = z, theta = 30,
                                   phi = 25, col = fcol, axes = FALSE, box = TRUE,
                                   xlab = "alpha", ylab = "beta", zlab = label,
                                   main = paste("cross-validated", label), ticktype = "simple"),
                              list(...))
    pm <- do.call(graphics::persp, args)
    draw_persp_ticks(pm, ax, range(z), label)
    graphics::points(grDevices::trans3d(best[1], best[2], x$cvm[x$best], pm), pch = 19,
                     col = "black", cex = 1.5)
  }
  invisible(x)
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
draw_persp_ticks <- function(pm, ax, zr, zlab) {
  a <- range(ax$alpha$at)
  b <- range(ax$beta$at)
  graphics::text(grDevices::trans3d(mean(a), b[1], zr[1], pm), "alpha", pos = 1, offset = 2)
  graphics::text(grDevices::trans3d(a[2], mean(b), zr[1], pm), "beta", pos = 4, offset = 3.5)
  graphics::text(grDevices::trans3d(a[1], b[1], zr[2], pm), zlab, pos = 3, offset = 1)
  graphics::text(grDevices::trans3d(ax$alpha$at, b[1], zr[1], pm), labels = ax$alpha$labels,
                 cex = 0.7, pos = 1)
  graphics::text(grDevices::trans3d(a[2], ax$beta$at, zr[1], pm), labels = ax$beta$labels,
                 cex = 0.7, pos = 4)
  zt <- pretty(zr, 4)
  zt <- zt[zt >= zr[1] & zt <= zr[2]]
  graphics::text(grDevices::trans3d(a[1], b[1], zt, pm), labels = format(zt), cex = 0.7, pos = 2)
}
