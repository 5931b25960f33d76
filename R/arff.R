#' Read multi-label data from Mulan or MEKA ARFF files
#'
#' Reads an ARFF file, the format of the Mulan and MEKA multi-label
#' collections, in one pass in C (no line of the file becomes an R string),
#' into an [`mlss_data`][mlss_data()] object: the features `x` (a sparse
#' `dgCMatrix` or a numeric matrix) and the labels `y` (a logical matrix).
#'
#' @section Which attributes are labels:
#' `read_mulan()` takes the labels from Mulan's XML file (`xml`), or from
#' `labels`: their names, or a number `k` for the last `k` attributes.
#' `read_meka()` takes them from the `-C n` option that MEKA writes into the
#' relation name: the first `n` attributes, or the last `-n` when `n` is
#' negative.  Either way the labels come out **in the order of the ARFF
#' attributes**, not in the order of the XML file (the two differ in Mulan's
#' `yeast.xml`), and every other attribute is a feature, in file order.
#' Printing the result lists the labels.  A label list that misses a label
#' turns it into a feature: an attribute with the values `{0,1}` that the list
#' does not name but that sits among the labels, or is named like one but for
#' its digits (`Class14` beside `Class1`, ..., `Class13`), gives a warning.
#'
#' @section What the reader understands:
#' Dense rows (`v1,v2,...`) and sparse rows (`{index value, ...}`, 0-based
#' indices, an omitted value being 0 or, for a nominal attribute, its first
#' level), both in one file if need be; numeric (`numeric`, `real`, `integer`)
#' and nominal (`{a,b,...}`) attributes; names and values quoted with `'` or
#' `"` and backslash escapes; comments (`%` to the end of a line); missing
#' values `?` (`NA` in `x` and in `y`); instance weights (`,{w}` after a row,
#' ignored); Windows line ends; files compressed with gzip, bzip2 or xz
#' (detected from their first bytes, whatever their name).  Strings are taken
#' to be UTF-8.
#'
#' Feature attributes become columns of `x`:
#' * a numeric attribute, one column;
#' * a nominal attribute with the levels `{0,1}`, one 0/1 column of the same
#'   name (Mulan's text sets code words this way);
#' * any other nominal attribute, one indicator column per level, named
#'   `attribute=level`, or an error with `nominal = "error"`;
#' * `string` and `date` attributes cannot be features: leave them out with
#'   `exclude`.
#'
#' Label attributes must be nominal with levels `0` and `1`, or numeric with
#' the values 0 and 1.
#'
#' @section Sparse or dense:
#' With `sparse = NULL`, `x` is a `dgCMatrix` when the file has sparse rows
#' or when at most a quarter of its entries are non-zero, and a numeric
#' matrix otherwise.  `TRUE` and `FALSE` force either.
#'
#' @section Errors:
#' A malformed file stops with a message that names the file, the line and
#' what was wrong there: a truncated file (no `@data` line, a row with too
#' few values, a sparse row without its closing brace), a label not in the
#' header, a non-numeric value in a numeric attribute, a value that is not a
#' level of its nominal attribute, an index out of range or repeated in a
#' sparse row.
#'
#' @param arff Path of the ARFF file (possibly compressed).
#' @param xml Path of the Mulan XML file naming the labels.
#' @param labels Instead of `xml`: the names of the label attributes, or
#'   their number `k` when they are the last `k` attributes.
#' @param test Optional path of a second ARFF file with the same attributes,
#'   such as Mulan's `-test.arff`: its rows follow those of `arff` and the
#'   result's `train` marks the rows of `arff`.
#' @param sparse `NULL` (decide from the file), `TRUE` or `FALSE`: see
#'   *Sparse or dense*.
#' @param nominal What a nominal feature attribute other than `{0,1}`
#'   becomes: `"indicator"` columns, or an `"error"`.
#' @param exclude Names of attributes to leave out.
#' @param name The data set's name; by default the one [write_mulan()]
#'   recorded in the file, else the file name without its extensions (and
#'   without a `-train` suffix when `test` is given).
#' @return An object of class `"mlss_data"`, a list with `x` (n x d, column
#'   names the feature names), `y` (n x m logical, column names the label
#'   names), `train` (`NULL`, or a logical vector when `test` is given or
#'   the file records the split written by [write_mulan()]),
#'   `name` and `relation` (the ARFF relation name).
#' @seealso [write_mulan()], [read_libsvm_ml()], [as_mlss_data()], [tfidf()].
#' @references Tsoumakas G., Spyromitros-Xioufis E., Vilcek J. and Vlahavas I.
#'   (2011). Mulan: a Java library for multi-label learning. Journal of
#'   Machine Learning Research 12, 2411-2414.
#'
#'   Read J., Reutemann P., Pfahringer B. and Holmes G. (2016). MEKA: a
#'   multi-label/multi-target extension to Weka. Journal of Machine Learning
#'   Research 17(21), 1-5.
#' @importClassesFrom Matrix dgCMatrix
#' @examples
#' f <- tempfile(fileext = ".arff")
#' writeLines(c("@relation toy",
#'              "@attribute a numeric", "@attribute b numeric",
#'              "@attribute sport {0,1}", "@attribute music {0,1}",
#'              "@data",
#'              "{0 1.5,3 1}",
#'              "{1 2,2 1,3 1}",
#'              "0.5,0,1,0"), f)
#' toy <- read_mulan(f, labels = c("sport", "music"))
#' toy
#' toy$x
#' toy$y
#' read_mulan(f, labels = 2, sparse = FALSE)$x
#'
#' # MEKA names the labels in the relation: "-C -2", the last two
#' g <- tempfile(fileext = ".arff")
#' write_mulan(toy, g, xml = NULL, meka = TRUE)
#' read_meka(g)$y
#' @export
read_mulan <- function(arff, xml = NULL, labels = NULL, test = NULL, sparse = NULL,
                       nominal = c("indicator", "error"), exclude = NULL, name = NULL) {
  nominal <- match.arg(nominal)
  if (!is.null(xml) && !is.null(labels)) stop_arg("give 'xml' or 'labels', not both")
  if (!is.null(xml)) {
    spec <- list(names = read_mulan_xml(xml), source = paste0("'", xml, "'"))
  } else if (is.character(labels) && length(labels) > 0 && !anyNA(labels)) {
    spec <- list(names = labels, source = "'labels'")
  } else if (is.numeric(labels) && length(labels) == 1 && is.finite(labels) &&
             labels >= 1 && labels == round(labels) && labels <= .Machine$integer.max) {
    spec <- list(last = as.integer(labels))
  } else if (is.null(labels)) {
    stop_arg("say which attributes are labels: 'xml', the Mulan XML file that names ",
             "them, or 'labels', their names or their number (the last attributes)")
  } else {
    stop_arg("'labels' must be the names of the label attributes or their number")
  }
  read_arff_data(arff, spec, test, sparse, nominal, exclude, name)
}

