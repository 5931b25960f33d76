# Shared-subspace MDDM: the MLLS closed form of helper-reference.R on the
# targets from eigen(HLH), and the special cases that connect it to mddm().

test_that("ssmddm is the MLLS closed form on sqrt(n) times the top eigenvectors of HLH", {
  for (dims in list(c(40, 12), c(18, 30))) {
    p <- label_problem(dims[1], dims[2], m = 6, seed = 31)
    n <- dims[1]
    Xs <- sparse_version(p$X, seed = 3)
    Xc <- scale(Xs, scale = FALSE)
    T <- sqrt(n) * ref_targets(p$L, 4)
    ref <- ref_mlls(Xc, T, alpha = 0.5, beta = 0.05, r = 2)
    for (X in list(Xs, Matrix::Matrix(Xs, sparse = TRUE))) {
      for (method in c("primal", "dual")) {
        fit <- ssmddm(X, p$Y, alpha = 0.5, beta = 0.05, k = 4, r = 2, method = method)
        # targets come with arbitrary signs: compare column by column up to sign
        expect_lt(same_columns_up_to_scale(fit$P, ref$U), 1e-8)
        expect_equal(abs(colSums(fit$P * ref$U)) / colSums(ref$U^2), rep(1, 4),
                     tolerance = 1e-8, ignore_attr = TRUE)
        expect_lt(subspace_distance(fit$Theta, ref$Theta), 1e-8)
        expect_equal(fit$V, fit$Theta %*% fit$P, tolerance = 1e-10, ignore_attr = TRUE)
        expect_equal(fit$W, fit$P - t(fit$Theta) %*% fit$V, tolerance = 1e-10)
        expect_equal(fit$values, eigen(p$L - rowMeans(p$L) - rep(colMeans(p$L), each = n) +
                                         mean(p$L), symmetric = TRUE)$values[1:6],
                     tolerance = 1e-10)
      }
    }
  }
})

test_that("alpha = beta = 0 with centred x of rank n - 1 gives mddm(mu = 1), column by column", {
  p <- label_problem(25, 40, m = 5, seed = 32)
  ss <- ssmddm(p$X, p$Y, alpha = 0, beta = 0, k = 3, r = 1)
  md <- mddm(p$X, p$Y, k = 3, mu = 1)
  expect_equal(unname(ss$P), sqrt(25) * unname(md$P), tolerance = 1e-8)
})

test_that("alpha = 0 with all the targets spans the MDDM subspace with mu = 1 / (1 + n beta)", {
  for (dims in list(c(50, 10), c(20, 35))) {
    p <- label_problem(dims[1], dims[2], m = 4, seed = 33)
    for (beta in c(0.01, 1)) {
      ss <- ssmddm(p$X, p$Y, alpha = 0, beta = beta, k = 4, r = 1)
      md <- mddm(p$X, p$Y, k = 4, mu = 1 / (1 + dims[1] * beta))
      expect_lt(max_angle(ss$P, md$P), 1e-6)
    }
  }
})

test_that("a share k and a user label kernel choose the targets from HLH's spectrum", {
  p <- label_problem(40, 8, m = 5, seed = 34)
  full <- ssmddm(p$X, p$Y, alpha = 1, beta = 0.1, k = 5)
  cum <- cumsum(full$values) / sum(full$values)
  fit <- ssmddm(p$X, p$Y, alpha = 1, beta = 0.1, k = 0.6)
  expect_identical(fit$k, which(cum >= 0.6)[1])
  expect_equal(fit$share, cum[fit$k])
  K <- exp(-as.matrix(dist(p$Y + 0))^2)
  fit <- ssmddm(p$X, p$Y, alpha = 1, beta = 0.1, k = 3, r = 2, kernel = K)
  T <- sqrt(40) * ref_targets(K, 3)
  ref <- ref_mlls(scale(p$X, scale = FALSE), T, alpha = 1, beta = 0.1, r = 2)
  expect_lt(same_columns_up_to_scale(fit$P, ref$U), 1e-8)
})

test_that("the projection, the classifier and the methods work as for mddm", {
  p <- label_problem(40, 8, m = 4, seed = 35)
  fit <- ssmddm(p$X, p$Y, alpha = 1, beta = 0.1, k = 3, r = 2)
  expect_s3_class(fit, c("ssmddm", "mddm"))
  newx <- matrix(rnorm(16), 2, 8)
  expect_equal(predict(fit, newx, type = "projection"), sweep(newx, 2, colMeans(p$X)) %*% fit$P,
               ignore_attr = TRUE)
  expect_equal(predict(fit, newx, type = "score"), cbind(1, newx) %*% coef(fit, "U"),
               tolerance = 1e-10, ignore_attr = TRUE)
  expect_output(print(fit), "Shared-subspace MDDM on 40 instances")
  expect_output(print(fit), "shared subspace r = 2")
  expect_output(print(summary(fit)), "Spectrum of the centred label kernel")
})

test_that("bad input gives clear errors", {
  p <- label_problem(20, 6, m = 3, seed = 36)
  X <- p$X
  Y <- p$Y
  expect_error(ssmddm(X, Y, alpha = 1, beta = 0.1, k = 4), "'k' = 4 is larger than the rank")
  expect_error(ssmddm(X, Y, alpha = 1, beta = 0.1), "'k' is missing")
  expect_error(ssmddm(X, Y, beta = 0.1, k = 2), "'alpha' is missing: .* cv_ssmddm\\(\\)")
  expect_error(ssmddm(X, Y, alpha = 1, k = 2), "'beta' is missing: .* cv_ssmddm\\(\\)")
  expect_error(ssmddm(X, Y, alpha = -1, beta = 0.1, k = 2), "'alpha' must be a single number >= 0")
  expect_error(ssmddm(X, Y, alpha = 1, beta = Inf, k = 2), "'beta' must be finite")
  expect_error(ssmddm(X, Y, alpha = 1, beta = 0.1, k = 2, r = 3), "'r' = 3 is larger than 'k' = 2")
  expect_error(ssmddm(X, Y, alpha = 1, beta = 0.1, k = 2, r = 0.5), "'r' must be a whole number")
  expect_error(ssmddm(X, Y, alpha = 1, beta = 0.1, k = 2, mu = 1), "unknown argument\\(s\\): mu")
  expect_error(ssmddm(X, Y[1:5, ], alpha = 1, beta = 0.1, k = 2), "'x' has 20 rows but 'y' has 5")
  expect_error(ssmddm(matrix(1, 20, 3), Y, alpha = 1, beta = 0.1, k = 2), "'x' has no variation")
  expect_message(fit <- ssmddm(X[, 1], Y, alpha = 1, beta = 0.1, k = 2, r = 2), "using r = 1")
  expect_identical(fit$r, 1L)
})
