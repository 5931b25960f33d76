#' Predict with an MLCRF fit
#'
#' @section Inference:
#' Exact inference enumerates all \eqn{2^m} label vectors of each instance in
#' Gray-code order (one label changes per step, so each score costs O(degree)
#' to update) with a running log-sum-exp: time \eqn{O(m 2^m)} per instance
#' (measured on a loaded machine: 0.06 ms at m = 10, 3 ms at m = 14, 0.18 s
#' at m = 20; bench/mlcrf.R), memory
#' \eqn{O(m)}.  It gives the MAP label vector, the marginals and \eqn{\log
#' Z(x)} exactly, and `inference = "auto"` uses it up to m = 20 labels.  Above
#' that, or with `inference = "approximate"`, the marginals come from damped
#' loopy belief propagation (parallel updates, messages \eqn{m \leftarrow}{m <-}
#' `damping` \eqn{m_{old} + (1 -}{ m_old + (1 - }`damping`\eqn{) m_{new}}{) m_new}
#' until no message changes by more than `tol`, at most `maxit` sweeps), and the
#' MAP from iterated conditional modes started from the independent solution
#' (each label by its own node term) and from the rounded marginals, the
#' better of the two.  For `type = "prob"`, \eqn{\log Z} is then the Bethe
#' approximation of the converged messages (exact on a tree), and the
#' probability is capped at 1.  Exact inference is refused above m = 25
#' labels (\eqn{2^{25}}{2^25} label vectors per instance).
#'
#' @section Approximations and what they guarantee:
#' * Exact enumeration (`inference = "exact"`, or `"auto"` up to 20 labels):
#'   the MAP, the marginals, \eqn{\log Z(x)} and `type = "prob"` are exact (to
#'   rounding; a tie for the MAP goes to the vector met first in Gray-code
#'   order).
#' * Loopy belief propagation (the marginals, and \eqn{\log Z} for
#'   `type = "prob"`): messages start at zero and all are updated in parallel.
#'   On a graph without cycles (a tree or forest, e.g. no edges) it converges
#'   and its marginals and Bethe \eqn{\log Z} are exact; damping does not move
#'   the fixed point.  On a graph with cycles it may converge to wrong
#'   marginals or not converge at all: a dense 10-label graph with strong
#'   edges gave marginals up to 0.985 away from the exact ones in one check.  When no
#'   message settles within `tol` after `maxit` sweeps, the marginals of the
#'   last sweep's messages are returned all the same (in \[0, 1\], no `NA`), a
#'   warning counts the instances concerned, and `attr(, "inference")`
#'   flags each one (`bp_converged`, with `bp_iterations`).  The Bethe
#'   \eqn{\log Z} is neither an upper nor a lower bound in general: the
#'   `"prob"` values are capped at 1 and need not sum to 1 over the label
#'   vectors.
#' * Iterated conditional modes (the MAP, `type = "class"`): from a start,
#'   each label in turn is set to its more probable value given the others
#'   (0 on a tie), sweeping until a sweep changes nothing (at most 100
#'   sweeps; no change lowers \eqn{p(y \mid x)}{p(y | x)}, so it stops).  It
#'   runs from two starts, the independent solution (each label set when its
#'   node term is positive) and the BP marginals rounded at 1/2, and returns
#'   the more probable result (the first on a tie).  Guarantee (if a sweep
#'   changed nothing within the 100, which is not reported): a local
#'   optimum, i.e. no single label flip raises \eqn{p(y \mid x)}{p(y | x)},
#'   at least as probable as both starts; *not* the MAP, not even on a tree
#'   (on the emotions test rows, with the fit of the example below, whose 4
#'   edges form a forest, ICM missed the exact MAP on 7 of 202 while the BP
#'   marginals were within 3e-9).  Use `inference = "exact"` where m allows.
#'
#' @param object A fit from [mlcrf()].
#' @param newx New data with the training columns (a data frame of the
#'   variables for a fit from the formula interface).
#' @param type `"class"`: the MAP label vectors (a logical n x m matrix);
#'   `"score"`: the marginal probabilities \eqn{p(y_l = 1 \mid x)}{p(y_l = 1 | x)}
#'   (n x m); `"prob"`: \eqn{p(y_i \mid x_i)}{p(y_i | x_i)} of the given label
#'   vectors `y`, one per row of `newx` (the input of `prob` in [ml_metrics()]).
#' @param y For `type = "prob"`: an n x m logical or 0/1 matrix (or data
#'   frame) of label vectors, one per row of `newx`; its columns are matched
#'   to the labels by name when it has column names (an error names a missing
#'   label), else taken in the label order of the fit.  Left out when `newx`
#'   is a data set with a train/test split: the labels of its test rows.
#' @param inference `"auto"` (exact up to m = 20 labels), `"exact"` or
#'   `"approximate"`.
#' @param damping,maxit,tol Loopy belief propagation: damping in \[0, 1),
#'   maximum sweeps and tolerance on the messages.
#' @param thresholds For `type = "class"`: cut the marginals at these
#'   thresholds instead of the MAP; by default `fit$thresholds` when the fit
#'   has them (cross-validation stores out-of-fold ones there), else the MAP.
#' @param newdata,na.action As for [predict.ml_fit()].
#' @param ... Not used.
#' @return A matrix (`"class"`, `"score"`) with one column per label, or a
#'   vector (`"prob"`), with an attribute `"inference"`: a list naming the
#'   method that ran and, for the approximate one, the sweeps and convergence
#'   of belief propagation per instance.
#' @examples
#' data(emotions)
#' tr <- emotions$train
#' fit <- mlcrf(emotions$x[tr, ], emotions$y[tr, ], lambda_v = 0.01)
#' head(predict(fit, emotions$x[!tr, ], type = "score"))
#' p <- predict(fit, emotions$x[!tr, ], type = "prob", y = emotions$y[!tr, ])
#' mean(-log(p))
#' @export
predict.mlcrf <- function(object, newx, type = c("class", "score", "prob"), y = NULL,
                          inference = c("auto", "exact", "approximate"),
                          damping = 0.5, maxit = 500, tol = 1e-8, thresholds = NULL,
                          newdata, na.action = NULL, ...) {
  check_no_dots(...)
  predict.ml_fit(object, newx, match.arg(type), thresholds, newdata, na.action, y,
                 inference = match.arg(inference), damping = damping, maxit = maxit,
                 tol = tol)
}

