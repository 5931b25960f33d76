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
# New data (any `arg` but "x") may be a data set: its test rows (data_rows()).
as_features <- function(x, arg = "x") {
  if (is.null(x)) stop_arg("'", arg, "' is missing")
  if (arg != "x" && inherits(x, c("mlss_data", "mldr"))) x <- data_rows(x, "test", arg)$x
  if (inherits(x, "sparseMatrix")) {
    x <- methods::as(methods::as(methods::as(x, "CsparseMatrix"), "generalMatrix"),
                     "dMatrix")
    check_dims(dim(x), arg)
    check_unique_columns(colnames(x), arg)
    check_sparse_slots(x, arg)
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
  check_unique_columns(colnames(x), arg)
  storage.mode(x) <- "double"
  if (!all(is.finite(range(x))))
    stop_arg("'", arg, "' contains NA, NaN or infinite values")
  x
}

# predict() matches new columns to the training ones by name, so two columns
# of one name would be matched to either: refused, naming them.
check_unique_columns <- function(nm, arg) {
  dup <- unique(nm[duplicated(nm)])
  if (length(dup))
    stop_arg("'", arg, "' has more than one column named ",
             paste0("'", utils::head(dup, 5), "'", collapse = ", "),
             if (length(dup) > 5) paste0(" (and ", length(dup) - 5, " more)"),
             ": give every column its own name (make.unique() does)")
}

check_dims <- function(dims, arg) {
  if (dims[1] == 0) stop_arg("'", arg, "' has no rows")
  if (dims[2] == 0) stop_arg("'", arg, "' has no columns")
}

# Labels: a logical, 0/1 or -1/+1 matrix or data frame (a vector is one label);
# factor and character columns follow label_values(), the one rule shared with
# mlss_data() and the formula interface.  Returns an n x m logical matrix with
# column names.  `ref` names the argument whose rows `y` must match.
# Missing labels (NA) follow `na`: "refuse" (an error that names `fun`, the
# function the user called, and the ones that learn from observed entries),
# "keep" (NA stays in the logical matrix) or "negative" (NA becomes FALSE).
# `observed = TRUE`: `fun` also has na_labels = "observed", which the refusal
# mentions.
as_labels <- function(y, n, arg = "y", ref = "x", na = c("refuse", "keep", "negative"),
                      fun = NULL, observed = FALSE) {
  na <- match.arg(na)
  if (is.null(y)) stop_arg("'", arg, "' is missing")
  if (inherits(y, "Matrix")) y <- as.matrix(y)
  if (is.factor(y) || (is.vector(y) && is.character(y)))
    y <- data.frame(L1 = y, stringsAsFactors = FALSE)
  if (is.data.frame(y)) {
    if (nrow(y) != n) stop_arg("'", ref, "' has ", n, " rows but '", arg, "' has ", nrow(y))
    if (ncol(y) == 0) stop_arg("'", arg, "' has no label columns")
    nm <- names(y)
    y <- matrix(vapply(seq_along(y), function(j) label_values(y[[j]], nm[j], arg), logical(n)),
                n, length(nm), dimnames = list(NULL, nm))
  }
  if (is.vector(y) && (is.numeric(y) || is.logical(y))) y <- matrix(y, ncol = 1)
  if (is.matrix(y) && is.character(y)) {
    y <- matrix(vapply(seq_len(ncol(y)), function(j)
      label_values(y[, j], colnames(y)[j] %||% paste0("L", j), arg), logical(nrow(y))),
      nrow(y), ncol(y), dimnames = dimnames(y))
  }
  if (!is.matrix(y) || !(is.numeric(y) || is.logical(y)))
    stop_arg("'", arg, "' must be a logical, 0/1 or -1/+1 matrix or data frame")
  if (nrow(y) != n)
    stop_arg("'", ref, "' has ", n, " rows but '", arg, "' has ", nrow(y))
  if (ncol(y) == 0) stop_arg("'", arg, "' has no label columns")
  if (na == "refuse" && anyNA(y)) refuse_missing_labels(y, arg, fun, observed)
  if (is.null(colnames(y))) colnames(y) <- paste0("L", seq_len(ncol(y)))
  if (anyDuplicated(colnames(y))) stop_arg("the label names in '", arg, "' are not unique")
  if (is.numeric(y)) {
    vals <- unique(as.vector(y[!is.na(y)]))
    if (all(vals %in% c(0, 1))) {
      y <- y == 1
    } else if (all(vals %in% c(-1, 1))) {
      y <- y == 1
    } else {
      stop_arg("'", arg, "' must be logical, 0/1 or -1/+1; found the value ",
               format(setdiff(vals, c(-1, 0, 1))[1] %||% vals[1]))
    }
  }
  if (na == "negative" && anyNA(y)) y[is.na(y)] <- FALSE
  y
}

# The `na_labels` argument of the functions that pass missing labels on to
# the methods (ml_cv(), ml_compare()): "refuse", "observed" or "negative", as
# match.arg() gives it.  "observed" is the package's one spelling (br() and
# cv_br() use it too); "keep", its old spelling, is accepted with a
# deprecation warning for one release.
na_labels_arg <- function(na_labels, fun) {
  if (identical(na_labels, "keep")) {
    warn_deprecated('na_labels = "keep"', 'na_labels = "observed"', fun)
    return("observed")
  }
  match.arg(na_labels, c("refuse", "observed", "negative"))
}

refuse_missing_labels <- function(y, arg, fun, observed = FALSE) {
  if (arg != "y") stop_arg("'", arg, "' contains NA")
  who <- if (is.null(fun)) "this function" else paste0(fun, "()")
  stop_arg("'", arg, "' contains NA: ", sum(is.na(y)), " missing label(s), which ", who,
           " does not handle by default; lewl() learns from the observed entries only",
           if (!is.null(fun) && observed)
             paste0(", as does ", fun, "(na_labels = \"observed\") label by label"),
           if (!is.null(fun)) paste0(", or treat them as negatives with ", fun,
                                     "(na_labels = \"negative\")"))
}

# The one rule for a label column, wherever labels come from (matrices, data
# frames, formulas, mlss_data()); NA stays NA.
# * logical: as it is;  numeric: 0/1 or -1/+1, positive where 1;
# * factor: levels among 0/1, -1/1 or FALSE/TRUE: positive where "1" or
#   "TRUE"; any other factor with exactly two levels: the second level is the
#   positive one, as for glm()'s binomial response;
# * character: the values 0/1, -1/1 or FALSE/TRUE only (a character vector
#   has no order of levels that could say which value is positive).
label_values <- function(v, nm, arg = NULL) {
  what <- if (is.null(arg)) paste0("the label '", nm, "'")
          else paste0("label column '", nm, "' of '", arg, "'")
  coded <- function(values) {
    u <- unique(values[!is.na(values)])
    all(u %in% c("0", "1")) || all(u %in% c("-1", "1")) || all(u %in% c("FALSE", "TRUE"))
  }
  if (is.factor(v)) {
    lv <- levels(v)
    if (coded(lv)) {
      out <- as.character(v) %in% c("1", "TRUE")
      out[is.na(v)] <- NA
      return(out)
    }
    if (length(lv) == 2L) return(v == lv[2L])
    stop_arg(what, " is a factor with ", length(lv), " levels {",
             paste(utils::head(lv, 5), collapse = ","), if (length(lv) > 5) ",...",
             "}; a label factor needs two levels, the second one being the positive")
  }
  if (is.character(v)) {
    if (!coded(v))
      stop_arg(what, " must have the values 0 and 1 (or FALSE and TRUE), or be a factor ",
               "with two levels")
    out <- v %in% c("1", "TRUE")
    out[is.na(v)] <- NA
    return(out)
  }
  if (is.logical(v)) return(v)
  if (!is.numeric(v)) stop_arg(what, " is ", class(v)[1], ", not logical or 0/1")
  vals <- unique(v[!is.na(v)])
  if (!(all(vals %in% c(0, 1)) || all(vals %in% c(-1, 1))))
    stop_arg(what, " must be logical, 0/1 or -1/+1")
  v == 1
}

# A data set where features and labels are expected: an mlss_data or mldr
# object given as `x`, its labels inside (so `y` is left out), becomes the
# pair, its training rows only when it has a train/test split (data_rows());
# anything else passes through.  Called by the default methods of the
# fitting and cv functions as xy <- ml_xy(x, y): the one place a data set's
# split is honoured for every method.
ml_xy <- function(x, y) {
  if (inherits(x, c("mlss_data", "mldr"))) {
    if (!missing(y) && !is.null(y))
      stop_arg("'x' is ", if (inherits(x, "mldr")) "an mldr" else "an mlss_data",
               " object, which holds the labels: leave 'y' out (and give the other ",
               "arguments by name)")
    return(data_rows(x, "train"))
  }
  list(x = x, y = if (!missing(y)) y)
}

# The rows of a data set a fit learns from (part = "train") or predict()
# scores (part = "test"): with a train/test split (`train` not NULL) that
# part only, else every row.  Fitting on the training rows is said once per
# session, so that a leak of the test rows into a fit cannot go unnoticed and
# a loop of fits is not flooded.
data_rows <- function(data, part = c("train", "test"), arg = "x") {
  part <- match.arg(part)
  d <- as_mlss_data(data)
  if (is.null(d$train)) return(list(x = d$x, y = d$y))
  rows <- if (part == "train") d$train else !d$train
  if (!any(rows))
    stop_arg("'", arg, "' is a data set whose train/test split has no ", part, " rows: ",
             "drop the split (d$train <- NULL) to use every row")
  if (part == "train") split_message(d)
  list(x = d$x[rows, , drop = FALSE], y = d$y[rows, , drop = FALSE])
}

split_state <- new.env(parent = emptyenv())

split_message <- function(d) {
  if (isTRUE(split_state$told)) return(invisible())
  split_state$told <- TRUE
  name <- if (!is.null(d$name) && nzchar(d$name)) paste0(" of '", d$name, "'") else ""
  message("Fitting on the ", sum(d$train), " training rows", name, " (its train/test ",
          "split); predict(fit, <the data set>) scores its ", sum(!d$train), " test rows. ",
          "To fit on every row, drop the split first: d$train <- NULL. ",
          "(Said once per session.)")
}

`%||%` <- function(a, b) if (length(a)) a else b

# A label without positives (or without negatives) is kept: its scores are
# constant and it is never (always) predicted.  Say so once.
# With missing labels (NA), on each label's observed entries.
warn_constant_labels <- function(y) {
  npos <- colSums(y, na.rm = TRUE)
  none <- colnames(y)[npos == 0]
  all <- colnames(y)[npos == colSums(!is.na(y))]
  if (length(none))
    warning("label(s) ", paste0("'", none, "'", collapse = ", "),
            " have no positive example: kept, but never predicted", call. = FALSE)
  if (length(all))
    warning("label(s) ", paste0("'", all, "'", collapse = ", "),
            " are positive for every example: kept, and always predicted",
            call. = FALSE)
  invisible(npos)
}

# A label with no observed entry cannot be learnt from its observed rows.
check_observed_labels <- function(y) {
  never <- colnames(y)[colSums(!is.na(y)) == 0]
  if (length(never))
    stop_arg("label(s) ", paste0("'", never, "'", collapse = ", "),
             " are missing (NA) on every row: nothing to learn them from")
  invisible()
}

check_penalty <- function(value, arg) {
  if (missing(value)) {
    # the user's function (the innermost exported one that called this):
    # its own cv_*() where it has one, else ml_cv()
    names <- vapply(sys.calls(), function(cl) if (is.name(cl[[1L]]))
      sub("\\.(default|formula)$", "", as.character(cl[[1L]])) else "", "")
    fun <- utils::tail(names[names %in% getNamespaceExports("mlss")], 1L)
    own <- c(mlls = "cv_mlls()", ssmddm = "cv_ssmddm()", cplst = "cv_cplst()")
    cv <- if (length(fun) && fun %in% names(own)) own[[fun]] else
      paste0("ml_cv(x, y, fit = ", if (length(fun)) fun else "<the method>", ", grid = ...)")
    stop_arg("'", arg, "' is missing: give a value >= 0, or choose it by cross-validation ",
             "with ", cv)
  }
  check_number(value, arg, 0, finite = FALSE)
}

# The paper's default r = 5 floor((m - 1) / 5), at least 1.
default_rank <- function(m) max(1L, 5L * ((m - 1L) %/% 5L))

check_rank <- function(r, m) {
  if (is.null(r)) return(as.integer(default_rank(m)))
  check_whole(r, "r")  # 1e10, Inf stay as they are: the caller caps them
}

# ---- the numeric argument checkers ----------------------------------------------
# One number (check_number()) or one whole number (check_whole()): every
# numeric argument goes through one of the two, or through a checker built on
# them below, so that the errors read alike (they name the argument and say
# what it must be).

# A single number in [lower, upper] (> lower when `above`), finite unless
# `finite = FALSE`; `what` replaces the description the bounds give.
check_number <- function(value, arg, lower = -Inf, upper = Inf, finite = TRUE, above = FALSE,
                         what = NULL) {
  if (!is.numeric(value) || length(value) != 1 || is.na(value) ||
      (finite && !is.finite(value)) || value < lower || (above && value == lower) ||
      value > upper)
    stop_arg("'", arg, "' must be ", what %||% number_words(lower, upper, finite, above))
  as.numeric(value)
}

number_words <- function(lower, upper, finite, above) {
  if (is.finite(upper))
    return(paste0("a single number in ", if (above) "(" else "[", lower, ", ", upper, "]"))
  if (above && lower == 0 && finite) return("a single positive number")
  paste0("a single ", if (finite) "finite ", "number ", if (above) "> " else ">= ", lower,
         if (!finite) " (Inf allowed)")
}

# A single whole number in [lower, upper]: an integer, or the number as it is
# beyond the integers (upper = Inf lets 1e10 and Inf through, for a caller
# that caps them); `what` replaces the description the bounds give.
check_whole <- function(value, arg, lower = 1, upper = Inf, what = NULL) {
  if (!is.numeric(value) || length(value) != 1 || is.na(value) || value != round(value) ||
      value < lower || value > upper)
    stop_arg("'", arg, "' must be ", what %||% if (is.finite(upper))
      paste0("a whole number from ", lower, " to ", upper) else
      paste0("a whole number >= ", lower))
  if (abs(value) <= .Machine$integer.max) as.integer(value) else value
}

# Built on the two: a count (an iteration limit, a beam width), a positive or
# non-negative finite number.
check_count <- function(value, arg) {
  check_whole(value, arg, 1, .Machine$integer.max, what = "a whole number >= 1")
}

check_max_iter <- function(max_iter) check_count(max_iter, "max_iter")

check_positive <- function(value, arg) check_number(value, arg, 0, above = TRUE)

check_nonnegative <- function(v, arg) check_number(v, arg, 0)

check_flag <- function(value, arg) {
  if (!is.logical(value) || length(value) != 1 || is.na(value))
    stop_arg("'", arg, "' must be TRUE or FALSE")
  value
}

# Rows of new data for predict(): the d training columns, matched by name when
# both sides have names (an error names the missing and the unknown ones).
check_newx_columns <- function(newx, features, d, arg = "newx") {
  nm <- colnames(newx)
  named <- !is.null(features) && !is.null(nm)
  missing_cols <- if (named) setdiff(features, nm)
  unknown <- if (named) setdiff(nm, features)
  which_cols <- paste(c(
    if (length(missing_cols)) paste0("no column for the feature(s) ", label_names(missing_cols)),
    if (length(unknown)) paste0("column(s) ", label_names(unknown), " not in the training data")),
    collapse = "; ")
  if (ncol(newx) != d)
    stop_arg("'", arg, "' has ", ncol(newx), " columns but the model was fitted on ", d,
             if (nzchar(which_cols)) paste0(": ", which_cols))
  if (length(missing_cols))
    stop_arg("the column names of '", arg, "' differ from the training features: ", which_cols)
  if (named && !identical(nm, features)) newx <- newx[, features, drop = FALSE]
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

# A dgCMatrix whose slots were edited by hand skips Matrix's validity check:
# refuse it (src/glue.c says why, O(nnz)) before any code, ours or Matrix's,
# reads an index.
check_sparse_slots <- function(x, arg) {
  if (!inherits(x, "dgCMatrix")) return(invisible(x))
  bad <- .Call(C_sparse_problem_call, native_matrix(x), arg)
  if (!is.null(bad)) stop_arg(bad)
  invisible(x)
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
# `na.action` applies to the features only: a row whose only NA is a label
# is kept, its NA going on to the fitting function's rule for missing labels
# (na.omit would otherwise drop partly labelled rows without a word).
model_data <- function(call, na.action, env) {
  mf <- call
  names(mf)[names(mf) == "x"] <- "formula"
  keep <- match(c("formula", "data", "subset"), names(mf), 0L)
  mf <- mf[c(1L, keep)]
  mf$na.action <- stats::na.pass
  mf$drop.unused.levels <- TRUE
  mf[[1L]] <- quote(stats::model.frame)
  mf$data <- label_columns_as_logical(mf$formula, mf$data, env)
  mf <- eval(mf, env)
  terms <- attr(mf, "terms")
  na.action <- match.fun(na.action)
  features <- if (attr(terms, "response")) mf[-1L] else mf
  if (length(features)) {
    omitted <- attr(na.action(features), "na.action")
    if (length(omitted)) {
      mf <- mf[-as.integer(omitted), , drop = FALSE]
      attr(mf, "terms") <- terms
      if (any(vapply(mf[-1L], is.factor, NA))) mf <- droplevels(mf)
      attr(mf, "terms") <- terms
    }
  }
  y <- stats::model.response(mf)
  if (is.null(y))
    stop_arg("the formula has no labels on its left-hand side, e.g. cbind(l1, l2) ~ .")
  if (is.null(dim(y)))
    y <- matrix(y, ncol = 1, dimnames = list(NULL, deparse(stats::formula(terms)[[2L]])))
  xm <- stats::model.matrix(terms, mf)
  list(x = xm[, colnames(xm) != "(Intercept)", drop = FALSE], y = y,
       formula_parts = list(terms = terms, xlevels = stats::.getXlevels(terms, mf),
                            contrasts = attr(xm, "contrasts"), na.action = na.action))
}

# cbind() turns a factor into its codes (1, 2), so the label columns that the
# left-hand side names are made logical (label_values()) in a copy of the
# data before model.frame() sees them.  Returns the data (or its expression,
# unchanged, when there is nothing to convert).
label_columns_as_logical <- function(formula, data, env) {
  if (is.null(data)) return(data)
  f <- eval(formula, env)
  if (!inherits(f, "formula") || length(f) != 3L) return(data)
  lhs <- f[[2L]]
  vars <- if (is.call(lhs) && identical(lhs[[1L]], as.name("cbind"))) as.list(lhs)[-1L]
          else list(lhs)
  df <- eval(data, env)
  if (!is.data.frame(df)) return(data)
  nm <- vapply(vars, function(v) if (is.name(v)) as.character(v) else NA_character_, "")
  nm <- nm[nm %in% names(df)]
  nm <- nm[vapply(df[nm], function(v) is.factor(v) || is.character(v), logical(1))]
  if (!length(nm)) return(data)
  for (j in nm) df[[j]] <- label_values(df[[j]], j, "data")
  df
}

# A fit from the default method, with the call of the formula method and what
# predict() needs to rebuild the features (see model_data(), prediction_rows()).
with_formula <- function(fit, md, call, name) {
  call[[1L]] <- name
  fit$call <- call
  structure(c(unclass(fit), md$formula_parts), class = class(fit))
}

# The label vectors of predict(type = "prob", y = ): matched to the model's
# labels by column name when `y` has names (a label order other than the
# model's would otherwise give the probability of other vectors, silently),
# by position only when it has none.  NA is kept (the caller decides).  With
# `y` left out and a data set as `newx`, the labels of its test rows.
prob_labels <- function(y, newx, labels, n) {
  if (is.null(y) && inherits(newx, c("mlss_data", "mldr"))) y <- data_rows(newx, "test", "newx")$y
  if (is.null(y)) stop_arg("type = \"prob\" needs the label vectors 'y', one per row of 'newx'")
  named <- (is.matrix(y) || is.data.frame(y)) && !is.null(colnames(y))
  y <- as_labels(y, n, "y", "newx", na = "keep")
  m <- length(labels)
  if (!named) {
    if (ncol(y) != m)
      stop_arg("'y' has ", ncol(y), " columns but the model has ", m, " labels: give one ",
               "column per label, named by the labels (", label_names(labels), ")")
    return(y)
  }
  missing_labels <- setdiff(labels, colnames(y))
  if (length(missing_labels))
    stop_arg("'y' has no column for the label(s) ", label_names(missing_labels),
             if (length(missing_labels) == m) ": its column names must be the model's labels")
  unknown <- setdiff(colnames(y), labels)
  if (length(unknown))
    stop_arg("'y' has column(s) ", label_names(unknown), " that are not labels of the model")
  y[, labels, drop = FALSE]
}

label_names <- function(nm, max = 5) {
  paste0(paste0("'", utils::head(nm, max), "'", collapse = ", "),
         if (length(nm) > max) paste0(" (and ", length(nm) - max, " more)"))
}

# Per-label values given with names (predict()'s `thresholds`): one per label,
# matched by name, returned in the model's label order; an unknown or missing
# name is an error rather than a value used by position.
check_label_names <- function(v, labels, arg = "thresholds") {
  nm <- names(v)
  unknown <- unique(setdiff(nm, labels))
  if (length(unknown))
    stop_arg("'", arg, "' names ", label_names(ifelse(nzchar(unknown), unknown, "")),
             ", not label(s) of the model (", label_names(labels), "); ",
             "give one value per label named by the labels, or unnamed values in their order")
  if (anyDuplicated(nm))
    stop_arg("'", arg, "' names the label(s) ", label_names(unique(nm[duplicated(nm)])),
             " more than once")
  missing_labels <- setdiff(labels, nm)
  if (length(missing_labels))
    stop_arg("'", arg, "' has no value for the label(s) ", label_names(missing_labels),
             ": name every label, or give one unnamed value for all")
  v[labels]
}
