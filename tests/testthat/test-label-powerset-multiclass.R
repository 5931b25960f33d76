# Multi-class learners in lp(), ps() and rakel(), the 0/0 guard of the class
# probabilities, RAkEL's repeated subsets, and ECC's random subspaces: each
# against a plain-R computation.

# A user's multi-class learner written as ml_learner() documents it: nearest
# class centroids, probabilities from the squared distances (softmax of
# -distance).  `log` (an environment) records each fit's y.
centroid_learner <- function(log = NULL) {
  ml_learner("centroids",
    fit = function(x, y) {
      if (!is.null(log)) log$y <- c(log$y, list(y))
      cls <- if (is.factor(y)) y else factor(y, levels = c(FALSE, TRUE))
      list(mu = rowsum(x, cls) / as.vector(table(cls)), multi = is.factor(y))
    },
    predict = function(model, newx) {
      P <- centroid_probs(model$mu, newx)
      if (model$multi) P else P[, "TRUE"]
    },
    multiclass = TRUE)
}
centroid_probs <- function(mu, newx) {
  d2 <- sapply(rownames(mu), function(k) colSums((t(newx) - mu[k, ])^2))
  d2 <- matrix(d2, nrow(newx), dimnames = list(NULL, rownames(mu)))
  P <- exp(-(d2 - apply(d2, 1, min)))
  P / rowSums(P)
}

# centroid_learner() whose class-probability matrices pass through
# alter(P, newx): a learner that misbehaves in one stated way.
altered_centroid_learner <- function(alter) {
  learner <- centroid_learner()
  inner <- learner$predict
  learner$predict <- function(model, newx) {
    P <- inner(model, newx)
    if (is.matrix(P)) alter(P, newx) else P
  }
  learner
}

# Plain-R LP with the centroid model: classes = distinct label sets (most
# frequent first, then first seen), one centroid per class, the most
# probable class's set and the label marginals.
centroid_lp_reference <- function(x, y, newx) {
  keys <- apply(y + 0, 1, paste, collapse = "")
  first <- unique(keys)
  cnt <- as.vector(table(keys)[first])
  classes <- first[order(-cnt, seq_along(first))]
  sets <- y[match(classes, keys), , drop = FALSE]
  mu <- t(sapply(classes, function(k) colMeans(x[keys == k, , drop = FALSE])))
  P <- centroid_probs(mu, newx)
  list(class = sets[max.col(P, ties.method = "first"), , drop = FALSE],
       score = P %*% (sets + 0), P = P, classes = classes)
}

test_that("lp() with a user's multi-class learner is one multi-class fit on the label sets", {
  pr <- labelset_problem(seed = 3)
  log <- new.env()
  fit <- lp(pr$x, pr$y, learner = centroid_learner(log))
  ref <- centroid_lp_reference(pr$x, pr$y, pr$newx)
  # one fit, y the factor of the classes, every level with rows
  expect_length(log$y, 1)
  expect_true(is.factor(log$y[[1]]))
  expect_equal(levels(log$y[[1]]), ref$classes)
  expect_true(all(table(log$y[[1]]) > 0))
  expect_equal(unname(predict(fit, pr$newx) + 0), unname(ref$class + 0))
  expect_equal(unname(predict(fit, pr$newx, type = "score")), unname(ref$score),
               tolerance = 1e-12)
  # the probability of each class's own label set is that class's p_k(x)
  k <- 2
  yk <- fit$sets[rep(k, nrow(pr$newx)), , drop = FALSE]
  expect_equal(unname(predict(fit, pr$newx, type = "prob", y = yk)), unname(ref$P[, k]),
               tolerance = 1e-12)
  expect_output(print(fit), "one multi-class model by learner 'centroids'")
})

