#' Multi-label conditional random field (MLCRF)
#'
#' Fits the pairwise conditional random field of Naeini et al. (2014) over the
#' labels: a logistic node model per label and, per pair of labels, an edge
#' potential that depends on the features.  The structure (which pairs are
#' linked) is learned with a group penalty on each edge, then the parameters of
#' the kept graph are refitted.  Learning uses the pseudo-likelihood, so it
#' never needs inference; prediction does (see [predict.mlcrf()], also for
#' what its exact and approximate inference guarantee).
#'
#' @section Model:
#' With \eqn{\tilde x = (1, x)}{x~ = (1, x)} (the features standardised, see
#' below), labels \eqn{y \in \{0,1\}^m}{y in {0,1}^m} and a graph \eqn{E} of label pairs,
#' \deqn{\log p(y \mid x) = \sum_l y_l v_l'\tilde x + \sum_{(i,j) \in E}
#'   \phi_{ij}(y_i, y_j) - \log Z(x),}{log p(y | x) = sum_l y_l v_l'x~ + sum_(i,j) phi_ij(y_i, y_j) - log Z(x),}
#' where, for `edge_type = "full"`, \eqn{\phi_{ij}(a, b) = w_{ij}^{ab\prime}\tilde x}{phi_ij(a, b) = w_ij^ab' x~}
#' for the three configurations \eqn{(a, b) \ne (0, 0)}{(a, b) != (0, 0)} and
#' \eqn{\phi_{ij}(0,0) = 0} (the paper fixes one entry per potential).  For
#' `edge_type = "ising"` only \eqn{(1,1)} has a weight vector; this is the
#' same family of models (the \eqn{(0,1)} and \eqn{(1,0)} terms can be absorbed
#' into the node terms), but with a third of the edge parameters and a
#' different penalty.  \eqn{w_e} stacks all the weight vectors of edge \eqn{e}.
#'
#' @section Objective:
#' \deqn{\frac{1}{n}\mathrm{nlpl} + \sum_l \lambda_{v,l} \|v_l\|^2 +
#'   \lambda_w \left(\eta \sum_e \|w_e\|_2 + (1-\eta) \sum_e \|w_e\|_2^2\right)}{nlpl/n + sum_l lambda_v[l] ||v_l||^2 + lambda_w (eta sum_e ||w_e|| + (1 - eta) sum_e ||w_e||^2)}
#' where nlpl is the negative log pseudo-likelihood
#' \eqn{-\sum_n \sum_l \log p(y_l^n \mid y_{-l}^n, x^n)}{-sum_n sum_l log p(y_l | y_-l, x)}.
#' Three choices differ from the paper's statement, and are documented here:
#' the loss is divided by \eqn{n}, so that the penalties mean the same at every
#' sample size (as in glmnet); the node intercepts are not in the ridge
#' term (as usual in logistic regression), except for a tiny fixed ridge
#' \eqn{10^{-6} v_{l0}^2} that keeps the intercept of a constant label finite
#' (such a label gets a warning, a large negative or positive intercept, and is
#' then never or always predicted); and neither is the intercept of each
#' edge's \eqn{(1,1)} weight vector, the edge's constant coupling \eqn{c_e} (with the
#' full table, the constant part of its log odds ratio), which has a small
#' fixed ridge \eqn{10^{-3} c_e^2} of its own: the ridge term
#' \eqn{\lambda_w (1-\eta) \|w_e\|^2}{lambda_w (1 - eta) ||w_e||^2} covers the
#' rest of \eqn{w_e}.  With the full table, the \eqn{(0,1)} and \eqn{(1,0)}
#' intercepts stay in the ridge: they only shift the node intercepts (which
#' are free and absorb them), so that the model's constant couplings are
#' as free either way, and the problem stays well conditioned.  The constant
#' couplings carry most of the dependence between the labels, and in the
#' ridge with the slopes they were shrunk with them: on a fold of yeast, at
#' the point `cv_mlcrf()` had chosen (\eqn{\lambda_w = 0.09}, \eqn{\eta = 0.5}),
#' the test log-likelihood loss was 1134.8 with them in the ridge, 976.4 with a
#' ridge of \eqn{10^{-6}} and 931.6 with \eqn{10^{-3}} (PCC: 986.4).  Some ridge is
#' kept because without it the couplings grow large where labels (nearly)
#' never or always occur together in the training data (up to 8 in size on
#' emotions; there, fold 1:
#' 135.4 with \eqn{10^{-6}}, 132.1 with \eqn{10^{-3}}); see
#' bench/mlcrf_loglik.md.  The group term covers all of \eqn{w_e},
#' intercepts included, so that an edge is present or absent as a whole.  The features
#' are centred and scaled to unit variance before fitting (a sparse `x` is
#' centred implicitly and never densified); the coefficients are reported on
#' the original scale, the penalties act on the standardised one.
#'
#' @section Algorithm:
#' Stage 1 (structure, `edges = "learn"`): FISTA (Beck and Teboulle 2009) with
#' backtracking and function-value restarts on the full graph, the proximal step
#' of the group term being block soft-thresholding of each \eqn{w_e}; the pairs
#' whose \eqn{w_e} is exactly zero at the end are dropped.  Stage 2
#' (parameters): the group term is dropped and the kept graph is refitted with
#' L-BFGS (R's `lbfgsb()`), with the ridge terms (node \eqn{\lambda_v} and edge
#' \eqn{\lambda_w(1-\eta)}) kept.  `edges = "full"` skips stage 1 and refits all
#' pairs; `edges = "none"` fits independent L2 logistic regressions (binary
#' relevance).
#'
#' How this is made fast (none of it changes the solution, only the work;
#' bench/mlcrf_speed.md): stage 1 runs on a working set of pairs (those
#' non-zero at the start or whose gradient breaks the optimality condition of
#' a zero edge; the condition is then checked on every pair and violators are
#' added until none is left); on each working set, FISTA to a loose tolerance
#' (at most 50 iterations) guesses the non-zero edges, L-BFGS minimises the
#' stage-1 objective over the nodes and those edges (where the group term is
#' differentiable) for at most 100 iterations, and 20 iterations of FISTA at
#' the tolerance asked for certify the point or correct it (an edge that
#' should be zero, or one that should not), in turn until the point is
#' certified.  The
#' L-BFGS problems (stage 2, the node fits, the choice of `lambda_v`) are
#' solved per connected component of the graph (a label without edges is its
#' own logistic regression), in variables scaled by the square root of the
#' Hessian's diagonal (the edges' columns act only where a label is 1, and
#' the constant couplings have almost no ridge: their curvatures differ by
#' orders of magnitude).  The pseudo-likelihood is evaluated either
#' through the \eqn{n \times K} potentials of every edge or, when cheaper
#' (labels mostly negative, many edges), per row: an edge adds to a label's
#' log-odds a term that does not depend on the other label (folded into the
#' node) plus \eqn{\Delta_e'\tilde x}{Delta_e'x~} where the other label is
#' 1, so only the rows' positive labels cost anything.
#'
#' @section Tuning:
#' `lambda_v = NULL` chooses one ridge penalty per label by `nfolds_v`-fold
#' cross-validation of the independent L2 logistic regressions (the
#' `edges = "none"` problem), on the grid \eqn{10^{-3}, 10^{-2.5}, \dots, 10^0}
#' (7 values; smaller penalties make the logistic fits slow to converge and
#' were not chosen on the paper's data sets), minimising the validation log
#' loss (fits with tolerance `max(tol, 1e-4)`), on folds from
#' [ml_folds()].  `lambda_w = NULL` (with `edges = "learn"`) takes the value
#' at which a pair of labels without any dependence would enter the graph with
#' probability about \eqn{0.05/E} (\eqn{E = m(m-1)/2} pairs, a Bonferroni
#' bound): at \eqn{w = 0} and the nodes fitted alone, the gradient
#' \eqn{g_e} of such an edge has \eqn{\|g_e\|^2 \approx c_e^2 \chi^2_{df}/df}{||g_e||^2 ~ c_e^2 chisq_df / df}
#' with \eqn{df = (d+1)K} and \eqn{c_e^2 = \sum_i \|\tilde x_i\|^2 \|\partial_e \ell_i\|^2 / n^2}{c_e^2 = sum_i ||x~_i||^2 ||d_e loss_i||^2 / n^2},
#' so \eqn{\lambda_w \eta = \max_e c_e \sqrt{q/df}}{lambda_w eta = max_e c_e sqrt(q / df)},
#' \eqn{q} the \eqn{1 - 0.05/E} quantile of \eqn{\chi^2_{df}}.  This is a
#' starting point for the structure, not a tuned value (the paper tunes
#' \eqn{\lambda_w} and \eqn{\eta} by cross-validation); the group lasso
#' shrinks the true edges, and with \eqn{\eta < 1} the ridge part shrinks them
#' further, so that a pair linked only through a third label can stay in the
#' graph: on the synthetic designs of the paper, `eta = 1` with this default
#' recovers the true graphs (see the tests).  Also returned is
#' \eqn{\lambda_{max} = \max_e \|g_e\|/\eta}{lambda_max = max_e ||g_e|| / eta},
#' the smallest `lambda_w` that removes every edge, where a path starts.  For
#' `edges = "full"`, `lambda_w = NULL` means \eqn{\lambda_w = 10^{-3}}.
#' The refit of stage 2 keeps at least \eqn{\lambda_w/1000} of edge ridge, so
#' that the full parameterisation has a unique solution when \eqn{\eta = 1}.
#' For prediction, \eqn{\eta < 1} matters: the ridge part is what regularises
#' the refitted edges (each has \eqn{3(d+1)} parameters); with \eqn{\eta = 1}
#' the refit is almost unpenalised and overfits (on emotions, the
#' log-likelihood loss of MLCRF was then worse than binary relevance's, while
#' the default \eqn{\eta = 0.5} beat it; see bench/mlcrf.R).
#'
#' @param x Features: a numeric matrix, data frame or sparse `Matrix`; or a
#'   formula `cbind(l1, l2, ...) ~ .` for the formula method.
#' @section Missing labels:
#' The CRF's likelihood is that of each instance's whole label vector; with
#' an entry missing it would have to be summed over the unobserved labels,
#' which the solver does not do (and which makes the problem non-convex).  So
#' `NA` in `y` is an error unless `na_labels = "negative"` takes it as
#' `FALSE`.
#'
#' @param na_labels What to do with missing labels (`NA` in `y`): `"refuse"`
#'   (the default: an error) or `"negative"` (`NA` taken as `FALSE`); see the
#'   section Missing labels.
#' @param y Labels: an n x m logical, 0/1 or -1/+1 matrix or data frame
#'   (m >= 2).
#' @param lambda_v Ridge penalty on the node slopes: one number, one per
#'   label, or `NULL` to choose per label by cross-validation (see Tuning).
#' @param lambda_w Penalty on the edges (a number >= 0), or `NULL` for the
#'   default of the Tuning section.
#' @param eta Mix in \[0, 1\] of the group lasso (`eta = 1`) and the ridge
#'   (`eta = 0`) penalties on the edges.
#' @param edges `"learn"` the graph (stage 1 then 2), use the `"full"` graph,
#'   or `"none"` (binary relevance with logistic regression).
#' @param edge_type `"full"`: three weight vectors per edge; `"ising"`: one.
#' @param init A previous `mlcrf` fit (same labels, features and
#'   `edge_type`) to start from (a warm start, e.g. the fit at the previous
#'   `lambda_w` of a path: its stage-1 solution on all pairs, `init$start`),
#'   or `NULL`.
#' @param nfolds_v Number of folds for the choice of `lambda_v`.
#' @param tol Relative tolerance of both stages.
#' @param max_iter Maximum iterations of each stage.
#' @param progress Report progress: a message per step (the choice of
#'   `lambda_v` and each of its folds, each round of the working set of
#'   stage 1, the refit), with the elapsed time, and from within a stage
#'   every 5 seconds (its iterations and objective).  Default: in
#'   interactive sessions, as elsewhere in the package.
#' @param maxit Deprecated name of `max_iter` (accepted with a warning of
#'   class `"mlss_deprecated"` until the next release).
#' @param data,subset,na.action For the formula method, as in [stats::lm()]. `na.action` applies to the features
#'   only: a row whose only `NA` is a label is kept, and its missing labels
#'   follow the rule of the section Missing labels.
#' @param ... Arguments passed from the formula method to the default method.
#' @return An object of class `"mlcrf"`: a list with
#'   \item{nodes}{(d + 1) x m coefficients of the node terms (first row the
#'     intercept), on the scale of `x`.}
#'   \item{weights}{a list, one (d + 1) x K matrix per kept edge (K = 3 columns
#'     `"01"`, `"10"`, `"11"`, or K = 1), on the scale of `x`.}
#'   \item{edges}{a data frame of the kept pairs: `from`, `to` (label names,
#'     `from` before `to` in the column order of `y`) and `strength`
#'     (\eqn{\|w_e\|} on the standardised scale), one row per edge.}
#'   \item{lambda_v, lambda_w, eta, lambda_max}{the penalties used, and the
#'     smallest `lambda_w` that removes every edge (`NA` unless computed).}
#'   \item{theta, start, center, scale}{the parameters on the standardised
#'     scale (kept graph), the stage-1 solution on the full graph (for warm
#'     starts), and the standardisation.}
#'   \item{convergence}{iterations and status of each stage.}
#'   \item{labels, features, nobs, edge_type, edge_mode, call}{as the names say.}
#' @references Naeini M. P., Batal I., Liu Z., Hong C. and Hauskrecht M.
#'   (2014). An optimization-based framework to learn conditional random fields
#'   for multi-label classification. SIAM International Conference on Data
#'   Mining (SDM), 992-1000.
#'
#'   Beck A. and Teboulle M. (2009). A fast iterative shrinkage-thresholding
#'   algorithm for linear inverse problems. SIAM Journal on Imaging Sciences
#'   2(1), 183-202.
#' @seealso [predict.mlcrf()], [plot.mlcrf()].
#' @examples
#' data(emotions)
#' tr <- emotions$train
#' fit <- mlcrf(emotions$x[tr, ], emotions$y[tr, ], lambda_v = 0.01)
#' fit
#' p <- predict(fit, emotions$x[!tr, ], type = "score")
#' pred <- predict(fit, emotions$x[!tr, ])
#' prob <- predict(fit, emotions$x[!tr, ], type = "prob", y = emotions$y[!tr, ])
#' unlist(ml_metrics(emotions$y[!tr, ], pred = pred, prob = prob,
#'                   measures = c("subset_accuracy", "micro_f1", "log_loss")))
#' @export
mlcrf <- function(x, ...) UseMethod("mlcrf")

