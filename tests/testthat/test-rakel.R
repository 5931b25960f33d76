# RAkEL against an explicit plain-R enumeration: for each drawn subset, the
# label powerset of helper-label-powerset.R, its votes averaged by label.

rakel_problem <- function(seed = 1, n = 70)
  labelset_problem(seed, n, m = 5, sd = 0.8, n_new = 12)

rakel_reference <- function(pr, subsets, vote = "class", threshold = 0.5) {
  L <- ncol(pr$y)
  sum_votes <- matrix(0, nrow(pr$newx), L)
  used <- numeric(L)
  for (s in subsets) {
    r <- lp_reference(pr$x, pr$y[, s, drop = FALSE], pr$newx)
    v <- if (vote == "class") r$class + 0 else r$score
    for (j in seq_along(s)) {
      sum_votes[, s[j]] <- sum_votes[, s[j]] + v[, j]
      used[s[j]] <- used[s[j]] + 1
    }
  }
  score <- sum_votes
  for (l in seq_len(L)) score[, l] <- if (used[l] > 0) sum_votes[, l] / used[l] else 0
  list(score = score, class = score > threshold)
}

test_that("RAkELo averages the votes of label powersets on distinct random subsets", {
  pr <- rakel_problem()
  set.seed(11)
  fit <- rakel(pr$x, pr$y, k = 3, m = 7)
  expect_length(fit$subsets, 7)
  keys <- vapply(fit$subsets, paste, "", collapse = ",")
  expect_false(anyDuplicated(keys) > 0)
  expect_true(all(vapply(fit$subsets, function(s) length(s) == 3 && !is.unsorted(s) &&
                                        all(s %in% 1:5), NA)))
  ref <- rakel_reference(pr, fit$subsets)
  sc <- predict(fit, pr$newx, type = "score")
  expect_equal(unname(sc), ref$score, tolerance = 1e-12)
  expect_identical(unname(predict(fit, pr$newx)), ref$class)
  expect_identical(colnames(sc), colnames(pr$y))
  # the marginal votes
  set.seed(11)
  fs <- rakel(pr$x, pr$y, k = 3, m = 7, vote = "score")
  expect_identical(fs$subsets, fit$subsets)                  # set.seed reproduces the draw
  expect_equal(unname(predict(fs, pr$newx, type = "score")),
               rakel_reference(pr, fs$subsets, vote = "score")$score, tolerance = 1e-12)
  # the default m = 2 L, capped at choose(L, k); every 4-subset of 5 labels
  all4 <- rakel(pr$x, pr$y, k = 4)
  expect_length(all4$subsets, 5)
  expect_error(rakel(pr$x, pr$y, k = 2, m = 11), "'m' must be one whole number in 1..10")
  expect_error(rakel(pr$x, pr$y, k = 6), "'k' must be")
})

test_that("RAkELd partitions the labels; a label in no subset scores 0", {
  pr <- rakel_problem(2)
  set.seed(5)
  fit <- rakel(pr$x, pr$y, k = 2, mode = "disjoint")
  expect_identical(sort(unlist(fit$subsets)), 1:5)
  expect_identical(lengths(fit$subsets), c(2L, 2L, 1L))
  ref <- rakel_reference(pr, fit$subsets)
  expect_equal(unname(predict(fit, pr$newx, type = "score")), ref$score, tolerance = 1e-12)
  expect_identical(unname(predict(fit, pr$newx)), ref$class)
  set.seed(3)
  one <- rakel(pr$x, pr$y, k = 2, m = 1)
  out <- setdiff(1:5, one$subsets[[1]])
  expect_true(all(predict(one, pr$newx, type = "score")[, out] == 0))
  expect_output(print(fit), "RAkELd")
})

test_that("RAkEL's threshold is strict and goes through the formula interface", {
  pr <- rakel_problem(3)
  set.seed(9)
  fit <- rakel(pr$x, pr$y, k = 2, m = 4)
  sc <- predict(fit, pr$newx, type = "score")
  expect_true(any(sc == 0.5))                                 # a tied vote
  expect_identical(unname(predict(fit, pr$newx)), unname(sc > 0.5))
  expect_identical(unname(predict(fit, pr$newx, thresholds = 0.2)), unname(sc > 0.2))
  df <- data.frame(pr$x, pr$y)
  set.seed(9)
  ff <- rakel(cbind(l1, l2, l3, l4, l5) ~ ., data = df, k = 2, m = 4)
  expect_equal(predict(ff, data.frame(pr$newx), type = "score"), sc, ignore_attr = TRUE)
})

test_that("cv_rakel draws the subsets once and cross-validates the cost on the engine", {
  pr <- rakel_problem(4, n = 60)
  foldid <- rep_len(1:3, 60)
  set.seed(21)
  cv <- cv_rakel(pr$x, pr$y, cost = c(0.1, 1), k = 2, m = 4, foldid = foldid,
                 progress = FALSE)
  set.seed(21)
  drawn <- mlss:::rakel_overlapping(5, 2, 4)
  expect_identical(cv$fit$subsets, drawn)
  ref <- ml_cv(pr$x, pr$y, fit = function(x, y, cost) rakel(x, y, k = 2, cost = cost,
                                                              subsets = drawn),
               grid = list(cost = c(0.1, 1)), foldid = foldid, progress = FALSE)
  expect_equal(cv$cvm, ref$cvm)
  expect_s3_class(cv, "cv_rakel")
  expect_error(rakel(pr$x, pr$y, subsets = list(c(1, 9))), "'subsets' must be")
})

test_that("RAkEL is an ml_fit whose cut is its threshold, replaced by stored thresholds", {
  pr <- rakel_problem(6)
  set.seed(7)
  fit <- rakel(pr$x, pr$y, k = 2, m = 4, threshold = 0.3)
  expect_s3_class(fit, c("rakel", "ml_fit"))
  expect_null(fit$thresholds)
  expect_equal(unname(fit$cut), rep(0.3, 5))
  sc <- predict(fit, pr$newx, type = "score")
  expect_identical(unname(predict(fit, pr$newx)), unname(sc > 0.3))
  # thresholds stored in the fit (as ml_cv() stores out-of-fold ones) replace the cut
  thr <- stats::setNames(c(0.1, 0.2, 0.6, 0.8, 0.4), colnames(pr$y))
  st <- fit
  st$thresholds <- thr
  expect_identical(unname(predict(st, pr$newx)), unname(sc > rep(thr, each = nrow(sc))))
  expect_output(print(st), "stored thresholds")
  # the pipeline's na.action: a row with NA predicted NA in its place
  holed <- pr$newx
  holed[2, 1] <- NA
  pe <- predict(fit, holed, type = "score", na.action = na.exclude)
  expect_true(all(is.na(pe[2, ])))
  expect_equal(pe[-2, ], sc[-2, ], ignore_attr = TRUE)
})

test_that("cv_rakel's refit carries the out-of-fold thresholds its measure used", {
  pr <- rakel_problem(4, n = 60)
  foldid <- rep_len(1:3, 60)
  set.seed(21)
  cv <- suppressMessages(cv_rakel(pr$x, pr$y, cost = 1, k = 2, m = 4, foldid = foldid,
                                  progress = FALSE))
  expect_false(is.null(cv$fit$thresholds))
  expect_identical(cv$scored_by, "thresholds")
  sc <- predict(cv$fit, pr$newx, type = "score")
  expect_identical(predict(cv$fit, pr$newx),
                   sc > rep(cv$fit$thresholds, each = nrow(sc)))
})
