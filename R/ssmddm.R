#' Shared-subspace MDDM
#'
#' The least-squares form of MDDM with the shared-subspace penalty of MLLS
#' (Shu, Lai, Xu and Tao 2015): the MLLS machinery of [mlls()] run on
#' real-valued targets, the top eigenvectors of the centred label kernel,
#' instead of the labels.  The result is a projection of the features with a
#' shared subspace, and a per-label classifier on top of it.
#'
#' @section Model:
#' Let \eqn{T} (\eqn{n \times k}{n x k}) hold the top \eqn{k} eigenvectors of
#' the centred label kernel \eqn{HLH} (\eqn{L = YY'} by default), scaled by
#' \eqn{\sqrt{n}}{sqrt(n)} so that their entries have unit mean square.  The
#' projection \eqn{U} (\eqn{d \times k}{d x k}) and the shared subspace
#' \eqn{\Theta}{Theta} (\eqn{r \times d}{r x d}, orthonormal rows) minimise
#' \deqn{\frac{1}{n}\|X_cU - T\|_F^2 + \alpha\|U - \Theta'V\|_F^2 + \beta\|U\|_F^2}{(1/n)||Xc U - T||^2 + alpha ||U - Theta'V||^2 + beta ||U||^2}
#' with the centred data \eqn{X_c}{Xc}: the MLLS objective with \eqn{T} in place
#' of the labels, solved by the same closed form (one decomposition of the
#' centred data).  The projected data are \eqn{X_cU}{Xc U}.
#'
#' Why this is MDDM: for `alpha = 0` it is ridge regression on the targets, and
#' (see `vignette("mddm", package = "mlss")`)
#' * with `beta = 0` and centred data of rank \eqn{n - 1} (so \eqn{d \ge n - 1}),
#'   \eqn{U} is the minimum-norm least-squares solution and equals the MDDM
#'   projection with `mu = 1` of [mddm()] exactly, column by column up to scale;
#' * when \eqn{k} is the rank of \eqn{HLH} (all the targets), the span of
#'   \eqn{U} is the MDDM subspace with \eqn{\mu = 1 / (1 + n\beta)}{mu = 1 / (1 + n beta)}, for
#'   any \eqn{d};
#' * otherwise the two differ, by an angle that the vignette measures.
#'
#' `alpha` then pulls the \eqn{k} projection vectors towards a common
#' \eqn{r}-dimensional subspace.  `beta = Inf` would shrink the projection to
#' zero and is not allowed.
#'
#' @section Missing labels:
#' As for [mddm()]: the targets are eigenvectors of the label kernel, which a
#' missing entry leaves undefined.  `NA` in `y` is an error unless
#' `na_labels = "negative"` takes it as `FALSE`.
#'
#' @inheritParams mddm
#' @inheritParams mlls
#' @param alpha Weight of the shared-subspace penalty, a number >= 0 or `Inf`.
#' @param beta Weight of the ridge penalty, a finite number >= 0.
#' @param k Number of least-squares targets, the dimension of the projection:
#'   a whole number >= 1, or a share in (0, 1) of the sum of the eigenvalues of
#'   the centred label kernel.
#' @param r Dimension of the shared subspace; `NULL` gives MLLS's default
#'   `5 * floor((k - 1) / 5)` (at least 1).  It cannot exceed `k`.
#' @param method `"auto"` (primal when d <= n, else dual), `"primal"` or
#'   `"dual"`; see [mlls()].
#' @param tol Relative tolerance below which eigenvalues of the Gram matrix of
#'   the centred data count as zero; see [mlls()].
#' @return An object of class `c("ssmddm", "mddm")`: the components of an
#'   [mddm()] fit (`P` is \eqn{U}, `values` the non-zero eigenvalues of the
#'   centred label kernel) plus `Theta`, `V` (\eqn{\Theta U}{Theta U}), `W`
#'   (\eqn{U - \Theta'V}{U - Theta'V}), `alpha`, `beta` and `r`.  [predict.mddm()],
#'   [plot.mddm()], [coef.mddm()] and [summary.mddm()] apply.
#' @references
#' Shu X., Lai D., Xu H. and Tao L. (2015). Learning shared subspace for
#' multi-label dimensionality reduction via dependence maximization.
#' Neurocomputing 168, 356-364.
#'
#' Ji S., Tang L., Yu S. and Ye J. (2010). A shared-subspace learning framework
#' for multi-label classification. ACM TKDD 4(2), 8.
#' @seealso [mddm()], [mlls()].
#' @examples
#' data(yeast)
#' train <- yeast$train
#' fit <- ssmddm(yeast$x[train, ], yeast$y[train, ], alpha = 1, beta = 0.01, k = 10, r = 5)
#' fit
#' pred <- predict(fit, yeast$x[!train, ], type = "class")
#' colMeans(pred == yeast$y[!train, ])
#' @export
ssmddm <- function(x, ...) UseMethod("ssmddm")

