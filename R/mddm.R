#' Multi-label dimensionality reduction via dependence maximisation (MDDM)
#'
#' Finds the projection of the features that maximises the dependence (the
#' Hilbert-Schmidt independence criterion, HSIC) between the projected data and
#' the labels (Zhang and Zhou 2010), without any \eqn{d \times d}{d x d}
#' matrix when there are more features than instances, and puts a per-label
#' classifier on top of the projection so that the labels can be predicted.
#'
#' @section Model:
#' With the centred data \eqn{X_c = HX}{Xc = HX} (\eqn{H = I - 11'/n}) and a
#' label kernel \eqn{L} (\eqn{L = YY'} by default), the projection
#' \eqn{P} (\eqn{d \times k}{d x k}) solves
#' \deqn{\max_P \mathrm{tr}(P'X_c'LX_cP) \quad \mathrm{s.t.} \quad P'(\mu X_c'X_c + (1 - \mu)I)P = I,}{max tr(P'Xc'L Xc P)  s.t.  P'(mu Xc'Xc + (1 - mu) I) P = I,}
#' the generalised eigenproblem \eqn{X'HLHXp = \lambda(\mu X_c'X_c + (1-\mu)I)p}{X'HLHX p = lambda (mu Xc'Xc + (1 - mu) I) p}.
#' `mu = 0` gives orthonormal projection vectors (then \eqn{P} holds the top
#' left singular vectors of \eqn{X'HY}), `mu = 1` projected features that are
#' uncorrelated on the training data.  The eigenvalues \eqn{\lambda} measure
#' the dependence each direction captures.  The data are always centred, so
#' that "uncorrelated" has its meaning; the objective does not depend on it.
#'
#' When \eqn{\mu = 1} and the centred data have rank \eqn{t < d}, the
#' constraint matrix is singular and any component in the null space of
#' \eqn{X_c}{Xc} could be added to \eqn{P}; `mddm()` returns the minimum-norm
#' solution, the one in the row space of the data.
#'
#' @section Dimension:
#' The problem has as many informative directions (non-zero eigenvalues) as
#' the rank of \eqn{X_c'LX_c}{Xc'L Xc}, at most the number of labels for the
#' linear label kernel; `k` cannot exceed it (the remaining directions have
#' eigenvalue zero and carry no information).  A `k` in (0, 1) selects the
#' smallest dimension whose eigenvalues reach that share of their sum.
#' Eigenvalues below `sqrt(.Machine$double.eps)` times the largest count as zero.
#'
#' @section Computation:
#' With the thin SVD \eqn{X_c = U_1 \mathrm{diag}(s) V_1'}{Xc = U1 diag(s) V1'} (rank
#' \eqn{t}) and \eqn{b = \mu s^2 + 1 - \mu}{b = mu s^2 + 1 - mu}, the solution is
#' \eqn{P = V_1 \mathrm{diag}(b^{-1/2}) E}{P = V1 diag(b^(-1/2)) E}, where \eqn{E}
#' holds the top right singular vectors of the small matrix
#' \eqn{R'U_1\mathrm{diag}(s\, b^{-1/2})}{R'U1 diag(s b^(-1/2))}, \eqn{R} a
#' factor of the centred label kernel (\eqn{HLH = RR'}).  The SVD comes from
#' the \eqn{d \times d}{d x d} matrix \eqn{X_c'X_c}{Xc'Xc} when \eqn{d \le n}
#' (`method = "primal"`) and from the \eqn{n \times n}{n x n} Gram matrix
#' otherwise (`method = "dual"`, time linear in \eqn{d}); a sparse `x` is centred
#' implicitly and never densified.  `method = "direct"` solves the generalised
#' eigenproblem on the \eqn{d \times d}{d x d} matrices themselves (cost
#' \eqn{O(d^3)}), as a reference for small `d`.  The derivation is in
#' `vignette("mddm", package = "mlss")`.
#'
#' @section Label kernel:
#' `kernel = NULL` (or `"linear"`) uses \eqn{L = YY'}.  Any other label kernel
#' can be given as an \eqn{n \times n}{n x n} symmetric positive semi-definite
#' matrix; it replaces \eqn{YY'} in the projection, while `y` still trains the
#' classifier.  (This is a kernel on the labels, unlike the `kernel` argument of
#' [mlls()], a kernel on the features.)
#'
#' @section Classification:
#' The projection alone does not predict labels.  `mddm()` fits, for each
#' label, a ridge regression of the \eqn{\pm 1}{+1/-1} labels (with intercept)
#' on the projected training data, divided by their root mean square so that
#' `lambda` does not depend on the scale of `x` or on `mu`, and chooses one
#' threshold per label that maximises the label's F1 on the training scores, as
#' [mlls()] does (it is an [mlls()] fit with `alpha = 0` on the projected data,
#' kept in `$classifier`).  Ridge was chosen over logistic regression and
#' ML-kNN because it is in closed form, cheap in the \eqn{k}-dimensional space,
#' and the same kind of linear scorer as MLLS, so that a comparison with MLLS
#' measures the projection and not the classifier; with tuned thresholds the
#' calibration a logistic model would add does not matter.  The whole chain is
#' a linear scorer in the input space: see [coef.mddm()].
#'
#' @inheritParams mlls
#' @section Missing labels:
#' MDDM projects on the directions of largest dependence between the features
#' and the label kernel \eqn{L = YY'}; a missing entry of \eqn{Y} leaves the
#' kernel undefined.  So `NA` in `y` is an error unless `na_labels =
#' "negative"` takes it as `FALSE` (a `kernel` given as a matrix is used as it
#' is, but the classifier on the projection still needs the labels).
#'
#' @param na_labels What to do with missing labels (`NA` in `y`): `"refuse"`
#'   (the default: an error) or `"negative"` (`NA` taken as `FALSE`); see the
#'   section Missing labels.
#' @param y Labels: an n x m logical, 0/1 or -1/+1 matrix or data frame, one
#'   column per label (a vector is a single label); factors as for [mlls()].
#' @param k Dimension of the projection: a whole number >= 1, or a share in
#'   (0, 1) of the sum of the eigenvalues.
#' @param mu Weight, between 0 and 1, of the data covariance in the constraint: 0 for
#'   orthonormal projection vectors, 1 for uncorrelated projected features.
#'   The default 0.5 was best on every set measured (`bench/defaults.R`,
#'   `k = 0.9`, test-set macro F1 at mu = 0 / 0.5 / 1: emotions 0.477 / 0.679 /
#'   0.678, scene 0.629 / 0.668 / 0.633, yeast 0.464 / 0.478 / 0.466, medical
#'   0.347 / 0.510 / 0.313, enron 0.178 / 0.206 / 0.122).
#' @param kernel `NULL` or `"linear"` for the linear label kernel \eqn{YY'}, or
#'   an n x n label kernel matrix.
#' @param lambda Ridge penalty (a finite number >= 0) of the per-label
#'   classifier on the projected data.
#' @param method `"auto"` (primal when d <= n, else dual), `"primal"`,
#'   `"dual"`, or `"direct"` (the d x d generalised eigenproblem).
#' @param tol Relative tolerance below which eigenvalues of the Gram matrix of
#'   the centred data count as zero; `NULL` means
#'   `max(n, d) * .Machine$double.eps`.
#'
#' @return An object of class `"mddm"`: a list with
#'   \item{P}{d x k projection; the projected data are `(x - center) %*% P`,
#'     see [predict.mddm()].}
#'   \item{center}{the column means of the training data.}
#'   \item{values}{all the non-zero eigenvalues (decreasing); the first `k`
#'     belong to `P`.  With values of `x` beyond about 1e150 the problem is
#'     solved on `x` divided by a power of 2 (exact) and mapped back; the
#'     eigenvalues may then overflow to `Inf` (the share does not).}
#'   \item{k, mu, share}{the dimension, `mu`, and the share of the eigenvalue
#'     sum the projection captures.}
#'   \item{classifier, scale, lambda}{the [mlls()] fit on the projected data
#'     divided by `scale`, and its ridge penalty.}
#'   \item{rank, sdev}{rank of the centred data and its singular values
#'     divided by `sqrt(n)` (not for `method = "direct"`).}
#'   \item{labels, features, nobs, kernel, method, call}{as the names say.}
#' @references
#' Zhang Y. and Zhou Z.-H. (2010). Multilabel dimensionality reduction via
#' dependence maximization. ACM Transactions on Knowledge Discovery from Data
#' 4(3), 14.
#'
#' Shu X., Lai D., Xu H. and Tao L. (2015). Learning shared subspace for
#' multi-label dimensionality reduction via dependence maximization.
#' Neurocomputing 168, 356-364.
#' @seealso [predict.mddm()], [plot.mddm()], [ssmddm()] for the shared-subspace
#'   version, [mlls()].
#' @examples
#' data(yeast)
#' train <- yeast$train
#' fit <- mddm(yeast$x[train, ], yeast$y[train, ], k = 0.9, mu = 0.5)
#' fit
#' z <- predict(fit, yeast$x[!train, ])       # the projected test data
#' dim(z)
#' pred <- predict(fit, yeast$x[!train, ], type = "class")
#' colMeans(pred == yeast$y[!train, ])       # per-label accuracy on the test part
#' plot(fit)
#' @export
mddm <- function(x, ...) UseMethod("mddm")

