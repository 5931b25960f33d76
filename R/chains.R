#' Classifier chains and probabilistic classifier chains
#'
#' `cc()` fits classifier chains (Read et al. 2011) and `pcc()` probabilistic
#' classifier chains (Dembczynski et al. 2010): the labels are put in an
#' order (a chain), and the model of each label is an L2-regularised logistic
#' regression on the features and on the labels before it in the chain.  The
#' two share the fitted model and differ in prediction: `cc()` walks the
#' chain greedily, `pcc()` uses the chain as the probability model
#' \deqn{p(y \mid x) = \prod_l p(y_l \mid x, y_1, \dots, y_{l-1})}{p(y | x) = prod_l p(y_l | x, y_1, ..., y_(l-1))}
#' and infers from it the most probable label vector, the marginals and the
#' probabilities of given label vectors (see [predict.pcc()]).
#'
#' @section Model:
#' With the labels in chain order \eqn{y_1, \dots, y_m}{y_1, ..., y_m},
#' coded 0/1 as inputs, label \eqn{l} is predicted by
#' \deqn{p(y_l = 1 \mid x, y_{<l}) = \sigma(b_l + w_l'x + \sum_{j<l} g_{jl} y_j),}{p(y_l = 1 | x, y_<l) = sigma(b_l + w_l'x + sum_(j<l) g_jl y_j),}
#' whose weights minimise, as for [br()] with `learner = "logistic"`,
#' \deqn{\frac12 (\|w_l\|^2 + \|g_l\|^2 + b_l^2) + C_l \sum_i \log(1 + e^{-s_{il} z_{il}})}{0.5 (||w_l||^2 + ||g_l||^2 + b_l^2) + C_l sum_i log(1 + exp(-s_il z_il))}
#' where \eqn{z_{il}}{z_il} is the linear function above at instance \eqn{i}
#' with its *true* previous labels, and \eqn{s_{il} = \pm 1}{s_il = +1/-1} its
#' label: the intercept is an extra feature of value 1, penalised like the
#' others (LIBLINEAR's `-B 1`), and the solver is the package's trust-region
#' Newton method of [br()].  The first label of the chain has no chain
#' features, so a chain of one label is [br()].  A sparse `x` stays sparse: the
#' previous labels are a small dense block appended to its rows.
#'
#' @param x A numeric matrix, a data frame of numeric columns, or a sparse
#'   `Matrix` (n x d).  For the formula method, a formula such as
#'   `cbind(l1, l2, l3) ~ .`.
#' @param y Labels: an n x m logical, 0/1 or -1/+1 matrix or data frame (no
#'   `NA`).
#' @param order The chain: a permutation of the label names or of `1:m`
#'   (the first label is fitted first).  `NULL`: the column order of `y`, as
#'   the MLCRF paper uses.
#' @param cost The cost \eqn{C} > 0 of the logistic regressions: one number,
#'   or one per label (in the column order of `y`, or named by label).
#' @param tol,max_iter The solver's tolerance and most Newton steps per label,
#'   as for [br()] (`NULL`: LIBLINEAR's 0.01).
#' @param init A warm start: a `cc` or `pcc` fit with the same features,
#'   labels and order (used by [cv_cc()] along the cost grid).
#' @param inference For `pcc()`: the default inference of [predict.pcc()]
#'   (`"exact"`, `"beam"` or `"sample"`; what each guarantees: see there).
#' @param beam_width,n_samples For `pcc()`: the defaults of [predict.pcc()]
#'   (beam width 10, 1000 samples).
#' @param learner `NULL` (the logistic regressions above), or a learner
#'   object ([ml_learner()]): [ml_learner_logistic()] is the same C chain
#'   with its settings (`cost`, `tol`, `max_iter` given here replace them);
#'   any other learner is fitted label by label on the features and the
#'   previous labels (0/1 columns appended to `x`), and walked in R (the greedy
#'   walk cuts its output at 0.5 for probabilities, 0 for scores).  `pcc()`
#'   needs a learner of probabilities; its exact inference then enumerates
#'   the prefixes (up to 12 labels, beam search above).  Such a fit holds
#'   `models` (chain order) and `learner` instead of `W`, `G`, `intercept`.
#' @param data,subset,na.action For the formula method, as in [lm()].
#' @param ... For the formula method, arguments passed to the default method.
#' @return An object of class `c("cc", "chain")` or `c("pcc", "chain")`, a
#'   list with
#'   \item{W}{d x m feature weights (columns in the label order of `y`).}
#'   \item{G}{m x m chain weights: `G[a, b]` multiplies label `a` (0/1) in
#'     the model of label `b`, zero unless `a` comes before `b` in the chain.}
#'   \item{intercept}{length m.}
#'   \item{order}{the label names in chain order.}
#'   \item{cost, tol, iter, status}{the settings, and per label the solver's
#'     Newton steps and status (0 converged).}
#'   \item{grad_norm}{per label, the norm of the gradient of its link's
#'     logistic objective (features, previous labels and intercept) at the
#'     returned weights.}
#'   \item{inference, beam_width, n_samples}{`pcc()` only: the prediction
#'     defaults.}
#'   \item{labels, features, n_pos, nobs, call}{as for [br()].}
#' @references Read J., Pfahringer B., Holmes G. and Frank E. (2011).
#'   Classifier chains for multi-label classification. Machine Learning 85,
#'   333-359.
#'
#'   Dembczynski K., Cheng W. and Huellermeier E. (2010). Bayes optimal
#'   multilabel classification via probabilistic classifier chains. ICML 2010,
#'   279-286.
#' @seealso [predict.cc()], [predict.pcc()], [cv_cc()], [br()], [mlcrf()].
#' @examples
#' tr <- mlss::emotions$train
#' x <- mlss::emotions$x
#' y <- mlss::emotions$y
#' fit <- pcc(x[tr, ], y[tr, ], cost = 0.1)
#' fit
#' p <- predict(fit, x[!tr, ], type = "prob", y = y[!tr, ])
#' ml_metrics(y[!tr, ], pred = predict(fit, x[!tr, ]), prob = p,
#'            measures = c("subset_accuracy", "log_loss"))
#'
#' # classifier chains, the labels in another order
#' fit_cc <- cc(x[tr, ], y[tr, ], order = rev(colnames(y)), cost = 0.1)
#' head(predict(fit_cc, x[!tr, ], type = "class"))
#' @name chains
NULL

