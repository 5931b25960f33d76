#' Conditional principal label space transformation (CPLST)
#'
#' The feature-aware label space reduction of Chen and Lin (2012): the labels
#' are encoded into `k` directions that are both informative about the label
#' vectors and predictable from the features, ridge regression learns the
#' codes, and a prediction is decoded back to one score per label.  A baseline
#' for `lewl()`-style learning with missing labels, where (as in that paper's
#' experiments) missing labels are taken as negatives.
#'
#' @section Model:
#' With \eqn{Y} the n x m 0/1 label matrix, \eqn{\bar y}{ybar} its column
#' means, \eqn{Y_c = Y - 1\bar y'}{Yc = Y - 1 ybar'}, \eqn{X_c} the centred
#' features and \eqn{H = X_c(X_c'X_c + \lambda I)^{-1}X_c'}{H = Xc (Xc'Xc +
#' lambda I)^-1 Xc'} the hat matrix of ridge regression, CPLST takes as
#' encoding \eqn{V} (m x k, orthonormal columns) the top-k eigenvectors of
#' \eqn{Y_c' H Y_c}{Yc' H Yc} (Chen and Lin's Equation 9 with the ridge
#' hat matrix), regresses the codes \eqn{Z = Y_c V}{Z = Yc V} on \eqn{X_c} by
#' ridge regression with the same \eqn{\lambda}{lambda}, and decodes
#' \deqn{s(x) = \bar y + V W'(x - \mu),\quad W = (X_c'X_c + \lambda I)^{-1}X_c'Y_cV.}{s(x) = ybar + V W'(x - mu),  W = (Xc'Xc + lambda I)^-1 Xc' Yc V.}
#' The paper rounds \eqn{s(x)}{s(x)} at 1/2; here, as for every model of the
#' package, each label gets the threshold that maximises its F1 on the
#' training scores ([f1_thresholds()]).  With `k = m` and
#' \eqn{\lambda \to 0}{lambda -> 0} the model is least squares on every label.
#'
#' The whole model is one linear function per label, so the fit is stored as
#' for [br()] (`W`, `intercept`) and [predict.br()] and [coef.br()] apply.
#'
#' @section Computation:
#' When \eqn{d \le n}{d <= n}, \eqn{Y_c'HY_c = A'(X_c'X_c + \lambda I)^{-1}A}{Yc' H Yc = A' (Xc'Xc + lambda I)^-1 A}
#' with \eqn{A = X_c'Y_c}{A = Xc'Yc}, through one Cholesky factor of a d x d
#' matrix; when \eqn{d > n}{d > n}, through the centred Gram matrix
#' \eqn{K = X_cX_c'}{K = Xc Xc'}: \eqn{Y_c'K(K + \lambda I)^{-1}Y_c}{Yc' K
#' (K + lambda I)^-1 Yc} (then \eqn{\lambda > 0}{lambda > 0} is needed).  A
#' dense `x` is centred explicitly, in two passes, so that the scores do not
#' change when a constant is added to a column (up to the rounding of
#' evaluating the linear scores themselves); a sparse `x` is centred
#' implicitly, except its columns whose mean exceeds their spread (mostly
#' non-zero anyway), which are centred explicitly.  The n x n hat matrix
#' is never formed; cross products that overflow (values near 1e154 and
#' above) stop with an error.  All the work is in BLAS and LAPACK calls made from R
#' (`crossprod()`, `chol()`, `eigen()` on the m x m matrix).
#'
#' @param x A numeric matrix, a data frame of numeric columns, or a sparse
#'   `Matrix` (n x d).  For the formula method, a formula such as
#'   `cbind(l1, l2, l3) ~ .`.
#' @param y Labels: an n x m logical, 0/1 or -1/+1 matrix or data frame; `NA`
#'   marks a missing label (see `na_labels`).
#' @param k Number of label directions, 1 to m; `NULL` (the default) for
#'   `ceiling(m / 2)`.
#' @param lambda Ridge penalty, a number >= 0 (default 1); the features are
#'   not scaled, so its useful range depends on theirs.
#' @param na_labels What to do with missing labels: `"negative"` (the
#'   default, as in the experiments of the LEWL paper) treats them as 0,
#'   `"refuse"` stops with an error.
#' @param data,subset,na.action For the formula method, as in [lm()].
#' @param ... For the formula method, arguments passed to the default method.
#' @return An object of class `c("cplst", "br")`: `W` (d x m) and `intercept`
#'   (the decoded linear model), `thresholds`, `train_f1`, `encoding` (the m x
#'   k matrix \eqn{V}), `eigenvalues` (all m of \eqn{Y_c'HY_c}{Yc' H Yc}),
#'   `k`, `lambda`, `center` (the column means of `x`), `label_means`,
#'   `n_missing` (labels taken as negatives), `labels`, `features`, `n_pos`,
#'   `nobs`, `call`.
#' @references Chen Y.-N. and Lin H.-T. (2012). Feature-aware label space
#'   dimension reduction for multi-label classification. NIPS 25, 1529-1537.
#' @seealso [cv_cplst()], [br()], [predict.br()].
#' @examples
#' data(yeast)
#' train <- yeast$train
#' fit <- cplst(yeast$x[train, ], yeast$y[train, ], k = 5, lambda = 1)
#' fit
#' pred <- predict(fit, yeast$x[!train, ], type = "class")
#' ml_metrics(yeast$y[!train, ], pred = pred, measures = "macro_f1")
#' @export
cplst <- function(x, ...) UseMethod("cplst")