test_that("the multi-class learner's columns are matched to the classes by name", {
  pr <- labelset_problem(seed = 4)
  rev_learner <- altered_centroid_learner(function(P, newx)
    P[, rev(seq_len(ncol(P))), drop = FALSE])
  fit <- lp(pr$x, pr$y, learner = rev_learner)
  ref <- centroid_lp_reference(pr$x, pr$y, pr$newx)
  expect_equal(unname(predict(fit, pr$newx, type = "score")), unname(ref$score),
               tolerance = 1e-12)
  # a predict that gives no class names is refused
  bad <- altered_centroid_learner(function(P, newx) unname(P))
  fit2 <- lp(pr$x, pr$y, learner = bad)
  expect_error(predict(fit2, pr$newx), "column names")
})

test_that("ps() and rakel() take the multi-class learner", {
  pr <- labelset_problem(seed = 5, n = 80)
  # pure pruning (b = 0): the rows of label sets seen fewer than 3 times leave
  fit <- ps(pr$x, pr$y, p = 3, b = 0, learner = centroid_learner())
  keys <- apply(pr$y + 0, 1, paste, collapse = "")
  keep <- as.vector(table(keys)[keys]) >= 3
  ref <- centroid_lp_reference(pr$x[keep, ], pr$y[keep, ], pr$newx)
  expect_equal(unname(predict(fit, pr$newx, type = "score")), unname(ref$score),
               tolerance = 1e-12)
  # RAkEL: the class votes of the subsets' LPs averaged by label
  pr <- labelset_problem(seed = 6, n = 70, m = 5, sd = 0.8, n_new = 12)
  subsets <- list(c(1, 2, 3), c(2, 4, 5), c(5, 1, 3))
  fit <- rakel(pr$x, pr$y, subsets = subsets, learner = centroid_learner())
  votes <- matrix(0, nrow(pr$newx), 5)
  for (s in subsets)
    votes[, s] <- votes[, s] + centroid_lp_reference(pr$x, pr$y[, s], pr$newx)$class
  expect_equal(unname(predict(fit, pr$newx, type = "score")),
               votes / rep(tabulate(unlist(subsets), 5), each = nrow(votes)), tolerance = 1e-12)
})

test_that("rakel() fits a label subset repeated in another order once, its votes permuted", {
  pr <- labelset_problem(seed = 7, n = 70, m = 5, sd = 0.8, n_new = 12)
  log <- new.env()
  subsets <- list(c(1, 2, 3), c(3, 1, 2), c(4, 5, 1))
  fit <- rakel(pr$x, pr$y, subsets = subsets, learner = centroid_learner(log),
               vote = "score")
  expect_length(log$y, 2)
  expect_equal(fit$same, c(1L, 1L, 3L))
  # the explicit enumeration: every subset's LP, refitted
  votes <- matrix(0, nrow(pr$newx), 5)
  for (s in subsets)
    votes[, s] <- votes[, s] + centroid_lp_reference(pr$x, pr$y[, s], pr$newx)$score
  used <- tabulate(unlist(subsets), 5)
  expect_equal(unname(predict(fit, pr$newx, type = "score")),
               votes / rep(used, each = nrow(votes)), tolerance = 1e-12)
  # the reused model carries its subset's label order
  expect_equal(fit$models[[2]]$labels, colnames(pr$y)[c(3, 1, 2)])
  expect_equal(unname(fit$models[[2]]$sets + 0),
               unname(fit$models[[1]]$sets[, c(3, 1, 2)] + 0))
  # and predicts on its own as the LP of its subset does (its classes are
  # matched to the model's columns by the original keys)
  expect_equal(unname(predict(fit$models[[2]], pr$newx, type = "score")),
               unname(centroid_lp_reference(pr$x, pr$y[, c(3, 1, 2)], pr$newx)$score),
               tolerance = 1e-12)
  # class votes too, against the refitted enumeration
  fitc <- rakel(pr$x, pr$y, subsets = subsets, learner = centroid_learner())
  votes <- matrix(0, nrow(pr$newx), 5)
  for (s in subsets)
    votes[, s] <- votes[, s] + centroid_lp_reference(pr$x, pr$y[, s], pr$newx)$class
  expect_equal(unname(predict(fitc, pr$newx, type = "score")),
               votes / rep(used, each = nrow(votes)), tolerance = 1e-12)
})

