#' Predict with an MLCRF fit
#'
#' @section Inference:
#' The model factorises over the connected components of the learned graph,
#' so inference runs per component (the marginals and MAP of each, and
#' \eqn{\log Z(x)} the sum of theirs).  Exact inference enumerates all
#' \eqn{2^k} label vectors of a component of k labels in Gray-code order (one
#' label changes per step, so each score costs O(degree) to update) with a
#' running log-sum-exp: time \eqn{O(k 2^k)} per instance (measured on a loaded
#' machine: 0.06 ms at k = 10, 3 ms at k = 14, 0.18 s at k = 20;
#' bench/mlcrf.R), memory \eqn{O(k)}.  `inference = "auto"` enumerates every
#' component of at most 20 labels (so a sparse graph over hundreds of labels
#' is still inferred exactly) and infers larger components approximately;
#' `"exact"` enumerates every component and is refused above m = 25 labels;
#' `"approximate"` infers every component with edges approximately.
#' Approximately means: on a component without cycles, sum-product belief
#' propagation for the marginals (damped parallel updates, messages
#' \eqn{m \leftarrow}{m <-} `damping` \eqn{m_{old} + (1 -}{ m_old + (1 - }`damping`\eqn{) m_{new}}{) m_new}
#' until no message changes by more than `tol`, at most `max_iter` sweeps; if they
#' do not settle, run again three times with the damping raised to
#' \eqn{(1 + d)/2}, then once with the given damping on the serial schedule:
#' the messages updated in place, edge by edge, each update seeing those
#' already made in the sweep, which settles on graphs where the parallel
#' schedule oscillates) and max-product belief propagation for the MAP; on a
#' component with cycles, Gibbs sampling with replica exchange (parallel
#' tempering) for the marginals, and loopy BP's Bethe approximation for
#' \eqn{\log Z} (`type = "prob"`, capped at 1).  The sampler runs 8 chains at
#' inverse temperatures \eqn{\beta} from 1 down to 0.1 (geometric), the chain
#' at \eqn{\beta} sampling \eqn{p(y \mid x)^\beta}{p(y | x)^beta}: each sweep
#' updates every chain's labels in order, then proposes to swap the states of
#' each pair of neighbouring temperatures, accepted with probability
#' \eqn{\min(1, e^{(\beta_i - \beta_j)(s(y_j) - s(y_i))})}{min(1, exp((beta_i - beta_j)(s(y_j) - s(y_i))))},
#' \eqn{s} the unnormalised score; hot chains cross between modes and hand
#' their states down.  Two independent runs of `sweeps / 2` sweeps after a
#' burn-in of `sweeps / 10`, one from the best MAP candidate, one from a
#' random label vector; the marginals are Rao-Blackwellised from the chain at
#' \eqn{\beta = 1} (the mean of
#' \eqn{p(y_l = 1 \mid y_{-l}, x)}{p(y_l = 1 | y_-l, x)}) over both runs; the
#' standard error is the larger of the batch-means one (20 batches a run)
#' and the between-run one (the spread of the two runs' means: large where
#' the runs sit in different modes, which batch means within one run cannot
#' see); while the largest standard error exceeds 0.005 the sampler runs
#' again with 2, 4 and 8 times the sweeps.  Plain Gibbs sampling (one
#' temperature, the sampler until session 39) does not mix on frustrated
#' dense graphs: on random dense 12-label graphs whose every pair entry is
#' \eqn{N(0, s^2)}, \eqn{s} = 2.18 (the spread of the pair potentials learned
#' on yeast) or twice that, its marginals were off by up to 0.40 and 0.83;
#' replica exchange's by 0.014 and 0.012, at 6 to 10 times the CPU time
#' (bench/mlcrf_tempering.R, 200 rows each; bench/mlcrf_structure.md).
#' The MAP of an approximate component is the best of these candidates, each
#' polished by iterated conditional modes (ICM: each label in turn set to its
#' more probable value given the others, until a sweep changes nothing, at
#' most 100 sweeps): the max-product decoding, the independent solution (each
#' label by its node term), the rounded marginals, `starts` random label
#' vectors, and the most probable state the Gibbs sampler visited.
#'
#' Only what `type` asks for is computed on an approximate component:
#' `type = "prob"` runs sum-product BP alone (no MAP search, no sampling), so
#' that the log-likelihood of a label vector over a component of more than 20
#' labels with cycles is the Bethe approximation
#' \eqn{\log p(y \mid x) \approx s(y) - \log Z_{Bethe}(x)}{log p(y | x) ~ s(y) - log Z_Bethe(x)},
#' \eqn{s} the unnormalised score, from BP's converged messages (a warning when
#' BP did not settle).  With `loopy = "bp"` the marginals of a component with
#' cycles are BP's beliefs where BP settled, and Gibbs sampling runs only on
#' the instances where it did not (`attr(, "inference")$marginals` says
#' which ran); the MAP search then starts from BP's candidates alone there.  On
#' a 30-label problem with a complete learned graph (bench/mlcrf_cv30.R) this
#' is about 25 times cheaper than sampling, but where the couplings are strong
#' BP's marginals can be far off: on the same generator with 20 labels
#' (bench/mlcrf_bethe20.R, 30 rows) their mean absolute error was 0.17 (max
#' 0.90) against 0.007 for Gibbs sampling, and the Bethe log-likelihood loss
#' 9.84 against the exact 10.20 (12 labels: 5.718 against 5.712).
#' @section Approximations and what they guarantee:
#' * Exact enumeration: the MAP, the marginals, \eqn{\log Z(x)} and
#'   `type = "prob"` are exact (to rounding; a tie for the MAP goes to the
#'   vector met first in Gray-code order).
#' * Belief propagation on a component without cycles: exact marginals and
#'   log Z once converged (damping does not move the fixed point); max-product
#'   gives the exact MAP there when it converged without ties, and the MAP is
#'   then reported as certified (`map_certified`).
#' * Gibbs sampling on a component with cycles: the marginals are estimates
#'   with the reported Monte Carlo standard error (`gibbs_se`, the largest over
#'   the labels, per instance, within and between the two runs); a warning
#'   counts the instances where it stays above 0.005 after 8 times the sweeps.
#'   Measured (bench/mlcrf_inference.R): within 0.02 of the exact marginals on
#'   the learned yeast graph and on dense random 12-label graphs with
#'   couplings of the size learned on yeast and twice that, frustrated ones
#'   (every entry symmetric about 0) included.  Replica exchange mixes as far
#'   as its hottest chain (\eqn{\beta = 0.1}) does: with couplings much larger
#'   than these, both runs can stay in one mode, and the between-run error
#'   shows only runs that stay in different ones.  `swap_rate` (per instance)
#'   is the lowest acceptance of a swap between neighbouring temperatures.  The
#'   MAP is a local optimum (no single label flip raises
#'   \eqn{p(y \mid x)}{p(y | x)}) at least as probable as every candidate, and
#'   is not certified.
#' * The Bethe \eqn{\log Z} of a component with cycles is neither an upper nor a
#'   lower bound: the `"prob"` values are capped at 1 and need not sum to 1;
#'   when BP does not settle even with more damping (it matters for
#'   `type = "prob"`, or for the marginals of a tree), a warning counts the
#'   instances.
#' * `attr(, "inference")` says what ran: `method` (`"exact"` when every
#'   component was enumerated, else `"approximate"`), the component sizes,
#'   and per instance `exact_labels`, `bp_iterations`, `bp_converged`,
#'   `gibbs_se`, `swap_rate` and `map_certified`.
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
#' @param inference `"auto"` (exact on every connected component of at
#'   most 20 labels), `"exact"` or `"approximate"`; see Inference.
#' @param loopy The marginals of an approximate component with cycles:
#'   `"gibbs"` (Gibbs sampling, see Inference) or `"bp"` (loopy belief
#'   propagation's marginals where it settled, Gibbs sampling where it did not:
#'   much cheaper, but only as accurate as the Bethe approximation, see Inference).  `NULL`:
#'   the fit's own setting (the fold fits of [cv_mlcrf()] carry
#'   `"bp"`), else `"gibbs"`.
#' @param maxit Deprecated name of `max_iter` (accepted with a warning of
#'   class `"mlss_deprecated"` until the next release).
#' @param damping,max_iter,tol Belief propagation: damping in \[0, 1),
#'   maximum sweeps and tolerance on the messages.
#' @param sweeps Gibbs sweeps per temperature (two runs of `sweeps / 2`, each
#'   after a burn-in of `sweeps / 10`) on a component with cycles; see
#'   Inference.
#' @param starts Random starts of iterated conditional modes for the MAP.
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
                          damping = 0.5, max_iter = 500, tol = 1e-8, sweeps = 5000,
                          starts = 5, loopy = NULL, thresholds = NULL, newdata,
                          na.action = NULL, ..., maxit) {
  check_no_dots(...)
  max_iter <- deprecated_maxit(max_iter, maxit, "predict.mlcrf")
  predict.ml_fit(object, newx, match.arg(type), thresholds, newdata, na.action, y,
                 inference = match.arg(inference), damping = damping, max_iter = max_iter,
                 tol = tol, sweeps = sweeps, starts = starts, loopy = loopy)
}

