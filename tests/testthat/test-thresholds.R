# F1-maximising thresholds, on examples computed by hand (level = 1: the
# plain F1 maximum, without the chance rule, which small examples never pass).

test_that("the threshold maximises F1, half-way between scores", {
  # sorted scores .9(+) .8(-) .7(+) .3(-) .1(+): cutting after k = 1, 3, 5 gives
  # F1 = 2/4, 4/6, 6/8; the best is k = 5 (-Inf, everything predicted)
  res <- f1_thresholds(c(0.9, 0.8, 0.7, 0.3, 0.1), c(TRUE, FALSE, TRUE, FALSE, TRUE),
                       level = 1)
  expect_equal(unname(res$f1), 0.75)
  expect_identical(unname(res$threshold), -Inf)
  # .9(+) .8(+) .3(-) .2(+) .1(-): k = 2 gives 4/5, k = 4 gives 6/7 -> cut at .15
  res <- f1_thresholds(c(0.9, 0.8, 0.3, 0.2, 0.1), c(1, 1, 0, 1, 0), level = 1)
  expect_equal(unname(res$threshold), 0.15)
  expect_equal(unname(res$f1), 6 / 7)
})

test_that("ties in score are never split, ties in F1 go to the higher threshold", {
  # the two .5 scores (one +, one -) stay on the same side: k = 1 gives
  # F1 = 2/3, k = 3 gives 4/5 (k = 2 would give 1 but splits the tie)
  res <- f1_thresholds(c(0.9, 0.5, 0.5, 0.1), c(TRUE, TRUE, FALSE, FALSE), level = 1)
  expect_equal(unname(res$threshold), 0.3)
  expect_equal(unname(res$f1), 0.8)
  # cutting after k = 1 (F1 = 2/3) ties with predicting everything (k = 4,
  # F1 = 4/6): the higher threshold wins over -Inf
  res <- f1_thresholds(c(4, 3, 2, 1), c(TRUE, FALSE, FALSE, TRUE), level = 1)
  expect_equal(unname(res$f1), 2 / 3)
  expect_equal(unname(res$threshold), 3.5)
  # a tie between two interior cuts: .6(+) .5(-) .4(-) .3(+) .2(-) .1(-) gives
  # F1 = 2/3 after k = 1 and after k = 4 (4/6): 5.5 wins over 2.5
  res <- f1_thresholds(6:1, c(TRUE, FALSE, FALSE, TRUE, FALSE, FALSE), level = 1)
  expect_equal(unname(res$f1), 2 / 3)
  expect_identical(unname(res$threshold), 5.5)
  # the same in every column of a matrix, scores in any order
  s <- cbind(a = 6:1, b = c(1, 3, 2, 6, 4, 5))
  y <- cbind(c(TRUE, FALSE, FALSE, TRUE, FALSE, FALSE), c(FALSE, TRUE, FALSE, TRUE, FALSE, FALSE))
  expect_identical(f1_thresholds(s, y, level = 1)$threshold, c(a = 5.5, b = 5.5))
})

test_that("labels without positives or negatives get infinite thresholds", {
  s <- cbind(a = c(1, 2, 3), b = c(3, 2, 1))
  res <- f1_thresholds(s, cbind(c(FALSE, FALSE, FALSE), c(TRUE, TRUE, TRUE)))
  expect_identical(res$threshold, c(a = Inf, b = -Inf))
  expect_identical(res$f1, c(a = 1, b = 1))
})

test_that("the thresholds agree with a brute-force search", {
  set.seed(31)
  for (i in 1:20) {
    n <- sample(5:40, 1)
    s <- round(rnorm(n), 1)  # rounded: many ties
    y <- runif(n) < 0.4
    if (!any(y) || all(y)) next
    res <- f1_thresholds(s, y, level = 1)
    cuts <- c(sort(unique(s)) - 1e-9, max(s) + 1)
    f1 <- vapply(cuts, function(cut) {
      pred <- s > cut
      2 * sum(pred & y) / (sum(pred) + sum(y))
    }, numeric(1))
    expect_equal(unname(res$f1), max(f1))
    pred <- s > res$threshold
    expect_equal(2 * sum(pred & y) / (sum(pred) + sum(y)), max(f1))
    # the highest of the best cuts, half-way between scores (-Inf below them all)
    best <- max(which(abs(f1 - max(f1)) < 1e-12))
    u <- sort(unique(s))
    expect_equal(unname(res$threshold), if (best == 1) -Inf else (u[best - 1] + u[best]) / 2)
  }
})