#' @rdname ssmddm
#' @export
ssmddm.default <- function(x, y, alpha, beta, k, r = NULL, kernel = NULL, lambda = 0.01,
                           method = c("auto", "primal", "dual"), tol = NULL,
                           na_labels = c("refuse", "negative"), ...) {
  call <- match.call()
  call[[1L]] <- quote(ssmddm)
  check_no_dots(...)
  for (arg in c("alpha", "beta")[c(missing(alpha), missing(beta))])
    stop_arg("'", arg, "' is missing: give a value >= 0, or let cv_ssmddm() choose it")
  alpha <- check_penalty(alpha, "alpha")
  beta <- check_penalty(beta, "beta")
  if (is.infinite(beta)) stop_arg("'beta' must be finite: beta = Inf shrinks the projection to zero")
  dimk <- check_dimension(k)
  lambda <- check_lambda(lambda)
  method <- match.arg(method)
  xy <- ml_xy(x, y)
  x <- as_features(xy$x)
  n <- nrow(x)
  y <- as_labels(xy$y, n, na = match.arg(na_labels), fun = "ssmddm")
  lab <- label_spectrum(y, kernel, n)
  k <- target_dimension(dimk, lab$values)
  targets <- sqrt(n) * lab$vectors[, seq_len(k), drop = FALSE]
  r <- check_rank(r, k)
  if (r > k) stop_arg("'r' = ", r, " is larger than 'k' = ", k,
                      ": the shared subspace lies in the span of the projection")
  ls <- mlls_solve(x, targets, alpha, beta, r, intercept = TRUE, method = method, tol = tol)
  res <- ls$res
  if (length(res$s) == 0)
    stop_arg("'x' has no variation (after centring): there is nothing to project")
  if (res$r < r)
    message("r = ", r, " is more than the problem allows (the rank of X'T after ",
            "centring is ", res$r, "): using r = ", res$r)
  # the targets' signs are arbitrary: flip them so that P's columns follow
  # fix_signs(), as for mddm()
  flip <- column_signs(ls$U)
  P <- ls$U * rep(flip, each = nrow(ls$U))
  dimnames(P) <- list(colnames(x), paste0("SSMDDM", seq_len(k)))
  theta_names <- sprintf("theta%d", seq_len(res$r))
  fit <- list(P = P, center = stats::setNames(Matrix::colMeans(x), colnames(x)),
              values = lab$values, k = k, share = sum(lab$values[seq_len(k)]) / sum(lab$values),
              Theta = `dimnames<-`(ls$Theta, list(theta_names, colnames(x))),
              V = `dimnames<-`(res$V * rep(flip, each = res$r), list(theta_names, colnames(P))),
              W = `dimnames<-`(ls$W * rep(flip, each = nrow(P)), dimnames(P)),
              alpha = alpha, beta = beta, r = res$r)
  fit <- c(fit, reduced_classifier(project_data(x, P, fit$center), y, lambda))
  fit <- c(fit, list(rank = length(res$s), sdev = res$s / sqrt(n), labels = colnames(y),
                     features = colnames(x), nobs = n, kernel = lab$kernel,
                     method = ls$method, call = call))
  new_ml_fit(fit, c("ssmddm", "mddm"), types = c("class", "score", "projection"),
             n_features = ncol(x))
}

#' @rdname ssmddm
#' @export
ssmddm.formula <- formula_method("ssmddm")

# The number of targets: k itself, or the smallest k whose eigenvalues reach
# the share of their sum, chosen as mddm() chooses its dimension (in C).
target_dimension <- function(dimk, values) {
  check_dimension_bound(dimk, length(values), "")
  .Call(C_mddm_choose_k_call, as.double(values), dimk$k, dimk$share)
}
