#' Predict with classifier chains
#'
#' Walks the chain greedily: each label is predicted from the features and
#' the *predicted* labels before it in the chain (Read et al. 2011).
#'
#' @section Approximations and what they guarantee:
#' The greedy walk follows one path of the chain's tree of label vectors, so
#' its vector need not be the chain's most probable one (the MAP of
#' [predict.pcc()]), and its `"score"` values are conditional probabilities
#' along that path, not marginals.  Its `"class"` is that of [predict.pcc()]
#' with `inference = "beam"` and `beam_width = 1`.
#'
#' @param object A fit from [cc()].
#' @param newx New data with the training columns: a numeric matrix, data frame
#'   or sparse `Matrix` (for a fit from the formula interface, a data frame
#'   with the variables of the formula).
#' @param type `"class"`: the greedy label vectors (a logical n x m matrix,
#'   label \eqn{l} set when its conditional probability exceeds 1/2);
#'   `"score"`: the conditional probabilities along that greedy path,
#'   \eqn{p(y_l = 1 \mid x, \hat y_{<l})}{p(y_l = 1 | x, yhat_<l)} with
#'   \eqn{\hat y_{<l}}{yhat_<l} the greedy predictions of the labels before
#'   \eqn{l} (not the marginals, which [predict.pcc()] gives), so that
#'   `"class"` is `"score" > 0.5`.
#' @param thresholds For `type = "class"`: cut the `"score"` values at these
#'   thresholds instead of walking the chain (one number, or one per label);
#'   by default `fit$thresholds` when the fit has them (cross-validation
#'   stores out-of-fold ones there), else the greedy walk.
#' @param newdata,na.action As for [predict.ml_fit()].
#' @param ... Not used.
#' @return An n x m matrix with one column per label, in the label order of
#'   the training `y`.
#' @examples
#' tr <- mlss::emotions$train
#' fit <- cc(mlss::emotions$x[tr, ], mlss::emotions$y[tr, ], cost = 0.1)
#' head(predict(fit, mlss::emotions$x[!tr, ], type = "score"))
#' @export
predict.cc <- function(object, newx, type = c("class", "score"), thresholds = NULL,
                       newdata, na.action = NULL, ...) {
  check_no_dots(...)
  predict.ml_fit(object, newx, match.arg(type), thresholds, newdata, na.action)
}

# The greedy walk of a classifier chain: its conditional probabilities along
# the path (scores) and its label vectors (the decoder).
ml_scores.cc <- function(object, x, type = "score", y = NULL, ...) {
  check_no_options(list(...))
  cc_walk(object, x, "score")
}

ml_decode.cc <- function(object, x, ...) {
  check_no_options(list(...))
  cc_walk(object, x, "class")
}

cc_walk <- function(object, x, type) {
  parts <- chain_parts(object, x)
  res <- .Call(C_chains_infer, parts$A, parts$G, 0L, 1L, 1L, TRUE)
  chain_output(res, type, parts)
}

