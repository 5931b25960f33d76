# LP and PS against an explicit enumeration of the label sets in plain R,
# with the same class model (br()'s logistic regression on each set's
# indicator), so that the transformation, not the solver, is under test.

lp_problem <- function(seed = 1, n = 60, m = 3) labelset_problem(seed, n, m = m)

# lp_reference(): helper-label-powerset.R

test_that("LP predicts the label set of the most probable class, and the marginals", {
  pr <- lp_problem()
  fit <- lp(pr$x, pr$y, cost = 0.5)
  ref <- lp_reference(pr$x, pr$y, pr$newx, cost = 0.5)
  expect_identical(unname(fit$sets), unname(ref$sets))
  # type = "prob": p(y | x) of given label vectors; the class probabilities
  # are those of the classes' sets, and a set that is no class has 0
  n <- nrow(pr$newx)
  P <- vapply(seq_len(nrow(fit$sets)), function(k)
    predict(fit, pr$newx, type = "prob", y = fit$sets[rep(k, n), , drop = FALSE]), numeric(n))
  expect_equal(unname(P), unname(ref$P), tolerance = 1e-12)
  # a fit on few rows has fewer classes than the 8 label sets
  few <- lp(pr$x[1:8, ], pr$y[1:8, ], cost = 0.5)
  keys <- apply(expand.grid(0:1, 0:1, 0:1), 1, paste, collapse = "")
  unseen <- setdiff(keys, rownames(few$sets))
  expect_gt(length(unseen), 0)
  v <- strsplit(unseen[1], "")[[1]] == "1"
  pv <- predict(few, pr$newx, type = "prob",
                y = matrix(v, n, 3, byrow = TRUE, dimnames = list(NULL, colnames(pr$y))))
  expect_identical(unname(pv), numeric(n))
  pk <- predict(few, pr$newx, type = "prob", y = few$sets[rep(1, n), , drop = FALSE])
  expect_true(all(pk > 0))
  # y matched by name: the same vectors in another column order
  yk <- fit$sets[rep(2, n), , drop = FALSE]
  expect_equal(predict(fit, pr$newx, type = "prob", y = yk[, 3:1]), P[, 2], ignore_attr = TRUE)
  # the class-probability view of the pipeline: the marginals are P %*% sets
  expect_equal(unname(predict(fit, pr$newx, type = "score")), unname(P %*% (fit$sets + 0)),
               tolerance = 1e-12)
  expect_s3_class(fit, "ml_fit")
  expect_identical(fit$decoder, "most probable set")
  cls <- predict(fit, pr$newx)
  expect_identical(unname(cls), unname(ref$class))
  expect_identical(colnames(cls), colnames(pr$y))
  sc <- predict(fit, pr$newx, type = "score")
  expect_equal(unname(sc), unname(ref$score), tolerance = 1e-12)
  expect_identical(colnames(sc), colnames(pr$y))
  # every predicted set was seen in training
  seen <- apply(pr$y + 0, 1, paste, collapse = "")
  expect_true(all(apply(cls + 0, 1, paste, collapse = "") %in% seen))
})

test_that("LP works through the formula and the data-set interfaces", {
  pr <- lp_problem(2)
  df <- data.frame(pr$x, pr$y)
  f1 <- lp(cbind(l1, l2, l3) ~ ., data = df)
  f2 <- lp(pr$x, pr$y)
  expect_equal(predict(f1, data.frame(pr$newx), type = "score"),
               predict(f2, pr$newx, type = "score"), ignore_attr = TRUE, tolerance = 1e-12)
  expect_output(print(f1), "Label powerset")
  one <- lp(pr$x, matrix(TRUE, 60, 2, dimnames = list(NULL, c("a", "b"))))
  expect_true(all(predict(one, pr$newx)))
  expect_error(lp(pr$x, replace(pr$y, 1, NA)), "contains NA")
})

