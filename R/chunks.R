#' Data in chunks: rows described, not read
#'
#' Describes a data set too large for memory as a sequence of chunks of rows,
#' without reading any of them: a vector of files, a database query read page
#' by page, or a function returning chunk `i`.  [mlls()], [cv_mlls()] and
#' [cca_ridge()] accept such a source and fit from sums over its rows that
#' one pass computes, chunk by chunk, on the workers of a `future::plan()`
#' (see [mlls.ml_chunks()]); `predict()` scores one chunk at a time
#' ([predict_chunks()]).
#'
#' @section Sources:
#' * **Files** (a character vector, one chunk per file): `.rds` files holding
#'   an [`mlss_data`][mlss_data()] object, a `list(x, y)`, or a matrix or data
#'   frame whose label columns `labels` names; ARFF files read with
#'   [read_mulan()] (`format = "mulan"`, the labels from `labels` or an `xml`
#'   in `read_args`) or [read_meka()] (`format = "meka"`); LIBSVM files read
#'   with [read_libsvm_ml()] (`format = "libsvm"`; give
#'   `read_args = list(n_features = d, labels = ids)` so that every chunk
#'   has the same columns).  `format = "auto"` goes by the extension (`.rds`, `.arff`
#'   (possibly `.gz`) as Mulan, `.svm`, `.libsvm` or `.txt` as LIBSVM).
#' * **A database** (a `DBI` connection, or a function of no arguments that
#'   opens one): `query` is read in pages of `chunk_rows` rows, by
#'   `LIMIT/OFFSET` on the query as a sub-query, so that the query must give
#'   its rows in a stable order (add `ORDER BY` a key); its `labels` columns
#'   are the labels (0/1, logical, or -1/+1) and the other columns the
#'   features.  A connection cannot travel to another process: its chunks are
#'   read in the calling session (the sums of each chunk are still computed
#'   there, one at a time); with a function that connects, each worker opens
#'   its own connection (and closes it).
#' * **A function** `chunk(i)` for `i` in `1:n_chunks`, returning any of the
#'   in-memory forms a file may hold.
#'
#' @section Columns:
#' Every chunk must have the same feature and label columns, by name: the
#' reference is the first chunk, read once in the calling session, or
#' `features` and `labels` when both are given (then no chunk is read
#' there: workers on other machines may hold files the session cannot see).  A
#' chunk whose columns are the same in another order is reordered; a chunk
#' with other columns is an error that names the chunk and the columns that
#' differ.  With `fold`, the named feature column holds each row's fold
#' (1, 2, ...) for [cv_mlls()] and is not a feature.
#'
#' @section Empty and failing chunks:
#' A chunk with no rows contributes nothing to the sums (it is counted in the
#' source's `n_chunks`, and the fits report the rows they used); a chunk that
#' fails to read stops the fit with an error that names the chunk and the
#' reader's message.  Nothing is dropped silently: a chunk with missing
#' values (`NA`) in its features or labels is an error too.
#'
#' @param source A character vector of files, a `DBI` connection (or a
#'   function of no arguments returning one, with `query`), or a function
#'   `function(i)` returning chunk `i` (with `n_chunks`).
#' @param labels For matrices, data frames and database rows: the names of
#'   the label columns.  For `format = "mulan"`: passed to [read_mulan()].
#' @param features Optional: the names of the feature columns (by default
#'   those of the first chunk).
#' @param format For files: `"auto"`, `"rds"`, `"mulan"`, `"meka"` or
#'   `"libsvm"`.
#' @param read_args A list of further arguments to the file reader.
#' @param query For a database: the SQL query giving the rows.
#' @param chunk_rows For a database: the rows per chunk.
#' @param n_chunks For a function: the number of chunks.  For a database,
#'   optional (by default counted with `SELECT COUNT(*)`).
#' @param fold Optional: the name of the column holding each row's fold.
#' @param x An `ml_chunks` object.
#' @param ... Not used.
#' @return An object of class `"ml_chunks"`: a list with `type` (`"files"`,
#'   `"dbi"` or `"function"`), `n_chunks`, and what reading a chunk needs.
#' @seealso [mlls.ml_chunks()], [predict_chunks()], [read_chunk()].
#' @examples
#' x <- mlss::yeast$x[1:300, 1:10]
#' y <- mlss::yeast$y[1:300, 1:4]
#' files <- file.path(tempdir(), sprintf("part%d.rds", 1:3))
#' for (k in 1:3) {
#'   rows <- ((k - 1) * 100 + 1):(k * 100)
#'   saveRDS(list(x = x[rows, ], y = y[rows, ]), files[k])
#' }
#' src <- ml_chunks(files)
#' src
#' fit <- mlls(src, alpha = 0.1, beta = 0.01)
#' fit
#' # the same source as a function
#' src2 <- ml_chunks(function(i) readRDS(files[i]), n_chunks = 3)
#' @export
ml_chunks <- function(source, labels = NULL, features = NULL,
                      format = c("auto", "rds", "mulan", "meka", "libsvm"),
                      read_args = list(), query = NULL, chunk_rows = 10000L,
                      n_chunks = NULL, fold = NULL, ...) {
  check_no_dots(...)
  format <- match.arg(format)
  if (!is.null(labels) && !is.character(labels) && !(format == "mulan" && is.numeric(labels)))
    stop_arg("'labels' must be the names of the label columns")
  if (!is.null(features) && (!is.character(features) || anyNA(features)))
    stop_arg("'features' must be NULL or the names of the feature columns")
  if (!is.null(fold) && (!is.character(fold) || length(fold) != 1 || is.na(fold)))
    stop_arg("'fold' must be NULL or the name of one column")
  if (!is.list(read_args)) stop_arg("'read_args' must be a list")
  base <- list(labels = labels, features = features, fold = fold)
  if (is.character(source)) {
    if (!length(source) || anyNA(source)) stop_arg("'source' must name at least one file")
    fmt <- if (format == "auto") vapply(source, file_format, "") else rep(format, length(source))
    src <- c(list(type = "files", files = unname(source), format = unname(fmt),
                  read_args = read_args, n_chunks = length(source)), base)
  } else if (inherits(source, "DBIConnection") || (is.function(source) && !is.null(query))) {
    if (!requireNamespace("DBI", quietly = TRUE))
      stop_arg("a database source needs the package DBI: install.packages(\"DBI\")")
    if (!is.character(query) || length(query) != 1 || is.na(query))
      stop_arg("'query' must be one SQL query giving the rows")
    if (is.null(labels)) stop_arg("'labels' must name the label columns of the query")
    if (!is.numeric(chunk_rows) || length(chunk_rows) != 1 || is.na(chunk_rows) ||
        chunk_rows < 1 || chunk_rows != round(chunk_rows))
      stop_arg("'chunk_rows' must be a whole number >= 1")
    query <- sub(";[[:space:]]*$", "", query)
    if (is.null(n_chunks)) {
      con <- if (is.function(source)) source() else source
      if (is.function(source)) on.exit(DBI::dbDisconnect(con))
      total <- DBI::dbGetQuery(con, paste0("SELECT COUNT(*) AS n FROM (", query, ") AS q"))$n
      n_chunks <- max(1, ceiling(as.numeric(total) / chunk_rows))
    } else {
      n_chunks <- check_n_chunks(n_chunks)
      total <- NA
    }
    src <- c(list(type = "dbi", con = if (!is.function(source)) source,
                  connect = if (is.function(source)) source, query = query,
                  chunk_rows = as.integer(chunk_rows), n_chunks = as.integer(n_chunks),
                  n_rows = total), base)
  } else if (is.function(source)) {
    src <- c(list(type = "function", fun = source, n_chunks = check_n_chunks(n_chunks)), base)
  } else {
    stop_arg("'source' must be a vector of files, a DBI connection (with 'query') or a ",
             "function returning chunk i (with 'n_chunks'), not ", class(source)[1])
  }
  structure(src, class = "ml_chunks")
}

