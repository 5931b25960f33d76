# predict, coef, summary, print and the formula interface.

p <- random_problem(40, 5, 3, seed = 51)
colnames(p$X) <- paste0("f", 1:5)
colnames(p$Y) <- c("a", "b", "c")
fit <- mlls(p$X, p$Y, alpha = 0.5, beta = 0.1, r = 2)

test_that("predict gives scores x U + intercept and classes score > threshold", {
  s <- predict(fit, p$X, type = "score")
  expect_equal(s, p$X %*% fit$U + rep(fit$intercept, each = 40), ignore_attr = TRUE)
  expect_identical(colnames(s), c("a", "b", "c"))
  cl <- predict(fit, p$X, type = "class")
  expect_identical(cl, s > rep(fit$thresholds, each = 40))
  expect_identical(predict(fit, p$X, type = "class", thresholds = 0), s > 0)
  # a score equal to its threshold is not predicted
  expect_identical(unname(predict(fit, p$X[1:2, ], type = "class", thresholds = s[1, ])),
                   unname(rbind(c(FALSE, FALSE, FALSE), s[2, ] > s[1, ])))
  # the stored training F1 is the F1 of the training predictions
  f1 <- 2 * colSums(cl & p$Y > 0) / (colSums(cl) + colSums(p$Y > 0))
  expect_equal(fit$train_f1, f1)
  # columns are matched by name
  expect_equal(predict(fit, p$X[, 5:1], type = "score"), s)
  bad <- p$X; colnames(bad)[1] <- "zz"
  expect_error(predict(fit, bad, type = "score"), "column names of 'newx' differ")
  # sparse new data
  expect_equal(predict(fit, Matrix::Matrix(p$X, sparse = TRUE), type = "score"), s, ignore_attr = TRUE)
})

test_that("coef returns the intercept and U, W, V, Theta", {
  expect_identical(dim(coef(fit)), c(6L, 3L))
  expect_identical(rownames(coef(fit))[1], "(Intercept)")
  # the coefficients of the scores: [1, x] coef = predict
  expect_equal(cbind(1, p$X) %*% coef(fit), predict(fit, p$X, type = "score"))
  expect_identical(coef(fit)[-1, ], fit$U)
  expect_identical(coef(fit, "V"), fit$V)
  expect_identical(coef(fit, "Theta"), fit$Theta)
  expect_identical(coef(fit, "W"), fit$W)
})

test_that("print and summary show the fit", {
  expect_output(print(fit), "MLLS on 40 instances, 5 features, 3 labels")
  expect_output(print(fit), "shared subspace r = 2")
  s <- summary(fit)
  expect_s3_class(s, "summary.mlls")
  expect_identical(rownames(s$labels), c("a", "b", "c"))
  expect_equal(s$labels$train_f1, unname(fit$train_f1))
  expect_true(all(s$labels$shared >= 0 & s$labels$shared <= 1 + 1e-12))
  expect_output(print(s), "training macro F1")
})

test_that("the formula interface equals the matrix interface and predicts from data frames", {
  df <- data.frame(p$X, a = p$Y[, 1] > 0, b = p$Y[, 2] > 0, c = p$Y[, 3] > 0)
  ff <- mlls(cbind(a, b, c) ~ ., data = df, alpha = 0.5, beta = 0.1, r = 2)
  expect_equal(ff$U, fit$U)
  expect_equal(predict(ff, df, type = "score"), predict(fit, p$X, type = "score"), ignore_attr = TRUE)
  expect_identical(ff$call[[1]], quote(mlls))
  # factors become indicator columns
  df$g <- factor(rep(c("u", "v", "w", "u"), 10))
  fg <- mlls(cbind(a, b) ~ f1 + g, data = df, alpha = 0.5, beta = 0.1)
  expect_identical(fg$features, c("f1", "gv", "gw"))
  Xg <- cbind(f1 = df$f1, gv = df$g == "v", gw = df$g == "w") + 0
  ref <- mlls(Xg, p$Y[, 1:2], alpha = 0.5, beta = 0.1)
  expect_equal(fg$U, ref$U, ignore_attr = TRUE)
  expect_equal(predict(fg, df[1:3, ], type = "score"), predict(ref, Xg[1:3, ], type = "score"), ignore_attr = TRUE)
  # new data with some of the levels only, as characters: the training levels
  new <- data.frame(f1 = c(0.5, -1), g = c("w", "u"))
  expect_equal(predict(fg, new, type = "score"), predict(ref, cbind(c(0.5, -1), c(0, 0), c(1, 0)), type = "score"),
               ignore_attr = TRUE)
  df$f1[2] <- NA
  expect_error(mlls(cbind(a, b) ~ f1 + g, data = df, alpha = 0.5, beta = 0.1), "missing values")
})