#' @rdname mddm
#' @export
mddm.default <- function(x, y, k, mu = 0.5, kernel = NULL, lambda = 0.01,
                         method = c("auto", "primal", "dual", "direct"), tol = NULL,
                         na_labels = c("refuse", "negative"), ...) {
  call <- match.call()
  call[[1L]] <- quote(mddm)
  check_no_dots(...)
  dimk <- check_dimension(k)
  mu <- check_number(mu, "mu", 0, 1)
  lambda <- check_lambda(lambda)
  method <- match.arg(method)
  xy <- ml_xy(x, y)
  x <- as_features(xy$x)
  n <- nrow(x)
  d <- ncol(x)
  y <- as_labels(xy$y, n, na = match.arg(na_labels), fun = "mddm")
  tol <- check_tol(tol, x)
  lab <- label_spectrum(y, kernel, n)
  check_dimension_bound(dimk, min(d, n - 1L, length(lab$values)), "at most")
  if (method == "auto") method <- if (d <= n) "primal" else "dual"
  factor <- lab$vectors %*% diag(sqrt(lab$values), length(lab$values))
  # a sparse column with a large mean is centred explicitly first, as in mlls()
  xs <- if (inherits(x, "dgCMatrix")) centre_offset_columns(x) else x
  # Values beyond ~1e150 overflow X'X (below ~1e-160 its entries underflow):
  # the problem is solved on x' = xs / sc (sc a power of 2: exact) and mapped
  # back.  With b = (1 - mu) / sc^2, h = mu + b: P = Q / (sc sqrt(h)), where Q
  # solves the problem of x' with mu' = mu / h, and the eigenvalues are those
  # of x' divided by h (they may overflow to Inf; the share is taken before).
  sc <- knn_power2(max_abs(xs))
  map <- mddm_rescaling(mu, sc)
  res <- .Call(C_mddm_fit, native_matrix(if (sc != 1) knn_divide(xs, sc) else xs), factor,
               map$mu, dimk$k, dimk$share, match(method, c("primal", "dual", "direct")) - 1L,
               tol)
  share_values <- res$values
  if (sc != 1) {
    res$P <- res$P / map$p_div
    res$values <- res$values * map$v_mul
    res$center <- res$center * sc
    if (!is.null(res$s)) res$s <- res$s * sc
  }
  rank <- length(res$values)
  if (!is.null(res$s) && length(res$s) == 0)
    stop_arg("'x' has no variation (after centring): there is nothing to project")
  if (rank == 0)
    stop_arg("'x' and the labels show no linear dependence (X'HY is zero after ",
             "centring): there is nothing to project on")
  check_dimension_bound(dimk, rank, "")
  P <- fix_signs(res$P)
  dimnames(P) <- list(colnames(x), paste0("MDDM", seq_len(ncol(P))))
  center <- if (inherits(x, "dgCMatrix")) as.numeric(Matrix::colMeans(x)) else res$center
  fit <- list(P = P, center = stats::setNames(center, colnames(x)),
              values = res$values, k = ncol(P), mu = mu,
              share = sum(share_values[seq_len(ncol(P))]) / sum(share_values))
  fit <- c(fit, reduced_classifier(project_data(xs, P, res$center), y, lambda))
  fit <- c(fit, list(rank = if (method != "direct") length(res$s),
                     sdev = if (method != "direct") res$s / sqrt(n),
                     labels = colnames(y), features = colnames(x), nobs = n,
                     kernel = lab$kernel, method = method, call = call))
  new_ml_fit(fit, "mddm", types = c("class", "score", "projection"), n_features = d)
}

