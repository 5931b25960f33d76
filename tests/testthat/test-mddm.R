# MDDM against independent references: the generalised eigenproblem on d x d
# matrices in plain R, the direct path in C, the special case mu = 0, and the
# least-squares equivalences of the vignette.

test_that("efficient and direct paths and the plain-R reference give the same subspace", {
  for (dims in list(c(40, 12), c(25, 60))) {
    p <- label_problem(dims[1], dims[2], m = 5, seed = dims[2])
    Xs <- sparse_version(p$X, density = 0.5, seed = dims[1])
    for (X in list(Xs, Matrix::Matrix(Xs, sparse = TRUE))) {
      for (mu in c(0, 0.5, 1)) {
        ref <- ref_mddm(as.matrix(X), p$L, mu, k = 3)
        fits <- lapply(c("primal", "dual", "direct"), function(method)
          mddm(X, p$Y, k = 3, mu = mu, method = method))
        for (fit in fits) {
          expect_lt(max_angle(fit$P, ref$P), 1e-6)
          expect_lt(max_angle(fit$P, fits[[3]]$P), 1e-6)
          expect_equal(fit$values[1:3], ref$values, tolerance = 1e-8)
          expect_equal(crossprod(fit$P, ref$S1 %*% fit$P), diag(3), tolerance = 1e-8,
                       ignore_attr = TRUE)
          # distinct eigenvalues: the columns themselves agree, up to sign
          expect_lt(same_columns_up_to_scale(fit$P, ref$P), 1e-7)
        }
      }
    }
  }
})

test_that("mu = 1 gives the minimum-norm solution when the data are rank deficient", {
  p <- label_problem(20, 50, m = 4, seed = 2)
  fit <- mddm(p$X, p$Y, k = 3, mu = 1)
  Xc <- scale(p$X, scale = FALSE)
  # in the row space of the centred data: projecting onto it changes nothing
  expect_lt(max(abs(pinv(Xc) %*% (Xc %*% fit$P) - fit$P)), 1e-10)
  # uncorrelated projected features
  expect_equal(crossprod(Xc %*% fit$P), diag(3), tolerance = 1e-10, ignore_attr = TRUE)
})

test_that("mu = 0 with the linear label kernel gives the top left singular vectors of X'HY", {
  for (dims in list(c(50, 8), c(15, 40))) {
    p <- label_problem(dims[1], dims[2], m = 6, seed = 3)
    Xc <- scale(p$X, scale = FALSE)
    ref <- svd(crossprod(Xc, p$Y))
    for (method in c("primal", "dual", "direct")) {
      fit <- mddm(p$X, p$Y, k = 4, mu = 0, method = method)
      expect_lt(same_columns_up_to_scale(fit$P, ref$u[, 1:4]), 1e-8)
      expect_equal(crossprod(fit$P), diag(4), tolerance = 1e-10, ignore_attr = TRUE)
      expect_equal(fit$values, ref$d^2, tolerance = 1e-10)
    }
  }
})

test_that("mu = 1, centred x of rank n - 1: MDDM is the minimum-norm least-squares fit of HLH's eigenvectors", {
  for (d in c(29, 45)) {  # d = n - 1 and d > n
    p <- label_problem(30, d, m = 6, seed = d)
    Xc <- scale(p$X, scale = FALSE)
    T <- ref_targets(p$L, 4)
    ls <- pinv(Xc) %*% T
    for (method in c("primal", "dual", "direct")) {
      fit <- mddm(p$X, p$Y, k = 4, mu = 1, method = method)
      expect_lt(same_columns_up_to_scale(fit$P, ls), 1e-8)
      # not only the same span: the same columns, with the same norms
      expect_equal(abs(colSums(fit$P * ls)) / colSums(ls^2), rep(1, 4), tolerance = 1e-8,
                   ignore_attr = TRUE)
    }
  }
  # with d < n - 1 the least-squares fit is a different subspace (the vignette
  # measures how close it is)
  p <- label_problem(60, 10, m = 6, seed = 4)
  fit <- mddm(p$X, p$Y, k = 3, mu = 1)
  ls <- pinv(scale(p$X, scale = FALSE)) %*% ref_targets(p$L, 3)
  expect_gt(max_angle(fit$P, ls), 1e-3)
})

