iblr_data <- function(n = 70, d = 4, seed = 21) {
  set.seed(seed)
  x <- matrix(rnorm(n * d), n)
  y <- cbind(A = x[, 1] + rnorm(n) > 0, B = x[, 2] - x[, 3] + rnorm(n) > 0.5,
             C = x[, 1] + x[, 4] + rnorm(n) > 1)
  list(x = x, y = y, newx = matrix(rnorm(13 * d), 13))
}

test_that("IBLR-ML equals the paper's model fitted by optim()", {
  d <- iblr_data()
  for (k in c(3, 10)) {
    fit <- iblr(d$x, d$y, k = k, cost = 0.7, tol = 1e-10, scale = FALSE)
    got <- predict(fit, d$newx, type = "score")
    expect_equal(unname(got), ref_iblr(d$x, d$y, d$newx, k, 0.7), tolerance = 1e-6)
    expect_identical(predict(fit, d$newx), got > 0.5)
    expect_identical(dim(fit$alpha), c(3L, 3L))
  }
  # grad_norm: the norm of the plain-R gradient of each label's logistic
  # objective at the returned weights (features: the neighbours' label means)
  fit <- iblr(d$x, d$y, k = 3, cost = 0.7, scale = FALSE)
  y01 <- as.matrix(d$y) * 1
  nbr <- ref_knn(d$x, 3)$index
  Z <- sapply(seq_len(ncol(y01)), function(l) rowMeans(matrix(y01[nbr, l], nrow(nbr))))
  for (l in seq_len(ncol(y01))) {
    w <- c(fit$alpha[, l], fit$intercept[l])
    g <- ref_logistic_gradient(w, Z, 2 * y01[, l] - 1, 0.7)
    expect_equal(unname(fit$grad_norm[l]), sqrt(sum(g^2)), tolerance = 1e-6)
  }
  # the training rows: their neighbours leave themselves out when fitting, not when predicting
  fit <- iblr(d$x, d$y, k = 5, cost = 2, tol = 1e-10, scale = FALSE)
  expect_equal(unname(predict(fit, d$x[1:9, ], type = "score")),
               ref_iblr(d$x, d$y, d$x[1:9, ], 5, 2), tolerance = 1e-6)
})

test_that("IBLR-ML+ adds the original features; sparse x gives the same model", {
  d <- iblr_data()
  fit <- iblr(d$x, d$y, k = 6, cost = 0.5, features = TRUE, tol = 1e-10, scale = FALSE)
  expect_identical(dim(fit$W), c(4L, 3L))
  got <- predict(fit, d$newx, type = "score")
  expect_equal(unname(got), ref_iblr(d$x, d$y, d$newx, 6, 0.5, features = TRUE),
               tolerance = 1e-6)
  xs <- d$x * (abs(d$x) > 0.6)
  # unscaled: with features = TRUE the scaled features enter the logistic
  # models, and scale = TRUE shifts a dense column by its minimum but not a
  # sparse one (see ?mlknn), which the penalised intercept sees
  f1 <- iblr(Matrix::Matrix(xs, sparse = TRUE), d$y, k = 6, features = TRUE, tol = 1e-10,
             scale = FALSE)
  f2 <- iblr(xs, d$y, k = 6, features = TRUE, tol = 1e-10, scale = FALSE)
  expect_equal(predict(f1, d$newx, type = "score"), predict(f2, d$newx, type = "score"),
               tolerance = 1e-8)
  expect_output(print(f1), "IBLR-ML\\+, k = 6")
})

test_that("formula method, ml_compare() and bad input", {
  d <- iblr_data()
  df <- data.frame(d$x, d$y)
  ff <- iblr(cbind(A, B, C) ~ ., data = df, k = 4)
  f0 <- iblr(d$x, d$y, k = 4)
  expect_equal(predict(ff, df[1:6, ], type = "score"), predict(f0, d$x[1:6, ], type = "score"),
               ignore_attr = TRUE)
  cmp <- ml_compare(d$x, d$y, foldid = rep(1:2, 35),
                    methods = list(iblr = function(x, y) iblr(x, y, k = 5)))
  expect_true(all(is.finite(cmp$value)))
  expect_error(iblr(d$x, d$y, k = 70), "at most 69")
  expect_error(iblr(d$x, d$y, cost = -1), "'cost'")
  expect_error(iblr(d$x, d$y, features = NA), "'features'")
  expect_error(predict(f0, d$x[, 1:2]), "columns")
})

test_that("scale = TRUE: IBLR-ML+ sees the rescaled features in its logistic models", {
  d <- iblr_data()
  x <- d$x * rep(c(1, 100, 0.01, 5), each = 70)
  lo <- apply(x, 2, min)
  w <- apply(x, 2, max) - lo
  sc <- function(v) sweep(sweep(v, 2, lo), 2, w, "/")
  fit <- iblr(x, d$y, k = 6, cost = 0.5, features = TRUE, scale = TRUE, tol = 1e-10)
  expect_equal(unname(predict(fit, d$newx, type = "score")),
               ref_iblr(sc(x), d$y, sc(d$newx), 6, 0.5, features = TRUE), tolerance = 1e-6)
})