# The rule, transcribed into plain R for one label: on the observed entries,
# the cut below each distinct score but the lowest (everything >= it
# predicted), the first (highest) of the best, half-way between the two
# scores unless that rounds onto the upper one; then "everything predicted"
# (-Inf) if strictly better and no score is -Inf; then the chance rule
# (chance_pvalue() below).  Bitwise the same doubles.  `rejected`: 1 when the
# chance rule sent the label to the majority rule.
f1_rule <- function(s, y, level = 0.05) {
  keep <- !is.na(y)
  s <- s[keep]
  y <- y[keep]
  npos <- sum(y)
  ntot <- length(y)
  ninf <- sum(s == -Inf)
  if (npos == 0) return(c(threshold = Inf, f1 = 1, rejected = 0))
  if (npos == ntot)
    return(c(threshold = -Inf, f1 = 2 * (ntot - ninf) / (ntot - ninf + npos), rejected = 0))
  u <- sort(unique(s), decreasing = TRUE)
  f1 <- vapply(seq_len(length(u) - 1), function(j) {
    pred <- s >= u[j]
    2 * sum(pred & y) / (sum(pred) + npos)
  }, 0)
  best <- -1
  thr <- -Inf
  if (length(f1)) {
    j <- which.max(f1)  # the first maximum: the highest cut
    best <- f1[j]
    thr <- u[j] / 2 + u[j + 1] / 2
    if (!(thr < u[j])) thr <- u[j + 1]
  }
  f1_all <- 2 * npos / (ntot + npos)
  if (ninf == 0 && f1_all > best) {
    best <- f1_all
    thr <- -Inf
  }
  keep <- level >= 1 || (best > f1_all &&
                           (ntot * npos > 1e8 || chance_pvalue(ntot, npos, best) <= level))
  if (keep) return(c(threshold = thr, f1 = best, rejected = 0))
  # the majority rule ("always" only when no score is -Inf)
  if (2 * npos >= ntot && ninf == 0) c(threshold = -Inf, f1 = f1_all, rejected = 1) else
    c(threshold = Inf, f1 = 0, rejected = 1)
}

# The probability that random ranks (the npos positives a random subset of
# the ntot ranks) have a cut, after t entries of which j are positive, with
# 2 j / (t + npos) >= best: the distribution of j over the paths that have
# not reached best, step by step (the brute-force test below checks it).
chance_pvalue <- function(ntot, npos, best) {
  pr <- c(1, rep(0, npos))  # pr[j + 1]: P(j positives so far, best not reached)
  reached <- 0
  for (t in seq_len(ntot)) {
    up <- pr * (npos - 0:npos) / (ntot - t + 1)
    pr <- pr - up + c(0, up[-(npos + 1)])
    hit <- 2 * (0:npos) / (t + npos) >= best & (0:npos) <= t & (0:npos) > 0
    reached <- reached + sum(pr[hit])
    pr[hit] <- 0
  }
  reached
}

f1_rule_matrix <- function(s, y, level = 0.05) {
  res <- vapply(seq_len(ncol(s)), function(l) f1_rule(s[, l], y[, l], level),
                c(threshold = 0, f1 = 0, rejected = 0))
  list(threshold = unname(res["threshold", ]), f1 = unname(res["f1", ]))
}

# Does the chance rule send the label (one column) to the majority rule on
# these rows?  Its plain F1 maximum against chance_pvalue(), as in f1_rule().
chance_rejects <- function(s, y, level = 0.05) f1_rule(s, y, level)[["rejected"]] == 1

