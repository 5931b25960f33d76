# ml_compare() as the comparison API (issue 27): per-fold numbers against
# ml_metrics() on the same predictions, paired tests against t.test() and
# wilcox.test(), a failing method kept as NA with a warning, cv_*() methods
# tuned inside the folds, splits and repeats, and the same result on future
# workers as sequentially.

compare_data <- function(n = 80, seed = 5) {
  set.seed(seed)
  x <- matrix(rnorm(n * 4), n, 4)
  y <- cbind(a = x[, 1] + rnorm(n) > 0, b = x[, 2] - x[, 1] + rnorm(n) > 0.3,
             c = x[, 3] + rnorm(n) > -0.2)
  list(x = x, y = y)
}

meas <- c("macro_f1", "macro_f1_pr", "micro_f1", "ranking_loss", "ranking_loss_01",
          "macro_auc")

test_that("per-fold values equal ml_metrics() on the fold's predictions", {
  p <- compare_data()
  meth <- list(ridge = ~ mlls(x, y, alpha = 0, beta = 0.1),
               svm = function(x, y) br(x, y, learner = "svm", cost = 1))
  set.seed(11)
  cmp <- ml_compare(p$x, p$y, methods = meth, nfolds = 4, measures = meas, progress = FALSE,
                    absent = "drop")
  expect_named(cmp, c("method", "fold", "measure", "value", "time", "chosen"))
  expect_identical(nrow(cmp), 2L * 4L * length(meas))
  parts <- attr(cmp, "parts")
  set.seed(11)
  f <- ml_folds(p$y, 4)      # the folds are ml_folds()' draws
  for (k in 1:4) {
    expect_identical(parts[[k]], f != k)
    te <- f == k
    fits <- list(ridge = mlls(p$x[!te, ], p$y[!te, ], alpha = 0, beta = 0.1),
                 svm = br(p$x[!te, ], p$y[!te, ], learner = "svm", cost = 1))
    for (me in names(fits)) {
      want <- ml_metrics(p$y[te, ], score = predict(fits[[me]], p$x[te, ], type = "score"),
                         pred = predict(fits[[me]], p$x[te, ], type = "class"),
                         measures = meas, absent = "drop")
      got <- cmp[cmp$method == me & cmp$fold == k, ]
      expect_equal(got$value, unname(unlist(want)), label = paste(me, "fold", k))
    }
  }
  expect_true(all(cmp$time >= 0))
  expect_true(all(is.na(cmp$chosen)))
})

test_that("summary(): means, standard errors, paired t and Wilcoxon tests, marks", {
  p <- compare_data(n = 100, seed = 6)
  meth <- list(ridge = ~ mlls(x, y, alpha = 0, beta = 0.1),
               noise = function(x, y) mlls(x, y[sample(nrow(y)), ], alpha = 0, beta = 0.1),
               svm = ~ br(x, y, learner = "svm", cost = 1))
  set.seed(12)
  cmp <- ml_compare(p$x, p$y, methods = meth, nfolds = 6, progress = FALSE,
                    measures = c("macro_f1", "hamming_loss"))
  for (test in c("t", "wilcoxon")) {
    s <- summary(cmp, reference = "svm", test = test)
    expect_s3_class(s, "summary.ml_comparison")
    for (ms in c("macro_f1", "hamming_loss")) for (me in names(meth)) {
      v <- cmp$value[cmp$method == me & cmp$measure == ms]
      r <- cmp$value[cmp$method == "svm" & cmp$measure == ms]
      row <- s[s$method == me & s$measure == ms, ]
      expect_equal(row$mean, mean(v))
      expect_equal(row$se, sd(v) / sqrt(6))
      if (me == "svm") { expect_true(is.na(row$p_value)); next }
      want <- if (test == "t") t.test(v, r, paired = TRUE)$p.value else
        suppressWarnings(wilcox.test(v, r, paired = TRUE)$p.value)
      expect_equal(row$p_value, want, label = paste(test, me, ms))
      expect_equal(row$diff, mean(v - r))
      higher <- ms == "macro_f1"
      mark <- if (want < 0.05) (if ((mean(v - r) > 0) == higher) "better" else "worse") else ""
      expect_identical(row$mark, mark)
    }
  }
  # the fit to shuffled labels is significantly worse in both: a bullet
  s <- summary(cmp, reference = "ridge")
  expect_identical(s$mark[s$method == "noise"], c("worse", "worse"))
  expect_output(print(s), "\u2022")
  expect_output(print(s), "paired t-test against ridge")
  expect_error(summary(cmp, reference = "nope"), "'reference' must be one of")
})

