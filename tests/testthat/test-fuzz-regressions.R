# The readers on hostile files: the inputs the fuzzers of tools/fuzz found
# interesting (its kept corpus, when the package sources are at hand), run
# through the R functions, and every crash or bad error found so far as a
# regression test.  A file may be read or refused, but refused with a
# message that names the file or the argument, never a crash, an internal
# error or an error from deep inside R.

# tools/fuzz/corpus of the source tree (searched upwards), or a skip.
fuzz_corpus <- function(target) {
  here <- normalizePath(getwd())
  repeat {
    dir <- file.path(here, "tools", "fuzz", "corpus", target)
    if (dir.exists(dir)) return(list.files(dir, full.names = TRUE))
    if (dirname(here) == here) skip("tools/fuzz/corpus is not available")
    here <- dirname(here)
  }
}

# The bytes of a corpus input written to files the way the fuzz target reads
# them (see tools/fuzz/fuzz_*.c); returns the reader's call.
replay <- function(target, bytes) {
  f <- tempfile()
  switch(target,
    fuzz_arff = {
      nul <- which(bytes == 0)[1]
      if (is.na(nul)) {
        writeBin(bytes, f)
        function() read_mulan(f, labels = 1)
      } else {
        x <- tempfile(fileext = ".xml")
        writeBin(bytes[seq_len(nul - 1)], x)
        writeBin(bytes[-seq_len(nul)], f)
        function() read_mulan(f, xml = x)
      }
    },
    fuzz_meka = {
      writeBin(bytes, f)
      function() read_meka(f)
    },
    fuzz_libsvm = {
      if (length(bytes) < 2) return(NULL)
      writeBin(bytes[-(1:2)], f)
      opt <- as.integer(bytes[1])
      n_features <- if (bitwAnd(opt, 2L)) as.integer(bytes[2])
      function() read_libsvm_ml(f, zero_based = bitwAnd(opt, 1L) == 1L, n_features = n_features)
    })
}

# Messages that show the reader did not catch a bad file itself.
unclean <- "internal:|embedded nul|invalid class|subscript out of bounds|missing value where|non-numeric argument|argument is of length zero|cannot allocate"

expect_read_or_refused <- function(read, what) {
  res <- tryCatch(suppressWarnings(read()), error = function(e) e)
  if (inherits(res, "error")) {
    expect_false(grepl(unclean, conditionMessage(res)), label = paste(what, conditionMessage(res)))
  } else {
    expect_s3_class(res, "mlss_data")
    expect_identical(nrow(res$x), nrow(res$y), label = what)
    expect_false(anyNA(colnames(res$y)), label = what)
  }
}

for (target in c("fuzz_arff", "fuzz_meka", "fuzz_libsvm")) {
  test_that(paste("the", target, "corpus is read or refused cleanly"), {
    for (input in fuzz_corpus(target)) {
      bytes <- readBin(input, "raw", file.size(input))
      read <- replay(target, bytes)
      if (!is.null(read)) expect_read_or_refused(read, paste(target, basename(input)))
    }
  })
}

# ---- regressions ----

test_that("a file starting with a NUL byte is refused as not ARFF, not by rawToChar()", {
  f <- tempfile()
  writeBin(as.raw(0:255), f)
  expect_error(read_mulan(f, labels = 1), "cannot read this header line")
  expect_error(read_meka(f), "cannot read this header line")
  expect_error(read_libsvm_ml(f), "expected")
})

test_that("an empty LIBSVM file gives no instance and no feature, not a broken dgCMatrix", {
  f <- tempfile()
  file.create(f)
  d <- read_libsvm_ml(f)
  expect_identical(dim(d$x), c(0L, 0L))
  expect_identical(dim(d$y), c(0L, 0L))
  writeLines(c("# only a comment", "", "1,2"), f)
  d <- read_libsvm_ml(f)
  expect_identical(dim(d$x), c(1L, 0L))
  expect_identical(colnames(d$y), c("1", "2"))
})

test_that("read_mulan(labels = Inf) and a directory are refused by name", {
  f <- text_file(c("@relation r", "@attribute a numeric", "@attribute l {0,1}", "@data", "1,1"))
  expect_error(read_mulan(f, labels = Inf), "'labels' must be")
  expect_error(read_mulan(tempdir(), labels = 1), "'arff': .* is a directory")
})

test_that("a huge LIBSVM feature index is refused without n_features (found by fuzz_libsvm)", {
  # "100000444:445" made a matrix of 10^8 columns and as many names: minutes
  f <- text_file(c("1 11:4", "1 100000444:445"), ext = ".svm")
  expect_error(read_libsvm_ml(f, zero_based = TRUE),
               "feature index 100000444 out of range: without 'n_features', indices above 2\\^24")
  f <- text_file("1 16777217:1", ext = ".svm")  # column 2^24 + 1: one too many
  expect_error(read_libsvm_ml(f), "out of range")
})

test_that("a nominal attribute with no levels is refused (found by fuzz_arff)", {
  # {} left the attribute no column while a sparse row's omitted value still
  # wrote its first level there: two entries in one cell, an invalid dgCMatrix
  f <- text_file(c("@relation e", "@attribute a {0,1}", "@attribute empty { }",
                   "@attribute b {0,1}", "@attribute L {0,1}", "@data",
                   "{0 1,3 1}", "{2 1}"))
  expect_error(read_mulan(f, labels = "L"), ":3: cannot read this header line")
})

test_that("a dgCMatrix with broken slots is refused by name, not read out of bounds (found by probes)", {
  # slots edited by hand skip Matrix's validity check; the C code trusted them
  # (37 segfaults in the fitting and predict functions: test-hostile.R)
  set.seed(2)
  S <- Matrix::rsparsematrix(10, 4, 0.5)
  colnames(S) <- paste0("f", 1:4)
  Y <- cbind(a = rep(c(TRUE, FALSE), 5))
  out <- S; out@i[2] <- 1000L
  neg <- S; neg@i[2] <- -1L
  k <- which(diff(S@i) > 0 & diff(rep(seq_len(4), diff(S@p))) == 0)[1]  # two entries in a column
  dup <- S; dup@i[k + 1] <- dup@i[k]
  for (b in list(out, neg)) {
    expect_error(write_mulan(list(x = b, y = Y), tempfile()),
                 "'data\\$x' is a malformed dgCMatrix: row index -?[0-9]+ in column [0-9]+ is outside 0..9")
    expect_error(mlls(b, Y, alpha = 1, beta = 1), "'x' is a malformed dgCMatrix")
    expect_error(predict(mlls(S, Y, alpha = 1, beta = 1), b), "'newx' is a malformed dgCMatrix")
  }
  expect_error(write_mulan(list(x = dup, y = Y), tempfile()), "'data\\$x' .* not strictly increasing")
  expect_error(mlknn(dup, Y, k = 2), "'x' .* not strictly increasing")
})
