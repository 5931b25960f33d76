#' Base learners: any binary classifier (or regressor) in the transformations
#'
#' A learner is a small object that says how to fit one binary label and how
#' to score new rows with the fit.  [br()], [cc()], [pcc()], [ecc()], [ebr()]
#' and [rakel()] take one as their `learner`, [cv_br()] tunes its parameters,
#' and [lewl()] takes one (with `regression = TRUE`) as its `regressor`.
#'
#' `ml_learner()` makes one from two functions:
#' * `fit(x, y, ...)`: `x` the n x d features (a dense matrix, or a sparse
#'   `Matrix` when the learner says `sparse = TRUE`), `y` a logical vector of
#'   length n holding both classes (or, for a regression learner called by
#'   [lewl()], a numeric vector), and the learner's `params` as further
#'   arguments; it returns the fitted model, any R object.
#' * `predict(model, newx)`: a numeric vector of length `nrow(newx)`, the
#'   probability of `TRUE` (`type = "prob"`) or a score that is larger for
#'   `TRUE` (`type = "score"`); for a regression, the predicted values.
#'
#' The package calls `fit` only on labels that hold both classes: a label
#' that is constant on the rows it gets is predicted constant without
#' calling the learner (probability 0 or 1; score -1 or +1), so that a
#' learner need not handle one class.  A learner with `sparse = FALSE` gets a
#' sparse `x` as a dense matrix.  A label is predicted where its score is
#' above the fit's thresholds (by default tuned for F1 on the training
#' scores, see [br()]); where a method needs a fixed cut (the greedy walk of
#' [cc()]) it is 0.5 for probabilities and 0 for scores.
#'
#' @section Multi-class learners:
#' A learner made with `multiclass = TRUE` also fits one multi-class model:
#' [lp()], [ps()] and [rakel()] then fit their label sets as the classes of
#' one model (as utiml and MEKA do) instead of one-vs-rest.  `fit(x, y, ...)`
#' then gets `y` as a factor whose levels are the classes (the label sets'
#' keys, "0110..."; every level has training rows, at least two levels),
#' and `predict(model, newx)` must return the n x K matrix of the class
#' probabilities, one column per level, named by the levels (rows are
#' normalised to sum 1; a row summing to 0 gets the classes' training
#' frequencies).  The same `fit` and `predict` still get a logical `y` (one
#' binary label) from the other methods, so the two cases are told apart by
#' `is.factor(y)` in `fit` and by the model in `predict` (see Examples).
#' `ml_learner_e1071()`, `ml_learner_kernlab()` and `ml_learner_ranger()`
#' are multi-class learners (e1071's and kernlab's SVMs: libsvm's
#' one-vs-one with Platt's pairwise-coupled probabilities, utiml's label
#' powerset model; without probabilities, the predicted class with
#' probability 1).
#'
#' @section Built-in learners:
#' `ml_learner_ridge()`, `ml_learner_logistic()` and `ml_learner_svm()` are
#' the solvers of [br()] (see there for the models): `br(x, y, learner =
#' ml_learner_svm(cost = 0.1))` is `br(x, y, learner = "svm", cost = 0.1)`,
#' through the same C code (one call for all labels, warm starts in
#' [cv_br()]); `cc()` and `pcc()` take `ml_learner_logistic()` through their
#' own C code likewise.  Elsewhere they fit one label at a time like any
#' learner.  `ml_learner_ridge()` is also a regressor.
#'
#' @section Adapters:
#' Each needs its package (in Suggests; an error says to install it when it
#' is missing):
#' * `ml_learner_e1071()`: [e1071::svm()], by default the RBF kernel with
#'   e1071's defaults (cost 1, \eqn{\gamma = 1/d}{gamma = 1/d}) and Platt's
#'   probabilities (`probability = TRUE`; the internal cross-validation
#'   that fits them draws from R's generator, so `set.seed()` reproduces
#'   them), the features scaled as e1071 does by default (`scale = TRUE`);
#'   `probability = FALSE` gives the decision values instead
#'   (`type = "score"`).  This is utiml's default base learner; the
#'   package's own [ml_learner_rbf_svm()] fits the same model without
#'   e1071, several times faster (one kernel matrix shared).  A sparse
#'   `x` is made dense (e1071's sparse route needs SparseM and does not
#'   scale).
#'   Regression: eps-SVR.
#' * `ml_learner_kernlab()`: [kernlab::ksvm()], C-SVC with the RBF kernel,
#'   `sigma` by default from [kernlab::sigest()] (R's generator), Platt's
#'   probabilities.  Regression: eps-SVR.
#' * `ml_learner_ranger()`: [ranger::ranger()] probability forests (`mtry`,
#'   `min.node.size` ranger's defaults when `NULL`; one thread by default,
#'   seeds drawn from R's generator, so `set.seed()` reproduces a fit).
#'   Regression: a regression forest (as in the LEWL paper).
#' * `ml_learner_glmnet()`: [glmnet::glmnet()] at one penalty `lambda`,
#'   elastic net mixing `alpha` (1: the lasso), binomial family
#'   (probabilities); takes sparse `x`.  Regression: the gaussian family.
#'
#' xgboost is not among them: it was not installable on the machines this
#' package is built on (no Debian package); a learner of one's own, in the
#' form of the Examples, wraps it in a few lines.
#'
#' @param name A short name for printing.
#' @param fit,predict The two functions described above.
#' @param type `"prob"` (the predict function gives probabilities) or
#'   `"score"`.
#' @param sparse Does `fit`/`predict` accept a sparse `Matrix`?
#' @param params A named list: the learner's parameters, passed to `fit` as
#'   arguments, changed by [update()] and tuned by [cv_br()].
#' @param regression Can `fit` take a numeric `y` (a regressor for [lewl()])?
#' @param multiclass Can `fit` take a factor `y` with the classes of a label
#'   powerset, `predict` then giving class probabilities (see *Multi-class
#'   learners*)?  Its multi-class predictions are class probabilities
#'   whatever `type` says of its binary ones.
#' @param cost,intercept,loss,tol,max_iter For the built-in learners, as in
#'   [br()].
#' @param kernel The kernel: e1071's name (`"radial"`, ...) for
#'   `ml_learner_e1071()`, kernlab's (`"rbfdot"`, ...) for
#'   `ml_learner_kernlab()`.
#' @param gamma,probability,degree,coef0,scale For `ml_learner_e1071()`, as in
#'   [e1071::svm()] (`gamma = NULL`: 1 / d).
#' @param C,sigma,prob.model For `ml_learner_kernlab()`: the cost, the RBF
#'   width (`NULL`: [kernlab::sigest()]) and Platt's probabilities.
#' @param num.trees,mtry,min.node.size,num.threads For
#'   `ml_learner_ranger()`, as in [ranger::ranger()].
#' @param alpha,lambda For `ml_learner_glmnet()`, as in [glmnet::glmnet()]
#'   (one `lambda`).
#' @param ... For `ml_learner_e1071()`, `ml_learner_kernlab()`,
#'   `ml_learner_ranger()`, `ml_learner_glmnet()`: further arguments of the
#'   underlying function, kept in `params`.
#' @return An object of class `"ml_learner"`: a list with `name`, `fit`,
#'   `predict`, `type`, `sparse`, `params`, `regression`, `multiclass` and, for the
#'   built-in learners, `builtin` (`"ridge"`, `"logistic"` or `"svm"`).
#' @seealso [update.ml_learner()], [br()], [cv_br()].
#' @examples
#' # a learner of one's own: nearest centroids, a score larger for TRUE
#' centroid <- ml_learner("centroid",
#'   fit = function(x, y) list(pos = colMeans(x[y, , drop = FALSE]),
#'                             neg = colMeans(x[!y, , drop = FALSE])),
#'   predict = function(model, newx)
#'     sqrt(colSums((t(newx) - model$neg)^2)) - sqrt(colSums((t(newx) - model$pos)^2)),
#'   type = "score")
#' centroid
#' d <- mlss::emotions
#' fit <- br(d, learner = centroid)
#' ml_metrics(d$y[!d$train, ], pred = predict(fit, d), measures = "macro_f1")
#'
#' # logistic regression by glm.fit(): probabilities, so also for pcc()
#' glm_learner <- ml_learner("glm",
#'   fit = function(x, y) suppressWarnings(stats::glm.fit(cbind(1, x), y,
#'                                          family = stats::binomial()))$coefficients,
#'   predict = function(model, newx) stats::plogis(drop(cbind(1, newx) %*% model)))
#' x <- d$x[1:200, 1:10]
#' y <- d$y[1:200, ]
#' head(predict(pcc(x, y, learner = glm_learner), x, type = "score"), 3)
#'
#' # least squares, a classifier (scores) and a regressor (for lewl())
#' lm_learner <- ml_learner("lm",
#'   fit = function(x, y) stats::lm.fit(cbind(1, x), as.numeric(y))$coefficients,
#'   predict = function(model, newx) drop(cbind(1, newx) %*% model),
#'   type = "score", regression = TRUE)
#' fit <- cc(x, y, learner = lm_learner)
#' fit <- lewl(x, y, regressor = lm_learner)
#'
#' # a multi-class learner for lp(), ps() and rakel(): multinomial naive
#' # Gaussian class model of one's own, here with a shared variance
#' gauss <- ml_learner("gauss",
#'   fit = function(x, y) {
#'     cls <- if (is.factor(y)) y else factor(y, levels = c(FALSE, TRUE))
#'     list(mu = rowsum(x, cls) / as.vector(table(cls)), v = apply(x, 2, var) + 1e-6,
#'          prior = as.vector(table(cls)) / length(cls), levels = levels(cls),
#'          multi = is.factor(y))
#'   },
#'   predict = function(model, newx) {
#'     ll <- sapply(seq_along(model$levels), function(k)
#'       log(model$prior[k]) - colSums((t(newx) - model$mu[k, ])^2 / model$v) / 2)
#'     P <- exp(ll - apply(ll, 1, max))
#'     P <- P / rowSums(P)
#'     colnames(P) <- model$levels
#'     if (model$multi) P else P[, "TRUE"]   # a matrix for LP, one column otherwise
#'   },
#'   multiclass = TRUE)
#' fit <- lp(x, y, learner = gauss)
#' head(predict(fit, x))
#'
#' # the built-in linear SVM as a learner object, and a change of parameter
#' br(d, learner = update(ml_learner_svm(), cost = 0.1))
#' \donttest{
#' if (requireNamespace("e1071", quietly = TRUE))
#'   br(d, learner = ml_learner_e1071(probability = FALSE))
#' }
#' @export
ml_learner <- function(name, fit, predict, type = c("prob", "score"), sparse = FALSE,
                       params = list(), regression = FALSE, multiclass = FALSE) {
  if (missing(type)) type <- "prob"
  validate_ml_learner(new_ml_learner(name, fit, predict, type, sparse, params, regression,
                                     multiclass = multiclass))
}