test_that("a method that fails on one fold: a warning naming it and the fold, the rest kept", {
  p <- compare_data()
  calls <- 0
  meth <- list(ok = ~ mlls(x, y, alpha = 0, beta = 0.1),
               flaky = function(x, y) {
                 calls <<- calls + 1
                 if (calls == 2) stop("no convergence")
                 mlls(x, y, alpha = 1, beta = 0.1)
               })
  set.seed(13)
  expect_warning(cmp <- ml_compare(p$x, p$y, methods = meth, nfolds = 3, progress = FALSE,
                                   measures = c("macro_f1", "micro_f1")),
                 "method 'flaky' failed on fold 2 of 3: no convergence")
  expect_true(all(is.na(cmp$value[cmp$method == "flaky" & cmp$fold == 2])))
  expect_true(all(is.finite(cmp$value[!(cmp$method == "flaky" & cmp$fold == 2)])))
  f <- attr(cmp, "failures")
  expect_identical(f$method, "flaky")
  expect_identical(f$fold, 2L)
  s <- summary(cmp, reference = "ok")
  expect_identical(s$n[s$method == "flaky"], c(2L, 2L))
  expect_output(print(cmp), "Failed \\(NA, left out\\): flaky on fold 2")
  pdf(NULL)
  on.exit(dev.off())
  expect_identical(plot(cmp), cmp)
})

test_that("cv_*() methods are tuned inside each fold and report their choice", {
  p <- compare_data()
  set.seed(14)
  cmp <- suppressMessages(
    ml_compare(p$x, p$y, nfolds = 3, progress = FALSE, measures = "macro_f1",
               methods = list(tuned = ~ cv_mlls(x, y, alpha = c(0, 1), beta = c(0.01, 10),
                                                nfolds = 2))))
  parts <- attr(cmp, "parts")
  for (k in 1:3) {
    ch <- cmp$chosen[cmp$fold == k]
    expect_match(ch, "^alpha=[0-9.e-]+, beta=[0-9.e-]+$")
  }
  # by hand: the inner folds are drawn after set.seed() with the fold's
  # seed, which ml_compare() draws after the outer folds
  set.seed(14)
  f <- ml_folds(p$y, 3)
  seeds <- matrix(sample.int(.Machine$integer.max, 3), 3)
  for (k in 1:3) {
    set.seed(seeds[k, 1])
    cv <- suppressMessages(cv_mlls(p$x[f != k, ], p$y[f != k, ], alpha = c(0, 1),
                                   beta = c(0.01, 10), nfolds = 2))
    expect_identical(cmp$chosen[cmp$fold == k],
                     sprintf("alpha=%s, beta=%s", format(cv$alpha_best), format(cv$beta_best)))
    expect_equal(cmp$value[cmp$fold == k],
                 ml_metrics(p$y[f == k, ], pred = predict(cv, p$x[f == k, ], type = "class"),
                            measures = "macro_f1")$macro_f1)
    # the inner folds of fold k are those of its seed
    set.seed(seeds[k, 1])
    expect_identical(cv$foldid, ml_folds(p$y[f != k, ], 2))
  }
})

