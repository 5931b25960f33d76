# cv_mlcrf(): the warm-started path against cold fits of mlcrf() on each fold.

test_that("cv_mlcrf's out-of-fold marginals equal mlcrf() refitted on each fold", {
  set.seed(41)
  n <- 90
  X <- matrix(runif(n * 3, -1, 1), n)
  y1 <- runif(n) < plogis(2 * X[, 1])
  y2 <- ifelse(runif(n) < 0.8, y1, !y1)
  y3 <- runif(n) < plogis(-X[, 2])
  Y <- cbind(a = y1, b = y2, c = y3)
  foldid <- rep(1:3, 30)
  cv <- cv_mlcrf(X, Y, lambda_w = c(0.2, 0.05), eta = c(0.5, 1), lambda_v = 0.01,
                 foldid = foldid, keep = TRUE, progress = FALSE, tol = 1e-8, prune = "none")
  expect_s3_class(cv, "cv_mlcrf")
  expect_identical(cv$grid$lambda_w, c(0.2, 0.05, 0.2, 0.05))
  for (g in c(2, 4)) {
    oof <- matrix(0, n, 3)
    for (k in 1:3) {
      va <- foldid == k
      fit <- mlcrf(X[!va, ], Y[!va, ], lambda_v = 0.01, lambda_w = cv$grid$lambda_w[g],
                   eta = cv$grid$eta[g], tol = 1e-8)
      oof[va, ] <- predict(fit, X[va, ], type = "score")
    }
    expect_lt(max(abs(cv$oof[, , g] - oof)), 1e-4)
  }
  expect_equal(cv$fit$lambda_w, cv$lambda_w_best)
  expect_equal(unname(cv$fit$lambda_v), rep(0.01, 3))
  expect_error(cv_mlcrf(X, Y, eta = 2), "'eta'")
})

test_that("the path of edge strengths has the edges of mlcrf() at each lambda_w, and plots", {
  set.seed(41)
  x <- mlss::emotions$x[1:120, 1:10]
  y <- mlss::emotions$y[1:120, 1:4]
  lam <- c(0.3, 0.1, 0.03)
  cv <- cv_mlcrf(x, y, lambda_w = lam, eta = 0.5, lambda_v = 0.05, nfolds = 3, tol = 1e-7,
                 progress = FALSE)
  S <- cv$path$strength
  expect_identical(dim(S), c(6L, 3L))
  for (k in seq_along(lam)) {
    fit <- mlcrf(x, y, lambda_v = 0.05, lambda_w = lam[k], eta = 0.5, tol = 1e-7)
    expect_setequal(rownames(S)[S[, k] > 0], paste(fit$edges$from, fit$edges$to, sep = "~"))
  }
  expect_true(any(S > 0))
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_identical(plot(cv, type = "path"), cv)
  expect_error(plot(structure(list(), class = c("cv_mlcrf", "ml_cv")), type = "path"), "path")
})

# The pruning tests' fit: a 3-label chain of 150 rows, two lambda_w, tight
# tolerance; `...` the pruning rule.
pruned_chain_cv <- function(...) {
  set.seed(7)
  d <- crf_ref_synthetic("chain", n = 150)
  d$cv <- suppressWarnings(cv_mlcrf(d$x, d$y, lambda_w = c(0.1, 0.01), eta = 1, lambda_v = 0.02,
                                    nfolds = 3, tol = 1e-9, progress = FALSE, path = FALSE, ...))
  d
}

