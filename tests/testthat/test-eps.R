# EPS against a plain-R reading of Read, Pfahringer and Holmes (2008): the
# same draws from R's generator, one ps() per sample, the label sets (or
# marginals) averaged, cut at the threshold.

eps_reference <- function(pr, n_models, p, b, sample = "bootstrap", fraction = 0.67,
                          vote = "class") {
  n <- nrow(pr$x)
  total <- 0
  for (j in seq_len(n_models)) {
    r <- if (sample == "bootstrap") sample(n, n, replace = TRUE) else sample(n, round(fraction * n))
    f <- ps(pr$x[r, ], pr$y[r, ], p = p, b = b)
    total <- total + predict(f, pr$newx, type = if (vote == "class") "class" else "score")
  }
  total / n_models
}

test_that("EPS averages the label sets of pruned-sets models on bootstrap samples", {
  pr <- labelset_problem(3, n = 70, m = 4)
  set.seed(11)
  fit <- eps(pr$x, pr$y, n_models = 4, p = 2, b = 1)
  set.seed(11)
  ref <- eps_reference(pr, 4, p = 2, b = 1)
  sc <- predict(fit, pr$newx, type = "score")
  expect_equal(unname(sc), unname(ref), tolerance = 1e-12)
  expect_identical(unname(predict(fit, pr$newx)), unname(ref > 0.5))
  expect_identical(colnames(sc), colnames(pr$y))
  expect_true(all(vapply(fit$models, inherits, NA, "ps")))
  # every vote a multiple of 1/4, and some row mixes the models' sets
  expect_true(all(abs(sc * 4 - round(sc * 4)) < 1e-12))
  expect_true(any(sc > 0 & sc < 1))
  # votes by marginals, subsamples
  set.seed(12)
  fs <- eps(pr$x, pr$y, n_models = 3, p = 2, b = 1, vote = "score", sample = "subsample",
            fraction = 0.6)
  expect_identical(lengths(fs$rows), rep(42L, 3))
  set.seed(12)
  expect_equal(unname(predict(fs, pr$newx, type = "score")),
               unname(eps_reference(pr, 3, 2, 1, "subsample", 0.6, "score")),
               tolerance = 1e-12)
  # the threshold is the fit's cut, which predict()'s thresholds replace
  set.seed(11)
  f8 <- eps(pr$x, pr$y, n_models = 4, p = 2, b = 1, threshold = 0.8)
  expect_identical(unname(predict(f8, pr$newx)), unname(ref > 0.8))
  expect_identical(unname(predict(fit, pr$newx, thresholds = 0.8)), unname(ref > 0.8))
  expect_output(print(fit), "Ensemble of 4 pruned-sets models")
  expect_error(eps(pr$x, pr$y, n_models = 0), "'n_models'")
  expect_error(eps(pr$x, pr$y, fraction = 2, sample = "subsample"), "'fraction'")
})

test_that("cv_eps cross-validates the cost on the engine", {
  pr <- labelset_problem(4, n = 60, m = 3)
  foldid <- rep_len(1:3, 60)
  set.seed(5)
  cv <- suppressMessages(cv_eps(pr$x, pr$y, cost = c(0.1, 1), n_models = 2, p = 1,
                                foldid = foldid, measure = "hamming_loss"))
  expect_s3_class(cv, "cv_eps")
  expect_s3_class(cv$fit, "eps")
  expect_length(cv$cvm, 2)
  expect_identical(cv$fit$threshold_source, "oof")
})
