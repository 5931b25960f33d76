#' Shared-subspace multi-label least squares (MLLS)
#'
#' Fits the MLLS model of Ji, Tang, Yu and Ye (2008, 2010): one linear scoring
#' function per label, all of them sharing an `r`-dimensional subspace of the
#' features.  The solution is computed in closed form through one symmetric
#' eigendecomposition of the centred data's Gram matrix.
#'
#' @section Model:
#' Label \eqn{l} is scored by \eqn{f_l(x) = b_l + w_l'x + v_l'\Theta x}, where
#' the \eqn{r \times d}{r x d} matrix \eqn{\Theta} has orthonormal rows and is
#' shared by all labels.  With \eqn{U = W + \Theta'V}, the fit minimises
#' \deqn{\frac{1}{n}\|XU - Y\|_F^2 + \alpha\|U - \Theta'V\|_F^2 + \beta\|U\|_F^2}{(1/n)||XU - Y||^2 + alpha ||U - Theta'V||^2 + beta ||U||^2}
#' over \eqn{U}, \eqn{V} and \eqn{\Theta}, with the labels coded \eqn{\pm 1}{+1/-1}
#' and, when `intercept = TRUE`, the columns of `x` and `y` centred first.
#'
#' * `alpha` pulls every label's weights towards the shared subspace.
#'   `alpha = 0` is ridge regression, label by label (the subspace is then
#'   computed but does not influence the weights); `alpha = Inf` confines the
#'   weights to the subspace, which becomes the orthonormalised-PLS one.
#' * `beta` is a ridge penalty.  `beta = Inf` gives `U = 0` and a subspace
#'   spanned by the top eigenvectors of \eqn{X'YY'X} (the orthogonal centroid
#'   method).  `alpha` and `beta` cannot both be `Inf`.
#'
#' @section Computation:
#' When \eqn{d \le n} the \eqn{d \times d}{d x d} matrix \eqn{X'X} is decomposed
#' (`method = "primal"`); when \eqn{d > n} the \eqn{n \times n}{n x n} Gram matrix
#' \eqn{XX'} is, and no \eqn{d \times d}{d x d} matrix is ever formed
#' (`method = "dual"`).  Everything after the decomposition happens in the
#' rank-\eqn{t} space of the data (methods.md, section 1).  A sparse `x`
#' (`Matrix::dgCMatrix`) is centred implicitly and never densified, except
#' for columns whose mean exceeds their standard deviation (mostly non-zero
#' anyway), which are centred explicitly so that their variance does not
#' cancel.
#'
#' A Gram matrix squares the range of the data: its small eigenvalues are
#' known only to about \eqn{\epsilon s_1^2}{eps * s_1^2}, which moves `U` by
#' about \eqn{\epsilon}{eps} times
#' \eqn{c = (s_1^2 + n\beta) / \sqrt{s_k^2 (s_k^2 + n\beta)}}{c = (s_1^2 + n beta) / sqrt(s_k^2 (s_k^2 + n beta))}
#' (\eqn{s} the singular values of the centred data,
#' \eqn{k = \min(n - 1, d)}{k = min(n - 1, d)}).  When \eqn{c > 10^4} a dense `x` is instead
#' decomposed directly, by a thin SVD (a QR or LQ factorisation followed by the
#' SVD of its small triangle, the same \eqn{O(n d \min(n, d))}{O(n d min(n, d))}
#' order), which keeps the error of `U` near \eqn{\epsilon}{eps} times the
#' condition number; `decomposition` in the result says which was used.  A
#' sparse `x` always goes through its Gram matrix, with a warning when that
#' can cost `U` more than about 8 of its digits.  Singular values (SVD) or
#' eigenvalues (Gram and kernel matrices) below `tol` times the largest count
#' as zero; with `beta = 0`, a rank below \eqn{\min(n - 1, d)}{min(n - 1, d)}
#' is reported, the fit being then the minimum-norm least-squares one.  The
#' fit is computed on rescaled singular values, so that neither huge nor tiny
#' data (or a huge `beta`) overflow.
#'
#' The rank `r` cannot exceed the number of informative directions of the
#' problem, the rank of \eqn{X'Y} after centring (at most the number of
#' labels); a larger `r` is reduced to it with a message.
#'
#' @section Kernels:
#' With `kernel = "linear"`, `"rbf"` or `"poly"` the model is fitted in the
#' kernel-induced feature space (Ji et al. 2010, Section 5) through the
#' empirical feature map of the (centred) kernel matrix; see [kernel_matrix()]
#' for the definitions and the parameters `gamma`, `degree` and `coef0`.  With
#' `kernel = "precomputed"`, `x` is itself an \eqn{n \times n}{n x n} kernel
#' matrix and [predict()] expects the kernel between new and training points.
#' A kernel fit has no `U`, `W` or `Theta` in the input space; it holds dual
#' coefficients `A` (\eqn{n \times m}{n x m}) and `B` (\eqn{n \times r}{n x r})
#' instead.  A linear kernel with an intercept is computed on the centred data
#' (which leaves the centred kernel unchanged and avoids cancellation); a
#' kernel matrix that overflows is an error, one with clearly negative
#' eigenvalues after centring gives a warning (only its positive part is
#' used), and one without any positive eigenvalue an error.
#'
#' @section Labels and thresholds:
#' `y` may be logical, 0/1 or -1/+1.  A label with no positive example (or no
#' negative one) is kept with a warning: its scores are constant and it is never
#' (always) predicted.  Scores become labels through one threshold per label,
#' chosen to maximise that label's F1 on the training scores (Fan and Lin 2007);
#' see [f1_thresholds()] for the tie rules.  Set your own with
#' `fit$thresholds <- ...` or the `thresholds` argument of [predict.mlls()].
#'
#' @section Missing labels:
#' MLLS fits the shared subspace and every label's weights jointly, in closed
#' form, from the whole label matrix (\eqn{X'Y}); a missing entry has no value
#' there, and a fit on observed entries only would lose the closed form.  So
#' `NA` in `y` is an error unless `na_labels = "negative"` takes it as
#' `FALSE`.  For labels with missing entries, see `lewl()` (learns from the
#' observed entries) or [br()] with `na_labels = "observed"`.
#'
#' @param x A numeric matrix, a data frame of numeric columns, or a sparse
#'   `Matrix` (n x d); with `kernel = "precomputed"`, an n x n kernel matrix.
#'   For the formula method, a formula such as `cbind(l1, l2, l3) ~ .`.
#'   A data set of class `mlss_data` (e.g. `mlss::emotions`, [read_mulan()])
#'   or `mldr` goes in as `x` with its labels, `y` left out.
#' @param y Labels: an n x m logical, 0/1 or -1/+1 matrix or data frame, one
#'   column per label (a vector is a single label).  Factor columns with two
#'   levels count the second level as positive (as [glm()] does), and levels
#'   0/1 or FALSE/TRUE as they say.
#' @param na_labels What to do with missing labels (`NA` in `y`): `"refuse"`
#'   (the default: an error) or `"negative"` (`NA` taken as `FALSE`); see the
#'   section Missing labels.
#' @param alpha Weight of the shared-subspace penalty, a number >= 0 or `Inf`.
#' @param beta Weight of the ridge penalty, a number >= 0 or `Inf`.
#' @param r Dimension of the shared subspace.  `NULL` gives half the largest
#'   rank X'Y can have, `ceiling(q / 2)` with `q = min(d, m, n - 1)` (d the
#'   number of features, or n for a kernel), and at most the papers'
#'   `5 * floor((m - 1) / 5)`: once r reaches the rank of X'Y the shared
#'   subspace is the whole fit and alpha has no effect (MLLS is then ridge
#'   regression), which the papers' default does whenever there are more labels
#'   than features.  On seven Mulan sets (`bench/default_r.R`) half the rank
#'   gave a test macro F1 within 0.004 of the papers' default or better (0.014
#'   better on enron, 0.005 on emotions); [cv_mlls()] takes several values of r
#'   to choose from.
#' @param intercept Fit an intercept per label (centre `x` and `y`)?
#' @param kernel `NULL` for linear MLLS in the input space, or one of
#'   `"linear"`, `"rbf"`, `"poly"`, `"precomputed"`.
#' @param gamma,degree,coef0 Kernel parameters, see [kernel_matrix()].
#' @param method `"auto"` (primal when d <= n, else dual), `"primal"` or
#'   `"dual"`; both give the same fit.
#' @param tol Relative tolerance of the decomposition: singular values of the
#'   centred data (when decomposed directly) or eigenvalues of the Gram or
#'   kernel matrix below `tol` times the largest (in absolute value) count as
#'   zero; `NULL` means `max(n, d) * .Machine$double.eps`, the noise level of
#'   either.
#' @param data,subset,na.action For the formula method, as in [lm()]; the
#'   default `na.action` is [na.fail()], so that missing values are an error. `na.action` applies to the features
#'   only: a row whose only `NA` is a label is kept, and its missing labels
#'   follow the rule of the section Missing labels.
#' @param ... For the formula method, arguments passed to the default method.
#'
#' @return An object of class `"mlls"`: a list with
#'   \item{U}{d x m weights: scores are `x %*% U` plus `intercept`.}
#'   \item{Theta}{r x d, orthonormal rows spanning the shared subspace.}
#'   \item{V}{r x m, the labels' weights in the subspace (`Theta %*% U`).}
#'   \item{W}{d x m, `U - t(Theta) %*% V`, the weights outside the subspace.}
#'   \item{intercept}{length m.}
#'   \item{thresholds}{per-label thresholds; `train_f1` their training F1.}
#'   \item{alpha, beta, r}{the parameters used (r after capping).}
#'   \item{rank, sdev}{rank t of the centred data and its singular values
#'     divided by `sqrt(n)`.}
#'   \item{labels, features, n_pos, nobs}{names, positives per label, n.}
#'   \item{A, B, kernel}{for kernel fits: dual coefficients and the kernel.}
#'   \item{method, decomposition, call}{how it was fitted: `decomposition` is
#'     `"gram"` (Gram or kernel matrix) or `"svd"` (thin SVD of the data).}
#' @references
#' Ji S., Tang L., Yu S. and Ye J. (2008). Extracting shared subspace for
#' multi-label classification. KDD 2008, 381-389.
#'
#' Ji S., Tang L., Yu S. and Ye J. (2010). A shared-subspace learning framework
#' for multi-label classification. ACM TKDD 4(2), 8.
#'
#' Fan R.-E. and Lin C.-J. (2007). A study on threshold selection for
#' multi-label classification. National Taiwan University.
#' @seealso [predict.mlls()], [coef.mlls()], [summary.mlls()], [f1_thresholds()].
#' @examples
#' data(yeast)
#' train <- yeast$train
#' fit <- mlls(yeast$x[train, ], yeast$y[train, ], alpha = 0.1, beta = 0.01)
#' fit
#' pred <- predict(fit, yeast$x[!train, ], type = "class")
#' colMeans(pred == yeast$y[!train, ])   # per-label accuracy on the test part
#'
#' # the formula interface
#' df <- data.frame(yeast$x[1:300, 1:10], a = yeast$y[1:300, 1], b = yeast$y[1:300, 2])
#' mlls(cbind(a, b) ~ ., data = df, alpha = 1, beta = 0.1)
#' @export
mlls <- function(x, ...) UseMethod("mlls")