test_that("lp_class_prob() gives the class frequencies where the probabilities are 0 / 0", {
  pr <- labelset_problem(seed = 8)
  # a multi-class learner whose probabilities underflow to 0 on rows with a
  # negative first feature
  zero <- altered_centroid_learner(function(P, newx) {
    P[newx[, 1] < 0, ] <- 0
    P
  })
  fit <- lp(pr$x, pr$y, learner = zero)
  ref <- centroid_lp_reference(pr$x, pr$y, pr$newx)
  keys <- apply(pr$y + 0, 1, paste, collapse = "")
  prior <- as.vector(table(keys)[ref$classes]) / nrow(pr$y)
  neg <- pr$newx[, 1] < 0
  expect_true(any(neg) && any(!neg))
  score <- predict(fit, pr$newx, type = "score")
  expect_false(anyNA(score))
  expect_equal(unname(score[neg, ]),
               unname(matrix(prior %*% (fit$sets + 0), sum(neg), ncol(pr$y), byrow = TRUE)),
               tolerance = 1e-12)
  expect_equal(unname(score[!neg, ]), unname(ref$score[!neg, ]), tolerance = 1e-12)
  # such a row is given the most frequent label set
  expect_equal(unname(predict(fit, pr$newx)[neg, , drop = FALSE] + 0),
               unname(fit$sets[rep(1, sum(neg)), , drop = FALSE] + 0))
  # one-vs-rest with a binary learner of probabilities that gives 0 to every
  # class: the frequencies, not NaN
  flat <- ml_learner("zero", fit = function(x, y) NULL,
                     predict = function(model, newx) rep(0, nrow(newx)))
  fit0 <- lp(pr$x, pr$y, learner = flat)
  P0 <- predict(fit0, pr$newx, type = "score")
  expect_equal(unname(P0), unname(matrix(prior %*% (fit0$sets + 0), nrow(pr$newx),
                                         ncol(pr$y), byrow = TRUE)), tolerance = 1e-12)
  # a class absent from the learner's columns gets 0
  drop1 <- altered_centroid_learner(function(P, newx) P[, -1, drop = FALSE])
  fit1 <- lp(pr$x, pr$y, learner = drop1)
  Q <- ref$P[, -1, drop = FALSE]
  expect_equal(unname(predict(fit1, pr$newx, type = "score")),
               unname((Q / rowSums(Q)) %*% (fit1$sets[-1, , drop = FALSE] + 0)),
               tolerance = 1e-12)
})

test_that("lp() with e1071's SVM is one e1071 multi-class SVM (utiml's LP)", {
  skip_if_not_installed("e1071")
  pr <- labelset_problem(seed = 9, n = 90)
  set.seed(3)
  fit <- lp(pr$x, pr$y, learner = ml_learner_e1071())
  keys <- factor(apply(pr$y + 0, 1, paste, collapse = ""))
  set.seed(3)
  m <- e1071::svm(pr$x, keys, probability = TRUE)
  p <- predict(m, pr$newx, probability = TRUE)
  expect_equal(apply(predict(fit, pr$newx) + 0, 1, paste, collapse = ""), as.character(p))
  P <- attr(p, "probabilities")[, rownames(fit$sets)]
  expect_equal(unname(predict(fit, pr$newx, type = "score")),
               unname(P %*% (fit$sets + 0)), tolerance = 1e-10)
  # without probabilities: the predicted class (libsvm's vote) with probability 1
  fitv <- lp(pr$x, pr$y, learner = ml_learner_e1071(probability = FALSE))
  mv <- e1071::svm(pr$x, keys)
  expect_equal(apply(predict(fitv, pr$newx) + 0, 1, paste, collapse = ""),
               as.character(predict(mv, pr$newx)))
})