#' @rdname chains
#' @export
cc <- function(x, ...) UseMethod("cc")

#' @rdname chains
#' @export
cc.default <- function(x, y, order = NULL, cost = 1, tol = NULL, max_iter = 1000L,
                       init = NULL, learner = NULL, ...) {
  call <- match.call()
  call[[1L]] <- quote(cc)
  check_no_dots(...)
  xy <- ml_xy(x, y)
  if (!is.null(learner))  # chains-methods.R
    return(chain_with_learner(xy, order, learner, list(cost = cost, tol = tol,
      max_iter = max_iter, init = init), c(cost = !missing(cost), tol = !is.null(tol),
      max_iter = !missing(max_iter), init = !is.null(init)), call, "cc"))
  chain_model(xy$x, xy$y, order, cost, tol, max_iter, init, call, "cc")
}

#' @rdname chains
#' @export
cc.formula <- function(x, data, subset, na.action = stats::na.fail, ...) {
  md <- model_data(match.call(expand.dots = FALSE), na.action, parent.frame())
  fit <- cc.default(md$x, md$y, ...)
  with_formula(fit, md, match.call(), quote(cc))
}

#' @rdname chains
#' @export
pcc <- function(x, ...) UseMethod("pcc")

#' @rdname chains
#' @export
pcc.default <- function(x, y, order = NULL, cost = 1,
                        inference = c("exact", "beam", "sample"), beam_width = 10L,
                        n_samples = 1000L, tol = NULL, max_iter = 1000L, init = NULL,
                        learner = NULL, ...) {
  call <- match.call()
  call[[1L]] <- quote(pcc)
  check_no_dots(...)
  inference <- match.arg(inference)
  beam_width <- check_count(beam_width, "beam_width")
  n_samples <- check_count(n_samples, "n_samples")
  xy <- ml_xy(x, y)
  fit <- if (is.null(learner)) chain_model(xy$x, xy$y, order, cost, tol, max_iter, init, call, "pcc")
    else chain_with_learner(xy, order, learner, list(cost = cost, tol = tol, max_iter = max_iter,
      init = init), c(cost = !missing(cost), tol = !is.null(tol),
      max_iter = !missing(max_iter), init = !is.null(init)), call, "pcc")  # chains-methods.R
  fit$inference <- inference
  fit$beam_width <- beam_width
  fit$n_samples <- n_samples
  fit
}

