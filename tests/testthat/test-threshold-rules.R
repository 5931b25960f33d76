# ml_decide() against plain-R readings of each rule's definition, on small
# data with ties placed on purpose.

decide_data <- function(seed = 1, n = 12, m = 4) {
  set.seed(seed)
  s <- matrix(round(runif(n * m), 1), n, m, dimnames = list(NULL, paste0("l", 1:m)))
  y <- matrix(runif(20 * m) < c(0.6, 0.3, 0.5, 0.1), 20, m, byrow = TRUE,
              dimnames = list(NULL, paste0("l", 1:m)))
  list(s = s, y = y)
}

test_that("fixed cuts predict the scores strictly above the cut", {
  d <- decide_data()
  p <- ml_decide(d$s, "fixed", threshold = 0.5)
  expect_identical(unname(p[, ]), unname(d$s > 0.5))   # 0.5 itself is not above
  expect_true(any(d$s == 0.5))
  thr <- c(l2 = 0.2, l1 = 0.9, l3 = 0.5, l4 = 0)
  p <- ml_decide(d$s, "fixed", threshold = thr)
  for (l in colnames(d$s)) expect_identical(unname(p[, l]), unname(d$s[, l] > thr[[l]]))
  expect_error(ml_decide(d$s, "fixed", threshold = 1:2), "'threshold' must be one number")
})

test_that("RCut takes the k highest scores of each row, ties in column order", {
  d <- decide_data(2)
  d$s[1, ] <- c(0.3, 0.7, 0.7, 0.7)              # a three-way tie for two places
  for (k in 0:4) {
    p <- ml_decide(d$s, "rcut", k = k)
    ref <- t(apply(d$s, 1, function(r) {
      # rank by score, then by position: count the labels that come first
      before <- vapply(seq_along(r), function(j) sum(r > r[j] | (r == r[j] & seq_along(r) < j)), 0)
      before < k
    }))
    expect_identical(unname(p[, ]), unname(ref))
  }
  expect_identical(unname(ml_decide(d$s, "rcut", k = 2)[1, ]), c(FALSE, TRUE, TRUE, FALSE))
  # k from the training cardinality
  card <- mean(rowSums(d$y))
  expect_identical(ml_decide(d$s, "rcut", y = d$y), ml_decide(d$s, "rcut", k = round(card)))
  expect_error(ml_decide(d$s, "rcut", k = 5), "'k' must be one whole number")
})

test_that("PCut gives each label its training share of the rows, ties in row order", {
  d <- decide_data(3)
  p <- ml_decide(d$s, "pcut", y = d$y)
  n <- nrow(d$s)
  for (l in seq_len(ncol(d$s))) {
    top <- floor(mean(d$y[, l]) * n + 0.5)
    r <- d$s[, l]
    before <- vapply(seq_len(n), function(i) sum(r > r[i] | (r == r[i] & seq_len(n) < i)), 0)
    expect_identical(unname(p[, l]), before < top)
    expect_identical(sum(p[, l]), as.integer(top))
  }
  expect_identical(ml_decide(d$s, "pcut", proportion = rep(0.25, 4)),
                   ml_decide(d$s, "pcut", proportion = 0.25))
})

test_that("MCut cuts each row at its largest gap, the first among equal gaps", {
  d <- decide_data(4)
  d$s[1, ] <- c(0.9, 0.5, 0.1, 0.5)              # gaps 0.4, 0, 0.4: the first
  d$s[2, ] <- 0.3                                 # no gap: nothing
  p <- ml_decide(d$s, "mcut")
  ref <- t(apply(d$s, 1, function(r) {
    v <- sort(unique(r), decreasing = TRUE)
    if (length(v) == 1) return(rep(FALSE, length(r)))
    gaps <- v[-length(v)] - v[-1]
    j <- which(gaps == max(gaps))[1]
    r >= v[j]
  }))
  expect_identical(unname(p[, ]), unname(ref))
  expect_identical(unname(p[1, ]), c(TRUE, FALSE, FALSE, FALSE))
  expect_false(any(p[2, ]))
  expect_error(ml_decide(d$s[, 1, drop = FALSE], "mcut"), "at least two labels")
})

