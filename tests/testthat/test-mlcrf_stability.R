# Stability selection of MLCRF edges against a plain-R reading of
# Meinshausen and Buhlmann (2010): the same subsamples (drawn in the
# documented order), each fitted by mlcrf() from a cold start at every point
# of the path, the edges read from the fits, the probabilities counted here.

stab_data <- function(n = 120, seed = 3) {
  set.seed(seed)
  x <- matrix(stats::runif(n * 4, -1, 1), n, 4)
  y1 <- stats::runif(n) < stats::plogis(2 * x[, 1])
  y2 <- ifelse(stats::runif(n) < 0.85, y1, !y1)       # y1 - y2 linked
  y3 <- stats::runif(n) < stats::plogis(-2 * x[, 2])   # independent
  y <- cbind(a = y1, b = y2, c = y3)
  list(x = x, y = y)
}

test_that("selection probabilities and stable edges follow the plain-R procedure", {
  d <- stab_data()
  lv <- rep(0.05, 3)
  lam <- c(0.3, 0.15)  # probabilities 0, 0.25, 0.5 and 1 on these data
  B <- 4
  set.seed(11)
  st <- mlcrf_stability(d$x, d$y, lambda_w = lam, eta = 1, B = B, threshold = 0.6,
                        lambda_v = lv, tol = 1e-8)
  # the reference
  set.seed(11)
  n <- nrow(d$x)
  pairs <- c("a~b", "a~c", "b~c")
  count <- matrix(0, 3, length(lam), dimnames = list(pairs, NULL))
  for (b in seq_len(B)) {
    rows <- sample.int(n, floor(n / 2))
    for (k in seq_along(lam)) {
      fit <- suppressWarnings(mlcrf(d$x[rows, ], d$y[rows, ], lambda_v = lv,
                                    lambda_w = lam[k], eta = 1, tol = 1e-8))
      sel <- paste(fit$edges$from, fit$edges$to, sep = "~")
      count[, k] <- count[, k] + (pairs %in% sel)
    }
  }
  prob <- count / B
  expect_equal(unname(st$prob), unname(prob))
  expect_equal(rownames(st$prob), pairs)
  maxp <- apply(prob, 1, max)
  expect_equal(paste(st$edges$from, st$edges$to, sep = "~"), pairs[maxp >= 0.6])
  expect_true("a~b" %in% paste(st$edges$from, st$edges$to, sep = "~"))
  # the bound of Meinshausen and Buhlmann from the last point of the path
  q <- sum(prob[, length(lam)])
  expect_equal(st$error_bound, q^2 / ((2 * 0.6 - 1) * 3))
  # the refit on all rows has exactly the stable edges
  expect_equal(paste(st$fit$edges$from, st$fit$edges$to, sep = "~"),
               paste(st$edges$from, st$edges$to, sep = "~"))
  expect_output(print(st), "stable")
  p <- predict(st, d$x[1:5, ], type = "score")
  expect_equal(dim(p), c(5L, 3L))
})

test_that("the refit of the stable edges solves stage 2 on those edges", {
  d <- stab_data(seed = 5)
  set.seed(2)
  st <- mlcrf_stability(d$x, d$y, lambda_w = c(0.3, 0.1), B = 3, lambda_v = 0.05,
                        eta = 0.5, lambda_refit = 0.1, threshold = 0.5 + 1e-9, tol = 1e-8)
  # the same graph by mlcrf(edges = "full") when every pair is stable, else
  # the stationarity of the smooth objective on the kept edges
  fit <- st$fit
  prep <- mlss:::mlcrf_prepare(d$x, d$y + 0, "full")
  keep <- match(paste(fit$edges$from, fit$edges$to, sep = "~"),
                paste(c("a", "a", "b"), c("b", "c", "c"), sep = "~"))
  g <- mlss:::mlcrf_call_objective(prep, keep, rep(0.05, 3), 0.1, 0.5, fit$theta)$gradient
  expect_lt(max(abs(g)), 1e-5)
})

test_that("bad settings give clear errors", {
  d <- stab_data()
  expect_error(mlcrf_stability(d$x, d$y, threshold = 0.4, lambda_v = 0.1), "threshold")
  expect_error(mlcrf_stability(d$x, d$y, fraction = 1, lambda_v = 0.1), "fraction")
  expect_error(mlcrf_stability(d$x, d$y, B = 2.5, lambda_v = 0.1), "B")
  expect_error(mlcrf_stability(d$x, d$y, eta = 0, lambda_v = 0.1), "eta")
})