new_ml_learner <- function(name, fit, predict, type, sparse, params, regression,
                           builtin = NULL, multiclass = FALSE) {
  structure(list(name = name, fit = fit, predict = predict, type = type, sparse = sparse,
                 params = params, regression = regression, builtin = builtin,
                 multiclass = multiclass),
            class = "ml_learner")
}

validate_ml_learner <- function(learner, arg = "learner") {
  if (!inherits(learner, "ml_learner") || !is.list(learner))
    stop_arg("'", arg, "' must be a learner made by ml_learner()")
  if (!is.character(learner$name) || length(learner$name) != 1 || is.na(learner$name) ||
      !nzchar(learner$name))
    stop_arg("the learner's 'name' must be one non-empty string")
  if (!is.function(learner$fit) || length(formals(learner$fit)) < 2)
    stop_arg("the learner's 'fit' must be a function(x, y, ...)")
  if (!is.function(learner$predict) || length(formals(learner$predict)) < 2)
    stop_arg("the learner's 'predict' must be a function(model, newx)")
  if (!identical(learner$type, "prob") && !identical(learner$type, "score"))
    stop_arg("the learner's 'type' must be \"prob\" or \"score\"")
  if (is.null(learner$multiclass)) learner$multiclass <- FALSE  # made before it existed
  for (f in c("sparse", "regression", "multiclass"))
    if (!is.logical(learner[[f]]) || length(learner[[f]]) != 1 || is.na(learner[[f]]))
      stop_arg("the learner's '", f, "' must be TRUE or FALSE")
  p <- learner$params
  if (!is.list(p) || (length(p) && (is.null(names(p)) || any(names(p) == "") ||
                                    anyDuplicated(names(p)))))
    stop_arg("the learner's 'params' must be a list with distinct names")
  if (length(p) && !"..." %in% names(formals(learner$fit))) {
    extra <- setdiff(names(p), names(formals(learner$fit))[-(1:2)])
    if (length(extra))
      stop_arg("the learner's 'fit' has no argument(s) ", paste0("'", extra, "'", collapse = ", "),
               " for its 'params'")
  }
  learner
}