test_that("cv_mlcrf(prune = 'ebic') drops the weakest edge and refits, and keeps the least eBIC", {
  # references: the pseudo-likelihood and the gradient of the refit's problem
  # in plain R (helper-mlcrf.R), the eBIC by its formula
  d <- pruned_chain_cv(prune = "ebic")
  x <- d$x
  y <- d$y
  cv <- d$cv
  expect_s3_class(cv$ebic, "data.frame")
  E0 <- nrow(cv$fit_cv$edges)
  expect_gte(E0, 2L)
  expect_identical(cv$ebic$edges, E0:0)
  n <- nrow(x)
  cand <- mlss:::mlcrf_ebic_candidates(cv$fit_cv, x, y, 1e-9, 2000)
  xs <- crf_ref_standardise(x)
  prev <- NULL
  for (k in seq_along(cand$fits)) {
    f <- cand$fits[[k]]
    from <- match(f$edges$from, colnames(y))
    to <- match(f$edges$to, colnames(y))
    ref <- crf_ref_objective(f$theta, xs, y + 0, from, to, 3, 0, 0, 0, 1, lambda0_w = 0)$value
    expect_equal(cand$pl[k], -n * ref, tolerance = 1e-8)
    if (k > 1) {  # the weakest edge of the previous graph is the one dropped
      weakest <- with(prev$edges, paste(from, to)[which.min(strength)])
      expect_setequal(paste(f$edges$from, f$edges$to),
                      setdiff(paste(prev$edges$from, prev$edges$to), weakest))
      g <- crf_ref_gradient(f$theta, xs, y + 0, from, to, 3, rep(0.02, 3), 1e-6,
                            f$lambda_w * 1e-3)
      expect_lt(max(abs(g)), 1e-5)
    }
    prev <- f
  }
  expect_equal(cv$ebic$ebic, -2 * cand$pl + (E0:0) * (3 * log(n) + 4 * 0.5 * log(3)))
  k <- max(which(cv$ebic$ebic == min(cv$ebic$ebic)))
  expect_identical(cv$fit$edges$from, cand$fits[[k]]$edges$from)
  expect_identical(cv$fit$edges$to, cand$fits[[k]]$edges$to)
  # no edge: the independent logistic regressions
  none <- mlcrf(x, y, lambda_v = 0.02, edges = "none", tol = 1e-9)
  expect_equal(cand$fits[[length(cand$fits)]]$nodes, none$nodes, tolerance = 1e-5)
  # prune = "none" keeps the CV fit; gamma is checked
  cv0 <- suppressWarnings(cv_mlcrf(x, y, lambda_w = c(0.1, 0.01), eta = 1, lambda_v = 0.02,
                                   nfolds = 3, tol = 1e-9, progress = FALSE, path = FALSE,
                                   prune = "none", foldid = cv$foldid))
  expect_null(cv0$ebic)
  expect_equal(cv0$fit$theta, cv$fit_cv$theta)
  expect_error(cv_mlcrf(x, y, gamma = -1), "'gamma'")
})

test_that("the default cv_mlcrf() recovers the paper's synthetic graphs", {
  # bench/mlcrf_structure.md: 10 of 10 on each of the four designs (its own
  # generators), with either rule of pruning (session 38).  Here the tests'
  # generator, 2 seeds each: the test per edge (prune = "chisq", the default
  # in sessions 34-37, applied to the same cross-validated fit) recovers all
  # 8; the eBIC (the default since session 38) all but one (it keeps a
  # spurious y1~y3 on the single edge's seed 2: over seeds 1-10, 39 of 40
  # against 40 of 40), as the documented 9 of 10 per design allows.  Before
  # the (1,1) intercepts left the edge ridge (session 36) the eBIC also kept
  # the chain's spurious y1~y3 on seed 2.
  skip_on_cran()
  truth <- list(independent = character(0), single = "y1~y2", chain = c("y1~y2", "y2~y3"),
                complete = c("y1~y2", "y1~y3", "y2~y3"))
  edge_set <- function(fit) sort(paste(fit$edges$from, fit$edges$to, sep = "~"))
  exact <- 0
  for (design in names(truth)) for (seed in 1:2) {
    set.seed(seed)
    d <- crf_ref_synthetic(design)
    cv <- suppressWarnings(suppressMessages(cv_mlcrf(d$x, d$y, tol = 1e-5, progress = FALSE,
                                                     path = FALSE)))
    exact <- exact + identical(edge_set(cv$fit), truth[[design]])
    # the documented default: the eBIC with gamma 0.5
    expect_identical(cv$gamma, 0.5)
    expect_null(cv$level)
    pr <- suppressWarnings(mlss:::mlcrf_ebic_prune(cv$fit_cv, d$x, d$y, 1e-5, 2000, 0.5,
                                                   level = 0.001))
    expect_identical(edge_set(pr$fit), truth[[design]], info = paste(design, seed))
  }
  expect_gte(exact, 7)
})

