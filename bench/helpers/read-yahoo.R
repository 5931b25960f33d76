# Reading a Yahoo collection (sparse ARFF, raw word counts) and the MLLS papers'
# protocol (../shared/data/README.md), in plain R for the benchmarks.
# TO BE REPLACED by read_mulan() (the C reader being written on another branch)
# once it is merged: only read_sparse_arff() is a stopgap, the protocol stays.

# The sparse rows `{index value, ...}` (0-based indices) of a Mulan ARFF file as
# a dgCMatrix with the attribute names as column names.
read_sparse_arff <- function(file) {
  lines <- readLines(file)
  at <- grep("^@data", lines, ignore.case = TRUE)[1]
  attrs <- grep("^@attribute", lines[seq_len(at)], ignore.case = TRUE, value = TRUE)
  names <- regmatches(attrs, regexpr("(?<=^@attribute )\\S+", attrs, perl = TRUE, ignore.case = TRUE))
  rows <- trimws(lines[-seq_len(at)])
  rows <- rows[nzchar(rows) & !startsWith(rows, "%")]
  body <- regmatches(rows, regexpr("(?<=\\{).*(?=\\})", rows, perl = TRUE))
  pairs <- strsplit(body, ",", fixed = TRUE)
  pairs <- lapply(pairs, function(p) p[nzchar(trimws(p))])
  kv <- trimws(unlist(pairs))
  j <- as.integer(regmatches(kv, regexpr("^[0-9]+", kv)))
  v <- as.numeric(regmatches(kv, regexpr("[^ ]+$", kv)))
  Matrix::sparseMatrix(i = rep(seq_along(pairs), lengths(pairs)), j = j + 1L, x = v,
                       dims = c(length(rows), length(names)),
                       dimnames = list(NULL, names))
}

# The papers' protocol: labels with >= 100 pages, pages with a label, words
# occurring >= 5 times, TF-IDF, unit-length rows; `n_train` random training pages.
yahoo_data <- function(arff, xml, n_train = 1000, seed = 1) {
  A <- read_sparse_arff(arff)
  label_names <- regmatches(readLines(xml), regexpr("(?<=name=\")[^\"]+", readLines(xml), perl = TRUE))
  is_label <- colnames(A) %in% label_names
  y <- as.matrix(A[, is_label]) > 0
  x <- A[, !is_label]
  y <- y[, colSums(y) >= 100, drop = FALSE]
  keep <- rowSums(y) > 0
  y <- y[keep, , drop = FALSE]
  x <- x[keep, , drop = FALSE]
  x <- x[, Matrix::colSums(x) >= 5, drop = FALSE]
  df <- Matrix::colSums(x > 0)
  x <- x %*% Matrix::Diagonal(x = log(nrow(x) / df))
  norms <- sqrt(Matrix::rowSums(x^2))
  x <- Matrix::Diagonal(x = ifelse(norms > 0, 1 / norms, 0)) %*% x
  x <- methods::as(x, "CsparseMatrix")
  set.seed(seed)
  train <- seq_len(nrow(x)) %in% sample(nrow(x), n_train)
  list(x = x, y = y, train = train, name = sub("\\.arff$", "", basename(arff)))
}
