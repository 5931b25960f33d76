# cv_lewl() against refitting lewl() on every fold at every grid point.

test_that("cv_lewl's out-of-fold scores equal refitting lewl() per fold", {
  p <- lewl_problem(60, 4, m = 4, seed = 5)
  foldid <- rep(1:3, 20)
  cv <- cv_lewl(p$x, p$y, lambda = c(1, 0.1), beta = c(0, 2), k = c(1, 2),
                foldid = foldid, keep = TRUE, progress = FALSE, knn = 5)
  expect_s3_class(cv, "cv_lewl")
  expect_identical(dim(cv$cvm), c(2L, 2L, 2L))
  for (g in c(1, 4, 8)) {
    pt <- cv$grid[g, ]
    oof <- matrix(0, 60, 4)
    for (k in 1:3) {
      va <- foldid == k
      fit <- lewl(p$x[!va, ], p$y[!va, ], k = pt$k, lambda = pt$lambda, beta = pt$beta,
                  knn = 5)
      oof[va, ] <- predict(fit, p$x[va, ], type = "score")
    }
    expect_equal(cv$oof[, , g], oof, tolerance = 1e-8, ignore_attr = TRUE)
  }
  best <- cv$grid[cv$chosen, ]
  ref <- lewl(p$x, p$y, k = best$k, lambda = best$lambda, beta = best$beta, knn = 5)
  expect_equal(cv$fit$D, ref$D, tolerance = 1e-8)
  expect_equal(cv$fit$thresholds, ref$thresholds)
  expect_equal(predict(cv, p$x[1:3, ], type = "score"), predict(ref, p$x[1:3, ], type = "score"), tolerance = 1e-8)
  # the cross-validation object carries no n x n kernel of its refit either
  # (it keeps x and y for refits at other points: linear in n)
  size <- function(n) {
    pn <- lewl_problem(n, 4, m = 3, seed = 2)
    cvn <- cv_lewl(pn$x, pn$y, lambda = 1, beta = 0, k = 2, nfolds = 2, progress = FALSE)
    length(serialize(cvn, NULL))
  }
  s400 <- size(400)
  expect_lt(s400, 8 * 400^2 / 4)
  expect_lt(s400 / size(200), 3)
  expect_error(cv_lewl(p$x, p$y, lambda = -1), "'lambda'")
  expect_error(cv_lewl(p$x, p$y, foo = 1), "unknown argument")
  expect_error(cv_lewl(p$x, p$y, k = 100), "'k'")
})

test_that("cv_lewl learns from the observed labels only", {
  skip_if_not(exists("mask_labels", envir = asNamespace("mlss")),
              "the engine's missing-label support (branch missing) is not merged yet")
  p <- lewl_problem(60, 4, m = 4, rate = 0.3, seed = 6)
  cv <- cv_lewl(p$x, p$ymiss, lambda = c(0.1, 1), beta = c(1, 5), k = 2, nfolds = 3,
                progress = FALSE, knn = 5, keep = TRUE)
  expect_true(all(is.finite(cv$cvm)))
  pt <- cv$grid[2, ]
  oof <- matrix(0, 60, 4)
  for (k in 1:3) {
    va <- cv$foldid == k
    fit <- lewl(p$x[!va, ], p$ymiss[!va, ], k = 2, lambda = pt$lambda, beta = pt$beta,
                knn = 5)
    oof[va, ] <- predict(fit, p$x[va, ], type = "score")
  }
  expect_equal(cv$oof[, , 2], oof, tolerance = 1e-8, ignore_attr = TRUE)
  expect_identical(cv$fit$missing, is.na(p$ymiss), ignore_attr = TRUE)
})