#' @export
print.ml_learner <- function(x, ...) {
  cat("Learner '", x$name, "': ", if (x$type == "prob") "probabilities" else "scores",
      if (x$sparse) ", sparse input" else ", dense input",
      if (x$regression) ", also a regressor", if (isTRUE(x$multiclass)) ", multi-class",
      if (!is.null(x$builtin)) " (built in)", "\n",
      sep = "")
  p <- x$params[!vapply(x$params, is.null, NA)]
  if (length(p)) {
    val <- vapply(p, function(v) if (is.atomic(v) && length(v) <= 3)
      paste(format(v), collapse = " ") else paste0("<", class(v)[1], ">"), "")
    cat("parameters: ", paste0(names(p), " = ", val, collapse = ", "), "\n", sep = "")
  }
  invisible(x)
}

#' Change a learner's parameters
#'
#' @param object A learner ([ml_learner()]).
#' @param ... Parameters by name, e.g. `update(ml_learner_ranger(), mtry = 3)`;
#'   `NULL` restores the underlying function's default.  A built-in learner
#'   takes only its own parameters.
#' @return The learner with the new parameters.
#' @examples
#' update(ml_learner_svm(), cost = 10)
#' @export
update.ml_learner <- function(object, ...) {
  new <- list(...)
  if (length(new) && (is.null(names(new)) || any(names(new) == "")))
    stop_arg("the parameters given to update() must be named")
  if (!is.null(object$builtin)) {
    bad <- setdiff(names(new), names(object$params))
    if (length(bad))
      stop_arg("the ", object$name, " learner has no parameter(s) ",
               paste0("'", bad, "'", collapse = ", "), "; it has ",
               paste0("'", names(object$params), "'", collapse = ", "))
  }
  for (p in names(new)) object$params[p] <- list(new[[p]])
  # an adapter whose output (probability or decision value) is a parameter
  if (is.function(object$type_of)) object$type <- object$type_of(object$params)
  validate_ml_learner(object)
}