#' @rdname chains
#' @export
pcc.formula <- function(x, data, subset, na.action = stats::na.fail, ...) {
  md <- model_data(match.call(expand.dots = FALSE), na.action, parent.frame())
  fit <- pcc.default(md$x, md$y, ...)
  with_formula(fit, md, match.call(), quote(pcc))
}

# ---- checks -------------------------------------------------------------------

# The chain as column indices of y: NULL, a permutation of the label names or
# of 1..m.
check_chain_order <- function(order, labels) {
  m <- length(labels)
  if (is.null(order)) return(seq_len(m))
  bad <- function()
    stop_arg("'order' must be a permutation of the label names or of 1:", m,
             " (each label once)")
  if (is.character(order)) {
    idx <- match(order, labels)
    if (anyNA(idx)) {
      stop_arg("'order' names label(s) not in 'y': ",
               paste0("'", order[is.na(idx)], "'", collapse = ", "))
    }
  } else if (is.numeric(order) && !anyNA(order) && all(order == round(order))) {
    idx <- as.integer(order)
  } else {
    bad()
  }
  if (length(idx) != m || !setequal(idx, seq_len(m)) || anyDuplicated(idx)) bad()
  idx
}

# ---- the fit -------------------------------------------------------------------

chain_model <- function(x, y, order, cost, tol, max_iter, init, call, class) {
  x <- as_features(x)
  y <- as_labels(y, nrow(x))
  labels <- colnames(y)
  m <- ncol(y)
  idx <- check_chain_order(order, labels)
  warn_constant_labels(y)
  if (!is.null(names(cost)) && length(cost) == m && setequal(names(cost), labels))
    cost <- cost[labels]
  cost <- check_cost(cost, m)
  tol <- check_solver_tol(tol, "logistic")
  max_iter <- check_max_iter(max_iter)
  d <- ncol(x)
  start <- chain_init(init, d, labels, idx)
  ypm <- 2 * y[, idx, drop = FALSE] - 1
  storage.mode(ypm) <- "double"
  res <- .Call(C_chains_fit, linear_spec(x, bias = 1), ypm, as.double(cost[idx]), tol,
               max_iter, start)
  warn_not_converged(res$status, labels[idx])
  # back from chain order to the label order of y
  back <- order(idx)
  Wp <- res$W
  W <- Wp[seq_len(d), back, drop = FALSE]
  G <- Wp[d + seq_len(m), , drop = FALSE][back, back, drop = FALSE]
  intercept <- Wp[d + m + 1L, back]
  dimnames(W) <- list(colnames(x), labels)
  dimnames(G) <- list(labels, labels)
  new_ml_fit(list(W = W, G = G, intercept = stats::setNames(intercept, labels),
                 order = labels[idx], cost = stats::setNames(cost, labels), tol = tol,
                 iter = stats::setNames(res$iter[back], labels),
                 status = stats::setNames(res$status[back], labels),
                 grad_norm = stats::setNames(res$grad_norm[back], labels),
                 labels = labels, features = colnames(x), n_pos = colSums(y),
                 nobs = nrow(y), call = call),
            c(class, "chain"), n_features = d,
            types = if (class == "pcc") c("class", "score", "prob") else c("class", "score"),
            decoder = if (class == "pcc") "MAP" else "greedy chain")
}

# A warm start as the C code wants it: (d + m + 1) x m, chain order (see
# chain_fit() in src/chains_core.h), or NULL.
chain_init <- function(init, d, labels, idx) {
  if (is.null(init)) return(NULL)
  if (!inherits(init, "chain"))
    stop_arg("'init' must be a cc or pcc fit")
  if (nrow(init$W) != d || !identical(init$labels, labels) ||
      !identical(init$order, labels[idx]))
    stop_arg("'init' was fitted on other features, labels or another order")
  W <- rbind(init$W[, idx, drop = FALSE], init$G[idx, idx, drop = FALSE],
             init$intercept[idx])
  storage.mode(W) <- "double"
  unname(W)
}
