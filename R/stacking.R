#' Stacked binary relevance: BR+ (meta-level stacking) and DBR
#'
#' Two layers of binary relevance ([br()]), the second seeing the features
#' and what the first says about the labels.
#' * `brplus()`, stacking after Godbole and Sarawagi (2004): the first layer
#'   is BR on `x`; label \eqn{l}'s second-layer model is fitted on `x` plus
#'   the first layer's scores of every label (its own included).  The
#'   first-layer scores of the training rows are out-of-fold ones when
#'   `inner_folds` >= 2 (each fold's rows scored by a first layer fitted on
#'   the other folds; the folds `sample(rep_len(1:inner_folds, n))` from R's
#'   generator), or those of the first layer on all rows (`inner_folds = 1`).
#' * `dbr()`, dependent binary relevance (Montanes, Senge, Barranquero,
#'   Quevedo, del Coz and Huellermeier 2014): label \eqn{l}'s second-layer
#'   model is fitted on `x` plus the true values of the other labels; a new
#'   row gets, in their place, the first layer's class predictions of the
#'   other labels.
#'
#' The first layer is `br(x, y, learner, cost)`; its class predictions (for
#' `dbr()`) are its scores above the learner's natural cut (1/2 on the
#' probabilities of `"logistic"`, 0 on the decision values of `"ridge"` and
#' `"svm"`), given to the second layer as 0/1 columns.
#' `predict(type = "score")` gives the second layer's scores, and
#' `type = "class"` cuts them at the natural cut (the fit's `cut`; thresholds given to `predict()` or
#' stored by [cv_brplus()] / [cv_dbr()] replace it).
#'
#' @param x,y As in [br()] (an [mlss_data()] or `mldr` object as `x`: its
#'   training rows, `y` left out; for the formula methods, a formula
#'   `cbind(l1, l2) ~ .`); `y` without `NA`.  A sparse `x` stays sparse (the
#'   added columns are appended as sparse ones).
#' @param data,subset,na.action For the formula methods, as in [lm()].
#' @param learner,cost Both layers' learner and cost, as in [br()]:
#'   `"logistic"` (default), `"ridge"` or `"svm"`; one positive number.
#'   The logistic and SVM learners penalise their intercept, so a
#'   constant added to a column of `x` changes their fits (see [br()]); the
#'   ridge learner's do not.
#' @param inner_folds `brplus()`: the folds of the first layer's training
#'   scores (a whole number >= 1; 1 uses the scores of the fit on all rows).
#' @param ... Passed to [br()] (`tol`, `max_iter`, `loss`, `intercept`); for
#'   the formula methods, the arguments of the default method.
#' @return An object of class `c("brplus", "ml_stack", "ml_fit")` or
#'   `c("dbr", "ml_stack", "ml_fit")`, predicted by [predict.ml_fit()]:
#'   `first` (the first layer's [br()] fit), `second` (`brplus()`: one
#'   [br()] fit of all labels; `dbr()`: a list of one [br()] fit per label),
#'   `folds` (`brplus()`: the inner folds, or `NULL`), `learner`, `cut`,
#'   `labels`, `features`, `nobs`, `call`, and the fields of the contract.
#' @references Godbole S. and Sarawagi S. (2004). Discriminative methods for
#'   multi-labeled classification. PAKDD 2004, LNCS 3056, 22-30.
#'
#'   Montanes E., Senge R., Barranquero J., Quevedo J. R., del Coz J. J. and
#'   Huellermeier E. (2014). Dependent binary relevance models for multi-label
#'   classification. Pattern Recognition 47(3), 1494-1508.
#' @seealso [cv_brplus()], [br()], [cc()].
#' @aliases dbr dbr.default dbr.formula print.ml_stack predict.ml_stack
#' @examples
#' d <- mlss::emotions
#' set.seed(1)
#' fit <- brplus(d, inner_folds = 3)
#' fit
#' head(predict(fit, d, type = "score"))
#' head(predict(dbr(d), d))
#' @export
brplus <- function(x, ...) UseMethod("brplus")