test_that("with all the targets (k = rank of HLH) MDDM(mu) is ridge regression with lambda = (1 - mu) / mu, for any d", {
  for (dims in list(c(60, 10), c(20, 45))) {
    p <- label_problem(dims[1], dims[2], m = 5, seed = 5)
    Xc <- scale(p$X, scale = FALSE)
    T <- ref_targets(p$L, 5)
    for (mu in c(0.2, 0.5, 1)) {
      lambda <- (1 - mu) / mu
      ridge <- if (lambda > 0) solve(crossprod(Xc) + lambda * diag(dims[2]), crossprod(Xc, T))
               else pinv(Xc) %*% T
      fit <- mddm(p$X, p$Y, k = 5, mu = mu)
      expect_lt(max_angle(fit$P, ridge), 1e-6)
    }
    # and mu = 0 is the span of Xc'T, i.e. of X'HY
    expect_lt(max_angle(mddm(p$X, p$Y, k = 5, mu = 0)$P, crossprod(Xc, T)), 1e-6)
  }
})

test_that("a share k picks the smallest dimension whose eigenvalues reach it", {
  p <- label_problem(50, 12, m = 6, seed = 6)
  full <- mddm(p$X, p$Y, k = 6, mu = 0.5)
  cum <- cumsum(full$values) / sum(full$values)
  for (share in c(0.3, 0.75, 0.99)) {
    fit <- mddm(p$X, p$Y, k = share, mu = 0.5)
    expect_identical(fit$k, which(cum >= share)[1])
    expect_equal(fit$share, cum[fit$k])
    expect_lt(max_angle(fit$P, full$P[, seq_len(fit$k), drop = FALSE]), 1e-10)
  }
  for (method in c("dual", "direct"))
    expect_identical(mddm(p$X, p$Y, k = 0.75, mu = 0.5, method = method)$k,
                     which(cum >= 0.75)[1])
  # a share that the first j eigenvalues reach exactly (up to rounding in the
  # sums) keeps j dimensions, not j + 1
  # (ssmddm() chooses its targets from the spectrum of HLH the same way)
  values <- ssmddm(p$X, p$Y, alpha = 1, beta = 0.1, k = 1)$values
  spectrum <- cumsum(values) / sum(values)
  for (j in 1:5) {
    expect_identical(mddm(p$X, p$Y, k = cum[j], mu = 0.5)$k, j)
    expect_identical(ssmddm(p$X, p$Y, alpha = 1, beta = 0.1, k = spectrum[j], r = 1)$k, j)
  }
})

test_that("a user label kernel replaces YY'", {
  p <- label_problem(30, 8, m = 4, seed = 7)
  lin <- mddm(p$X, p$Y, k = 3, mu = 0.5)
  same <- mddm(p$X, p$Y, k = 3, mu = 0.5, kernel = p$L)
  expect_lt(max_angle(lin$P, same$P), 1e-8)
  # a weighted label kernel, and one of rank > m
  L <- p$Y %*% diag(c(4, 1, 1, 0.25)) %*% t(p$Y)
  L2 <- exp(-as.matrix(dist(p$Y + 0))^2)
  for (K in list(L, L2)) {
    for (method in c("primal", "dual", "direct")) {
      fit <- mddm(p$X, p$Y, k = 3, mu = 0.5, kernel = K, method = method)
      expect_lt(max_angle(fit$P, ref_mddm(p$X, K, 0.5, 3)$P), 1e-6)
      expect_identical(fit$kernel, "user")
    }
  }
})

test_that("the projection does not depend on the location of x", {
  p <- label_problem(30, 6, m = 3, seed = 8)
  shifted <- p$X + rep(c(10, -5, 3, 0, 1, 100), each = 30)
  for (mu in c(0, 1)) {
    a <- mddm(p$X, p$Y, k = 2, mu = mu)
    b <- mddm(shifted, p$Y, k = 2, mu = mu)
    expect_equal(a$P, b$P, tolerance = 1e-8)
    expect_equal(unname(b$center), colMeans(shifted))
  }
})

test_that("0/1, -1/+1, logical and data-frame labels give the same projection", {
  p <- label_problem(30, 6, m = 3, seed = 9)
  a <- mddm(p$X, p$Y, k = 2, mu = 0.3)
  b <- mddm(p$X, 2 * p$Y - 1, k = 2, mu = 0.3)
  c <- mddm(as.data.frame(p$X), as.data.frame(p$Y + 0), k = 2, mu = 0.3)
  expect_equal(unname(a$P), unname(b$P), tolerance = 1e-10)
  expect_equal(unname(a$P), unname(c$P), tolerance = 1e-10)
})