# The out-of-fold thresholds as the engine must choose them (issue 22): the
# chance rule decides once per label, on all rows; a label it rejects there
# gets the all-rows fallback in every fold column, any other label each
# fold's plain F1 maximum (level 1) on the rows of the other folds; then
# the all-rows cut and its F1.
cv_rule_matrix <- function(s, y, foldid, nfolds, level = 0.05) {
  all <- f1_rule_matrix(s, y, level)
  rejected <- vapply(seq_len(ncol(s)), function(l) chance_rejects(s[, l], y[, l], level), NA)
  folds <- lapply(seq_len(nfolds), function(k) {
    keep <- foldid != k
    plain <- f1_rule_matrix(s[keep, , drop = FALSE], y[keep, , drop = FALSE], level = 1)
    ifelse(rejected, all$threshold, plain$threshold)
  })
  do.call(cbind, c(folds, list(all$threshold, all$f1)))
}

# A random problem of n rows and m labels: a share `rate` of positives, scores
# of the given kind (many are tie-heavy, with ties between positives and
# negatives), sometimes missing labels, infinite scores, a label with a single
# positive, or fold 1 holding every positive of label 1.
threshold_case <- function(n, m, rate, kind, nfolds) {
  y <- matrix(runif(n * m) < rate, n, m)
  if (runif(1) < 0.3) y[, m] <- seq_len(n) == sample.int(n, 1)  # one positive
  z <- matrix(rnorm(n * m), n) + 1.5 * y
  s <- switch(kind,
              normal = z,
              round = round(z, 1),
              int = matrix(sample(0:4, n * m, TRUE), n) + 0,
              few = matrix(sample(c(-1, 0, 2), n * m, TRUE), n) + 0,
              zeros = matrix(sample(c(-0, 0, 1, -1, 5e-324, -5e-324), n * m, TRUE), n),
              adjacent = matrix(1 + sample(0:3, n * m, TRUE) * 2^-52, n),
              huge = matrix(sample(c(-1.7e308, 1.7e308, 1.79e308, -1e308, 0), n * m, TRUE), n),
              inf = ifelse(matrix(runif(n * m) < 0.05, n), sample(c(-Inf, Inf), n * m, TRUE),
                           round(z, 1)))
  if (runif(1) < 0.25) y[sample(n * m, (n * m) %/% 8)] <- NA
  foldid <- sample(rep_len(seq_len(nfolds), n))
  if (runif(1) < 0.3) foldid[y[, 1] %in% TRUE] <- 1L
  list(s = s, y = y, foldid = as.integer(foldid), nfolds = as.integer(nfolds))
}

test_that("the thresholds equal a plain-R transcription of the rule on random problems", {
  set.seed(47)
  kinds <- c("normal", "round", "round", "int", "few", "zeros", "adjacent", "huge", "inf")
  for (i in 1:160) {
    rate <- sample(c(0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.6, 0.9), 1)
    cs <- threshold_case(sample(c(20:80, 150, 300), 1), sample(1:4, 1), rate,
                         sample(kinds, 1), sample(2:5, 1))
    label <- sprintf("case %d (rate %.2f)", i, rate)
    expect_identical(lapply(f1_thresholds(cs$s, cs$y), unname), f1_rule_matrix(cs$s, cs$y),
                     label = label)
    # cross-validation: column k chosen on the rows of the other folds, then
    # on all rows, with its F1; by one thread or two, and by the sorted route
    # (the chance rule decided once, on all rows: cv_rule_matrix())
    cv <- .Call(mlss:::C_cv_point_thresholds_call, cs$s, cs$y, cs$foldid, cs$nfolds, 1L, 0.05)
    expect_identical(cv, cv_rule_matrix(cs$s, cs$y, cs$foldid, cs$nfolds), label = label)
    # a label the rule keeps on all rows: each fold's plain maximum, as
    # f1_thresholds(level = 1) gives it; the last columns as f1_thresholds()
    all <- f1_thresholds(cs$s, cs$y)
    expect_identical(cv[, cs$nfolds + 1:2, drop = FALSE],
                     cbind(unname(all$threshold), unname(all$f1)), label = label)
    kept <- is.finite(all$threshold)
    for (k in seq_len(cs$nfolds)[any(kept)]) {
      keep <- cs$foldid != k
      expect_identical(cv[kept, k], unname(f1_thresholds(cs$s[keep, kept, drop = FALSE],
                                                          cs$y[keep, kept, drop = FALSE],
                                                          level = 1)$threshold), label = label)
    }
    expect_identical(.Call(mlss:::C_cv_point_thresholds_sorted_call, cs$s, cs$y, cs$foldid,
                           cs$nfolds, 1L, 0.05), cv, label = label)
    if (i %% 4 == 0)  # (a parallel region can cost a time slice on a busy machine)
      expect_identical(.Call(mlss:::C_cv_point_thresholds_call, cs$s, cs$y, cs$foldid,
                             cs$nfolds, 2L, 0.05), cv, label = label)
  }
})

