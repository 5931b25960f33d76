#' CCA followed by ridge regression or a linear SVM
#'
#' The two-stage baselines of the MLLS papers (Ji et al. 2010, Section 6):
#' regularised canonical correlation analysis between the features and the
#' labels reduces the data to a few directions, then ridge regression
#' (`cca_ridge()`) or a linear SVM (`cca_svm()`) is fitted on them, label by
#' label.
#'
#' @section CCA as a special case of MLLS:
#' The regularised CCA directions of `x` are the top eigenvectors of
#' \eqn{(X'X + n\lambda I)^{-1} X'Y(Y'Y)^{-1}Y'X}{(X'X + n lambda I)^-1 X'Y (Y'Y)^-1 Y'X}
#' (columns centred).  This is the limit `alpha = Inf` of [mlls()] with
#' `beta = lambda` and the labels whitened, \eqn{\tilde Y = Y(Y'Y)^{-1/2}}{Y~ = Y (Y'Y)^(-1/2)},
#' so that \eqn{\tilde Y\tilde Y' = Y(Y'Y)^{-1}Y'}{Y~ Y~' = Y (Y'Y)^-1 Y'}
#' (methods.md, "Special cases").  The functions therefore take the subspace
#' from the MLLS solver (one decomposition of the data, dense or sparse, primal
#' or dual) and then solve the small r x r eigenproblem inside it, which gives
#' the canonical directions themselves, scaled so that the projected training
#' data have \eqn{W'(X'X/n + \lambda I)W = I}{W'(X'X/n + lambda I)W = I}.
#'
#' The projection, centred on the training means, is then the input of
#' [br()] with the ridge or the SVM learner; the fitted object folds both
#' stages into one linear function of `x` per label, so `predict()` and
#' `coef()` work as for [br()].
#'
#' @param x A numeric matrix, a data frame of numeric columns, or a sparse
#'   `Matrix` (n x d).  For the formula method, a formula such as
#'   `cbind(l1, l2, l3) ~ .`.
#' @section Missing labels:
#' The canonical directions come from the covariance of the features with the
#' whole label matrix, which a missing entry leaves undefined, and the
#' classifiers are fitted on the projection of every instance.  So `NA` in
#' `y` is an error unless `na_labels = "negative"` takes it as `FALSE`.
#'
#' @param na_labels What to do with missing labels (`NA` in `y`): `"refuse"`
#'   (the default: an error) or `"negative"` (`NA` taken as `FALSE`); see the
#'   section Missing labels.
#' @param y Labels: an n x m logical, 0/1 or -1/+1 matrix or data frame.
#' @param lambda Regularisation of CCA on the side of `x`, a number >= 0
#'   (the `beta` of MLLS; the papers tune it over \eqn{10^{-6}, \dots, 10}).
#' @param cost Cost of the second stage, as in [br()]: one number, or one per
#'   label.
#' @param r Number of canonical directions kept; `NULL` for all of them (at
#'   most the number of labels).
#' @param loss For `cca_svm()`, the SVM loss, see [br()].
#' @param tol,max_iter For `cca_svm()`, the SVM solver's settings, see [br()].
#' @param data,subset,na.action For the formula method, as in [lm()]. `na.action` applies to the features
#'   only: a row whose only `NA` is a label is kept, and its missing labels
#'   follow the rule of the section Missing labels.
#' @param ... For the formula method, arguments passed to the default method.
#' @return An object of class `c("cca_ridge", "br")` or `c("cca_svm", "br")`:
#'   the components of a [br()] fit (`W`, `intercept`, `thresholds`, ...) for
#'   the whole model, plus `projection` (d x r canonical directions), `cor`
#'   (the regularised canonical correlations), `center` (the column means of
#'   `x`), `lambda` and `stage2`, the [br()] fit on the projected data.
#' @references Hotelling H. (1936). Relations between two sets of variates.
#'   Biometrika 28, 321-377.
#'
#'   Ji S., Tang L., Yu S. and Ye J. (2010). A shared-subspace learning
#'   framework for multi-label classification. ACM TKDD 4(2), 8.
#' @seealso [mlls()], [br()].
#' @examples
#' data(yeast)
#' train <- yeast$train
#' fit <- cca_ridge(yeast$x[train, ], yeast$y[train, ], lambda = 0.01, cost = 1)
#' fit
#' pred <- predict(fit, yeast$x[!train, ], type = "class")
#' ml_metrics(yeast$y[!train, ], pred = pred, measures = "macro_f1")
#' @export
cca_ridge <- function(x, ...) UseMethod("cca_ridge")

#' @rdname cca_ridge
#' @export
cca_ridge.default <- function(x, y, lambda, cost = NULL, r = NULL,
                              na_labels = c("refuse", "negative"), ...) {
  call <- match.call()
  call[[1L]] <- quote(cca_ridge)
  check_no_dots(...)
  cca_fit(x, y, lambda, cost, r, "ridge", "squared_hinge", NULL, 1000L, call, "cca_ridge",
          match.arg(na_labels))
}

#' @rdname cca_ridge
#' @export
cca_ridge.formula <- formula_method("cca_ridge")

#' @rdname cca_ridge
#' @export
cca_svm <- function(x, ...) UseMethod("cca_svm")

