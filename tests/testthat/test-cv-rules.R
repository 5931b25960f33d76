# The decision rule as a hyperparameter of cross-validation (rule = ): the
# measures of every (cost, rule) point and the chosen one against a plain-R
# choice on the same out-of-fold scores (keep = TRUE), fold k's rows decided
# by the rule learnt on the other folds; the refit predicts by the rule
# learnt on all the rows.

rules <- c("f1", "fixed", "rcut", "pcut", "mcut", "lcard", "scut", "f1+1", "fixed+1", "scut+1")

# fold k's label sets by rule r, learnt from the rows `tr`
rule_reference <- function(r, S, y, tr, va) {
  one <- grepl("\\+1$", r)
  base <- sub("\\+1$", "", r)
  P <- switch(base,
    f1 = S[va, , drop = FALSE] > rep(oof_f1_cuts(S, y, tr), each = sum(va)),
    fixed = S[va, , drop = FALSE] > 0.5,
    scut = ml_decide(S[va, , drop = FALSE], "scut", y = y[tr, ], train_score = S[tr, ],
                     measure = "hamming"),
    rcut = ml_decide(S[va, , drop = FALSE], "rcut", y = y[tr, ]),
    pcut = ml_decide(S[va, , drop = FALSE], "pcut", y = y[tr, ]),
    mcut = ml_decide(S[va, , drop = FALSE], "mcut"),
    lcard = ml_decide(S[va, , drop = FALSE], "lcard", y = y[tr, ]))
  P <- matrix(as.logical(P), sum(va))
  if (one) for (i in which(rowSums(P) == 0)) P[i, which.max(S[va, , drop = FALSE][i, ])] <- TRUE
  P
}

test_that("the rule chosen in CV is the plain-R choice on the same out-of-fold scores", {
  pr <- labelset_problem(21, n = 90, m = 4, sd = 1.2)
  foldid <- rep_len(1:3, 90)
  costs <- c(0.01, 0.1, 1)
  for (measure in c("subset_accuracy", "macro_f1")) {
    cv <- suppressMessages(ml_cv(pr$x, pr$y, fit = function(x, y, cost)
      br(x, y, learner = "logistic", cost = cost), grid = list(cost = costs),
      foldid = foldid, measure = measure, keep = TRUE, rule = rules))
    ref <- matrix(NA, length(costs), length(rules))
    for (g in seq_along(costs)) for (r in seq_along(rules)) {
      S <- cv$oof[, , g]
      ref[g, r] <- mean(sapply(1:3, function(k) {
        P <- rule_reference(rules[r], S, pr$y, foldid != k, foldid == k)
        ml_metrics(pr$y[foldid == k, ], pred = P, measures = measure)[[1]]
      }))
    }
    expect_equal(unname(as.vector(cv$cvm)), as.vector(ref), tolerance = 1e-12, info = measure)
    expect_identical(dim(cv$cvm), c(3L, length(rules)))
    # the choice: the best mean, ties to the smaller cost, then the rule listed first
    ord <- as.vector(t(outer(1:3, (seq_along(rules) - 1) * 3, `+`)))
    best <- ord[which.max(as.vector(ref)[ord])]
    expect_equal(cv$best, best)
    expect_identical(cv$rule_best, rules[(best - 1) %/% 3 + 1])
    expect_identical(cv$cost_best, costs[(best - 1) %% 3 + 1])
  }
  # the "f1" rule is the engine's own cut: the same measures as without rules
  cv0 <- suppressMessages(ml_cv(pr$x, pr$y, fit = function(x, y, cost)
    br(x, y, learner = "logistic", cost = cost), grid = list(cost = costs),
    foldid = foldid, measure = "macro_f1"))
  expect_equal(unname(cv$cvm[, "f1"]), unname(cv0$cvm), tolerance = 1e-12)
})

test_that("the refit predicts by the rule learnt on all rows; predict(cv) by the chosen", {
  pr <- labelset_problem(22, n = 90, m = 4, sd = 1.2)
  foldid <- rep_len(1:3, 90)
  cv <- suppressMessages(cv_clr(pr$x, pr$y, cost = c(0.1, 1), foldid = foldid,
                                measure = "subset_accuracy", keep = TRUE, rule = rules))
  expect_s3_class(cv, "cv_clr")
  for (i in seq_len(nrow(cv$grid))) {
    g <- (i - 1) %% 2 + 1
    fit <- cv$refit(cv$grid[i, , drop = FALSE], mlss:::cv_point_thresholds(cv, i))
    plain <- clr(pr$x, pr$y, cost = cv$grid$cost[i])
    Snew <- predict(plain, pr$newx, type = "score")
    S <- cv$oof[, , g]
    r <- cv$grid$rule[i]
    base <- sub("\\+1$", "", r)
    one <- grepl("\\+1$", r)
    P <- switch(base,
      f1 = Snew > rep(f1_thresholds(S, pr$y)$threshold, each = nrow(Snew)),
      fixed = Snew > 0.5,
      scut = ml_decide(Snew, "scut", y = pr$y, train_score = S, measure = "hamming"),
      rcut = ml_decide(Snew, "rcut", y = pr$y),
      pcut = ml_decide(Snew, "pcut", y = pr$y),
      mcut = ml_decide(Snew, "mcut"),
      lcard = ml_decide(Snew, "lcard", y = pr$y))
    P <- matrix(as.logical(P), nrow(Snew))
    if (one) for (j in which(rowSums(P) == 0)) P[j, which.max(Snew[j, ])] <- TRUE
    expect_identical(unname(predict(fit, pr$newx)), P, info = r)
    expect_equal(predict(fit, pr$newx, type = "score"), Snew, tolerance = 1e-12)
  }
  # predict(cv) is the chosen point's rule; print() names it
  chosen <- cv$refit(cv$grid[cv$chosen, , drop = FALSE], mlss:::cv_point_thresholds(cv, cv$chosen))
  expect_identical(predict(cv, pr$newx), predict(chosen, pr$newx))
  expect_identical(if (is.null(cv$fit$decision)) "f1" else cv$fit$decision$rule, cv$rule_best)
  expect_output(print(cv), cv$rule_best, fixed = TRUE)
  # rows na.exclude leaves out stay NA
  holed <- pr$newx
  holed[2, 1] <- NA
  p <- predict(cv, holed, na.action = na.exclude)
  expect_true(all(is.na(p[2, ])))
  expect_identical(p[-2, ], predict(cv, pr$newx)[-2, ])
})

