# The edge strengths of stage 1 along a decreasing lambda_w path on all the
# rows (warm starts): an E_all x K matrix of ||w_e|| (standardised scale),
# rows named "from~to".
mlcrf_strength_path <- function(x, y, lambda_w, eta, lambda_v, edge_type, tol, max_iter) {
  prep <- mlcrf_prepare(x, y + 0, edge_type)
  lambda_v <- check_lambda_v(lambda_v, prep$m)
  theta <- matrix(0, prep$d + 1L, prep$m + length(prep$from) * prep$K)
  out <- matrix(0, length(prep$from), length(lambda_w),
                dimnames = list(paste(prep$labels[prep$from], prep$labels[prep$to], sep = "~"),
                                format(lambda_w, digits = 3)))
  for (k in seq_along(lambda_w)) {
    theta <- mlcrf_stage1(prep, lambda_v, lambda_w[k], eta, theta, tol, max_iter)$theta
    out[, k] <- edge_norms(prep, theta)
  }
  out
}

#' Plot a cross-validated MLCRF: the edge strengths along the path
#'
#' `type = "path"` draws, as the MLCRF paper's Figure 2 does, the strength
#' \eqn{\|w_e\|} of each label pair's weight block (stage 1 on all the rows,
#' standardised scale) against \eqn{\lambda_w}{lambda_w} at the chosen
#' \eqn{\eta}{eta}, one line per pair that enters the graph somewhere on the
#' path, with the chosen \eqn{\lambda_w}{lambda_w} marked by a dashed line
#' (and the one-standard-error point by a dotted one).  The `label` strongest
#' pairs (at the smallest \eqn{\lambda_w}{lambda_w}) get a colour and their
#' names in the right margin (shortened to fit a third of the device's width);
#' the others are drawn in grey, so that the plot
#' stays legible with many labels (30 labels are 435 pairs).  The other types
#' are those of [plot.ml_cv()].
#'
#' @param x A result of [cv_mlcrf()].
#' @param type `"path"`, or `"heatmap"` / `"persp"` (the measure over the
#'   grid, see [plot.ml_cv()]).
#' @param label How many of the strongest pairs to name.
#' @param ... Graphical parameters passed to [graphics::matplot()] (for the
#'   path) or to [plot.ml_cv()], overriding the defaults.
#' @return `x`, invisibly.
#' @examples
#' x <- mlss::emotions$x[1:150, ]
#' y <- mlss::emotions$y[1:150, 1:4]
#' set.seed(1)
#' cv <- cv_mlcrf(x, y, lambda_v = 0.01, eta = 0.5, nlambda = 4, nfolds = 3, tol = 1e-4)
#' plot(cv, type = "path")
#' @export
plot.cv_mlcrf <- function(x, type = c("heatmap", "persp", "path"), label = 8, ...) {
  type <- match.arg(type)
  if (type != "path") return(NextMethod())
  path <- x$path
  if (is.null(path)) stop_arg("this cv_mlcrf result has no path (made before it was stored)")
  S <- path$strength
  lam <- path$lambda_w
  on <- which(apply(S, 1, max) > 0)
  at <- log10(lam)
  lab <- format(lam, digits = 2)
  args <- list(x = at, y = t(S[on, , drop = FALSE]), type = "l", lty = 1, lwd = 1.5,
               col = "grey75", xlab = expression(log[10](lambda[w])),
               ylab = expression("edge strength " * group("||", w[e], "||")),
               main = paste0("Edge strengths, eta = ", format(path$eta)),
               xlim = rev(range(at)), ylim = c(0, max(S, 1e-8)))
  # pairs never in the graph stay at 0: one axis line, not hundreds
  top <- on[order(-S[on, ncol(S)], -apply(S[on, , drop = FALSE], 1, max))]
  top <- utils::head(top, label)
  cols <- rep_len(grDevices::hcl.colors(max(length(top), 3), "Dark 3"), length(top))
  # room on the right for the names, at most a third of the device's width:
  # longer names are shortened (each label of a pair to its first k characters)
  din <- graphics::par("din")
  cex_lab <- if (din[1] < 5) 0.6 else 0.75
  cw <- 0.85 * graphics::par("cin")[1] * cex_lab  # a character's width, inches
  names_top <- rownames(S)[top]
  if (length(top)) {
    fit_chars <- floor((din[1] / 3 - 0.2) / cw)
    k <- max(nchar(unlist(strsplit(names_top, "~", fixed = TRUE))))
    while (max(nchar(names_top)) > fit_chars && k > 3) {
      k <- k - 1L
      parts <- strsplit(rownames(S)[top], "~", fixed = TRUE)
      names_top <- vapply(parts, function(p) paste(substr(p, 1, k), collapse = "~"), "")
    }
  }
  mai <- graphics::par("mai")
  right <- if (length(top)) max(nchar(names_top)) * cw + 0.2 else mai[4]
  old <- graphics::par(mai = c(mai[1:3], max(mai[4], right)))
  on.exit(graphics::par(old))
  if (!length(on)) args$y <- matrix(0, length(at), 1)
  do.call(graphics::matplot, utils::modifyList(args, list(...)))
  graphics::abline(h = 0, col = "grey60")
  if (length(top)) {
    graphics::matlines(at, t(S[top, , drop = FALSE]), lty = 1, lwd = 2, col = cols)
    yend <- S[top, ncol(S)]
    # spread the names so that they do not overlap
    gap <- graphics::strheight("M", cex = cex_lab) * 1.25
    o <- order(yend)
    ypos <- yend[o]
    for (i in seq_along(ypos)[-1]) ypos[i] <- max(ypos[i], ypos[i - 1] + gap)
    over <- ypos[length(ypos)] - graphics::par("usr")[4]
    if (over > 0) ypos <- ypos - over  # keep the names inside the box's height
    graphics::text(graphics::par("usr")[2], ypos, names_top[o], col = cols[o],
                   pos = 4, xpd = TRUE, cex = cex_lab)
  }
  chosen <- x$grid$lambda_w[x$chosen]
  graphics::abline(v = log10(chosen), lty = 2)
  se <- x$grid$lambda_w[x$best_1se]
  if (se != chosen && x$grid$eta[x$best_1se] == path$eta)
    graphics::abline(v = log10(se), lty = 3, col = "grey30")
  nshow <- length(on) - length(top)
  graphics::mtext(paste0(length(on), " of ", nrow(S), " pairs enter",
                         if (nshow > 0) paste0("; ", nshow, " in grey")),
                  side = 3, line = 0.3, cex = 0.8)
  invisible(x)
}
