# The formula interface of mddm() and ssmddm() (formula_parts(), formula_finish()).

test_that("the formula interface fits the default method on the model matrix", {
  p <- label_problem(40, 3, m = 2, seed = 41)
  df <- data.frame(p$X, g = factor(rep(c("a", "b", "c", "d"), 10)),
                   l1 = p$Y[, 1], l2 = p$Y[, 2])
  xm <- model.matrix(~ X1 + X2 + X3 + g, df)[, -1]
  for (f in list(function(...) mddm(..., k = 2, mu = 0.5),
                 function(...) ssmddm(..., alpha = 1, beta = 0.1, k = 2, r = 1))) {
    a <- f(cbind(l1, l2) ~ ., data = df)
    b <- f(xm, p$Y)
    expect_equal(unname(a$P), unname(b$P), tolerance = 1e-12)
    expect_identical(rownames(a$P), colnames(xm))
    expect_equal(predict(a, df[1:5, ]), predict(b, xm[1:5, ]), ignore_attr = TRUE)
    expect_equal(predict(a, df[1:5, ], type = "score"), predict(b, xm[1:5, ], type = "score"),
                 ignore_attr = TRUE)
    expect_s3_class(a$terms, "terms")
  }
  fit <- mddm(cbind(l1, l2) ~ X1 + X2, data = df, subset = X3 > 0, k = 1)
  expect_identical(fit$nobs, sum(df$X3 > 0))
  expect_identical(fit$call[[1]], quote(mddm))
  expect_error(mddm(~ X1 + X2, data = df, k = 1), "no labels on its left-hand side")
  df$X1[2] <- NA
  expect_error(mddm(cbind(l1, l2) ~ ., data = df, k = 1), "missing values")
})