test_that("a decoder's own label sets are a rule; rules need a measure of label sets", {
  pr <- labelset_problem(23, n = 60, m = 3)
  foldid <- rep_len(1:3, 60)
  cv <- suppressMessages(cv_lp(pr$x, pr$y, cost = c(0.1, 1), foldid = foldid,
                               measure = "subset_accuracy", rule = c("decoder", "mcut+1")))
  cv0 <- suppressMessages(cv_lp(pr$x, pr$y, cost = c(0.1, 1), foldid = foldid,
                                measure = "subset_accuracy"))
  expect_equal(unname(cv$cvm[, "decoder"]), unname(cv0$cvm), tolerance = 1e-12)
  expect_error(cv_clr(pr$x, pr$y, cost = 1, foldid = foldid, rule = "decoder"),
               "decoder")
  expect_error(cv_clr(pr$x, pr$y, cost = 1, foldid = foldid, rule = "best"),
               "unknown decision rule")
  expect_error(cv_clr(pr$x, pr$y, cost = 1, foldid = foldid, rule = "mcut",
                      measure = "ranking_loss"), "measure of label")
})

test_that("ties go to the more regularised grid point first, then to the rule listed first", {
  # one label per row, coded in the second feature; scores that only RCut
  # labels at cost 1 (both below 0.5) and every rule at cost 2: (cost 1,
  # rcut) ties with (cost 2, fixed) and (cost 2, rcut) at exact match 1
  n <- 30
  lab <- rep(c(1, 0), length.out = n)
  x <- cbind(f1 = seq_len(n), f2 = lab)
  y <- cbind(A = lab == 1, B = lab == 0)
  cv <- suppressMessages(ml_cv(x, y, fit = function(x, y, cost) list(cost = cost),
    predict = function(object, newx) {
      hi <- if (object$cost == 1) 0.4 else 0.9
      cbind(ifelse(newx[, 2] == 1, hi, 0.1), ifelse(newx[, 2] == 1, 0.1, hi))
    }, grid = list(cost = c(1, 2)), foldid = rep_len(1:3, n),
    measure = "subset_accuracy", rule = c("fixed", "rcut")))
  expect_equal(unname(cv$cvm), matrix(c(0, 1, 1, 1), 2))
  expect_identical(cv$rule_best, "rcut")
  expect_identical(cv$cost_best, 1)
})

test_that("rule \"f1\" of a decoder method asks for out-of-fold thresholds up front", {
  pr <- labelset_problem(24, n = 45, m = 3)
  expect_error(cv_lp(pr$x, pr$y, cost = 1, foldid = rep_len(1:3, 45), thresholds = "train",
                     measure = "subset_accuracy", rule = c("decoder", "f1")),
               "thresholds = \"oof\"")
})

test_that("predict(cv, rule = ) picks a cross-validated rule; refit() needs no thresholds", {
  set.seed(12)
  x <- matrix(rnorm(240), 60, 4)
  y <- matrix(runif(180) < 0.4, 60, 3)
  cv <- suppressMessages(cv_clr(x, y, cost = c(0.1, 1), rule = c("f1", "mcut"),
                                foldid = rep_len(1:3, 60)))
  b <- cv$grid[cv$best, ]
  expect_identical(predict(cv, x, rule = b$rule, cost = b$cost), predict(cv, x))
  other <- setdiff(c("f1", "mcut"), b$rule)
  i <- which(cv$grid$rule == other & cv$grid$cost == b$cost)
  expect_identical(predict(cv, x, rule = other, cost = b$cost),
                   predict(cv$refit(cv$grid[i, , drop = FALSE],
                                    mlss:::cv_point_thresholds(cv, i)), x))
  expect_error(predict(cv, x, rule = "rcut"), "'rule' must be one of")
  expect_s3_class(cv$refit(cv$grid[1, , drop = FALSE]), "clr")
})
