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

# ---- the papers' variants (issue 27), against plain-R loops ----

ref_counts <- function(y, pred, l) {
  o <- !is.na(y[, l])
  c(tp = sum(y[o, l] & pred[o, l]), fp = sum(!y[o, l] & pred[o, l]),
    fn = sum(y[o, l] & !pred[o, l]), n = sum(o))
}

test_that("macro_f1_pr: F1 of the macro precision (predicted labels) and recall", {
  set.seed(27)
  for (rep in 1:5) {
    y <- matrix(runif(40 * 6) < 0.3, 40, 6)
    pred <- matrix(runif(40 * 6) < 0.3, 40, 6)
    pred[, 2] <- FALSE            # never predicted: no precision, recall 0
    y[, 3] <- FALSE               # predicted without positives: no recall
    if (rep == 5) y[sample(240, 30)] <- NA
    ps <- rs <- c()
    for (l in 1:6) {
      k <- ref_counts(y, pred, l)
      if (k[["n"]] == 0) next
      if (k[["tp"]] + k[["fp"]] > 0) ps <- c(ps, k[["tp"]] / (k[["tp"]] + k[["fp"]]))
      if (k[["tp"]] + k[["fn"]] > 0) rs <- c(rs, k[["tp"]] / (k[["tp"]] + k[["fn"]]))
    }
    want <- 2 * mean(ps) * mean(rs) / (mean(ps) + mean(rs))
    expect_equal(ml_metrics(y, pred = pred, measures = "macro_f1_pr")$macro_f1_pr, want)
  }
  # nothing predicted: NaN; the variants are not in the default set
  expect_true(is.nan(ml_metrics(matrix(TRUE, 40, 2), pred = matrix(FALSE, 40, 2),
                                measures = "macro_f1_pr")$macro_f1_pr))
  expect_false(any(c("macro_f1_pr", "ranking_loss_01") %in%
                     names(ml_metrics(y & TRUE, pred = pred))))
})

test_that("absent = one / zero / drop: a label with no positive and no prediction", {
  set.seed(28)
  for (rep in 1:4) {
    y <- matrix(runif(30 * 5) < 0.3, 30, 5)
    pred <- matrix(runif(30 * 5) < 0.3, 30, 5)
    y[, 2] <- FALSE; pred[, 2] <- FALSE        # absent and never predicted
    y[, 4] <- FALSE                            # absent but predicted: F1 0 always
    if (rep == 4) { y[sample(150, 20)] <- NA; y[, 5] <- NA }  # label 5 unobserved
    f <- vapply(1:5, function(l) {
      k <- ref_counts(y, pred, l)
      if (k[["n"]] == 0) return(NA_real_)
      den <- 2 * k[["tp"]] + k[["fp"]] + k[["fn"]]
      if (den == 0) Inf else 2 * k[["tp"]] / den
    }, 0)
    f <- f[!is.na(f)]
    want <- c(one = mean(replace(f, is.infinite(f), 1)),
              zero = mean(replace(f, is.infinite(f), 0)),
              drop = mean(f[is.finite(f)]))
    for (a in names(want))
      expect_equal(suppressWarnings(ml_metrics(y, pred = pred, measures = "macro_f1",
                                               absent = a)$macro_f1), want[[a]],
                   label = paste("absent =", a))
  }
  expect_error(ml_metrics(y, pred = pred, absent = "half"), "'arg' should be one of|absent")
})

test_that("ranking_loss_01 counts ties of 0/1 outputs as errors (the LEWL paper's)", {
  set.seed(29)
  for (rep in 1:5) {
    y <- matrix(runif(25 * 5) < 0.4, 25, 5)
    pred <- matrix(runif(25 * 5) < 0.4, 25, 5)
    y[1, ] <- TRUE; y[2, ] <- FALSE           # no irrelevant / no relevant label
    if (rep == 5) { y[sample(125, 20)] <- NA; y[3, ] <- NA }
    loss <- c()
    for (i in 1:25) {
      o <- which(!is.na(y[i, ]))
      if (!length(o)) next
      pos <- o[y[i, o]]
      neg <- o[!y[i, o]]
      if (!length(pos) || !length(neg)) { loss <- c(loss, 0); next }
      wrong <- 0
      for (a in pos) for (b in neg) if (pred[i, a] <= pred[i, b]) wrong <- wrong + 1
      loss <- c(loss, wrong / (length(pos) * length(neg)))
    }
    expect_equal(ml_metrics(y, pred = pred, measures = "ranking_loss_01")$ranking_loss_01,
                 mean(loss))
  }
  # on 0/1 outputs it is at least the (tie-breaking) ranking loss of the same outputs
  y <- matrix(runif(25 * 5) < 0.4, 25, 5)
  pred <- matrix(runif(25 * 5) < 0.4, 25, 5)
  m <- ml_metrics(y, score = pred * 1, pred = pred, measures = c("ranking_loss", "ranking_loss_01"))
  expect_gte(m$ranking_loss_01, m$ranking_loss)
})

test_that("measure_names() marks the variants as measures of cross-validation too", {
  # (until issue 22 they were refused by the cv_*(); test-cv-measures.R checks
  # the folds' values)
  mn <- measure_names()
  expect_true(all(c("macro_f1_pr", "ranking_loss_01") %in% mn$name))
  expect_true(all(mn$cv[mn$name %in% c("macro_f1_pr", "ranking_loss_01")]))
  set.seed(3)
  cv <- suppressWarnings(cv_br(matrix(rnorm(60), 20), matrix(runif(40) < 0.5, 20),
                               measure = "macro_f1_pr", nfolds = 2))
  expect_identical(cv$measure, "macro_f1_pr")
})
