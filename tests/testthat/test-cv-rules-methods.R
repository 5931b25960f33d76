# `rule =` in every cv_*() that thresholds scores (cv_br, cv_cc, cv_pcc,
# cv_mlknn, cv_cplst, cv_mlls, cv_ssmddm), with the meaning it has in the
# toolbox's: each (grid point, rule) measured on the out-of-fold scores,
# fold k's rows decided by the rule learnt from the other folds' out-of-fold
# scores and labels.  The reference is a plain-R computation of each rule on
# the kept out-of-fold scores (ref_rule_decide() in helper-rule-reference.R,
# written from the definitions in ?ml_decide, not from R/threshold_rules.R),
# "f1" at the out-of-fold F1 cuts (oof_f1_cuts() in helper-oof-cuts.R).

# cvm of every (grid point, rule) row of cv$grid against the reference on
# cv$oof (grid point g = the row's place in the grid without rules).
expect_rules_match <- function(cv, y, foldid, rules, measure, info) {
  ngrid <- dim(cv$oof)[3]
  ref <- vapply(seq_len(nrow(cv$grid)), function(i) {
    g <- (i - 1) %% ngrid + 1
    S <- cv$oof[, , g]
    mean(vapply(sort(unique(foldid)), function(k) {
      P <- ref_rule_decide(cv$grid$rule[i], S, y, foldid != k, foldid == k,
                           oof_f1_cuts(S, y, foldid != k))
      ml_metrics(y[foldid == k, , drop = FALSE], pred = P, measures = measure)[[1]]
    }, 0))
  }, 0)
  expect_equal(unname(as.vector(cv$cvm)), ref, tolerance = 1e-10, info = info)
  expect_identical(cv$grid$rule, rep(rules, each = ngrid), info = info)
  best <- if (cv$higher_better) max(ref) else min(ref)
  expect_equal(ref[cv$best], best, info = info)
  expect_identical(cv$rule_best, cv$grid$rule[cv$best], info = info)
}

rules_all <- c("f1", "fixed", "rcut", "pcut", "mcut", "lcard", "scut", "mcut+1", "fixed+1")

test_that("every cv_*() that cuts scores takes rule = with the toolbox's meaning", {
  pr <- labelset_problem(31, n = 90, d = 4, m = 4, sd = 1)
  foldid <- rep_len(1:3, 90)
  runs <- list(
    cv_br = function(...) cv_br(pr$x, pr$y, learner = "logistic", cost = c(0.1, 1), ...),
    cv_mlknn = function(...) cv_mlknn(pr$x, pr$y, k = c(5, 10), ...),
    cv_cplst = function(...) cv_cplst(pr$x, pr$y, k = c(2, 4), lambda = 1, ...),
    cv_mlls = function(...) cv_mlls(pr$x, pr$y, alpha = c(0, 1), beta = c(0.01, 1), ...),
    cv_ssmddm = function(...) cv_ssmddm(pr$x, pr$y, k = 3, alpha = c(0, 1), beta = 0.1, ...))
  for (nm in names(runs)) {
    for (measure in c("subset_accuracy", "macro_f1")) {
      cv <- suppressWarnings(suppressMessages(runs[[nm]](foldid = foldid, measure = measure,
                                                         keep = TRUE, rule = rules_all)))
      expect_s3_class(cv, nm)
      expect_identical(cv$scored_by, "rules", info = nm)
      expect_rules_match(cv, pr$y, foldid, rules_all, measure, paste(nm, measure))
    }
    # rule "f1" alone is the engine's own cut: the measures of a run without rules
    cv0 <- suppressWarnings(suppressMessages(runs[[nm]](foldid = foldid)))
    cv1 <- suppressWarnings(suppressMessages(runs[[nm]](foldid = foldid, rule = "f1")))
    expect_equal(unname(as.vector(cv1$cvm)), unname(as.vector(cv0$cvm)), tolerance = 1e-12,
                 info = nm)
  }
})

