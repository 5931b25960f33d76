# read_libsvm_ml(): small files whose content is known by hand, and the
# error messages.

test_that("labels, pairs, comments and blank lines read as written", {
  f <- text_file(c("# a comment line", "2,0 1:0.5 3:1", "",
                   "1 2:2   # a comment after a row", " 1:1 4:0.25", "0,1,2"))
  d <- read_libsvm_ml(f)
  expect_s3_class(d, "mlss_data")
  expect_s4_class(d$x, "dgCMatrix")
  x <- rbind(c(0.5, 0, 1, 0), c(0, 2, 0, 0), c(1, 0, 0, 0.25), c(0, 0, 0, 0))
  expect_identical(as.matrix(d$x), `dimnames<-`(x, list(NULL, paste0("f", 1:4))))
  y <- rbind(c(TRUE, FALSE, TRUE), c(FALSE, TRUE, FALSE), c(FALSE, FALSE, FALSE), c(TRUE, TRUE, TRUE))
  expect_identical(d$y, `dimnames<-`(y, list(NULL, c("0", "1", "2"))))
  expect_identical(d$name, basename(sub("\\.arff$", "", f)))
})

test_that("a file without a final newline keeps its last value whole", {
  for (eol in c("\n", "\r\n")) {
    d <- read_libsvm_ml(text_file(c("1 1:2", "0 2:125"), eol = eol, final_eol = FALSE))
    expect_identical(as.matrix(d$x), rbind(c(f1 = 2, f2 = 0), c(0, 125)))
    d <- read_libsvm_ml(text_file(c("1 1:2", "0,1"), eol = eol, final_eol = FALSE))
    expect_identical(unname(d$y), rbind(c(FALSE, TRUE), c(TRUE, TRUE)))
  }
})

test_that("zero-based indices, a fixed width, the label set and order, dense x", {
  f <- text_file(c("3 0:1 2:2", "5 1:-1"), ext = ".txt")
  d <- read_libsvm_ml(f, zero_based = TRUE, n_features = 5, labels = c(5, 4, 3), sparse = FALSE)
  expect_identical(d$x, rbind(c(f0 = 1, f1 = 0, f2 = 2, f3 = 0, f4 = 0), c(0, -1, 0, 0, 0)))
  expect_identical(d$y, rbind(c(`5` = FALSE, `4` = FALSE, `3` = TRUE), c(TRUE, FALSE, FALSE)))
  expect_error(read_libsvm_ml(f, zero_based = TRUE, labels = c(3, 4)),
               paste0(f, ":2: the label 5 is not in 'labels'"), fixed = TRUE)
})

test_that("a UTF-8 byte order mark is skipped", {
  f <- tempfile()
  writeBin(c(as.raw(c(0xef, 0xbb, 0xbf)), charToRaw("1 1:2\n")), f)
  expect_identical(read_libsvm_ml(f)$y, cbind(`1` = TRUE))
})

test_that("errors name the file and the line", {
  err <- function(lines, ...) {
    f <- text_file(lines, ext = ".svm")
    sub(f, "FILE", error_of(read_libsvm_ml(f, ...)), fixed = TRUE)
  }
  expect_identical(err(c("1 1:1", "a,2 1:1")),
                   "FILE:2: cannot read the labels 'a,2': expected whole numbers separated by commas")
  expect_identical(err(c("1 1:1", "1,,2 1:1")),
                   "FILE:2: cannot read the labels '1,,2': expected whole numbers separated by commas")
  expect_identical(err(c("1 2:1 2:3")), "FILE:1: feature index 2 does not increase along the line")
  expect_identical(err(c("1 3:1 2:3")), "FILE:1: feature index 2 does not increase along the line")
  expect_identical(err(c("1 0:1")), "FILE:1: feature index 0 out of range")
  expect_identical(err(c("1 6:1"), n_features = 5), "FILE:1: feature index 6 out of range")
  expect_identical(err(c("1 2:x")), "FILE:1: non-numeric value 'x' for feature 2")
  expect_identical(err(c("1 2 3")), "FILE:1: cannot read '2': expected 'index:value'")
  expect_error(read_libsvm_ml(text_file("1 1:1"), n_features = -1), "'n_features' must be NULL")
  expect_error(read_libsvm_ml(text_file("1 1:1"), labels = c(1, 1)), "'labels' must be NULL or distinct")
  expect_error(read_libsvm_ml(text_file("1 1:1"), zero_based = NA), "'zero_based' must be TRUE or FALSE")
})
