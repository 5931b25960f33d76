#' Binary relevance with L2-regularised linear models
#'
#' Fits one linear model per label, independently of the others: the
#' baseline against which multi-label methods that share information between
#' labels (such as [mlls()]) are measured, as in the MLLS papers.  The solvers
#' are written in C after LIBLINEAR's (Fan et al. 2008), so that the
#' comparison runs in the same package, on the same data and folds, with the
#' same thresholds.
#'
#' @section Models:
#' With the labels coded \eqn{y_{il} = \pm 1}{y_il = +1/-1} and \eqn{C} the
#' cost, label \eqn{l} gets the weights that minimise
#' * `"ridge"`: \eqn{\frac12\|w\|^2 + C\sum_i (y_{il} - b - w'x_i)^2}{0.5 ||w||^2 + C sum_i (y_il - b - w'x_i)^2}
#'   with an unpenalised intercept \eqn{b}: [mlls()] with `alpha = 0` and
#'   `beta = 1 / (2 n C)`, solved through the same decomposition.
#' * `"logistic"`: \eqn{\frac12\|w\|^2 + C\sum_i \log(1 + e^{-y_{il} w'x_i})}{0.5 ||w||^2 + C sum_i log(1 + exp(-y_il w'x_i))},
#'   by a trust-region Newton method with conjugate gradients (LIBLINEAR's
#'   solver 0).
#' * `"svm"`: \eqn{\frac12\|w\|^2 + C\sum_i \max(0, 1 - y_{il} w'x_i)^q}{0.5 ||w||^2 + C sum_i max(0, 1 - y_il w'x_i)^q},
#'   \eqn{q = 1} for `loss = "hinge"` and \eqn{q = 2} for `"squared_hinge"`,
#'   the squared hinge by the trust-region Newton method in the primal
#'   (LIBLINEAR's solver 2), the hinge by dual coordinate descent with
#'   shrinking (LIBLINEAR's solver 3).
#'
#' For the logistic and SVM learners the intercept is, as in LIBLINEAR with
#' `-B 1` and scikit-learn's `LinearSVC`, an extra feature of constant value 1
#' whose weight is penalised like the others; `x` is not centred, so a sparse
#' `x` stays sparse.
#'
#' @section Solver accuracy:
#' The logistic solver (also that of [cc()], [pcc()] and [iblr()]), and the
#' same trust-region Newton solver for the SVM's squared hinge, stop when
#' two tests hold: LIBLINEAR's, with `tol` as its `-e` (the gradient norm has
#' fallen below `tol * max(min(#pos, #neg), 1) / n` times its value at
#' `w = 0`), and a Newton step from the current point, one that the trust
#' region does not cut, predicts a decrease of the objective below `1e-10`
#' times its value (the step is then taken).  The second test does not depend
#' on the scale of the features: LIBLINEAR's alone, dominated by the largest
#' column, stops far from the optimum (emotions: up to 22.6\% above the optimal
#' objective, and up to 2.7 times it with one column multiplied by 1e6).  The conjugate gradients are preconditioned by the diagonal of
#' the Hessian, as in LIBLINEAR 2.20 and later.  At the defaults the weights
#' are the optimum of the stated problem to about 1e-6 relative and its
#' objective to about 1e-10; `grad_norm` reports the norm of the gradient at
#' the returned weights.  A label whose solver stops at `max_iter` gives a
#' warning, and so does one whose solver stalls (no decrease left in double
#' precision while a step inside the trust region still promised one).  A
#' `tol` finer than the rounding of the gradient allows ends, without a
#' warning, where the objective no longer decreases and a Newton step promises
#' no decrease either.  Objective or gradient
#' values that overflow double precision (features near 1e155, or a huge
#' `cost`) are an error that says to scale the features.
#'
#' For the squared hinge (the default loss) the Hessian is the generalised
#' one, I + 2C X'X over the rows inside the margin; at the defaults, on
#' emotions as it comes and with a column multiplied by 1e6, half the Newton
#' decrement (an estimate of the distance to the optimal objective) is
#' below 1e-10 of the objective (`test-svm-optimality.R`).  Dual coordinate
#' descent, which the package used for it before, is not scale-robust: on
#' emotions it stopped at 1000 sweeps up to 3.1 times above the optimal
#' objective.  `dual` then holds the dual variables the optimum implies,
#' \eqn{2C\max(0, 1 - y_i w'x_i)}{2C max(0, 1 - y_i w'x_i)}.
#'
#' The hinge loss's solver (dual coordinate descent) stops when two tests
#' hold: the spread of the projected gradients of the dual is below `tol`
#' (LIBLINEAR's rule and default 0.1), and the duality gap, which bounds the
#' distance of the objective from its minimum and does not depend on the
#' scale of the features, is below 1e-6 of the objective; `dual_gap` reports
#' it, relative, at the returned weights.  Every 20 sweeps, and when the
#' first test holds but not the second, a Newton step on the face of the
#' dual where coordinate descent is (the bounded variables held) jumps to
#' that face's optimum, which ends the fit once the face is the optimum's
#' (yeast: 28 to 56 sweeps to a gap of 1e-15).  Coordinate descent is not
#' scale-robust: on features of very different scales (emotions as it comes,
#' or a column multiplied by 1e6) it, like LIBLINEAR's, stops at 1000 sweeps
#' with gaps near 1.  When the gap is still open after sweeps that cost a
#' twentieth of an interior-point solve of the dual (priced from the numbers
#' of rows and features), at a stall, or at `max_iter`, a primal-dual
#' interior-point method that keeps the weights as a variable of their own
#' (computed from a Newton system in the weights, not as a sum over the
#' rows, they are accurate at any column scale) takes over and stops at the same gap (1e-6 of the objective at
#' the default `tol`, tighter in proportion to a smaller `tol`); `iter` then
#' counts the sweeps plus its steps.  It reaches that gap on both cases
#' above (`test-svm-optimality.R`, checked against a generic QP solver);
#' the fit warns only when it fails or cannot run (it stores n x p numbers
#' when p < n, else n x n, and is not tried above 2e7 of them).  It visits the instances in a
#' pseudo-random order from a fixed seed, as LIBLINEAR does: a fit is a
#' function of its data and settings alone, and neither depends on nor moves
#' R's random number stream (so [cv_br()] picks the same cost on the same
#' folds, also in forked workers).
#'
#' @section Warm starts:
#' `init` starts the logistic and SVM solvers from a previous solution, which
#' saves most of the work when the cost changes a little: a `br` fit on the
#' same data (the SVM then restarts from its dual variables, scaled to the new
#' cost), or a weight matrix laid out as [coef()] returns it (intercept
#' first).  The solution does not depend on the start beyond the solver's
#' tolerance.
#'
#' @section Scores and thresholds:
#' `predict(type = "score")` gives the decision values \eqn{b + w'x} for the
#' ridge and SVM learners and the probabilities \eqn{1 / (1 + e^{-(b + w'x)})}
#' for the logistic one.  As for [mlls()], scores become labels through one
#' threshold per label that maximises the label's F1 on the training scores
#' ([f1_thresholds()]); set others with `fit$thresholds <- ...` or the
#' `thresholds` argument of [predict.br()].
#'
#' @section Missing labels:
#' `NA` in `y` marks a label that was not observed.  `na_labels` says what to
#' do with them:
#' * `"refuse"` (the default): an error, so that missing labels are never
#'   taken for negatives without a word;
#' * `"observed"`: each label's model is fitted on the rows where that label
#'   is observed, which binary relevance allows since its labels are fitted
#'   independently (every learner: the rows are subset per label; this is the
#'   same as an instance weight of 0 on the others).  The thresholds are
#'   tuned on the observed rows too.  A label observed on no row is an error.
#'   The SVM's dual variables are not kept then, so a warm start from such a
#'   fit starts from its weights;
#' * `"negative"`: `NA` is taken as `FALSE` (the usual baseline of the
#'   missing-label literature, e.g. the BR of the LEWL paper).
#'
#' @section Other learners:
#' With a learner object that is not built in (an adapter such as
#' [ml_learner_e1071()], or one's own from [ml_learner()]), each label is
#' fitted by the learner's `fit` on its rows (its observed rows with
#' `na_labels = "observed"`), a constant label without calling it (see
#' [ml_learner()]), and scored by its `predict`: `predict(type = "score")`
#' gives the learner's probabilities or scores, and the thresholds are tuned
#' for F1 on the training scores as above (for a learner that fits its
#' training rows closely, such as a random forest, out-of-fold thresholds
#' from [cv_br()] are the better cut).  `cost`, `loss`, `intercept`, `tol`,
#' `max_iter` and `init` belong to the built-in solvers: set the learner's
#' own parameters with [update.ml_learner()].  The fit holds `models` (one
#' per label) and `learner` instead of `W`, `intercept` and the solver's
#' reports; it has no `coef()`.
#'
#' @param x A numeric matrix, a data frame of numeric columns, or a sparse
#'   `Matrix` (n x d).  For the formula method, a formula such as
#'   `cbind(l1, l2, l3) ~ .`.  A data set of class `mlss_data` or `mldr` goes
#'   in as `x` with its labels, `y` left out.
#' @param y Labels: an n x m logical, 0/1 or -1/+1 matrix or data frame;
#'   `NA` marks a missing label (see `na_labels`).
#' @param na_labels What to do with missing labels: `"refuse"`, `"observed"`
#'   or `"negative"` (see Missing labels).
#' @param learner `"ridge"`, `"logistic"` or `"svm"`, or a learner object
#'   ([ml_learner()]: the built-in ones, `ml_learner_svm(cost = 0.1)`, are the
#'   same fits as the names with those settings; any other is fitted label by
#'   label, see Other learners).
#' @param cost The cost \eqn{C} > 0: one number for every label, or one per
#'   label.  `NULL` means 1, LIBLINEAR's default.
#' @param loss For `learner = "svm"`: `"squared_hinge"` (LIBLINEAR's and
#'   scikit-learn's default) or `"hinge"` (the standard SVM).
#' @param intercept Fit an intercept per label?
#' @param tol Solver tolerance (see Solver accuracy); `NULL` for LIBLINEAR's
#'   default.  Not used by the ridge learner, which is solved exactly.
#' @param max_iter Most Newton steps (logistic, squared hinge) or sweeps over the data (hinge)
#'   per label.
#' @param init A warm start for the logistic and SVM solvers: a `br` fit of
#'   the same learner, or a (d + 1) x m (d x m without intercept) weight
#'   matrix.
#' @param data,subset,na.action For the formula method, as in [lm()]. `na.action` applies to the features
#'   only: a row whose only `NA` is a label is kept, and its missing labels
#'   follow the rule of the section Missing labels.
#' @param ... For the formula method, arguments passed to the default method.
#' @return An object of class `"br"`: a list with
#'   \item{W}{d x m weights.}
#'   \item{intercept}{length m.}
#'   \item{thresholds, train_f1}{per-label thresholds and their training F1.}
#'   \item{learner, loss, cost, tol}{the settings.}
#'   \item{dual}{for the SVM, the n x m dual variables (used by warm starts).}
#'   \item{iter}{per label, the solver's iterations.}
#'   \item{grad_norm}{for the logistic learner, per label, the norm of the
#'     gradient of the objective at the returned weights (intercept included).}
#'   \item{dual_gap}{for the SVM with the hinge loss, per label, the duality
#'     gap at the returned point relative to the objective (see Solver accuracy).}
#'   \item{labels, features, n_pos, nobs, call}{as for [mlls()].}
#' @references Fan R.-E., Chang K.-W., Hsieh C.-J., Wang X.-R. and Lin C.-J.
#'   (2008). LIBLINEAR: a library for large linear classification. JMLR 9,
#'   1871-1874.
#'
#'   Lin C.-J., Weng R. C. and Keerthi S. S. (2008). Trust region Newton method
#'   for large-scale logistic regression. JMLR 9, 627-650.
#'
#'   Hsieh C.-J., Chang K.-W., Lin C.-J., Keerthi S. S. and Sundararajan S.
#'   (2008). A dual coordinate descent method for large-scale linear SVM.
#'   ICML 2008, 408-415.
#' @seealso [predict.br()], [cca_ridge()], [aso_svm()], [mlls()].
#' @examples
#' data(yeast)
#' train <- yeast$train
#' fit <- br(yeast$x[train, ], yeast$y[train, ], learner = "svm", cost = 0.1)
#' fit
#' pred <- predict(fit, yeast$x[!train, ], type = "class")
#' ml_metrics(yeast$y[!train, ], pred = pred, measures = "macro_f1")
#'
#' # a warm start from a fit at a nearby cost
#' fit2 <- br(yeast$x[train, ], yeast$y[train, ], learner = "svm", cost = 0.2, init = fit)
#' @export
br <- function(x, ...) UseMethod("br")