#' @rdname mlls
#' @export
mlls.default <- function(x, y, alpha, beta, r = NULL, intercept = TRUE, kernel = NULL,
                         gamma = NULL, degree = 2, coef0 = 1,
                         method = c("auto", "primal", "dual"), tol = NULL,
                         na_labels = c("refuse", "negative"), ...) {
  call <- match.call()
  call[[1L]] <- quote(mlls)
  check_no_dots(...)
  pen <- check_mlls_penalties(alpha, beta)
  alpha <- pen$alpha
  beta <- pen$beta
  method <- match.arg(method)
  xy <- ml_xy(x, y)
  d <- mlls_inputs(xy$x, xy$y, r, intercept, kernel, match.arg(na_labels), "mlls")
  warn_constant_labels(d$y)
  fit <- mlls_solve(d$x, d$y, alpha, beta, d$r, d$intercept, d$kernel, gamma,
                    degree, coef0, method, tol)
  mlls_finish(fit, d$y, alpha, beta, d$r, call)
}

#' @rdname mlls
#' @export
mlls.formula <- formula_method("mlls")

# The checked inputs of a fit: features (or a kernel matrix), labels, r.
# The default r: half the largest possible rank of X'Y (after centring), at
# most the papers' 5 floor((m - 1) / 5).
default_subspace_rank <- function(x, y, intercept) {
  q <- min(ncol(x), ncol(y), nrow(x) - intercept)
  as.integer(max(1, min(default_rank(ncol(y)), ceiling(q / 2))))
}