test_that("bad input gives clear errors", {
  p <- label_problem(20, 6, m = 3, seed = 10)
  X <- p$X
  Y <- p$Y
  expect_error(mddm(X, Y, k = 4), "'k' = 4 is larger than the rank of the problem \\(at most 3")
  # a repeated label adds no direction
  expect_error(mddm(X, cbind(Y, Y[, 1]), k = 4), "'k' = 4 is larger than the rank of the problem \\(at most 3")
  # x of rank 2 in 4 columns: the rank is found after the decomposition
  for (method in c("primal", "dual", "direct"))
    expect_error(mddm(cbind(X[, 1:2], X[, 1:2]), Y, k = 3, method = method),
                 "'k' = 3 is larger than the rank of the problem \\(2:")
  expect_error(mddm(X[, 1:2], Y, k = 3), "larger than the rank")
  expect_error(mddm(X, Y), "'k' is missing")
  expect_error(mddm(X, Y, k = 0), "'k' must be a whole number >= 1 or a share in \\(0, 1\\)")
  expect_error(mddm(X, Y, k = 1.5), "'k' must be")
  expect_error(mddm(X, Y, k = NA), "'k' must be")
  expect_error(mddm(X, Y, k = c(1, 2)), "'k' must be")
  expect_error(mddm(X, Y, k = 2, mu = -0.1), "'mu' must be a single number in \\[0, 1\\]")
  expect_error(mddm(X, Y, k = 2, mu = 1.5), "'mu' must be")
  expect_error(mddm(X, Y, k = 2, mu = NA), "'mu' must be")
  expect_error(mddm(X, Y, k = 2, lambda = -1), "'lambda' must be a single number >= 0")
  expect_error(mddm(X, Y, k = 2, lambda = Inf), "'lambda' must be finite")
  expect_error(mddm(X, Y, k = 2, tol = 2), "'tol' must be a number in \\[0, 1\\)")
  expect_error(mddm(X, Y, k = 2, method = "qr"), "'arg' should be one of")
  expect_error(mddm(X, Y, k = 2, alpha = 1), "unknown argument\\(s\\): alpha")
  Xna <- X
  Xna[3, 2] <- NA
  expect_error(mddm(Xna, Y, k = 2), "'x' contains NA")
  expect_error(mddm(X, Y[-1, ], k = 2), "'x' has 20 rows but 'y' has 19")
  expect_error(mddm(X, matrix(2, 20, 2), k = 1), "'y' must be logical, 0/1 or -1/\\+1")
  expect_error(mddm(X, Y, k = 2, kernel = "rbf"), "'kernel' must be NULL, \"linear\" or an n x n")
  expect_error(mddm(X, Y, k = 2, kernel = p$L[-1, -1]), "must be 20 x 20")
  expect_error(mddm(X, Y, k = 2, kernel = p$L[, -1]), "must be square")
  expect_error(mddm(X, Y, k = 2, kernel = -p$L), "not positive semi-definite")
  asym <- p$L
  asym[1, 2] <- asym[1, 2] + 1
  expect_error(mddm(X, Y, k = 2, kernel = asym), "not symmetric")
  expect_error(mddm(X, matrix(TRUE, 20, 2), k = 1), "every label of 'y' is constant")
  expect_error(mddm(matrix(1, 20, 3), Y, k = 1), "'x' has no variation")
  expect_error(mddm(matrix(1, 20, 3), Y, k = 1, method = "direct"), "no linear dependence")
})

test_that("the formula interface fits the default method on the model matrix", {
  p <- label_problem(40, 3, m = 2, seed = 41)
  df <- data.frame(p$X, g = factor(rep(c("a", "b", "c", "d"), 10)),
                   l1 = p$Y[, 1], l2 = p$Y[, 2])
  xm <- model.matrix(~ X1 + X2 + X3 + g, df)[, -1]
  for (f in list(function(...) mddm(..., k = 2, mu = 0.5),
                 function(...) ssmddm(..., alpha = 1, beta = 0.1, k = 2, r = 1))) {
    a <- f(cbind(l1, l2) ~ ., data = df)
    b <- f(xm, p$Y)
    expect_equal(unname(a$P), unname(b$P), tolerance = 1e-12)
    expect_identical(rownames(a$P), colnames(xm))
    expect_equal(predict(a, df[1:5, ], type = "projection"), predict(b, xm[1:5, ], type = "projection"), ignore_attr = TRUE)
    expect_equal(predict(a, df[1:5, ], type = "score"), predict(b, xm[1:5, ], type = "score"),
                 ignore_attr = TRUE)
    expect_s3_class(a$terms, "terms")
  }
  fit <- mddm(cbind(l1, l2) ~ X1 + X2, data = df, subset = X3 > 0, k = 1)
  expect_identical(fit$nobs, sum(df$X3 > 0))
  expect_identical(fit$call[[1]], quote(mddm))
  expect_error(mddm(~ X1 + X2, data = df, k = 1), "no labels on its left-hand side")
  df$X1[2] <- NA
  expect_error(mddm(cbind(l1, l2) ~ ., data = df, k = 1), "missing values")
})