#' @rdname mddm
#' @export
mddm.formula <- formula_method("mddm")

# The dimension k: a whole number >= 1, or a share in (0, 1).
check_dimension <- function(k) {
  if (missing(k))
    stop_arg("'k' is missing: give the dimension of the projection (a whole number ",
             ">= 1) or a share of the eigenvalues in (0, 1)")
  if (!is.numeric(k) || length(k) != 1 || !is.finite(k) || k <= 0 ||
      (k >= 1 && k != round(k)))
    stop_arg("'k' must be a whole number >= 1 or a share in (0, 1)")
  if (k < 1) list(k = 1L, share = as.numeric(k)) else list(k = as.integer(k), share = 0)
}

check_dimension_bound <- function(dimk, rank, qualifier) {
  if (dimk$share == 0 && dimk$k > rank)
    stop_arg("'k' = ", dimk$k, " is larger than the rank of the problem (",
             trimws(paste(qualifier, rank)), ": the number of non-zero eigenvalues, ",
             "no more than the rank of the centred label kernel, the number of ",
             "labels for the linear kernel, or the rank of the centred 'x')")
}

check_lambda <- function(lambda) {
  lambda <- check_penalty(lambda, "lambda")
  if (!is.finite(lambda)) stop_arg("'lambda' must be finite")
  lambda
}

