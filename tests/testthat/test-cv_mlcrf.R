# cv_mlcrf(): the warm-started path against cold fits of mlcrf() on each fold.

test_that("cv_mlcrf's out-of-fold marginals equal mlcrf() refitted on each fold", {
  set.seed(41)
  n <- 90
  X <- matrix(runif(n * 3, -1, 1), n)
  y1 <- runif(n) < plogis(2 * X[, 1])
  y2 <- ifelse(runif(n) < 0.8, y1, !y1)
  y3 <- runif(n) < plogis(-X[, 2])
  Y <- cbind(a = y1, b = y2, c = y3)
  foldid <- rep(1:3, 30)
  cv <- cv_mlcrf(X, Y, lambda_w = c(0.2, 0.05), eta = c(0.5, 1), lambda_v = 0.01,
                 foldid = foldid, keep = TRUE, progress = FALSE, tol = 1e-8)
  expect_s3_class(cv, "cv_mlcrf")
  expect_identical(cv$grid$lambda_w, c(0.2, 0.05, 0.2, 0.05))
  for (g in c(2, 4)) {
    oof <- matrix(0, n, 3)
    for (k in 1:3) {
      va <- foldid == k
      fit <- mlcrf(X[!va, ], Y[!va, ], lambda_v = 0.01, lambda_w = cv$grid$lambda_w[g],
                   eta = cv$grid$eta[g], tol = 1e-8)
      oof[va, ] <- predict(fit, X[va, ], type = "score")
    }
    expect_lt(max(abs(cv$oof[, , g] - oof)), 1e-4)
  }
  expect_equal(cv$fit$lambda_w, cv$lambda_w_best)
  expect_equal(unname(cv$fit$lambda_v), rep(0.01, 3))
  expect_error(cv_mlcrf(X, Y, eta = 2), "'eta'")
})

test_that("the path of edge strengths has the edges of mlcrf() at each lambda_w, and plots", {
  set.seed(41)
  x <- mlss::emotions$x[1:120, 1:10]
  y <- mlss::emotions$y[1:120, 1:4]
  lam <- c(0.3, 0.1, 0.03)
  cv <- cv_mlcrf(x, y, lambda_w = lam, eta = 0.5, lambda_v = 0.05, nfolds = 3, tol = 1e-7,
                 progress = FALSE)
  S <- cv$path$strength
  expect_identical(dim(S), c(6L, 3L))
  for (k in seq_along(lam)) {
    fit <- mlcrf(x, y, lambda_v = 0.05, lambda_w = lam[k], eta = 0.5, tol = 1e-7)
    expect_setequal(rownames(S)[S[, k] > 0], paste(fit$edges$from, fit$edges$to, sep = "~"))
  }
  expect_true(any(S > 0))
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_identical(plot(cv, type = "path"), cv)
  expect_error(plot(structure(list(), class = c("cv_mlcrf", "ml_cv")), type = "path"), "path")
})
