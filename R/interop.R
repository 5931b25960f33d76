#' Multi-label data sets: build, convert, hand to mldr
#'
#' An `"mlss_data"` object is a list with the features `x` (an n x d numeric
#' matrix or a sparse `Matrix::dgCMatrix`, column names the feature names),
#' the labels `y` (an n x m logical matrix, column names the label names),
#' `train` (`NULL`, or a logical vector marking the rows of a training part),
#' `name` and `relation` (the ARFF relation name, or `NULL`).  [read_mulan()],
#' [read_meka()] and [read_libsvm_ml()] return one; the bundled [yeast],
#' [emotions] and [scene] are ones.  The object goes straight into the
#' fitting and cross-validation functions that take one ([mlls()], [mddm()],
#' [ssmddm()], [br()], [cplst()], [lewl()], [mlknn()], [iblr()], [mlml()],
#' the `cv_*()` functions, [ml_cv()] and [ml_compare()]) as `x`, with `y` left
#' out, and so does an `mldr` object.
#'
#' @section The train/test split:
#' A fit (or a cross-validation, or [ml_compare()]) on an object with a split
#' (`train` not `NULL`) learns from its training rows only, and `predict(fit,
#' d)` scores its test rows (`predict(type = "prob")` of [pcc()] and
#' [mlcrf()] then takes the test rows' labels when `y` is left out), so that
#' Mulan's test files never leak into a fit.  The first such fit of a session
#' says so in a message.  To use every row, drop the split first:
#' `d$train <- NULL`; to choose other rows, give matrices:
#' `mlls(d$x[rows, ], d$y[rows, ], ...)`.  Without a split every row is used
#' both ways.
#'
#' `mlss_data()` builds one from its parts; `NA` is allowed in `x` and `y`
#' (the solvers refuse it later).  `as_mlss_data()` converts:
#' * a data frame, whose label columns are named by `labels` (logical, 0/1,
#'   -1/+1, or factors with two levels, the second positive, as in [mlls()])
#'   and whose other columns are the
#'   features; factor and character features become columns as in
#'   [read_mulan()]: one 0/1 column for the levels `{0,1}`, else one
#'   indicator column per level named `column=level`;
#' * an `mldr` object of the mldr package (which need not be installed for
#'   this), its measure columns (`.labelcount`, `.SCUMBLE`) left out;
#' * a list with `x` and `y`.
#'
#' `as_mldr()` makes an `mldr` object for the mldr package (installed), whose
#' functions then compute label statistics and plots.  mldr stores the data
#' in a dense data frame, so a sparse `x` is densified: keep large text
#' collections in mlss's own form.
#'
#' @param x Features: a numeric matrix, a data frame or a sparse `Matrix`.
#' @param y Labels: an n x m logical, 0/1 or -1/+1 matrix or data frame.
#' @param train `NULL`, or a logical vector of length n marking training rows.
#' @param name,relation Optional names (single strings).
#' @param data A data frame, an `mldr` object, a list with `x` and `y`, or an
#'   `mlss_data` object (returned as it is).
#' @param labels For a data frame: the names or positions of the label columns.
#' @param sparse `NULL` (a `dgCMatrix` when at most a quarter of the feature
#'   values are non-zero), `TRUE` or `FALSE`.
#' @param ... Passed to methods.
#' @return `mlss_data()` and `as_mlss_data()` an object of class
#'   `"mlss_data"`; `as_mldr()` an object of class `"mldr"`.
#' @seealso [read_mulan()], [tfidf()].
#' @examples
#' df <- data.frame(height = c(1.2, 3.4, 0.5), colour = c("red", "blue", "red"),
#'                  tall = c(0, 1, 0), blue = c(FALSE, TRUE, FALSE))
#' d <- as_mlss_data(df, labels = c("tall", "blue"))
#' d$x
#' d$y
#' mlss_data(matrix(1:6, 3), cbind(a = c(TRUE, FALSE, TRUE)), name = "tiny")
#' if (requireNamespace("mldr", quietly = TRUE)) {
#'   emotions <- mlss::emotions   # data(emotions) would load mldr's own
#'   m <- as_mldr(emotions)
#'   summary(m)
#'   back <- as_mlss_data(m)
#'   all.equal(back$y, emotions$y)
#' }
#' @export
mlss_data <- function(x, y, train = NULL, name = NULL, relation = NULL) {
  x <- data_features(x)
  y <- data_labels(y, nrow(x))
  if (!is.null(train) && (!is.logical(train) || length(train) != nrow(x) || anyNA(train)))
    stop_arg("'train' must be NULL or a logical vector without NA, one value per row of 'x'")
  for (arg in c("name", "relation")) {
    v <- get(arg)
    if (!is.null(v) && (!is.character(v) || length(v) != 1 || is.na(v)))
      stop_arg("'", arg, "' must be NULL or a single string")
  }
  new_mlss_data(x, y, train, name, relation)
}

