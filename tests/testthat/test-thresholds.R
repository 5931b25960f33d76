# F1-maximising thresholds, on examples computed by hand.

test_that("the threshold maximises F1, half-way between scores", {
  # sorted scores .9(+) .8(-) .7(+) .3(-) .1(+): cutting after k = 1, 3, 5 gives
  # F1 = 2/4, 4/6, 6/8; the best is k = 5 (-Inf, everything predicted)
  res <- f1_thresholds(c(0.9, 0.8, 0.7, 0.3, 0.1), c(TRUE, FALSE, TRUE, FALSE, TRUE))
  expect_equal(unname(res$f1), 0.75)
  expect_identical(unname(res$threshold), -Inf)
  # .9(+) .8(+) .3(-) .2(+) .1(-): k = 2 gives 4/5, k = 4 gives 6/7 -> cut at .15
  res <- f1_thresholds(c(0.9, 0.8, 0.3, 0.2, 0.1), c(1, 1, 0, 1, 0))
  expect_equal(unname(res$threshold), 0.15)
  expect_equal(unname(res$f1), 6 / 7)
})

test_that("ties in score are never split, ties in F1 go to the higher threshold", {
  # the two .5 scores (one +, one -) stay on the same side: k = 1 gives
  # F1 = 2/3, k = 3 gives 4/5 (k = 2 would give 1 but splits the tie)
  res <- f1_thresholds(c(0.9, 0.5, 0.5, 0.1), c(TRUE, TRUE, FALSE, FALSE))
  expect_equal(unname(res$threshold), 0.3)
  expect_equal(unname(res$f1), 0.8)
  # cutting after k = 1 (F1 = 2/3) ties with predicting everything (k = 4,
  # F1 = 4/6): the higher threshold wins over -Inf
  res <- f1_thresholds(c(4, 3, 2, 1), c(TRUE, FALSE, FALSE, TRUE))
  expect_equal(unname(res$f1), 2 / 3)
  expect_equal(unname(res$threshold), 3.5)
  # a tie between two interior cuts: .6(+) .5(-) .4(-) .3(+) .2(-) .1(-) gives
  # F1 = 2/3 after k = 1 and after k = 4 (4/6): 5.5 wins over 2.5
  res <- f1_thresholds(6:1, c(TRUE, FALSE, FALSE, TRUE, FALSE, FALSE))
  expect_equal(unname(res$f1), 2 / 3)
  expect_identical(unname(res$threshold), 5.5)
  # the same in every column of a matrix, scores in any order
  s <- cbind(a = 6:1, b = c(1, 3, 2, 6, 4, 5))
  y <- cbind(c(TRUE, FALSE, FALSE, TRUE, FALSE, FALSE), c(FALSE, TRUE, FALSE, TRUE, FALSE, FALSE))
  expect_identical(f1_thresholds(s, y)$threshold, c(a = 5.5, b = 5.5))
})

test_that("labels without positives or negatives get infinite thresholds", {
  s <- cbind(a = c(1, 2, 3), b = c(3, 2, 1))
  res <- f1_thresholds(s, cbind(c(FALSE, FALSE, FALSE), c(TRUE, TRUE, TRUE)))
  expect_identical(res$threshold, c(a = Inf, b = -Inf))
  expect_identical(res$f1, c(a = 1, b = 1))
})

test_that("the thresholds agree with a brute-force search", {
  set.seed(31)
  for (i in 1:20) {
    n <- sample(5:40, 1)
    s <- round(rnorm(n), 1)  # rounded: many ties
    y <- runif(n) < 0.4
    if (!any(y) || all(y)) next
    res <- f1_thresholds(s, y)
    cuts <- c(sort(unique(s)) - 1e-9, max(s) + 1)
    f1 <- vapply(cuts, function(cut) {
      pred <- s > cut
      2 * sum(pred & y) / (sum(pred) + sum(y))
    }, numeric(1))
    expect_equal(unname(res$f1), max(f1))
    pred <- s > res$threshold
    expect_equal(2 * sum(pred & y) / (sum(pred) + sum(y)), max(f1))
    # the highest of the best cuts, half-way between scores (-Inf below them all)
    best <- max(which(abs(f1 - max(f1)) < 1e-12))
    u <- sort(unique(s))
    expect_equal(unname(res$threshold), if (best == 1) -Inf else (u[best - 1] + u[best]) / 2)
  }
})

test_that("inputs are checked", {
  expect_error(f1_thresholds(c(1, NA), c(TRUE, FALSE)), "'score' contains NA")
  expect_error(f1_thresholds(c(1, 2), c(TRUE, FALSE, TRUE)), "has 2 rows but 'y' has 3")
  expect_error(f1_thresholds(matrix(1:4, 2), c(TRUE, FALSE)), "same number of columns")
})
