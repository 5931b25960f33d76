# MLLS against independent references: the closed form with solve()/eigen(),
# the special cases of methods.md, and optimality over random subspaces.

test_that("subspace_distance() tells subspaces apart (the helper the tests rely on)", {
  set.seed(1)
  A <- matrix(rnorm(30), 3, 10)
  B <- matrix(rnorm(30), 3, 10)
  expect_gt(subspace_distance(A, B), 0.1)
  # another basis of the same row space: distance zero
  expect_lt(subspace_distance(A, matrix(rnorm(9), 3) %*% A), 1e-12)
  # the projector onto the row space: symmetric, idempotent, trace 3, fixes A's rows
  P <- row_projector(A)
  expect_equal(P %*% P, P, tolerance = 1e-12)
  expect_equal(sum(diag(P)), 3, tolerance = 1e-12)
  expect_equal(A %*% P, A, tolerance = 1e-12)
})

test_that("U and Theta match the closed form, dense and sparse, d < n and d > n", {
  for (dims in list(c(40, 12), c(18, 35))) {
    p <- random_problem(dims[1], dims[2], m = 6, seed = dims[2])
    Xs <- sparse_version(p$X, seed = dims[1])
    for (X in list(Xs, Matrix::Matrix(Xs, sparse = TRUE))) {
      ref <- ref_mlls(as.matrix(X), p$Y, alpha = 0.4, beta = 0.05, r = 3)
      for (method in c("primal", "dual")) {
        fit <- mlls(X, p$Y, alpha = 0.4, beta = 0.05, r = 3, intercept = FALSE,
                    method = method)
        expect_lt(rel_diff(fit$U, ref$U), 1e-8)
        expect_lt(subspace_distance(fit$Theta, ref$Theta), 1e-8)
        expect_equal(fit$Theta %*% t(fit$Theta), diag(3), tolerance = 1e-12,
                     ignore_attr = TRUE)
        expect_equal(fit$V, fit$Theta %*% fit$U, tolerance = 1e-12)
        expect_equal(fit$W, fit$U - t(fit$Theta) %*% fit$V, tolerance = 1e-12)
      }
    }
  }
})

test_that("the method picks the primal form for d <= n and the dual for d > n", {
  p <- random_problem(20, 5, 3, seed = 1)
  expect_identical(mlls(p$X, p$Y, alpha = 1, beta = 1)$method, "primal")
  p <- random_problem(5, 20, 3, seed = 1)
  expect_identical(mlls(p$X, p$Y, alpha = 1, beta = 1)$method, "dual")
})

test_that("the intercept is the fit on centred data", {
  p <- random_problem(30, 8, 4, seed = 3)
  X <- p$X + rep(c(5, -2, 0, 1, 3, 10, -7, 2), each = 30)
  for (Xin in list(X, Matrix::Matrix(X, sparse = TRUE))) {
    for (method in c("primal", "dual")) {
      fit <- mlls(Xin, p$Y, alpha = 0.2, beta = 0.1, r = 2, method = method)
      ref <- ref_mlls(scale(X, scale = FALSE), scale(p$Y, scale = FALSE), 0.2, 0.1, 2)
      expect_lt(rel_diff(fit$U, ref$U), 1e-8)
      expect_equal(unname(fit$intercept),
                   colMeans(p$Y) - drop(colMeans(X) %*% ref$U), tolerance = 1e-10)
      expect_equal(unname(predict(fit, X, type = "score")),
                   X %*% ref$U + rep(fit$intercept, each = 30), tolerance = 1e-10,
                   ignore_attr = TRUE)
    }
  }
})

