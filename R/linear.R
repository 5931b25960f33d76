# The linear plumbing shared by the methods fitted with the package's
# LIBLINEAR-style solvers (br(), cca_ridge(), cca_svm(), aso_svm(), cc(),
# pcc(), iblr(), cplst()): the checks of their solver settings, the rows the C
# solvers see, the solvers' status codes, and the fitted object of a linear
# multi-label model.

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
  if (!is.numeric(tol) || length(tol) != 1 || is.na(tol) || tol <= 0)
    stop_arg("'tol' must be a positive number")
  as.numeric(tol)
}

check_max_iter <- function(max_iter) {
  if (!is.numeric(max_iter) || length(max_iter) != 1 || is.na(max_iter) ||
      max_iter < 1 || max_iter != round(max_iter) || max_iter > .Machine$integer.max)
    stop_arg("'max_iter' must be a whole number >= 1")
  as.integer(max_iter)
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
