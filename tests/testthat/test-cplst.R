test_that("cplst equals the plain-R transcription with the explicit hat matrix", {
  d <- mlb_data()
  newx <- matrix(rnorm(10 * 5), 10, 5)
  for (k in c(1, 2, 4)) {
    fit <- cplst(d$X, d$Y, k = k, lambda = 0.7)
    expect_equal(unname(predict(fit, newx, type = "score")), unname(ref_cplst_scores(d$X, d$Y, k, 0.7, newx)),
                 tolerance = 1e-10)
  }
  expect_equal(ncol(fit$encoding), 4)
  expect_equal(colnames(predict(fit, newx, type = "score")), colnames(d$Y))
})

test_that("k = m and lambda -> 0 is least squares on every label", {
  d <- mlb_data()
  fit <- cplst(d$X, d$Y, k = ncol(d$Y), lambda = 1e-10)
  ols <- lm.fit(cbind(1, d$X), d$Y * 1)
  expect_equal(unname(coef(fit)), unname(ols$coefficients), tolerance = 1e-7)
})

test_that("the Gram path (d > n) and sparse x agree with the references", {
  set.seed(3)
  n <- 15
  X <- matrix(rnorm(n * 30), n, 30)
  Y <- matrix(runif(n * 3) > 0.5, n, 3)
  Y[1, ] <- TRUE
  Y[2, ] <- FALSE
  newx <- matrix(rnorm(4 * 30), 4, 30)
  fit <- cplst(X, Y, k = 2, lambda = 0.5)
  expect_equal(unname(predict(fit, newx, type = "score")), unname(ref_cplst_scores_dual(X, Y, 2, 0.5, newx)),
               tolerance = 1e-10)
  expect_equal(unname(predict(fit, newx, type = "score")), unname(ref_cplst_scores(X, Y, 2, 0.5, newx)),
               tolerance = 1e-10)
  Xs <- X * (abs(X) > 0.8)
  sfit <- cplst(Matrix::Matrix(Xs, sparse = TRUE), Y, k = 2, lambda = 0.5)
  expect_equal(unname(predict(sfit, newx, type = "score")), unname(ref_cplst_scores(Xs, Y, 2, 0.5, newx)),
               tolerance = 1e-10)
  d <- mlb_data()
  sfit <- cplst(Matrix::Matrix(d$X * (d$X > 0), sparse = TRUE), d$Y, k = 3, lambda = 0.2)
  expect_equal(unname(predict(sfit, d$X, type = "score")),
               unname(ref_cplst_scores(d$X * (d$X > 0), d$Y, 3, 0.2, d$X)), tolerance = 1e-10)
})

test_that("missing labels are negatives by default, or refused", {
  d <- mlb_data()
  y <- d$Y * 1
  y[3:6, 2] <- NA
  fit <- cplst(d$X, y, k = 2)
  y0 <- y
  y0[is.na(y0)] <- 0
  expect_equal(predict(fit, d$X, type = "score"), predict(cplst(d$X, y0, k = 2), d$X, type = "score"))
  expect_equal(fit$n_missing, 4)
  expect_output(print(fit), "4 missing label")
  expect_error(cplst(d$X, y, na_labels = "refuse"), "cplst\\(na_labels")
})

test_that("predict types, formula interface, thresholds and bad input", {
  d <- mlb_data()
  fit <- cplst(d$X, d$Y, k = 2, lambda = 1)
  cls <- predict(fit, d$X, type = "class")
  expect_true(is.logical(cls))
  expect_equal(cls, predict(fit, d$X, type = "score") > rep(fit$thresholds, each = nrow(d$X)))
  expect_equal(unname(fit$thresholds),
               unname(f1_thresholds(predict(fit, d$X, type = "score"), d$Y)$threshold))
  df <- data.frame(d$X, d$Y)
  ff <- cplst(cbind(L1, L2, L3, L4) ~ ., data = df, k = 2, lambda = 1)
  expect_equal(unname(predict(ff, df, type = "score")), unname(predict(fit, d$X, type = "score")), tolerance = 1e-10)
  expect_error(cplst(d$X, d$Y, k = 5), "larger than the number of labels")
  expect_error(cplst(d$X, d$Y, k = 0), "'k'")
  expect_error(cplst(d$X, d$Y, lambda = -1), "'lambda'")
  expect_error(cplst(d$X[-1, ], d$Y), "rows")
  xna <- d$X
  xna[1, 1] <- NA
  expect_error(cplst(xna, d$Y), "NA")
  expect_error(cplst(d$X, d$Y, foo = 1), "unknown argument")
  expect_error(cplst(cbind(d$X, d$X), d$Y, lambda = 0), "singular")
})

test_that("cv_cplst chooses k and lambda on the engine", {
  d <- mlb_data(n = 60)
  set.seed(2)
  cv <- cv_cplst(d$X, d$Y, k = c(1, 3), lambda = c(0.1, 10), nfolds = 3, progress = FALSE)
  expect_s3_class(cv, "ml_cv")
  expect_s3_class(cv$fit, "cplst")
  expect_equal(nrow(cv$grid), 4)
  expect_true(cv$fit$k %in% c(1, 3))
  expect_error(cv_cplst(d$X, d$Y, k = 9, nfolds = 3), "larger than")
})
