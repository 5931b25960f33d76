#' Stability selection of the edges of an MLCRF
#'
#' Chooses the label graph of [mlcrf()] by stability selection (Meinshausen
#' and Buhlmann 2010): the structure stage is fitted on `B` random subsamples
#' of half the rows, along a decreasing path of `lambda_w`, and an edge is
#' kept when the fraction of subsamples that select it reaches `threshold` at
#' some point of the path.  The parameters of the kept graph are then refitted
#' on all the rows.
#'
#' @section Procedure:
#' For \eqn{b = 1, \dots, B}, a subsample \eqn{I_b} of
#' `floor(fraction * n)` rows is drawn without replacement
#' (`sample.int(n, floor(fraction * n))`, in this order, so that `set.seed()`
#' reproduces it); on \eqn{I_b}, stage 1 of [mlcrf()] (the group-lasso
#' structure fit) runs along the path \eqn{\lambda_1 > \dots > \lambda_K}{lambda_1 > ... > lambda_K}
#' with warm starts, and edge \eqn{e} is selected at \eqn{\lambda_k}{lambda_k} when
#' its weight block is non-zero.  The selection probability is
#' \eqn{\hat\Pi_e(\lambda_k)}{Pi_e(lambda_k)}, the fraction of the \eqn{B}
#' subsamples that select \eqn{e} at \eqn{\lambda_k}{lambda_k}, and the stable
#' edges are those with \eqn{\max_k \hat\Pi_e(\lambda_k) \ge}{max_k Pi_e(lambda_k) >=} `threshold`.
#' Meinshausen and Buhlmann's bound on the expected number \eqn{V} of falsely
#' selected edges (under their exchangeability assumption, for `fraction = 0.5` and
#' `threshold` > 1/2) is \eqn{E(V) \le q^2 / ((2\,\mathrm{threshold} - 1) E)}{E(V) <= q^2 / ((2 threshold - 1) E)},
#' \eqn{q} the mean number of edges a subsample selects at the smallest
#' \eqn{\lambda}{lambda} of the path and \eqn{E = m(m-1)/2}; it is returned
#' as `error_bound`.  The bound is only useful when \eqn{q} is small against
#' \eqn{\sqrt{E}}{sqrt(E)}: the path should stop where few edges are selected,
#' hence the default path, from `lambda_max` (no edge) down to the default
#' `lambda_w` of [mlcrf()] (at which a pair without dependence enters the
#' graph with probability about 0.05/E, see its Tuning section), both on all
#' the rows and multiplied by \eqn{1/\sqrt{fraction}}{1/sqrt(fraction)} (the
#' noise of a subsample's gradient is that much larger): `nlambda` values
#' evenly on a log scale.
#'
#' The refit on all rows is stage 2 of [mlcrf()] on the stable edges, with
#' the edge ridge \eqn{\lambda_w (1 - \eta)}{lambda_w (1 - eta)} at `lambda_refit`
#' (by default the point of the path where the subsamples select, on average,
#' as many edges as are stable).
#'
#' @inheritParams mlcrf
#' @param lambda_w The decreasing path of edge penalties; by default `nlambda`
#'   values as described in the section Procedure.
#' @param eta The group elastic-net mix (one value).
#' @param nlambda Length of the default path.
#' @param B Number of subsamples.
#' @param fraction Fraction of the rows in each subsample (Meinshausen and
#'   Buhlmann's bound holds for 1/2).
#' @param threshold Selection probability from which an edge is stable, in
#'   (1/2, 1]: 0.6 by default (Meinshausen and Buhlmann find results
#'   insensitive to values from 0.6 to 0.9).
#' @param lambda_v Ridge penalties of the nodes, or `NULL` to choose them
#'   once on all the rows as [mlcrf()] does.
#' @param lambda_refit The `lambda_w` of the refit on all rows, or `NULL` for
#'   the default of the section Procedure.
#' @param progress Print a line per subsample?
#' @param maxit Deprecated name of `max_iter` (accepted with a warning of
#'   class `"mlss_deprecated"` until the next release).
#' @return An object of class `"mlcrf_stability"`: a list with
#'   \item{prob}{the E x K matrix of selection probabilities (rows the pairs
#'     `"from~to"`, columns the path).}
#'   \item{max_prob}{each pair's largest selection probability.}
#'   \item{edges}{a data frame of the stable pairs (`from`, `to`,
#'     `max_prob`).}
#'   \item{lambda_w, eta, lambda_v, lambda_max, B, fraction, threshold}{the settings.}
#'   \item{selected}{the mean number of edges a subsample selects at each
#'     point of the path.}
#'   \item{error_bound}{Meinshausen and Buhlmann's bound on the expected
#'     number of false edges (see Procedure).}
#'   \item{fit}{the [mlcrf()] fit on all rows with the stable edges
#'     (stage 2 only: `start` holds the refit, not a stage-1 solution).}
#' @references Meinshausen N. and Buhlmann P. (2010). Stability selection.
#'   Journal of the Royal Statistical Society B 72(4), 417-473.
#' @seealso [mlcrf()], [cv_mlcrf()].
#' @examples
#' x <- mlss::emotions$x[1:200, 1:20]
#' y <- mlss::emotions$y[1:200, 1:3]
#' set.seed(1)
#' st <- mlcrf_stability(x, y, lambda_v = 0.05, B = 4, nlambda = 3, tol = 1e-4)
#' st
#' @export
mlcrf_stability <- function(x, y, lambda_w = NULL, eta = 1, nlambda = 10, B = 50,
                            fraction = 0.5, threshold = 0.6, lambda_v = NULL,
                            edge_type = c("full", "ising"), lambda_refit = NULL,
                            tol = 1e-6, max_iter = 2000, progress = FALSE,
                            na_labels = c("refuse", "negative"), maxit) {
  call <- match.call()
  max_iter <- deprecated_maxit(max_iter, maxit, "mlcrf_stability")
  edge_type <- match.arg(edge_type)
  x <- as_features(x)
  y <- as_labels(y, nrow(x), na = match.arg(na_labels), fun = "mlcrf_stability")
  if (ncol(y) < 2) stop_arg("'y' has one label: stability selection of edges needs at least 2")
  eta <- check_eta(eta)
  if (eta == 0) stop_arg("'eta' = 0 selects no edges (no group penalty): give eta in (0, 1]")
  tol <- check_positive(tol, "tol")
  max_iter <- check_positive(max_iter, "max_iter")
  B <- check_positive(B, "B")
  if (B != round(B)) stop_arg("'B' must be a whole number >= 1")
  if (!is.numeric(fraction) || length(fraction) != 1 || is.na(fraction) || fraction <= 0 ||
      fraction >= 1)
    stop_arg("'fraction' must be a number in (0, 1)")
  if (!is.numeric(threshold) || length(threshold) != 1 || is.na(threshold) ||
      threshold <= 0.5 || threshold > 1)
    stop_arg("'threshold' must be a number in (0.5, 1]")
  progress <- check_flag(progress, "progress")
  n <- nrow(x)
  nsub <- floor(fraction * n)
  if (nsub < 2) stop_arg("'fraction' * (number of rows) must be at least 2")
  if (is.null(lambda_v)) lambda_v <- mlcrf(x, y, edges = "none", edge_type = edge_type,
                                           tol = tol, max_iter = max_iter, progress = progress)$lambda_v
  lambda_v <- check_lambda_v(lambda_v, ncol(y))
  prep_all <- mlcrf_prepare(x, y + 0, edge_type)
  range <- mlcrf_lambda_range(x, y, lambda_v, eta, edge_type, tol, max_iter)
  lambda_max <- range$lambda_max
  if (is.null(lambda_w)) {
    if (!is.numeric(nlambda) || length(nlambda) != 1 || is.na(nlambda) || nlambda < 1)
      stop_arg("'nlambda' must be a whole number >= 1")
    top <- lambda_max / sqrt(fraction)
    low <- min(range$lambda_default, lambda_max) / sqrt(fraction)
    lambda_w <- exp(seq(log(top), log(low), length.out = nlambda))
  }
  if (!is.numeric(lambda_w) || !length(lambda_w) || anyNA(lambda_w) || any(lambda_w < 0))
    stop_arg("'lambda_w' must be a vector of numbers >= 0")
  lambda_w <- sort(unique(lambda_w), decreasing = TRUE)
  nall <- length(prep_all$from)
  pair_names <- paste(prep_all$labels[prep_all$from], prep_all$labels[prep_all$to], sep = "~")
  count <- matrix(0, nall, length(lambda_w),
                  dimnames = list(pair_names, format(lambda_w, digits = 3)))
  for (b in seq_len(B)) {
    rows <- sample.int(n, nsub)
    sel <- mlcrf_path_edges(x[rows, , drop = FALSE], y[rows, , drop = FALSE] + 0, lambda_w,
                            eta, lambda_v, edge_type, tol, max_iter)
    count <- count + sel
    if (progress) message("mlcrf_stability: subsample ", b, " of ", B, " done")
  }
  prob <- count / B
  max_prob <- apply(prob, 1, max)
  stable <- which(max_prob >= threshold)
  selected <- colSums(prob)
  q <- selected[length(selected)]
  if (is.null(lambda_refit)) lambda_refit <- lambda_w[which.min(abs(selected - length(stable)))]
  lambda_refit <- check_lambda_w(lambda_refit)
  edf <- data.frame(from = prep_all$labels[prep_all$from[stable]],
                    to = prep_all$labels[prep_all$to[stable]],
                    max_prob = unname(max_prob[stable]), stringsAsFactors = FALSE)
  fit <- mlcrf_fit_edges(prep_all, x, y, stable, lambda_v, lambda_refit, eta, tol, max_iter)
  fit$call <- call
  structure(list(prob = prob, max_prob = max_prob, edges = edf, lambda_w = lambda_w,
                 eta = eta, lambda_v = lambda_v, lambda_max = lambda_max, B = B,
                 fraction = fraction, threshold = threshold, selected = selected,
                 error_bound = unname(q^2 / ((2 * threshold - 1) * nall)),
                 lambda_refit = lambda_refit, fit = fit, call = call),
            class = "mlcrf_stability")
}

