# Bad input gets a clear error that names the argument.

p <- random_problem(20, 4, 3, seed = 21)

test_that("NA, NaN and Inf in x or y are errors naming the argument", {
  X <- p$X; X[3, 2] <- NA
  expect_error(mlls(X, p$Y, alpha = 1, beta = 1), "'x' contains NA")
  X[3, 2] <- Inf
  expect_error(mlls(X, p$Y, alpha = 1, beta = 1), "'x' contains NA, NaN or infinite")
  Xs <- Matrix::Matrix(p$X, sparse = TRUE); Xs[1, 1] <- NaN
  expect_error(mlls(Xs, p$Y, alpha = 1, beta = 1), "'x' contains NA")
  Y <- p$Y; Y[2, 1] <- NA
  expect_error(mlls(p$X, Y, alpha = 1, beta = 1), "'y' contains NA")
})

test_that("dimension mismatches and empty input are errors", {
  expect_error(mlls(p$X, p$Y[-1, ], alpha = 1, beta = 1), "'x' has 20 rows but 'y' has 19")
  expect_error(mlls(p$X[0, ], p$Y[0, ], alpha = 1, beta = 1), "'x' has no rows")
  expect_error(mlls(p$X[, 0], p$Y, alpha = 1, beta = 1), "'x' has no columns")
  expect_error(mlls(p$X, p$Y[, 0], alpha = 1, beta = 1), "'y' has no label columns")
})

test_that("non-numeric columns and label values are errors naming the column", {
  df <- data.frame(a = 1:20, b = letters[1:20])
  expect_error(mlls(df, p$Y, alpha = 1, beta = 1), "column 'b' of 'x' is character")
  df$b <- factor(df$b)
  expect_error(mlls(df, p$Y, alpha = 1, beta = 1), "column 'b' of 'x' is factor")
  expect_error(mlls(matrix(letters[1:20], 20), p$Y, alpha = 1, beta = 1),
               "'x' must be a numeric matrix")
  expect_error(mlls(p$X, p$Y * 2, alpha = 1, beta = 1), "found the value 2")
  expect_error(mlls(p$X, data.frame(a = letters[1:20]), alpha = 1, beta = 1),
               "label column 'a'")
})

test_that("penalties, r, intercept and tol are checked", {
  expect_error(mlls(p$X, p$Y, alpha = -1, beta = 1), "'alpha' must be a single number >= 0")
  expect_error(mlls(p$X, p$Y, alpha = 1, beta = NA), "'beta' must be a single number >= 0")
  expect_error(mlls(p$X, p$Y, alpha = c(1, 2), beta = 1), "'alpha' must be a single")
  expect_error(mlls(p$X, p$Y, beta = 1), "'alpha' is missing")
  expect_error(mlls(p$X, p$Y, alpha = Inf, beta = Inf), "cannot both be Inf")
  expect_error(mlls(p$X, p$Y, alpha = 1, beta = 1, r = 0), "'r' must be a whole number >= 1")
  expect_error(mlls(p$X, p$Y, alpha = 1, beta = 1, r = 1.5), "'r' must be a whole number")
  expect_error(mlls(p$X, p$Y, alpha = 1, beta = 1, intercept = NA), "'intercept' must be TRUE or FALSE")
  expect_error(mlls(p$X, p$Y, alpha = 1, beta = 1, tol = 2), "'tol' must be a number in")
  expect_error(mlls(p$X, p$Y, alpha = 1, beta = 1, kernel = "cubic"), "'kernel' must be NULL or one of")
  expect_error(mlls(p$X, p$Y, alpha = 1, beta = 1, foo = 3), "unknown argument")
})

test_that("accepted inputs: integer, logical, data frame, vector label, other Matrix classes", {
  # each gives the fit of the closed form on the same numbers (r = 1 by default)
  ref_U <- function(X, Y) ref_mlls(scale(X, scale = FALSE), scale(Y, scale = FALSE), 1, 1, 1)$U
  Xi <- matrix(as.integer(round(p$X * 10)), 20)
  expect_lt(rel_diff(mlls(Xi, p$Y, alpha = 1, beta = 1)$U, ref_U(Xi, p$Y)), 1e-8)
  Xl <- p$X > 0
  expect_lt(rel_diff(mlls(Xl, p$Y, alpha = 1, beta = 1)$U, ref_U(Xl + 0, p$Y)), 1e-8)
  fit <- mlls(as.data.frame(p$X), p$Y[, 1] > 0, alpha = 1, beta = 1)
  expect_lt(rel_diff(fit$U, ref_U(p$X, p$Y[, 1, drop = FALSE])), 1e-8)
  expect_identical(fit$features, paste0("V", 1:4))
  dense <- mlls(p$X, p$Y, alpha = 1, beta = 0.5)
  for (X in list(Matrix::Matrix(p$X), methods::as(Matrix::Matrix(p$X, sparse = TRUE), "TsparseMatrix")))
    expect_equal(mlls(X, p$Y, alpha = 1, beta = 0.5)$U, dense$U, tolerance = 1e-12)
})

test_that("predict checks its new data", {
  fit <- mlls(p$X, p$Y, alpha = 1, beta = 1)
  expect_error(predict(fit), "'newx' is missing")
  expect_error(predict(fit, p$X[, -1]), "'newx' has 3 columns but the model was fitted on 4")
  X <- p$X; X[1, 1] <- NA
  expect_error(predict(fit, X), "'newx' contains NA")
  expect_error(predict(fit, p$X, type = "class", thresholds = 1:2), "'thresholds' must be one number")
})

