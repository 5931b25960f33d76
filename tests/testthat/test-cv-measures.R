# Every measure ml_metrics() names is a measure of the cross-validation
# engine (R/cv_engine.R, cv_options() and point_measures()): the variants
# computed in R (macro_f1_pr, ranking_loss_01) fold by fold on the scores
# cut at the out-of-fold thresholds, with their direction.  References:
# plain-R transcriptions of the definitions (?ml_metrics, section Variants).

# F1 of the macro precision (over labels predicted at least once) and the
# macro recall (over labels with a positive).
ref_macro_f1_pr <- function(y, p) {
  tp <- colSums(y & p)
  fp <- colSums(!y & p)
  fn <- colSums(y & !p)
  pl <- tp + fp > 0
  rl <- tp + fn > 0
  if (!any(pl)) return(NaN)
  prec <- mean(tp[pl] / (tp[pl] + fp[pl]))
  rec <- if (any(rl)) mean(tp[rl] / (tp[rl] + fn[rl])) else 0
  if (prec + rec == 0) 0 else 2 * prec * rec / (prec + rec)
}

# The share of (relevant, irrelevant) label pairs of a row not ordered by
# the 0/1 predictions (relevant predicted and irrelevant not), averaged.
ref_ranking_loss_01 <- function(y, p) {
  mean(vapply(seq_len(nrow(y)), function(i) {
    pos <- which(y[i, ])
    neg <- which(!y[i, ])
    if (!length(pos) || !length(neg)) return(0)
    bad <- 0
    for (a in pos) for (b in neg) bad <- bad + !(p[i, a] && !p[i, b])
    bad / (length(pos) * length(neg))
  }, 0))
}

test_that("macro_f1_pr and ranking_loss_01 are measures of every cv_*()", {
  pr <- labelset_problem(41, n = 90, d = 4, m = 4, sd = 1)
  foldid <- rep_len(1:3, 90)
  refs <- list(macro_f1_pr = ref_macro_f1_pr, ranking_loss_01 = ref_ranking_loss_01)
  runs <- list(
    cv_br = function(...) cv_br(pr$x, pr$y, learner = "logistic", cost = c(0.1, 1), ...),
    cv_mlls = function(...) cv_mlls(pr$x, pr$y, alpha = c(0, 1), beta = c(0.01, 1), ...),
    cv_clr = function(...) cv_clr(pr$x, pr$y, cost = c(0.1, 1), ...))
  for (nm in names(runs)) for (measure in names(refs)) {
    cv <- suppressWarnings(suppressMessages(runs[[nm]](foldid = foldid, measure = measure,
                                                       keep = TRUE)))
    expect_identical(cv$measure, measure)
    expect_identical(cv$higher_better, measure == "macro_f1_pr", info = measure)
    for (g in seq_len(nrow(cv$grid))) {
      S <- cv$oof[, , g]
      ref <- vapply(1:3, function(k) {
        tr <- foldid != k
        va <- foldid == k
        thr <- oof_f1_cuts(S, pr$y, tr)  # the chance rule decided on all rows
        refs[[measure]](pr$y[va, ], S[va, ] > rep(thr, each = sum(va)))
      }, 0)
      expect_equal(unname(cv$cvfold[g, ]), ref, tolerance = 1e-12,
                   info = paste(nm, measure, g))
    }
    # the best point by the measure's direction
    cvm <- as.vector(cv$cvm)
    expect_equal(cvm[cv$best], if (cv$higher_better) max(cvm) else min(cvm))
  }
  # a decoder's label sets are scored the same way (cv_cc: its greedy sets)
  cv <- suppressWarnings(suppressMessages(cv_cc(pr$x, pr$y, cost = 1, foldid = foldid,
                                                measure = "ranking_loss_01")))
  fits <- lapply(1:3, function(k) cc(pr$x[foldid != k, ], pr$y[foldid != k, ], cost = 1))
  ref <- vapply(1:3, function(k) ref_ranking_loss_01(
    pr$y[foldid == k, ], predict(fits[[k]], pr$x[foldid == k, ], type = "class")), 0)
  expect_equal(unname(cv$cvfold[1, ]), ref, tolerance = 1e-6)
  # and with decision rules
  cv <- suppressWarnings(suppressMessages(cv_br(pr$x, pr$y, learner = "logistic", cost = 1,
                                                foldid = foldid, measure = "macro_f1_pr",
                                                keep = TRUE, rule = c("f1", "fixed"))))
  S <- cv$oof[, , 1]
  ref <- mean(vapply(1:3, function(k) ref_macro_f1_pr(pr$y[foldid == k, ],
                                                      S[foldid == k, ] > 0.5), 0))
  expect_equal(unname(cv$cvm[2]), ref, tolerance = 1e-12)
})

test_that("a measure that is not one of ml_metrics() is a clear error", {
  pr <- labelset_problem(42, n = 45, m = 3)
  expect_error(cv_br(pr$x, pr$y, cost = 1, nfolds = 3, measure = "f1_macro"),
               "unknown measure 'f1_macro'.*macro_f1_pr.*ranking_loss_01")
  expect_error(cv_mlls(pr$x, pr$y, alpha = 0, beta = 1, nfolds = 3, measure = c("macro_f1", "micro_f1")),
               "'measure' must be one name")
  expect_true(all(measure_names()$cv))
})