test_that("the objective is no larger than at 100 random orthonormal Theta", {
  p <- random_problem(35, 10, 5, seed = 4)
  alpha <- 0.5; beta <- 0.02
  fit <- mlls(p$X, p$Y, alpha = alpha, beta = beta, r = 3, intercept = FALSE)
  best <- ref_objective(p$X, p$Y, alpha, beta, fit$U, fit$Theta)
  set.seed(5)
  others <- replicate(100, {
    Theta <- t(qr.Q(qr(matrix(rnorm(10 * 3), 10, 3))))
    U <- ref_u_given_theta(p$X, p$Y, alpha, beta, Theta)
    ref_objective(p$X, p$Y, alpha, beta, U, Theta)
  })
  expect_true(all(best <= others + 1e-12))
  # random subspaces are far from optimal: small rotations of the returned
  # Theta must not do better either (a stationary point, not just a good one)
  near <- replicate(60, {
    eps <- sample(c(1e-4, 1e-3, 1e-2), 1)
    Theta <- t(qr.Q(qr(t(fit$Theta) + eps * matrix(rnorm(10 * 3), 10, 3))))
    U <- ref_u_given_theta(p$X, p$Y, alpha, beta, Theta)
    ref_objective(p$X, p$Y, alpha, beta, U, Theta)
  })
  expect_true(all(best <= near + 1e-12))
  # and the returned U is optimal for the returned Theta
  expect_lt(rel_diff(fit$U, ref_u_given_theta(p$X, p$Y, alpha, beta, fit$Theta)), 1e-10)
})

test_that("alpha = 0 is ridge regression; alpha = beta = 0 least squares", {
  p <- random_problem(40, 9, 4, seed = 6)
  fit <- mlls(p$X, p$Y, alpha = 0, beta = 0.3, intercept = FALSE)
  ridge <- solve(crossprod(p$X) / 40 + 0.3 * diag(9), crossprod(p$X, p$Y) / 40)
  expect_lt(rel_diff(fit$U, ridge), 1e-10)
  # U does not depend on Theta here, so Theta is checked on its own: the top
  # eigenvectors of the closed form at alpha = 0, primal and dual
  for (method in c("primal", "dual")) {
    fit <- mlls(p$X, p$Y, alpha = 0, beta = 0.3, r = 2, intercept = FALSE, method = method)
    expect_lt(subspace_distance(fit$Theta, ref_mlls(p$X, p$Y, 0, 0.3, 2)$Theta), 1e-8)
  }
  fit <- mlls(p$X, p$Y, alpha = 0, beta = 0, intercept = FALSE)
  expect_lt(rel_diff(fit$U, qr.solve(p$X, p$Y)), 1e-10)
  # d > n: the minimum-norm least-squares solution
  p <- random_problem(8, 20, 3, seed = 7)
  fit <- mlls(p$X, p$Y, alpha = 0, beta = 0, intercept = FALSE)
  expect_lt(rel_diff(fit$U, pinv(p$X) %*% p$Y), 1e-8)
  # and with the intercept, lm() on the columns
  p <- random_problem(40, 5, 3, seed = 8)
  fit <- mlls(p$X, p$Y, alpha = 0, beta = 0)
  expect_equal(coef(fit), coef(lm(p$Y ~ p$X)), tolerance = 1e-10, ignore_attr = TRUE)
})

test_that("large alpha gives the orthonormalised-PLS subspace", {
  p <- random_problem(50, 12, 6, seed = 9)
  X <- p$X; Y <- p$Y; beta <- 0.1
  S <- solve(crossprod(X) / 50 + beta * diag(12)) %*% crossprod(X, Y) %*% crossprod(Y, X)
  opls <- t(qr.Q(qr(Re(eigen(S)$vectors[, 1:3]))))
  inf <- mlls(X, Y, alpha = Inf, beta = beta, r = 3, intercept = FALSE)
  big <- mlls(X, Y, alpha = 1e8, beta = beta, r = 3, intercept = FALSE)
  expect_lt(subspace_distance(inf$Theta, opls), 1e-10)
  expect_lt(subspace_distance(big$Theta, opls), 1e-6)
  # U lies in the subspace: ridge regression on the projected data
  Z <- X %*% t(opls)
  V <- solve(crossprod(Z) / 50 + beta * diag(3), crossprod(Z, Y) / 50)
  expect_lt(rel_diff(inf$U, t(opls) %*% V), 1e-10)
  expect_lt(rel_diff(big$U, inf$U), 1e-6)
  expect_lt(max(abs(inf$W)), 1e-12)
})

