test_that("ASO with the squared loss converges to MLLS at beta = 0", {
  d <- baseline_data(n = 70, d = 6, m = 4)
  for (r in 1:2) {
    aso <- aso_svm(d$X, d$Y, alpha = 0.5, r = r, loss = "ls", tol = 1e-13, max_iter = 2000)
    ml <- mlls(d$X, d$Y, alpha = 0.5, beta = 0, r = r)
    expect_true(aso$converged)
    expect_equal(unname(aso$W), unname(ml$U), tolerance = 1e-5)
    expect_equal(unname(aso$intercept), unname(ml$intercept), tolerance = 1e-5)
    # the same subspace
    expect_equal(crossprod(aso$Theta) , crossprod(ml$Theta), tolerance = 1e-5,
                 ignore_attr = TRUE)
    # the objective decreases along the alternation
    expect_true(all(diff(aso$objective) <= 1e-12))
  }
  xs <- Matrix::Matrix(d$X, sparse = TRUE)
  a2 <- aso_svm(xs, d$Y, alpha = 0.5, r = 2, loss = "ls", tol = 1e-13, max_iter = 2000)
  expect_equal(unname(a2$W), unname(mlls(d$X, d$Y, alpha = 0.5, beta = 0, r = 2)$U),
               tolerance = 1e-5)
})

test_that("each SVM step minimises the ASO objective for the final Theta", {
  d <- baseline_data(n = 60, d = 4, m = 3)
  alpha <- 0.05
  beta <- 0.01
  n <- 60
  fit <- aso_svm(d$X, d$Y, alpha = alpha, beta = beta, r = 1, loss = "squared_hinge",
                 svm_tol = 1e-10, svm_max_iter = 1e5, tol = 1e-8)
  P <- crossprod(fit$Theta)
  obj <- function(w, y) {        # w = (u, b); the objective of ?aso_svm, one label
    u <- w[1:4]
    xi <- pmax(0, 1 - y * drop(d$X %*% u + w[5]))
    sum(xi^2) / n + alpha * sum((u - P %*% u)^2) + beta * sum(u^2) + w[5]^2 / (2 * n)
  }
  for (l in 1:3) {
    y <- 2 * d$Y[, l] - 1
    o <- optim(numeric(5), obj, y = y, method = "BFGS",
               control = list(reltol = 1e-15, maxit = 5000))
    expect_equal(unname(c(fit$W[, l], fit$intercept[l])), o$par, tolerance = 1e-4)
  }
  # the reported objective is that of the fit
  f <- sum(vapply(1:3, function(l) obj(c(fit$W[, l], fit$intercept[l]), 2 * d$Y[, l] - 1), 0))
  expect_equal(tail(fit$objective, 1), f, tolerance = 1e-10)
})

test_that("ASO-SVM (hinge) runs on dense and sparse data and behaves as a br fit", {
  d <- baseline_data(n = 60, d = 5, m = 3)
  fit <- aso_svm(d$X, d$Y, alpha = 0.01, r = 2)
  expect_s3_class(fit, c("aso_svm", "br"))
  expect_equal(dim(fit$Theta), c(2, 5))
  expect_equal(fit$Theta %*% t(fit$Theta), diag(2), tolerance = 1e-10, ignore_attr = TRUE)
  expect_lte(fit$n_iter, 100)
  set.seed(1)
  a <- aso_svm(d$X, d$Y, alpha = 0.01, r = 2, svm_tol = 1e-8)
  set.seed(1)
  b <- aso_svm(Matrix::Matrix(d$X, sparse = TRUE), d$Y, alpha = 0.01, r = 2, svm_tol = 1e-8)
  expect_equal(a$W, b$W, tolerance = 1e-6)
  expect_equal(dim(predict(fit, d$X, type = "class")), c(60, 3))
  expect_output(print(fit), "ASO \\(hinge loss\\)")
})