#' @rdname br
#' @export
br.default <- function(x, y, learner = c("ridge", "logistic", "svm"), cost = NULL,
                       loss = c("squared_hinge", "hinge"), intercept = TRUE, tol = NULL,
                       max_iter = 1000L, init = NULL,
                       na_labels = c("refuse", "observed", "negative"), ...) {
  call <- match.call()
  call[[1L]] <- quote(br)
  check_no_dots(...)
  na_labels <- match.arg(na_labels)
  if (is_learner(learner)) {
    learner <- validate_ml_learner(learner)
    if (is.null(learner$builtin))
      return(br_learner(x, y, learner, na_labels, call,
                        given = c(cost = !is.null(cost), loss = !missing(loss),
                                  intercept = !missing(intercept), tol = !is.null(tol),
                                  max_iter = !missing(max_iter), init = !is.null(init))))
    # a built-in learner object: its settings, unless given here, and the C path
    s <- builtin_settings(learner)
    learner <- s$learner
    if (is.null(cost)) cost <- s$cost
    if (missing(loss)) loss <- s$loss
    if (missing(intercept)) intercept <- s$intercept
    if (is.null(tol)) tol <- s$tol
    if (missing(max_iter)) max_iter <- s$max_iter
  }
  learner <- match.arg(learner, c("ridge", "logistic", "svm"))
  loss <- match.arg(loss, c("squared_hinge", "hinge"))
  xy <- br_inputs(x, y, na_labels)
  x <- xy$x
  y <- xy$y
  cost <- check_cost(cost, ncol(y))
  intercept <- check_flag(intercept, "intercept")
  tol <- check_solver_tol(tol, learner, loss)
  max_iter <- check_max_iter(max_iter)
  fit <- if (anyNA(y)) br_fit_observed(x, y, learner, cost, loss, intercept, tol, max_iter, init)
         else br_fit(x, y, learner, cost, loss, intercept, tol, max_iter, init)
  warn_not_converged(fit$status, colnames(y))
  linear_finish(fit, x, y, call, class = "br",
                settings = list(learner = learner, loss = if (learner == "svm") loss,
                                cost = stats::setNames(cost, colnames(y)), tol = tol),
                extra = if (!is.null(fit$dual_gap))
                  list(dual_gap = stats::setNames(fit$dual_gap, colnames(y))))
}

