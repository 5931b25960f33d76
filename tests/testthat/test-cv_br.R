# cv_br() against refitting br() on every fold at every cost.

test_that("cv_br's out-of-fold scores equal refitting br() per fold", {
  set.seed(31)
  X <- matrix(rnorm(90 * 5), 90)
  Y <- X %*% matrix(rnorm(15), 5) + matrix(rnorm(270), 90) > 0
  foldid <- rep(1:3, 30)
  for (learner in c("ridge", "logistic", "svm")) {
    cv <- cv_br(X, Y, learner = learner, cost = c(1, 0.01, 0.1), foldid = foldid,
                tol = 1e-10, keep = TRUE, progress = FALSE)
    expect_s3_class(cv, "cv_br")
    expect_identical(cv$grid$cost, c(0.01, 0.1, 1))
    for (g in 1:3) {
      oof <- matrix(0, 90, 3)
      for (k in 1:3) {
        va <- foldid == k
        fit <- br(X[!va, ], Y[!va, ], learner = learner, cost = cv$grid$cost[g], tol = 1e-10)
        oof[va, ] <- predict(fit, X[va, ], type = "score")
      }
      expect_lt(max(abs(cv$oof[, , g] - oof)), 1e-6)
    }
    ref <- br(X, Y, learner = learner, cost = cv$cost_best, tol = 1e-10)
    expect_equal(coef(cv$fit), coef(ref), tolerance = 1e-6)
  }
  # the smallest cost is the most regularised: ties and 1se go to it
  expect_lte(cv$cost_1se, cv$cost_best)
  expect_error(cv_br(X, Y, cost = c(0, 1)), "'cost'")
  expect_error(cv_br(X, Y, lambda = 1), "unknown argument")
})