#' @rdname mlcrf
#' @export
mlcrf.default <- function(x, y, lambda_v = NULL, lambda_w = NULL, eta = 0.5,
                          edges = c("learn", "full", "none"),
                          edge_type = c("full", "ising"), init = NULL, nfolds_v = 5,
                          tol = 1e-6, max_iter = 2000, na_labels = c("refuse", "negative"),
                          progress = interactive(), ..., maxit) {
  call <- match.call()
  call[[1L]] <- quote(mlcrf)
  check_no_dots(...)
  max_iter <- deprecated_maxit(max_iter, maxit, "mlcrf")
  edges <- match.arg(edges)
  edge_type <- match.arg(edge_type)
  xy <- ml_xy(x, y)
  x <- as_features(xy$x)
  y <- as_labels(xy$y, nrow(x), na = match.arg(na_labels), fun = "mlcrf")
  if (ncol(y) < 2)
    stop_arg("'y' has one label: MLCRF models pairs of labels and needs at least 2 ",
             "(for one label, use logistic regression)")
  eta <- check_eta(eta)
  tol <- check_positive(tol, "tol")
  max_iter <- check_positive(max_iter, "max_iter")
  progress <- check_flag(progress, "progress")
  say <- mlcrf_say(progress, "mlcrf")
  warn_constant_labels(y)
  prep <- mlcrf_prepare(x, y, edge_type)
  start <- mlcrf_init(init, prep)
  if (is.null(lambda_v)) {
    say("choosing lambda_v per label (", ncol(y), " logistic regressions, ", nfolds_v,
        " folds x ", length(mlcrf_lambda_v_grid), " values)")
    lambda_v <- mlcrf_cv_lambda_v(x, y, nfolds_v, tol = tol, max_iter = max_iter, say = say)
  }
  lambda_v <- check_lambda_v(lambda_v, ncol(y))
  if (!is.null(lambda_w)) lambda_w <- check_lambda_w(lambda_w)
  res <- mlcrf_solve(prep, lambda_v, lambda_w, eta, edges, start, tol, max_iter, say)
  say("done: ", length(res$keep), " of ", length(prep$from), " pairs linked")
  mlcrf_object(res, prep, x, y, call)
}