# A learner argument that is an ml_learner (checked) rather than one of the
# built-in names.
is_learner <- function(learner) inherits(learner, "ml_learner")

# The cut that turns a learner's output into a class where a method has no
# tuned thresholds (the greedy walk of a chain).
learner_cut <- function(learner) if (learner$type == "prob") 0.5 else 0

# ---- fitting and predicting one label --------------------------------------------

# One label (y logical, no NA; or numeric for a regression): the learner's
# model, or a constant when y holds one class.
learner_fit_one <- function(learner, x, y) {
  if (is.logical(y) && (all(y) || !any(y))) {
    value <- if (learner$type == "prob") as.numeric(y[1]) else if (y[1]) 1 else -1
    return(list(constant = value))
  }
  if (!learner$sparse && inherits(x, "Matrix")) x <- as.matrix(x)
  list(model = do.call(learner$fit, c(list(x, y), learner$params)))
}

learner_predict_one <- function(learner, part, newx, label = NULL) {
  n <- nrow(newx)
  if (!is.null(part$constant)) return(rep(part$constant, n))
  if (!learner$sparse && inherits(newx, "Matrix")) newx <- as.matrix(newx)
  out <- learner$predict(part$model, newx)
  if (is.matrix(out) && ncol(out) == 1) out <- drop(out)
  if (!is.numeric(out) || length(out) != n || anyNA(out))
    stop_arg("the predict function of learner '", learner$name, "' must return ", n,
             " numbers (one per row of newx, no NA)",
             if (!is.null(label)) paste0(" (label '", label, "')"))
  as.numeric(out)
}