new_mlss_data <- function(x, y, train = NULL, name = NULL, relation = NULL) {
  structure(list(x = x, y = y, train = train, name = name, relation = relation),
            class = "mlss_data")
}

#' @rdname mlss_data
#' @export
as_mlss_data <- function(data, ...) UseMethod("as_mlss_data")

#' @rdname mlss_data
#' @export
as_mlss_data.mlss_data <- function(data, ...) data

#' @rdname mlss_data
#' @export
as_mlss_data.default <- function(data, ...) {
  if (!is.list(data) || is.null(data$x) || is.null(data$y))
    stop_arg("'data' must be a data frame, an mldr object, an mlss_data object or a list ",
             "with 'x' and 'y', not ", class(data)[1])
  mlss_data(data$x, data$y, data$train, data$name, data$relation)
}

#' @rdname mlss_data
#' @export
as_mlss_data.data.frame <- function(data, labels, sparse = NULL, name = NULL, ...) {
  if (missing(labels) || length(labels) == 0)
    stop_arg("'labels' must name the label columns of 'data'")
  if (is.character(labels)) {
    bad <- setdiff(labels, names(data))
    if (length(bad)) stop_arg("the label '", bad[1], "' is not a column of 'data'")
    is_label <- names(data) %in% labels
  } else if (is.numeric(labels) && all(labels >= 1 & labels <= ncol(data) & labels == round(labels))) {
    is_label <- seq_along(data) %in% labels
  } else {
    stop_arg("'labels' must be names or positions of columns of 'data'")
  }
  if (all(is_label)) stop_arg("'data' has no feature column besides the labels")
  x <- sparse_if_low_density(frame_features(data[!is_label]), check_sparse(sparse))
  mlss_data(x, data[is_label], name = name)
}

#' @rdname mlss_data
#' @export
as_mlss_data.mldr <- function(data, sparse = NULL, ...) {
  df <- data$dataset
  features <- setdiff(data$attributesIndexes, data$labels$index)
  # nominal attributes keep the levels their ARFF header declared
  spec <- trimws(data$attributes[names(df)[features]])
  for (j in features[grepl("^\\{.*\\}$", spec)]) {
    lv <- trimws(strsplit(sub("^\\{(.*)\\}$", "\\1", trimws(data$attributes[[names(df)[j]]])),
                          ",", fixed = TRUE)[[1]])
    lv <- gsub("^['\"]|['\"]$", "", lv)
    if (all(as.character(df[[j]]) %in% c(lv, NA))) df[[j]] <- factor(df[[j]], levels = lv)
  }
  x <- sparse_if_low_density(frame_features(df[features]), check_sparse(sparse))
  mlss_data(x, df[data$labels$index], name = data$name)
}

