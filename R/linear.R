# The linear plumbing shared by the methods fitted with the package's
# LIBLINEAR-style solvers (br(), cca_ridge(), cca_svm(), aso_svm(), cc(),
# pcc(), iblr(), cplst()): the checks of their solver settings, the rows the C
# solvers see, the solvers' status codes, the per-label solvers of binary
# relevance, and the fitted object of a linear multi-label model.

# ---- checks -------------------------------------------------------------------

check_cost <- function(cost, m, arg = "cost") {
  if (is.null(cost)) return(rep(1, m))
  if (!is.numeric(cost) || !length(cost) %in% c(1L, m) || anyNA(cost) ||
      !all(is.finite(cost)) || any(cost <= 0))
    stop_arg("'", arg, "' must be one positive number, or one per label (", m, ")")
  rep_len(as.numeric(cost), m)
}

check_solver_tol <- function(tol, learner, loss = NULL) {
  # the trust-region Newton solvers (logistic, squared hinge) take LIBLINEAR's
  # 0.01; dual coordinate descent (hinge) its 0.1
  if (is.null(tol)) return(switch(learner, ridge = NA_real_, logistic = 0.01,
                                  svm = if (identical(loss, "squared_hinge")) 0.01 else 0.1))
  check_number(tol, "tol", 0, finite = FALSE, above = TRUE, what = "a positive number")
}

# Solver status codes (src/status.h, one set for every core): 0 converged,
# 1 stopped at max_iter, 2 stalled (no further decrease possible in double
# precision before the stopping rule held), 3 the objective overflowed.
warn_not_converged <- function(status, labels) {
  quote_labels <- function(code) paste0("'", labels[status == code], "'", collapse = ", ")
  if (any(status == 3L))
    stop("the logistic loss overflows double precision at these feature values and ",
         "cost for label(s) ", quote_labels(3L), ": scale the features (for example ",
         "with scale()) or lower 'cost'", call. = FALSE)
  if (any(status == 1L))
    warn_not_converged_msg("the solver stopped at 'max_iter' before reaching 'tol' for ",
                           "label(s) ", quote_labels(1L))
  if (any(status == 2L))
    warn_not_converged_msg("the solver stalled (no further decrease possible in double ",
                           "precision) before its stopping rule held for label(s) ",
                           quote_labels(2L), "; see 'grad_norm', and consider scaling ",
                           "the features")
}

# ---- the solvers' input and output ----------------------------------------------

# The rows the C solvers see: (xscale * x, z, bias), see src/br_rows.h.
linear_spec <- function(x, z = NULL, xscale = 1, bias = 1) {
  if (!is.null(z)) storage.mode(z) <- "double"
  list(if (!is.null(x)) native_matrix(x), z, as.double(xscale), as.double(bias))
}

svm_loss_code <- function(loss) match(loss, c("hinge", "squared_hinge"))

# Solver weights (p x m, bias last) as W (d x m) and the intercept.
split_bias <- function(Wp, d, intercept) {
  list(W = Wp[seq_len(d), , drop = FALSE],
       intercept = if (intercept) Wp[d + 1L, ] else numeric(ncol(Wp)))
}

# ---- the per-label solvers (br(), and the second stage of cca_*()) ---------------

# The fit of every label on checked inputs: W (d x m), intercept, and what the
# solvers report.  `cost` has one entry per label.
br_fit <- function(x, y, learner, cost, loss, intercept, tol, max_iter, init = NULL) {
  n <- nrow(x)
  d <- ncol(x)
  m <- ncol(y)
  if (learner == "ridge") return(br_ridge(x, y, cost, intercept))
  ypm <- 2 * y - 1
  storage.mode(ypm) <- "double"
  spec <- linear_spec(x, bias = if (intercept) 1 else 0)
  start <- br_init(init, d, m, n, intercept, learner, loss, cost)
  if (learner == "logistic") {
    res <- .Call(C_logistic_fit_call, spec, ypm, cost, NULL, tol, max_iter, start$W)
  } else if (loss == "squared_hinge") {
    # the primal trust-region Newton solver: scale-robust where dual coordinate
    # descent is not (emotions, C = 1: the dual at its default stopped at
    # 1000 epochs up to 3.1 times above the optimal objective)
    res <- .Call(C_l2svm_primal_fit_call, spec, ypm, cost, NULL, tol, max_iter, start$W)
    # the dual variables the optimum implies, alpha_i = 2 C max(0, 1 - y_i w'x_i)
    margin <- as.matrix(x %*% res$W[seq_len(d), , drop = FALSE])
    if (intercept) margin <- margin + rep(res$W[d + 1L, ], each = n)
    res$alpha <- 2 * pmax(1 - ypm * margin, 0) * rep(cost, each = n)
  } else {
    res <- .Call(C_linsvm_fit_call, spec, ypm, cost, NULL, svm_loss_code(loss), tol,
                 max_iter, start$dual, start$W)
  }
  out <- split_bias(res$W, d, intercept)
  out$link <- if (learner == "logistic") "logit" else "identity"
  out$dual <- res$alpha
  out$iter <- res$iter
  out$status <- res$status
  out$grad_norm <- res$grad_norm
  out$dual_gap <- res$gap
  out
}