test_that("prune = 'chisq' keeps the candidate of least -2 PL + its edges' null quantiles", {
  d <- pruned_chain_cv(prune = "chisq", level = 0.05)
  x <- d$x
  y <- d$y
  cv <- d$cv
  E0 <- nrow(cv$fit_cv$edges)
  expect_gte(E0, 2L)
  cand <- mlss:::mlcrf_ebic_candidates(cv$fit_cv, x, y, 1e-9, 2000)
  nul <- mlss:::mlcrf_edge_null(cv$fit_cv, x, y)
  pen <- nul[, "scale"] * qchisq(0.95, nul[, "df"])
  # each candidate's edges, by name, against the CV fit's
  en <- paste(cv$fit_cv$edges$from, cv$fit_cv$edges$to)
  crit <- -2 * cand$pl + vapply(cand$fits, function(f)
    sum(pen[en %in% paste(f$edges$from, f$edges$to)]), 0)
  expect_equal(cv$ebic$criterion, crit[seq_len(nrow(cv$ebic))])
  k <- max(which(crit == min(crit)))
  expect_identical(nrow(cv$fit$edges), cand$edges[k])
  expect_identical(cv$level, 0.05)
  expect_error(cv_mlcrf(x, y, prune = "chisq", level = 1), "'level'")
})

test_that("the edge blocks of prune = 'chisq' are the pseudo-likelihood's Hessian and scores", {
  # reference: central differences of the plain-R gradient (helper-mlcrf.R)
  set.seed(11)
  n <- 120
  x <- matrix(runif(n * 3, -1, 1), n, 3)
  y <- cbind(y1 = runif(n) < plogis(x[, 1]), y2 = runif(n) < 0.4, y3 = runif(n) < plogis(-x[, 2]))
  for (edge_type in c("full", "ising")) {
    K <- if (edge_type == "full") 3 else 1
    fit <- suppressWarnings(mlcrf(x, y, lambda_v = 0.05, lambda_w = 0.02, eta = 0.5,
                                  edges = "full", edge_type = edge_type, tol = 1e-9))
    expect_identical(nrow(fit$edges), 3L)
    blocks <- mlcrf_edge_blocks(fit, x, y)
    xs <- crf_ref_standardise(x)
    from <- match(fit$edges$from, colnames(y))
    to <- match(fit$edges$to, colnames(y))
    grad <- function(th) as.vector(crf_ref_gradient(matrix(th, 4), xs, y + 0, from, to, K,
                                                    0, 0, 0, lambda0_w = 0))
    th <- as.vector(fit$theta)
    g0 <- grad(th)
    for (e in 1:3) {  # (v_a, v_b, w_e) as columns of theta, each 4 weights
      cols <- c(from[e], to[e], 3 + (e - 1) * K + seq_len(K))
      idx <- as.vector(outer(1:4, (cols - 1) * 4, "+"))
      Hnum <- sapply(idx, function(j) {
        h <- 1e-5 * (seq_along(th) == j)
        (grad(th + h) - grad(th - h))[idx] / 2e-5
      })
      expect_equal(blocks[[e]]$H, n * Hnum, tolerance = 1e-6, ignore_attr = TRUE)
      expect_equal(colSums(blocks[[e]]$G), -n * g0[idx], tolerance = 1e-8)
      ridge_w <- rep(0.02 * 0.5, 4 * K)
      ridge_w[4 * (K - 1) + 1] <- 1e-3  # the (1,1) intercept (?mlcrf, Objective)
      expect_equal(blocks[[e]]$ridge, 2 * n * c(1e-6, rep(0.05, 3), 1e-6, rep(0.05, 3), ridge_w))
    }
  }
})