# na: the rule for missing labels (as_labels()'s), fun the function to name.
mlls_inputs <- function(x, y, r, intercept, kernel, na = "refuse", fun = NULL) {
  intercept <- check_flag(intercept, "intercept")
  kernel <- check_kernel_name(kernel)
  x <- if (identical(kernel, "precomputed")) check_kernel_matrix(x) else as_features(x)
  y <- as_labels(y, nrow(x), na = na, fun = fun)
  r <- if (is.null(r)) default_subspace_rank(x, y, intercept) else check_rank(r, ncol(y))
  # r can never exceed the number of labels (the rank of X'Y): a larger r is
  # capped here (no integer overflow for 1e10 or Inf), and the fit says so as
  # for any r above what the problem allows, with the value asked for.
  if (r > ncol(y)) r <- structure(ncol(y), requested = r)
  list(x = x, y = y, r = r, intercept = intercept, kernel = kernel)
}

# The numeric MLLS fit of targets (n x m: a logical label matrix, which the C
# code reads as +1/-1 without a double copy in R, or real values) on checked
# features x (or a checked kernel matrix): the engine behind mlls(), also used
# by methods that run the MLLS machinery on other targets.  Returns the parts
# of the model plus `res`, the raw answer of the C routine, whose n x m
# training scores `fitted` are left out (NULL) when not wanted.
mlls_solve <- function(x, targets, alpha, beta, r, intercept = TRUE, kernel = NULL,
                       gamma = NULL, degree = 2, coef0 = 1, method = "auto",
                       tol = NULL, fitted = TRUE) {
  n <- nrow(x)
  tol <- check_tol(tol, x)
  if (!is.logical(targets)) storage.mode(targets) <- "double"
  if (is.null(kernel)) {
    dual <- switch(method, auto = ncol(x) > n, primal = FALSE, dual = TRUE)
    xs <- if (intercept && inherits(x, "dgCMatrix")) centre_offset_columns(x) else x
    res <- .Call(C_mlls_fit, native_matrix(xs), targets, alpha, beta, as.integer(r),
                 intercept, dual, as.double(tol), fitted)
    fit <- mlls_linear_parts(res, x, intercept)
    fit$method <- if (dual) "dual" else "primal"
    if (!res$direct && inherits(xs, "sparseMatrix")) warn_gram_accuracy(res, n, beta)
    if (beta == 0) note_rank(length(res$s), n - intercept, ncol(x))
  } else {
    kern <- mlls_kernel_spec(kernel, x, gamma, degree, coef0, intercept)
    K <- if (kernel == "precomputed") x else
      do.call(kernel_matrix, c(list(x, kernel = kernel), kern$par))
    if (!all(is.finite(range(K))))
      stop_arg("the ", kernel, " kernel matrix overflows (it holds Inf or NaN): ",
               "rescale 'x', or use a smaller 'gamma' or 'degree'")
    if (intercept) kern$center <- list(col = colMeans(K), all = mean(K))
    res <- .Call(C_mlls_fit_gram, K, targets, alpha, beta, as.integer(r), intercept,
                 as.double(tol), fitted)
    check_kernel_definite(res, n, kernel)
    if (intercept) warn_kernel_cancellation(K, kernel)
    fit <- list(A = res$coef, B = res$theta, intercept = res$y_center, kernel = kern,
                features = if (kernel != "precomputed") colnames(x), method = "kernel")
  }
  fit$decomposition <- if (isTRUE(res$direct)) "svd" else "gram"
  fit$res <- res
  fit
}

