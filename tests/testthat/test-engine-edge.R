# The cross-validation engine's edge cases against references by hand: grid
# points undefined on some folds, the missing-label paths (training
# thresholds at every fold and grid point, the refit's out-of-fold
# thresholds at the 1se point) and infinite scores.

test_that("a point whose measure is undefined on some fold never wins, nor is it the 1se point", {
  # plain R from the documentation: cvm is the mean over folds (NA when a fold
  # is undefined); the best point has the best defined mean, ties going to
  # the most regularised; the 1se point is the most regularised defined point
  # within a standard error of it
  ref <- function(cvfold, ord, higher) {
    cvm <- rowMeans(cvfold)
    se <- apply(cvfold, 1, sd) / sqrt(ncol(cvfold))
    ok <- !is.na(cvm)
    sc <- if (higher) cvm else -cvm
    cand <- ord[ok[ord]]
    best <- cand[which.max(sc[cand])]
    within <- ok & (if (higher) cvm >= cvm[best] - se[best] else cvm <= cvm[best] + se[best])
    c(best, ord[within[ord]][1])
  }
  set.seed(61)
  for (i in 1:60) {
    cvfold <- matrix(round(runif(8 * 4), 1), 8)
    # one to six points undefined on one or two folds; the best raw value among them
    bad <- sample(8, sample(6, 1))
    cvfold[bad, 1] <- 1e3 * (i %% 2 * 2 - 1)
    cvfold[cbind(bad, sample(4, length(bad), TRUE))] <- NA
    ord <- sample(8)
    for (higher in c(TRUE, FALSE)) {
      cvm <- rowMeans(cvfold)
      cvsd <- apply(cvfold, 1, sd) / 2
      best <- best_grid_point(cvm, ord, higher)
      got <- c(best, one_se_point(cvm, cvsd, best, ord, higher))
      expect_identical(got, ref(cvfold, ord, higher))
      expect_false(any(is.na(cvm[got])))
    }
  }
})

test_that("a measure undefined on a fold at every grid point is an error, not a choice", {
  # the measure of a fold whose labels are all missing is undefined (NaN)
  set.seed(62)
  x <- matrix(rnorm(60), 30)
  y <- matrix(runif(90) < 0.4, 30, dimnames = list(NULL, c("a", "b", "c")))
  foldid <- rep(1:3, each = 10)
  y[foldid == 2, ] <- NA
  fit <- function(x, y, w) structure(list(w = w), class = "toy")
  pred <- function(object, newx) cbind(newx, newx[, 1]) * object$w
  expect_error(ml_cv(x, y, fit, list(w = c(1, 2)), predict = pred, foldid = foldid,
                     na_labels = "observed", progress = FALSE),
               "undefined on some fold at every grid point")
})

test_that("training thresholds with missing labels: every fold and grid point by hand", {
  set.seed(63)
  n <- 48
  x <- matrix(rnorm(n * 3), n)
  y <- (x + matrix(rnorm(n * 3), n)) > 0
  colnames(y) <- c("a", "b", "c")
  y[matrix(runif(n * 3) < 0.25, n)] <- NA
  foldid <- rep(1:4, length.out = n)
  # a model whose scores depend on its training rows (their observed positives)
  fit <- function(x, y, w) {
    pos <- colMeans(y, na.rm = TRUE)
    structure(list(w = w, pos = pos), class = "toy")
  }
  pred <- function(object, newx) sweep(newx * object$w, 2, object$pos)
  grid <- list(w = c(0.5, 1, 2))
  for (sel in c("best", "1se")) {
    cv <- ml_cv(x, y, fit, grid, predict = pred, foldid = foldid, thresholds = "train",
                na_labels = "observed", measure = "macro_f1", select = sel, progress = FALSE)
    for (g in 1:3) for (k in 1:4) {
      tr <- foldid != k
      model <- fit(x[tr, ], y[tr, ], grid$w[g])
      thr <- f1_thresholds(pred(model, x[tr, ]), y[tr, ])$threshold
      p <- sweep(pred(model, x[!tr, ]), 2, thr, ">")
      expect_equal(cv$cvfold[g, k], ml_metrics(y[!tr, ], pred = p)$macro_f1)
    }
  }
})

test_that("the refit at the 1se point takes that point's out-of-fold thresholds on observed entries", {
  set.seed(64)
  n <- 60
  x <- matrix(rnorm(n * 4), n)
  y <- (x[, 1:3] + matrix(rnorm(n * 3, sd = 1.5), n)) > 0
  colnames(y) <- c("a", "b", "c")
  y[matrix(runif(n * 3) < 0.2, n)] <- NA
  foldid <- rep(1:3, length.out = n)
  cv <- cv_mlls(x, y, alpha = 0, beta = 10^(-2:2), r = 1, foldid = foldid, select = "1se",
                keep = TRUE, na_labels = "negative", progress = FALSE)
  g <- cv$chosen
  expect_identical(g, cv$best_1se)
  expect_equal(unname(cv$fit$thresholds), unname(f1_thresholds(cv$oof[, , g], y)$threshold))
  yneg <- y
  yneg[is.na(yneg)] <- FALSE
  ref <- mlls(x, yneg, alpha = 0, beta = cv$grid$beta[g], r = 1)
  expect_equal(cv$fit$U, ref$U)
})

test_that("infinite scores (a label never or always predicted) are cut and scored as by hand", {
  set.seed(65)
  n <- 40
  x <- matrix(rnorm(n * 2), n)
  y <- cbind(a = x[, 1] + rnorm(n) > 0, b = runif(n) < 0.3, c = runif(n) < 0.6)
  foldid <- rep(1:4, length.out = n)
  fit <- function(x, y, w) structure(list(w = w), class = "toy")
  # label b never predicted (-Inf), label c always (+Inf)
  pred <- function(object, newx) cbind(newx[, 1] * object$w, -Inf, Inf)
  for (th in c("oof", "train")) {
    cv <- ml_cv(x, y, fit, list(w = c(1, -1)), predict = pred, foldid = foldid,
                thresholds = th, progress = FALSE)
    for (g in 1:2) for (k in 1:4) {
      tr <- foldid != k
      s <- pred(list(w = c(1, -1)[g]), x)
      thr <- if (th == "oof") oof_f1_cuts(s, y, tr) else f1_thresholds(s[tr, ], y[tr, ])$threshold
      p <- sweep(s[!tr, ], 2, thr, ">")
      expect_equal(cv$cvfold[g, k], ml_metrics(y[!tr, ], pred = p)$macro_f1)
    }
  }
})