# mddm()'s problem for x = sc x' in terms of that of x' (see mddm.default):
# mu' and the divisor of P, the factor of the eigenvalues, computed so that
# neither sc^2 nor 1 / sc^2 overflows into them.
mddm_rescaling <- function(mu, sc) {
  if (sc == 1) return(list(mu = mu, p_div = 1, v_mul = 1))
  if (mu == 0) return(list(mu = 0, p_div = 1, v_mul = sc^2))
  if (mu == 1) return(list(mu = 1, p_div = sc, v_mul = 1))
  if (sc > 1) {
    h <- mu + (1 - mu) / sc^2
    return(list(mu = mu / h, p_div = sc * sqrt(h), v_mul = 1 / h))
  }
  g <- mu * sc^2 + (1 - mu)   # sc^2 h, for sc < 1
  list(mu = mu * sc^2 / g, p_div = sqrt(g), v_mul = sc^2 / g)
}

# The eigendecomposition of the centred label kernel HLH = vectors diag(values)
# vectors', non-zero eigenvalues only: from the SVD of the centred label matrix
# for the linear kernel L = YY', from eigen() for a user's kernel matrix.
label_spectrum <- function(y, kernel, n) {
  eps <- .Machine$double.eps
  if (is.null(kernel) || identical(kernel, "linear")) {
    yc <- scale(y + 0, scale = FALSE)
    s <- svd(yc, nv = 0)
    keep <- s$d > max(dim(yc)) * eps * s$d[1]
    if (!any(keep))
      stop_arg("every label of 'y' is constant: there is no dependence to maximise")
    return(list(vectors = s$u[, keep, drop = FALSE], values = s$d[keep]^2,
                kernel = "linear"))
  }
  if (!(is.matrix(kernel) || inherits(kernel, "Matrix")) || is.character(kernel))
    stop_arg("'kernel' must be NULL, \"linear\" or an n x n label kernel matrix")
  K <- check_kernel_matrix(kernel, arg = "kernel")
  if (nrow(K) != n)
    stop_arg("the label kernel 'kernel' must be ", n, " x ", n,
             " (one row and column per instance), not ", nrow(K), " x ", ncol(K))
  K <- centre_kernel(K)
  e <- eigen(K, symmetric = TRUE)
  top <- max(abs(e$values))
  if (min(e$values) < -sqrt(eps) * top)
    stop_arg("the label kernel 'kernel' is not positive semi-definite (after centring)")
  keep <- e$values > n * eps * top
  if (!any(keep))
    stop_arg("the label kernel 'kernel' is constant after centring: there is no ",
             "dependence to maximise")
  list(vectors = e$vectors[, keep, drop = FALSE], values = e$values[keep],
       kernel = "user")
}

# Each column with its largest entry (in absolute value) positive, so that a
# projection does not depend on the signs LAPACK happens to return.
column_signs <- function(P) {
  big <- P[cbind(apply(abs(P), 2, which.max), seq_len(ncol(P)))]
  ifelse(big < 0, -1, 1)
}
fix_signs <- function(P) P * rep(column_signs(P), each = nrow(P))

# The centred data times P, without densifying a sparse x.
project_data <- function(x, P, center) {
  z <- as.matrix(x %*% P) - rep(drop(center %*% P), each = nrow(x))
  dimnames(z) <- list(rownames(x), colnames(P))
  z
}

# The root mean square of the projected data (1 if it is zero), which the
# classifier divides them by so that lambda means the same at every scale.
rms_scale <- function(z) {
  m <- max(abs(z))   # divided first: z^2 overflows beyond 1e154
  if (!(m > 0)) return(1)
  m * sqrt(mean((z / m)^2))
}

# The classifier on top of a projection: per-label ridge regression of the
# labels on the projected training data divided by their root mean square, with
# F1-maximising thresholds (an mlls() fit with alpha = 0).
reduced_classifier <- function(z, y, lambda) {
  scale <- rms_scale(z)
  z <- z / scale
  list(classifier = mlls.default(z, y, alpha = 0, beta = lambda, r = 1L),
       scale = scale, lambda = lambda)
}