# The Gram route (sparse x) knows the small singular values to eps * s_1^2
# only: say so when that can cost U more than about 1e-8 of its accuracy
# among the directions it keeps (those below the cut-off are not judged: an
# empty column, common in sparse data, would always be).
warn_gram_accuracy <- function(res, n, beta) {
  s2 <- res$s^2
  if (!length(s2) || !is.finite(beta)) return(invisible())
  cond <- (s2[1] + n * beta) / (s2[length(s2)] + n * beta)
  if (is.finite(cond) && cond * .Machine$double.eps <= 1e-8) return(invisible())
  warning("the Gram matrix of the sparse 'x' is ill-conditioned at this beta ",
          "(condition number ", if (is.finite(cond)) format(cond, digits = 2) else "Inf",
          "): U may carry a relative error of up to ",
          format(min(1, cond * .Machine$double.eps), digits = 2), "; a larger 'beta', ",
          "rescaled columns or a dense 'x' (decomposed directly) avoid it", call. = FALSE)
}

# With beta = 0 a rank-deficient x has many least-squares fits: say which one.
note_rank <- function(rank, n1, d) {
  full <- min(n1, d)
  if (rank < full)
    message("'x' has rank ", rank, " < ", full, " (after centring): with beta = 0 the ",
            "fit is the minimum-norm least-squares one, in the span of the data")
}

