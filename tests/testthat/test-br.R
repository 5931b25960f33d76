test_that("ridge equals the closed form of solve()", {
  d <- baseline_data()
  fit <- br(d$X, d$Y, learner = "ridge", cost = 0.3)
  U <- ref_ridge(d$X, d$Y, 0.3)
  expect_equal(unname(fit$W), unname(U), tolerance = 1e-10)
  b <- colMeans(2 * d$Y - 1) - colMeans(d$X) %*% U
  expect_equal(unname(fit$intercept), unname(drop(b)), tolerance = 1e-10)
  # sparse input, per-label costs
  xs <- Matrix::Matrix(d$X * (abs(d$X) > 0.5), sparse = TRUE)
  fit2 <- br(xs, d$Y, learner = "ridge", cost = c(0.1, 1, 10))
  for (l in 1:3)
    expect_equal(unname(fit2$W[, l]), unname(ref_ridge(as.matrix(xs), d$Y, c(0.1, 1, 10)[l])[, l]),
                 tolerance = 1e-10)
})

test_that("logistic regression minimises the penalised loss (optim) and tends to glm()", {
  d <- baseline_data()
  C <- 0.5
  fit <- br(d$X, d$Y, learner = "logistic", cost = C, tol = 1e-10)
  for (l in 1:3) {
    y <- 2 * d$Y[, l] - 1
    o <- optim(numeric(5), ref_logistic_objective, ref_logistic_gradient, X = d$X, y = y,
               C = C, method = "BFGS", control = list(reltol = 1e-15, maxit = 1000))
    expect_equal(c(fit$W[, l], fit$intercept[l]), o$par, tolerance = 1e-6, ignore_attr = TRUE)
  }
  big <- br(d$X, d$Y, learner = "logistic", cost = 1e8, tol = 1e-12)
  g <- glm(d$Y[, 2] ~ d$X, family = binomial)
  expect_equal(unname(c(big$intercept[2], big$W[, 2])), unname(coef(g)), tolerance = 1e-5)
  # scores are probabilities
  p <- predict(fit, d$X, type = "score")
  expect_true(all(p > 0 & p < 1))
  expect_equal(p, plogis(predict(fit, d$X, type = "score") * 0 +
                           qlogis(p)), tolerance = 1e-12)
  expect_equal(unname(qlogis(p)), unname(cbind(1, d$X) %*% coef(fit)), tolerance = 1e-10)
})

test_that("the SVM's duality gap vanishes and its primal is the plain-R optimum", {
  d <- baseline_data()
  C <- 0.2
  for (loss in c("hinge", "squared_hinge")) {
    fit <- br(d$X, d$Y, learner = "svm", cost = C, loss = loss, tol = 1e-10, max_iter = 1e5)
    for (l in 1:3) {
      y <- 2 * d$Y[, l] - 1
      w <- c(fit$W[, l], fit$intercept[l])
      a <- fit$dual[, l]
      expect_true(all(a >= 0))
      if (loss == "hinge") expect_true(all(a <= C + 1e-12))
      # w = sum_i a_i y_i x_i: an identity of dual coordinate descent (hinge);
      # for the squared hinge, solved in the primal, the dual is read off the
      # margins and the identity holds to the primal gradient (1e-6 relative)
      expect_equal(colSums(a * y * cbind(d$X, 1)), w, ignore_attr = TRUE,
                   tolerance = if (loss == "hinge") 1e-12 else 1e-6)
      P <- ref_svm_primal(w, d$X, y, C, loss)
      expect_lt(P - ref_svm_dual(a, d$X, y, C, loss), 1e-6)
      # no nearby point does better
      set.seed(l)
      for (k in 1:20)
        expect_gte(ref_svm_primal(w + rnorm(5, sd = 1e-3), d$X, y, C, loss), P - 1e-12)
    }
  }
  # the squared hinge is differentiable: optim finds the same weights
  fit <- br(d$X, d$Y, learner = "svm", cost = C, tol = 1e-10, max_iter = 1e5)
  y <- 2 * d$Y[, 1] - 1
  o <- optim(numeric(5), ref_svm_primal, X = d$X, y = y, C = C, loss = "squared_hinge",
             method = "BFGS", control = list(reltol = 1e-15, maxit = 2000))
  expect_equal(unname(c(fit$W[, 1], fit$intercept[1])), o$par, tolerance = 1e-5)
})