test_that("aso_svm() checks its arguments", {
  d <- baseline_data()
  expect_error(aso_svm(d$X, d$Y, alpha = 0), "'alpha' must be a finite number > 0")
  expect_error(aso_svm(d$X, d$Y, alpha = 1, beta = 0), "need a finite 'beta' > 0")
  expect_error(aso_svm(d$X, d$Y, alpha = 1, beta = 1, loss = "ls"), "'beta' must be 0")
  expect_error(aso_svm(d$X, d$Y, alpha = 1, r = 5), "'r' must be at most")
  expect_warning(aso_svm(d$X, d$Y, alpha = 1, loss = "ls", tol = 1e-15, max_iter = 1),
                 "stopped after 'max_iter'")
})

test_that("the last alternation's SVMs are at their optimum, and report how close", {
  # step 1 for the final Theta is the plain L2 SVM (C = 1) on the rows
  # x~_i = (c1 x_i, c2 Theta x_i, 1), c1^2 = 1/(2n(alpha + beta)),
  # c1^2 + c2^2 = 1/(2n beta) (see ?aso_svm): its optimality in plain R
  data(yeast, package = "mlss")
  x <- yeast$x[1:200, 1:30]
  y <- yeast$y[1:200, 1:4]
  n <- nrow(x)
  alpha <- 0.1
  beta <- alpha / 100
  c1 <- sqrt(1 / (2 * n * (alpha + beta)))
  c2 <- sqrt(1 / (2 * n * beta) - c1^2)
  x_big <- x
  x_big[, 2] <- x_big[, 2] * 1e6
  # the squared hinge (primal Newton) at the defaults, as it comes and with a
  # column multiplied by 1e6: half the Newton decrement below 1e-10 of P
  for (X in list(x, x_big)) {
    expect_no_warning(fit <- aso_svm(X, y, alpha = alpha, r = 2, loss = "squared_hinge"))
    Xt <- cbind(c1 * X, c2 * X %*% t(fit$Theta), 1)
    for (l in seq_len(ncol(y))) {
      s <- 2 * y[, l] - 1
      # the transformed weights from u = c1 w_x + c2 Theta' w_z: w_z = Theta u / c2
      # (Theta w_x = 0 at the optimum, as the penalty leaves no other choice)
      wz <- drop(fit$Theta %*% fit$W[, l]) / c2 * (c2^2 / (c1^2 + c2^2))
      wx <- (fit$W[, l] - c2 * drop(crossprod(fit$Theta, wz))) / c1
      w <- c(wx, wz, fit$intercept[l])
      slack <- pmax(1 - s * drop(Xt %*% w), 0)
      g <- w - 2 * drop(crossprod(Xt, slack * s))
      H <- diag(length(w)) + 2 * crossprod(Xt[slack > 0, , drop = FALSE])
      P <- 0.5 * sum(w^2) + sum(slack^2)
      expect_lt(0.5 * sum(g * solve(H, g)), 1e-10 * P)
      expect_equal(unname(fit$svm_grad_norm[l]), sqrt(sum(g^2)), tolerance = 1e-4)
    }
  }
  # the hinge (dual coordinate descent): the plain-R duality gap from the
  # returned dual variables, below 1e-6 of P and as reported (the default
  # svm_max_iter; 1000 sweeps warned here)
  expect_no_warning(fit <- aso_svm(x, y, alpha = alpha, r = 2))
  expect_warning(aso_svm(x, y, alpha = alpha, r = 2, svm_max_iter = 1),
                 class = "mlss_not_converged")
  Xt <- cbind(c1 * x, c2 * x %*% t(fit$Theta), 1)
  for (l in seq_len(ncol(y))) {
    s <- 2 * y[, l] - 1
    a <- fit$dual[, l]
    wa <- drop(crossprod(Xt, a * s))
    # u and b from the dual: u = c1 w_x + c2 Theta' w_z
    d <- ncol(x)
    expect_equal(unname(c1 * wa[1:d] + c2 * drop(crossprod(fit$Theta, wa[d + 1:2]))),
                 unname(fit$W[, l]), tolerance = 1e-8)
    P <- 0.5 * sum(wa^2) + sum(pmax(1 - s * drop(Xt %*% wa), 0))
    gap <- P - (sum(a) - 0.5 * sum(wa^2))
    expect_lt(gap, 1e-6 * P)
    expect_lt(abs(fit$svm_gap[[l]] - gap / P), 1e-8)
  }
})