# Centring a kernel whose entries are huge against their spread (a polynomial
# kernel of data with a large offset, say) cancels digits: say so when more
# than half of them go.
warn_kernel_cancellation <- function(K, kernel) {
  top <- max(abs(diag(K)))
  centred <- diag(K) - 2 * colMeans(K) + mean(K)
  if (top == 0 || max(centred) > sqrt(.Machine$double.eps) * top) return(invisible())
  warning("centring the ", kernel, " kernel matrix cancels most of its digits (its ",
          "centred diagonal is ", format(max(centred) / top, digits = 2), " times its ",
          "largest entry): centre or rescale 'x' first", call. = FALSE)
}

# A kernel matrix with clearly negative eigenvalues (after centring) is not a
# kernel: its negative part is dropped, with a warning; with no positive part
# at all there is nothing to fit.
check_kernel_definite <- function(res, n, kernel) {
  noise <- 100 * n * .Machine$double.eps
  if (!(res$lowest < -noise)) return(invisible())
  if (length(res$s) == 0)
    stop_arg("the ", kernel, " kernel matrix has no positive eigenvalue (after ",
             "centring): it is not positive semi-definite, and there is nothing to fit")
  warning("the ", kernel, " kernel matrix is not positive semi-definite (after ",
          "centring): its most negative eigenvalue is ", format(res$lowest, digits = 2),
          " times the largest in absolute value; only its positive part is used",
          call. = FALSE)
}