#' @rdname mlcrf
#' @export
mlcrf.formula <- function(x, data, subset, na.action = stats::na.fail, ...) {
  md <- model_data(match.call(expand.dots = FALSE), na.action, parent.frame())
  fit <- mlcrf.default(md$x, md$y, ...)
  with_formula(fit, md, match.call(), quote(mlcrf))
}

# `maxit`, the old name of `max_iter` in mlcrf(), cv_mlcrf(), mlcrf_stability()
# and predict.mlcrf(): still taken, with a warning, for one release (mlss 0.1.0).
deprecated_maxit <- function(max_iter, maxit, fun) {
  if (missing(maxit)) return(max_iter)
  warn_deprecated("'maxit'", "'max_iter'", fun)
  maxit
}

# A progress reporter: message("<fun> [elapsed s]: ...") when progress is TRUE
# (then with attribute "active", which lets the C solvers report through it
# every few seconds of a long stage).
mlcrf_say <- function(progress, fun) {
  if (!progress) return(function(...) invisible(NULL))
  t0 <- proc.time()[["elapsed"]]
  f <- function(...) message(sprintf("%s [%6.1f s]: ", fun, proc.time()[["elapsed"]] - t0), ...)
  attr(f, "active") <- TRUE
  f
}

check_eta <- function(eta) {
  if (!is.numeric(eta) || length(eta) != 1 || is.na(eta) || eta < 0 || eta > 1)
    stop_arg("'eta' must be a single number in [0, 1]")
  as.numeric(eta)
}