#' @rdname cca_ridge
#' @export
cca_svm.default <- function(x, y, lambda, cost = NULL, r = NULL,
                            loss = c("squared_hinge", "hinge"), tol = NULL,
                            max_iter = 1000L, na_labels = c("refuse", "negative"), ...) {
  call <- match.call()
  call[[1L]] <- quote(cca_svm)
  check_no_dots(...)
  cca_fit(x, y, lambda, cost, r, "svm", match.arg(loss), tol, max_iter, call, "cca_svm",
          match.arg(na_labels))
}

#' @rdname cca_ridge
#' @export
cca_svm.formula <- formula_method("cca_svm")

cca_fit <- function(x, y, lambda, cost, r, learner, loss, tol, max_iter, call, class,
                    na_labels = "refuse") {
  lambda <- check_penalty(lambda, "lambda")
  if (is.infinite(lambda)) stop_arg("'lambda' must be finite")
  xy <- ml_xy(x, y)
  x <- as_features(xy$x)
  y <- as_labels(xy$y, nrow(x), na = na_labels, fun = class)
  warn_constant_labels(y)
  if (!is.null(r)) r <- check_rank(r, ncol(y))
  cost <- check_cost(cost, ncol(y))
  tol <- check_solver_tol(tol, learner, loss)
  max_iter <- check_max_iter(max_iter)
  cca <- cca_projection(x, y, lambda, r)
  center <- as.numeric(Matrix::colMeans(x))
  Z <- as.matrix(x %*% cca$projection) - rep(drop(center %*% cca$projection), each = nrow(x))
  colnames(Z) <- paste0("cc", seq_len(ncol(Z)))
  stage2 <- br_fit(Z, y, learner, cost, loss, TRUE, tol, max_iter)
  warn_not_converged(stage2$status, colnames(y))
  fit <- list(W = cca$projection %*% stage2$W,
              intercept = stage2$intercept - drop(crossprod(center, cca$projection %*% stage2$W)),
              link = "identity", iter = stage2$iter)
  s2 <- linear_finish(stage2, Z, y, NULL, "br",
                      list(learner = learner, loss = if (learner == "svm") loss,
                           cost = stats::setNames(cost, colnames(y)), tol = tol))
  projection <- cca$projection
  dimnames(projection) <- list(colnames(x), colnames(Z))
  linear_finish(fit, x, y, call, class,
                settings = list(cost = stats::setNames(cost, colnames(y)),
                                loss = if (learner == "svm") loss, lambda = lambda),
                extra = list(projection = projection, cor = stats::setNames(cca$cor, colnames(Z)),
                             center = stats::setNames(center, colnames(x)), stage2 = s2))
}

# Regularised CCA of x against the labels y (n x m logical): the canonical
# directions (d x r), normalised to W'(X'X/n + lambda I)W = I, and the
# regularised canonical correlations, through the MLLS subspace at alpha = Inf
# of the whitened labels (see ?cca_ridge).
cca_projection <- function(x, y, lambda, r = NULL) {
  n <- nrow(x)
  Yc <- scale(2 * y - 1, scale = FALSE)
  e <- eigen(crossprod(Yc), symmetric = TRUE)
  keep <- e$values > max(dim(Yc)) * .Machine$double.eps * max(e$values, 0)
  if (!any(keep)) stop_arg("the labels of 'y' do not vary: there is nothing to correlate with")
  # Y~ = Yc (Yc'Yc)^(-1/2), on the labels' own rank: Y~ Y~' = Yc (Yc'Yc)^+ Yc'
  Yw <- Yc %*% e$vectors[, keep, drop = FALSE] %*% diag(1 / sqrt(e$values[keep]), sum(keep))
  if (is.null(r)) r <- sum(keep)
  fit <- mlls_solve(x, Yw, alpha = Inf, beta = lambda, r = min(r, sum(keep)),
                    intercept = TRUE)
  Theta <- fit$Theta                          # r x d, orthonormal rows
  center <- as.numeric(Matrix::colMeans(x))
  Z <- as.matrix(x %*% t(Theta)) - rep(drop(Theta %*% center), each = n)
  # the CCA eigenproblem restricted to span(Theta'), which contains its top
  # eigenvectors: S2 a = rho^2 S1 a with S1 = Z'Z/n + lambda I, S2 = Z'Y~Y~'Z/n
  S1 <- crossprod(Z) / n + lambda * diag(nrow(Theta))
  ZY <- crossprod(Z, Yw) / n
  # values beyond ~1e150 overflow Z'Z; lambda is on the scale of X'X / n, so
  # the problem cannot be rescaled for the user without changing it
  if (!all(is.finite(S1)) || !all(is.finite(ZY)))
    stop_arg("the cross products of 'x' overflow (its largest absolute value is ",
             format(max_abs(x), digits = 3), "): rescale 'x' (for example divide it by ",
             "a power of 10) and choose 'lambda' on the new scale")
  ch <- chol(S1)
  Linv <- backsolve(ch, diag(nrow(Theta)))    # S1^(-1) = Linv Linv'
  ev <- eigen(crossprod(Linv, ZY %*% t(ZY) %*% Linv) * n, symmetric = TRUE)
  A <- Linv %*% ev$vectors
  list(projection = t(Theta) %*% A, cor = sqrt(pmax(ev$values, 0)))
}