test_that("splits and repeats; the user's random stream moves as without methods", {
  p <- compare_data()
  meth <- list(ridge = ~ mlls(x, y, alpha = 0, beta = 0.1))
  tr1 <- 1:50
  tr2 <- seq(2, 80, by = 2)
  cmp <- ml_compare(p$x, p$y, methods = meth, splits = list(tr1, seq_len(80) %in% tr2),
                    measures = "micro_f1", progress = FALSE)
  fit <- mlls(p$x[tr2, ], p$y[tr2, ], alpha = 0, beta = 0.1)
  expect_equal(cmp$value[cmp$fold == 2],
               ml_metrics(p$y[-tr2, ], pred = predict(fit, p$x[-tr2, ], type = "class"),
                          measures = "micro_f1")$micro_f1)
  set.seed(15)
  rep2 <- ml_compare(p$x, p$y, methods = meth, nfolds = 3, repeats = 2, measures = "micro_f1",
                     progress = FALSE)
  expect_identical(sort(unique(rep2$fold)), 1:6)
  expect_false(identical(attr(rep2, "parts")[1:3], attr(rep2, "parts")[4:6]))
  expect_error(ml_compare(p$x, p$y, methods = meth, splits = list(1:80)), "both to train")
  expect_error(ml_compare(p$x, p$y, methods = meth, foldid = rep(1:2, 40), repeats = 2),
               "'repeats'")
  expect_error(ml_compare(p$x, p$y, methods = list(a = 1)), "'methods' must be a named list")
})

test_that("the same result on future multisession workers as sequentially", {
  skip_if_not_installed("future.apply")
  skip_if_not_installed("future")
  p <- compare_data()
  meth <- list(tuned = ~ cv_mlls(x, y, alpha = c(0, 1), beta = c(0.01, 1), nfolds = 2),
               svm = ~ br(x, y, learner = "svm", cost = 1))
  set.seed(16)
  seq_res <- suppressMessages(ml_compare(p$x, p$y, methods = meth, nfolds = 3, progress = FALSE))
  after_seq <- runif(1)
  old <- future::plan(future::multisession, workers = 2)
  on.exit(future::plan(old), add = TRUE)
  set.seed(16)
  par_res <- suppressMessages(ml_compare(p$x, p$y, methods = meth, nfolds = 3, progress = FALSE))
  after_par <- runif(1)
  expect_equal(par_res$value, seq_res$value)
  expect_identical(par_res$chosen, seq_res$chosen)
  expect_identical(after_par, after_seq)
})

test_that("each method runs on each fold from its own seed, drawn after the folds", {
  p <- compare_data()
  draw <- function(x, y) stop(format(runif(1), digits = 15))
  ok <- ~ mlls(x, y, alpha = 0, beta = 0.1)
  set.seed(17)
  cmp <- suppressWarnings(ml_compare(p$x, p$y, nfolds = 3, progress = FALSE, measures = "macro_f1",
                                     methods = list(a = draw, b = draw, ok = ok)))
  f <- attr(cmp, "failures")
  set.seed(17)
  invisible(ml_folds(p$y, 3))
  seeds <- matrix(sample.int(.Machine$integer.max, 9), 3)
  want <- vapply(seq_len(nrow(f)), function(i) {
    set.seed(seeds[f$fold[i], match(f$method[i], c("a", "b", "ok"))])
    format(runif(1), digits = 15)
  }, "")
  expect_identical(nrow(f), 6L)
  expect_identical(f$message, want)
  # one method that always fails beside a working one: kept as NA; alone: an error
  expect_warning(two <- ml_compare(p$x, p$y, nfolds = 3, progress = FALSE, measures = "macro_f1",
                                   methods = list(a = draw, ok = ok)),
                 "method 'a' failed on fold 1 of 3: .* \\(and on fold\\(s\\) 2, 3\\)")
  expect_true(all(is.na(two$value[two$method == "a"])))
  expect_error(ml_compare(p$x, p$y, nfolds = 3, progress = FALSE, methods = list(a = draw)),
               "every method failed on every fold; method 'a' failed on fold 1 of 3")
})
