# Normalising and checking the arguments every solver shares.  Errors name the
# argument and say what was expected; they come from here, not from C.

stop_arg <- function(...) stop(..., call. = FALSE)

# Arguments a function does not know (it takes `...` only to allow methods):
# an error naming them, where R would otherwise drop them without a word.
# Called as check_no_dots(...); the arguments are not evaluated.
check_no_dots <- function(...) {
  if (!...length()) return(invisible())
  args <- match.call(expand.dots = FALSE)$...
  nm <- names(args)
  if (is.null(nm)) nm <- rep("", length(args))
  nm[nm == ""] <- vapply(args[nm == ""], function(a) paste(deparse(a, nlines = 1L), collapse = ""), "")
  stop_arg("unknown argument(s): ", paste(nm, collapse = ", "))
}

# Features: a numeric matrix, a data frame of numeric (or logical) columns, or
# a sparse Matrix (returned as a dgCMatrix, never densified).
as_features <- function(x, arg = "x") {
  if (is.null(x)) stop_arg("'", arg, "' is missing")
  if (inherits(x, "sparseMatrix")) {
    x <- methods::as(methods::as(methods::as(x, "CsparseMatrix"), "generalMatrix"),
                     "dMatrix")
    check_dims(dim(x), arg)
    if (!all(is.finite(range(x@x, 0))))
      stop_arg("'", arg, "' contains NA, NaN or infinite values")
    return(x)
  }
  if (inherits(x, "Matrix")) x <- as.matrix(x)
  if (is.data.frame(x)) {
    ok <- vapply(x, function(col) is.numeric(col) || is.logical(col), logical(1))
    if (!all(ok)) {
      bad <- names(x)[!ok][1]
      stop_arg("column '", bad, "' of '", arg, "' is ", class(x[[bad]])[1],
               ", not numeric; convert it, or use the formula interface, which ",
               "expands factors into indicator columns")
    }
    x <- as.matrix(x)
  }
  if (is.vector(x) && (is.numeric(x) || is.logical(x))) x <- matrix(x, ncol = 1)
  if (!is.matrix(x) || !(is.numeric(x) || is.logical(x)))
    stop_arg("'", arg, "' must be a numeric matrix, a data frame of numeric ",
             "columns or a sparse Matrix, not ", class(x)[1])
  check_dims(dim(x), arg)
  storage.mode(x) <- "double"
  if (!all(is.finite(range(x))))
    stop_arg("'", arg, "' contains NA, NaN or infinite values")
  x
}

check_dims <- function(dims, arg) {
  if (dims[1] == 0) stop_arg("'", arg, "' has no rows")
  if (dims[2] == 0) stop_arg("'", arg, "' has no columns")
}

# Labels: a logical, 0/1 or -1/+1 matrix or data frame (a vector is one label).
# Returns an n x m logical matrix with column names.
as_labels <- function(y, n, arg = "y") {
  if (is.null(y)) stop_arg("'", arg, "' is missing")
  if (inherits(y, "Matrix")) y <- as.matrix(y)
  if (is.data.frame(y)) {
    ok <- vapply(y, function(col) is.numeric(col) || is.logical(col), logical(1))
    if (!all(ok))
      stop_arg("label column '", names(y)[!ok][1], "' of '", arg,
               "' must be logical, 0/1 or -1/+1")
    y <- as.matrix(y)
  }
  if (is.vector(y) && (is.numeric(y) || is.logical(y))) y <- matrix(y, ncol = 1)
  if (!is.matrix(y) || !(is.numeric(y) || is.logical(y)))
    stop_arg("'", arg, "' must be a logical, 0/1 or -1/+1 matrix or data frame")
  if (nrow(y) != n)
    stop_arg("'x' has ", n, " rows but '", arg, "' has ", nrow(y))
  if (ncol(y) == 0) stop_arg("'", arg, "' has no label columns")
  if (anyNA(y))
    stop_arg("'", arg, "' contains NA; missing labels are not allowed here")
  if (is.null(colnames(y))) colnames(y) <- paste0("L", seq_len(ncol(y)))
  if (anyDuplicated(colnames(y))) stop_arg("the label names in '", arg, "' are not unique")
  if (is.numeric(y)) {
    vals <- unique(as.vector(y))
    if (all(vals %in% c(0, 1))) {
      y <- y == 1
    } else if (all(vals %in% c(-1, 1))) {
      y <- y == 1
    } else {
      stop_arg("'", arg, "' must be logical, 0/1 or -1/+1; found the value ",
               format(setdiff(vals, c(-1, 0, 1))[1] %||% vals[1]))
    }
  }
  y
}

