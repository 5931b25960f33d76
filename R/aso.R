#' Alternating structure optimisation (ASO) with the hinge loss
#'
#' The ASO baseline of the MLLS papers (Ando and Zhang 2005; Ji et al. 2010,
#' Section 6): every label's weights \eqn{u_l = w_l + \Theta'v_l}{u_l = w_l + Theta'v_l}
#' share the r-dimensional subspace spanned by the orthonormal rows of
#' \eqn{\Theta}{Theta}, and
#' \deqn{\sum_l \frac1n\sum_i L(y_{il}, b_l + u_l'x_i) + \alpha\|u_l - \Theta'v_l\|^2 + \beta\|u_l\|^2}{sum_l (1/n) sum_i L(y_il, b_l + u_l'x_i) + alpha ||u_l - Theta'v_l||^2 + beta ||u_l||^2}
#' is minimised by alternating two steps until the objective changes by less
#' than `tol` (relatively) or after `max_iter` alternations (the papers' 1e-3
#' and 100):
#' 1. for fixed \eqn{\Theta}{Theta}, one problem per label;
#' 2. for fixed weights, \eqn{\Theta}{Theta} from the top r left singular
#'    vectors of the stacked weights \eqn{[u_1, \dots, u_m]}{[u_1, ..., u_m]}.
#'
#' The first step starts from \eqn{\Theta = 0}{Theta = 0}, i.e. independent
#' models.  The objective is not convex: ASO finds a local optimum.
#'
#' @section Losses:
#' * `"hinge"` (the papers' ASO-SVM) and `"squared_hinge"`: step 1 is a
#'   linear SVM on the features \eqn{(c_1 x, c_2\Theta x, 1)}{(c1 x, c2 Theta x, 1)}
#'   with \eqn{c_1^2 = 1/(2n(\alpha+\beta))}{c1^2 = 1/(2n(alpha + beta))} and
#'   \eqn{c_1^2 + c_2^2 = 1/(2n\beta)}{c1^2 + c2^2 = 1/(2n beta)}, whose plain
#'   L2 penalty is exactly the penalty above (the intercept is a penalised
#'   constant feature, as in [br()]); it is solved as [br()] solves it (the
#'   squared hinge by the primal trust-region Newton method, the hinge by
#'   dual coordinate descent), warm-started from the previous alternation.  The
#'   dual solver needs `beta > 0`; ASO proper is the limit `beta -> 0`,
#'   approached by the default `beta = alpha / 100`.
#' * `"ls"`: the squared loss on labels coded \eqn{\pm 1}{+1/-1}, with `beta =
#'   0` and an unpenalised intercept (columns centred): the same objective as
#'   [mlls()] at `beta = 0`, whose closed form is its global optimum.  It is
#'   here to check the alternation against that closed form.
#'
#' @param x A numeric matrix, a data frame of numeric columns, or a sparse
#'   `Matrix` (n x d).  For the formula method, a formula such as
#'   `cbind(l1, l2, l3) ~ .`.
#' @section Missing labels:
#' The shared structure is learnt from every label's problem on every instance
#' (and the least-squares form is solved in closed form on the whole label
#' matrix); observed-entry fits are not implemented.  So `NA` in `y` is an
#' error unless `na_labels = "negative"` takes it as `FALSE`.
#'
#' @param na_labels What to do with missing labels (`NA` in `y`): `"refuse"`
#'   (the default: an error) or `"negative"` (`NA` taken as `FALSE`); see the
#'   section Missing labels.
#' @param y Labels: an n x m logical, 0/1 or -1/+1 matrix or data frame.
#' @param alpha Weight of the penalty on the weights outside the shared
#'   subspace, a number > 0 (the papers tune it over \eqn{10^{-4}, \dots, 10^3}).
#' @param beta Ridge penalty on the whole weights, > 0 for the SVM losses
#'   (`NULL`: `alpha / 100`), 0 for `"ls"`.
#' @param r Dimension of the shared subspace; `NULL` gives the papers'
#'   `5 * floor((m - 1) / 5)` (at least 1), capped at the number of features.
#' @param loss `"hinge"`, `"squared_hinge"` or `"ls"`.
#' @param tol Relative change of the objective below which the alternation
#'   stops.
#' @param max_iter Most alternations.
#' @param svm_tol,svm_max_iter Settings of the SVM solver in step 1, see
#'   `tol` and `max_iter` of [br()] (sweeps or Newton steps: 10000, as the
#'   hinge's dual coordinate descent needs more than 1000 sweeps on the first
#'   alternations when `beta` is small).  The SVMs of the last alternation
#'   warn when they stop short of their optimum; `svm_gap` (hinge: the
#'   relative duality gap) and `svm_grad_norm` (squared hinge: the norm of
#'   the gradient) say how close each label's is, and `dual` holds the
#'   hinge's dual variables.
#' @param data,subset,na.action For the formula method, as in [lm()]. `na.action` applies to the features
#'   only: a row whose only `NA` is a label is kept, and its missing labels
#'   follow the rule of the section Missing labels.
#' @param ... For the formula method, arguments passed to the default method.
#' @return An object of class `c("aso_svm", "br")`: the components of a
#'   [br()] fit (`W` holds the weights \eqn{u_l}, d x m; `intercept`,
#'   `thresholds`, ...) plus `Theta` (r x d), `alpha`, `beta`, `loss`,
#'   `objective` (its value after every alternation), `n_iter` and `converged`.
#' @references Ando R. K. and Zhang T. (2005). A framework for learning
#'   predictive structures from multiple tasks and unlabeled data. JMLR 6,
#'   1817-1853.
#'
#'   Ji S., Tang L., Yu S. and Ye J. (2010). A shared-subspace learning
#'   framework for multi-label classification. ACM TKDD 4(2), 8.
#' @seealso [mlls()], which solves the least-squares version in closed form.
#' @examples
#' data(yeast)
#' train <- which(yeast$train)[1:300]  # the first 300 training rows, for speed
#' fit <- aso_svm(yeast$x[train, ], yeast$y[train, ], alpha = 0.01, r = 5)
#' fit
#' test <- !yeast$train
#' pred <- predict(fit, yeast$x[test, ], type = "class")
#' ml_metrics(yeast$y[test, ], pred = pred, measures = "macro_f1")
#' @export
aso_svm <- function(x, ...) UseMethod("aso_svm")

