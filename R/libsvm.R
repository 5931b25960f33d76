#' Read multi-label data in the LIBSVM text format
#'
#' Reads the multi-label variant of the LIBSVM format (used by the LIBSVM
#' and Extreme Classification repositories), one instance a line:
#' \preformatted{l1,l2,... index:value index:value ...}
#' The labels are whole numbers separated by commas, absent when the line
#' starts with a blank or with the first pair; indices increase along a line
#' and start at 1 (or 0 with `zero_based = TRUE`); a `#` starts a comment;
#' blank lines are skipped.  The file is parsed in one pass in C, and may be
#' compressed (gzip, bzip2, xz).
#'
#' @param file Path of the file.
#' @param n_features The number of features, when the file does not use the
#'   last one; by default the largest index read (at most 2^24 = 16777216:
#'   a larger index is taken for an error in the file unless `n_features`
#'   says so).
#' @param labels All the label ids, in the order wanted for the columns of
#'   `y` (labels without positives included); by default the ids read,
#'   sorted.  A label read that is not among them is an error.
#' @param zero_based Do the feature indices start at 0?
#' @param sparse `TRUE` (the default, `NULL`, for this sparse format) or
#'   `FALSE` for a dense `x`.
#' @param name The data set's name; by default the file name without its
#'   extensions.
#' @return An [`mlss_data`][mlss_data()] object: `x` an n x d `dgCMatrix` with
#'   columns named `f1`, `f2`, ... after the indices of the file (`f0` first
#'   when `zero_based`), `y` an n x m logical matrix with columns named by
#'   the label ids.
#' @seealso [read_mulan()].
#' @examples
#' f <- tempfile()
#' writeLines(c("0,2 1:0.5 3:1", "1 2:2", " 1:1 4:0.25"), f)
#' d <- read_libsvm_ml(f)
#' d$x
#' d$y
#' @export
read_libsvm_ml <- function(file, n_features = NULL, labels = NULL, zero_based = FALSE,
                           sparse = NULL, name = NULL) {
  zero_based <- check_flag(zero_based, "zero_based")
  if (!is.null(n_features) && (!is.numeric(n_features) || length(n_features) != 1 ||
                               is.na(n_features) || n_features < 0 ||
                               n_features != round(n_features) || n_features > .Machine$integer.max))
    stop_arg("'n_features' must be NULL or a whole number >= 0")
  if (!is.null(labels) && (!is.numeric(labels) || anyNA(labels) || any(labels != round(labels)) ||
                           anyDuplicated(labels)))
    stop_arg("'labels' must be NULL or distinct whole numbers")
  sparse <- check_sparse(sparse)
  if (is.na(sparse)) sparse <- TRUE
  bytes <- read_file_bytes(file, "file")
  res <- .Call(C_libsvm_read_rows, bytes, as.integer(!zero_based),
               if (is.null(n_features)) NA_integer_ else as.integer(n_features),
               sparse, max_sparse_density)
  if (res$status$code != 0)
    parse_stop(res$status, file, format = "libsvm",
               hint_n_features = is.null(n_features) && res$status$attr >= 2^24)
  rows <- res$rows
  ids <- if (is.null(labels)) sort(unique(rows$pos_label)) else labels
  unknown <- which(!rows$pos_label %in% ids)
  if (length(unknown)) {
    row <- rows$pos_row[unknown[1]] + 1L
    stop_arg(file, ":", data_line_of_row(bytes, row), ": the label ", rows$pos_label[unknown[1]],
             " is not in 'labels'")
  }
  first <- if (zero_based) 0L else 1L
  x <- rows_features(rows, sprintf("f%d", seq_len(res$ncol) - 1L + first))
  y <- rows_labels(rows, as.character(ids), ids)
  if (is.null(name)) name <- sub("\\.[^.]*$", "", sub("\\.(gz|bz2|xz)$", "", basename(file)))
  new_mlss_data(x, y, name = name)
}

# The line of the file that holds data row `row` (blank and comment lines
# hold none); used for error messages only.
data_line_of_row <- function(bytes, row) {
  lines <- strsplit(rawToChar(bytes), "\n", fixed = TRUE)[[1]]
  is_row <- !grepl("^[[:space:]]*(#|$)", lines)
  which(is_row)[row]
}
