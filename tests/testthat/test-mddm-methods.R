# predict/coef/print/plot/summary of MDDM fits, and the classifier on top of
# the projection against a plain-R ridge regression.

test_that("the projection of new data is (newx - center) P, dense or sparse", {
  p <- label_problem(40, 10, m = 4, seed = 21)
  fit <- mddm(p$X, p$Y, k = 3, mu = 0.5)
  newx <- sparse_version(matrix(rnorm(50), 5, 10), seed = 2)
  ref <- sweep(newx, 2, colMeans(p$X)) %*% fit$P
  expect_equal(predict(fit, newx, type = "projection"), ref, tolerance = 1e-12, ignore_attr = TRUE)
  expect_equal(predict(fit, Matrix::Matrix(newx, sparse = TRUE), type = "projection"), ref, tolerance = 1e-12,
               ignore_attr = TRUE)
  expect_identical(colnames(predict(fit, newx, type = "projection")), paste0("MDDM", 1:3))
  # the training projection is centred, with P'S1P = I on it
  z <- predict(fit, p$X, type = "projection")
  expect_equal(colMeans(z), rep(0, 3), tolerance = 1e-12, ignore_attr = TRUE)
})

test_that("the classifier is per-label ridge regression on the rescaled projection", {
  p <- label_problem(60, 12, m = 4, seed = 22)
  for (mu in c(0, 1)) {
    fit <- mddm(p$X, p$Y, k = 3, mu = mu, lambda = 0.1)
    z <- predict(fit, p$X, type = "projection")
    s <- sqrt(mean(z^2))
    expect_equal(fit$scale, s)
    Y <- 2 * p$Y - 1
    V <- solve(crossprod(z / s) / 60 + 0.1 * diag(3), crossprod(z / s, scale(Y, scale = FALSE)) / 60)
    newx <- matrix(rnorm(24), 2, 12)
    znew <- predict(fit, newx, type = "projection")
    ref <- rep(colMeans(Y), each = 2) + znew %*% V / s
    expect_equal(predict(fit, newx, type = "score"), ref, tolerance = 1e-10, ignore_attr = TRUE)
    # the whole chain is a linear scorer in the input space
    expect_equal(cbind(1, newx) %*% coef(fit, "U"), ref, tolerance = 1e-10, ignore_attr = TRUE)
    expect_identical(coef(fit), fit$P)
    # thresholds: F1-optimal on the training scores, replaceable
    th <- f1_thresholds(predict(fit, p$X, type = "score"), p$Y)$threshold
    expect_equal(fit$classifier$thresholds, th)
    cls <- predict(fit, newx, type = "class")
    expect_identical(unname(cls), unname(ref > rep(th, each = 2)))
    expect_identical(unname(predict(fit, newx, type = "class", thresholds = 0)), unname(ref > 0))
  }
})

test_that("new data columns are matched by name and checked", {
  p <- label_problem(30, 5, m = 3, seed = 23)
  X <- p$X
  colnames(X) <- letters[1:5]
  fit <- mddm(X, p$Y, k = 2)
  expect_identical(rownames(fit$P), letters[1:5])
  expect_equal(predict(fit, X[, 5:1], type = "projection"), predict(fit, X, type = "projection"))
  expect_error(predict(fit, X[, 1:4], type = "projection"), "'newx' has 4 columns but the model was fitted on 5")
  expect_error(predict(fit, type = "projection"), "'newx' is missing")
  expect_error(predict(fit, X, type = "class", thresholds = 1:2), "'thresholds' must be")
})

test_that("print, summary and plot work and return their argument invisibly", {
  p <- label_problem(30, 8, m = 4, seed = 24)
  fit <- mddm(p$X, p$Y, k = 0.8, mu = 0.5)
  out <- capture.output(res <- withVisible(print(fit)))
  expect_false(res$visible)
  expect_match(paste(out, collapse = "\n"), "MDDM on 30 instances, 8 features, 4 labels")
  s <- summary(fit)
  expect_equal(s$spectrum$cumulative[fit$k], fit$share)
  expect_identical(sum(s$spectrum$kept), fit$k)
  expect_output(print(s), "Per-label classifier")
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  res <- withVisible(plot(fit, main = "custom", col = "red"))
  expect_false(res$visible)
  expect_identical(res$value, fit)
})
