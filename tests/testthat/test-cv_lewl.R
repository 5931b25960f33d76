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