#' @rdname mlss_data
#' @export
as_mldr <- function(data, name = NULL) {
  if (!requireNamespace("mldr", quietly = TRUE))
    stop_arg("as_mldr() needs the package 'mldr': install.packages(\"mldr\")")
  data <- as_mlss_data(data)
  if (ncol(data$y) < 2)
    stop_arg("mldr cannot hold a single label (mldr_from_dataframe() fails on one)")
  df <- data.frame(as.matrix(data$x), check.names = FALSE)
  y <- data$y
  storage.mode(y) <- "integer"
  df <- cbind(df, data.frame(y, check.names = FALSE))
  mldr::mldr_from_dataframe(df, labelIndices = ncol(data$x) + seq_len(ncol(y)),
                            name = name %||% data$name %||% "mlss")
}

# Features of a data frame as a numeric matrix; factor and character columns
# as read_mulan() reads nominal attributes.
frame_features <- function(df) {
  cols <- lapply(names(df), function(nm) {
    v <- df[[nm]]
    if (is.numeric(v) || is.logical(v)) return(stats::setNames(list(as.numeric(v)), nm))
    if (!is.factor(v) && !is.character(v))
      stop_arg("the column '", nm, "' is ", class(v)[1], ", not numeric, logical or a factor")
    lv <- if (is.factor(v)) levels(v) else sort(unique(v[!is.na(v)]))
    v <- as.character(v)
    if (length(lv) == 2 && setequal(lv, c("0", "1"))) return(stats::setNames(list(as.numeric(v)), nm))
    ind <- lapply(lv, function(l) as.numeric(v == l))
    stats::setNames(ind, paste0(nm, "=", lv))
  })
  cols <- unlist(cols, recursive = FALSE)
  x <- matrix(unlist(cols, use.names = FALSE), nrow(df), length(cols),
              dimnames = list(NULL, names(cols)))
  x
}

sparse_if_low_density <- function(x, sparse) {
  if (is.na(sparse)) sparse <- sum(x != 0, na.rm = TRUE) <= max_sparse_density * length(x)
  if (sparse) methods::as(methods::as(x, "CsparseMatrix"), "generalMatrix") else x
}

data_features <- function(x) {
  if (is.data.frame(x)) x <- frame_features(x)
  if (inherits(x, "sparseMatrix")) {
    x <- methods::as(methods::as(methods::as(x, "CsparseMatrix"), "generalMatrix"), "dMatrix")
  } else {
    if (inherits(x, "Matrix")) x <- as.matrix(x)
    if (is.vector(x) && (is.numeric(x) || is.logical(x))) x <- matrix(x, ncol = 1)
    if (!is.matrix(x) || !(is.numeric(x) || is.logical(x)))
      stop_arg("'x' must be a numeric matrix, a data frame or a sparse Matrix, not ",
               class(x)[1])
    storage.mode(x) <- "double"
    rownames(x) <- NULL
  }
  if (is.null(colnames(x))) colnames(x) <- paste0("Att", seq_len(ncol(x)))
  x
}

# Labels as an n x m logical matrix; NA stays NA.
data_labels <- function(y, n) {
  if (inherits(y, "Matrix")) y <- as.matrix(y)
  if (is.vector(y) || is.factor(y)) y <- data.frame(L1 = y)
  if (is.matrix(y)) {
    if (is.null(colnames(y))) colnames(y) <- paste0("L", seq_len(ncol(y)))
    y <- as.data.frame(y, stringsAsFactors = FALSE)
  }
  if (!is.data.frame(y)) stop_arg("'y' must be a logical, 0/1 or -1/+1 matrix or data frame")
  if (ncol(y) == 0) stop_arg("'y' has no label columns")
  if (nrow(y) != n) stop_arg("'x' has ", n, " rows but 'y' has ", nrow(y))
  out <- vapply(names(y), function(nm) label_values(y[[nm]], nm), logical(n))
  out <- matrix(out, n, ncol(y), dimnames = list(NULL, names(y)))
  if (anyDuplicated(colnames(out))) stop_arg("the label names in 'y' are not unique")
  out
}