# MLCRF's marginals (type = "score") and probabilities of label vectors
# ("prob"), and its decoder (the MAP): one inference.
ml_scores.mlcrf <- function(object, x, type = "score", y = NULL, ...) {
  mlcrf_infer(object, x, type, y, ...)
}

ml_decode.mlcrf <- function(object, x, ...) mlcrf_infer(object, x, "class", NULL, ...)

# Inference on checked new data `newx`; `y` (type = "prob"): checked label
# vectors in the label order of the fit.
mlcrf_infer <- function(object, newx, type, y, inference = "auto", damping = 0.5,
                        maxit = 500, tol = 1e-8) {
  inference <- match.arg(inference, c("auto", "exact", "approximate"))
  m <- length(object$labels)
  if (type == "prob") y <- y + 0
  if (!is.numeric(damping) || length(damping) != 1 || !(damping >= 0 && damping < 1))
    stop_arg("'damping' must be a number in [0, 1)")
  maxit <- check_positive(maxit, "maxit")
  tol <- check_positive(tol, "tol")
  if (inference == "exact" && m > mlcrf_exact_max)
    stop_arg("exact inference with ", m, " labels would enumerate 2^", m,
             " label vectors per instance; it is limited to ", mlcrf_exact_max,
             " labels: use inference = \"approximate\"")
  exact <- inference == "exact" || (inference == "auto" && m <= mlcrf_exact_auto)
  pot <- mlcrf_potentials(object, newx)
  res <- .Call(C_crf_infer, pot$node, pot$pair, pot$from, pot$to, exact,
               if (type == "prob") y, as.numeric(damping), as.integer(maxit), tol)
  info <- if (exact) list(method = "exact") else
    list(method = "approximate", marginals = "loopy belief propagation",
         map = "iterated conditional modes", bp_iterations = res$bp_iter,
         bp_converged = res$bp_delta < tol)
  if (!exact && any(res$bp_delta >= tol))
    warn_not_converged_msg("loopy belief propagation did not converge for ",
                           sum(res$bp_delta >= tol), " of ", nrow(newx),
                           " instances (see attr(, \"inference\"))")
  out <- switch(type,
    class = {
      cl <- res$map == 1L
      dimnames(cl) <- list(rownames(newx), object$labels)
      cl
    },
    score = {
      sc <- res$marginal
      dimnames(sc) <- list(rownames(newx), object$labels)
      sc
    },
    prob = stats::setNames(pmin(exp(res$logp), 1), rownames(newx)))
  attr(out, "inference") <- info
  out
}

# Exact inference: automatic up to 20 labels, refused above 25.
mlcrf_exact_auto <- 20L
mlcrf_exact_max <- 25L