test_that("sparse and dense inputs, per-label and shared costs agree", {
  d <- baseline_data()
  xs <- Matrix::Matrix(d$X * (abs(d$X) > 0.5), sparse = TRUE)
  xd <- as.matrix(xs)
  for (learner in c("logistic", "svm")) {
    a <- br(xs, d$Y, learner = learner, cost = 0.5, tol = 1e-10, max_iter = 1e5)
    b <- br(xd, d$Y, learner = learner, cost = 0.5, tol = 1e-10, max_iter = 1e5)
    expect_equal(a$W, b$W, tolerance = 1e-7)
    costs <- c(0.1, 0.5, 2)
    v <- br(xd, d$Y, learner = learner, cost = costs, tol = 1e-10, max_iter = 1e5)
    for (l in 1:3) {
      one <- br(xd, d$Y[, l, drop = FALSE], learner = learner, cost = costs[l], tol = 1e-10,
                max_iter = 1e5)
      expect_equal(unname(v$W[, l]), unname(one$W[, 1]), tolerance = 1e-7)
    }
  }
  nb <- br(xd, d$Y, learner = "logistic", intercept = FALSE)
  expect_equal(unname(nb$intercept), c(0, 0, 0))
})

test_that("warm starts reach the cold-start solutions", {
  d <- baseline_data()
  for (learner in c("logistic", "svm")) {
    for (loss in c("hinge", "squared_hinge")) {
      if (learner == "logistic" && loss == "hinge") next
      a <- br(d$X, d$Y, learner = learner, loss = loss, cost = 0.1, tol = 1e-10, max_iter = 1e5)
      cold <- br(d$X, d$Y, learner = learner, loss = loss, cost = 0.3, tol = 1e-10, max_iter = 1e5)
      warm <- br(d$X, d$Y, learner = learner, loss = loss, cost = 0.3, tol = 1e-10,
                 max_iter = 1e5, init = a)
      expect_equal(warm$W, cold$W, tolerance = 1e-6)
      expect_equal(warm$intercept, cold$intercept, tolerance = 1e-6)
      warm2 <- br(d$X, d$Y, learner = learner, loss = loss, cost = 0.3, tol = 1e-10,
                  max_iter = 1e5, init = coef(a))
      expect_equal(warm2$W, cold$W, tolerance = 1e-6)
      if (learner == "logistic") expect_true(all(warm$iter <= cold$iter))
    }
  }
})

test_that("LiblineaR gives the same models at the same cost", {
  skip_if_not_installed("LiblineaR")
  d <- baseline_data()
  types <- c(logistic = 0, squared_hinge = 1, hinge = 3)
  for (what in names(types)) {
    learner <- if (what == "logistic") "logistic" else "svm"
    loss <- if (what == "hinge") "hinge" else "squared_hinge"
    fit <- br(d$X, d$Y, learner = learner, loss = loss, cost = 0.1, tol = 1e-8, max_iter = 1e5)
    for (l in 1:3) {
      ll <- LiblineaR::LiblineaR(d$X, as.integer(d$Y[, l]), type = types[[what]], cost = 0.1,
                                 epsilon = 1e-8, bias = 1)
      s <- if (as.character(ll$ClassNames[1]) == "1") 1 else -1
      expect_equal(s * unname(drop(ll$W)), unname(c(fit$W[, l], fit$intercept[l])), tolerance = 1e-4)
      p <- predict(ll, d$X, decisionValues = TRUE)$decisionValues
      dv <- cbind(d$X, 1) %*% c(fit$W[, l], fit$intercept[l])
      expect_equal(sign(s * p[, 1]), sign(drop(dv)))
    }
  }
})