check_n_chunks <- function(n) {
  check_whole(n, "n_chunks", 1, .Machine$integer.max,
              what = "the number of chunks, a whole number >= 1")
}

file_format <- function(f) {
  g <- tolower(sub("\\.(gz|bz2|xz)$", "", f))
  if (grepl("\\.rds$", g)) return("rds")
  if (grepl("\\.arff$", g)) return("mulan")
  if (grepl("\\.(svm|libsvm|txt)$", g)) return("libsvm")
  stop_arg("cannot tell the format of '", f, "' from its extension: give 'format'")
}

#' @rdname ml_chunks
#' @export
print.ml_chunks <- function(x, ...) {
  what <- switch(x$type,
                 files = paste0(x$n_chunks, " file(s) (", paste(unique(x$format), collapse = ", "),
                                "), the first '", basename(x$files[1]), "'"),
                 dbi = paste0("a database query in ", x$n_chunks, " page(s) of ", x$chunk_rows,
                              " rows", if (!is.na(x$n_rows)) paste0(" (", x$n_rows, " rows)"),
                              if (!is.null(x$connect)) ", each worker connecting"
                              else ", read in this session"),
                 "function" = paste0("a function giving ", x$n_chunks, " chunk(s)"))
  cat("Data in chunks: ", what, "\n", sep = "")
  if (!is.null(x$labels)) cat(label_list(as.character(x$labels)), "\n", sep = "")
  if (!is.null(x$features))
    cat(length(x$features), " features\n", sep = "")
  if (!is.null(x$fold)) cat("folds from the column '", x$fold, "'\n", sep = "")
  invisible(x)
}