#' @rdname read_mulan
#' @export
read_meka <- function(arff, test = NULL, sparse = NULL, nominal = c("indicator", "error"),
                      exclude = NULL, name = NULL) {
  nominal <- match.arg(nominal)
  read_arff_data(arff, list(meka = TRUE), test, sparse, nominal, exclude, name)
}

# The whole reading: the file (and the test file), their headers, the labels
# the spec names, the rows.
read_arff_data <- function(arff, spec, test, sparse, nominal, exclude, name) {
  sparse <- check_sparse(sparse)
  if (!is.null(exclude) && !is.character(exclude))
    stop_arg("'exclude' must be the names of attributes to leave out")
  part <- read_arff_part(arff, "arff", spec, sparse, nominal, exclude)
  train <- NULL
  if (!is.null(test)) {
    other <- read_arff_part(test, "test", spec, sparse, nominal, exclude)
    if (!identical(part$header[c("names", "types", "levels")],
                   other$header[c("names", "types", "levels")]))
      stop_arg("'test' (", test, ") does not declare the same attributes as 'arff' (",
               arff, ")")
    train <- rep(c(TRUE, FALSE), c(nrow(part$y), nrow(other$y)))
    part$x <- rbind_features(part$x, other$x)
    part$y <- rbind(part$y, other$y)
  }
  own <- part$mlss
  if (is.null(train) && !is.null(own$train)) {
    if (length(own$train) == nrow(part$y)) train <- own$train
    else warning(arff, ": the train/test split recorded by write_mulan() does not match the ",
                 nrow(part$y), " rows: ignored", call. = FALSE)
  }
  if (is.null(name)) name <- own$name
  if (is.null(name)) {
    name <- sub("\\.arff$", "", sub("\\.(gz|bz2|xz)$", "", basename(arff)))
    if (!is.null(test)) name <- sub("[-_]train$", "", name)
  }
  new_mlss_data(part$x, part$y, train = train, name = name, relation = part$header$relation)
}