test_that("predict, coef, print and the formula interface work as for mlls", {
  d <- baseline_data()
  fit <- br(d$X, d$Y, learner = "svm", cost = 0.5)
  expect_s3_class(fit, "br")
  expect_equal(dim(coef(fit)), c(5, 3))
  expect_equal(rownames(coef(fit))[1], "(Intercept)")
  s <- predict(fit, d$X, type = "score")
  expect_equal(colnames(s), colnames(d$Y))
  expect_equal(predict(fit, d$X, type = "class"), s > rep(fit$thresholds, each = 60))
  expect_equal(unname(fit$thresholds),
               unname(f1_thresholds(s, d$Y)$threshold))
  expect_output(print(fit), "linear SVM")
  df <- data.frame(d$X, d$Y)
  ff <- br(cbind(l1, l2, l3) ~ ., data = df, learner = "ridge", cost = 0.3)
  expect_equal(unname(ff$W), unname(br(d$X, d$Y, learner = "ridge", cost = 0.3)$W))
  expect_equal(predict(ff, df[1:5, ], type = "score"), predict(ff, d$X[1:5, ], type = "score"), ignore_attr = TRUE)
  cmp <- ml_compare(d$X, d$Y, nfolds = 2, measures = "macro_f1", methods = list(
    svm = function(x, y) br(x, y, learner = "svm"),
    lr = function(x, y) br(x, y, learner = "logistic")))
  expect_equal(nrow(cmp), 4)
  expect_true(all(is.finite(cmp$value)))
})

test_that("bad arguments give clear errors", {
  d <- baseline_data()
  expect_error(br(d$X, d$Y, cost = -1), "'cost' must be one positive number")
  expect_error(br(d$X, d$Y, cost = c(1, 2)), "one per label \\(3\\)")
  expect_error(br(d$X, d$Y, learner = "tree"), "should be one of")
  expect_error(br(d$X, d$Y, tol = 0), "'tol' must be a positive number")
  expect_error(br(d$X, d$Y, max_iter = 0.5), "'max_iter' must be a whole number")
  expect_error(br(d$X, d$Y, costs = 1), "unknown argument\\(s\\): costs")
  expect_error(br(d$X, d$Y, learner = "svm", init = matrix(0, 2, 3)), "'init' must be")
  lr <- br(d$X, d$Y, learner = "logistic")
  expect_error(br(d$X, d$Y, learner = "svm", init = lr), "logistic learner")
  expect_error(predict(lr, type = "score"), "'newx' is missing")
  expect_error(predict(lr, d$X[, 1:2], type = "score"), "has 2 columns")
  expect_warning(br(d$X, d$Y, learner = "svm", cost = 100, tol = 1e-12, max_iter = 2),
                 "stopped at 'max_iter'")
})

test_that("instance weights of the C solvers act as repeated instances", {
  # the cores take per-instance weights (for classifier chains, IBLR): an
  # instance of weight 2 must count as two copies of it
  d <- baseline_data(n = 40)
  wt <- rep(c(1, 2), 20)
  rep_idx <- rep(seq_len(40), wt)
  y <- matrix(2 * d$Y[, 1] - 1, ncol = 1)
  spec_w <- mlss:::linear_spec(d$X)
  spec_r <- mlss:::linear_spec(d$X[rep_idx, ])
  a <- .Call(mlss:::C_logistic_fit_call, spec_w, y, 0.3, as.double(wt), 1e-10, 1000L, NULL)
  b <- .Call(mlss:::C_logistic_fit_call, spec_r, y[rep_idx, , drop = FALSE], 0.3, NULL,
             1e-10, 1000L, NULL)
  expect_equal(a$W, b$W, tolerance = 1e-7)
  expect_equal(a$objective, b$objective, tolerance = 1e-10)
  for (loss in 1:2) {
    a <- .Call(mlss:::C_linsvm_fit_call, spec_w, y, 0.3, as.double(wt), loss, 1e-10, 100000L,
               NULL, NULL)
    b <- .Call(mlss:::C_linsvm_fit_call, spec_r, y[rep_idx, , drop = FALSE], 0.3, NULL, loss,
               1e-10, 100000L, NULL, NULL)
    expect_equal(a$W, b$W, tolerance = 1e-6)
  }
})
