# Hard numbers (issue 9): every accuracy test compares with an answer known
# in closed form (data built from known orthogonal factors) or with a
# backward-stable plain-R solve of the augmented least-squares problem, never
# with the C code itself.

# n x k orthonormal columns, orthogonal to the constant vector (so centred).
centred_basis <- function(n, k, seed) {
  set.seed(seed)
  Z <- matrix(rnorm(n * (k + 1)), n)
  Z[, 1] <- 1
  qr.Q(qr(Z))[, -1, drop = FALSE]
}
orth_basis <- function(d, k, seed) {
  set.seed(seed)
  qr.Q(qr(matrix(rnorm(d * k), d, k)))
}
# Ridge weights of centred data through the augmented least-squares problem
# [Xc; sqrt(n beta) I] U = [Yc; 0] (QR, no Gram matrix): the reference.
ridge_ref <- function(X, Tg, beta) {
  n <- nrow(X); d <- ncol(X)
  Xc <- sweep(X, 2, colMeans(X))
  Xc <- sweep(Xc, 2, colMeans(Xc))
  Yc <- sweep(Tg, 2, colMeans(Tg))
  qr.solve(rbind(Xc, sqrt(n * beta) * diag(d)), rbind(Yc, matrix(0, d, ncol(Tg))))
}
labels_of <- function(n, m, seed) {
  set.seed(seed)
  matrix(runif(n * m) > 0.5, n, m)
}

test_that("features on very different scales are all kept (ridge, analytic)", {
  n <- 40
  Q <- centred_basis(n, 4, 1)
  scales <- c(1, 1, 1, 1e8)
  X <- sweep(Q, 2, scales, "*")
  y <- labels_of(n, 2, 2)
  fit <- mlls(X, y, alpha = 0, beta = 1e-3)
  expect_identical(fit$rank, 4L)
  # X'X = diag(scales^2): u_j = c_j q_j'Yc / (c_j^2 + n beta)
  Yc <- sweep(2 * y - 1, 2, colMeans(2 * y - 1))
  U <- (crossprod(Q, Yc) * scales) / (scales^2 + n * 1e-3)
  expect_lt(rel_diff(fit$U[1:3, ], U[1:3, ]), 1e-10)
  expect_lt(max(abs(fit$U[4, ] - U[4, ])) / max(abs(U[4, ])), 1e-8)
})

test_that("beta = 0 and ill-conditioned X: error of order eps * cond (analytic)", {
  n <- 30; d <- 6
  s <- 10^-(0:5 * 1.2)  # cond 1e6
  X <- centred_basis(n, d, 3) %*% diag(s) %*% t(orth_basis(d, d, 4))
  B <- matrix(rnorm(d * 2), d)
  Tg <- X %*% B  # targets in the range of X: the solution is B itself
  fit <- mlss:::mlls_solve(X, Tg, alpha = 0, beta = 0, r = 1L)
  expect_lt(rel_diff(fit$U, B), 1e-8)  # the Gram route gave about 1e-4
  expect_identical(fit$decomposition, "svd")
  fit_dual <- mlss:::mlls_solve(X, Tg, alpha = 0, beta = 0, r = 1L, method = "dual")
  expect_lt(rel_diff(fit_dual$U, B), 1e-8)
})

test_that("a small beta keeps the directions ridge keeps (cond 1e8)", {
  n <- 30; d <- 5
  s <- 10^-(0:4 * 2)  # cond 1e8
  Q <- centred_basis(n, d, 5)
  V <- orth_basis(d, d, 6)
  X <- Q %*% diag(s) %*% t(V)
  y <- labels_of(n, 2, 7)
  Yc <- sweep(2 * y - 1, 2, colMeans(2 * y - 1))
  beta <- 1e-10
  U <- V %*% (crossprod(Q, Yc) * (s / (s^2 + n * beta)))  # ridge, closed form
  fit <- mlls(X, y, alpha = 0, beta = beta)
  expect_identical(fit$rank, as.integer(d))
  expect_lt(rel_diff(fit$U, U), 1e-6)
  # a moderate beta: directions below the Gram matrix's noise level still
  # count (s / (s^2 + n beta) of them), the Gram route gave 3e-7 here
  U <- V %*% (crossprod(Q, Yc) * (s / (s^2 + n * 0.01)))
  expect_lt(rel_diff(mlls(X, y, alpha = 0, beta = 0.01)$U, U), 1e-12)
})