test_that("the out-of-fold thresholds handle the corner cases of the fast route", {
  # scores: fold 1 rows 1-4, fold 2 rows 5-8, fold 3 rows 9-16 (so that few
  # positives take the route by positives, n / 5 and more take the sorted one)
  n <- 40
  foldid <- rep(c(1L, 2L, 3L, 3L, 3L), each = 8)
  base <- round(seq(2, -2, length.out = n), 1)
  y <- matrix(FALSE, n, 6)
  y[c(1, 3), 1] <- TRUE      # label 1: every positive in fold 1
  y[20, 2] <- TRUE           # label 2: a single positive
  y[n, 3] <- TRUE            # label 3: the lowest score is a positive
  y[c(2, 10, 30), 4] <- TRUE # label 4: positives tied with negatives of other folds
  y[c(5, 12, 25), 5] <- TRUE # label 5: duplicated values across folds
  y[, 6] <- seq_len(n) %% 2 == 0  # label 6: half positives, the sorted route
  s <- cbind(base, base, base, base, base, base)
  s[c(2, 10, 30, 11, 31, 12), 4] <- 0.5  # three positives and three negatives at 0.5
  s[c(5, 12, 25, 6, 13, 26), 5] <- rep(c(1, -1), each = 3)
  cv <- .Call(mlss:::C_cv_point_thresholds_call, s, y, foldid, 3L, 1L, 0.05)
  expect_identical(cv, cv_rule_matrix(s, y, foldid, 3L))
  expect_identical(cv[, 4], f1_rule_matrix(s, y)$threshold)
  expect_identical(cv[, 5], f1_rule_matrix(s, y)$f1)
  expect_identical(cv[1, 1], Inf)   # fold 1 left out: no positive
  # the lowest score positive: only "everything" reaches it, which is no
  # better than chance, so the single positive's label is never predicted
  expect_identical(cv[3, 4], Inf)
  expect_identical(cv, .Call(mlss:::C_cv_point_thresholds_sorted_call, s, y, foldid, 3L, 1L, 0.05))
})

test_that("realistic out-of-fold thresholds equal those of the sorted route", {
  set.seed(53)
  n <- 3000
  m <- 40
  y <- matrix(runif(n * m) < 0.02, n, m)
  s <- matrix(rnorm(n * m), n) + y
  foldid <- sample(rep_len(1:5, n))
  for (threads in 1:2)
    expect_identical(.Call(mlss:::C_cv_point_thresholds_call, s, y, foldid, 5L, threads, 0.05),
                     .Call(mlss:::C_cv_point_thresholds_sorted_call, s, y, foldid, 5L, 1L, 0.05))
  expect_identical(.Call(mlss:::C_cv_point_thresholds_call, s, y, foldid, 5L, 1L, 0.05)[1:3, ],
                   cv_rule_matrix(s[, 1:3], y[, 1:3], foldid, 5L))
})

test_that("the chance rule keeps a cut only when random ranks rarely reach its F1", {
  # one positive at rank r among n distinct scores: its best cut has
  # F1 = 2 / (r + 1), which a random rank R reaches when R <= r, so the
  # probability is r / n exactly
  n <- 100
  s <- n:1
  for (r in c(5, 6, 30)) {
    y <- seq_len(n) == r
    kept <- (s[r] + s[r + 1]) / 2
    expect_identical(unname(f1_thresholds(s, y, level = r / n + 0.001)$threshold), kept)
    expect_equal(unname(f1_thresholds(s, y, level = r / n + 0.001)$f1), 2 / (r + 1))
    res <- f1_thresholds(s, y, level = r / n - 0.001)
    expect_identical(unname(res$threshold), Inf)  # fewer than half positive: never
    expect_identical(unname(res$f1), 0)
  }
  # the default level is 0.05: rank 5 of 100 passes, rank 6 does not
  expect_identical(unname(f1_thresholds(s, seq_len(n) == 5)$threshold), 95.5)
  expect_identical(unname(f1_thresholds(s, seq_len(n) == 6)$threshold), Inf)
})