#' @rdname aso_svm
#' @export
aso_svm.default <- function(x, y, alpha, beta = NULL, r = NULL,
                            loss = c("hinge", "squared_hinge", "ls"), tol = 1e-3,
                            max_iter = 100L, svm_tol = 0.01, svm_max_iter = 10000L,
                            na_labels = c("refuse", "negative"), ...) {
  call <- match.call()
  call[[1L]] <- quote(aso_svm)
  check_no_dots(...)
  loss <- match.arg(loss)
  alpha <- check_penalty(alpha, "alpha")
  if (!(alpha > 0 && is.finite(alpha))) stop_arg("'alpha' must be a finite number > 0")
  if (is.null(beta)) beta <- if (loss == "ls") 0 else alpha / 100
  beta <- check_penalty(beta, "beta")
  if (loss == "ls" && beta != 0)
    stop_arg("loss = \"ls\" is ASO proper: 'beta' must be 0 (mlls() has beta > 0)")
  if (loss != "ls" && !(beta > 0 && is.finite(beta)))
    stop_arg("the SVM losses need a finite 'beta' > 0 (the dual solver needs every ",
             "weight penalised); small values approach ASO proper")
  xy <- ml_xy(x, y)
  x <- as_features(xy$x)
  y <- as_labels(xy$y, nrow(x), na = match.arg(na_labels), fun = "aso_svm")
  warn_constant_labels(y)
  r_default <- is.null(r)
  r <- check_rank(r, ncol(y))
  # the papers' default can exceed the features (cal500: 174 labels, 68 features)
  if (r_default) r <- min(r, ncol(x))
  if (r > min(ncol(y), ncol(x)))
    stop_arg("'r' must be at most the number of labels and of features (",
             min(ncol(y), ncol(x)), ")")
  tol <- check_solver_tol(tol, "svm")
  max_iter <- check_max_iter(max_iter)
  svm_tol <- check_solver_tol(svm_tol, "svm")
  svm_max_iter <- check_max_iter(svm_max_iter)
  fit <- if (loss == "ls") aso_ls(x, y, alpha, r, tol, max_iter)
         else aso_hinge(x, y, alpha, beta, r, loss, tol, max_iter, svm_tol, svm_max_iter)
  if (!fit$converged)
    warn_not_converged_msg("ASO stopped after 'max_iter' = ", max_iter, " alternations ",
                           "before the objective changed by less than 'tol'")
  Theta <- fit$Theta
  dimnames(Theta) <- list(sprintf("theta%d", seq_len(r)), colnames(x))
  linear_finish(fit, x, y, call, "aso_svm",
                settings = list(alpha = alpha, beta = beta, loss = loss),
                extra = list(Theta = Theta, objective = fit$objective,
                             n_iter = length(fit$objective), converged = fit$converged,
                             svm_gap = fit$svm_gap, svm_grad_norm = fit$svm_grad_norm)[
                  c(TRUE, TRUE, TRUE, TRUE, !is.null(fit$svm_gap), !is.null(fit$svm_grad_norm))])
}

#' @rdname aso_svm
#' @export
aso_svm.formula <- formula_method("aso_svm")

# Theta (r x d): the top r left singular vectors of the weights U (d x m).
aso_theta <- function(U, r) {
  t(svd(U, nu = r, nv = 0)$u)
}