test_that("the dual path returns an orthonormal Theta and V = Theta U", {
  n <- 20; d <- 40
  s <- 10^-seq(0, 6, length.out = n - 1)
  X <- centred_basis(n, n - 1, 8) %*% diag(s) %*% t(orth_basis(d, n - 1, 9))
  y <- labels_of(n, 6, 10)
  for (x in list(X, Matrix::Matrix(X, sparse = TRUE))) {
    fit <- suppressWarnings(suppressMessages(
      mlls(x, y, alpha = 1, beta = 0, r = 3, method = "dual")))
    expect_lt(max(abs(tcrossprod(fit$Theta) - diag(3))), 1e-10)
    expect_lt(max(abs(fit$V - fit$Theta %*% fit$U)) / max(abs(fit$U)), 1e-10)
    expect_lt(max(abs(fit$W - (fit$U - t(fit$Theta) %*% fit$V))) / max(abs(fit$U)), 1e-10)
  }
})

test_that("huge data: no overflow, and the fit is the scaled one", {
  n <- 20
  set.seed(11)
  X <- matrix(rnorm(n * 3), n)
  y <- labels_of(n, 2, 12)
  # with |x| ~ 1e200, alpha = 1 and beta = 0.1 are negligible: least squares
  big <- mlls(X * 1e200, y, alpha = 1, beta = 0.1)
  ls <- ridge_ref(X, 2 * y - 1, 0)
  expect_lt(rel_diff(big$U * 1e200, ls), 1e-10)
  # scale invariance: U(cX, c^2 alpha, c^2 beta) = U(X, alpha, beta) / c
  ref <- mlls(X, y, alpha = 1, beta = 0.1)
  for (c in c(1e-150, 1e-100, 1e100, 1e150)) {
    f <- mlls(X * c, y, alpha = c^2, beta = 0.1 * c^2)
    expect_identical(f$r, ref$r)
    expect_lt(rel_diff(f$U * c, ref$U), 1e-12)
  }
  # a sparse x or a kernel whose Gram matrix overflows: a clear error
  expect_error(mlls(Matrix::Matrix(X * 1e200, sparse = TRUE), y, alpha = 1, beta = 0.1),
               "overflows")
  expect_error(mlls(X * 1e3, y, alpha = 1, beta = 0.1, kernel = "poly", degree = 200),
               "overflows")
})

test_that("beta = 1e300 and beta = Inf give the same subspace", {
  set.seed(13)
  X <- matrix(rnorm(60), 20)
  y <- labels_of(20, 3, 14)
  f1 <- mlls(X, y, alpha = 1, beta = 1e300, r = 2)
  f2 <- mlls(X, y, alpha = 1, beta = Inf, r = 2)
  expect_identical(f1$r, 2L)
  expect_lt(subspace_distance(f1$Theta, f2$Theta), 1e-10)
})

test_that("huge r is capped with a message; tol = NaN is an argument error", {
  set.seed(15)
  X <- matrix(rnorm(60), 20)
  y <- labels_of(20, 3, 16)
  for (r in c(1e10, Inf)) {
    expect_message(f <- mlls(X, y, alpha = 1, beta = 1, r = r), "is more than the problem allows")
    expect_identical(f$r, 3L)
  }
  expect_error(mlls(X, y, alpha = 1, beta = 1, tol = NaN), "'tol' must be a number")
  expect_error(mlls(X, y, alpha = 1, beta = 1, tol = NA_real_), "'tol' must be a number")
})

test_that("beta = 0 with a rank-deficient x says so", {
  set.seed(17)
  X <- matrix(rnorm(60), 20)
  X <- cbind(X, X[, 1] + X[, 2])
  y <- labels_of(20, 2, 18)
  expect_message(mlls(X, y, alpha = 1, beta = 0), "rank 3 < 4")
  expect_silent(mlls(X, y, alpha = 1, beta = 0.1))
})

test_that("F1 thresholds separate infinite and adjacent scores", {
  # level = 1: the plain F1 maximum (examples this small never pass the chance rule)
  th <- f1_thresholds(c(Inf, 1, 0.5), c(TRUE, FALSE, FALSE), level = 1)
  expect_identical(unname(th$f1), 1)
  expect_true(Inf > th$threshold && !(1 > th$threshold))
  a <- 1
  b <- 1 + .Machine$double.eps  # adjacent doubles: the midpoint rounds to b
  th <- f1_thresholds(c(b, a), c(TRUE, FALSE), level = 1)
  expect_true(b > th$threshold && !(a > th$threshold))
  # -Inf is never above a threshold: the reported F1 is the one reached
  for (y in list(c(TRUE, TRUE, TRUE), c(TRUE, TRUE, FALSE), c(TRUE, FALSE, TRUE))) {
    sc <- c(-Inf, 1, 0.5)
    th <- f1_thresholds(sc, y)
    pred <- sc > th$threshold
    f1 <- 2 * sum(pred & y) / (sum(pred) + sum(y))
    expect_equal(unname(th$f1), f1)
  }
})

