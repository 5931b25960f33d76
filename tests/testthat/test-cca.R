test_that("the CCA directions from the MLLS subspace are those of the CCA eigenproblem", {
  d <- baseline_data(n = 80, d = 6, m = 3)
  for (lambda in c(0, 0.1)) {
    fit <- cca_ridge(d$X, d$Y, lambda = lambda, cost = 1)
    ref <- ref_cca(d$X, d$Y, lambda)
    # the eigenvalues are the squared regularised canonical correlations
    expect_equal(unname(fit$cor^2), ref$values[1:3], tolerance = 1e-8)
    # each direction is the reference eigenvector up to scale
    for (k in 1:3)
      expect_equal(abs(cor(fit$projection[, k], ref$vectors[, k])), 1, tolerance = 1e-8)
    # normalisation W'(X'X/n + lambda I)W = I, X centred
    Xc <- scale(d$X, scale = FALSE)
    S1 <- crossprod(Xc) / 80 + lambda * diag(6)
    expect_equal(crossprod(fit$projection, S1 %*% fit$projection), diag(3),
                 tolerance = 1e-8, ignore_attr = TRUE)
    # fewer directions than labels: the MLLS subspace itself must be CCA's
    # (the labels whitened), not orthonormalised PLS's
    fit2 <- cca_ridge(d$X, d$Y, lambda = lambda, cost = 1, r = 2)
    expect_equal(unname(fit2$cor^2), ref$values[1:2], tolerance = 1e-8)
    for (k in 1:2)
      expect_equal(abs(cor(fit2$projection[, k], ref$vectors[, k])), 1, tolerance = 1e-8)
  }
})

test_that("cca_ridge() is ridge on the projected data, folded into one linear model", {
  d <- baseline_data(n = 80, d = 6, m = 3)
  fit <- cca_ridge(d$X, d$Y, lambda = 0.05, cost = 0.5, r = 2)
  expect_equal(ncol(fit$projection), 2)
  Z <- scale(d$X, scale = FALSE) %*% fit$projection
  V <- ref_ridge(Z, d$Y, 0.5)
  expect_equal(unname(fit$W), unname(fit$projection %*% V), tolerance = 1e-8)
  expect_equal(predict(fit, d$X, type = "score"), predict(fit$stage2, Z, type = "score"), tolerance = 1e-8, ignore_attr = TRUE)
  expect_s3_class(fit, c("cca_ridge", "br"))
  expect_output(print(fit), "CCA \\+ ridge")
})

test_that("cca_svm() is the SVM on the projected data; sparse input works", {
  d <- baseline_data(n = 80, d = 6, m = 3)
  fit <- cca_svm(d$X, d$Y, lambda = 0.05, cost = 0.5, tol = 1e-10, max_iter = 1e5)
  Z <- scale(d$X, scale = FALSE) %*% fit$projection
  direct <- br(Z, d$Y, learner = "svm", cost = 0.5, tol = 1e-10, max_iter = 1e5)
  expect_equal(predict(fit, d$X, type = "score"), predict(direct, Z, type = "score"), tolerance = 1e-6, ignore_attr = TRUE)
  xs <- Matrix::Matrix(d$X, sparse = TRUE)
  fs <- cca_svm(xs, d$Y, lambda = 0.05, cost = 0.5, tol = 1e-10, max_iter = 1e5)
  expect_equal(predict(fs, xs, type = "score"), predict(fit, d$X, type = "score"), tolerance = 1e-6)
  expect_equal(dim(predict(fs, xs, type = "class")), c(80, 3))
})

test_that("cca_* check their arguments", {
  d <- baseline_data()
  expect_error(cca_ridge(d$X, d$Y), "'lambda' is missing")
  expect_error(cca_ridge(d$X, d$Y, lambda = -1), "'lambda' must be")
  expect_error(cca_svm(d$X, d$Y, lambda = 1, cost = 0), "'cost' must be")
  expect_error(cca_ridge(d$X, d$Y, lambda = 1, foo = 2), "unknown argument")
  df <- data.frame(d$X, d$Y)
  ff <- cca_ridge(cbind(l1, l2, l3) ~ ., data = df, lambda = 0.1)
  expect_equal(predict(ff, df, type = "score"), predict(cca_ridge(d$X, d$Y, lambda = 0.1), d$X, type = "score"),
               ignore_attr = TRUE)
})
