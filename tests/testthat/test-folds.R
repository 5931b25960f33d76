test_that("iterative stratification spreads every label over the folds", {
  set.seed(71)
  n <- 200
  y <- cbind(rare = seq_len(n) %in% c(3, 50, 120), mid = runif(n) < 0.1, common = runif(n) < 0.5)
  f <- ml_folds(y, 5)
  expect_type(f, "integer")
  expect_setequal(unique(f), 1:5)
  sizes <- tabulate(f, 5)
  expect_lte(max(sizes) - min(sizes), 2)
  per_fold <- rowsum(y * 1, f)
  expect_true(all(colSums(per_fold > 0)[c("rare", "mid")] >= pmin(colSums(y)[c("rare", "mid")], 5)))
  expect_lte(diff(range(per_fold[, "common"])), 2)
  set.seed(72)
  f1 <- ml_folds(y, 5)
  set.seed(72)
  expect_identical(ml_folds(y, 5), f1)
})

test_that("bad nfolds are errors", {
  y <- matrix(c(TRUE, FALSE), 4, 2)
  expect_error(ml_folds(y, 1), "'nfolds' must be a whole number between 2 and")
  expect_error(ml_folds(y, 5), "between 2 and the number of rows \\(4\\)")
})