check_lambda_v <- function(lambda_v, m) {
  if (!is.numeric(lambda_v) || !length(lambda_v) %in% c(1L, m) || anyNA(lambda_v) ||
      any(lambda_v < 0) || any(!is.finite(lambda_v)))
    stop_arg("'lambda_v' must be NULL, or finite numbers >= 0: one, or one per label (", m, ")")
  rep_len(as.numeric(lambda_v), m)
}

check_lambda_w <- function(lambda_w) {
  if (!is.numeric(lambda_w) || length(lambda_w) != 1 || !is.finite(lambda_w) || lambda_w < 0)
    stop_arg("'lambda_w' must be NULL or a single finite number >= 0")
  as.numeric(lambda_w)
}

# The tiny ridge on the node intercepts (see the Objective section).
mlcrf_lambda0 <- 1e-6
# The ridge on the intercept of each edge's (1,1) column (its last): a small
# fixed one, not the edge ridge lambda_w (1 - eta) (see the Objective
# section; bench/mlcrf_loglik.md for why and for the value).
mlcrf_lambda0_w <- 1e-3

# Column standard deviations (divisor n) around mu, in two passes; a sparse
# x's zeros contribute (n - nnz) mu^2 without being formed.  Each column is
# divided by its largest deviation first, so that huge values (1e200) do not
# overflow when squared.
centred_sd <- function(x, mu) {
  n <- nrow(x)
  if (!inherits(x, "dgCMatrix")) {
    D <- x - rep(mu, each = n)
    c2 <- colMeans(D)  # the second pass removes the rounding of mu
    D <- D - rep(c2, each = n)
    a <- apply(abs(D), 2, max)
    a[a == 0] <- 1
    return(a * sqrt(colMeans((D / rep(a, each = n))^2)))
  }
  nnz <- diff(x@p)
  j <- rep.int(seq_len(ncol(x)), nnz)
  dev <- x@x - mu[j]
  a <- abs(mu)
  if (length(j)) a <- pmax(a, vapply(split(abs(dev), factor(j, seq_len(ncol(x)))),
                                     function(v) max(v, 0), 0))
  a[a == 0] <- 1
  ss <- (n - nnz) * (mu / a)^2
  if (length(j)) {
    dev <- rowsum((dev / a[j])^2, j)
    idx <- as.integer(rownames(dev))
    ss[idx] <- ss[idx] + dev[, 1]
  }
  a * sqrt(ss / n)
}

