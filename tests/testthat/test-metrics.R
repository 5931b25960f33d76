# Every measure on small examples computed by hand (see the comments), and
# the AUC against a brute-force count of pairs.

y <- rbind(c(1, 0, 1), c(0, 1, 0), c(1, 1, 0), c(0, 0, 0), c(0, 0, 0)) == 1
pred <- rbind(c(1, 0, 0), c(0, 1, 1), c(1, 0, 0), c(0, 0, 1), c(0, 0, 0)) == 1
score <- rbind(c(0.9, 0.1, 0.5), c(0.2, 0.3, 0.8), c(0.6, 0.6, 0.1),
               c(0.3, 0.2, 0.4), c(0.5, 0.5, 0.5))

test_that("measures of label sets match the hand computation", {
  m <- ml_metrics(y, pred = pred)
  # per label (tp, fp, fn): (2, 0, 0) F1 1; (1, 0, 1) F1 2/3; (0, 2, 1) F1 0
  expect_equal(m$macro_f1, (1 + 2 / 3 + 0) / 3)
  expect_equal(m$micro_f1, 2 * 3 / (2 * 3 + 2 + 2))
  expect_equal(m$hamming_loss, 4 / 15)
  expect_equal(m$subset_accuracy, 1 / 5)   # only the empty, empty row
  # per instance F1: 2/3, 2/3, 2/3, 0 (nothing relevant, one predicted), 1 (both empty)
  expect_equal(m$example_f1, (3 * 2 / 3 + 0 + 1) / 5)
  expect_equal(m$example_accuracy, (1 / 2 + 1 / 2 + 1 / 2 + 0 + 1) / 5)
  expect_equal(m$example_precision, (1 + 1 / 2 + 1 + 0 + 1) / 5)
  expect_equal(m$example_recall, (1 / 2 + 1 + 1 / 2 + 0 + 1) / 5)
  expect_named(m, c("macro_f1", "micro_f1", "hamming_loss", "subset_accuracy", "example_f1",
                    "example_accuracy", "example_precision", "example_recall"))
  # nothing predicted for an instance with a relevant label: precision 0 (not
  # the 1 of two empty sets), recall 0; nothing relevant but one predicted: recall 0
  e <- ml_metrics(rbind(c(TRUE, FALSE), c(FALSE, FALSE)), pred = rbind(c(FALSE, FALSE), c(TRUE, FALSE)),
                  measures = c("example_precision", "example_recall", "example_f1"))
  expect_equal(e, list(example_precision = 0, example_recall = 0, example_f1 = 0))
})

test_that("measures of rankings match the hand computation, with Mulan's tie rule", {
  m <- ml_metrics(y, score = score)
  # row 2: the relevant label 2 is ranked below label 3; rows 4-5 have no label
  expect_equal(m$ranking_loss, (0 + 1 / 2 + 0 + 0 + 0) / 5)
  expect_equal(m$average_precision, (1 + 1 / 2 + 1) / 3)  # rows 4, 5 skipped
  expect_equal(m$coverage, (1 + 1 + 1 + 0 + 0) / 5)
  expect_equal(m$one_error, (0 + 1 + 0 + 1 + 1) / 5)
  # a tie: the later label ranks first
  tie <- ml_metrics(matrix(c(TRUE, FALSE), 1), score = matrix(c(0.5, 0.5), 1))
  expect_equal(tie$one_error, 1)
  expect_equal(tie$ranking_loss, 1)
  expect_equal(tie$coverage, 1)
})

test_that("AUC is the Mann-Whitney statistic, ties counting one half", {
  brute <- function(s, yy) {
    pos <- s[yy]; neg <- s[!yy]
    mean(outer(pos, neg, ">") + 0.5 * outer(pos, neg, "=="))
  }
  m <- ml_metrics(y, score = score, measures = c("macro_auc", "micro_auc"))
  per_label <- vapply(1:3, function(l) brute(score[, l], y[, l]), 0)
  expect_equal(per_label, c(1, 5 / 6, 0.625))
  expect_equal(m$macro_auc, mean(per_label))
  expect_equal(m$micro_auc, brute(as.vector(score), as.vector(y)))
  set.seed(61)
  s <- matrix(round(runif(200), 1), 50)
  yy <- matrix(runif(200) < 0.3, 50)
  yy[, 4] <- FALSE  # no positive: left out of the macro average
  m <- ml_metrics(yy, score = s, measures = "macro_auc")
  expect_equal(m$macro_auc, mean(vapply(1:3, function(l) brute(s[, l], yy[, l]), 0)))
})

test_that("edge cases follow the documented conventions", {
  none <- matrix(FALSE, 3, 2)
  expect_equal(ml_metrics(none, pred = none)$macro_f1, 1)
  expect_equal(ml_metrics(none, pred = !none)$macro_f1, 0)
  expect_true(is.nan(ml_metrics(none, score = matrix(1:6 / 6, 3), measures = "macro_auc")$macro_auc))
  expect_true(is.nan(ml_metrics(none, score = matrix(1:6 / 6, 3),
                                measures = "average_precision")$average_precision))
})

test_that("log_loss is the mean negative log-probability of the true label vectors", {
  expect_equal(ml_metrics(y, prob = c(0.5, 0.25, 1, 0.5, 0.1))$log_loss,
               -mean(log(c(0.5, 0.25, 1, 0.5, 0.1))))
})

test_that("inputs are checked and only computable measures are returned", {
  expect_named(ml_metrics(y, score = score, pred = pred))
  expect_length(ml_metrics(y, score = score, pred = pred), 14)
  expect_error(ml_metrics(y, pred = pred, measures = "macro_auc"), "needs 'score'")
  expect_error(ml_metrics(y, pred = pred, measures = "f2"), "unknown measure 'f2'")
  expect_error(ml_metrics(y), "give 'score', 'pred' or 'prob'")
  expect_error(ml_metrics(y, score = score[, 1:2]), "'score' must be 5 x 3")
  expect_error(ml_metrics(y, pred = pred[, 1:2]), "'pred' must have 3 columns")
  expect_error(ml_metrics(y, prob = c(0.5, 2, 1, 1, 1)), "'prob' must hold")
  expect_identical(measure_names()$name[1:2], c("macro_f1", "micro_f1"))
})