test_that("ecc(features =) fits each chain on its own features, fraction draws the rows", {
  pr <- labelset_problem(seed = 10, n = 70, m = 5, sd = 0.8, n_new = 12)
  set.seed(5)
  fit <- ecc(pr$x, pr$y, n_models = 4, fraction = 0.75, features = 0.5)
  d <- ncol(pr$x)
  n <- nrow(pr$x)
  # the draws, in the documented order
  set.seed(5)
  for (j in 1:4) {
    r <- sample.int(n, round(0.75 * n), replace = TRUE)
    cj <- sort(sample.int(d, ceiling(0.5 * d)))
    ord <- sample.int(5)
    expect_equal(fit$rows[[j]], r)
    expect_equal(fit$cols[[j]], cj)
    expect_equal(fit$orders[[j]], colnames(pr$y)[ord])
  }
  # the votes: each chain on its own columns of the new rows
  v <- 0
  for (j in 1:4) v <- v + predict(fit$models[[j]], pr$newx[, fit$cols[[j]], drop = FALSE]) + 0
  expect_equal(unname(predict(fit, pr$newx, type = "score")), unname(v / 4))
  expect_error(ecc(pr$x, pr$y, features = 0), "features")
  # features = 1 draws as before: no column draw
  set.seed(5)
  f1 <- ebr(pr$x, pr$y, n_models = 2)
  expect_null(f1$cols)
  set.seed(5)
  expect_equal(f1$rows[[1]], sample.int(n, n, replace = TRUE))
})

test_that("kernlab's and ranger's multi-class adapters give class probabilities to lp()", {
  pr <- labelset_problem(seed = 11, n = 90)
  lrns <- list()
  if (requireNamespace("kernlab", quietly = TRUE)) lrns$kernlab <- ml_learner_kernlab(sigma = 0.2)
  if (requireNamespace("ranger", quietly = TRUE)) lrns$ranger <- ml_learner_ranger(num.trees = 30)
  skip_if(!length(lrns), "neither kernlab nor ranger installed")
  for (l in lrns) {
    set.seed(2)
    fit <- lp(pr$x, pr$y, learner = l)
    expect_true(fit$multiclass)
    K <- nrow(fit$sets)
    P <- sapply(seq_len(K), function(k)
      predict(fit, pr$newx, type = "prob", y = fit$sets[rep(k, nrow(pr$newx)), , drop = FALSE]))
    expect_equal(rowSums(P), rep(1, nrow(pr$newx)), tolerance = 1e-8)
    expect_equal(unname(predict(fit, pr$newx) + 0),
                 unname(fit$sets[max.col(P, ties.method = "first"), , drop = FALSE] + 0))
  }
})

test_that("a dense learner gets sparse features made dense once, with the same fits", {
  skip_if_not_installed("Matrix")
  pr <- labelset_problem(seed = 12, n = 70, m = 5, sd = 0.8, n_new = 12)
  xs <- Matrix::Matrix(pr$x * (abs(pr$x) > 0.5), sparse = TRUE)
  xd <- as.matrix(xs)
  log <- new.env()
  lrn <- centroid_learner(log)
  lrn$fit <- local({
    inner <- lrn$fit
    function(x, y) {
      log$sparse <- c(log$sparse, inherits(x, "Matrix"))
      inner(x, y)
    }
  })
  subsets <- list(1:3, 3:5)
  f_s <- rakel(xs, pr$y, subsets = subsets, learner = lrn)
  f_d <- rakel(xd, pr$y, subsets = subsets, learner = lrn)
  newx <- Matrix::Matrix(pr$newx, sparse = TRUE)
  expect_equal(predict(f_s, newx, type = "score"), predict(f_d, pr$newx, type = "score"))
  set.seed(1)
  e_s <- ecc(xs, pr$y, n_models = 2, learner = lrn, features = 0.5)
  set.seed(1)
  e_d <- ecc(xd, pr$y, n_models = 2, learner = lrn, features = 0.5)
  expect_equal(predict(e_s, newx, type = "score"), predict(e_d, pr$newx, type = "score"))
  expect_false(any(log$sparse))
})