# The node log-potentials (n x m) and the edge potentials of the
# configurations (0,1), (1,0), (1,1) of each kept edge (n x 3E).
mlcrf_potentials <- function(object, newx) {
  lin <- function(coef) as.matrix(newx %*% coef[-1, , drop = FALSE]) +
    rep(coef[1, ], each = nrow(newx))
  node <- lin(object$nodes)
  E <- nrow(object$edges)
  pair <- matrix(0, nrow(newx), 3L * E)
  if (E > 0) {
    W <- do.call(cbind, object$weights)
    P <- lin(W)
    if (object$edge_type == "full") pair <- P
    else pair[, 3L * seq_len(E)] <- P
  }
  storage.mode(node) <- "double"
  storage.mode(pair) <- "double"
  list(node = node, pair = pair,
       from = match(object$edges$from, object$labels) - 1L,
       to = match(object$edges$to, object$labels) - 1L)
}

#' @export
print.mlcrf <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat("\nCall:  ", paste(deparse(x$call), sep = "\n", collapse = "\n"), "\n\n", sep = "")
  m <- length(x$labels)
  cat("MLCRF on ", x$nobs, " instances, ", length(x$center), " features, ", m,
      " labels; ", x$edge_type, " edges\n", sep = "")
  cat("lambda_w = ", format(x$lambda_w, digits = digits), ", eta = ",
      format(x$eta, digits = digits), ", lambda_v in [",
      paste(format(range(x$lambda_v), digits = digits), collapse = ", "), "]\n", sep = "")
  E <- nrow(x$edges)
  how <- switch(x$edge_mode, learn = "learned", full = "all pairs", none = "no edges")
  cat(E, " of ", m * (m - 1) / 2, " label pairs linked (", how, ")", if (E) ":", "\n", sep = "")
  if (E) {
    e <- x$edges[order(-x$edges$strength), , drop = FALSE]
    shown <- utils::head(e, 20L)
    shown$strength <- format(shown$strength, digits = digits)
    print(shown, row.names = FALSE)
    if (E > 20L) cat("... and ", E - 20L, " more\n", sep = "")
  }
  invisible(x)
}

#' Coefficients of an MLCRF fit
#'
#' @param object A fit from [mlcrf()].
#' @param ... Not used.
#' @return A list: `nodes`, the (d + 1) x m node coefficients (first row the
#'   intercept), and `edges`, one (d + 1) x K matrix per kept edge, on the
#'   scale of the training features.
#' @export
coef.mlcrf <- function(object, ...) {
  check_no_dots(...)
  list(nodes = object$nodes, edges = object$weights)
}

#' Plot the label graph of an MLCRF fit
#'
#' Draws the labels on a circle and the kept edges as lines whose width grows
#' with the edge strength \eqn{\|w_e\|}.  Base graphics.
#'
#' @param x A fit from [mlcrf()].
#' @param max_lwd Line width of the strongest edge.
#' @param col Colour of the edges.
#' @param ... Graphical parameters passed to [graphics::plot()] (merged with
#'   the defaults).
#' @return `x`, invisibly.
#' @examples
#' data(emotions)
#' fit <- mlcrf(emotions$x[1:300, ], emotions$y[1:300, ], lambda_v = 0.1)
#' plot(fit)
#' @export
plot.mlcrf <- function(x, max_lwd = 6, col = "steelblue", ...) {
  m <- length(x$labels)
  ang <- pi / 2 - 2 * pi * (seq_len(m) - 1) / m
  px <- cos(ang)
  py <- sin(ang)
  args <- utils::modifyList(list(x = px, y = py, type = "n", asp = 1, axes = FALSE,
                                 xlab = "", ylab = "", xlim = c(-1.35, 1.35),
                                 ylim = c(-1.35, 1.35),
                                 main = paste0("MLCRF label graph (", nrow(x$edges),
                                               " edges)")),
                            list(...))
  do.call(graphics::plot, args)
  e <- x$edges
  if (nrow(e)) {
    a <- match(e$from, x$labels)
    b <- match(e$to, x$labels)
    w <- e$strength / max(e$strength)
    graphics::segments(px[a], py[a], px[b], py[b], lwd = 0.5 + (max_lwd - 0.5) * w,
                       col = col)
  }
  graphics::points(px, py, pch = 21, bg = "white", cex = if (m > 20) 1.2 else 2)
  cex <- if (m > 20) 0.7 else 0.9
  graphics::text(1.15 * px, 1.15 * py, x$labels, cex = cex, xpd = TRUE)
  invisible(x)
}