# The SVM losses: step 1 is br's SVM solver on (c1 x, c2 Theta x, 1): the
# squared hinge by the primal trust-region Newton solver (scale-robust), the
# hinge by dual coordinate descent (its duality gap reported), each warm-started
# from the previous alternation.
aso_hinge <- function(x, y, alpha, beta, r, loss, tol, max_iter, svm_tol, svm_max_iter) {
  n <- nrow(x)
  d <- ncol(x)
  m <- ncol(y)
  c1 <- sqrt(1 / (2 * n * (alpha + beta)))
  c2 <- sqrt(1 / (2 * n * beta) - c1^2)
  ypm <- 2 * y - 1
  storage.mode(ypm) <- "double"
  code <- svm_loss_code(loss)
  cost <- rep(1, m)
  step <- function(spec, prev, p) {
    if (loss == "squared_hinge") {
      W0 <- if (!is.null(prev) && nrow(prev$W) == p) prev$W
      .Call(C_l2svm_primal_fit_call, spec, ypm, cost, NULL, svm_tol, svm_max_iter, W0)
    } else {
      .Call(C_linsvm_fit_call, spec, ypm, cost, NULL, code, svm_tol, svm_max_iter,
            prev$alpha, NULL)
    }
  }
  # Theta = 0: independent SVMs on c1 x
  res <- step(linear_spec(x, xscale = c1), NULL, d + 1L)
  U <- c1 * res$W[seq_len(d), , drop = FALSE]
  b <- res$W[d + 1L, ]
  objective <- numeric()
  converged <- FALSE
  for (it in seq_len(max_iter)) {
    Theta <- aso_theta(U, r)
    Z <- c2 * as.matrix(x %*% t(Theta))
    res <- step(linear_spec(x, Z, xscale = c1), res, d + r + 1L)
    U <- c1 * res$W[seq_len(d), , drop = FALSE] +
      c2 * crossprod(Theta, res$W[d + seq_len(r), , drop = FALSE])
    b <- res$W[d + r + 1L, ]
    f <- aso_objective(x, ypm, U, b, Theta, alpha, beta, loss)
    objective <- c(objective, f)
    if (it > 1 && abs(objective[it - 1] - f) <= tol * abs(objective[it - 1])) {
      converged <- TRUE
      break
    }
  }
  # the SVMs of the last alternation: their status, and how close they are
  warn_not_converged(res$status, colnames(y))
  list(W = U, intercept = b, Theta = Theta, link = "identity", iter = res$iter,
       objective = objective, converged = converged,
       dual = if (loss == "hinge") res$alpha,
       svm_gap = if (loss == "hinge") stats::setNames(res$gap, colnames(y)),
       svm_grad_norm = if (loss == "squared_hinge")
         stats::setNames(res$grad_norm, colnames(y)))
}

# The ASO objective of the SVM losses (the intercept's penalty included, as
# in the solver: b^2 / (2n)).
aso_objective <- function(x, ypm, U, b, Theta, alpha, beta, loss) {
  n <- nrow(x)
  margin <- ypm * (as.matrix(x %*% U) + rep(b, each = n))
  L <- pmax(0, 1 - margin)
  if (loss == "squared_hinge") L <- L^2
  outside <- U - crossprod(Theta, Theta %*% U)
  sum(L) / n + alpha * sum(outside^2) + beta * sum(U^2) + sum(b^2) / (2 * n)
}

# The least-squares version (beta = 0, columns centred).  For fixed Theta,
# u = w + Theta'v with the penalty alpha ||w||^2 only; with Z = Xc Theta' and
# A = (Xc Xc' + n alpha I)^(-1), w is a ridge fit of the residual y - Z v and
# v = (Z'AZ)^(-1) Z'A y.  One Cholesky factor of Xc Xc' + n alpha I serves
# every alternation.
aso_ls <- function(x, y, alpha, r, tol, max_iter) {
  n <- nrow(x)
  # centred accurately whatever the column means (see centred_features())
  xc <- centred_features(x)
  mu <- xc$center
  Yc <- scale(2 * y - 1, scale = FALSE)
  ybar <- attr(Yc, "scaled:center")
  xc_prod <- xc$prod
  xc_tprod <- xc$tprod
  K <- xc$gram()
  ch <- chol(K + n * alpha * diag(n))
  A <- function(B) backsolve(ch, forwardsolve(t(ch), B))
  objective_ls <- function(U, Theta) {
    sum((xc_prod(U) - Yc)^2) / n + alpha * sum((U - crossprod(Theta, Theta %*% U))^2)
  }
  U <- xc_tprod(A(Yc))                        # Theta = 0: ridge per label
  objective <- numeric()
  converged <- FALSE
  AY <- A(Yc)
  for (it in seq_len(max_iter)) {
    Theta <- aso_theta(U, r)
    Z <- xc_prod(t(Theta))
    AZ <- A(Z)
    V <- solve(crossprod(Z, AZ), crossprod(AZ, Yc))
    U <- xc_tprod(AY - AZ %*% V) + crossprod(Theta, V)
    f <- objective_ls(U, Theta)
    objective <- c(objective, f)
    if (it > 1 && abs(objective[it - 1] - f) <= tol * abs(objective[it - 1])) {
      converged <- TRUE
      break
    }
  }
  list(W = U, intercept = ybar - drop(crossprod(mu, U)), Theta = Theta, link = "identity",
       iter = rep(length(objective), ncol(y)), objective = objective, converged = converged)
}