test_that("the chance rule is exact beyond 100 positives, on a fold as on all rows", {
  # scores without information, 107 positives among 391 rows (emotions'
  # happy-pleased in Mulan's training part): the best cut beats the F1 of
  # predicting every row, 2p / (1 + p), as the best of many cuts always does,
  # but random ranks reach it often: the exact rule never predicts the label,
  # on all rows as on four fifths of them (up to mlss 0.1.0 the rule switched
  # to that lenient test above 100 positives: cross-validation measured
  # "never" where the refit cut the scores)
  set.seed(3)
  n <- 391
  y <- seq_len(n) %in% sample.int(n, 107)
  s <- runif(n)
  plain <- f1_thresholds(s, y, level = 1)
  expect_gt(unname(plain$f1), 2 * 107 / (n + 107))
  expect_gt(chance_pvalue(n, 107, unname(plain$f1)), 0.05)
  expect_identical(unname(f1_thresholds(s, y)$threshold), Inf)
  expect_identical(unname(f1_thresholds(s, y)$threshold), unname(f1_rule(s, y)[["threshold"]]))
  fold <- rep_len(1:5, n)
  cv <- .Call(mlss:::C_cv_point_thresholds_call, matrix(s), matrix(y), fold, 5L, 1L, 0.05)
  expect_identical(as.vector(cv[1, 1:6]), rep(Inf, 6))
  # an informative label of as many positives keeps its cut
  s2 <- s + 0.6 * y
  expect_true(is.finite(f1_thresholds(s2, y)$threshold))
})

test_that("the chance rule decides once, on all rows, for every fold's cut", {
  # labels whose decision on the rows of some fold's complement differs
  # from the one on all rows, in both directions: the fold follows all rows
  set.seed(61)
  found <- c(fold_keeps = 0, fold_rejects = 0)
  for (i in 1:300) {
    n <- 60
    npos <- sample(3:12, 1)
    y <- seq_len(n) %in% sample.int(n, npos)
    s <- round(rnorm(n) + runif(1, 0, 1.2) * y, 2)
    foldid <- sample(rep_len(1:3, n))
    all_rejects <- chance_rejects(s, y)
    fold_rejects <- vapply(1:3, function(k) chance_rejects(s[foldid != k], y[foldid != k]), NA)
    # (a fold whose complement holds no positive has no rule to decide)
    some <- vapply(1:3, function(k) any(y[foldid != k]), NA)
    differ <- which(fold_rejects != all_rejects & some)
    if (!length(differ)) next
    cv <- .Call(mlss:::C_cv_point_thresholds_call, matrix(s), matrix(y), foldid, 3L, 1L, 0.05)
    for (k in differ) {
      keep <- foldid != k
      plain <- unname(f1_thresholds(s[keep], y[keep], level = 1)$threshold)
      if (all_rejects) {  # the fold's own rule would keep its cut: it falls back too
        found["fold_keeps"] <- found["fold_keeps"] + 1
        expect_identical(cv[1, k], unname(f1_thresholds(s, y)$threshold))
        expect_false(identical(cv[1, k], plain))
      } else {            # the fold's own rule would fall back: it keeps its cut
        found["fold_rejects"] <- found["fold_rejects"] + 1
        expect_identical(cv[1, k], plain)
        expect_false(identical(cv[1, k], unname(f1_thresholds(s[keep], y[keep])$threshold)))
      }
    }
  }
  expect_true(all(found >= 3))
})