#' @rdname cplst
#' @export
cplst.default <- function(x, y, k = NULL, lambda = 1, na_labels = c("negative", "refuse"),
                          ...) {
  call <- match.call()
  call[[1L]] <- quote(cplst)
  check_no_dots(...)
  na_labels <- match.arg(na_labels)
  xy <- ml_xy(x, y)
  x <- as_features(xy$x)
  y <- as_labels(xy$y, nrow(x), na = "keep")
  n_missing <- sum(is.na(y))
  if (n_missing && na_labels == "refuse") refuse_missing_labels(y, "y", "cplst")
  y[is.na(y)] <- FALSE
  warn_constant_labels(y)
  m <- ncol(y)
  k <- check_cplst_k(k, m)
  lambda <- check_penalty(lambda, "lambda")
  if (!is.finite(lambda)) stop_arg("'lambda' must be finite")
  fit <- cplst_solve(x, y, k, lambda)
  out <- linear_finish(list(W = fit$W, intercept = fit$intercept, link = "identity",
                            iter = integer(m)),
                       x, y, call, "cplst",
                       settings = list(k = k, lambda = lambda),
                       extra = list(encoding = fit$V, eigenvalues = fit$values,
                                    center = stats::setNames(fit$center, colnames(x)),
                                    label_means = stats::setNames(fit$ybar, colnames(y)),
                                    n_missing = n_missing))
  out$iter <- NULL
  dimnames(out$encoding) <- list(colnames(y), paste0("v", seq_len(k)))
  out
}

#' @rdname cplst
#' @export
cplst.formula <- formula_method("cplst")

check_cplst_k <- function(k, m) {
  if (is.null(k)) return(as.integer(ceiling(m / 2)))
  if (!is.numeric(k) || length(k) != 1 || is.na(k) || k < 1 || k != round(k))
    stop_arg("'k' must be a whole number >= 1")
  if (k > m) stop_arg("'k' = ", k, " is larger than the number of labels (", m, ")")
  as.integer(k)
}

# CPLST on checked inputs (x dense or dgCMatrix, y n x m logical without NA):
# the encoding V, the eigenvalues of Yc'HYc, and the decoded linear model
# (W d x m, intercept m) such that scores = x W + intercept.
cplst_solve <- function(x, y, k, lambda) {
  n <- nrow(x)
  d <- ncol(x)
  xc <- centred_features(x)
  mu <- xc$center
  ybar <- colMeans(y)
  Yc <- y - rep(ybar, each = n)
  if (d <= n) {
    G <- xc$crossprod()
    diag(G) <- diag(G) + lambda
    ch <- tryCatch(chol(G), error = function(e)
      stop_arg("X'X + lambda I is singular: give 'lambda' > 0"))
    A <- xc$tprod(Yc)
    B <- backsolve(ch, forwardsolve(t(ch), A))  # (Xc'Xc + lambda I)^-1 Xc'Yc, d x m
    M <- crossprod(A, B)
  } else {
    if (lambda <= 0) stop_arg("'lambda' must be > 0 when there are more features than rows")
    K <- xc$gram()
    diag(K) <- diag(K) + lambda
    ch <- chol(K)
    S <- backsolve(ch, forwardsolve(t(ch), Yc))    # (K + lambda I)^-1 Yc, centred
    # Yc' K (K + lambda I)^-1 Yc = Yc'Yc - lambda Yc'S
    M <- crossprod(Yc) - lambda * crossprod(Yc, S)
    B <- xc$tprod(S)                                # Xc'S, centred: 1'S is 0 only to rounding
  }
  e <- eigen((M + t(M)) / 2, symmetric = TRUE)
  V <- e$vectors[, seq_len(k), drop = FALSE]
  W <- B %*% tcrossprod(V)
  list(W = W, intercept = ybar - drop(crossprod(mu, W)), V = V, values = e$values,
       center = mu, ybar = ybar)
}