rbind_features <- function(a, b) {
  if (inherits(a, "sparseMatrix") || inherits(b, "sparseMatrix"))
    return(methods::as(rbind(methods::as(a, "CsparseMatrix"), methods::as(b, "CsparseMatrix")),
                       "generalMatrix"))
  rbind(a, b)
}

read_arff_part <- function(file, arg, spec, sparse, nominal, exclude) {
  bytes <- read_file_bytes(file, arg)
  info <- .Call(C_arff_header_info, bytes)
  if (info$status$code != 0) parse_stop(info$status, file)
  h <- info$header
  if (anyDuplicated(h$names))
    stop_arg(file, ": the attribute '", h$names[anyDuplicated(h$names)],
             "' is declared twice")
  is_label <- label_attributes(h, spec, file)
  lay <- arff_layout(h, is_label, nominal, exclude, file)
  if (!length(lay$labels)) stop_arg(file, ": no label attribute is left")
  if (!is.null(spec$names)) warn_label_like_features(h, is_label, lay$role, spec$source, file)
  res <- .Call(C_arff_read_rows, bytes, lay$role, lay$target, lay$values, lay$omitted,
               length(lay$columns), sparse, max_sparse_density)
  if (res$status$code != 0) parse_stop(res$status, file, h$names)
  list(x = rows_features(res$rows, lay$columns),
       y = rows_labels(res$rows, lay$labels), header = h, mlss = mlss_comments(bytes))
}

# A label list (an XML file, 'labels') that misses a label silently makes it a
# feature.  Warn about the {0,1} features that look like labels: placed among
# the label attributes, or named like a label but for digits (Class14 when
# the labels are Class1 ... Class13).
warn_label_like_features <- function(h, is_label, role, source, file) {
  binary <- which(role == 2L)
  if (!length(binary) || !any(is_label)) return(invisible())
  span <- range(which(is_label))
  stem <- function(s) gsub("[0-9]+", "#", s)
  label_stems <- stem(h$names[is_label])
  like <- binary[(binary > span[1] & binary < span[2]) |
                   (grepl("[0-9]", h$names[binary]) & stem(h$names[binary]) %in% label_stems)]
  if (length(like))
    warning(file, ": the attribute", if (length(like) > 1) "s", " ",
            paste0("'", utils::head(h$names[like], 5), "'", collapse = ", "),
            if (length(like) > 5) paste0(" (and ", length(like) - 5, " more)"),
            " with the values {0,1} ", if (length(like) > 1) "look" else "looks",
            " like a label but ", source, " does not name ",
            if (length(like) > 1) "them" else "it", ": read as a feature; add ",
            if (length(like) > 1) "them" else "it", " to the labels if need be",
            call. = FALSE)
  invisible()
}

# The name and train/test split that write_mulan() records in comment lines
# at the top of the file ("% mlss-name: ...", "% mlss-train: T391 F202"); NULL
# for other files.
mlss_comments <- function(bytes) {
  marker <- charToRaw("% mlss-")
  if (length(bytes) < length(marker) || !all(bytes[seq_along(marker)] == marker))
    return(NULL)
  end <- grepRaw("\n[^%]", bytes)   # the first line that is not a comment
  if (!length(end)) return(NULL)
  txt <- strsplit(rawToChar(bytes[seq_len(end)]), "\r?\n")[[1]]
  Encoding(txt) <- "UTF-8"
  field <- function(key) {
    hit <- txt[startsWith(txt, paste0("% mlss-", key, ": "))]
    if (length(hit)) substring(hit[1], nchar(key) + 10L)
  }
  out <- list(name = field("name"))
  runs <- field("train")
  if (!is.null(runs)) {
    tok <- strsplit(trimws(runs), " +")[[1]]
    if (length(tok) && all(grepl("^[TF][0-9]+$", tok)))
      out$train <- rep(startsWith(tok, "T"), as.numeric(substring(tok, 2)))
  }
  out
}

# A dgCMatrix when at most this share of the entries is non-zero.
max_sparse_density <- 0.25