`%||%` <- function(a, b) if (length(a)) a else b

# A label without positives (or without negatives) is kept: its scores are
# constant and it is never (always) predicted.  Say so once.
warn_constant_labels <- function(y) {
  npos <- colSums(y)
  none <- colnames(y)[npos == 0]
  all <- colnames(y)[npos == nrow(y)]
  if (length(none))
    warning("label(s) ", paste0("'", none, "'", collapse = ", "),
            " have no positive example: kept, but never predicted", call. = FALSE)
  if (length(all))
    warning("label(s) ", paste0("'", all, "'", collapse = ", "),
            " are positive for every example: kept, and always predicted",
            call. = FALSE)
  invisible(npos)
}

check_penalty <- function(value, arg) {
  if (missing(value))
    stop_arg("'", arg, "' is missing: give a value >= 0, or let cv_mlls() choose it")
  if (!is.numeric(value) || length(value) != 1 || is.na(value) || value < 0)
    stop_arg("'", arg, "' must be a single number >= 0 (Inf allowed)")
  as.numeric(value)
}

# The paper's default r = 5 floor((m - 1) / 5), at least 1.
default_rank <- function(m) max(1L, 5L * ((m - 1L) %/% 5L))

check_rank <- function(r, m) {
  if (is.null(r)) return(as.integer(default_rank(m)))
  if (!is.numeric(r) || length(r) != 1 || is.na(r) || r < 1 || r != round(r))
    stop_arg("'r' must be a whole number >= 1")
  if (r > .Machine$integer.max) return(r)  # 1e10, Inf: the caller caps it
  as.integer(r)
}

check_flag <- function(value, arg) {
  if (!is.logical(value) || length(value) != 1 || is.na(value))
    stop_arg("'", arg, "' must be TRUE or FALSE")
  value
}

# Rows of new data for predict(): the d training columns, matched by name when
# both sides have names.
check_newx_columns <- function(newx, features, d) {
  if (ncol(newx) != d)
    stop_arg("'newx' has ", ncol(newx), " columns but the model was fitted on ", d)
  nm <- colnames(newx)
  if (!is.null(features) && !is.null(nm) && !identical(nm, features)) {
    if (!setequal(nm, features))
      stop_arg("the column names of 'newx' differ from the training features")
    newx <- newx[, features, drop = FALSE]
  }
  newx
}

# Relative tolerance of the decomposition: singular values of the centred data
# (when decomposed directly) or eigenvalues of a Gram or kernel matrix below
# tol times the largest count as zero.  The default is the noise level of
# either: max(n, d) * eps.
check_tol <- function(tol, x) {
  if (is.null(tol)) tol <- max(dim(x)) * .Machine$double.eps
  if (!is.numeric(tol) || length(tol) != 1 || is.na(tol) || !(tol >= 0 && tol < 1))
    stop_arg("'tol' must be a number in [0, 1)")
  as.numeric(tol)
}

# Arguments for the C glue: the slots of a dgCMatrix or a dense matrix.
native_matrix <- function(x) {
  if (inherits(x, "dgCMatrix"))
    list(x = x@x, i = x@i, p = x@p, dim = x@Dim)
  else
    list(x = x, i = NULL, p = NULL, dim = dim(x))
}

# The formula interface shared by the fitting functions: `call` is the
# method's match.call(expand.dots = FALSE), whose first argument `x` is the
# formula.  Returns the feature matrix (factors expanded, no intercept
# column), the labels, and what predict() needs to rebuild the features.
model_data <- function(call, na.action, env) {
  mf <- call
  names(mf)[names(mf) == "x"] <- "formula"
  keep <- match(c("formula", "data", "subset"), names(mf), 0L)
  mf <- mf[c(1L, keep)]
  mf$na.action <- na.action
  mf$drop.unused.levels <- TRUE
  mf[[1L]] <- quote(stats::model.frame)
  mf <- eval(mf, env)
  terms <- attr(mf, "terms")
  y <- stats::model.response(mf)
  if (is.null(y))
    stop_arg("the formula has no labels on its left-hand side, e.g. cbind(l1, l2) ~ .")
  if (is.null(dim(y)))
    y <- matrix(y, ncol = 1, dimnames = list(NULL, deparse(stats::formula(terms)[[2L]])))
  xm <- stats::model.matrix(terms, mf)
  list(x = xm[, colnames(xm) != "(Intercept)", drop = FALSE], y = y,
       formula_parts = list(terms = terms, xlevels = stats::.getXlevels(terms, mf),
                            contrasts = attr(xm, "contrasts")))
}