# Everything the C routines need about the training data: the features in
# native form, their standardisation, the labels as 0/1 doubles, all pairs.
mlcrf_prepare <- function(x, y, edge_type) {
  n <- nrow(x)
  # The C code centres implicitly (X B - 1 s'B, X'P - s 1'P), and a one-pass
  # variance (ss / n - mu^2) is no better: both cancel the digits of a column
  # whose mean is large against its spread.  So the C code gets the data
  # centred (a dense x in two passes; a sparse x only its offset columns,
  # which are mostly non-zero anyway: centre_offset_columns()) and the small
  # shift s left, and the variance is taken in two passes around s.
  if (inherits(x, "dgCMatrix")) {
    mu <- Matrix::colMeans(x)
    xc <- centre_offset_columns(x)
    shift <- as.numeric(Matrix::colMeans(xc))
  } else {
    d <- centre_dense_columns(x)
    xc <- d$x
    mu <- d$center
    shift <- numeric(ncol(x))
  }
  sd <- centred_sd(xc, shift)
  # constant columns (up to the rounding of a two-pass variance, about eps |mu|)
  sd[sd <= 1e3 * .Machine$double.eps * pmax(1, abs(mu))] <- 1
  m <- ncol(y)
  pairs <- which(upper.tri(diag(m)), arr.ind = TRUE)
  pairs <- pairs[order(pairs[, 1], pairs[, 2]), , drop = FALSE]
  list(xc = xc, nx = native_matrix(xc), shift = shift, mu = as.numeric(mu),
       sinv = as.numeric(1 / sd),
       y = y + 0, n = n, d = ncol(x), m = m,
       from = pairs[, 1], to = pairs[, 2], K = if (edge_type == "full") 3L else 1L,
       edge_type = edge_type, labels = colnames(y), features = colnames(x))
}

# Columns of theta that belong to the given edges (indices into all pairs).
edge_columns <- function(prep, which) {
  if (!length(which)) return(integer(0))
  as.vector(outer(seq_len(prep$K), (which - 1L) * prep$K, "+")) + prep$m
}

# mode: how the C code evaluates the pseudo-likelihood (0: the cheaper of
# the two, 1: the potentials of every edge, 2: per row over the positive
# labels; see src/mlcrf_core.h).  The same function either way; the tests
# check both.
# say: a progress reporter of mlcrf_say(); the C code reports through it
# every few seconds of a long stage.
mlcrf_call_fit <- function(prep, which, lambda_v, lambda_w, eta, theta, stage, tol, max_iter,
                           mode = 0L, say = NULL) {
  .Call(C_mlcrf_fit, prep$nx, prep$shift, prep$sinv, prep$y,
        as.integer(prep$from[which] - 1L), as.integer(prep$to[which] - 1L), prep$K,
        lambda_v, c(mlcrf_lambda0, mlcrf_lambda0_w), lambda_w, eta, theta, as.integer(stage),
        as.integer(max_iter), tol, as.integer(mode), mlcrf_reporter(say))
}

# The R function the C code calls with a line of progress, or NULL.
mlcrf_reporter <- function(say) {
  if (is.null(say) || !isTRUE(attr(say, "active"))) return(NULL)
  function(msg) say(msg)
}

# The eta of the stage-2 refit: the refit keeps the edge ridge lambda_w
# (1 - eta), at least lambda_w / 1000, so that the full parameterisation
# (which the node terms can partly absorb) has a unique solution also for
# eta = 1.  Also the ridge of the pruning's and the stability paths' refits.
mlcrf_refit_eta <- function(eta) min(eta, 1 - 1e-3)

mlcrf_call_objective <- function(prep, which, lambda_v, lambda_w, eta, theta, mode = 0L) {
  .Call(C_mlcrf_objective, prep$nx, prep$shift, prep$sinv, prep$y,
        as.integer(prep$from[which] - 1L), as.integer(prep$to[which] - 1L), prep$K,
        lambda_v, c(mlcrf_lambda0, mlcrf_lambda0_w), lambda_w, eta, theta, as.integer(mode))
}

# The two stages at one (lambda_v, lambda_w, eta).  start: a (d + 1) x q
# matrix on all pairs (standardised scale), or NULL.  Returns the stage-1
# solution (on all pairs), the kept edges, the refitted theta (nodes, then
# the kept edges) and the convergence report.
mlcrf_solve <- function(prep, lambda_v, lambda_w, eta, edges, start, tol, max_iter,
                        say = function(...) NULL) {
  p <- prep$d + 1L
  nall <- length(prep$from)
  if (is.null(start)) start <- matrix(0, p, prep$m + nall * prep$K)
  conv <- list()
  lambda_max <- NA_real_
  if (edges == "learn" && is.null(lambda_w)) {
    say("the nodes alone, and lambda_max")
    nodes <- mlcrf_call_fit(prep, integer(0), lambda_v, 0, eta,
                            start[, seq_len(prep$m), drop = FALSE], 2L, tol, max_iter,
                            say = say)
    lam <- mlcrf_lambda_max(prep, lambda_v, eta, nodes$theta)
    lambda_max <- lam$lambda_max
    lambda_w <- lam$lambda_default
    if (!any(start[, -seq_len(prep$m)] != 0)) start[, seq_len(prep$m)] <- nodes$theta
  }
  if (is.null(lambda_w)) lambda_w <- 1e-3
  keep <- switch(edges, none = integer(0), full = seq_len(nall), learn = NULL)
  stage1 <- NULL
  if (edges == "learn") {
    say("stage 1 (structure) at lambda_w = ", signif(lambda_w, 4), ", ", nall, " pairs")
    s1 <- mlcrf_stage1(prep, lambda_v, lambda_w, eta, start, tol, max_iter, say)
    stage1 <- s1$theta
    conv$stage1 <- s1[c("status", "iter", "objective", "rounds")]
    keep <- which(edge_norms(prep, stage1) > 0)
  }
  cols <- c(seq_len(prep$m), edge_columns(prep, keep))
  th0 <- if (!is.null(stage1)) stage1[, cols, drop = FALSE] else start[, cols, drop = FALSE]
  eta2 <- mlcrf_refit_eta(eta)
  say("stage 2: refit of ", length(keep), " edges")
  s2 <- mlcrf_call_fit(prep, keep, lambda_v, lambda_w, eta2, th0, 2L, tol, max_iter, say = say)
  conv$stage2 <- s2[c("status", "iter", "objective")]
  if (is.null(stage1)) {
    stage1 <- start
    stage1[, cols] <- s2$theta
  }
  for (s in conv) {
    if (s$status == 2L) stop("mlcrf: the L-BFGS refit failed", call. = FALSE)
    if (s$status == 1L)
      warn_not_converged_msg("mlcrf: no convergence in 'max_iter' = ", max_iter, " iterations")
  }
  list(theta = s2$theta, keep = keep, stage1 = stage1, lambda_v = lambda_v,
       lambda_w = lambda_w, eta = eta, lambda_max = lambda_max, edge_mode = edges,
       convergence = conv)
}