# MLCRF's marginals (type = "score") and probabilities of label vectors
# ("prob"), and its decoder (the MAP): one inference.
ml_scores.mlcrf <- function(object, x, type = "score", y = NULL, ...) {
  mlcrf_infer(object, x, type, y, ...)
}

ml_decode.mlcrf <- function(object, x, ...) mlcrf_infer(object, x, "class", NULL, ...)

# Inference on checked new data `newx`; `y` (type = "prob"): checked label
# vectors in the label order of the fit.  loopy = NULL: the fit's own
# setting (cv_mlcrf()'s fold fits carry "bp"), else "gibbs".
mlcrf_infer <- function(object, newx, type, y, inference = "auto", damping = 0.5,
                        max_iter = 500, tol = 1e-8, sweeps = 5000, starts = 5, loopy = NULL) {
  inference <- match.arg(inference, c("auto", "exact", "approximate"))
  loopy <- loopy %||% object$loopy %||% "gibbs"
  if (!is.character(loopy) || length(loopy) != 1 || !loopy %in% c("gibbs", "bp"))
    stop_arg("'loopy' must be NULL, \"gibbs\" or \"bp\"")
  m <- length(object$labels)
  if (type == "prob") y <- y + 0
  if (!is.numeric(damping) || length(damping) != 1 || !(damping >= 0 && damping < 1))
    stop_arg("'damping' must be a number in [0, 1)")
  max_iter <- check_count(max_iter, "max_iter")
  tol <- check_positive(tol, "tol")
  if (inference == "exact" && m > mlcrf_exact_max)
    stop_arg("exact inference with ", m, " labels would enumerate 2^", m,
             " label vectors per instance; it is limited to ", mlcrf_exact_max,
             " labels: use inference = \"approximate\"")
  exact <- inference == "exact" || (inference == "auto" && m <= mlcrf_exact_auto)
  pot <- mlcrf_potentials(object, newx)
  res <- crf_infer_call(pot$node, pot$pair, pot$from, pot$to,
                        if (exact) "exact" else inference, if (type == "prob") y, damping,
                        max_iter, tol, sweeps, starts, what = type, loopy = loopy)
  info <- crf_inference_info(res, m, tol, sweeps, type, loopy)
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