test_that("large beta gives the eigenvectors of X'YY'X", {
  p <- random_problem(50, 12, 6, seed = 10)
  ocm <- t(eigen(crossprod(p$X, p$Y) %*% crossprod(p$Y, p$X), symmetric = TRUE)$vectors[, 1:3])
  inf <- mlls(p$X, p$Y, alpha = 0.5, beta = Inf, r = 3, intercept = FALSE)
  big <- mlls(p$X, p$Y, alpha = 0.5, beta = 1e9, r = 3, intercept = FALSE)
  expect_lt(subspace_distance(inf$Theta, ocm), 1e-10)
  expect_lt(subspace_distance(big$Theta, ocm), 1e-6)
  expect_true(all(inf$U == 0))
  expect_lt(max(abs(big$U)), 1e-8)
})

test_that("r defaults to half the rank of X'Y, at most 5 floor((m - 1) / 5), and is capped at the rank, with a message", {
  # q = min(d, m, n - 1): half of it, rounded up, at most the papers' default
  p <- random_problem(60, 15, 12, seed = 11)
  expect_identical(mlls(p$X, p$Y, alpha = 1, beta = 1)$r, 6L)         # q = 12
  expect_identical(mlls(p$X[, 1:5], p$Y, alpha = 1, beta = 1)$r, 3L)  # q = 5 (d)
  # q = 3 (n - 1); four rows leave some labels constant, which is said
  expect_warning(expect_warning(four <- mlls(p$X[1:4, ], p$Y[1:4, ], alpha = 1, beta = 1),
                                "no positive example"), "positive for every example")
  expect_identical(four$r, 2L)
  expect_identical(mlls(p$X, p$Y, alpha = 1, beta = 1, intercept = FALSE)$r, 6L)
  expect_identical(suppressMessages(mlls(p$X, p$Y[, 1:7], alpha = 1, beta = 1))$r, 4L)
  expect_identical(mlls(p$X, p$Y[, 1:6], alpha = 1, beta = 1)$r, 3L)
  p <- random_problem(60, 15, 3, seed = 11)
  expect_identical(mlls(p$X, p$Y, alpha = 1, beta = 1)$r, 1L)         # the papers' 1
  expect_message(fit <- mlls(p$X, p$Y, alpha = 1, beta = 1, r = 5), "using r = 3")
  expect_identical(fit$r, 3L)
  expect_identical(dim(fit$Theta), c(3L, 15L))
  # a repeated label adds no direction: X'Y has rank 3
  Y <- cbind(p$Y, p$Y[, 1])
  expect_message(fit <- mlls(p$X, Y, alpha = 1, beta = 1, r = 4), "using r = 3")
})

test_that("constant labels are kept with a warning and never (always) predicted", {
  p <- random_problem(30, 5, 3, seed = 12)
  Y <- p$Y > 0
  Y[, 2] <- FALSE
  Y[, 3] <- TRUE
  expect_warning(expect_warning(fit <- mlls(p$X, Y, alpha = 1, beta = 0.1),
                                "no positive example"), "positive for every example")
  expect_identical(unname(fit$thresholds[2:3]), c(Inf, -Inf))
  pred <- predict(fit, p$X, type = "class")
  expect_false(any(pred[, 2]))
  expect_true(all(pred[, 3]))
  expect_true(all(fit$U[, 2:3] == 0))
})

test_that("0/1, -1/+1, logical and data-frame labels give the same fit", {
  p <- random_problem(30, 6, 3, seed = 13)
  f1 <- mlls(p$X, p$Y, alpha = 0.3, beta = 0.1)
  f2 <- mlls(p$X, p$Y > 0, alpha = 0.3, beta = 0.1)
  f3 <- mlls(as.data.frame(p$X), as.data.frame((p$Y + 1) / 2), alpha = 0.3, beta = 0.1)
  expect_equal(unname(f1$U), unname(f2$U))
  expect_equal(unname(f1$U), unname(f3$U))
  expect_identical(f3$labels, c("V1", "V2", "V3"))
})

test_that("a matrix without variation gives the intercept-only fit", {
  X <- matrix(1, 10, 3)
  Y <- rep(c(TRUE, FALSE), 5)
  expect_warning(fit <- mlls(X, Y, alpha = 1, beta = 1), "no variation")
  expect_equal(unname(predict(fit, X, type = "score")[, 1]), rep(0, 10))
  expect_identical(fit$rank, 0L)
})

