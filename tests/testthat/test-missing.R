# Missing labels (NA in y): the measures, thresholds, folds and engine use the
# observed entries only; mask_labels() hides exactly the share asked.

test_that("every measure scores the observed entries only, as computed by hand", {
  for (seed in 1:3) {
    d <- missing_problem(seed = seed)
    d$Y[1, ] <- NA          # an instance with no observed label: left out
    d$Y[, 2] <- NA          # a label never observed: left out
    m <- suppressWarnings(ml_metrics(d$Y, score = d$S, pred = d$P))
    expect_equal(m$macro_f1, ref_macro_f1(d$Y, d$P))
    expect_equal(m$micro_f1, ref_micro_f1(d$Y, d$P))
    expect_equal(m$hamming_loss, ref_hamming(d$Y, d$P))
    for (w in c("subset_accuracy", "example_f1", "example_accuracy", "example_precision",
                "example_recall"))
      expect_equal(m[[w]], ref_example(d$Y, d$P, w), info = w)
    for (w in c("ranking_loss", "average_precision", "coverage", "one_error"))
      expect_equal(m[[w]], ref_ranking(d$Y, d$S, w), info = w)
    expect_equal(m$macro_auc, ref_macro_auc(d$Y, d$S))
    expect_equal(m$micro_auc, ref_micro_auc(d$Y, d$S))
  }
})

test_that("the references agree with ml_metrics() on a fully observed y", {
  d <- missing_problem(na_rate = 0, seed = 4)
  m <- ml_metrics(d$Y, score = d$S, pred = d$P)
  expect_equal(m$macro_f1, ref_macro_f1(d$Y, d$P))
  expect_equal(m$example_f1, ref_example(d$Y, d$P, "example_f1"))
  expect_equal(m$average_precision, ref_ranking(d$Y, d$S, "average_precision"))
  expect_equal(m$coverage, ref_ranking(d$Y, d$S, "coverage"))
})

test_that("macro F1 with NA is the mean of each label's F1 on its observed rows", {
  d <- missing_problem(seed = 7)
  per_label <- vapply(1:5, function(l) {
    o <- !is.na(d$Y[, l])
    ml_metrics(d$Y[o, l, drop = FALSE], pred = d$P[o, l, drop = FALSE])$macro_f1
  }, 0)
  expect_equal(ml_metrics(d$Y, pred = d$P)$macro_f1, mean(per_label))
})

test_that("a missing label is not read as a positive (NA_LOGICAL in C)", {
  y <- rbind(c(NA, FALSE), c(TRUE, FALSE))
  # were the NA read as TRUE, label 1 would have a false negative
  expect_equal(ml_metrics(y, pred = rbind(c(FALSE, FALSE), c(TRUE, FALSE)))$macro_f1, 1)
  expect_equal(ml_metrics(y, pred = rbind(c(TRUE, TRUE), c(TRUE, FALSE)))$hamming_loss, 1 / 3)
})

test_that("log_loss and measures with nothing observed say so", {
  y <- rbind(c(NA, TRUE), c(FALSE, TRUE))
  expect_warning(m <- ml_metrics(y, prob = c(0.5, 0.5)), "log_loss")
  expect_true(is.na(m$log_loss))
  expect_warning(m <- ml_metrics(matrix(NA, 2, 2), pred = matrix(TRUE, 2, 2)), "NaN")
  expect_true(is.nan(m$macro_f1))
  expect_error(ml_metrics(y, pred = rbind(c(NA, TRUE), c(FALSE, TRUE))), "'pred' contains NA")
})

test_that("f1_thresholds() chooses each cut on the observed rows only", {
  d <- missing_problem(n = 60, seed = 2)
  res <- f1_thresholds(d$S, d$Y)
  for (l in 1:5) {
    o <- !is.na(d$Y[, l])
    ref <- f1_thresholds(d$S[o, l], d$Y[o, l])
    expect_equal(res$threshold[[l]], ref$threshold[[1]])
    expect_equal(res$f1[[l]], ref$f1[[1]])
  }
})

test_that("ml_folds() stratifies on the observed positives", {
  d <- missing_problem(n = 60, seed = 3)
  neg <- d$Y
  neg[is.na(neg)] <- FALSE
  set.seed(5); f1 <- ml_folds(d$Y, 4)
  set.seed(5); f2 <- ml_folds(neg, 4)
  expect_identical(f1, f2)
  expect_true(all(table(f1) %in% 15))
})

