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
  if (!is.null(object$models)) return(chain_learner_walk(object, x, type))
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
  if (!is.null(object$models)) {
    out <- chain_learner_prob(object, x, y)
    attr(out, "inference") <- list(method = "chain rule")
    return(out)
  }
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
  if (!is.null(object$models))
    return(chain_learner_infer(object, x, type, inference, beam_width, n_samples))
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
  cat(what, if (is_learner(x$learner)) paste0(", learner '", x$learner$name, "'") else
    ", L2 logistic regression", ", on ", x$nobs, " instances, ", x$n_features,
      " features, ", length(x$labels), " labels\n", sep = "")
  shown <- utils::head(x$order, 10L)
  cat("order: ", paste(shown, collapse = " < "),
      if (length(x$order) > 10L) paste0(" < ... (", length(x$order) - 10L, " more)"),
      "\n", sep = "")
  cost <- unique(x$cost)
  if (length(cost)) cat("cost ", if (length(cost) == 1) format(cost, digits = digits) else
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
  if (!is.null(object$models))
    stop_arg("a chain with the learner '", object$learner$name, "' has no coefficients; ",
             "its models are in $models (chain order)")
  rbind("(Intercept)" = object$intercept, object$W, object$G)
}

# ---- chains of a learner object (cc(learner = ), pcc(learner = )) ----------------

# cc()/pcc() with `learner`: the built-in logistic learner goes to the C
# chain with its settings (unless given to cc()/pcc()); any other learner is
# fitted label by label along the chain, in R (chain_learner_fit()).
chain_with_learner <- function(xy, order, learner, settings, given, call, class) {
  learner <- validate_ml_learner(learner)
  if (identical(learner$builtin, "logistic")) {
    p <- learner$params
    if (!isTRUE(p$intercept))
      stop_arg("'learner': the chains fit an intercept; ml_learner_logistic(intercept = ",
               "FALSE) is not available in cc()/pcc()")
    s <- list(cost = p$cost, tol = p$tol, max_iter = p$max_iter)
    for (a in names(s)) if (given[[a]]) s[[a]] <- settings[[a]]
    return(chain_model(xy$x, xy$y, order, s$cost, s$tol, s$max_iter, settings$init, call,
                       class))
  }
  if (any(given))
    stop_arg("'", names(given)[given][1], "' is a setting of the built-in logistic ",
             "chain; the learner '", learner$name, "' takes its parameters from ",
             "update(learner, ...)")
  if (class == "pcc" && learner$type != "prob")
    stop_arg("'learner': pcc() needs a learner that gives probabilities (type = \"prob\"); '",
             learner$name, "' gives scores")
  chain_learner_fit(xy$x, xy$y, order, learner, call, class)
}

chain_learner_fit <- function(x, y, order, learner, call, class) {
  x <- as_features(x)
  y <- as_labels(y, nrow(x))
  labels <- colnames(y)
  idx <- check_chain_order(order, labels)
  warn_constant_labels(y)
  models <- vector("list", length(idx))
  for (p in seq_along(idx)) {
    prev <- y[, idx[seq_len(p - 1L)], drop = FALSE] + 0
    models[[p]] <- learner_fit_one(learner, chain_features(x, prev, labels[idx]), y[, idx[p]])
  }
  new_ml_fit(list(models = models, learner = learner, order = labels[idx], labels = labels,
                  features = colnames(x), n_pos = colSums(y), nobs = nrow(y), call = call),
             c(class, "chain"), n_features = ncol(x),
             types = if (class == "pcc") c("class", "score", "prob") else c("class", "score"),
             decoder = if (class == "pcc") "MAP" else "greedy chain")
}

# The features of the model at chain position ncol(prev) + 1: x and the
# previous labels (0/1) in chain order; sparse stays sparse.
chain_features <- function(x, prev, chain_labels) {
  if (!ncol(prev)) return(x)
  if (!is.null(colnames(x))) colnames(prev) <- paste0(".label.", chain_labels[seq_len(ncol(prev))])
  if (inherits(x, "Matrix")) methods::cbind2(x, prev) else cbind(x, prev)
}