test_that("mlls_solve() reads logical labels as +1/-1 targets and can skip the training scores", {
  set.seed(5)
  x <- matrix(rnorm(60 * 8), 60)
  y <- matrix(rnorm(60 * 4), 60) + x[, 1:4] > 0
  xs <- Matrix::rsparsematrix(60, 70, 0.2)
  for (args in list(list(x = x), list(x = xs), list(x = x, kernel = "rbf"))) {
    pm <- do.call(mlls_solve, c(args, list(targets = 2 * y - 1, alpha = 0.5, beta = 0.1, r = 2)))
    lg <- do.call(mlls_solve, c(args, list(targets = y, alpha = 0.5, beta = 0.1, r = 2,
                                           fitted = FALSE)))
    expect_identical(lg[c("U", "A", "V", "intercept")], pm[c("U", "A", "V", "intercept")])
    expect_null(lg$res$fitted)
    # the training scores mlls_solve() leaves out are the model's own predictions
    sc <- if (is.null(args$kernel)) as.matrix(args$x %*% pm$U) + rep(pm$intercept, each = 60)
    if (!is.null(sc)) expect_equal(pm$res$fitted, sc, tolerance = 1e-10, ignore_attr = TRUE)
  }
})

test_that("a cross-validated fit with out-of-fold thresholds carries no training F1", {
  set.seed(6)
  x <- matrix(rnorm(60 * 5), 60)
  y <- matrix(rnorm(60 * 3), 60) + x[, 1:3] > 0
  cv <- cv_mlls(x, y, alpha = c(0, 1), beta = c(0.01, 1), nfolds = 3, progress = FALSE)
  expect_null(cv$fit$train_f1)
  expect_equal(unname(cv$fit$thresholds), unname(cv$oof_thresholds[, cv$chosen]))
  ref <- mlls(x, y, alpha = cv$alpha_best, beta = cv$beta_best)
  expect_equal(cv$fit$U, ref$U, tolerance = 1e-12)
})

test_that("rare labels: X'Y summed over the positives equals the product", {
  # at most one entry in 20 positive: the fit and the folds sum x over each
  # label's positive rows (mat_tprod_labels()) instead of multiplying
  set.seed(7)
  n <- 200
  x <- matrix(rnorm(n * 6), n) + 3  # an offset: the column sums matter
  y <- matrix(FALSE, n, 12)
  for (l in 1:11) y[sample(n, sample(2:8, 1)), l] <- TRUE  # label 12 never positive
  expect_lte(mean(y), 0.05)
  xs <- Matrix::rsparsematrix(n, 6, 0.3)
  # the sums (dense x), and the targets made from the positive rows when the
  # route needs them (sparse x, the dual form, the SVD of an ill-conditioned x)
  xi <- cbind(x[, 1:5], x[, 5] + 1e-9 * rnorm(n))
  for (case in list(list(x = x), list(x = xs), list(x = x, method = "dual"), list(x = xi)))
    for (icpt in c(TRUE, FALSE)) {
      args <- c(case, list(alpha = 0.5, beta = 1e-8, r = 3, intercept = icpt))
      lg <- do.call(mlls_solve, c(args, list(targets = y)))
      pm <- do.call(mlls_solve, c(args, list(targets = 2 * y - 1)))
      expect_equal(lg$U, pm$U, tolerance = 1e-12)
      expect_equal(lg$intercept, pm$intercept, tolerance = 1e-12)
    }
  foldid <- rep(1:2, n / 2)
  cv <- suppressWarnings(cv_mlls(x, y, alpha = c(0, 0.5), beta = 0.1, r = 3, foldid = foldid,
                                 keep = TRUE, progress = FALSE))
  for (k in 1:2) {
    va <- foldid == k
    fit <- mlls_solve(x[!va, ], 2 * y[!va, ] - 1, 0.5, 0.1, 3)
    sc <- x[va, ] %*% fit$U + rep(fit$intercept, each = sum(va))
    expect_lt(max(abs(cv$oof[va, , 2] - sc)), 1e-10)
  }
})