test_that("the null distribution per edge is the same for a sparse x", {
  # a column with a large mean: the sparse route keeps a shift per column
  set.seed(3)
  n <- 150
  x <- matrix(rbinom(n * 5, 1, 0.3) * runif(n * 5), n, 5)
  x[, 1] <- x[, 1] + 3
  y <- cbind(a = runif(n) < plogis(x[, 2]), b = runif(n) < 0.5, c = runif(n) < plogis(-x[, 3]))
  xs <- Matrix::Matrix(x, sparse = TRUE)
  f1 <- suppressWarnings(mlcrf(x, y, lambda_v = 0.05, lambda_w = 0.02, eta = 0.5,
                               edges = "full", tol = 1e-10))
  f2 <- suppressWarnings(mlcrf(xs, y, lambda_v = 0.05, lambda_w = 0.02, eta = 0.5,
                               edges = "full", tol = 1e-10))
  expect_equal(mlss:::mlcrf_edge_null(f2, xs, y), mlss:::mlcrf_edge_null(f1, x, y),
               tolerance = 1e-6)
})

test_that("a null edge's gain in 2 PL follows mlcrf_edge_null()'s mean and variance", {
  # reference: simulation.  Two labels independent given x; the gain of the
  # ridge refit with the edge over the fit without it (the independent
  # logistic regressions at the same node ridge), 80 data sets: mean 6.6
  # (se 0.57) against a predicted 5.8, variance 26.0 against 21.3
  skip_on_cran()
  set.seed(5)
  n <- 300
  gain <- mu <- v <- numeric(0)
  for (r in 1:80) {
    x <- matrix(runif(n * 2, -1, 1), n, 2)
    y <- cbind(y1 = runif(n) < plogis(x[, 1]), y2 = runif(n) < plogis(-x[, 2]))
    full <- suppressWarnings(mlcrf(x, y, lambda_v = 0.01, lambda_w = 0.02, eta = 0,
                                   edges = "full", tol = 1e-9))
    none <- suppressWarnings(mlcrf(x, y, lambda_v = 0.01, edges = "none", tol = 1e-9))
    gain[r] <- 2 * (mlss:::mlcrf_pseudo_loglik(full, x, y) -
                      mlss:::mlcrf_pseudo_loglik(none, x, y))
    nul <- mlss:::mlcrf_edge_null(full, x, y)
    mu[r] <- nul[1, "mean"]
    v[r] <- 2 * nul[1, "scale"]^2 * nul[1, "df"]
  }
  expect_lt(abs(mean(gain) - mean(mu)), 3 * sd(gain) / sqrt(80))
  expect_lt(abs(var(gain) / mean(v) - 1), 0.4)
})

test_that("prune = 'chisq' keeps the edges of emotions that predict", {
  # bench/mlcrf_structure.md: rows 1-400, the CV point of cv_mlcrf(eta = 0.5,
  # nlambda = 4, nfolds = 3) (14 edges); counting all (d + 1) K = 219 weights
  # of an edge (the first "chisq") removed every edge (test log loss 530.4
  # against 468.5), the ridge-corrected test keeps 13 (471.5)
  skip_on_cran()
  x <- mlss::emotions$x[1:400, ]
  y <- mlss::emotions$y[1:400, ]
  lv <- rep(c(0.1, 0.0316227766), c(2, 4))
  fit <- suppressWarnings(mlcrf(x, y, lambda_v = lv, lambda_w = 0.2480974, eta = 0.5,
                                tol = 1e-5))
  expect_identical(nrow(fit$edges), 14L)
  pr <- suppressWarnings(mlss:::mlcrf_ebic_prune(fit, x, y, 1e-5, 2000, 0.5, level = 0.001))
  expect_gte(nrow(pr$fit$edges), 9L)
  expect_true(all(pr$penalty < 60) && all(pr$penalty > 10))
})

test_that("the backward elimination stops after `patience` graphs worse than the best", {
  set.seed(3)
  x <- mlss::emotions$x[1:150, 1:8]
  y <- mlss::emotions$y[1:150, 1:4]
  fit <- suppressWarnings(mlcrf(x, y, lambda_v = 0.05, lambda_w = 1e-4, eta = 1, tol = 1e-6))
  expect_identical(nrow(fit$edges), 6L)
  # a criterion whose best is the third graph: three worse ones follow, then stop
  crit <- function(pl, E) c(0, 1, -1, 2, 3, 4, 5)[seq_along(E)]
  cand <- suppressWarnings(mlss:::mlcrf_ebic_candidates(fit, x, y, 1e-6, 2000,
                                                        crit = crit, patience = 3))
  expect_identical(cand$edges, nrow(fit$edges) - 0:5)
  all <- suppressWarnings(mlss:::mlcrf_ebic_candidates(fit, x, y, 1e-6, 2000))
  expect_identical(all$edges, rev(seq_len(nrow(fit$edges) + 1L) - 1L))
})