test_that("two feature columns of one name are refused, in training and in new data", {
  X <- p$X
  colnames(X) <- c("a", "b", "a", "c")
  Y <- p$Y > 0
  msg <- "'x' has more than one column named 'a': give every column its own name"
  # every method that matches new columns by name goes through the one check
  expect_error(mlls(X, Y, alpha = 1, beta = 1), msg)
  expect_error(mddm(X, Y, k = 1), msg)
  expect_error(ssmddm(X, Y, alpha = 1, beta = 1, k = 1), msg)
  expect_error(br(X, Y), msg)
  expect_error(mlcrf(X, Y, lambda_v = 0.1), msg)
  expect_error(lewl(X, Y, k = 1), msg)
  expect_error(mlls(Matrix::Matrix(X, sparse = TRUE), Y, alpha = 1, beta = 1), msg)
  expect_error(mlls(as.data.frame(X, optional = TRUE), Y, alpha = 1, beta = 1), msg)
  colnames(X) <- c("a", "b", "a", "b")
  expect_error(mlls(X, Y, alpha = 1, beta = 1), "named 'a', 'b'")
  # new data with two columns of one name could be matched either way
  named <- p$X
  colnames(named) <- c("a", "b", "c", "d")
  fit <- mlls(named, Y, alpha = 1, beta = 1)
  newx <- named[, c("a", "b", "c", "c")]
  expect_error(predict(fit, newx), "'newx' has more than one column named 'c'")
  # unique names in another order are still matched by name
  expect_equal(predict(fit, named[, 4:1]), predict(fit, named))
})

test_that("as_labels() keeps, refuses or negates missing labels as asked", {
  y <- matrix(c(1, 0, NA, 1, -1, 1), 3, 2, dimnames = list(NULL, c("a", "b")))
  y[2, 2] <- NA
  y[, 2] <- c(1, NA, 1)
  expect_equal(as_labels(y, 3, na = "keep"),
               matrix(c(TRUE, FALSE, NA, TRUE, NA, TRUE), 3, 2, dimnames = list(NULL, c("a", "b"))))
  expect_equal(as_labels(as.data.frame(y), 3, na = "negative"),
               matrix(c(TRUE, FALSE, FALSE, TRUE, FALSE, TRUE), 3, 2,
                      dimnames = list(NULL, c("a", "b"))))
  expect_error(as_labels(y, 3), "'y' contains NA: 2 missing label\\(s\\)")
  expect_error(as_labels(y, 3, fun = "mlls"), "mlls\\(na_labels = \"negative\"\\)")
  expect_error(as_labels(y, 3, "pred"), "^'pred' contains NA$")
})

test_that("the pair of numeric checkers: bounds, finiteness, whole numbers, one wording", {
  num <- mlss:::check_number
  whole <- mlss:::check_whole
  # each value against the bounds it must meet, by hand
  expect_identical(num(0.5, "a", 0, 1), 0.5)
  expect_identical(num(1L, "a", 0, 1), 1)
  for (bad in list(-0.1, 1.1, NA, NaN, "0.5", c(0.1, 0.2), numeric(0)))
    expect_error(num(bad, "a", 0, 1), "^'a' must be a single number in \\[0, 1\\]$")
  expect_error(num(0, "s", 0, above = TRUE), "^'s' must be a single positive number$")
  expect_identical(num(1e-300, "s", 0, above = TRUE), 1e-300)
  expect_error(num(Inf, "s", 0, above = TRUE), "single positive number")
  expect_identical(num(Inf, "p", 0, finite = FALSE), Inf)
  expect_error(num(0, "q", 0, finite = FALSE, above = TRUE),
               "^'q' must be a single number > 0 \\(Inf allowed\\)$")
  expect_error(num(-1, "p", 0, finite = FALSE), "^'p' must be a single number >= 0 \\(Inf allowed\\)$")
  expect_error(num(Inf, "t", 0), "^'t' must be a single finite number >= 0$")
  expect_identical(num(0, "t", 0), 0)
  expect_error(num(-1, "t", 0, what = "what I say"), "^'t' must be what I say$")
  expect_identical(whole(3, "k"), 3L)
  expect_identical(whole(1e10, "r"), 1e10)   # beyond the integers: as it is
  expect_identical(whole(Inf, "r"), Inf)
  for (bad in list(0, 2.5, NA, -Inf, "3", c(1, 2)))
    expect_error(whole(bad, "k"), "^'k' must be a whole number >= 1$")
  expect_error(whole(6, "k", 1, 5), "^'k' must be a whole number from 1 to 5$")
  expect_identical(whole(5, "k", 1, 5), 5L)
  # the checkers built on them keep their words
  expect_error(mlss:::check_count(2^31, "n"), "^'n' must be a whole number >= 1$")
  expect_identical(mlss:::check_count(2^31 - 1, "n"), .Machine$integer.max)
  expect_error(mlss:::check_max_iter(0), "^'max_iter' must be a whole number >= 1$")
  expect_error(mlss:::check_k(Inf, 10), "'k' = Inf is too large")
  expect_error(mlss:::check_n_chunks(Inf), "'n_chunks' must be the number of chunks")
})