# Every label of y (n x m logical; NA: fit on the observed rows of that label).
learner_fit_labels <- function(learner, x, y) {
  lapply(seq_len(ncol(y)), function(l) {
    o <- !is.na(y[, l])
    if (all(o)) learner_fit_one(learner, x, y[, l])
    else learner_fit_one(learner, x[o, , drop = FALSE], y[o, l])
  })
}

learner_predict_labels <- function(learner, parts, newx, labels) {
  out <- matrix(0, nrow(newx), length(parts), dimnames = list(rownames(newx), labels))
  for (l in seq_along(parts))
    out[, l] <- learner_predict_one(learner, parts[[l]], newx, labels[l])
  out
}

# x as the learner takes it: a sparse Matrix made dense once for a learner
# without sparse input (instead of once per label in learner_fit_one()).
learner_input <- function(learner, x) {
  if (is_learner(learner) && !learner$sparse && inherits(x, "Matrix")) as.matrix(x) else x
}

# One multi-class model (a multi-class learner, y a factor of the classes).
learner_fit_multi <- function(learner, x, y) {
  if (!learner$sparse && inherits(x, "Matrix")) x <- as.matrix(x)
  do.call(learner$fit, c(list(x, y), learner$params))
}

# Its n x K class probabilities, columns in the order of `classes` (a class
# the learner leaves out gets 0).
learner_predict_multi <- function(learner, model, newx, classes) {
  n <- nrow(newx)
  if (!learner$sparse && inherits(newx, "Matrix")) newx <- as.matrix(newx)
  P <- learner$predict(model, newx)
  if (!is.matrix(P) || !is.numeric(P) || nrow(P) != n || is.null(colnames(P)) ||
      anyNA(P) || any(P < 0))
    stop_arg("the predict function of the multi-class learner '", learner$name,
             "' must return an n x K matrix of class probabilities (", n,
             " rows, no NA, >= 0) with the classes as column names")
  k <- match(classes, colnames(P))
  out <- matrix(0, n, length(classes))
  out[, !is.na(k)] <- P[, k[!is.na(k)], drop = FALSE]
  out
}

# A learner as lewl()'s regressor: function(x, z) giving function(newx), one
# regression per column of z.
learner_regressor <- function(learner) {
  learner <- validate_ml_learner(learner, "regressor")
  if (!learner$regression)
    stop_arg("'regressor': the learner '", learner$name, "' is no regressor ",
             "(ml_learner(regression = TRUE), e.g. ml_learner_ranger())")
  force(learner)
  function(x, z) {
    parts <- lapply(seq_len(ncol(z)), function(j)
      learner_fit_one(learner, x, as.numeric(z[, j])))
    function(newx) learner_predict_labels(learner, parts, newx, colnames(z))
  }
}

# ---- the built-in learners ---------------------------------------------------------