# `rule =` (issue 22): each (grid point, rule) measured on the out-of-fold
# scores, fold k's rows decided by the rule learnt on the other folds; the
# reference (ref_rule_decide() in helper-rule-reference.R) is written from
# the definitions in ?ml_decide, "f1" at the out-of-fold F1 cuts as the
# other cv_*() (oof_f1_cuts() in helper-oof-cuts.R: the chance rule decided
# once per label on all the out-of-fold scores).
test_that("cv_mlcrf(rule = ) measures each rule on the out-of-fold scores, as the toolbox", {
  set.seed(11)
  d <- crf_ref_synthetic("chain", n = 120)
  foldid <- rep_len(1:3, 120)
  rules <- c("decoder", "f1", "fixed", "rcut", "pcut", "mcut+1")
  args <- list(d$x, d$y, lambda_w = c(0.1, 0.01), eta = 1, lambda_v = 0.02, foldid = foldid,
               tol = 1e-7, progress = FALSE, path = FALSE, measure = "subset_accuracy")
  cv <- suppressWarnings(do.call(cv_mlcrf, c(args, list(rule = rules, keep = TRUE))))
  cv0 <- suppressWarnings(do.call(cv_mlcrf, args))
  expect_identical(cv$scored_by, "rules")
  expect_identical(cv$grid$rule, rep(rules, each = 2))
  # the decoder's column is the run without rules (MAP label sets)
  expect_equal(unname(cv$cvm[, , "decoder"]), unname(as.vector(cv0$cvm)), tolerance = 1e-12)
  keep <- cv$grid$rule != "decoder"
  ref <- vapply(which(keep), function(i) {
    S <- cv$oof[, , (i - 1) %% 2 + 1]
    mean(vapply(1:3, function(k) {
      tr <- foldid != k
      P <- ref_rule_decide(cv$grid$rule[i], S, d$y, tr, foldid == k,
                           oof_f1_cuts(S, d$y, tr))
      mean(rowSums(P != d$y[foldid == k, ]) == 0)
    }, 0))
  }, 0)
  expect_equal(unname(as.vector(cv$cvm))[keep], ref, tolerance = 1e-10)
  v <- as.vector(cv$cvm)
  expect_equal(v[cv$best], max(v))
  expect_identical(cv$rule_best, cv$grid$rule[cv$best])
  # one rule: the refit (pruned as without rules) predicts by it, learnt on all rows
  cv1 <- suppressWarnings(do.call(cv_mlcrf, c(args, list(rule = "rcut"))))
  expect_s3_class(cv1$fit, "ml_ruled")
  expect_identical(cv1$fit$edges, cv0$fit$edges)
  newx <- d$x[1:30, ]
  s <- predict(cv1, newx, type = "score")
  k <- floor(sum(colMeans(d$y)) + 0.5)
  ref <- t(apply(s, 1, function(r) seq_along(r) %in% order(-r)[seq_len(k)]))
  expect_identical(unname(predict(cv1, newx, type = "class")), ref)
  # the default measure with rules is macro F1; a measure of scores is refused
  cv2 <- suppressWarnings(cv_mlcrf(d$x, d$y, lambda_w = 0.05, eta = 1, lambda_v = 0.02,
                                   foldid = foldid, progress = FALSE, path = FALSE,
                                   rule = "fixed", prune = "none"))
  expect_identical(cv2$measure, "macro_f1")
  expect_error(cv_mlcrf(d$x, d$y, lambda_w = 0.05, eta = 1, lambda_v = 0.02, foldid = foldid,
                        progress = FALSE, path = FALSE, rule = "fixed", measure = "log_loss"),
               "'rule'")
  expect_error(cv_mlcrf(d$x, d$y, lambda_w = 0.05, eta = 1, lambda_v = 0.02, foldid = foldid,
                        progress = FALSE, path = FALSE, rule = "median"), "rule")
})

