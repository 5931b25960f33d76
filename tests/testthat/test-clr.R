# CLR against a plain-R reading of Fuernkranz et al. (2008): one logistic
# regression per pair of labels on the rows where exactly one of them is
# relevant, one per label against the virtual label on all rows, votes
# counted by explicit enumeration of the pairs.

clr_reference <- function(x, y, newx, vote = "class", learner = "logistic") {
  m <- ncol(y)
  cut <- if (learner == "logistic") 0.5 else 0
  v <- matrix(0, nrow(newx), m)
  for (i in 1:(m - 1)) for (j in (i + 1):m) {
    rows <- y[, i] != y[, j]
    if (!any(rows)) {
      v[, c(i, j)] <- v[, c(i, j)] + 0.5
      next
    }
    f <- suppressWarnings(br(x[rows, , drop = FALSE], y[rows, i, drop = FALSE],
                             learner = learner))
    s <- predict(f, newx, type = "score")[, 1]
    w <- if (vote == "class") s > cut else s
    v[, i] <- v[, i] + w
    v[, j] <- v[, j] + (1 - w)
  }
  vV <- numeric(nrow(newx))
  for (l in 1:m) {
    s <- predict(br(x, y[, l, drop = FALSE], learner = learner), newx, type = "score")[, 1]
    w <- if (vote == "class") s > cut else s
    v[, l] <- v[, l] + w
    vV <- vV + (1 - w)
  }
  list(votes = v, virtual = vV, class = v > vV)
}

test_that("CLR's votes equal an explicit enumeration of the pairs", {
  pr <- labelset_problem(5, n = 60, m = 4)
  fit <- clr(pr$x, pr$y)
  ref <- clr_reference(pr$x, pr$y, pr$newx)
  m <- 4
  sc <- predict(fit, pr$newx, type = "score")
  expect_equal(unname(sc), (1 + (ref$votes - ref$virtual) / m) / 2, tolerance = 1e-12)
  expect_identical(unname(predict(fit, pr$newx)), ref$class)
  expect_true(any(ref$class) && !all(ref$class))
  expect_identical(nrow(fit$pairs), 6L)
  # soft votes
  fs <- clr(pr$x, pr$y, vote = "score")
  rs <- clr_reference(pr$x, pr$y, pr$newx, vote = "score")
  expect_equal(unname(predict(fs, pr$newx, type = "score")),
               (1 + (rs$votes - rs$virtual) / m) / 2, tolerance = 1e-8)
  # the ridge learner votes at 0
  fr <- clr(pr$x, pr$y, learner = "ridge")
  rr <- clr_reference(pr$x, pr$y, pr$newx, learner = "ridge")
  expect_identical(unname(predict(fr, pr$newx)), rr$class)
  expect_error(clr(pr$x, pr$y, learner = "ridge", vote = "score"), "logistic")
  expect_output(print(fit), "6 pairwise models")
})

test_that("CLR: a pair never apart gives half a vote each; one direction only is constant", {
  pr <- labelset_problem(6, n = 50, m = 3)
  y <- cbind(pr$y, copy = pr$y[, 1])            # l1 and copy never apart
  y[1:3, 2] <- TRUE
  y[1:3, 3] <- FALSE                              # l2 > l3 on some rows
  fit <- expect_silent(clr(pr$x, y))
  expect_false(fit$apart[3])                      # the pair (l1, copy)
  ref <- clr_reference(pr$x, y, pr$newx)
  expect_equal(unname(predict(fit, pr$newx, type = "score")),
               (1 + (ref$votes - ref$virtual) / 4) / 2, tolerance = 1e-12)
})

test_that("cv_clr cross-validates the cost and stores out-of-fold thresholds", {
  pr <- labelset_problem(7, n = 60, m = 3)
  cv <- suppressMessages(cv_clr(pr$x, pr$y, cost = c(0.1, 1), foldid = rep_len(1:3, 60)))
  expect_s3_class(cv, "cv_clr")
  expect_identical(cv$fit$threshold_source, "oof")
  expect_identical(predict(cv, pr$newx), predict(cv$fit, pr$newx))
})
