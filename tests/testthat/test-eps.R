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

test_that("eps(init = ) takes the samples of a fit again and warm-starts its models", {
  pr <- labelset_problem(6, n = 80, m = 3)
  set.seed(2)
  f0 <- eps(pr$x, pr$y, n_models = 3, p = 1, cost = 0.1)
  f1 <- eps(pr$x, pr$y, n_models = 3, p = 1, cost = 1, init = f0)
  expect_identical(f1$rows, f0$rows)
  # each model: the pruned-sets model of its sample at the new cost, fitted cold
  for (j in 1:3) {
    r <- f0$rows[[j]]
    cold <- ps(pr$x[r, ], pr$y[r, ], p = 1, cost = 1, tol = 1e-10)
    expect_equal(f1$models[[j]]$model$W, cold$model$W, tolerance = 1e-3)
    expect_identical(rownames(f1$models[[j]]$sets), rownames(cold$sets))
  }
  expect_error(eps(pr$x, pr$y, n_models = 2, p = 1, init = f0), "'init' must be an eps")
  expect_error(eps(pr$x[-1, ], pr$y[-1, ], n_models = 3, p = 1, init = f0), "'init'")
})

test_that("cv_eps walks the costs of a fold on the same samples, warm-started", {
  pr <- labelset_problem(7, n = 60, m = 3)
  foldid <- rep_len(1:3, 60)
  rec <- new.env()
  rec$seen <- list()
  # record the cost and samples of every eps() fit (a trace at its exit)
  utils::capture.output(trace("eps.default", exit = bquote(assign("seen", c(get("seen", envir = .(rec)),
                                                       list(list(cost = cost, rows = rows))),
                                            envir = .(rec))),
        where = asNamespace("mlss"), print = FALSE))
  on.exit(utils::capture.output(untrace("eps.default", where = asNamespace("mlss"))),
          add = TRUE)
  set.seed(5)
  cv <- suppressMessages(cv_eps(pr$x, pr$y, cost = c(0.1, 1, 10), n_models = 2, p = 1,
                                foldid = foldid))
  seen <- rec$seen
  # 3 folds x 3 costs, then the refit; a fold's three fits share their samples
  expect_length(seen, 10)
  folds <- split(seen[1:9], rep(1:3, 3))
  for (f in folds) {
    expect_identical(vapply(f, `[[`, 0, "cost"), c(0.1, 1, 10))
    expect_identical(f[[2]]$rows, f[[1]]$rows)
    expect_identical(f[[3]]$rows, f[[1]]$rows)
  }
  expect_false(identical(folds[[1]][[1]]$rows, folds[[2]][[1]]$rows))
})