test_that("the chance rule's probability equals a brute-force enumeration of the ranks", {
  # every placement of npos positives among ntot ranks, the best F1 of its
  # cuts; the observed F1 is kept at a level just above the share of
  # placements that reach it and dropped just below
  set.seed(59)
  for (ntot in c(7, 10)) for (npos in 1:4) {
    sets <- utils::combn(ntot, npos)
    best_of <- apply(sets, 2, function(ranks) {
      j <- cumsum(seq_len(ntot) %in% ranks)
      max(2 * j / (seq_len(ntot) + npos))
    })
    for (k in sample(ncol(sets), min(6, ncol(sets)))) {
      y <- seq_len(ntot) %in% sets[, k]
      s <- as.double(ntot:1)
      plain <- f1_thresholds(s, y, level = 1)
      p <- mean(best_of >= unname(plain$f1) - 1e-12)
      lab <- sprintf("%d of %d at %s", npos, ntot, paste(sets[, k], collapse = ","))
      if (!(plain$f1 > 2 * npos / (ntot + npos))) {
        p <- 1  # not above predicting everything: never kept
      } else {
        expect_identical(f1_thresholds(s, y, level = p + 1e-9), plain, label = lab)
      }
      if (p > 1e-6) {
        fallback <- f1_thresholds(s, y, level = p - 1e-9)
        always <- 2 * npos >= ntot
        expect_identical(unname(fallback$threshold), if (always) -Inf else Inf, label = lab)
        expect_equal(unname(fallback$f1), if (always) 2 * npos / (ntot + npos) else 0,
                     label = lab)
      }
    }
  }
})

test_that("level is checked", {
  expect_error(f1_thresholds(1:3, c(TRUE, FALSE, TRUE), level = -1), "'level' must be")
  expect_error(f1_thresholds(1:3, c(TRUE, FALSE, TRUE), level = NA), "'level' must be")
})

test_that("inputs are checked", {
  expect_error(f1_thresholds(c(1, NA), c(TRUE, FALSE)), "'score' contains NA")
  expect_error(f1_thresholds(c(1, 2), c(TRUE, FALSE, TRUE)), "has 2 rows but 'y' has 3")
  expect_error(f1_thresholds(matrix(1:4, 2), c(TRUE, FALSE)), "same number of columns")
})

# Brute force for Hamming loss: every candidate cut (never, below each
# distinct score, always), the misclassified entries of each, and the
# highest of the best.
hamming_brute <- function(s, y) {
  keep <- !is.na(y)
  s <- s[keep]
  y <- y[keep]
  u <- sort(unique(s), decreasing = TRUE)
  cuts <- c(Inf, if (length(u) > 1) (u[-length(u)] + u[-1]) / 2, -Inf)
  errors <- vapply(cuts, function(cut) sum((s > cut) != y), 0)
  cuts[which(errors == min(errors))[1]]
}

test_that("Hamming cuts minimise each label's misclassified entries (brute force)", {
  set.seed(61)
  for (i in 1:200) {
    n <- sample(c(1:6, 10, 30, 80), 1)
    rate <- sample(c(0.05, 0.3, 0.5, 0.8), 1)
    y <- matrix(runif(n * 3) < rate, n, 3)
    s <- round(matrix(rnorm(n * 3), n) + 1.2 * y, sample(0:2, 1))  # ties
    if (runif(1) < 0.2) y[sample(n * 3, n)] <- NA
    res <- mlss:::hamming_thresholds(s, y)
    for (l in 1:3) {
      obs <- !is.na(y[, l])
      errors <- function(cut) sum((s[obs, l] > cut) != y[obs, l])
      ref <- hamming_brute(s[, l], y[, l])
      lab <- sprintf("case %d label %d", i, l)
      expect_identical(errors(res$threshold[l]), errors(ref), label = lab)
      # the highest best cut: the same predictions as the brute force's
      expect_identical(s[obs, l] > res$threshold[l], s[obs, l] > ref, label = lab)
      pred <- s[obs, l] > res$threshold[l]
      truth <- y[obs, l]
      f1 <- if (!any(truth) && !any(pred)) 1 else 2 * sum(pred & truth) / (sum(pred) + sum(truth))
      expect_equal(res$f1[l], f1, label = lab)
    }
  }
  # a single positive at the top: cut just below it; at the bottom: never
  expect_identical(mlss:::hamming_thresholds(cbind(4:1), cbind(c(TRUE, FALSE, FALSE, FALSE)))$threshold, 3.5)
  expect_identical(mlss:::hamming_thresholds(cbind(4:1), cbind(c(FALSE, FALSE, FALSE, TRUE)))$threshold, Inf)
  # mostly positive and uninformative: always
  expect_identical(mlss:::hamming_thresholds(cbind(4:1), cbind(c(FALSE, TRUE, TRUE, TRUE)))$threshold, -Inf)
})