#' Read one chunk of a chunked source
#'
#' @param source An [ml_chunks()] source.
#' @param i The chunk number.
#' @return A list with `x` (a numeric matrix or a `dgCMatrix` with column
#'   names), `y` (a logical matrix with column names) and `fold` (the fold of
#'   each row, or `NULL`); an empty chunk has zero rows.  Errors name the
#'   chunk.
#' @examples
#' src <- ml_chunks(function(i) list(x = matrix(i, 2, 2, dimnames = list(NULL, c("a", "b"))),
#'                                   y = cbind(l = c(TRUE, FALSE))), n_chunks = 2)
#' read_chunk(src, 2)
#' @export
read_chunk <- function(source, i) {
  if (!inherits(source, "ml_chunks")) stop_arg("'source' must come from ml_chunks()")
  if (!is.numeric(i) || length(i) != 1 || is.na(i) || i < 1 || i > source$n_chunks ||
      i != round(i))
    stop_arg("'i' must be a chunk number in 1..", source$n_chunks)
  raw <- tryCatch(read_chunk_raw(source, i), error = function(e)
    stop_arg(chunk_name(source, i), " could not be read: ", conditionMessage(e)))
  tryCatch(normalise_chunk(raw, source), error = function(e)
    stop_arg(chunk_name(source, i), ": ", conditionMessage(e)))
}

chunk_name <- function(source, i) {
  if (source$type == "files") paste0("chunk ", i, " (file '", source$files[i], "')")
  else if (source$type == "dbi") paste0("chunk ", i, " (rows ", (i - 1) * source$chunk_rows + 1,
                                        " to ", i * source$chunk_rows, " of the query)")
  else paste0("chunk ", i)
}

read_chunk_raw <- function(source, i) {
  switch(source$type,
         files = {
           f <- source$files[i]
           if (!file.exists(f)) stop("the file does not exist")
           args <- source$read_args
           switch(source$format[i],
                  rds = readRDS(f),
                  mulan = do.call(read_mulan, c(list(f), if (is.null(args$xml) &&
                                                             is.null(args$labels))
                    list(labels = source$labels), args)),
                  meka = do.call(read_meka, c(list(f), args)),
                  libsvm = do.call(read_libsvm_ml, c(list(f), args)))
         },
         dbi = {
           con <- source$con
           if (is.null(con)) {
             con <- source$connect()
             on.exit(DBI::dbDisconnect(con))
           }
           q <- paste0("SELECT * FROM (", source$query, ") AS q LIMIT ", source$chunk_rows,
                       " OFFSET ", format((i - 1) * source$chunk_rows, scientific = FALSE))
           DBI::dbGetQuery(con, q)
         },
         "function" = source$fun(i))
}