test_that("LCard's cut brings the mean labels per row closest to the cardinality", {
  d <- decide_data(5)
  for (card in c(0, 0.4, 1.3, 2, 3.99, 4)) {
    p <- ml_decide(d$s, "lcard", cardinality = card)
    # every cut that splits no ties: above each distinct score, and below all
    cand <- c(Inf, sort(unique(as.vector(d$s)), decreasing = TRUE))
    means <- vapply(cand, function(t) mean(rowSums(d$s >= t & t < Inf)), 0)
    best <- cand[which.min(abs(means - card))]
    expect_identical(unname(p[, ]), unname(d$s >= best & best < Inf), info = card)
  }
  # two cuts equally close (0.5 and 1 label per row for 0.75): the higher
  tie <- cbind(a = c(0.9, 0.8), b = c(0.1, 0.2))
  expect_identical(unname(ml_decide(tie, "lcard", cardinality = 0.75)[, ]),
                   cbind(c(TRUE, FALSE), c(FALSE, FALSE)))
  expect_identical(ml_decide(d$s, "lcard", y = d$y),
                   ml_decide(d$s, "lcard", cardinality = mean(rowSums(d$y))))
})

test_that("SCut takes the F1 (or Hamming) cut of each label on training scores", {
  d <- decide_data(6)
  set.seed(6)
  tr <- matrix(round(runif(80), 2), 20, 4, dimnames = list(NULL, colnames(d$s)))
  p <- ml_decide(d$s, "scut", y = d$y, train_score = tr, level = 1)
  # plain F1 maximum over cuts at every training score (predict >= cut)
  for (l in 1:4) {
    cand <- sort(unique(tr[, l]), decreasing = TRUE)
    f1 <- vapply(cand, function(t) {
      pr <- tr[, l] >= t
      2 * sum(pr & d$y[, l]) / (sum(pr) + sum(d$y[, l]))
    }, 0)
    t <- cand[which.max(f1)]                      # the first maximum: the highest cut
    expect_identical(unname(p[, l]), unname(d$s[, l] >= t), info = l)
  }
  ph <- ml_decide(d$s, "scut", y = d$y, train_score = tr, measure = "hamming")
  for (l in 1:4) {
    cand <- c(Inf, sort(unique(tr[, l]), decreasing = TRUE))
    err <- vapply(cand, function(t) sum((tr[, l] >= t) != d$y[, l]), 0)
    t <- cand[which.min(err)]
    expect_identical(unname(ph[, l]), unname(d$s[, l] >= t), info = l)
  }
  expect_error(ml_decide(d$s, "scut", y = d$y), "needs the training labels 'y' and")
})

test_that("at_least_one gives an empty row its highest score's label", {
  d <- decide_data(7)
  d$s[3, ] <- c(0.2, 0.4, 0.4, 0.1)               # tie: the first
  p0 <- ml_decide(d$s, "fixed", threshold = 0.45)
  p1 <- ml_decide(d$s, "fixed", threshold = 0.45, at_least_one = TRUE)
  for (i in seq_len(nrow(d$s))) {
    if (any(p0[i, ])) {
      expect_identical(p1[i, ], p0[i, ])
    } else {
      r <- d$s[i, ]
      expect_identical(unname(p1[i, ]), seq_along(r) == which(r == max(r))[1])
    }
  }
  expect_identical(unname(p1[3, ]), c(FALSE, TRUE, FALSE, FALSE))
})

test_that("pcut with unnamed scores takes y's proportions by position", {
  set.seed(8)
  s <- matrix(runif(30), 10, 3)
  yy <- matrix(runif(30) > 0.5, 10, 3, dimnames = list(NULL, c("a", "b", "c")))
  expect_equal(unname(ml_decide(s, "pcut", y = yy)),
               unname(ml_decide(s, "pcut", proportion = unname(colMeans(yy)))))
})