#' @rdname ml_learner
#' @export
ml_learner_ridge <- function(cost = 1, intercept = TRUE) {
  validate_ml_learner(new_ml_learner(
    "ridge", fit = builtin_fit("ridge"), predict = builtin_predict, type = "score",
    sparse = TRUE, params = list(cost = cost, intercept = intercept), regression = TRUE,
    builtin = "ridge"))
}

#' @rdname ml_learner
#' @export
ml_learner_logistic <- function(cost = 1, intercept = TRUE, tol = NULL, max_iter = 1000L) {
  validate_ml_learner(new_ml_learner(
    "logistic", fit = builtin_fit("logistic"), predict = builtin_predict, type = "prob",
    sparse = TRUE, params = list(cost = cost, intercept = intercept, tol = tol,
                                 max_iter = max_iter),
    regression = FALSE, builtin = "logistic"))
}

#' @rdname ml_learner
#' @export
ml_learner_svm <- function(cost = 1, loss = c("squared_hinge", "hinge"), intercept = TRUE,
                           tol = NULL, max_iter = 1000L) {
  validate_ml_learner(new_ml_learner(
    "svm", fit = builtin_fit("svm"), predict = builtin_predict, type = "score",
    sparse = TRUE, params = list(cost = cost, loss = match.arg(loss), intercept = intercept,
                                 tol = tol, max_iter = max_iter),
    regression = FALSE, builtin = "svm"))
}

# The fit of one label by br()'s solvers (or, for ridge and a numeric y, the
# ridge regression of the same objective).
builtin_fit <- function(learner) {
  force(learner)
  function(x, y, cost = 1, intercept = TRUE, loss = "squared_hinge", tol = NULL,
           max_iter = 1000L) {
    cost <- check_cost(cost, 1L)
    intercept <- check_flag(intercept, "intercept")
    if (!is.logical(y)) {
      fit <- mlls_solve(x, matrix(as.numeric(y)), alpha = 0, beta = 1 / (2 * nrow(x) * cost),
                        r = 1L, intercept = intercept, fitted = FALSE)
      return(list(W = fit$U, intercept = fit$intercept, link = "identity"))
    }
    tol <- check_solver_tol(tol, learner, loss)
    fit <- br_fit(x, matrix(y), learner, cost, loss, intercept, tol, check_max_iter(max_iter))
    warn_not_converged(fit$status, "y")
    list(W = fit$W, intercept = fit$intercept, link = fit$link)
  }
}

builtin_predict <- function(model, newx)
  drop(linear_scores(newx, model$W, model$intercept, model$link))

# The settings br() takes from a built-in learner object.
builtin_settings <- function(learner) {
  p <- learner$params
  list(learner = learner$builtin, cost = p$cost, loss = p$loss %||% "squared_hinge",
       intercept = p$intercept %||% TRUE, tol = p$tol, max_iter = p$max_iter %||% 1000L)
}

# ---- adapters ------------------------------------------------------------------------

need_package <- function(pkg, learner) {
  if (!requireNamespace(pkg, quietly = TRUE))
    stop("the ", learner, " learner needs the package '", pkg, "': install.packages(\"",
         pkg, "\")", call. = FALSE)
}

# Column names the adapters' packages want (ranger refuses a matrix without).
named_columns <- function(x) {
  if (is.null(colnames(x))) colnames(x) <- paste0("V", seq_len(ncol(x)))
  x
}

