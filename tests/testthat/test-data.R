# The bundled data sets: their shape, their split, Mulan's statistics, and
# (with ../shared) that they are what read_mulan() reads from the originals.

test_that("yeast, emotions and scene are mlss_data with Mulan's shapes and splits", {
  expected <- list(yeast = c(2417, 103, 14, 1500), emotions = c(593, 72, 6, 391),
                   scene = c(2407, 294, 6, 1211))
  cardinality <- c(yeast = 4.237, emotions = 1.869, scene = 1.074)  # Mulan's table
  for (set in names(expected)) {
    e <- new.env()
    data(list = set, package = "mlss", envir = e)
    d <- e[[set]]
    expect_s3_class(d, "mlss_data")
    expect_named(d, c("x", "y", "train", "name", "relation"))
    expect_true(is.matrix(d$x) && is.double(d$x))
    expect_true(is.logical(d$y) && !anyNA(d$y))
    expect_identical(c(dim(d$x), ncol(d$y), sum(d$train)), as.integer(expected[[set]]))
    expect_identical(d$train, seq_len(nrow(d$x)) <= expected[[set]][4])
    expect_identical(d$name, set)
    expect_equal(mean(rowSums(d$y)), cardinality[[set]], tolerance = 1e-3)
  }
})

test_that("the bundled sets are read_mulan() of the Mulan originals", {
  for (set in c("yeast", "emotions", "scene")) {
    dir <- shared_data("mulan", set)
    e <- new.env()
    data(list = set, package = "mlss", envir = e)
    d <- read_mulan(file.path(dir, paste0(set, "-train.arff")),
                    xml = file.path(dir, paste0(set, ".xml")),
                    test = file.path(dir, paste0(set, "-test.arff")))
    expect_identical(d, e[[set]])
  }
})

test_that("print() summarises a data set", {
  data(emotions, package = "mlss", envir = environment())
  expect_output(print(emotions), "Multi-label data 'emotions': 593 instances, 72 features, 6 labels")
  expect_output(print(emotions), "split: 391 training and 202 test instances")
  expect_output(expect_invisible(print(emotions)))
  s <- mlss_data(Matrix::Matrix(diag(3), sparse = TRUE), diag(3) == 1)
  expect_output(print(s), "3 features \\(sparse\\), 3 labels")
})