test_that("the chains take rule =, their decoder's label sets one of the rules", {
  pr <- labelset_problem(32, n = 90, d = 4, m = 3, sd = 1)
  foldid <- rep_len(1:3, 90)
  rules <- c("decoder", "f1", "fixed", "rcut", "mcut+1", "lcard")
  for (nm in c("cv_cc", "cv_pcc")) {
    f <- get(nm)
    cv <- suppressWarnings(suppressMessages(f(pr$x, pr$y, cost = c(0.1, 1), foldid = foldid,
                                              measure = "subset_accuracy", keep = TRUE,
                                              rule = rules)))
    cv0 <- suppressWarnings(suppressMessages(f(pr$x, pr$y, cost = c(0.1, 1), foldid = foldid,
                                               measure = "subset_accuracy")))
    # the decoder's column is the run without rules (scored on the decoder)
    expect_equal(unname(cv$cvm[, "decoder"]), unname(cv0$cvm), tolerance = 1e-12, info = nm)
    # the others: the rule on the out-of-fold scores
    keep <- cv$grid$rule != "decoder"
    ngrid <- 2
    ref <- vapply(which(keep), function(i) {
      S <- cv$oof[, , (i - 1) %% ngrid + 1]
      mean(vapply(1:3, function(k) {
        P <- ref_rule_decide(cv$grid$rule[i], S, pr$y, foldid != k, foldid == k,
                             oof_f1_cuts(S, pr$y, foldid != k))
        ml_metrics(pr$y[foldid == k, ], pred = P, measures = "subset_accuracy")[[1]]
      }, 0))
    }, 0)
    expect_equal(unname(as.vector(cv$cvm))[keep], ref, tolerance = 1e-10, info = nm)
  }
})

test_that("the refit of every cv_*() predicts by the chosen rule, learnt on all rows", {
  pr <- labelset_problem(33, n = 90, d = 4, m = 4, sd = 1)
  foldid <- rep_len(1:3, 90)
  all_rows <- rep(TRUE, 90)
  # one rule at a time, so that the chosen rule is known
  cases <- list(
    list(nm = "cv_mlknn", rule = "pcut+1",
         run = function(rule) cv_mlknn(pr$x, pr$y, k = 7, foldid = foldid, rule = rule,
                                       keep = TRUE),
         plain = function() mlknn(pr$x, pr$y, k = 7)),
    list(nm = "cv_br", rule = "lcard",
         run = function(rule) cv_br(pr$x, pr$y, learner = "logistic", cost = 0.5,
                                    foldid = foldid, rule = rule, keep = TRUE),
         plain = function() br(pr$x, pr$y, learner = "logistic", cost = 0.5)),
    list(nm = "cv_mlls", rule = "scut",
         run = function(rule) cv_mlls(pr$x, pr$y, alpha = 0.1, beta = 0.1, foldid = foldid,
                                      rule = rule, keep = TRUE),
         plain = function() mlls(pr$x, pr$y, alpha = 0.1, beta = 0.1)),
    list(nm = "cv_cc", rule = "rcut",
         run = function(rule) cv_cc(pr$x, pr$y, cost = 0.5, foldid = foldid, rule = rule,
                                    keep = TRUE),
         plain = function() cc(pr$x, pr$y, cost = 0.5)))
  for (cs in cases) {
    cv <- suppressWarnings(suppressMessages(cs$run(cs$rule)))
    Snew <- predict(cs$plain(), pr$newx, type = "score")
    # learnt on all rows (their labels; SCut on all out-of-fold scores)
    S_all <- rbind(cv$oof[, , 1], Snew)
    y_all <- rbind(pr$y, matrix(FALSE, nrow(Snew), 4))
    tr_all <- c(all_rows, rep(FALSE, nrow(Snew)))
    P <- ref_rule_decide(cs$rule, S_all, y_all, tr_all, c(!all_rows, rep(TRUE, nrow(Snew))),
                         oof_f1_cuts(S_all, y_all, tr_all))
    expect_identical(unname(predict(cv, pr$newx)), unname(P), info = cs$nm)
    expect_equal(unname(predict(cv, pr$newx, type = "score")), unname(Snew),
                 tolerance = 1e-8, info = cs$nm)
  }
})

test_that("rule = is refused with a ranking measure in every cv_*()", {
  pr <- labelset_problem(34, n = 45, m = 3)
  foldid <- rep_len(1:3, 45)
  expect_error(cv_mlknn(pr$x, pr$y, k = 5, foldid = foldid, rule = "mcut",
                        measure = "ranking_loss"), "measure of label")
  expect_error(cv_mlls(pr$x, pr$y, alpha = 0, beta = 1, foldid = foldid, rule = "mcut",
                       measure = "macro_auc"), "measure of label")
  expect_error(cv_br(pr$x, pr$y, cost = 1, foldid = foldid, rule = "decoder"), "decoder")
  expect_error(cv_ssmddm(pr$x, pr$y, k = 2, alpha = 0, beta = 1, foldid = foldid,
                         rule = "best"), "unknown decision rule")
})