#' @rdname ml_learner
#' @export
ml_learner_e1071 <- function(kernel = "radial", cost = 1, gamma = NULL, probability = TRUE,
                             degree = 3, coef0 = 0, scale = TRUE, ...) {
  need_package("e1071", "e1071")
  fit <- function(x, y, kernel = "radial", cost = 1, gamma = NULL, probability = TRUE,
                  degree = 3, coef0 = 0, scale = TRUE, ...) {
    if (is.null(gamma)) gamma <- 1 / ncol(x)
    if (is.factor(y)) {  # the classes of a label powerset: one libsvm model
      model <- e1071::svm(x, y, type = "C-classification", kernel = kernel, cost = cost,
                          gamma = gamma, degree = degree, coef0 = coef0,
                          probability = probability, scale = scale, ...)
      attr(model, "mlss_multiclass") <- TRUE
      return(model)
    }
    if (is.logical(y))
      e1071::svm(x, factor(y, levels = c(FALSE, TRUE)), type = "C-classification",
                 kernel = kernel, cost = cost, gamma = gamma, degree = degree, coef0 = coef0,
                 probability = probability, scale = scale, ...)
    else
      e1071::svm(x, as.numeric(y), type = "eps-regression", kernel = kernel, cost = cost,
                 gamma = gamma, degree = degree, coef0 = coef0, scale = scale, ...)
  }
  predict <- function(model, newx) {
    if (model$type == 3L) return(as.numeric(stats::predict(model, newx)))
    if (isTRUE(attr(model, "mlss_multiclass"))) {
      if (model$compprob)
        return(attr(stats::predict(model, newx, probability = TRUE), "probabilities"))
      cls <- stats::predict(model, newx)
      return(one_hot(cls, model$levels))
    }
    if (model$compprob) {
      p <- attr(stats::predict(model, newx, probability = TRUE), "probabilities")
      return(p[, "TRUE"])
    }
    dv <- attr(stats::predict(model, newx, decision.values = TRUE), "decision.values")
    # libsvm's decision value is positive for the first of the two classes it met
    if (colnames(dv)[1] == "TRUE/FALSE") dv[, 1] else -dv[, 1]
  }
  validate_ml_learner(with_type_of(new_ml_learner(
    "e1071 svm", fit, predict, type = if (probability) "prob" else "score", sparse = FALSE,
    params = c(list(kernel = kernel, cost = cost, gamma = gamma, probability = probability,
                    degree = degree, coef0 = coef0, scale = scale), list(...)),
    regression = TRUE, multiclass = TRUE), "probability"))
}

#' @rdname ml_learner
#' @export
ml_learner_kernlab <- function(kernel = "rbfdot", C = 1, sigma = NULL, prob.model = TRUE,
                               ...) {
  need_package("kernlab", "kernlab")
  fit <- function(x, y, kernel = "rbfdot", C = 1, sigma = NULL, prob.model = TRUE, ...) {
    kpar <- if (kernel == "rbfdot") {
      if (is.null(sigma)) "automatic" else list(sigma = sigma)
    } else list()
    x <- as.matrix(x)
    if (!is.logical(y) && !is.factor(y))
      return(list(svm = kernlab::ksvm(x, as.numeric(y), type = "eps-svr", kernel = kernel,
                                      kpar = kpar, C = C, scaled = FALSE, ...),
                  what = "regression"))
    if (is.factor(y))
      return(list(svm = kernlab::ksvm(x, y, type = "C-svc", kernel = kernel, kpar = kpar,
                                      C = C, prob.model = prob.model, scaled = FALSE, ...),
                  what = "multiclass", levels = levels(y), prob = prob.model))
    list(svm = kernlab::ksvm(x, factor(y, levels = c(FALSE, TRUE)), type = "C-svc",
                             kernel = kernel, kpar = kpar, C = C, prob.model = prob.model,
                             scaled = FALSE, ...),
         what = if (prob.model) "prob" else "score")
  }
  predict <- function(model, newx) {
    newx <- as.matrix(newx)
    switch(model$what,
           regression = as.numeric(kernlab::predict(model$svm, newx)),
           multiclass = if (model$prob)
             kernlab::predict(model$svm, newx, type = "probabilities")
             else one_hot(kernlab::predict(model$svm, newx), model$levels),
           prob = kernlab::predict(model$svm, newx, type = "probabilities")[, "TRUE"],
           # kernlab's decision value is positive for the second level (TRUE)
           score = as.numeric(kernlab::predict(model$svm, newx, type = "decision")))
  }
  validate_ml_learner(with_type_of(new_ml_learner(
    "kernlab ksvm", fit, predict, type = if (prob.model) "prob" else "score", sparse = FALSE,
    params = c(list(kernel = kernel, C = C, sigma = sigma, prob.model = prob.model),
               list(...)),
    regression = TRUE, multiclass = TRUE), "prob.model"))
}

