# Issue 22: every cv_*() declares its regularisation order, and its
# one-standard-error point is at least as regularised as the best.  The
# directions below are written out from each method's model (a smaller cost
# is a stronger penalty; more neighbours smooth ML-kNN's posteriors; fewer
# label directions and a larger ridge for CPLST; ...), not read from the
# package: each axis of each method is varied alone, and the engine's order
# (cv$order, most regularised first) must rank its values that way; then
# best_1se must come no later than best in that ranking.

# per method: a list of axes, each the grid arguments that vary it alone
# (two values, the MORE regularised first) and the rest of the call
reg_cases <- list(
  cv_mlls = list(beta = list(alpha = 0, beta = c(1, 0.01)),
                 alpha = list(alpha = c(1, 0.01), beta = 0.1)),
  cv_br = list(cost = list(cost = c(0.01, 10))),
  cv_cc = list(cost = list(cost = c(0.01, 10))),
  cv_pcc = list(cost = list(cost = c(0.01, 10))),
  cv_mlknn = list(k = list(k = c(12, 2))),
  cv_cplst = list(k = list(k = c(1, 3), lambda = 1),
                  lambda = list(k = 2, lambda = c(10, 0.01))),
  cv_ssmddm = list(beta = list(k = 2, alpha = 0, beta = c(1, 0.01)),
                   alpha = list(k = 2, alpha = c(1, 0.01), beta = 0.1)),
  cv_lewl = list(beta = list(lambda = 1, beta = c(1, 0), k = 2),
                 lambda = list(lambda = c(10, 0.1), beta = 0, k = 2),
                 k = list(lambda = 1, beta = 0, k = c(1, 3))),
  cv_mlcrf = list(lambda_w = list(lambda_w = c(0.5, 0.01), eta = 1, lambda_v = 0.05,
                                  measure = "macro_f1"),
                  eta = list(lambda_w = 0.1, eta = c(1, 0.5), lambda_v = 0.05,
                             measure = "macro_f1")),
  cv_lp = list(cost = list(cost = c(0.01, 10))),
  cv_rakel = list(cost = list(cost = c(0.01, 10), k = 3)),
  cv_eps = list(cost = list(cost = c(0.01, 10), n_models = 2, p = 1)),
  cv_clr = list(cost = list(cost = c(0.01, 10))),
  cv_homer = list(cost = list(cost = c(0.01, 10), k = 3)),
  cv_brplus = list(cost = list(cost = c(0.01, 10), inner_folds = 2)),
  cv_dbr = list(cost = list(cost = c(0.01, 10))))

test_that("every cv_*() orders its grid from the most regularised, and 1se <= best", {
  d <- chain_ref_data(n = 45, d = 3, m = 3, seed = 8)
  fid <- rep(1:3, length.out = 45)
  expect_setequal(names(reg_cases), grep("^cv_", getNamespaceExports("mlss"), value = TRUE))
  for (nm in names(reg_cases)) {
    f <- get(nm, asNamespace("mlss"))
    for (ax in names(reg_cases[[nm]])) {
      args <- reg_cases[[nm]][[ax]]
      info <- paste(nm, ax)
      # the grid given in both orders: the ranking must not follow the input
      for (rev_grid in c(FALSE, TRUE)) {
        a <- args
        if (rev_grid) a[[ax]] <- rev(a[[ax]])
        set.seed(1)
        cv <- suppressMessages(suppressWarnings(
          do.call(f, c(list(d$x, d$y, foldid = fid, progress = FALSE), a))))
        v <- cv$grid[[ax]]
        expect_identical(length(v), 2L, info = info)
        # rank 1: the value written first in reg_cases, the more regularised
        rank <- match(v, args[[ax]])
        expect_identical(rank[cv$order], 1:2, info = paste(info, "order"))
        expect_lte(rank[cv$best_1se], rank[cv$best], label = paste(info, "1se rank"))
      }
    }
  }
})

test_that("the one-standard-error point is the most regularised within one se of the best", {
  # an independent reading of the rule on the engine's stored means and
  # errors, for a method whose best is not its most regularised point
  d <- chain_ref_data(n = 60, d = 3, m = 3, seed = 5)
  fid <- rep(1:3, length.out = 60)
  # the grid from the least regularised: the rule must not follow the input
  cv <- suppressMessages(cv_br(d$x, d$y, cost = 10^(1:-3), foldid = fid, progress = FALSE))
  cvm <- as.vector(cv$cvm)
  cvsd <- as.vector(cv$cvsd)
  cost <- cv$grid$cost
  best <- which(cvm == max(cvm))
  best <- best[which.min(cost[best])]          # ties: the smaller cost
  ok <- cvm >= cvm[best] - cvsd[best]
  expect_identical(cv$best, best)
  expect_identical(cv$best_1se, which(ok)[which.min(cost[ok])])
  expect_lt(cost[cv$best_1se], cost[cv$best])  # here a strictly smaller cost
})