# rule = (issue 22): each (grid point, rule) measured on the out-of-fold
# scores, fold k decided by the rule learnt from the other folds' scores and
# observed labels.  The reference is written from the definitions of
# ?ml_decide, on the kept out-of-fold scores, with the missing labels left
# out of every count (ref_rule_decide() in helper-rule-reference.R), "f1" at
# the fold fit's own cut (thresholds = "train").
test_that("cv_lewl takes rule = with the meaning of the other cv_*(), missing labels left out", {
  p <- lewl_problem(60, 4, m = 4, rate = 0.25, seed = 8)
  foldid <- rep_len(1:3, 60)
  rules <- c("f1", "fixed", "rcut", "pcut", "mcut", "lcard", "scut", "mcut+1", "pcut+1")
  # each fold's own cut (thresholds = "train"): lewl() on its training rows
  own <- lapply(1:3, function(f) {
    tr <- foldid != f
    lapply(c(0.1, 1), function(la)
      lewl(p$x[tr, ], p$ymiss[tr, ], k = 2, lambda = la, beta = 1, knn = 5)$thresholds)
  })
  for (measure in c("macro_f1", "hamming_loss")) {
    cv <- suppressWarnings(cv_lewl(p$x, p$ymiss, lambda = c(0.1, 1), beta = 1, k = 2,
                                   foldid = foldid, measure = measure, keep = TRUE,
                                   progress = FALSE, knn = 5, rule = rules))
    expect_identical(cv$scored_by, "rules")
    expect_identical(cv$grid$rule, rep(rules, each = 2))
    ref <- vapply(seq_len(nrow(cv$grid)), function(i) {
      g <- (i - 1) %% 2 + 1
      S <- cv$oof[, , g]
      mean(vapply(1:3, function(f) {
        P <- ref_rule_decide(cv$grid$rule[i], S, p$ymiss, foldid != f, foldid == f,
                             own[[f]][[match(cv$grid$lambda[i], c(0.1, 1))]])
        ml_metrics(p$ymiss[foldid == f, ], pred = P, measures = measure)[[1]]
      }, 0))
    }, 0)
    expect_equal(unname(as.vector(cv$cvm)), ref, tolerance = 1e-10, info = measure)
    best <- if (cv$higher_better) max(ref) else min(ref)
    expect_equal(ref[cv$best], best, info = measure)
    expect_identical(cv$rule_best, cv$grid$rule[cv$best])
  }
  # "f1" alone is the run without rules
  cv0 <- suppressWarnings(cv_lewl(p$x, p$ymiss, lambda = c(0.1, 1), beta = 1, k = 2,
                                  foldid = foldid, progress = FALSE, knn = 5))
  cv1 <- suppressWarnings(cv_lewl(p$x, p$ymiss, lambda = c(0.1, 1), beta = 1, k = 2,
                                  foldid = foldid, progress = FALSE, knn = 5, rule = "f1"))
  expect_equal(unname(as.vector(cv1$cvm)), unname(as.vector(cv0$cvm)), tolerance = 1e-12)
  # the refit predicts by the chosen rule, learnt from all the observed labels
  cvp <- suppressWarnings(cv_lewl(p$x, p$ymiss, lambda = 1, beta = 1, k = 2, foldid = foldid,
                                  progress = FALSE, knn = 5, rule = "pcut+1"))
  newx <- p$x[1:12, ] + 0.1
  Snew <- predict(lewl(p$x, p$ymiss, k = 2, lambda = 1, beta = 1, knn = 5), newx,
                  type = "score")
  P <- ref_rule_decide("pcut+1", rbind(p$x[, 1:4] * 0, Snew), rbind(p$ymiss, NA * p$ymiss[1:12, ]),
                       c(rep(TRUE, 60), rep(FALSE, 12)), c(rep(FALSE, 60), rep(TRUE, 12)), NULL)
  expect_identical(unname(predict(cvp, newx, type = "class")), unname(P))
  expect_error(cv_lewl(p$x, p$ymiss, lambda = 1, beta = 1, k = 2, foldid = foldid,
                       progress = FALSE, rule = "mcut", measure = "ranking_loss"),
               "measure of label")
  expect_error(cv_lewl(p$x, p$ymiss, lambda = 1, beta = 1, k = 2, foldid = foldid,
                       progress = FALSE, rule = "best"), "unknown decision rule")
})