#' Predict with probabilistic classifier chains
#'
#' Inference in the chain's probability model
#' \eqn{p(y \mid x) = \prod_l p(y_l \mid x, y_{<l})}{p(y | x) = prod_l p(y_l | x, y_<l)}
#' (Dembczynski et al. 2010).
#'
#' @section Inference:
#' * `"exact"`: a depth-first walk of the tree of the \eqn{2^m} label vectors,
#'   each node extending its parent's prefix by one label (time
#'   \eqn{O(m 2^m)} per instance for the marginals, memory \eqn{O(m)}).  The
#'   marginals sum the probabilities of the prefixes; the MAP alone
#'   (`type = "class"`) is found by branch and bound, which is exact and
#'   usually visits a small part of the tree (a prefix no more probable than
#'   the best complete vector so far is not extended: probabilities only fall
#'   along a path).  Above 20 labels (a tree of more than \eqn{2^{20}}{2^20}
#'   vectors per instance), `predict()` switches to `"beam"` with the
#'   `beam_width` asked for, and `attr(, "inference")` says so.
#' * `"beam"`: beam search (Kumar et al. 2013) keeping the `beam_width` most
#'   probable prefixes at each label; `"class"` is the most probable vector of
#'   the final beam, and the marginal of label \eqn{l} the probability mass of
#'   the candidates with \eqn{y_l = 1} over the mass of all candidates at that
#'   depth, before pruning (see below).  A beam of at least \eqn{2^m} prunes nothing and is exact (MAP and
#'   marginals).
#' * `"sample"`: `n_samples` label vectors drawn from the chain (ancestral
#'   sampling, R's random number generator: `set.seed()` reproduces it);
#'   `"class"` is the most probable vector sampled, the marginal of label
#'   \eqn{l} the mean over the samples of \eqn{p(y_l = 1 \mid x, y_{<l})}{p(y_l = 1 | x, y_<l)}
#'   (an unbiased estimate with less variance than the frequency of
#'   \eqn{y_l = 1}).
#'
#' `type = "prob"` needs no search: the product of the chain's conditional
#' probabilities along the given vector, exact for any number of labels.
#'
#' @section Approximations and what they guarantee:
#' * `"exact"`: the marginals and the MAP are exact (to rounding; a tie for
#'   the MAP goes to the vector reached first, likelier branch first).
#' * `"beam"`: the marginal of label \eqn{l} is computed over the candidates
#'   of its depth *before pruning*: the \eqn{2 b} extensions, by
#'   \eqn{y_l = 0} and \eqn{y_l = 1}, of the \eqn{b} prefixes kept at the
#'   label before it in the chain, each weighted by its probability; the
#'   beam is pruned to `beam_width` only after.  It is therefore exact for the
#'   first \eqn{\lfloor \log_2 B \rfloor + 1}{floor(log2(B)) + 1} labels of
#'   the chain (B = `beam_width`: nothing has been pruned before them) and a
#'   ratio in \[0, 1\] with no error bound after; a label's mass is
#'   renormalised over the candidates, so the mass the beam dropped is
#'   ignored, not counted as \eqn{y_l = 0}.  The MAP is the most probable
#'   vector of the final beam: no guarantee of being the MAP, only that its
#'   probability (`type = "prob"`) is a lower bound on the MAP's.  A beam of
#'   one is [predict.cc()]'s greedy walk; a beam of \eqn{2^m} or more (it is
#'   cut to \eqn{2^m}) is exact.
#' * `"sample"`: the marginals are unbiased, and each is a mean of `n_samples`
#'   numbers in \[0, 1\], so its Monte Carlo standard error is at most
#'   \eqn{1 / (2 \sqrt{S})}{1 / (2 sqrt(S))} for S = `n_samples` (0.016 at
#'   the default 1000); the first label of the chain is exact, its
#'   conditional probability not depending on any sample.  The MAP is the
#'   most probable vector sampled: no guarantee (it is the MAP with
#'   probability \eqn{1 - (1 - p^*)^S}{1 - (1 - p*)^S}, \eqn{p^*}{p*} the
#'   MAP's probability), and its probability is a lower bound on the MAP's.
#'   The results depend on the R seed.
#'
#' @param object A fit from [pcc()].
#' @inheritParams predict.cc
#' @param type `"class"`: the most probable label vectors (MAP, a logical n x
#'   m matrix; for beam and sampling, the best one found); `"score"`: the
#'   marginal probabilities \eqn{p(y_l = 1 \mid x)}{p(y_l = 1 | x)} (n x m);
#'   `"prob"`: \eqn{p(y_i \mid x_i)}{p(y_i | x_i)} of the given label vectors
#'   `y`, one per row of `newx` (the input of `prob` in [ml_metrics()]), as
#'   for [predict.mlcrf()].
#' @param y For `type = "prob"`: an n x m logical or 0/1 matrix (or data
#'   frame) of label vectors, one per row of `newx`; its columns are matched
#'   to the labels by name when it has column names (an error names a missing
#'   label), else taken in the label order of the fit.  Left out when `newx`
#'   is a data set with a train/test split: the labels of its test rows.
#' @param inference `"exact"`, `"beam"` or `"sample"`; by default the one
#'   given to [pcc()].
#' @param thresholds For `type = "class"`: cut the marginals at these
#'   thresholds instead of the MAP; by default `fit$thresholds` when the fit
#'   has them (cross-validation stores out-of-fold ones there), else the MAP.
#' @param newdata,na.action As for [predict.ml_fit()].
#' @param beam_width,n_samples The beam width and the number of samples; by
#'   default those given to [pcc()].  Sampling takes time proportional to
#'   `n_samples` times the number of labels squared per instance (it can be
#'   interrupted).
#' @return A matrix (`"class"`, `"score"`) with one column per label, or a
#'   vector (`"prob"`), with an attribute `"inference"` naming the method that
#'   ran (and the nodes of the tree visited per instance, for exact
#'   inference).
#' @references Kumar A., Vembu S., Menon A. K. and Elkan C. (2013). Beam
#'   search algorithms for multilabel learning. Machine Learning 92, 65-89.
#' @examples
#' tr <- mlss::emotions$train
#' x <- mlss::emotions$x
#' y <- mlss::emotions$y
#' fit <- pcc(x[tr, ], y[tr, ], cost = 0.1)
#' head(predict(fit, x[!tr, ], type = "score"))
#' head(predict(fit, x[!tr, ], type = "class", inference = "beam", beam_width = 4))
#' p <- predict(fit, x[!tr, ], type = "prob", y = y[!tr, ])
#' mean(-log(p))
#' @export
predict.pcc <- function(object, newx, type = c("class", "score", "prob"), y = NULL,
                        inference = object$inference, beam_width = object$beam_width,
                        n_samples = object$n_samples, thresholds = NULL, newdata,
                        na.action = NULL, ...) {
  check_no_dots(...)
  predict.ml_fit(object, newx, match.arg(type), thresholds, newdata, na.action, y,
                 inference = inference, beam_width = beam_width, n_samples = n_samples)
}