check_sparse <- function(sparse) {
  if (is.null(sparse)) return(NA)
  if (!is.logical(sparse) || length(sparse) != 1 || is.na(sparse))
    stop_arg("'sparse' must be NULL, TRUE or FALSE")
  sparse
}

# Which attributes of header h are labels, by the spec of read_mulan/read_meka.
label_attributes <- function(h, spec, file) {
  nattr <- length(h$names)
  if (!is.null(spec$names)) {
    missing <- setdiff(spec$names, h$names)
    if (length(missing))
      stop_arg("label '", missing[1], "' named in ", spec$source, " is not an attribute of ",
               file, if (length(missing) > 1) paste0(" (nor are ", length(missing) - 1, " more)"))
    return(h$names %in% spec$names)
  }
  if (!is.null(spec$last)) {
    if (spec$last >= nattr)
      stop_arg("'labels' = ", spec$last, " but ", file, " has only ", nattr, " attributes")
    return(seq_len(nattr) > nattr - spec$last)
  }
  m <- meka_label_count(h$relation)
  if (is.na(m))
    stop_arg(file, ": the relation name '", h$relation, "' has no MEKA option '-C n' ",
             "(the number of labels); use read_mulan() with 'xml' or 'labels'")
  if (m == 0 || abs(m) >= nattr)
    stop_arg(file, ": the MEKA option '-C ", m, "' does not fit its ", nattr, " attributes")
  if (m > 0) seq_len(nattr) <= m else seq_len(nattr) > nattr + m
}

# n of the first "-C n" in a MEKA relation name, NA when there is none.
meka_label_count <- function(relation) {
  hit <- regmatches(relation, regexec("(^|[[:space:]:])-C[[:space:]]+(-?[0-9]+)", relation))[[1]]
  if (length(hit)) as.integer(hit[3]) else NA_integer_
}

# What each attribute becomes (the ROLE_* codes of src/arff_core.h), the
# feature columns' names, and the per-level values of nominal attributes.
arff_layout <- function(h, is_label, nominal, exclude, file) {
  nattr <- length(h$names)
  unknown <- setdiff(exclude, h$names)
  if (length(unknown)) stop_arg("'exclude': '", unknown[1], "' is not an attribute of ", file)
  used <- !h$names %in% exclude
  bad <- which(used & h$types > 1L)
  if (length(bad)) {
    nm <- h$names[bad[1]]
    stop_arg(file, ": the ", c("string", "date")[h$types[bad[1]] - 1L], " attribute '", nm,
             "' ", if (is_label[bad[1]]) "cannot be a label" else
               paste0("cannot be a feature; leave it out with exclude = \"", nm, "\""))
  }
  nlev <- lengths(h$levels)
  nom <- h$types == 1L
  zero_one <- nom
  zero_one[nom] <- vapply(h$levels[nom], function(l) length(l) > 0 && all(l %in% c("0", "1")), NA)
  label <- used & is_label
  bad <- which(label & nom & !zero_one)
  if (length(bad))
    stop_arg(file, ": the label '", h$names[bad[1]], "' has the levels {",
             paste(h$levels[[bad[1]]], collapse = ","), "}; a label must have the levels 0 and 1")
  feature <- used & !is_label
  binary <- zero_one & nlev == 2L
  bad <- which(feature & nom & !binary)
  if (length(bad) && nominal == "error") {
    lv <- h$levels[[bad[1]]]
    stop_arg(file, ": the attribute '", h$names[bad[1]], "' is nominal with the levels {",
             paste(utils::head(lv, 5), collapse = ","), if (length(lv) > 5) ",...",
             "}; read it with nominal = \"indicator\" or leave it out with 'exclude'")
  }
  role <- integer(nattr)
  role[feature & !nom] <- 1L
  role[feature & binary] <- 2L
  role[feature & nom & !binary] <- 3L
  role[label] <- 4L
  width <- ifelse(role == 3L, nlev, as.integer(role == 1L | role == 2L))
  target <- as.integer(cumsum(width) - width)
  target[label] <- seq_len(sum(label)) - 1L
  columns <- rep(h$names, width)
  ind <- rep(role == 3L, width)
  columns[ind] <- paste0(columns[ind], "=", unlist(h$levels[role == 3L], use.names = FALSE))
  values <- vector("list", nattr)
  valued <- role == 2L | (label & nom)
  values[valued] <- lapply(h$levels[valued], as.numeric)
  first <- numeric(nattr)
  first[valued] <- vapply(values[valued], `[`, 0, 1L)
  omitted <- which(role == 3L | (role == 2L & first != 0) | (role == 4L & first == 1))
  list(role = role, target = target, values = values, columns = columns,
       labels = h$names[label], omitted = omitted - 1L)
}