test_that("predict(cv, s = ) at another point prunes its refit as the chosen fit is pruned", {
  set.seed(12)
  d <- crf_ref_synthetic("chain", n = 150)
  x <- d$x
  y <- d$y
  lam <- c(0.2, 0.02, 0.002)
  cv <- suppressWarnings(cv_mlcrf(x, y, lambda_w = lam, eta = 1, lambda_v = 0.02, nfolds = 3,
                                  tol = 1e-9, progress = FALSE, path = FALSE, prune = "chisq"))
  expect_identical(cv$level, 0.001)  # the documented default level of the test per edge
  n <- nrow(x)
  for (l in setdiff(lam, cv$lambda_w_best)) {
    # reference: the unpruned refit at that point, the candidates of the
    # elimination, the least criterion of prune = "chisq" (each
    # kept edge's null quantile at level 0.001; ties: the sparser)
    full <- suppressWarnings(mlcrf(x, y, lambda_v = 0.02, lambda_w = l, eta = 1, tol = 1e-9))
    cand <- suppressWarnings(mlss:::mlcrf_ebic_candidates(full, x, y, 1e-9, 2000))
    nul <- mlss:::mlcrf_edge_null(full, x, y)
    pen <- nul[, "scale"] * qchisq(0.999, nul[, "df"])
    en <- paste(full$edges$from, full$edges$to)
    crit <- -2 * cand$pl + vapply(cand$fits, function(f)
      sum(pen[en %in% paste(f$edges$from, f$edges$to)]), 0)
    # (the elimination may stop early, after three graphs worse than the best)
    k <- max(which(crit == min(crit)))
    ref <- cand$fits[[k]]
    got <- suppressWarnings(cv$refit(data.frame(lambda_w = l, eta = 1)))
    expect_identical(got$edges[, c("from", "to")], ref$edges[, c("from", "to")])
    expect_equal(suppressWarnings(predict(cv, x[1:20, ], lambda_w = l, type = "score")),
                 predict(ref, x[1:20, ], type = "score"), tolerance = 1e-6)
  }
  # the chosen point: cv$fit is that pruned refit, cv$fit_cv the one before
  full <- suppressWarnings(mlcrf(x, y, lambda_v = 0.02, lambda_w = cv$lambda_w_best, eta = 1,
                                 tol = 1e-9))
  expect_equal(cv$fit_cv$theta, full$theta, tolerance = 1e-6)
})

test_that("a formula cv_mlcrf() keeps the formula parts in fit_cv too", {
  set.seed(13)
  d <- crf_ref_synthetic("chain", n = 120)
  df <- data.frame(d$x, y1 = d$y[, 1], y2 = d$y[, 2], y3 = d$y[, 3])
  # a transformed feature: only the formula's terms rebuild it from a data frame
  cv <- suppressWarnings(cv_mlcrf(cbind(y1, y2, y3) ~ X1 + X2 + I(X3^2) + X4 + X5 + X6,
                                  data = df, lambda_w = c(0.1, 0.01), eta = 1,
                                  lambda_v = 0.02, nfolds = 3, progress = FALSE, path = FALSE))
  expect_false(is.null(cv$fit_cv$terms))
  new <- df[1:10, rev(names(df))]
  m <- as.matrix(df[1:10, 1:6])
  m[, 3] <- m[, 3]^2
  colnames(m)[3] <- "I(X3^2)"
  expect_equal(predict(cv$fit_cv, new, type = "score"), predict(cv$fit_cv, m, type = "score"))
  expect_equal(predict(cv$fit, new, type = "score"), predict(cv$fit, m, type = "score"))
})

# The pruning's rule in plain R: the conditional log-odds of each label (as
# helper-mlcrf.R's gradient derives them from the potential tables) and the
# pseudo-log-likelihood of standardised-scale weights `th` on graph (from, to).
ref_prune_logits <- function(th, xs, y, from, to) {
  m <- ncol(y)
  pot <- cbind(1, xs) %*% th
  cfg <- list(c(0, 1), c(1, 0), c(1, 1))
  z <- pot[, seq_len(m), drop = FALSE]
  for (e in seq_along(from)) for (k in 1:3) {
    s <- cfg[[k]][1]; t <- cfg[[k]][2]; c <- pot[, m + (e - 1) * 3 + k]
    z[, from[e]] <- z[, from[e]] + c * (y[, to[e]] == t) * (2 * s - 1)
    z[, to[e]] <- z[, to[e]] + c * (y[, from[e]] == s) * (2 * t - 1)
  }
  z
}
ref_prune_pl <- function(th, xs, y, from, to) {
  z <- ref_prune_logits(th, xs, y, from, to)
  sum(y * plogis(z, log.p = TRUE) + (1 - y) * plogis(-z, log.p = TRUE))
}