# PCC's marginals (type = "score") or the probabilities of given label vectors
# (type = "prob", by the chain rule: no search), and its decoder (the MAP of
# the inference asked for).
ml_scores.pcc <- function(object, x, type = "score", y = NULL, ...) {
  if (type != "prob") return(pcc_infer(object, x, type, ...))
  parts <- chain_parts(object, x)
  yc <- y[, parts$idx, drop = FALSE] + 0L
  lp <- .Call(C_chains_logprob, parts$A, parts$G, yc)
  out <- exp(lp)
  attr(out, "inference") <- list(method = "chain rule")
  out
}

ml_decode.pcc <- function(object, x, ...) pcc_infer(object, x, "class", ...)

pcc_infer <- function(object, x, type, inference = object$inference,
                      beam_width = object$beam_width, n_samples = object$n_samples) {
  inference <- match.arg(inference, c("exact", "beam", "sample"))
  beam_width <- check_count(beam_width, "beam_width")
  n_samples <- check_count(n_samples, "n_samples")
  m <- length(object$labels)
  # exact inference walks a tree of 2^m vectors per instance: beyond
  # pcc_exact_max labels, beam search (documented in ?predict.pcc)
  switched <- inference == "exact" && m > pcc_exact_max
  if (switched) inference <- "beam"
  parts <- chain_parts(object, x)
  method <- match(inference, c("exact", "beam", "sample"))
  # a beam never holds more than the 2^m vectors (and its scratch is B x m)
  if (m < 31) beam_width <- as.integer(min(beam_width, 2^m))
  res <- .Call(C_chains_infer, parts$A, parts$G, method, beam_width, n_samples,
               type == "score")
  out <- chain_output(res, type, parts)
  attr(out, "inference") <- switch(inference,
    exact = list(method = "exact", nodes = res$nodes),
    beam = c(list(method = "beam", beam_width = beam_width),
             if (switched) list(note = paste0("exact inference is limited to ",
                                              pcc_exact_max, " labels"))),
    sample = list(method = "sample", n_samples = n_samples))
  out
}

# Exact inference switches to beam search above this many labels.
pcc_exact_max <- 20L

# The x parts a_l(x) = b_l + w_l'x of the new rows (n x m, checked features)
# and the chain weights, both in chain order, for the C inference.
chain_parts <- function(object, x) {
  idx <- match(object$order, object$labels)
  A <- as.matrix(x %*% object$W[, idx, drop = FALSE]) +
    rep(object$intercept[idx], each = nrow(x))
  storage.mode(A) <- "double"
  G <- unname(object$G[idx, idx, drop = FALSE])
  storage.mode(G) <- "double"
  list(A = A, G = G, idx = idx)
}

# The C results back in the label order of the fit.
chain_output <- function(res, type, parts) {
  back <- order(parts$idx)
  if (type == "class") res$map[, back, drop = FALSE] == 1L
  else res$score[, back, drop = FALSE]
}

#' @export
print.chain <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat("\nCall:  ", paste(deparse(x$call), sep = "\n", collapse = "\n"), "\n\n", sep = "")
  what <- if (inherits(x, "pcc")) "Probabilistic classifier chain" else "Classifier chain"
  cat(what, ", L2 logistic regression, on ", x$nobs, " instances, ", nrow(x$W),
      " features, ", length(x$labels), " labels\n", sep = "")
  shown <- utils::head(x$order, 10L)
  cat("order: ", paste(shown, collapse = " < "),
      if (length(x$order) > 10L) paste0(" < ... (", length(x$order) - 10L, " more)"),
      "\n", sep = "")
  cost <- unique(x$cost)
  cat("cost ", if (length(cost) == 1) format(cost, digits = digits) else
    paste0(format(min(cost), digits = digits), " to ", format(max(cost), digits = digits)),
    "\n", sep = "")
  if (inherits(x, "pcc")) {
    cat("inference: ", x$inference,
        switch(x$inference, beam = paste0(" (width ", x$beam_width, ")"),
               sample = paste0(" (", x$n_samples, " samples)"), ""), "\n", sep = "")
  }
  cat("\n")
  invisible(x)
}

#' Coefficients of a classifier chain
#'
#' @param object A fit from [cc()] or [pcc()].
#' @param ... Not used.
#' @return The (1 + d + m) x m weights of the labels' logistic regressions
#'   (one column per label, on the scale of the log-odds): the intercept, the
#'   d features, then the m labels as inputs (0/1; zero rows for the labels
#'   that come later in the chain).
#' @export
coef.chain <- function(object, ...) {
  check_no_dots(...)
  rbind("(Intercept)" = object$intercept, object$W, object$G)
}