# ||w_e|| of every pair, from a (d + 1) x (m + K E_all) matrix on all pairs.
edge_norms <- function(prep, theta) {
  nall <- length(prep$from)
  if (!nall) return(numeric(0))
  w <- theta[, prep$m + seq_len(nall * prep$K), drop = FALSE]
  sqrt(colSums(matrix(colSums(w^2), prep$K)))
}

# Stage 1 on a working set of edges (the active-set strategy of glmnet's
# strong rules, with the KKT conditions checked exactly): FISTA runs on the
# edges that are non-zero in the start or whose gradient at the start breaks
# the optimality condition of a zero edge (||g_e|| <= lambda_w eta); then the
# gradient of every pair is computed once at the solution, and the pairs that
# break the condition join the set, until none does.  The solution is that of
# the problem on all pairs (a zero edge that satisfies its condition is
# optimal where it is), and each FISTA iteration costs the products of the
# working set only: along a path from lambda_max, a few edges of the E.
mlcrf_stage1 <- function(prep, lambda_v, lambda_w, eta, start, tol, max_iter,
                         say = function(...) NULL) {
  nall <- length(prep$from)
  theta <- start
  bound <- lambda_w * eta
  grad_norms <- function(theta)
    edge_norms(prep, mlcrf_call_objective(prep, seq_len(nall), lambda_v, lambda_w, eta,
                                          theta)$gradient)
  if (!any(theta[, -seq_len(prep$m)] != 0)) {
    # a cold start: the nodes alone first, or every edge would break its
    # condition at nodes that are still zero
    theta[, seq_len(prep$m)] <- mlcrf_call_fit(prep, integer(0), lambda_v, 0, eta,
                                               theta[, seq_len(prep$m), drop = FALSE], 2L,
                                               tol, max_iter, say = say)$theta
  }
  active <- which(edge_norms(prep, theta) > 0 | grad_norms(theta) > bound)
  iter <- 0L
  rounds <- 0L
  repeat {
    rounds <- rounds + 1L
    say("  working set round ", rounds, ": ", length(active), " of ", nall, " pairs")
    cols <- c(seq_len(prep$m), edge_columns(prep, active))
    s1 <- mlcrf_stage1_set(prep, active, lambda_v, lambda_w, eta, theta[, cols, drop = FALSE],
                           tol, max_iter, say)
    theta[, -seq_len(prep$m)] <- 0
    theta[, cols] <- s1$theta
    iter <- iter + s1$iter
    if (s1$status != 0L || length(active) == nall) break
    # a small slack for the tolerance the working-set problem was solved to
    viol <- setdiff(which(grad_norms(theta) > bound * (1 + 1e-6) + tol), active)
    if (!length(viol)) break
    active <- sort(c(active, viol))
  }
  list(theta = theta, status = s1$status, iter = iter, objective = s1$objective,
       rounds = rounds)
}

# The iterations of each L-BFGS polish of stage 1 (mlcrf_stage1_set()).
mlcrf_polish_iter <- 100L

