# cross-validated SSMDDM against refitting ssmddm() on every fold.

test_that("out-of-fold scores equal refitting ssmddm() on each fold (dense and sparse)", {
  for (dims in list(c(60, 8), c(30, 40))) {
    p <- random_problem(dims[1], dims[2], 4, seed = dims[2])
    Y <- p$Y > 0
    # a sparse x away from zero mean, so that its implicit centring matters;
    # the reference refits on the dense matrix
    Xs <- Matrix::Matrix(sparse_version(p$X + 1, density = 0.5), sparse = TRUE)
    for (X in list(p$X, Xs)) {
      Xd <- as.matrix(X)
      set.seed(5)
      cv <- cv_ssmddm(X, Y, k = 3, r = 2, alpha = c(0, 0.5), beta = c(0.01, 1), nfolds = 3,
                      keep = TRUE, progress = FALSE, thresholds = "train")
      for (g in 1:4) {
        for (f in 1:3) {
          va <- cv$foldid == f
          fit <- ssmddm(Xd[!va, ], Y[!va, ], alpha = cv$grid$alpha[g], beta = cv$grid$beta[g],
                        k = 3, r = 2)
          expect_lt(max(abs(cv$oof[va, , g] - predict(fit, Xd[va, ], type = "score"))), 1e-8)
          pred <- predict(fit, Xd[va, ], type = "class")
          expect_equal(cv$cvfold[g, f], ml_metrics(Y[va, ], pred = pred)$macro_f1)
        }
      }
      expect_identical(cv$best, ref_best(cv$cvfold, cv$grid))
      best <- ssmddm(Xd, Y, alpha = cv$alpha_best, beta = cv$beta_best, k = 3, r = 2)
      expect_equal(predict(cv, Xd, type = "projection"), predict(best, Xd, type = "projection"))
    }
  }
})

test_that("out-of-fold thresholds go to the final classifier; errors", {
  p <- random_problem(50, 6, 3, seed = 7)
  set.seed(8)
  cv <- cv_ssmddm(p$X, p$Y, k = 2, alpha = c(0, 1), beta = 0.1, nfolds = 3, keep = TRUE,
                  progress = FALSE)
  expect_s3_class(cv, "cv_ssmddm")
  expect_equal(cv$fit$classifier$thresholds, f1_thresholds(cv$oof[, , cv$best], p$Y)$threshold)
  expect_output(print(cv), "best")
  expect_error(cv_ssmddm(p$X, p$Y, alpha = 1, beta = 1), "'k' is missing")
  expect_error(cv_ssmddm(p$X, p$Y, k = 2, beta = Inf), "'beta' must be finite")
  expect_error(cv_ssmddm(p$X, p$Y, k = 2, r = 3), "larger than 'k'")
})