test_that("ml_cv() passes NA to fit only when asked, and scores observed entries", {
  d <- missing_problem(n = 60, m = 3, na_rate = 0.25, seed = 8)
  set.seed(1)
  x <- cbind(d$S[, 1:2], rnorm(60))
  seen <- NULL
  # a model whose scores are x %*% w, w depending on the grid point
  fit <- function(x, y, w) {
    seen <<- c(seen, anyNA(y))
    structure(list(w = w), class = "toy")
  }
  pred <- function(object, newx) newx %*% matrix(object$w * (1:3), 3, 3)
  foldid <- rep(1:3, 20)
  expect_error(ml_cv(x, d$Y, fit, list(w = 1), predict = pred, foldid = foldid,
                     progress = FALSE), "ml_cv\\(na_labels = \"negative\"\\)")
  cv <- ml_cv(x, d$Y, fit, list(w = c(1, -1)), predict = pred, foldid = foldid,
              progress = FALSE, na_labels = "keep")
  expect_true(all(seen))
  # by hand: thresholds on the other folds' observed rows, macro F1 on the fold's
  for (g in 1:2) {
    s <- pred(list(w = c(1, -1)[g]), x)
    for (k in 1:3) {
      tr <- foldid != k
      thr <- f1_thresholds(s[tr, ], d$Y[tr, ])$threshold
      p <- sweep(s[!tr, ], 2, thr, ">")
      expect_equal(cv$cvfold[g, k], ml_metrics(d$Y[!tr, ], pred = p)$macro_f1)
    }
  }
  seen <- NULL
  cv2 <- ml_cv(x, d$Y, fit, list(w = c(1, -1)), predict = pred, foldid = foldid,
               progress = FALSE, na_labels = "negative")
  expect_false(any(seen))
  expect_equal(cv2$cvfold, cv$cvfold)   # the truth scored is the same
  cv3 <- ml_cv(x, d$Y, fit, list(w = c(1, -1)), predict = pred, foldid = foldid,
               progress = FALSE, na_labels = "keep", thresholds = "train")
  s <- pred(list(w = 1), x)
  thr <- f1_thresholds(s[foldid != 1, ], d$Y[foldid != 1, ])$threshold
  expect_equal(cv3$cvfold[1, 1],
               ml_metrics(d$Y[foldid == 1, ], pred = sweep(s[foldid == 1, ], 2, thr, ">"))$macro_f1)
})

test_that("mask_labels() hides exactly the share asked, of observed entries only", {
  d <- missing_problem(n = 50, m = 6, na_rate = 0.1, seed = 9)
  obs <- !is.na(d$Y)
  for (rate in c(0, 0.3, 0.7, 1)) {
    e <- mask_labels(d$Y, rate, seed = 1)
    expect_equal(sum(e$mask), floor(rate * sum(obs) + 0.5))
    expect_true(all(obs[e$mask]))                      # never an NA already there
    expect_identical(is.na(e$y), e$mask | !obs)
    expect_identical(e$y[!is.na(e$y)], d$Y[!is.na(e$y)])  # the rest unchanged
    l <- mask_labels(d$Y, rate, by = "label", seed = 1)
    expect_equal(colSums(l$mask), floor(rate * colSums(obs) + 0.5), ignore_attr = TRUE)
    expect_true(all(obs[l$mask]))
    i <- mask_labels(d$Y, rate, by = "instance", seed = 1)
    expect_equal(rowSums(i$mask), floor(rate * rowSums(obs) + 0.5))
    expect_true(all(obs[i$mask]))
  }
  # 0.5 of 5 observed entries: 2.5 rounds up to 3
  expect_equal(sum(mask_labels(matrix(c(TRUE, FALSE, TRUE, FALSE, TRUE, NA), 2), 0.5)$mask), 3)
  expect_identical(colnames(mask_labels(d$Y, 0.3)$y), colnames(d$Y))
})

test_that("mask_labels() is reproducible with a seed and leaves the user's RNG alone", {
  y <- missing_problem(na_rate = 0, seed = 10)$Y
  set.seed(123)
  before <- .Random.seed
  a <- mask_labels(y, 0.4, seed = 42)
  expect_identical(.Random.seed, before)
  expect_identical(mask_labels(y, 0.4, seed = 42), a)
  expect_false(identical(mask_labels(y, 0.4, seed = 43)$mask, a$mask))
  expect_identical(mask_labels(y, 0.4, by = "label", seed = 42),
                   mask_labels(y, 0.4, by = "label", seed = 42))
  # without a seed: drawn from (and advancing) R's stream
  set.seed(7); b1 <- mask_labels(y, 0.4)
  set.seed(7); b2 <- mask_labels(y, 0.4)
  expect_identical(b1, b2)
  expect_error(mask_labels(y, 1.5), "'rate'")
  expect_error(mask_labels(y, 0.5, by = "cell"), "should be one of")
})