# Plain-R pruned sets: drop the sets with fewer than p examples; each pruned
# example comes back with its frequent proper non-empty subsets, ranked by
# size then count (A: the top b; B: those with more than b labels).
ps_reference_rows <- function(y, p, b, strategy) {
  key <- apply(y + 0, 1, paste, collapse = "")
  cnt <- table(key)
  keep <- as.vector(cnt[key]) >= p
  freq <- unique(key[keep])
  fy <- y[match(freq, key), , drop = FALSE]
  rows <- which(keep)
  lab <- y[keep, , drop = FALSE]
  for (i in which(!keep)) {
    cand <- which(vapply(seq_along(freq), function(k)
      sum(fy[k, ]) > 0 && sum(fy[k, ]) < sum(y[i, ]) && all(!fy[k, ] | y[i, ]), NA))
    if (strategy == "A") {
      o <- order(-rowSums(fy[cand, , drop = FALSE]), -as.vector(cnt[freq[cand]]), cand)
      cand <- head(cand[o], b)
    } else {
      cand <- cand[rowSums(fy[cand, , drop = FALSE]) > b]
    }
    rows <- c(rows, rep(i, length(cand)))
    lab <- rbind(lab, fy[cand, , drop = FALSE])
  }
  list(row = rows, y = lab)
}

test_that("PS prunes rare label sets and reintroduces frequent subsets (A and B)", {
  pr <- lp_problem(3, n = 80, m = 4)
  pr$y[1:3, ] <- matrix(c(TRUE, TRUE, TRUE, FALSE), 3, 4, byrow = TRUE)   # a frequent {l1,l2,l3}
  pr$y[4, ] <- TRUE                                                       # a rare superset
  pr$y[5:7, ] <- FALSE                                 # a frequent empty set, never reintroduced
  for (st in c("A", "B")) for (b in 0:2) {
    r <- mlss:::pruned_rows(pr$y, 3, b, st)
    ref <- ps_reference_rows(pr$y, 3, b, st)
    expect_identical(r$row, ref$row, info = paste(st, b))
    expect_identical(unname(r$y), unname(ref$y), info = paste(st, b))
    if (st == "A" && b > 0) expect_gt(length(ref$row), nrow(pr$y) - 3L)  # copies came back
  }
  fit <- ps(pr$x, pr$y, p = 3, b = 1)
  rr <- ps_reference_rows(pr$y, 3, 1, "A")
  ref <- lp_reference(pr$x[rr$row, ], rr$y, pr$newx)
  expect_identical(unname(predict(fit, pr$newx)), unname(ref$class))
  expect_equal(unname(predict(fit, pr$newx, type = "score")), unname(ref$score),
               tolerance = 1e-12)
  expect_identical(sum(fit$counts), length(rr$row))
  expect_identical(fit$pruned, 3L)
  expect_identical(fit$added, length(rr$row) - (nrow(pr$y) - fit$pruned))
  expect_gt(fit$added, 0L)
  expect_output(print(fit), "Pruned sets")
  expect_error(ps(pr$x, pr$y, p = 1000), "lower 'p'")
  expect_error(ps(pr$x, pr$y, b = -1), "'b' must be")
})

test_that("cv_lp cross-validates the cost of the class model on the engine", {
  pr <- lp_problem(5)
  foldid <- rep_len(1:3, 60)
  cv <- suppressMessages(cv_lp(pr$x, pr$y, cost = c(1, 0.1), foldid = foldid,
                               progress = FALSE))
  # a measure of label sets on LP's own label sets (its decoder), fold by
  # fold: the fold's macro F1 of predict(type = "class") of the fold's fit
  ref <- sapply(c(0.1, 1), function(cost) mean(sapply(1:3, function(k) {
    tr <- foldid != k
    f <- lp(pr$x[tr, ], pr$y[tr, ], cost = cost)
    ml_metrics(pr$y[!tr, ], pred = predict(f, pr$x[!tr, ]), measures = "macro_f1")$macro_f1
  })))
  expect_equal(unname(cv$cvm), ref, tolerance = 1e-12)
  expect_identical(cv$scored_by, "decoder")
  expect_identical(cv$grid$cost, c(0.1, 1))
  expect_s3_class(cv$fit, "lp")
  expect_s3_class(cv, "cv_lp")
  # the refit keeps no thresholds: its class is the decoder's
  expect_null(cv$fit$thresholds)
  expect_identical(predict(cv, pr$x[1:5, ]), predict(cv$fit, pr$x[1:5, ]))
  # a ranking measure is taken on the marginals
  cvr <- suppressMessages(cv_lp(pr$x, pr$y, cost = 1, foldid = foldid,
                                measure = "average_precision", progress = FALSE))
  expect_true(is.finite(cvr$cvm))
  expect_error(cv_lp(pr$x, pr$y, cost = -1), "'cost' must be")
})
