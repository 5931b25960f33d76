# Kernel MLLS against the paper's own feature-space formulation (Theorem 5.1).

test_that("kernel_matrix() computes the documented kernels", {
  set.seed(41)
  x <- matrix(rnorm(12), 4); z <- matrix(rnorm(9), 3)
  expect_equal(kernel_matrix(x, z), x %*% t(z))
  rbf <- outer(1:4, 1:3, Vectorize(function(i, j) exp(-0.5 * sum((x[i, ] - z[j, ])^2))))
  expect_equal(kernel_matrix(x, z, "rbf", gamma = 0.5), rbf)
  expect_equal(kernel_matrix(x, z, "poly", gamma = 2, degree = 3, coef0 = 1),
               (2 * x %*% t(z) + 1)^3)
  expect_equal(kernel_matrix(x, kernel = "rbf"), kernel_matrix(x, x, "rbf", gamma = 1 / 3))
  expect_equal(kernel_matrix(Matrix::Matrix(x, sparse = TRUE), z, "rbf"), kernel_matrix(x, z, "rbf"))
  expect_error(kernel_matrix(x, kernel = "rbf", gamma = -1), "'gamma' must be")
  expect_error(kernel_matrix(x, kernel = "poly", degree = 0.5), "'degree' must be")
})

test_that("RBF kernel MLLS matches Theorem 5.1, without and with intercept", {
  p <- random_problem(25, 4, 4, seed = 42)
  new <- matrix(rnorm(8 * 4), 8)
  K <- kernel_matrix(p$X, kernel = "rbf", gamma = 0.3)
  Knew <- kernel_matrix(new, p$X, kernel = "rbf", gamma = 0.3)
  fit <- mlls(p$X, p$Y, alpha = 0.2, beta = 0.05, r = 2, kernel = "rbf", gamma = 0.3,
              intercept = FALSE)
  ref <- ref_kernel_mlls(K, p$Y, alpha = 0.2, beta = 0.05, r = 2)
  expect_lt(rel_diff(predict(fit, new, type = "score"), Knew %*% ref$A), 1e-8)
  # the shared subspace: Theta = B'Phi, compared through B B' K (n x n)
  expect_lt(max(abs(fit$B %*% t(fit$B) %*% K - ref$B %*% t(ref$B) %*% K)), 1e-8)

  # intercept: the same on the centred kernel, plus the label means
  n <- 25
  H <- diag(n) - 1 / n
  Kc <- H %*% K %*% H
  Knc <- Knew - outer(rowMeans(Knew), rep(1, n)) - outer(rep(1, 8), colMeans(K)) + mean(K)
  Yc <- scale(p$Y, scale = FALSE)
  fit <- mlls(p$X, p$Y, alpha = 0.2, beta = 0.05, r = 2, kernel = "rbf", gamma = 0.3)
  # Kc is singular (H), so regularise the reference's solves through the
  # equivalent linear problem on the empirical feature map
  e <- eigen(Kc, symmetric = TRUE)
  keep <- e$values > 1e-10 * e$values[1]
  F <- e$vectors[, keep] %*% diag(sqrt(e$values[keep]))
  Fnew <- Knc %*% e$vectors[, keep] %*% diag(1 / sqrt(e$values[keep]))
  lin <- ref_mlls(F, Yc, 0.2, 0.05, 2)
  expect_lt(rel_diff(predict(fit, new, type = "score"), Fnew %*% lin$U + rep(colMeans(p$Y), each = 8)), 1e-8)
})

test_that("linear-kernel MLLS equals linear MLLS", {
  for (dims in list(c(30, 6), c(12, 25))) {
    p <- random_problem(dims[1], dims[2], 4, seed = 43)
    new <- matrix(rnorm(5 * dims[2]), 5)
    for (intercept in c(FALSE, TRUE)) {
      lin <- mlls(p$X, p$Y, alpha = 0.3, beta = 0.1, r = 2, intercept = intercept)
      ker <- mlls(p$X, p$Y, alpha = 0.3, beta = 0.1, r = 2, intercept = intercept,
                  kernel = "linear")
      expect_lt(rel_diff(predict(ker, new, type = "score"), predict(lin, new, type = "score")), 1e-9)
      expect_lt(rel_diff(crossprod(p$X - intercept * rep(colMeans(p$X), each = dims[1]), ker$A),
                         lin$U), 1e-9)
      expect_equal(ker$thresholds, lin$thresholds, tolerance = 1e-8)
    }
  }
})

test_that("a precomputed kernel gives the same fit as the named kernel", {
  p <- random_problem(20, 3, 3, seed = 44)
  new <- matrix(rnorm(12), 4)
  named <- mlls(p$X, p$Y, alpha = 1, beta = 0.1, kernel = "poly", degree = 2, gamma = 0.5)
  K <- kernel_matrix(p$X, kernel = "poly", degree = 2, gamma = 0.5)
  pre <- mlls(K, p$Y, alpha = 1, beta = 0.1, kernel = "precomputed")
  Knew <- kernel_matrix(new, p$X, kernel = "poly", degree = 2, gamma = 0.5)
  expect_equal(predict(pre, Knew), predict(named, new), tolerance = 1e-10)
  expect_error(predict(pre, Knew[, -1]), "one column per training instance")
  expect_error(mlls(K[, -1], p$Y, alpha = 1, beta = 1, kernel = "precomputed"), "must be square")
  K[1, 2] <- K[1, 2] + 1
  expect_error(mlls(K, p$Y, alpha = 1, beta = 1, kernel = "precomputed"), "not symmetric")
  expect_error(coef(named), "kernel fit has no weights")
})