# The chance rule's level as a user setting: the option mlss.chance_level
# reaches every threshold the package chooses.  The reference is the plain F1
# maximum by brute force over every cut (never, half-way between distinct
# scores, always), the highest of the best.
f1_brute <- function(s, y) {
  u <- sort(unique(s), decreasing = TRUE)
  cuts <- c(Inf, if (length(u) > 1) u[-length(u)] / 2 + u[-1] / 2, -Inf)
  f1 <- vapply(cuts, function(cut) {
    p <- s > cut
    if (!any(p) && !any(y)) 1 else 2 * sum(p & y) / (sum(p) + sum(y))
  }, 0)
  best <- which(f1 == max(f1))[1]
  c(threshold = cuts[best], f1 = f1[best])
}
f1_brute_matrix <- function(S, Y) vapply(seq_len(ncol(S)), function(l) f1_brute(S[, l], Y[, l]), c(0, 0))
# The plain-R macro F1 of predictions P against Y (a label neither present
# nor predicted counts 1, as ml_metrics() documents).
macro_f1_ref <- function(Y, P) mean(vapply(seq_len(ncol(Y)), function(l) {
  if (!any(Y[, l]) && !any(P[, l])) 1 else 2 * sum(Y[, l] & P[, l]) / (sum(Y[, l]) + sum(P[, l]))
}, 0))

# Label a informative (about 30 positives, clearly beating chance); label b
# three random positives: its best cut is no better than chance at 0.05, so
# the default drops it everywhere.  Y3 adds label c, random with more
# positives (above n / 5: the sorted route of the out-of-fold cuts), whose
# cuts the default keeps on some folds and drops on others.
chance_case <- function() {
  set.seed(1)
  n <- 60
  X <- matrix(rnorm(n * 3), n)
  Y <- cbind(a = X[, 1] + 0.3 * rnorm(n) > 0, b = seq_len(n) %in% sample(n, 3))
  list(X = X, Y = Y, Y3 = cbind(Y, c = runif(n) < 0.4), foldid = rep(1:3, 20))
}

# options(mlss.chance_level = value) until the calling test ends (base R's
# on.exit() in the caller's frame: withr is not among the package's Suggests).
local_chance_level <- function(value, envir = parent.frame()) {
  old <- options(mlss.chance_level = value)
  do.call(on.exit, list(bquote(options(.(old))), add = TRUE, after = FALSE), envir = envir)
  invisible(old)
}

test_that("options(mlss.chance_level = 1) gives the plain F1 maximum in mlls() and br()", {
  p <- chance_case()
  local_chance_level(1)
  fit <- mlls(p$X, p$Y3, alpha = 0.1, beta = 1, r = 1)
  ref <- f1_brute_matrix(predict(fit, p$X, type = "score"), p$Y3)
  expect_equal(unname(fit$thresholds), ref[1, ])
  expect_true(is.finite(fit$thresholds[["b"]]))  # the cut the rule would drop
  fit <- br(p$X, p$Y3)
  ref <- f1_brute_matrix(predict(fit, p$X, type = "score"), p$Y3)
  expect_equal(unname(fit$thresholds), ref[1, ])
  expect_equal(unname(fit$train_f1), ref[2, ])
  expect_true(is.finite(fit$thresholds[["b"]]))
  expect_equal(unname(f1_thresholds(predict(fit, p$X, type = "score"), p$Y3)$threshold), ref[1, ])
})

test_that("by default a label whose cut is no better than chance is never predicted", {
  p <- chance_case()
  local_chance_level(NULL)  # unset: the default, 0.05
  for (fit in list(mlls(p$X, p$Y, alpha = 0.1, beta = 1, r = 1), br(p$X, p$Y))) {
    expect_identical(fit$thresholds[["b"]], Inf)
    expect_false(any(predict(fit, p$X, type = "class")[, "b"]))
    ref <- f1_brute(predict(fit, p$X, type = "score")[, "a"], p$Y[, "a"])
    expect_equal(fit$thresholds[["a"]], ref[["threshold"]])  # a clearly beats chance
  }
  expect_identical(f1_thresholds(predict(fit, p$X, type = "score"), p$Y)$threshold[["b"]], Inf)
  options(mlss.chance_level = 0.05)
  expect_identical(br(p$X, p$Y)$thresholds, fit$thresholds)
})