# warm_start = TRUE: along the grid's rows (the engine's order) each fold's
# fit starts its missing entries from the fold's completed matrix at the
# previous grid point.  Reference: the fold fits chained by hand, each
# started (lewl_fit_prepared(start =)) from the previous point's
# $completed; the first point is a cold lewl() fit.
test_that("cv_lewl(warm_start = TRUE) chains each fold's fits along the grid", {
  p <- lewl_problem(60, 4, m = 4, rate = 0.4, seed = 9)
  foldid <- rep(1:3, 20)
  lam <- c(0.1, 1)  # as check_grid() orders an axis
  bet <- c(0, 2)
  cv <- suppressWarnings(cv_lewl(p$x, p$ymiss, lambda = lam, beta = bet, k = 2,
                                 foldid = foldid, keep = TRUE, progress = FALSE, knn = 5,
                                 warm_start = TRUE))
  cold <- suppressWarnings(cv_lewl(p$x, p$ymiss, lambda = lam, beta = bet, k = 2,
                                   foldid = foldid, keep = TRUE, progress = FALSE, knn = 5))
  grid <- expand.grid(lambda = lam, beta = bet, k = 2L)
  expect_identical(cv$grid[, c("lambda", "beta", "k")], grid, ignore_attr = TRUE)
  oof <- array(0, c(60, 4, nrow(grid)))
  for (f in 1:3) {
    tr <- foldid != f
    prep <- mlss:::lewl_prepare(p$x[tr, ], 5)
    prev <- NULL
    for (g in seq_len(nrow(grid))) {
      fit <- suppressWarnings(mlss:::lewl_fit_prepared(
        p$x[tr, ], p$ymiss[tr, ], prep, 2L, grid$lambda[g], grid$beta[g], "ridge", 0.1,
        "global", "exact", 0.5, 1e-6, 500, start = prev$completed))
      if (g == 1) {
        ref1 <- suppressWarnings(lewl(p$x[tr, ], p$ymiss[tr, ], k = 2, lambda = grid$lambda[1],
                                      beta = grid$beta[1], knn = 5))
        expect_equal(fit$completed, ref1$completed, tolerance = 1e-8)
      }
      oof[!tr, , g] <- predict(fit, p$x[!tr, ], type = "score")
      prev <- fit
    }
  }
  for (g in seq_len(nrow(grid)))
    expect_equal(cv$oof[, , g], oof[, , g], tolerance = 1e-8, ignore_attr = TRUE,
                 info = paste("grid point", g))
  # the first point is a cold start in both runs; later ones took another path
  expect_equal(cv$oof[, , 1], cold$oof[, , 1], tolerance = 1e-8, ignore_attr = TRUE)
  expect_gt(max(abs(cv$oof[, , -1] - cold$oof[, , -1])), 1e-6)
  # the refit is lewl() on all the rows, cold
  best <- cv$grid[cv$chosen, ]
  ref <- suppressWarnings(lewl(p$x, p$ymiss, k = 2, lambda = best$lambda, beta = best$beta,
                               knn = 5))
  expect_equal(cv$fit$D, ref$D, tolerance = 1e-8)
  expect_error(cv_lewl(p$x, p$ymiss, warm_start = NA), "'warm_start'")
})

# The default grid as ?cv_lewl states it (beta = 0 left out in session 41:
# its fits drift without converging, bench/lewl_beta0_results.md):
# lambda 10^(-1:1), beta c(1, 10), k the distinct values of ceiling(m * c(1/2, 1)).
test_that("cv_lewl's default grid is the documented one", {
  p <- lewl_problem(40, 4, m = 3, seed = 3)
  cv <- suppressWarnings(cv_lewl(p$x, p$y, nfolds = 2, knn = 5, progress = FALSE))
  ref <- expand.grid(lambda = c(0.1, 1, 10), beta = c(1, 10), k = c(2L, 3L))
  expect_equal(cv$grid[, names(ref)], ref, ignore_attr = TRUE)
  p2 <- lewl_problem(40, 4, m = 2, seed = 3)
  cv2 <- suppressWarnings(cv_lewl(p2$x, p2$y, lambda = 1, beta = 1, nfolds = 2, knn = 5,
                                  progress = FALSE))
  expect_identical(cv2$grid$k, 1:2)
})