# The greedy walk of a learner chain: the learner's output along the path
# (scores) and the labels above its cut (learner_cut()).
chain_learner_walk <- function(object, x, type) {
  n <- nrow(x)
  m <- length(object$order)
  cut <- learner_cut(object$learner)
  score <- matrix(0, n, m)
  yhat <- matrix(0, n, m)
  for (p in seq_len(m)) {
    s <- learner_predict_one(object$learner, object$models[[p]],
                             chain_features(x, yhat[, seq_len(p - 1L), drop = FALSE],
                                            object$order))
    score[, p] <- s
    yhat[, p] <- s > cut
  }
  back <- match(object$labels, object$order)
  if (type == "class") yhat[, back, drop = FALSE] == 1 else score[, back, drop = FALSE]
}

# p(y | x) of given label vectors by the chain rule.
chain_learner_prob <- function(object, x, y) {
  idx <- match(object$order, object$labels)
  yc <- y[, idx, drop = FALSE] + 0
  out <- rep(1, nrow(x))
  for (p in seq_along(idx)) {
    q <- learner_predict_one(object$learner, object$models[[p]],
                             chain_features(x, yc[, seq_len(p - 1L), drop = FALSE],
                                            object$order))
    out <- out * ifelse(yc[, p] == 1, q, 1 - q)
  }
  out
}

# Exact inference with a learner chain walks 2^m prefixes per instance at
# the last label; above this many labels, beam search.
pcc_learner_exact_max <- 12L

# PCC inference with a learner chain, in R, for all instances at once: beam
# search over the prefixes (exact: a beam that prunes nothing), or ancestral
# sampling.  The marginal of a label is the probability mass of the
# candidates with y_l = 1 over the mass of all candidates at its depth
# (before pruning), as in the C inference of the logistic chain.
chain_learner_infer <- function(object, x, type, inference, beam_width, n_samples) {
  n <- nrow(x)
  m <- length(object$order)
  switched <- inference == "exact" && m > pcc_learner_exact_max
  if (switched) inference <- "beam"
  if (inference == "exact") beam_width <- 2^m
  if (m < 31) beam_width <- min(beam_width, 2^m)
  marg <- matrix(0, n, m)
  if (inference == "sample") {
    inst <- rep(seq_len(n), each = n_samples)
    Y <- matrix(0, length(inst), 0)
    lp <- numeric(length(inst))
    for (p in seq_len(m)) {
      q <- chain_learner_q(object, x, inst, Y, p)
      marg[, p] <- rowsum(q, inst, reorder = TRUE)[, 1] / n_samples
      yp <- stats::runif(length(q)) < q
      lp <- lp + log(ifelse(yp, q, 1 - q))
      Y <- cbind(Y, yp + 0)
    }
  } else {
    inst <- seq_len(n)
    Y <- matrix(0, n, 0)
    lp <- numeric(n)
    for (p in seq_len(m)) {
      q <- chain_learner_q(object, x, inst, Y, p)
      # the prefixes' masses relative to each instance's best, for the marginal
      w <- exp(lp - stats::ave(lp, inst, FUN = max))
      marg[, p] <- rowsum(w * q, inst, reorder = TRUE)[, 1] / rowsum(w, inst, reorder = TRUE)[, 1]
      inst <- c(inst, inst)
      Y <- rbind(cbind(Y, 0), cbind(Y, 1))
      lp <- c(lp + log(1 - q), lp + log(q))
      # keep each instance's beam_width most probable candidates
      o <- order(inst, -lp)
      rank <- stats::ave(seq_along(o), inst[o], FUN = seq_along)
      keep <- o[rank <= beam_width]
      inst <- inst[keep]
      Y <- Y[keep, , drop = FALSE]
      lp <- lp[keep]
    }
  }
  back <- match(object$labels, object$order)
  out <- if (type == "score") marg[, back, drop = FALSE] else {
    o <- order(inst, -lp)
    best <- o[!duplicated(inst[o])]
    Y[best, back, drop = FALSE] == 1
  }
  attr(out, "inference") <- switch(inference,
    exact = list(method = "exact"),
    beam = c(list(method = "beam", beam_width = beam_width),
             if (switched) list(note = paste0("exact inference with a learner chain is ",
                                              "limited to ", pcc_learner_exact_max, " labels"))),
    sample = list(method = "sample", n_samples = n_samples))
  out
}

# The probability that the label at chain position p is 1, for the rows
# x[inst, ] with the previous labels Y (one row per candidate).
chain_learner_q <- function(object, x, inst, Y, p) {
  q <- learner_predict_one(object$learner, object$models[[p]],
                           chain_features(x[inst, , drop = FALSE], Y, object$order))
  pmin(pmax(q, 0), 1)
}