# Stage 1 on one working set (theta: nodes, then the set's edges).  FISTA
# alone converges slowly where the nodes are ill-conditioned (many features,
# small lambda_v: hundreds of iterations on enron with 6 edges), so: FISTA
# to a loose tolerance, or 50 iterations, finds the edges that are non-zero
# (a guess: what follows corrects it); on those the group
# term is differentiable, and L-BFGS minimises the stage-1 objective over the
# nodes and them (stage 3 of the C code) for at most mlcrf_polish_iter
# iterations; FISTA then continues from there at (a quarter of) the
# tolerance asked for, which certifies the point (it stops at once at a
# minimiser: its residual is the optimality condition of the whole problem,
# zero edges included) or moves on (an edge that should be zero, or one that
# should not), for 20 iterations, and the next polish starts from its point
# on its non-zero edges: until the point is certified, or the polishes have
# used max_iter iterations, then FISTA alone to the end.  Short polishes,
# each checked by FISTA (session s37): when the polish's edges hold one that
# should be zero, L-BFGS crawls towards the kink of its norm at 0 (883 and
# 1006 evaluations on folds of yeast, bench/mlcrf_speed.md), where FISTA's
# block soft-thresholding removes it at once; and on the right edges the
# polish's own stopping test (its gradient below tol / 10000) asks far more
# than the certification (hundreds of iterations that moved the objective by
# 1e-10).
mlcrf_stage1_set <- function(prep, active, lambda_v, lambda_w, eta, theta, tol, max_iter, say) {
  fista <- function(theta, tol, max_iter)
    mlcrf_call_fit(prep, active, lambda_v, lambda_w, eta, theta, 1L, tol, max_iter, say = say)
  s1 <- fista(theta, max(100 * tol, 1e-4), min(max_iter, 50L))
  iter <- s1$iter
  if (s1$status == 1L && max_iter > 50L) s1$status <- 0L  # the count was the limit
  if (s1$status != 0L || !length(active)) {
    if (s1$status == 0L) s1 <- fista(s1$theta, tol, max_iter)
    s1$iter <- iter + if (s1$status == 0L) s1$iter else 0L
    return(s1)
  }
  sub <- list(m = prep$m, from = seq_along(active), K = prep$K)
  left <- max_iter
  while (left > 0L) {
    th <- s1$theta
    nz <- which(edge_norms(sub, th) > 0)
    cols <- c(seq_len(prep$m), edge_columns(sub, nz))
    # L-BFGS to well below tol, so that FISTA's first steps certify the
    # point.  A polish stopped by the count still lowers the objective
    # (L-BFGS descends), so its point is taken.
    s3 <- mlcrf_call_fit(prep, active[nz], lambda_v, lambda_w, eta, th[, cols, drop = FALSE],
                         3L, tol / 100, min(left, mlcrf_polish_iter), say = say)
    iter <- iter + s3$iter
    left <- left - mlcrf_polish_iter
    if (s3$status <= 1L) {
      th[, -seq_len(prep$m)] <- 0
      th[, cols] <- s3$theta
    }
    # a quarter of tol: the residual is taken at FISTA's extrapolated point,
    # per coordinate, and the point returned should meet tol as a whole
    s1 <- fista(th, tol / 4, 20L)
    iter <- iter + s1$iter
    if (s1$status == 0L) break
  }
  if (s1$status != 0L) {
    s1 <- fista(s1$theta, tol, max_iter)
    iter <- iter + s1$iter
  }
  s1$iter <- iter
  s1
}

# The level of the default lambda_w (see the Tuning section).
mlcrf_default_alpha <- 0.05

# At w = 0 and the nodes fitted alone: lambda_max = max_e ||g_e|| / eta, the
# smallest lambda_w that removes every edge, from the gradient g_e of the loss
# in the parameters of edge e; and the default lambda_w, at which an edge
# without dependence would enter with probability about alpha / E (score test,
# Bonferroni over the E pairs): ||g_e|| is then about c_e sqrt(chi2_df / df),
# c_e^2 = sum_i ||x_i||^2 ||d_ie||^2 / n^2 (d_ie the derivative of instance i's
# loss in the K potentials of edge e), df = (d + 1) K.
mlcrf_lambda_max <- function(prep, lambda_v, eta, nodes) {
  nall <- length(prep$from)
  theta <- cbind(nodes, matrix(0, prep$d + 1L, nall * prep$K))
  g <- mlcrf_call_objective(prep, seq_len(nall), lambda_v, 0, eta, theta)$gradient
  gn <- edge_norms(prep, g)
  # on the centred data (prep$xc, shifted by the small prep$shift): on x
  # itself an offset would cancel
  z <- prep$xc %*% Matrix::Diagonal(x = prep$sinv)  # standardised, less the shift ss
  ss <- prep$shift * prep$sinv
  q <- as.vector(Matrix::rowSums(z^2) - 2 * z %*% ss) + sum(ss^2) + 1
  x <- prep$xc
  s <- prep$shift
  b <- nodes[-1, , drop = FALSE] * prep$sinv
  lin <- as.matrix(x %*% b) + rep(nodes[1, ] - colSums(b * s), each = prep$n)
  G <- 1 / (1 + exp(-lin)) - prep$y
  # sum_i q_i ||d_ie||^2 for every pair at once (y is 0/1): with
  # A = (q G^2)'Y, Fm = (q G Y)'G, C = (q G Y)'(G Y) and s2 = colSums(q G^2),
  # the (1,1) column gives A[a, b] + A[b, a] + 2 C[a, b], and the three
  # columns together s2[a] + s2[b] + A[a, b] + A[b, a] - 2 (Fm[a, b] + Fm[b, a]) + 6 C[a, b]
  Y <- prep$y
  GY <- G * Y
  A <- crossprod(q * G^2, Y)
  C <- crossprod(q * GY, GY)
  ab <- cbind(prep$from, prep$to)
  ba <- ab[, 2:1, drop = FALSE]
  if (prep$K == 3L) {
    Fm <- crossprod(q * GY, G)
    s2 <- colSums(q * G^2)
    ss_e <- s2[ab[, 1]] + s2[ab[, 2]] + A[ab] + A[ba] - 2 * (Fm[ab] + Fm[ba]) + 6 * C[ab]
  } else {
    ss_e <- A[ab] + A[ba] + 2 * C[ab]
  }
  ce <- sqrt(pmax(ss_e, 0)) / prep$n
  df <- (prep$d + 1) * prep$K
  z <- sqrt(stats::qchisq(1 - mlcrf_default_alpha / nall, df) / df)
  if (eta == 0) return(list(lambda_max = Inf, lambda_default = 1e-3))
  list(lambda_max = max(gn) / eta, lambda_default = z * max(ce) / eta)
}