# x from the rows the C reader returned.
rows_features <- function(rows, columns) {
  if (rows$sparse) {
    methods::new("dgCMatrix", i = rows$i, p = rows$p, x = rows$x,
                 Dim = c(rows$nrow, length(columns)), Dimnames = list(NULL, columns))
  } else {
    x <- rows$x
    dimnames(x) <- list(NULL, columns)
    x
  }
}

# The n x m logical label matrix from the (row, label) pairs, 0-based.
rows_labels <- function(rows, labels, ids = seq_along(labels) - 1L) {
  y <- matrix(FALSE, rows$nrow, length(labels), dimnames = list(NULL, labels))
  y[cbind(rows$pos_row + 1L, match(rows$pos_label, ids))] <- TRUE
  y[cbind(rows$na_row + 1L, match(rows$na_label, ids))] <- NA
  y
}

# The bytes of a file, decompressed when it starts like a gzip, bzip2 or xz file.
read_file_bytes <- function(file, arg) {
  if (!is.character(file) || length(file) != 1 || is.na(file))
    stop_arg("'", arg, "' must be the name of a file")
  if (!file.exists(file))
    stop_arg("'", arg, "': the file '", file, "' does not exist")
  if (dir.exists(file))
    stop_arg("'", arg, "': '", file, "' is a directory, not a file")
  size <- file.size(file)
  magic <- readBin(file, "raw", 6L)
  compressed <- (length(magic) >= 2 && all(magic[1:2] == as.raw(c(0x1f, 0x8b)))) ||
    (length(magic) >= 3 && all(magic[1:3] == charToRaw("BZh"))) ||
    (length(magic) >= 6 && all(magic == as.raw(c(0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00))))
  if (!compressed) return(readBin(file, "raw", size))
  con <- gzfile(file, "rb")
  on.exit(close(con))
  chunks <- list()
  repeat {
    b <- readBin(con, "raw", 2^24)
    if (!length(b)) break
    chunks[[length(chunks) + 1L]] <- b
  }
  do.call(c, chunks)
}

# The message for a parse status of the C readers (codes of src/textparse.h).
parse_stop <- function(st, file, attr_names = NULL, format = "arff", hint_n_features = FALSE) {
  at <- paste0(file, ":", format(st$line, scientific = FALSE), ": ")
  tok <- paste0("'", st$token, "'")
  attr <- if (!is.null(attr_names) && st$attr >= 0 && st$attr < length(attr_names))
    paste0("'", attr_names[st$attr + 1], "'") else NULL
  nattr <- length(attr_names)
  msg <- switch(as.character(st$code),
    "1" = paste0(file, ": no @data line: the file is truncated or not in ARFF"),
    "2" = paste0(at, "cannot read this header line (", tok, ")"),
    "3" = paste0(at, "the attribute type ", tok, " is not supported ",
                 "(numeric, integer, real, nominal {...}, string and date are)"),
    "4" = paste0(at, "a quote is not closed on its line: ", tok),
    "5" = if (format == "arff")
      paste0(at, "non-numeric value ", tok, " in the numeric attribute ", attr)
    else paste0(at, "non-numeric value ", tok, " for feature ", st$attr),
    "6" = paste0(at, "the value ", tok, " is not a level of the nominal attribute ", attr),
    "7" = paste0(at, "the row has ", st$count, " values but the header declares ", nattr,
                 " attributes (truncated file?)"),
    "8" = paste0(at, "the row has more values than the ", nattr, " attributes of the header"),
    "9" = if (format == "arff")
      paste0(at, "index ", st$attr, " out of range in a sparse row: the header declares ",
             nattr, " attributes, indices 0 to ", nattr - 1)
    else paste0(at, "feature index ", st$attr, " out of range",
                if (isTRUE(hint_n_features)) paste0(": without 'n_features', indices ",
                                                    "above 2^24 are refused as a likely error")),
    "10" = if (format == "arff")
      paste0(at, "index ", st$attr, " appears twice in a sparse row")
    else paste0(at, "feature index ", st$attr, " does not increase along the line"),
    "11" = if (format == "arff")
      paste0(at, "cannot read ", tok, " in a sparse row: expected 'index value'")
    else paste0(at, "cannot read ", tok, ": expected 'index:value'"),
    "12" = paste0(at, "a sparse row without its closing '}' (truncated file?)"),
    "13" = paste0(at, "the label ", attr, " has the value ", tok, "; labels must be 0 or 1"),
    "14" = paste0(at, "more rows or non-zero values than R's sparse matrices can hold"),
    "15" = paste0(at, "cannot read the labels ", tok,
                  ": expected whole numbers separated by commas"),
    "16" = paste0(at, "expected ',' or the end of the row",
                  if (!is.null(attr)) paste0(" after the value of ", attr), ", found ", tok),
    "17" = paste0(at, "out of memory"),
    paste0(at, "cannot read the file (code ", st$code, ")"))
  stop_arg(msg)
}