test_that("the option reaches cv_mlls()'s out-of-fold and training thresholds", {
  p <- chance_case()
  run <- function(Y, thresholds) cv_mlls(p$X, Y, alpha = 0.1, beta = 1, r = 1,
                                         foldid = p$foldid, thresholds = thresholds,
                                         keep = TRUE, progress = FALSE)
  # the measure of each fold at the reference cuts: the brute force on the
  # other folds' scores ("oof") or on the fold model's training scores
  # ("train"); with the default, label b's cut is never (no better than
  # chance on any fold)
  fold_ref <- function(cv, Y, thresholds, drop_b) vapply(1:3, function(k) {
    va <- p$foldid == k
    S <- if (thresholds == "oof") cv$oof[!va, , 1] else
      predict(mlls(p$X[!va, ], Y[!va, ], alpha = 0.1, beta = 1, r = 1), p$X[!va, ],
              type = "score")
    thr <- f1_brute_matrix(S, Y[!va, ])[1, ]
    if (drop_b) thr[2] <- Inf
    macro_f1_ref(Y[va, ], cv$oof[va, , 1] > rep(thr, each = sum(va)))
  }, 0)
  for (thresholds in c("oof", "train")) {
    local_chance_level(1)
    cv <- run(p$Y3, thresholds)
    expect_equal(unname(cv$cvfold[1, ]), fold_ref(cv, p$Y3, thresholds, FALSE),
                 label = thresholds)
    final <- if (thresholds == "oof") cv$oof[, , 1] else predict(cv$fit, p$X, type = "score")
    expect_equal(unname(cv$fit$thresholds), f1_brute_matrix(final, p$Y3)[1, ],
                 label = thresholds)
    expect_true(is.finite(cv$fit$thresholds[["b"]]))
    options(mlss.chance_level = NULL)
    cv <- run(p$Y, thresholds)
    expect_equal(unname(cv$cvfold[1, ]), fold_ref(cv, p$Y, thresholds, TRUE),
                 label = thresholds)
    expect_identical(cv$fit$thresholds[["b"]], Inf)
    expect_false(any(predict(cv, p$X, type = "class")[, "b"]))
  }
})

test_that("an invalid mlss.chance_level is an error that names the option", {
  p <- chance_case()
  for (bad in list(-0.1, 1.5, NA_real_, c(0.01, 0.05), "0.05", TRUE)) {
    local_chance_level(bad)
    msg <- "the option 'mlss.chance_level' must be one number in \\[0, 1\\]"
    expect_error(mlls(p$X, p$Y, alpha = 0.1, beta = 1, r = 1), msg)
    expect_error(br(p$X, p$Y), msg)
    expect_error(cv_mlls(p$X, p$Y, alpha = 0.1, beta = 1, r = 1, foldid = p$foldid,
                         progress = FALSE), msg)
    expect_error(f1_thresholds(p$X, unname(p$Y[, c(1, 2, 1)])), msg)
  }
  expect_error(f1_thresholds(1:3, c(TRUE, FALSE, TRUE), level = 2),
               "'level' must be one number in \\[0, 1\\]")
})

test_that("future workers choose their thresholds at the session's level", {
  skip_if_not_installed("future.apply")
  local_chance_level(1)
  oplan <- future::plan(future::multisession, workers = 2)
  on.exit(future::plan(oplan), add = TRUE)
  p <- chance_case()
  # a worker's own fit (br()'s training thresholds): the plain F1 maximum
  res <- mlss:::fold_apply(1:2, function(k) {
    c(getOption("mlss.chance_level"), br(p$X, p$Y)$thresholds[["b"]])
  }, TRUE, NULL)
  expect_identical(res[[1]], c(1, unname(br(p$X, p$Y)$thresholds[["b"]])))
  expect_true(is.finite(res[[2]][2]))
})
