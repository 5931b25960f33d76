#' IBLR-ML: instance-based logistic regression for multi-label data
#'
#' The method of Cheng and Huellermeier (2009): for each label, an
#' L2-regularised logistic regression whose inputs are, for every label
#' \eqn{j}, the fraction of the `k` nearest training neighbours (Euclidean) of
#' the instance that have label \eqn{j}.  A label's model can so learn from
#' the neighbours' labels of all labels, which captures how the labels depend
#' on each other.  With `features = TRUE` (IBLR-ML+) the original features are
#' inputs as well.
#'
#' @section Model:
#' With \eqn{N_k(x)} the `k` nearest training instances of \eqn{x} (for a
#' training instance, itself left out: an exact duplicate of it is still a
#' neighbour) and \eqn{z_j(x) = |\{u \in N_k(x): u \textrm{ has label } j\}| / k}{z_j(x) = (number of neighbours of x with label j) / k},
#' label \eqn{l} gets the probability
#' \deqn{P(y_l = 1 \mid x) = \sigma\left(b_l + \sum_{j=1}^m \alpha_{jl} z_j(x)
#'   \;[+\; w_l'x]\right)}{P(y_l = 1 | x) = sigma(b_l + sum_j alpha_jl z_j(x) [+ w_l'x])}
#' whose weights minimise, on the training set,
#' \eqn{\frac12 \|(b_l, \alpha_l, w_l)\|^2 + C \sum_i \log(1 + e^{-y_{il} f_l(x_i)})}{0.5 ||(b_l, alpha_l, w_l)||^2 + C sum_i log(1 + exp(-y_il f_l(x_i)))}
#' (labels coded \eqn{\pm 1}): the L2 logistic regression of [br()] (the same
#' C solver, LIBLINEAR's, whose bias is penalised like the other weights),
#' here with the cost \eqn{C} in place of the paper's unpenalised maximum
#' likelihood so that separable labels stay finite.  `predict()` gives these
#' probabilities and the labels where they exceed 1/2 (the paper's rule).
#'
#' @param x A numeric matrix, a data frame of numeric columns, or a sparse
#'   `Matrix` (n x d); or an `mlss_data`/`mldr` object holding the labels.
#'   For the formula method, a formula such as `cbind(l1, l2) ~ .`.
#' @param y Labels: an n x m logical, 0/1 or -1/+1 matrix or data frame.
#' @param k The number of neighbours, from 1 to n - 1 (default 10, as in the
#'   paper).
#' @param cost The cost \eqn{C} > 0 of the logistic regressions: one number,
#'   or one per label.  Default 1 (LIBLINEAR's).
#' @param features Also use the original features (IBLR-ML+)?
#' @param scale Rescale the features before measuring distances (and before
#'   they enter the logistic models with `features = TRUE`)?  As in
#'   [mlknn()]; `TRUE` by default (`bench/defaults.R`, test-set macro F1:
#'   emotions 0.356 -> 0.678, yeast 0.360 -> 0.368, scene 0.695 -> 0.694,
#'   medical and enron unchanged).
#' @param tol,max_iter The logistic solver's tolerance and most Newton steps,
#'   as in [br()] (default `tol` 0.01, LIBLINEAR's).
#' @param data,subset,na.action For the formula method, as in [lm()].
#' @param ... For the formula method, arguments passed to the default method.
#' @return An object of class `"iblr"`: a list with `alpha` (m x m: row
#'   \eqn{j}, the weight of the neighbour average of label \eqn{j}; column
#'   \eqn{l}, label \eqn{l}'s model), `W` (d x m, with `features = TRUE`),
#'   `intercept` (m), `k`, `cost`, `use_features` (the `features` argument),
#'   `scaling`, `tol`, `iter`, `grad_norm` (per label, the norm of the logistic
#'   objective's gradient at the returned weights), the (rescaled) training data `x` and `y`,
#'   `labels`, `features` (the
#'   column names), `n_pos`, `nobs`, `call`.
#' @references Cheng W. and Huellermeier E. (2009). Combining instance-based
#'   learning and logistic regression for multilabel classification. Machine
#'   Learning 76(2-3), 211-225.
#' @seealso [predict.iblr()], [mlknn()], [br()].
#' @examples
#' tr <- mlss::emotions$train
#' fit <- iblr(mlss::emotions$x[tr, ], mlss::emotions$y[tr, ], k = 10)
#' fit
#' pred <- predict(fit, mlss::emotions$x[!tr, ])
#' ml_metrics(mlss::emotions$y[!tr, ], pred = pred, measures = c("micro_f1", "macro_f1"))
#' @export
iblr <- function(x, ...) UseMethod("iblr")

#' @rdname iblr
#' @export
iblr.default <- function(x, y, k = 10, cost = 1, features = FALSE, scale = TRUE,
                         tol = NULL, max_iter = 1000L, ...) {
  call <- match.call()
  call[[1L]] <- quote(iblr)
  check_no_dots(...)
  p <- knn_problem(x, y, k, scale)
  x <- p$x
  y <- p$y
  k <- p$k
  m <- ncol(y)
  cost <- check_cost(cost, m)
  features <- check_flag(features, "features")
  tol <- check_solver_tol(tol, "logistic")
  max_iter <- check_max_iter(max_iter)
  warn_constant_labels(y)
  z <- neighbour_label_means(knn_search(x, k)$index, y)
  ypm <- 2 * y - 1
  storage.mode(ypm) <- "double"
  res <- .Call(C_logistic_fit_call, linear_spec(if (features) x, z), ypm, cost, NULL, tol,
               max_iter, NULL)
  warn_not_converged(res$status, colnames(y))
  labels <- colnames(y)
  d <- if (features) ncol(x) else 0L
  W <- res$W
  out <- list(alpha = matrix(W[d + seq_len(m), ], m, m, dimnames = list(labels, labels)),
              W = if (features) matrix(W[seq_len(d), ], d, m,
                                       dimnames = list(colnames(x), labels)),
              intercept = stats::setNames(W[d + m + 1L, ], labels),
              k = k, cost = stats::setNames(cost, labels), use_features = features,
              scaling = p$scaling, tol = tol,
              iter = stats::setNames(res$iter, labels),
              grad_norm = stats::setNames(res$grad_norm, labels), x = x, y = y, labels = labels,
              features = colnames(x), n_pos = colSums(y), nobs = nrow(x), call = call)
  new_ml_fit(out, "iblr", cut = 0.5, n_features = ncol(x))
}

#' @rdname iblr
#' @export
iblr.formula <- formula_method("iblr")

# z_j: the fraction of the k neighbours (1-based rows of y, one row per
# instance) with label j: n x m.
neighbour_label_means <- function(nbr, y) {
  counts <- .Call(C_knn_label_counts_call, nbr, y)
  counts / ncol(nbr)
}