# A chunk as list(x, y, fold): features (matrix or dgCMatrix, named columns),
# logical labels, folds (or NULL).  An empty chunk keeps its columns.
normalise_chunk <- function(raw, source) {
  labels <- source$labels
  if (inherits(raw, "mldr")) raw <- as_mlss_data(raw)
  if (inherits(raw, "mlss_data") || (is.list(raw) && !is.data.frame(raw) &&
                                     !is.null(raw$x) && !is.null(raw$y))) {
    x <- raw$x
    y <- raw$y
  } else if (is.data.frame(raw) || is.matrix(raw)) {
    if (!is.character(labels))
      stop("a matrix or data frame chunk needs 'labels', the names of its label columns")
    nm <- colnames(raw)
    miss <- setdiff(labels, nm)
    if (length(miss))
      stop("the label column(s) ", paste0("'", miss, "'", collapse = ", "), " are missing")
    y <- raw[, labels, drop = FALSE]
    x <- raw[, setdiff(nm, labels), drop = FALSE]
  } else {
    stop("a chunk must be an mlss_data object, a list(x, y), or a matrix or data frame ",
         "with label columns, not ", class(raw)[1])
  }
  if (is.data.frame(x)) {
    ok <- vapply(x, function(col) is.numeric(col) || is.logical(col), NA)
    if (!all(ok)) stop("the column '", names(x)[!ok][1], "' is not numeric")
    x <- as.matrix(x)
  }
  if (inherits(x, "sparseMatrix"))
    x <- methods::as(methods::as(methods::as(x, "CsparseMatrix"), "generalMatrix"), "dMatrix")
  else if (inherits(x, "Matrix")) x <- as.matrix(x)
  if (is.null(dim(x))) stop("the features are not a matrix")
  if (is.null(colnames(x))) stop("the feature columns have no names")
  fold <- NULL
  if (!is.null(source$fold)) {
    if (!source$fold %in% colnames(x)) stop("the fold column '", source$fold, "' is missing")
    fold <- as.vector(as.matrix(x[, source$fold]))
    x <- x[, colnames(x) != source$fold, drop = FALSE]
    if (anyNA(fold) || any(fold < 1) || any(fold != round(fold)))
      stop("the fold column '", source$fold, "' must hold whole numbers >= 1")
    fold <- as.integer(fold)
  }
  n <- nrow(x)
  if (n > 0) {
    y <- if (is.data.frame(y) && !ncol(y)) y else as_labels(y, n, "labels", "the features")
    # checked without copying the chunk (range(x, 0) would: c(x, 0) is a
    # second chunk-sized vector); min() and max() are NA or NaN with NA or NaN
    vals <- if (inherits(x, "sparseMatrix")) x@x else x
    if (length(vals) && (anyNA(vals) || !is.finite(min(vals)) || !is.finite(max(vals))))
      stop("the features contain NA, NaN or Inf")
    if (!inherits(x, "sparseMatrix") && !is.double(x)) storage.mode(x) <- "double"
  } else {
    y <- matrix(logical(0), 0, NCOL(y), dimnames = list(NULL, colnames(y)))
    if (!inherits(x, "sparseMatrix")) x <- matrix(0, 0, ncol(x), dimnames = list(NULL, colnames(x)))
  }
  if (is.null(colnames(y))) stop("the label columns have no names")
  list(x = x, y = y, fold = fold)
}

# The chunk's columns put in the order of the reference names, or an error
# naming the chunk and what differs.
conform_chunk <- function(ch, ref, i, source) {
  ch$x <- conform_columns(ch$x, ref$features, "feature", i, source)
  ch$y <- conform_columns(ch$y, ref$labels, "label", i, source)
  ch
}

conform_columns <- function(a, ref, what, i, source) {
  nm <- colnames(a)
  if (identical(nm, ref)) return(a)
  if (length(nm) == length(ref) && setequal(nm, ref)) return(a[, ref, drop = FALSE])
  extra <- setdiff(nm, ref)
  miss <- setdiff(ref, nm)
  stop_arg(chunk_name(source, i), " does not have the ", what, " columns of the first chunk",
           if (length(extra)) paste0("; it has ", label_names(extra)),
           if (length(miss)) paste0("; it lacks ", label_names(miss)),
           if (!length(extra) && !length(miss)) "; it repeats a column",
           ": every chunk must have the same columns")
}