check_kernel_name <- function(kernel) {
  if (is.null(kernel)) return(NULL)
  choices <- c("linear", "rbf", "poly", "precomputed")
  if (!is.character(kernel) || length(kernel) != 1 || !kernel %in% choices)
    stop_arg("'kernel' must be NULL or one of ", paste0("\"", choices, "\"", collapse = ", "))
  kernel
}

mlls_kernel_spec <- function(kernel, x, gamma, degree, coef0, intercept) {
  if (kernel == "precomputed")
    return(list(name = kernel, n = nrow(x), centered = intercept))
  par <- kernel_parameters(kernel, ncol(x), gamma, degree, coef0)
  # A centred linear kernel does not change when the data are shifted: shift
  # them by their means first, so that an offset does not cancel (predict()
  # passes the same shift on with the other parameters).
  if (kernel == "linear" && intercept && !inherits(x, "sparseMatrix"))
    par$shift <- colMeans(x)
  list(name = kernel, x = x, centered = intercept, par = par)
}

# U, Theta, W and the intercept of a linear fit, with names.
mlls_linear_parts <- function(res, x, intercept) {
  features <- colnames(x)
  U <- res$coef
  Theta <- t(res$theta)
  x_center <- if (intercept) Matrix::colMeans(x) else numeric(ncol(x))
  list(U = U, Theta = Theta, W = U - res$theta %*% res$V,
       intercept = res$y_center - drop(crossprod(x_center, U)),
       features = features)
}

# thr: the out-of-fold thresholds of cross-validation (see set_thresholds()),
# for a fit solved without its training scores.
mlls_finish <- function(fit, y, alpha, beta, r, call, thr = NULL) {
  res <- fit$res
  labels <- colnames(y)
  n <- nrow(y)
  asked <- attr(r, "requested") %||% r
  if (res$r < asked && length(res$s) > 0)
    message("r = ", format(asked), " is more than the problem allows (the rank of X'Y after ",
            "centring is ", res$r, "): using r = ", res$r)
  if (length(res$s) == 0)
    warning("'x' has no variation (after centring): every score is the label mean",
            call. = FALSE)
  th <- if (is.null(res$fitted)) list(threshold = thr$threshold)
        else .Call(C_f1_thresholds, res$fitted, y, chance_level())
  fit$V <- res$V
  dimnames(fit$V) <- list(sprintf("theta%d", seq_len(res$r)), labels)
  if (!is.null(fit$U)) {
    dimnames(fit$U) <- dimnames(fit$W) <- list(fit$features, labels)
    dimnames(fit$Theta) <- list(rownames(fit$V), fit$features)
  } else {
    colnames(fit$A) <- labels
    colnames(fit$B) <- rownames(fit$V)
  }
  names(fit$intercept) <- labels
  out <- c(fit[c("U", "Theta", "V", "W", "A", "B", "intercept")],
           list(alpha = alpha, beta = beta, r = res$r,
                thresholds = stats::setNames(th$threshold, labels),
                train_f1 = if (!is.null(th$f1)) stats::setNames(th$f1, labels),
                rank = length(res$s), sdev = res$s / sqrt(n),
                labels = labels, features = fit$features, n_pos = colSums(y),
                nobs = n, kernel = fit$kernel, method = fit$method,
                decomposition = fit$decomposition, call = call))
  d <- if (!is.null(fit$U)) nrow(fit$U)
       else if (fit$kernel$name == "precomputed") fit$kernel$n else ncol(fit$kernel$x)
  new_ml_fit(out, "mlls", n_features = d)
}

# alpha and beta of mlls() (in memory or from chunks): numbers >= 0, not both Inf.
check_mlls_penalties <- function(alpha, beta) {
  alpha <- check_penalty(alpha, "alpha")
  beta <- check_penalty(beta, "beta")
  if (is.infinite(alpha) && is.infinite(beta))
    stop_arg("'alpha' and 'beta' cannot both be Inf")
  list(alpha = alpha, beta = beta)
}