# Backward elimination as ?cv_mlcrf states it: each graph refitted on all the
# rows by optim() (the refit's objective: - PL / n, the node ridges, the
# intercepts' 1e-6 and the edge ridge lambda_w (1 - min(eta, 0.999))), the
# weakest edge (least norm of its weights) dropped, down to no edge; the
# graph of least -2 PL + its edges' penalties `pen` (ties: the sparser).
ref_prune <- function(fit, x, y, pen) {
  xs <- crf_ref_standardise(x)
  y <- y + 0
  n <- nrow(x)
  m <- ncol(y)
  lv <- unname(fit$lambda_v)
  ridge <- fit$lambda_w * (1 - min(fit$eta, 1 - 1e-3))
  edges <- paste(fit$edges$from, fit$edges$to, sep = "~")
  th <- fit$theta
  p <- nrow(th)
  out <- list()
  repeat {
    from <- match(sub("~.*", "", edges), colnames(y))
    to <- match(sub(".*~", "", edges), colnames(y))
    obj <- function(v) {
      t <- matrix(v, p)
      V <- t[, seq_len(m), drop = FALSE]
      -ref_prune_pl(t, xs, y, from, to) / n + sum(lv * colSums(V[-1, , drop = FALSE]^2)) +
        1e-6 * sum(V[1, ]^2) + ridge * sum(t[, -seq_len(m)]^2)
    }
    gr <- function(v) as.vector(crf_ref_gradient(matrix(v, p), xs, y, from, to, 3, lv, 1e-6, ridge))
    o <- optim(as.vector(th), obj, gr, method = "BFGS",
               control = list(reltol = 1e-15, maxit = 5000))
    th <- matrix(o$par, p)
    out[[length(out) + 1L]] <- list(edges = edges, theta = th,
                                    crit = -2 * ref_prune_pl(th, xs, y, from, to) +
                                      sum(pen[edges]))
    if (!length(edges)) break
    strength <- vapply(seq_along(edges), function(e) sqrt(sum(th[, m + (e - 1) * 3 + 1:3]^2)), 0)
    drop <- which.min(strength)
    th <- th[, -(m + (drop - 1) * 3 + 1:3), drop = FALSE]
    edges <- edges[-drop]
  }
  crit <- vapply(out, `[[`, 0, "crit")
  out[[max(which(crit == min(crit)))]]
}

test_that("the pruning's candidates refitted to a looser tolerance keep the rule's graph", {
  # cv_mlcrf() refits the candidates to fold_tol, then those within
  # mlcrf_prune_slack of the least criterion to tol; reference: the rule in
  # plain R (ref_prune(): optim() refits, helper-mlcrf.R's gradient)
  sizes <- integer(0)
  for (design in c("chain", "complete", "independent")) for (seed in 1:2) {
    set.seed(seed)
    d <- crf_ref_synthetic(design, n = 200)
    fit <- suppressWarnings(mlcrf(d$x, d$y, lambda_v = 0.02, lambda_w = 0.002, eta = 0.5,
                                  edges = "full", tol = 1e-9))
    pen <- mlss:::mlcrf_chisq_penalty(fit, d$x, d$y, 0.01)
    names(pen) <- paste(fit$edges$from, fit$edges$to, sep = "~")
    ref <- ref_prune(fit, d$x, d$y, pen)
    for (cand_tol in c(1e-9, 1e-3)) {
      pr <- suppressWarnings(mlss:::mlcrf_ebic_prune(fit, d$x, d$y, 1e-9, 2000, 0.5,
                                                     level = 0.01, cand_tol = cand_tol))
      info <- paste(design, seed, cand_tol)
      expect_identical(paste(pr$fit$edges$from, pr$fit$edges$to, sep = "~"), ref$edges,
                       info = info)
      expect_equal(pr$fit$theta, ref$theta, tolerance = 1e-5, ignore_attr = TRUE, info = info)
    }
    sizes <- c(sizes, length(ref$edges))
  }
  expect_true(any(sizes == 0) && any(sizes > 0 & sizes < 3))  # the designs prune differently
})