# The fold fits' Z-step eigensolver stops at a residual of 1e-6 (relative to
# the largest Ritz value; lewl_cv_eig_tol), the refit at lewl()'s 1e-10.  On
# the iterative route (forced: at these sizes lewl() would reduce the formed
# matrix exactly) the fold fits then differ from lewl()'s a little, and not
# at all with the fold tolerance set to lewl()'s.
test_that("cv_lewl's fold fits use the looser eigensolver tolerance, its refit lewl()'s", {
  p <- lewl_problem(150, 4, m = 4, seed = 7)
  foldid <- rep(1:2, 75)
  old <- options(mlss.lewl_eigen = "iterative", mlss.lewl_cv_eig_tol = NULL)
  on.exit(options(old))
  ref <- matrix(0, 150, 4)
  for (f in 1:2) {
    va <- foldid == f
    fit <- suppressWarnings(lewl(p$x[!va, ], p$ymiss[!va, ], k = 2, lambda = 1, beta = 1,
                                 knn = 5))
    ref[va, ] <- predict(fit, p$x[va, ], type = "score")
  }
  run <- function() suppressWarnings(cv_lewl(p$x, p$ymiss, lambda = 1, beta = 1, k = 2,
                                             foldid = foldid, keep = TRUE,
                                             progress = FALSE, knn = 5))
  cv <- run()
  gap <- max(abs(cv$oof[, , 1] - ref))
  expect_gt(gap, 0)
  expect_lt(gap, 1e-6)
  full <- suppressWarnings(lewl(p$x, p$ymiss, k = 2, lambda = 1, beta = 1, knn = 5))
  expect_equal(cv$fit$D, full$D, tolerance = 1e-12)
  options(mlss.lewl_cv_eig_tol = 1e-10)
  expect_equal(run()$oof[, , 1], ref, tolerance = 1e-12, ignore_attr = TRUE)
  options(mlss.lewl_cv_eig_tol = 0)
  expect_error(run(), "mlss.lewl_cv_eig_tol")
  options(mlss.lewl_cv_eig_tol = "1e-6")
  expect_error(run(), "one number in \\(0, 1\\)")
})

# The fold fits' warm starts run along lambda at each (beta, k) (the
# engine's paths; warm_start = TRUE: along the whole grid), so that with
# forked workers each fold's fit at each point is a piece of the engine's
# scheduler (session 42): the same result as in sequence, bit for bit, and
# to the eigensolver's tolerance that of cold fits (lewl() on the fold).
test_that("cv_lewl(parallel = 2) schedules the fold fits one by one, with the sequence's result", {
  skip_on_os("windows")
  p <- lewl_problem(150, 4, m = 4, seed = 7)
  foldid <- rep(1:3, 50)
  old <- options(mlss.lewl_eigen = "iterative")
  on.exit(options(old))
  lam <- c(0.1, 1)
  bet <- c(1, 10)
  run <- function(parallel, warm_start = FALSE)
    suppressWarnings(cv_lewl(p$x, p$ymiss, lambda = lam, beta = bet, k = c(2, 3),
                             foldid = foldid, keep = TRUE, progress = FALSE, knn = 5,
                             parallel = parallel, warm_start = warm_start))
  for (warm in c(FALSE, TRUE)) {
    one <- run(FALSE, warm)
    two <- run(2L, warm)
    if (!warm) dflt <- two
    expect_null(one$schedule)
    expect_identical(two$schedule[["fitted"]], 3 * 8, info = paste("warm_start", warm))
    expect_identical(two$schedule[["dropped"]], 0)
    for (part in c("cvfold", "cvm", "cvsd", "oof", "best", "best_1se", "chosen"))
      expect_identical(two[[part]], one[[part]], info = paste("warm_start", warm, part))
    expect_identical(two$fit$completed, one$fit$completed)
    # no early stop of paths is said or kept
    expect_null(two$skipped)
    expect_null(two$path_stop)
  }
  # the default's fits: those of lewl() on each fold to the eigensolver's
  # tolerance (warm starts of the eigenvectors only)
  grid <- one$grid
  for (f in 1:3) {
    va <- foldid == f
    for (g in c(2, 4, 8)) {
      fit <- suppressWarnings(lewl(p$x[!va, ], p$ymiss[!va, ], k = grid$k[g],
                                   lambda = grid$lambda[g], beta = grid$beta[g], knn = 5))
      expect_equal(dflt$oof[va, , g], predict(fit, p$x[va, ], type = "score"),
                   tolerance = 1e-6, ignore_attr = TRUE, info = paste("fold", f, "point", g))
    }
  }
})