# The edges stage 1 selects at each point of a decreasing lambda_w path, with
# warm starts: an E x K 0/1 matrix.
mlcrf_path_edges <- function(x, y, lambda_w, eta, lambda_v, edge_type, tol, max_iter) {
  prep <- mlcrf_prepare(x, y, edge_type)
  theta <- matrix(0, prep$d + 1L, prep$m + length(prep$from) * prep$K)
  sel <- matrix(0, length(prep$from), length(lambda_w))
  for (k in seq_along(lambda_w)) {
    s1 <- mlcrf_stage1(prep, lambda_v, lambda_w[k], eta, theta, tol, max_iter)
    if (s1$status != 0L)
      warn_not_converged_msg("mlcrf_stability: no convergence in 'max_iter' = ", max_iter,
                             " iterations")
    theta <- s1$theta
    sel[, k] <- edge_norms(prep, theta) > 0
  }
  sel
}

# An mlcrf fit on all rows with a given set of edges (indices into all
# pairs): stage 2 only, warm-started from the nodes fitted alone.
mlcrf_fit_edges <- function(prep, x, y, keep, lambda_v, lambda_w, eta, tol, max_iter) {
  p <- prep$d + 1L
  nodes <- mlcrf_call_fit(prep, integer(0), lambda_v, 0, eta, matrix(0, p, prep$m), 2L,
                          tol, max_iter)$theta
  th0 <- cbind(nodes, matrix(0, p, length(keep) * prep$K))
  s2 <- mlcrf_call_fit(prep, keep, lambda_v, lambda_w, mlcrf_refit_eta(eta), th0, 2L, tol,
                       max_iter)
  if (s2$status == 2L) stop("mlcrf: the L-BFGS refit failed", call. = FALSE)
  if (s2$status == 1L)
    warn_not_converged_msg("mlcrf: no convergence in 'max_iter' = ", max_iter, " iterations")
  stage1 <- matrix(0, p, prep$m + length(prep$from) * prep$K)
  cols <- c(seq_len(prep$m), edge_columns(prep, keep))
  stage1[, cols] <- s2$theta
  res <- list(theta = s2$theta, keep = keep, stage1 = stage1, lambda_v = lambda_v,
              lambda_w = lambda_w, eta = eta, lambda_max = NA_real_,
              edge_mode = "learn",
              convergence = list(stage2 = s2[c("status", "iter", "objective")]))
  mlcrf_object(res, prep, x, y, NULL)
}

#' @export
print.mlcrf_stability <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat("\nCall:  ", paste(deparse(x$call), sep = "\n", collapse = "\n"), "\n\n", sep = "")
  cat("Stability selection of MLCRF edges: ", x$B, " subsamples of ", format(x$fraction),
      " of the rows, ", length(x$lambda_w), " values of lambda_w, eta = ", format(x$eta),
      "\n", sep = "")
  cat(nrow(x$edges), " of ", length(x$max_prob), " pairs stable (selection probability >= ",
      format(x$threshold), "); bound on the expected false edges: ",
      format(x$error_bound, digits = digits), "\n", sep = "")
  if (nrow(x$edges)) {
    e <- x$edges[order(-x$edges$max_prob), , drop = FALSE]
    print(utils::head(e, 20L), row.names = FALSE, digits = digits)
    if (nrow(e) > 20L) cat("... and ", nrow(e) - 20L, " more\n", sep = "")
  }
  invisible(x)
}

#' @export
predict.mlcrf_stability <- function(object, ...) stats::predict(object$fit, ...)