#' @rdname br
#' @export
br.formula <- formula_method("br")

# x and y of br() checked: missing labels as `na_labels` says, every label
# with observed positives and negatives (or a warning when constant).
br_inputs <- function(x, y, na_labels) {
  xy <- ml_xy(x, y)
  x <- as_features(xy$x)
  y <- as_labels(xy$y, nrow(x), na = c(refuse = "refuse", observed = "keep",
                                    negative = "negative")[[na_labels]],
                 fun = "br", observed = TRUE)
  check_observed_labels(y)
  warn_constant_labels(y)
  list(x = x, y = y)
}

# Binary relevance with a learner object that is not built in: one fit of
# the learner per label (on its observed rows), thresholds for F1 on the
# training scores.
br_learner <- function(x, y, learner, na_labels, call, given) {
  if (any(given))
    stop_arg("'", names(given)[given][1], "' is a setting of the built-in solvers; ",
             "the learner '", learner$name, "' takes its parameters from update(learner, ...)")
  xy <- br_inputs(x, y, na_labels)
  x <- xy$x
  y <- xy$y
  labels <- colnames(y)
  models <- learner_fit_labels(learner, x, y)
  score <- learner_predict_labels(learner, models, x, labels)
  th <- .Call(C_f1_thresholds, score, y, chance_level())
  new_ml_fit(list(models = models, learner = learner,
                  thresholds = stats::setNames(th$threshold, labels),
                  train_f1 = stats::setNames(th$f1, labels), labels = labels,
                  features = colnames(x), n_pos = colSums(y, na.rm = TRUE), nobs = nrow(y),
                  call = call),
             "br", n_features = ncol(x))
}