# Label names from a Mulan XML file: every <label name="..."> element, in
# document order (nested, hierarchical labels included).
read_mulan_xml <- function(xml) {
  txt <- rawToChar(read_file_bytes(xml, "xml"))
  Encoding(txt) <- "UTF-8"
  txt <- gsub("<!--.*?-->", "", txt, perl = TRUE)
  tags <- regmatches(txt, gregexpr("<label\\b[^>]*>", txt, perl = TRUE))[[1]]
  m <- regmatches(tags, regexec("\\bname\\s*=\\s*(\"([^\"]*)\"|'([^']*)')", tags, perl = TRUE))
  labels <- vapply(m, function(h) if (length(h)) paste0(h[3], h[4]) else NA_character_, "")
  if (!length(labels) || anyNA(labels))
    stop_arg("'xml': ", xml, if (!length(labels)) " has no <label name=\"...\"> element"
             else " has a <label> element without a name")
  labels <- xml_unescape(labels)
  if (anyDuplicated(labels))
    stop_arg("'xml': ", xml, " names the label '", labels[anyDuplicated(labels)], "' twice")
  labels
}

xml_unescape <- function(s) {
  s <- gsub("&lt;", "<", s, fixed = TRUE)
  s <- gsub("&gt;", ">", s, fixed = TRUE)
  s <- gsub("&quot;", "\"", s, fixed = TRUE)
  s <- gsub("&apos;", "'", s, fixed = TRUE)
  num <- gregexpr("&#(x[0-9a-fA-F]+|[0-9]+);", s)
  regmatches(s, num) <- lapply(regmatches(s, num), function(e) {
    code <- sub("^&#(.*);$", "\\1", e)
    hex <- startsWith(code, "x")
    val <- ifelse(hex, strtoi(substring(code, 2), 16L), strtoi(code, 10L))
    vapply(val, intToUtf8, "")
  })
  gsub("&amp;", "&", s, fixed = TRUE)
}

xml_escape <- function(s) {
  s <- gsub("&", "&amp;", s, fixed = TRUE)
  s <- gsub("<", "&lt;", s, fixed = TRUE)
  s <- gsub(">", "&gt;", s, fixed = TRUE)
  gsub("\"", "&quot;", s, fixed = TRUE)
}