test_that("a kernel that is not positive semi-definite is not fitted silently", {
  set.seed(19)
  X <- matrix(rnorm(60), 20)
  y <- labels_of(20, 2, 20)
  expect_error(mlls(-tcrossprod(X), y, alpha = 1, beta = 0.1, kernel = "precomputed"),
               "no positive eigenvalue")
  K <- tcrossprod(X) - 3 * tcrossprod(X[, 1])
  expect_warning(mlls(K, y, alpha = 1, beta = 0.1, kernel = "precomputed"),
                 "not positive semi-definite")
  expect_silent(mlls(tcrossprod(X), y, alpha = 1, beta = 0.1, kernel = "precomputed"))
})

test_that("kernels do not cancel on data with a large offset", {
  set.seed(21)
  # multiples of 2^-20, so that x + 2^30 is exact and the reference is known
  X <- round(matrix(rnorm(60), 20) * 2^20) / 2^20
  off <- 2^30
  expect_lt(max(abs(kernel_matrix(X + off, kernel = "rbf", gamma = 0.5) -
                    kernel_matrix(X, kernel = "rbf", gamma = 0.5))), 1e-13)
  D2 <- as.matrix(dist(X))^2
  expect_lt(max(abs(kernel_matrix(X + off, kernel = "rbf", gamma = 0.5) - exp(-0.5 * D2))),
            1e-13)
  # huge gamma: the diagonal is exactly 1, the rest underflows to 0
  K <- kernel_matrix(X, kernel = "rbf", gamma = 1e15)
  expect_identical(diag(K), rep(1, 20))
  expect_identical(max(K[upper.tri(K)]), 0)
  # the linear kernel fit equals the linear fit, offset or not
  y <- labels_of(20, 2, 22)
  fk <- mlls(X + off, y, alpha = 1, beta = 0.1, kernel = "linear")
  fl <- mlls(X, y, alpha = 1, beta = 0.1)
  expect_lt(rel_diff(predict(fk, X[1:5, ] + off, type = "score"), predict(fl, X[1:5, ], type = "score")), 1e-9)
})

test_that("a sparse column with a large mean keeps its variance", {
  set.seed(23)
  n <- 40
  X <- matrix(0, n, 5)
  X[sample(length(X), 60)] <- runif(60)
  X[, 2] <- round(rnorm(n) * 2^10) / 2^10 + 1e8
  y <- labels_of(n, 2, 24)
  fs <- mlls(Matrix::Matrix(X, sparse = TRUE), y, alpha = 0, beta = 0.1)
  expect_lt(rel_diff(fs$U, ridge_ref(X, 2 * y - 1, 0.1)), 1e-9)
  # scores x'U + b add and cancel terms of 1e8 |u|: eps * 1e8 is their own accuracy
  expect_lt(rel_diff(predict(fs, X, type = "score"), predict(mlls(X, y, alpha = 0, beta = 0.1), X, type = "score")), 1e-7)
})

test_that("the Gram route of a sparse x warns when it cannot be accurate", {
  n <- 30; d <- 5
  s <- 10^-(0:4 * 2)
  X <- centred_basis(n, d, 25) %*% diag(s) %*% t(orth_basis(d, d, 26))
  y <- labels_of(n, 2, 27)
  expect_warning(suppressMessages(mlls(Matrix::Matrix(X, sparse = TRUE), y, alpha = 0, beta = 0)),
                 "ill-conditioned")
  expect_silent(mlls(Matrix::Matrix(X, sparse = TRUE), y, alpha = 0, beta = 1))
})

test_that("mddm(mu = 1) is invariant to the scale of a feature", {
  set.seed(29)
  n <- 60
  X <- matrix(rnorm(n * 5), n)
  y <- matrix(runif(n * 3) > 0.5, n)
  Xs <- sweep(X, 2, c(1, 1, 1, 1, 1e8), "*")
  # uncorrelated projections: X P does not change when a column is rescaled
  p1 <- predict(mddm(X, y, k = 2, mu = 1), X, type = "projection")
  p2 <- predict(mddm(Xs, y, k = 2, mu = 1), Xs, type = "projection")
  expect_lt(max(abs(abs(p1) - abs(p2))) / max(abs(p1)), 1e-7)
})
