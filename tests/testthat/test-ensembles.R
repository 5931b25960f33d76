# ECC and EBR against a plain-R reading of Read et al. (2011): the same draws
# from R's generator (rows, then the chain), one cc()/br() per sample, votes
# averaged.

ens_problem <- function(seed = 1, n = 50, d = 3, m = 4) {
  set.seed(seed)
  x <- matrix(rnorm(n * d), n, d, dimnames = list(NULL, paste0("f", 1:d)))
  y <- x %*% matrix(rnorm(d * m), d, m) + matrix(rnorm(n * m), n, m) > 0
  colnames(y) <- paste0("l", 1:m)
  list(x = x, y = y, newx = matrix(rnorm(10 * d), 10, d, dimnames = list(NULL, colnames(x))))
}

ens_reference <- function(pr, kind, n_models, sample = "bootstrap", fraction = 0.67,
                          vote = "class") {
  n <- nrow(pr$x); m <- ncol(pr$y)
  total <- matrix(0, nrow(pr$newx), m)
  for (j in seq_len(n_models)) {
    r <- if (sample == "bootstrap") sample(n, n, replace = TRUE) else sample(n, round(fraction * n))
    f <- if (kind == "ecc") cc(pr$x[r, ], pr$y[r, ], order = sample(m))
         else br(pr$x[r, ], pr$y[r, ], learner = "logistic")
    total <- total + predict(f, pr$newx, type = if (vote == "class") "class" else "score")
  }
  total / n_models
}

test_that("ECC averages the votes of chains on bootstrap samples in random orders", {
  pr <- ens_problem()
  set.seed(4)
  fit <- ecc(pr$x, pr$y, n_models = 4)
  set.seed(4)
  ref <- ens_reference(pr, "ecc", 4)
  sc <- predict(fit, pr$newx, type = "score")
  expect_equal(unname(sc), unname(ref), tolerance = 1e-12)
  expect_identical(unname(predict(fit, pr$newx)), unname(ref > 0.5))
  expect_identical(colnames(sc), colnames(pr$y))
  expect_false(all(vapply(fit$orders, identical, NA, fit$orders[[1]])))   # random chains
  set.seed(4)
  fs <- ecc(pr$x, pr$y, n_models = 4, vote = "score")
  set.seed(4)
  expect_equal(unname(predict(fs, pr$newx, type = "score")),
               unname(ens_reference(pr, "ecc", 4, vote = "score")), tolerance = 1e-12)
  expect_output(print(fit), "classifier chains")
})

test_that("EBR on subsamples; constant labels in a sample give one warning", {
  pr <- ens_problem(2)
  set.seed(8)
  fit <- ebr(pr$x, pr$y, n_models = 3, sample = "subsample", fraction = 0.5)
  expect_identical(lengths(fit$rows), rep(25L, 3))
  expect_false(any(vapply(fit$rows, anyDuplicated, 0L) > 0))
  set.seed(8)
  ref <- ens_reference(pr, "ebr", 3, sample = "subsample", fraction = 0.5)
  expect_equal(unname(predict(fit, pr$newx, type = "score")), unname(ref), tolerance = 1e-12)
  rare <- pr$y
  rare[, 4] <- seq_len(50) == 1                    # one positive: absent from most samples
  set.seed(2)                                       # row 1 missed by 2 of the 4 samples
  w <- testthat::capture_warnings(ebr(pr$x, rare, n_models = 4))
  expect_length(w, 1)
  expect_match(w, "in 2 of the 4 samples some label had no positive")
  expect_error(ebr(pr$x, pr$y, n_models = 0), "'n_models'")
  expect_error(ebr(pr$x, pr$y, sample = "subsample", fraction = 0), "'fraction'")
})

test_that("ECC and EBR are ml_fits: cut, stored thresholds, formula and data-set input", {
  pr <- ens_problem(3)
  set.seed(6)
  fit <- ebr(pr$x, pr$y, n_models = 3, threshold = 0.8)
  expect_s3_class(fit, c("ebr", "ml_ensemble", "ml_fit"))
  expect_null(fit$thresholds)
  sc <- predict(fit, pr$newx, type = "score")
  expect_true(any(abs(sc - 2 / 3) < 1e-12))   # votes the cut 0.8 and the default 0.5 part
  expect_identical(unname(predict(fit, pr$newx)), unname(sc > 0.8))
  st <- fit
  st$thresholds <- c(0.9, 0.1, 0.5, 0.2)
  expect_identical(unname(predict(st, pr$newx)),
                   unname(sc > rep(c(0.9, 0.1, 0.5, 0.2), each = nrow(sc))))
  # the formula method draws the same samples and orders as the default one
  df <- data.frame(pr$x, pr$y + 0)
  set.seed(6)
  fe <- ecc(pr$x, pr$y, n_models = 3)
  set.seed(6)
  ff <- ecc(cbind(l1, l2, l3, l4) ~ ., data = df, n_models = 3)
  expect_s3_class(ff, c("ecc", "ml_fit"))
  expect_identical(ff$orders, fe$orders)
  expect_equal(predict(ff, data.frame(pr$newx), type = "score"),
               predict(fe, pr$newx, type = "score"), ignore_attr = TRUE, tolerance = 1e-10)
  expect_identical(deparse(ff$call[[1]]), "ecc")
  # a data set: its training rows, y left out
  d <- mlss_data(pr$x, pr$y)
  set.seed(6)
  fd <- ebr(d, n_models = 3, threshold = 0.8)
  expect_equal(predict(fd, pr$newx, type = "score"), sc)
})