test_that("the null per edge equals its plain-R reading from the Hessian and score blocks", {
  # mlcrf_edge_null() forms the blocks' products from weighted Grams; the
  # reference forms the blocks (checked against central differences above)
  # and follows ?cv_mlcrf: S = H_ee - H_en (H_nn + P_n)^-1 H_ne, the scores
  # with the nodes projected out, M = 2R - RSR, R = (S + P_e)^-1, the
  # weights the eigenvalues of M J
  set.seed(12)
  n <- 160
  x <- matrix(runif(n * 3, -1, 1), n, 3)
  y <- cbind(a = runif(n) < plogis(x[, 1]), b = runif(n) < 0.3, c = runif(n) < plogis(-x[, 2]),
             d = runif(n) < 0.6)
  for (edge_type in c("full", "ising")) {
    fit <- suppressWarnings(mlcrf(x, y, lambda_v = 0.05, lambda_w = 0.02, eta = 0.5,
                                  edges = "full", edge_type = edge_type, tol = 1e-9))
    ref <- t(vapply(mlcrf_edge_blocks(fit, x, y), function(b) {
      nd <- b$nodes
      ed <- b$edge
      Tn <- solve(b$H[nd, nd] + diag(b$ridge[nd]), b$H[nd, ed])
      S <- b$H[ed, ed] - b$H[ed, nd] %*% Tn
      Gp <- b$G[, ed] - b$G[, nd] %*% Tn
      R <- solve(S + diag(b$ridge[ed]))
      ev <- Re(eigen((2 * R - R %*% S %*% R) %*% crossprod(Gp), only.values = TRUE)$values)
      c(sum(ev), sum(ev^2) / sum(ev), sum(ev)^2 / sum(ev^2))
    }, numeric(3)))
    expect_equal(unname(mlss:::mlcrf_edge_null(fit, x, y)), ref, tolerance = 1e-8,
                 info = edge_type)
  }
})

test_that("cv_mlcrf's side-by-side steps return their values and say their warnings", {
  tasks <- list(a = function() {
    warning("a warns")
    1
  }, b = function() 2)
  for (parallel in list(FALSE, 2L)) {
    if (!isFALSE(parallel) && .Platform$OS.type == "windows") next
    expect_warning(out <- mlss:::mlcrf_side_by_side(tasks, parallel), "a warns")
    expect_identical(out, list(a = 1, b = 2))
  }
})

test_that("cv_mlcrf() says nothing of the grid's edge for eta at 0.25 or 1, and does at 0.5", {
  d <- crf_three_labels()
  X <- d$X
  Y <- d$Y
  msgs <- character()
  cv <- withCallingHandlers(
    cv_mlcrf(X, Y, lambda_w = c(0.2, 0.05), eta = c(0.25, 1), lambda_v = 0.01,
             foldid = rep(1:3, 30), progress = FALSE, prune = "none", path_stop = NULL),
    message = function(m) { msgs <<- c(msgs, conditionMessage(m)); invokeRestart("muffleMessage") })
  # either eta chosen is an end of this grid: 0.25 is the floor, 1 the limit
  expect_true(cv$eta_best %in% c(0.25, 1))
  expect_false(any(grepl("edge of the grid.*eta =", msgs)))
  # the engine's rule with cv_mlcrf()'s limits: 0.5 at the lower end is an edge
  g <- expand.grid(lambda_w = c(0.2, 0.05), eta = c(0.5, 1))
  lim <- list(eta = c(mlss:::mlcrf_eta_floor, 1))
  axes <- list(lambda_w = c(0.2, 0.05), eta = c(0.5, 1))
  expect_identical(unname(mlss:::grid_edge(g, axes, 1, lim)["eta"]), "smallest")
  expect_false("eta" %in% names(mlss:::grid_edge(g, axes, 4, lim)))
})
