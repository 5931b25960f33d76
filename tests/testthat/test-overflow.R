# Extreme finite input (issue 28): x * 1e200 (or 1e-200) must give the right
# answer or a clear error, never a silently wrong one.  The companion of
# test-offset.R (which adds a constant; here x is multiplied).

ovf_data <- function(n = 60) {
  e <- mlss::emotions
  list(x = as.matrix(e$x)[seq_len(n), ], y = e$y[seq_len(n), ])
}

test_that("the kNN search on x * 1e200 and x * 1e-200 finds the neighbours of x", {
  x <- ovf_data()$x
  ref <- ref_knn(x, 5)
  refq <- ref_knn(x[1:40, ], 5, x[41:60, ])
  for (f in c(1e200, 1e-200)) {
    nb <- mlss:::knn_search(x * f, 5)
    expect_identical(nb$index, ref$index)
    expect_equal(nb$distance / f, ref$distance, tolerance = 1e-12)
    nq <- mlss:::knn_search(x[1:40, ] * f, 5, x[41:60, ] * f)
    expect_identical(nq$index, refq$index)
    xs <- Matrix::Matrix(x * f, sparse = TRUE)
    expect_identical(mlss:::knn_search(xs, 5)$index, ref$index)
  }
})

test_that("mlknn() and iblr() with scale = FALSE on x * 1e200 give the scores of x", {
  d <- ovf_data()
  train <- 1:40
  test <- 41:60
  ref <- ref_mlknn(d$x[train, ], d$y[train, ], d$x[test, ], k = 10, s = 1)
  for (f in c(1e200, 1e-200)) {
    xf <- d$x * f
    s <- as.matrix(predict(mlknn(xf[train, ], d$y[train, ], scale = FALSE), xf[test, ],
                           type = "score"))
    expect_equal(unname(s), ref, tolerance = 1e-12)
    # IBLR uses the neighbours only (not their distances): the fit of x itself
    a <- as.matrix(predict(iblr(d$x[train, ], d$y[train, ], scale = FALSE), d$x[test, ],
                           type = "score"))
    b <- as.matrix(predict(iblr(xf[train, ], d$y[train, ], scale = FALSE), xf[test, ],
                           type = "score"))
    expect_equal(b, a, tolerance = 1e-12)
  }
})

test_that("mddm() on x * 2^665 and x * 2^-700 solves the problem of x it equals", {
  # mu P'X'XP + (1 - mu) P'P = I for x = sc x': in double, mu = 0.5 at
  # sc = 2^665 is the problem of x' with mu = 1 (1 - mu is 2^-1330 of mu)
  # and at sc = 2^-700 the problem with mu = 0; mu = 0 (orthonormal P) is the
  # same problem at every scale.  The scores do not depend on the length of P.
  d <- ovf_data()
  x <- d$x
  score <- function(fit, x) as.matrix(predict(fit, x, type = "score"))
  # len: the factor that makes P of x * f satisfy the constraint of x at mu_ref
  cases <- list(list(f = 2^665, mu = 0.5, mu_ref = 1, len = 2^665 * sqrt(0.5)),
                list(f = 2^-700, mu = 0.5, mu_ref = 0, len = sqrt(0.5)),
                list(f = 1e200, mu = 0, mu_ref = 0, len = 1),
                list(f = 1e-200, mu = 1, mu_ref = 1, len = 1e-200))
  for (cs in cases) for (method in c("primal", "dual")) {
    a <- mddm(x, d$y, k = 3, mu = cs$mu_ref, method = method)
    b <- mddm(x * cs$f, d$y, k = 3, mu = cs$mu, method = method)
    # 1e-6: x * 1e-200 is not exact, and mu = 1 with d > n is ill-conditioned
    expect_equal(score(b, x * cs$f), score(a, x), tolerance = 1e-6)
    expect_equal(b$share, a$share, tolerance = 1e-6)
    expect_equal(b$P * cs$len, a$P, tolerance = 1e-6)
  }
  xs <- Matrix::Matrix(x * 1e200, sparse = TRUE)
  # mu = 0 (orthonormal P) is the same problem at every scale
  expect_equal(score(mddm(xs, d$y, k = 3, mu = 0), xs), score(mddm(x, d$y, k = 3, mu = 0), x),
               tolerance = 1e-9)
})

test_that("one huge value does not flush the other rows' distances", {
  # a global rescaling by the largest value would turn the squares of the
  # ordinary values into 0 (ties); the reference measures each distance at
  # its own scale, m sqrt(sum((d / m)^2))
  rd <- function(a, b) {
    v <- a - b
    m <- max(abs(v))
    if (m == 0) 0 else m * sqrt(sum((v / m)^2))
  }
  set.seed(3)
  x <- matrix(rnorm(160), 40)
  x[7, 1] <- 1e300
  x[9, 2] <- -1e250
  D <- outer(1:40, 1:40, Vectorize(function(i, j) rd(x[i, ], x[j, ])))
  diag(D) <- Inf
  ref <- t(apply(D, 1, function(d) order(d, seq_along(d))[1:4]))
  nb <- mlss:::knn_search(x, 4)
  expect_identical(nb$index, ref)
  expect_equal(nb$distance, t(sapply(1:40, function(i) D[i, ref[i, ]])), tolerance = 1e-12)
})

test_that("cca_ridge(), cca_svm() and lewl() on x * 1e200 say that x overflows", {
  # their problems are not scale-free (lambda on the scale of X'X, the
  # kernel's gamma and the graph's t on that of the distances): a clear error
  d <- ovf_data()
  xf <- d$x * 1e200
  expect_error(cca_ridge(xf, d$y, lambda = 1), "'x' overflow.*rescale 'x'")
  expect_error(cca_svm(xf, d$y, lambda = 1), "'x' overflow.*rescale 'x'")
  expect_error(lewl(xf, d$y), "'x' overflow.*rescale 'x'")
  # just below the limit they fit
  expect_s3_class(cca_ridge(d$x * 1e100, d$y, lambda = 1), "cca_ridge")
  expect_s3_class(lewl(d$x * 1e100, d$y), "lewl")
})

test_that("pcc() prediction by sampling stays interruptible inside one instance", {
  # 2^31 - 1 samples of one row would run for minutes; the time limit is
  # checked where the C loop checks for an interrupt, so it stops within
  # seconds (before, only between instances)
  d <- ovf_data()
  fit <- pcc(d$x[1:40, ], d$y[1:40, ])
  on.exit(setTimeLimit(elapsed = Inf), add = TRUE)
  t0 <- proc.time()[["elapsed"]]
  err <- tryCatch({
    setTimeLimit(elapsed = 1, transient = TRUE)
    predict(fit, d$x[41, , drop = FALSE], inference = "sample",
            n_samples = .Machine$integer.max)
    "finished"
  }, error = conditionMessage)
  setTimeLimit(elapsed = Inf)
  expect_match(err, "time limit")
  expect_lt(proc.time()[["elapsed"]] - t0, 20)
})

test_that("a core's failure code reaches the user as one clear error (src/status.h, mlss_stop())", {
  # a sparse x goes through its Gram matrix in C, which overflows at 1e200:
  # MLSS_ERR_NOT_FINITE, raised by mlss_stop() naming the method and the fix
  d <- ovf_data(30)
  xs <- Matrix::Matrix(d$x * 1e200, sparse = TRUE)
  expect_error(mlls(xs, d$y, alpha = 1, beta = 1),
               "^mlls: the Gram or kernel matrix overflows .*rescale 'x'")
})
