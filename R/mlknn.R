#' ML-kNN: multi-label k-nearest neighbours
#'
#' The lazy learner of Zhang and Zhou (2007).  For each label it counts, among
#' the `k` nearest training neighbours (Euclidean) of an instance, how many
#' have the label, and turns that count into the posterior probability of the
#' label by Bayes' rule, with the prior and the likelihood of each count
#' estimated on the training set with Laplace smoothing `s`.
#'
#' @section Model:
#' With \eqn{n} training instances, \eqn{C_i(l)} the number of the `k`
#' neighbours of training instance \eqn{i} that have label \eqn{l} (the
#' instance itself left out of its own neighbours: an exact duplicate of it
#' is still a neighbour), \eqn{c_l[j]} (\eqn{c'_l[j]}) the number of training
#' instances with (without) label \eqn{l} whose \eqn{C_i(l) = j}:
#' \deqn{P(H^l_1) = \frac{s + \sum_i y_{il}}{2s + n}, \quad
#'   P(E^l_j \mid H^l_1) = \frac{s + c_l[j]}{s(k + 1) + \sum_p c_l[p]}}{P(H1) = (s + sum_i y_il) / (2 s + n),
#'   P(E_j | H1) = (s + c_l[j]) / (s (k + 1) + sum_p c_l[p])}
#' and likewise for \eqn{H^l_0}{H0} with \eqn{c'_l}.  A new instance whose
#' neighbours hold label \eqn{l} \eqn{j} times gets the score
#' \eqn{P(H^l_1 \mid E^l_j) = P(H^l_1) P(E^l_j \mid H^l_1) / \sum_b P(H^l_b)
#' P(E^l_j \mid H^l_b)}{P(H1 | E_j) = P(H1) P(E_j | H1) / sum_b P(Hb) P(E_j | Hb)}
#' and the label when that is above 1/2 (the paper's MAP rule).  Thresholds
#' tuned for F1 ([f1_thresholds()]) are not used by default; pass them to
#' [predict.mlknn()] through `thresholds`.
#'
#' Neighbours come from an exact search in C (dense or sparse `x`, never an
#' n x n distance matrix), ties in distance broken by the lower row index, as
#' `utiml::mlknn()` does through a stable sort.  The model keeps the training
#' data: prediction searches it.
#'
#' @param x A numeric matrix, a data frame of numeric columns, or a sparse
#'   `Matrix` (n x d); or an `mlss_data`/`mldr` object holding the labels.
#'   For the formula method, a formula such as `cbind(l1, l2) ~ .`.
#' @param y Labels: an n x m logical, 0/1 or -1/+1 matrix or data frame.
#' @param k The number of neighbours, from 1 to n - 1 (default 10, as in the
#'   paper).
#' @param s The smoothing (> 0; default 1, Laplace smoothing as in the paper).
#' @param scale Rescale the features before measuring distances?  `TRUE`:
#'   each column of a dense `x` to \[0, 1\] by its range on the training
#'   data, as Weka's Euclidean distance does in Mulan's and MEKA's
#'   implementations; each column of a sparse `x` divided by its range,
#'   counting its zeros, without a shift (it stays sparse; the distances are
#'   those of the dense scaling).  New data get the same transformation.
#'   `FALSE`: the features as given (values whose squared distances overflow,
#'   beyond about 1e150, or underflow are measured on `x` divided by a power
#'   of 2: the same neighbours).  `TRUE` is the default since it was never
#'   worse on the sets measured (`bench/defaults.R`, test-set macro F1 at the
#'   0.5 cut, unscaled -> scaled: emotions 0.385 -> 0.607, scene 0.692 ->
#'   0.719, yeast 0.336 -> 0.357; medical and enron, binary, unchanged).
#' @param data,subset,na.action For the formula method, as in [lm()].
#' @param ... For the formula method, arguments passed to the default method.
#' @return An object of class `"mlknn"`: a list with `prior` (m), `cond1`,
#'   `cond0` (the (k + 1) x m tables \eqn{P(E_j \mid H_1)}{P(E_j | H1)} and
#'   \eqn{P(E_j \mid H_0)}{P(E_j | H0)}, rows for j = 0..k), `k`, `s`,
#'   `scaling` (the column shifts and widths, or `NULL`), the (rescaled)
#'   training data `x` and `y`, `labels`, `features`, `n_pos`, `nobs`, `call`.
#' @references Zhang M.-L. and Zhou Z.-H. (2007). ML-KNN: a lazy learning
#'   approach to multi-label learning. Pattern Recognition 40(7), 2038-2048.
#' @seealso [predict.mlknn()], [cv_mlknn()], [iblr()].
#' @examples
#' tr <- mlss::emotions$train
#' fit <- mlknn(mlss::emotions$x[tr, ], mlss::emotions$y[tr, ], k = 10)
#' fit
#' pred <- predict(fit, mlss::emotions$x[!tr, ])
#' ml_metrics(mlss::emotions$y[!tr, ], pred = pred, measures = c("micro_f1", "macro_f1"))
#' @export
mlknn <- function(x, ...) UseMethod("mlknn")

#' @rdname mlknn
#' @export
mlknn.default <- function(x, y, k = 10, s = 1, scale = TRUE, ...) {
  call <- match.call()
  call[[1L]] <- quote(mlknn)
  check_no_dots(...)
  p <- knn_problem(x, y, k, scale)
  s <- check_number(s, "s", 0, above = TRUE, what = "one positive number (1: Laplace smoothing)")
  x <- p$x
  y <- p$y
  k <- p$k
  warn_constant_labels(y)
  nbr <- knn_search(x, k)$index
  tab <- .Call(C_mlknn_fit_call, nbr, y, s)
  labels <- colnames(y)
  names(tab$prior) <- labels
  dimnames(tab$cond1) <- dimnames(tab$cond0) <- list(paste0("j=", 0:k), labels)
  new_ml_fit(list(prior = tab$prior, cond1 = tab$cond1, cond0 = tab$cond0, k = k,
                  s = s, scaling = p$scaling, x = x, y = y, labels = labels,
                  features = colnames(x),
                  n_pos = colSums(y), nobs = nrow(x), call = call),
             "mlknn", cut = 0.5, n_features = ncol(x))
}

#' @rdname mlknn
#' @export
mlknn.formula <- formula_method("mlknn")