# The n x K indicator matrix of predicted classes (a multi-class model
# without probabilities), columns named by `levels`.
one_hot <- function(cls, levels) {
  P <- matrix(0, length(cls), length(levels), dimnames = list(NULL, levels))
  P[cbind(seq_along(cls), match(as.character(cls), levels))] <- 1
  P
}

# The learner's type follows its logical parameter `flag` (update() rederives it):
# probabilities when TRUE, decision values when FALSE.
with_type_of <- function(learner, flag) {
  learner$type_of <- function(params) if (isTRUE(params[[flag]])) "prob" else "score"
  learner
}

#' @rdname ml_learner
#' @export
ml_learner_ranger <- function(num.trees = 500, mtry = NULL, min.node.size = NULL,
                              num.threads = 1, ...) {
  need_package("ranger", "ranger")
  fit <- function(x, y, num.trees = 500, mtry = NULL, min.node.size = NULL,
                  num.threads = 1, ...) {
    x <- named_columns(as.matrix(x))
    # ranger draws its seed from R's generator when none is given: set.seed()
    # reproduces the forest
    seed <- sample.int(.Machine$integer.max, 1L)
    model <- if (is.logical(y) || is.factor(y))
      ranger::ranger(x = x, y = if (is.factor(y)) y else factor(y, levels = c(FALSE, TRUE)),
                     probability = TRUE,
                     num.trees = num.trees, mtry = mtry, min.node.size = min.node.size,
                     num.threads = num.threads, seed = seed, ...)
    else
      ranger::ranger(x = x, y = as.numeric(y), num.trees = num.trees, mtry = mtry,
                     min.node.size = min.node.size, num.threads = num.threads,
                     seed = seed, ...)
    attr(model, "num.threads") <- num.threads  # predict on as many threads
    attr(model, "mlss_multiclass") <- is.factor(y)
    model
  }
  predict <- function(model, newx) {
    # a fixed seed: prediction leaves R's random stream where it is
    p <- stats::predict(model, data = named_columns(as.matrix(newx)), seed = 1L,
                        num.threads = attr(model, "num.threads") %||% 1)$predictions
    if (isTRUE(attr(model, "mlss_multiclass"))) return(p)
    if (is.matrix(p)) p[, "TRUE"] else as.numeric(p)
  }
  validate_ml_learner(new_ml_learner(
    "ranger", fit, predict, type = "prob", sparse = FALSE,
    params = c(list(num.trees = num.trees, mtry = mtry, min.node.size = min.node.size,
                    num.threads = num.threads), list(...)),
    regression = TRUE, multiclass = TRUE))
}

#' @rdname ml_learner
#' @export
ml_learner_glmnet <- function(alpha = 1, lambda = 0.01, ...) {
  need_package("glmnet", "glmnet")
  fit <- function(x, y, alpha = 1, lambda = 0.01, ...) {
    if (!inherits(x, "Matrix")) x <- as.matrix(x)
    glmnet::glmnet(x, if (is.logical(y)) factor(y, levels = c(FALSE, TRUE)) else as.numeric(y),
                   family = if (is.logical(y)) "binomial" else "gaussian", alpha = alpha,
                   lambda = lambda, ...)
  }
  predict <- function(model, newx) {
    if (!inherits(newx, "Matrix")) newx <- as.matrix(newx)
    as.numeric(stats::predict(model, newx, type = "response", s = model$lambda[1]))
  }
  validate_ml_learner(new_ml_learner(
    "glmnet", fit, predict, type = "prob", sparse = TRUE,
    params = c(list(alpha = alpha, lambda = lambda), list(...)), regression = TRUE))
}
