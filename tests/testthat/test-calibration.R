# Platt's map against a direct maximisation of its likelihood, the isotonic
# map against stats::isoreg() and a brute-force check of its definition.

cal_data <- function(seed = 1, n = 80) {
  set.seed(seed)
  s <- cbind(a = rnorm(n), b = rnorm(n) * 3)
  y <- cbind(a = runif(n) < plogis(2 * s[, 1]), b = runif(n) < plogis(s[, 2] - 1))
  list(s = s, y = y)
}

test_that("Platt's map maximises the likelihood of the smoothed targets", {
  d <- cal_data()
  cal <- ml_calibrate(d$s, d$y, "platt")
  for (l in 1:2) {
    s <- d$s[, l]; y <- d$y[, l]
    t <- ifelse(y, (sum(y) + 1) / (sum(y) + 2), 1 / (sum(!y) + 2))
    nll <- function(p) -sum(t * plogis(p[1] + p[2] * s, log.p = TRUE) +
                              (1 - t) * plogis(-(p[1] + p[2] * s), log.p = TRUE))
    opt <- optim(c(0, 1), nll, method = "BFGS", control = list(reltol = 1e-14))
    expect_equal(c(cal$maps[[l]]$a, cal$maps[[l]]$b), opt$par, tolerance = 1e-5)
  }
  new <- cbind(a = c(-1, 0, 2), b = c(5, 0, -3))
  p <- predict(cal, new)
  expect_equal(unname(p[, "b"]), plogis(cal$maps$b$a + cal$maps$b$b * new[, "b"]))
  expect_identical(predict(cal, new[, 2:1]), p)                  # columns matched by name
  # separable scores: the targets keep the map finite
  sep <- ml_calibrate(cbind(s = 1:10), cbind(s = 1:10 > 5), "platt")
  expect_true(all(is.finite(unlist(sep$maps))))
})

test_that("the isotonic map is stats::isoreg's fit, tied scores pooled", {
  d <- cal_data(2)
  cal <- ml_calibrate(d$s, d$y, "isotonic")
  for (l in 1:2) {
    ir <- isoreg(d$s[, l], d$y[, l] + 0)
    expect_equal(predict(cal, d$s)[, l][ir$ord], ir$yf, tolerance = 1e-12)
  }
  # ties: three equal scores share one value, the mean of their labels when pooled
  s <- cbind(z = c(0.1, 0.5, 0.5, 0.5, 0.9))
  y <- cbind(z = c(FALSE, TRUE, FALSE, FALSE, TRUE))
  cz <- ml_calibrate(s, y, "isotonic")
  expect_equal(unname(predict(cz, s)[, 1]), c(0, 1 / 3, 1 / 3, 1 / 3, 1))
  # brute force: no non-decreasing step function on the knots does better
  set.seed(3)
  s <- cbind(z = round(runif(12), 1)); y <- cbind(z = runif(12) < s[, 1])
  cz <- ml_calibrate(s, y, "isotonic")
  fit <- predict(cz, s)[, 1]
  expect_false(is.unsorted(fit[order(s[, 1])]))
  sse <- sum((fit - y[, 1])^2)
  for (k in 1:200) {
    v <- sort(runif(length(unique(s[, 1]))))
    alt <- v[match(s[, 1], sort(unique(s[, 1])))]
    expect_gte(sum((alt - y[, 1])^2), sse - 1e-12)
  }
  # new scores: the value of the largest knot not above, the lowest below all
  expect_equal(unname(predict(cz, cbind(z = c(-5, 5)))[, 1]), c(min(fit), max(fit)))
})

test_that("calibration leaves out missing labels; the reliability plot bins", {
  d <- cal_data(4)
  y <- d$y
  y[1:10, 1] <- NA
  cal <- ml_calibrate(d$s, y, "platt")
  ref <- ml_calibrate(d$s[-(1:10), 1, drop = FALSE], d$y[-(1:10), 1, drop = FALSE], "platt")
  expect_equal(cal$maps$a, ref$maps$a)
  p <- predict(cal, d$s)
  pdf(NULL)
  on.exit(dev.off())
  tab <- reliability_plot(list(platt = p), d$y, bins = 5)$platt
  pv <- as.vector(p); yv <- as.vector(d$y)
  b <- pmin(floor(pv * 5), 4) + 1
  expect_identical(tab$n, tabulate(b, 5))
  expect_equal(tab$observed[tab$n > 0], as.vector(tapply(yv, b, mean)))
  # edges: [0, 0.2) is bin 1, 0.2 starts bin 2, 1 is in the last bin
  edge <- reliability_plot(cbind(c(0, 0.2, 0.4, 0.5, 1)), cbind(c(0, 1, 0, 1, 1)), bins = 5)
  expect_identical(edge[[1]]$n, c(1L, 1L, 2L, 0L, 1L))
  expect_error(ml_calibrate(d$s, d$y[, 1]), "same number of columns")
  expect_output(print(cal), "Platt")
})

test_that("label sets (predict()'s default type) are refused as scores, with the remedy", {
  cls <- matrix(c(TRUE, FALSE, TRUE, TRUE), 2, dimnames = list(NULL, c("a", "b")))
  expect_error(ml_calibrate(cls, cls), "is logical \\(label sets\\).*type = \"score\"")
  expect_error(ml_decide(cls, "rcut", k = 1), "is logical \\(label sets\\)")
})
