# BR+ (Godbole and Sarawagi 2004) and DBR (Montanes et al. 2014) against a
# plain-R reading: two layers of br() fits, the second on cb(x, ...), the
# inner folds from the same draws.

cb <- function(a, b) unname(cbind(a, b))

test_that("BR+ stacks a second BR on x and the first layer's out-of-fold scores", {
  pr <- labelset_problem(8, n = 60, m = 3)
  set.seed(3)
  fit <- brplus(pr$x, pr$y, inner_folds = 3)
  set.seed(3)
  folds <- sample(rep_len(1:3, 60))
  z <- matrix(0, 60, 3)
  for (f in 1:3) {
    inner <- br(pr$x[folds != f, ], pr$y[folds != f, ], learner = "logistic")
    z[folds == f, ] <- predict(inner, pr$x[folds == f, ], type = "score")
  }
  second <- br(cb(pr$x, z), pr$y, learner = "logistic")
  first <- br(pr$x, pr$y, learner = "logistic")
  s <- predict(second, cb(pr$newx, predict(first, pr$newx, type = "score")),
               type = "score")
  expect_equal(unname(predict(fit, pr$newx, type = "score")), unname(s), tolerance = 1e-10)
  expect_identical(unname(predict(fit, pr$newx)), unname(s > 0.5))
  expect_identical(fit$folds, folds)
  # in-sample first-layer scores with inner_folds = 1
  f1 <- brplus(pr$x, pr$y, inner_folds = 1)
  s1 <- predict(br(cb(pr$x, predict(first, pr$x, type = "score")), pr$y,
                   learner = "logistic"),
                cb(pr$newx, predict(first, pr$newx, type = "score")), type = "score")
  expect_equal(unname(predict(f1, pr$newx, type = "score")), unname(s1), tolerance = 1e-10)
  # sparse x: the same scores
  xs <- Matrix::Matrix(pr$x, sparse = TRUE)
  fs <- brplus(xs, pr$y, inner_folds = 1)
  expect_equal(predict(fs, Matrix::Matrix(pr$newx, sparse = TRUE), type = "score"),
               predict(f1, pr$newx, type = "score"), tolerance = 1e-8)
  expect_output(print(fit), "3-fold out-of-fold")
  expect_error(brplus(pr$x, pr$y, inner_folds = 0), "'inner_folds'")
})

test_that("DBR fits each label on x and the true other labels, predicts with the first layer's", {
  pr <- labelset_problem(9, n = 60, m = 3)
  fit <- dbr(pr$x, pr$y, learner = "ridge")
  first <- br(pr$x, pr$y, learner = "ridge")
  zc <- predict(first, pr$newx, type = "score") > 0
  s <- sapply(1:3, function(l) {
    f <- br(cb(pr$x, pr$y[, -l] + 0), pr$y[, l, drop = FALSE], learner = "ridge")
    predict(f, cb(pr$newx, zc[, -l] + 0), type = "score")[, 1]
  })
  expect_equal(unname(predict(fit, pr$newx, type = "score")), unname(s), tolerance = 1e-10)
  expect_identical(unname(predict(fit, pr$newx)), unname(s > 0))
  expect_output(print(fit), "Dependent binary relevance")
  expect_error(dbr(pr$x, pr$y[, 1, drop = FALSE]), "at least two labels")
})

test_that("cv_brplus and cv_dbr cross-validate the cost on the engine", {
  pr <- labelset_problem(10, n = 60, m = 3)
  set.seed(2)
  cv <- toolbox_cv(cv_brplus, pr, inner_folds = 2)
  expect_s3_class(cv, "cv_brplus")
  cvd <- toolbox_cv(cv_dbr, pr)
  expect_s3_class(cvd$fit, "dbr")
  expect_identical(cvd$fit$threshold_source, "oof")
  # the steps every toolbox cv_*() shares (cv_cost_method()): unknown
  # arguments refused by name, and the formula interface, which scores the
  # same data the same way
  expect_error(toolbox_cv(cv_dbr, pr, bogus = 1), "unknown argument\\(s\\): bogus")
  df <- data.frame(pr$x, pr$y + 0)
  cvf <- suppressMessages(cv_dbr(cbind(l1, l2, l3) ~ ., data = df, cost = c(0.1, 1),
                                 foldid = rep_len(1:3, 60)))
  expect_s3_class(cvf$fit, "dbr")
  expect_equal(cvf$cvm, cvd$cvm, tolerance = 1e-12)
})
