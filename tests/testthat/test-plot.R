# The plots draw without error on a null device and return their input.

test_that("plot.ml_cv draws a heat map, a surface and a curve", {
  p <- random_problem(40, 4, 3, seed = 91)
  cv <- cv_mlls(p$X, p$Y, alpha = c(0, 0.1, 1), beta = c(0.01, 1), nfolds = 3,
                progress = FALSE)
  pdf(NULL)
  on.exit(dev.off())
  expect_identical(plot(cv), cv)
  expect_identical(plot(cv, type = "persp", theta = 60), cv)
  one <- cv_mlls(p$X, p$Y, alpha = 1, beta = c(0.01, 1), nfolds = 3, progress = FALSE)
  expect_error(plot(one, type = "persp"), "at least two values")
  expect_identical(plot(one), one)
})

test_that("the log axis gives 0 its own tick", {
  ax <- log_axis(c(0, 1e-6, 1e-3, 1))
  expect_identical(ax$labels[1], "0")
  expect_equal(ax$at, c(-9, -6, -3, 0))
})

test_that("ml_compare evaluates methods on common folds and plots them", {
  p <- random_problem(60, 5, 3, seed = 92)
  set.seed(3)
  cmp <- ml_compare(p$X, p$Y, nfolds = 3, measures = c("macro_f1", "ranking_loss"),
                    progress = FALSE,
                    methods = list(MLLS = function(x, y) mlls(x, y, alpha = 1, beta = 0.1),
                                   ridge = function(x, y) mlls(x, y, alpha = 0, beta = 0.1)))
  expect_s3_class(cmp, "ml_comparison")
  expect_identical(nrow(cmp), 2L * 2L * 3L)
  va <- cmp$fold == 1 & cmp$method == "ridge" & cmp$measure == "macro_f1"
  folds <- ml_folds  # the folds of ml_compare are those of ml_folds()
  set.seed(3)
  f <- folds(p$Y, 3)
  fit <- mlls(p$X[f != 1, ], p$Y[f != 1, ], alpha = 0, beta = 0.1)
  expect_equal(cmp$value[va], ml_metrics(p$Y[f == 1, ], pred = predict(fit, p$X[f == 1, ], type = "class"),
                                         measures = "macro_f1")$macro_f1)
  expect_output(print(cmp), "Mean \\(sd\\) over 3 folds")
  pdf(NULL)
  on.exit(dev.off())
  expect_identical(plot(cmp), cmp)
  expect_error(ml_compare(p$X, p$Y, methods = list(function(x, y) NULL)), "named list")
})