# The column names every chunk must have: given, or those of the first chunk.
# The first chunk is read in this session unless both are given.
chunk_columns <- function(source) {
  if (!is.null(source$features) && is.character(source$labels))
    return(list(features = source$features, labels = source$labels))
  ch <- read_chunk(source, 1)
  list(features = source$features %||% colnames(ch$x),
       labels = if (is.character(source$labels) && source$type != "files") source$labels
                else colnames(ch$y))
}

# fun(i) over chunks i, on the workers of the user's future::plan() when
# future.apply is installed and the plan is not sequential (in this session
# by a plain loop otherwise, and for a connection that cannot travel), with
# progress (progressr where installed, else a text bar in this session), and
# an error naming the chunk when one fails, after the other chunks have run.
# With reduce (a function(a, b) of two results), the chunks go in at most 32
# groups of consecutive chunks, each reduced where it runs, so that only one
# result per group travels and is held; the groups do not depend on the plan,
# so that every plan adds in the same order and gives the same bits.  Returns
# the list of results, or the reduced result.
chunk_apply <- function(source, idx, fun, progress = FALSE, reduce = NULL) {
  if (!length(idx)) return(if (is.null(reduce)) list())
  use_future <- requireNamespace("future.apply", quietly = TRUE) &&
    !inherits(future::plan(), "sequential") &&
    !(source$type == "dbi" && is.null(source$connect))
  wrap <- function(i) {
    tryCatch(fun(i), error = function(e) {
      msg <- conditionMessage(e)
      if (!grepl(paste0("^chunk ", i, "\\b"), msg)) msg <- paste0(chunk_name(source, i), ": ", msg)
      structure(list(message = msg, chunk = i), class = "chunk_failure")
    })
  }
  groups <- if (is.null(reduce)) as.list(idx) else
    unname(split(idx, ceiling(seq_along(idx) / ceiling(length(idx) / 32))))
  # a group: its chunks in order, reduced; failures kept, the others still run
  run_group <- function(g, p) {
    acc <- NULL
    failures <- list()
    for (i in g) {
      res <- wrap(i)
      if (!is.null(p)) p()
      if (inherits(res, "chunk_failure")) failures[[length(failures) + 1]] <- res
      else if (is.null(reduce)) acc <- res
      else acc <- if (is.null(acc)) res else reduce(acc, res)
    }
    list(value = acc, failures = failures)
  }
  prog <- progress && requireNamespace("progressr", quietly = TRUE)
  if (use_future) {
    run <- function(p) future.apply::future_lapply(groups, run_group, p = p,
                                                   future.seed = TRUE,
                                                   future.packages = "mlss")
    res <- if (prog) progressr::with_progress({
      run(progressr::progressor(along = idx))
    }) else run(NULL)
  } else {
    bar <- if (progress && !prog) utils::txtProgressBar(0, length(idx), style = 3)
    res <- vector("list", length(groups))
    body <- function(p) {
      done <- 0
      tick <- function() {
        if (!is.null(p)) p()
        done <<- done + 1
        if (!is.null(bar)) utils::setTxtProgressBar(bar, done)
      }
      for (k in seq_along(groups)) res[[k]] <<- run_group(groups[[k]], tick)
    }
    if (prog) progressr::with_progress({
      body(progressr::progressor(along = idx))
    }) else body(NULL)
    if (!is.null(bar)) close(bar)
  }
  failed <- unlist(lapply(res, `[[`, "failures"), recursive = FALSE)
  if (length(failed)) {
    stop_arg(failed[[1]]$message,
             if (length(failed) > 1)
               paste0(" (and ", length(failed) - 1, " more chunk(s) failed: ",
                      paste(vapply(failed[-1], `[[`, 0, "chunk"), collapse = ", "), ")"))
  }
  values <- lapply(res, `[[`, "value")
  if (is.null(reduce)) return(values)
  values <- Filter(Negate(is.null), values)
  Reduce(reduce, values)
}