# ---- the solver on the observed rows ----------------------------------------------

# Binary relevance on each label's observed rows (y has NA): one fit per
# label on its row subset, put together as br_fit() returns them.  A warm
# start gives each label its column of weights (the SVM's dual variables, one
# per row of the full data, cannot follow the subsets).
br_fit_observed <- function(x, y, learner, cost, loss, intercept, tol, max_iter, init) {
  d <- ncol(x)
  m <- ncol(y)
  if (!is.null(init)) {
    br_init(init, d, m, nrow(x), intercept, learner, loss, cost)  # checks it
    init <- if (inherits(init, "br")) rbind(init$intercept, init$W)
            else if (nrow(init) == d) rbind(0, init) else init
  }
  parts <- lapply(seq_len(m), function(l) {
    o <- !is.na(y[, l])
    br_fit(x[o, , drop = FALSE], y[o, l, drop = FALSE], learner, cost[l], loss, intercept,
           tol, max_iter, if (!is.null(init)) init[, l, drop = FALSE])
  })
  list(W = do.call(cbind, lapply(parts, `[[`, "W")),
       intercept = vapply(parts, function(p) as.numeric(p$intercept), 0),
       link = parts[[1]]$link,
       iter = vapply(parts, function(p) as.integer(p$iter), 0L),
       status = vapply(parts, function(p) as.integer(p$status), 0L),
       grad_norm = if (learner == "logistic")
         vapply(parts, function(p) as.numeric(p$grad_norm), 0),
       dual_gap = if (learner == "svm" && loss == "hinge")
         vapply(parts, function(p) as.numeric(p$dual_gap), 0))
}