# Ridge through the MLLS machinery (alpha = 0), one decomposition per distinct cost.
br_ridge <- function(x, y, cost, intercept) {
  n <- nrow(x)
  W <- matrix(0, ncol(x), ncol(y))
  b <- numeric(ncol(y))
  for (C in unique(cost)) {
    j <- which(cost == C)
    fit <- mlls_solve(x, y[, j, drop = FALSE], alpha = 0, beta = 1 / (2 * n * C),
                      r = 1L, intercept = intercept, fitted = FALSE)
    W[, j] <- fit$U
    b[j] <- fit$intercept
  }
  list(W = W, intercept = b, link = "identity", iter = integer(ncol(y)),
       status = integer(ncol(y)))
}

# A warm start as the solvers want it: W (p x m, bias last) and, for the SVM,
# the dual variables of a previous fit on the same data.
br_init <- function(init, d, m, n, intercept, learner, loss, cost) {
  if (is.null(init)) return(list(W = NULL, dual = NULL))
  dual <- NULL
  if (inherits(init, "br")) {
    if (!identical(init$learner, learner))
      stop_arg("'init' is a fit of the ", init$learner, " learner, not of ", learner)
    if (nrow(init$W) != d || ncol(init$W) != m)
      stop_arg("'init' was fitted on ", nrow(init$W), " features and ", ncol(init$W),
               " labels, not ", d, " and ", m)
    if (learner == "svm" && !is.null(init$dual) && nrow(init$dual) == n &&
        identical(init$loss, loss))
      dual <- init$dual * rep(cost / init$cost, each = n)
    init <- rbind(init$intercept, init$W)
  }
  if (!is.numeric(init) || !is.matrix(init) || anyNA(init) || ncol(init) != m ||
      !nrow(init) %in% c(d, d + 1L))
    stop_arg("'init' must be a br fit or a (d + 1) x m weight matrix, intercept first")
  if (nrow(init) == d) init <- rbind(0, init)
  W <- if (intercept) rbind(init[-1L, , drop = FALSE], init[1L, ]) else init[-1L, , drop = FALSE]
  storage.mode(W) <- "double"
  list(W = unname(W), dual = dual)
}

# ---- the fitted object ------------------------------------------------------------

# Scores of a linear model with weights W (d x m), intercept and link on x.
linear_scores <- function(x, W, intercept, link) {
  score <- as.matrix(x %*% W) + rep(intercept, each = nrow(x))
  if (link == "logit") score[] <- stats::plogis(score)
  score
}

# The object of a linear multi-label model: names, thresholds tuned on the
# training scores, the settings.  Shared by br(), cca_ridge(), cca_svm(), aso_svm().
linear_finish <- function(fit, x, y, call, class, settings = list(), extra = list()) {
  labels <- colnames(y)
  features <- colnames(x)
  W <- fit$W
  dimnames(W) <- list(features, labels)
  intercept <- stats::setNames(as.numeric(fit$intercept), labels)
  score <- linear_scores(x, W, intercept, fit$link)
  th <- .Call(C_f1_thresholds, score, y, chance_level())
  if (!is.null(fit$dual)) colnames(fit$dual) <- labels
  out <- c(list(W = W, intercept = intercept,
                thresholds = stats::setNames(th$threshold, labels),
                train_f1 = stats::setNames(th$f1, labels), link = fit$link),
           settings, extra,
           list(dual = fit$dual, iter = stats::setNames(fit$iter, labels),
                grad_norm = if (!is.null(fit$grad_norm))
                  stats::setNames(fit$grad_norm, labels),
                labels = labels, features = features, n_pos = colSums(y, na.rm = TRUE),
                nobs = nrow(y),
                call = call))
  new_ml_fit(out, c(class, if (class != "br") "br"), n_features = nrow(W))
}