#' Write multi-label data as Mulan ARFF and XML files
#'
#' Writes the features and labels of an [`mlss_data`][mlss_data()] object
#' (or any list with `x` and `y`) as a Mulan ARFF file, the features as
#' numeric attributes followed by the labels as `{0,1}` attributes, and the
#' XML file naming the labels.  A sparse `x` is written as sparse rows.
#' Numbers are written with the fewest digits (15 to 17 significant) that
#' read back to the same double, so [read_mulan()] returns the data written:
#' the same `x` (of the same class, unless a dense `x` has a density of at
#' most 1/4, which the reader makes sparse unless told `sparse = FALSE`), `y`,
#' names and relation name.  The data set's `name` and its train/test split
#' (`train`), which ARFF has no place for, are written as comment lines at
#' the top of the file (`% mlss-name: ...`, `% mlss-train: T391 F202`, runs
#' of training and test rows), which other readers skip and [read_mulan()]
#' reads back.
#'
#' @param data An `mlss_data` object, or a list with `x` and `y`.
#' @param arff Path of the ARFF file to write; a name ending in `.gz` is
#'   written compressed.
#' @param xml Path of the XML file, or `NULL` for none.  By default the ARFF
#'   path with the extension `.xml`.
#' @param sparse Write sparse rows? By default when `x` is sparse.
#' @param meka Add MEKA's `-C -m` (the last m attributes are labels) to the
#'   relation name, for [read_meka()] and MEKA.
#' @return The path of the ARFF file, invisibly.
#' @seealso [read_mulan()].
#' @examples
#' emotions <- mlss::emotions
#' f <- tempfile(fileext = ".arff")
#' write_mulan(emotions, f)
#' again <- read_mulan(f, xml = sub("arff$", "xml", f))
#' identical(again$x, emotions$x)
#' identical(again$y, emotions$y)
#' @export
write_mulan <- function(data, arff, xml = sub("(\\.arff)?(\\.gz)?$", ".xml", arff),
                        sparse = NULL, meka = FALSE) {
  data <- as_mlss_data(data)
  if (!is.character(arff) || length(arff) != 1 || is.na(arff))
    stop_arg("'arff' must be the name of the file to write")
  if (!is.null(xml) && (!is.character(xml) || length(xml) != 1 || is.na(xml)))
    stop_arg("'xml' must be the name of the XML file to write, or NULL")
  meka <- check_flag(meka, "meka")
  x <- data$x
  y <- data$y
  if (is.null(sparse)) sparse <- inherits(x, "sparseMatrix")
  sparse <- check_flag(sparse, "sparse")
  features <- colnames(x) %||% paste0("Att", seq_len(ncol(x)))
  if (anyDuplicated(c(features, colnames(y))))
    stop_arg("the feature and label names of 'data' must be distinct")
  relation <- data$relation %||% data$name %||% "mlss"
  if (meka) relation <- paste0(relation, ": -C -", ncol(y))
  # the name and the train/test split, which ARFF has no place for, as
  # comments that read_mulan() reads back (and other readers skip)
  own <- c(if (!is.null(data$name)) paste0("% mlss-name: ", gsub("[\r\n]", " ", data$name)),
           if (!is.null(data$train)) {
             r <- rle(data$train)
             paste0("% mlss-train: ", paste0(ifelse(r$values, "T", "F"), r$lengths,
                                             collapse = " "))
           })
  header <- c(own, paste("@relation", arff_quote(relation)), "",
              paste("@attribute", arff_quote(features), "numeric"),
              paste("@attribute", arff_quote(colnames(y)), "{0,1}"), "", "@data")
  if (sparse) {
    check_sparse_slots(x, "data$x")
    xt <- Matrix::t(methods::as(methods::as(x, "CsparseMatrix"), "dMatrix"))
    nx <- native_matrix(methods::as(xt, "generalMatrix"))
  } else {
    nx <- native_matrix(as.matrix(x))
    storage.mode(nx$x) <- "double"
  }
  rows <- if (nrow(x) > 0) .Call(C_arff_format_rows, nx, y) else raw()
  con <- if (grepl("\\.gz$", arff)) gzfile(arff, "wb") else file(arff, "wb")
  on.exit(close(con))
  writeLines(enc2utf8(header), con, useBytes = TRUE)
  writeBin(rows, con)
  if (!is.null(xml)) {
    writeLines(enc2utf8(c('<?xml version="1.0" encoding="utf-8"?>',
                          '<labels xmlns="http://mulan.sourceforge.net/labels">',
                          paste0('<label name="', xml_escape(colnames(y)), '"></label>'),
                          "</labels>")), xml, useBytes = TRUE)
  }
  invisible(arff)
}

# Names in an ARFF header: quoted when they hold a blank, a delimiter, a
# quote, '%' or a backslash, or start with '@' or are empty.
arff_quote <- function(s) {
  s <- enc2utf8(as.character(s))
  need <- !nzchar(s) | grepl("[[:space:],{}'\"%\\\\]|^@", s)
  q <- gsub("\\", "\\\\", s[need], fixed = TRUE)
  q <- gsub("'", "\\'", q, fixed = TRUE)
  q <- gsub("\n", "\\n", q, fixed = TRUE)
  q <- gsub("\t", "\\t", q, fixed = TRUE)
  q <- gsub("\r", "\\r", q, fixed = TRUE)
  s[need] <- paste0("'", q, "'")
  s
}