#' @rdname brplus
#' @export
brplus.default <- function(x, y, learner = c("logistic", "ridge", "svm"), cost = 1,
                           inner_folds = 5, ...) {
  call <- match.call()
  call[[1L]] <- quote(brplus)
  learner <- match.arg(learner)
  check_whole(inner_folds, "inner_folds", 1, what = "one whole number >= 1")
  xy <- ml_xy(x, if (!missing(y)) y)
  x <- as_features(xy$x)
  y <- as_labels(xy$y, nrow(x), fun = "brplus")
  n <- nrow(x)
  if (inner_folds > n) stop_arg("'inner_folds' must be at most the number of rows (", n, ")")
  first <- br(x, y, learner = learner, cost = cost, ...)
  folds <- NULL
  if (inner_folds == 1) {
    z <- ml_scores(first, x)
  } else {
    folds <- sample(rep_len(seq_len(inner_folds), n))
    z <- matrix(0, n, ncol(y))
    for (f in seq_len(inner_folds)) {
      out <- folds == f
      inner <- quiet_constant(br(x[!out, , drop = FALSE], y[!out, , drop = FALSE],
                                 learner = learner, cost = cost, ...))
      z[out, ] <- ml_scores(inner, x[out, , drop = FALSE])
    }
  }
  second <- br(stack_features(x, z), y, learner = learner, cost = cost, ...)
  new_ml_fit(list(first = first, second = second, folds = folds, learner = learner,
                  labels = colnames(y), features = colnames(x), nobs = n, call = call),
             c("brplus", "ml_stack"),
             cut = stats::setNames(rep(natural_cut(learner), ncol(y)), colnames(y)),
             n_features = ncol(x))
}

#' @rdname brplus
#' @export
brplus.formula <- function(x, data, subset, na.action = stats::na.fail, ...) {
  md <- model_data(match.call(expand.dots = FALSE), na.action, parent.frame())
  fit <- brplus.default(md$x, md$y, ...)
  with_formula(fit, md, match.call(), quote(brplus))
}

#' @rdname brplus
#' @export
dbr <- function(x, ...) UseMethod("dbr")

#' @rdname brplus
#' @export
dbr.default <- function(x, y, learner = c("logistic", "ridge", "svm"), cost = 1, ...) {
  call <- match.call()
  call[[1L]] <- quote(dbr)
  learner <- match.arg(learner)
  xy <- ml_xy(x, if (!missing(y)) y)
  x <- as_features(xy$x)
  y <- as_labels(xy$y, nrow(x), fun = "dbr")
  m <- ncol(y)
  if (m < 2) stop_arg("'y' must have at least two labels (DBR adds the others as features)")
  first <- br(x, y, learner = learner, cost = cost, ...)
  second <- lapply(seq_len(m), function(l)
    br(stack_features(x, y[, -l, drop = FALSE] + 0), y[, l, drop = FALSE], learner = learner,
       cost = cost, ...))
  new_ml_fit(list(first = first, second = second, learner = learner, labels = colnames(y),
                  features = colnames(x), nobs = nrow(x), call = call),
             c("dbr", "ml_stack"),
             cut = stats::setNames(rep(natural_cut(learner), m), colnames(y)),
             n_features = ncol(x))
}

#' @rdname brplus
#' @export
dbr.formula <- function(x, data, subset, na.action = stats::na.fail, ...) {
  md <- model_data(match.call(expand.dots = FALSE), na.action, parent.frame())
  fit <- dbr.default(md$x, md$y, ...)
  with_formula(fit, md, match.call(), quote(dbr))
}

# x with the columns z appended (sparse when x is).
stack_features <- function(x, z) {
  z <- unname(as.matrix(z) + 0)
  if (inherits(x, "sparseMatrix")) {
    x@Dimnames <- list(NULL, NULL)
    return(methods::cbind2(x, methods::as(methods::as(z, "CsparseMatrix"), "generalMatrix")))
  }
  cbind(unname(x), z)
}

ml_scores.brplus <- function(object, x, type = "score", y = NULL, ...) {
  check_no_options(list(...))
  unname(ml_scores(object$second, stack_features(x, ml_scores(object$first, x))))
}

ml_scores.dbr <- function(object, x, type = "score", y = NULL, ...) {
  check_no_options(list(...))
  z <- ml_scores(object$first, x) > natural_cut(object$learner)
  out <- vapply(seq_along(object$second), function(l)
    as.vector(ml_scores(object$second[[l]], stack_features(x, z[, -l, drop = FALSE]))),
    numeric(nrow(x)))
  matrix(out, nrow(x))
}

#' @export
print.ml_stack <- function(x, ...) {
  cat("\nCall:  ", paste(deparse(x$call), sep = "\n", collapse = "\n"), "\n\n", sep = "")
  what <- if (inherits(x, "dbr")) "Dependent binary relevance (second layer on x and the other labels)"
    else paste0("BR+ stacking (second layer on x and the first layer's ",
                if (is.null(x$folds)) "training" else paste0(max(x$folds), "-fold out-of-fold"),
                " scores)")
  cat(what, ": ", x$learner, " models on ", x$nobs, " instances, ", length(x$features),
      " features, ", length(x$labels), " labels\n\n", sep = "")
  invisible(x)
}