# Standardised <-> original scale of a (d + 1) x q coefficient matrix.
to_original <- function(theta, prep) {
  b <- theta[-1, , drop = FALSE] * prep$sinv
  rbind(theta[1, ] - colSums(b * prep$mu), b)
}
to_standard <- function(coef, prep) {
  b <- coef[-1, , drop = FALSE]
  rbind(coef[1, ] + colSums(b * prep$mu), b / prep$sinv)
}

# A warm start: a previous fit's stage-1 solution on all pairs, rescaled to
# this data's standardisation.
mlcrf_init <- function(init, prep) {
  if (is.null(init)) return(NULL)
  if (!inherits(init, "mlcrf"))
    stop_arg("'init' must be NULL or a previous mlcrf() fit")
  if (!identical(init$labels, prep$labels) || length(init$center) != prep$d ||
      init$edge_type != prep$edge_type)
    stop_arg("'init' was fitted on other labels, features or edge_type")
  to_standard(init$start, prep)
}

# Cross-validated ridge penalty per label: the node-only problem (independent
# logistic regressions) on a grid, warm-started from the largest penalty down.
mlcrf_lambda_v_grid <- 10^seq(0, -3, by = -0.5)

mlcrf_cv_lambda_v <- function(x, y, nfolds, tol, max_iter, say = function(...) NULL) {
  nfolds <- as.integer(nfolds)
  if (length(nfolds) != 1 || is.na(nfolds) || nfolds < 2 || nfolds > nrow(x))
    stop_arg("'nfolds_v' must be a whole number between 2 and the number of rows")
  foldid <- ml_folds(y, nfolds)
  tol <- max(tol, 1e-4)
  grid <- mlcrf_lambda_v_grid
  m <- ncol(y)
  loss <- matrix(0, length(grid), m)
  for (k in seq_len(nfolds)) {
    say("  lambda_v: fold ", k, " of ", nfolds)
    tr <- foldid != k
    prep <- mlcrf_prepare(x[tr, , drop = FALSE], y[tr, , drop = FALSE], "ising")
    th <- matrix(0, prep$d + 1L, m)
    xv <- x[!tr, , drop = FALSE]
    yv <- y[!tr, , drop = FALSE] + 0
    for (g in seq_along(grid)) {
      th <- mlcrf_call_fit(prep, integer(0), rep(grid[g], m), 0, 0, th, 2L, tol, max_iter,
                           say = say)$theta
      co <- to_original(th, prep)
      eta <- as.matrix(xv %*% co[-1, , drop = FALSE]) + rep(co[1, ], each = nrow(xv))
      loss[g, ] <- loss[g, ] + colSums(log1p(exp(-abs(eta))) + pmax(eta, 0) - yv * eta)
    }
  }
  stats::setNames(grid[apply(loss, 2, which.min)], colnames(y))
}

mlcrf_object <- function(res, prep, x, y, call) {
  coef <- to_original(res$theta, prep)
  rownames(coef) <- c("(Intercept)", prep$features %||% paste0("x", seq_len(prep$d)))
  nodes <- coef[, seq_len(prep$m), drop = FALSE]
  colnames(nodes) <- prep$labels
  cfg <- if (prep$K == 3L) c("01", "10", "11") else "11"
  keep <- res$keep
  weights <- lapply(seq_along(keep), function(k) {
    w <- coef[, prep$m + (k - 1L) * prep$K + seq_len(prep$K), drop = FALSE]
    colnames(w) <- cfg
    w
  })
  strength <- vapply(seq_along(keep), function(k)
    sqrt(sum(res$theta[, prep$m + (k - 1L) * prep$K + seq_len(prep$K)]^2)), 0)
  edf <- data.frame(from = prep$labels[prep$from[keep]], to = prep$labels[prep$to[keep]],
                    strength = strength, stringsAsFactors = FALSE)
  names(weights) <- paste(edf$from, edf$to, sep = "~")
  start <- to_original(res$stage1, prep)
  new_ml_fit(list(
    nodes = nodes, weights = weights, edges = edf,
    lambda_v = stats::setNames(res$lambda_v, prep$labels), lambda_w = res$lambda_w,
    eta = res$eta, lambda_max = res$lambda_max,
    theta = res$theta, start = start,
    center = stats::setNames(prep$mu, prep$features),
    scale = stats::setNames(1 / prep$sinv, prep$features),
    convergence = res$convergence, labels = prep$labels, features = prep$features,
    nobs = prep$n, edge_type = prep$edge_type, edge_mode = res$edge_mode, call = call),
    "mlcrf", types = c("class", "score", "prob"), decoder = "MAP", n_features = prep$d)
}

# For the cross-validation engine: lambda_max (where a decreasing lambda_w
# path starts) and the default lambda_w on (x, y) at fixed lambda_v and eta.
mlcrf_lambda_range <- function(x, y, lambda_v, eta, edge_type = "full", tol = 1e-6,
                               max_iter = 2000) {
  prep <- mlcrf_prepare(x, y, edge_type)
  lambda_v <- check_lambda_v(lambda_v, ncol(y))
  nodes <- mlcrf_call_fit(prep, integer(0), lambda_v, 0, eta,
                          matrix(0, prep$d + 1L, prep$m), 2L, tol, max_iter)
  mlcrf_lambda_max(prep, lambda_v, eta, nodes$theta)
}
