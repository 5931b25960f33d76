# The base-learner interface (R/learners.R): learner objects, the built-in
# solvers as learners, adapters, learners in br(), cc(), pcc(), ecc(), ebr(),
# rakel(), lewl() and cv_br(), against fits by hand in plain R.

test_that("ml_learner() checks what it is given and update() changes parameters", {
  expect_error(ml_learner("a", fit = 1, predict = function(m, x) 1), "'fit' must be a function")
  expect_error(ml_learner("a", fit = function(x, y) 1, predict = function(m) 1),
               "'predict' must be a function\\(model, newx\\)")
  expect_error(ml_learner("", fit = function(x, y) 1, predict = function(m, x) 1), "'name'")
  expect_error(ml_learner("a", function(x, y) 1, function(m, x) 1, type = "class"), "type")
  expect_error(ml_learner("a", function(x, y, k = 1) 1, function(m, x) 1, params = list(j = 2)),
               "no argument\\(s\\) 'j'")
  expect_error(ml_learner("a", function(x, y) 1, function(m, x) 1, params = list(1)),
               "distinct names")
  l <- glm_learner()
  expect_output(print(l), "Learner 'glm': probabilities, dense input")
  expect_equal(update(l, shrink = 2)$params$shrink, 2)
  expect_error(update(ml_learner_svm(), mtry = 2), "no parameter\\(s\\) 'mtry'")
  expect_equal(update(ml_learner_svm(), cost = 3)$params$cost, 3)
  expect_error(update(l, 2), "must be named")
  expect_output(print(ml_learner_svm(cost = 0.5)), "cost = 0.5")
})

test_that("the built-in learner objects are the same fits as the learner names", {
  p <- learner_problem()
  strip <- function(f) f[setdiff(names(f), "call")]
  expect_equal(strip(br(p$x, p$y, learner = ml_learner_svm(cost = 0.3, loss = "hinge"))),
               strip(br(p$x, p$y, learner = "svm", cost = 0.3, loss = "hinge")))
  expect_equal(strip(br(p$x, p$y, learner = ml_learner_logistic(cost = 2, tol = 1e-4))),
               strip(br(p$x, p$y, learner = "logistic", cost = 2, tol = 1e-4)))
  expect_equal(strip(br(p$x, p$y, learner = ml_learner_ridge(intercept = FALSE))),
               strip(br(p$x, p$y, learner = "ridge", intercept = FALSE)))
  # an argument given to br() replaces the learner's setting
  expect_equal(strip(br(p$x, p$y, learner = ml_learner_svm(cost = 0.3), cost = 2)),
               strip(br(p$x, p$y, learner = "svm", cost = 2)))
  expect_equal(strip(pcc(p$x, p$y, learner = ml_learner_logistic(cost = 0.5))),
               strip(pcc(p$x, p$y, cost = 0.5)))
  expect_equal(strip(cc(p$x, p$y, learner = ml_learner_logistic(cost = 0.5), cost = 2)),
               strip(cc(p$x, p$y, cost = 2)))
  set.seed(3); a <- ebr(p$x, p$y, n_models = 3, learner = ml_learner_logistic(cost = 0.5))
  set.seed(3); b <- ebr(p$x, p$y, n_models = 3, cost = 0.5)
  expect_equal(predict(a, p$x, type = "score"), predict(b, p$x, type = "score"))
  set.seed(3); a <- ecc(p$x, p$y, n_models = 3, learner = ml_learner_logistic(cost = 0.5))
  set.seed(3); b <- ecc(p$x, p$y, n_models = 3, cost = 0.5)
  expect_equal(predict(a, p$x, type = "score"), predict(b, p$x, type = "score"))
  # one label at a time, the built-in learner fits what br() fits
  l <- ml_learner_logistic(cost = 0.7)
  part <- mlss:::learner_fit_one(l, p$x, p$y[, 2])
  expect_equal(mlss:::learner_predict_one(l, part, p$x),
               unname(predict(br(p$x, p$y, learner = "logistic", cost = 0.7), p$x,
                              type = "score")[, 2]))
})

test_that("br() with a learner fits it label by label, as by hand", {
  p <- learner_problem()
  fit <- br(p$x, p$y, learner = glm_learner())
  newx <- p$x[1:7, ] + 0.1
  ref <- sapply(1:3, function(l) glm_ref_prob(glm_ref(p$x, p$y[, l]), newx))
  expect_equal(unname(predict(fit, newx, type = "score")), unname(ref), tolerance = 1e-10)
  expect_equal(colnames(predict(fit, newx, type = "score")), colnames(p$y))
  # thresholds: F1 on the training scores (by brute force over the cuts)
  train <- sapply(1:3, function(l) glm_ref_prob(glm_ref(p$x, p$y[, l]), p$x))
  best_f1 <- function(s, y) max(vapply(c(-Inf, sort(unique(s))), function(t) {
    pred <- s > t
    2 * sum(pred & y) / (sum(pred) + sum(y))
  }, 0))
  expect_equal(unname(fit$train_f1), sapply(1:3, function(l) best_f1(train[, l], p$y[, l])))
  expect_equal(unname(predict(fit, newx)),
               unname(ref > rep(fit$thresholds, each = nrow(newx))))
  expect_output(print(fit), "Binary relevance, learner 'glm'")
  expect_error(coef(fit), "no coefficients")
  expect_error(br(p$x, p$y, learner = glm_learner(), cost = 1), "'cost' is a setting")
  expect_error(br(p$x, p$y, learner = glm_learner(), loss = "hinge"), "'loss' is a setting")
})

test_that("a constant label is predicted constant without calling the learner", {
  p <- learner_problem()
  y <- p$y
  y[, 2] <- FALSE
  picky <- ml_learner("picky",
    fit = function(x, y) { stopifnot(any(y), !all(y)); glm_ref(x, y) },
    predict = function(model, newx) glm_ref_prob(model, newx))
  expect_warning(br(p$x, y, learner = picky), "l2")
  fit <- suppressWarnings(br(p$x, y, learner = picky))
  s <- predict(fit, p$x, type = "score")
  expect_equal(unname(s[, 2]), rep(0, nrow(p$x)))
  expect_false(any(predict(fit, p$x)[, 2]))
  scorer <- update(centroid_learner())
  y[, 2] <- TRUE
  fit <- suppressWarnings(br(p$x, y, learner = scorer))
  expect_equal(unname(predict(fit, p$x, type = "score")[, 2]), rep(1, nrow(p$x)))
})

test_that("br() with a learner and missing labels fits each label on its observed rows", {
  p <- learner_problem()
  y <- p$y + 0
  y[c(3, 9, 20), 1] <- NA
  y[5, 3] <- NA
  fit <- br(p$x, y, learner = glm_learner(), na_labels = "observed")
  o <- !is.na(y[, 1])
  expect_equal(unname(predict(fit, p$x, type = "score")[, 1]),
               glm_ref_prob(glm_ref(p$x[o, ], y[o, 1]), p$x), tolerance = 1e-10)
  expect_error(br(p$x, y, learner = glm_learner()), "NA")
})

test_that("a learner's predict must give one number per row", {
  p <- learner_problem()
  bad <- ml_learner("bad", fit = function(x, y) 1, predict = function(model, newx) 1)
  expect_error(br(p$x, p$y, learner = bad), "must return 60 numbers")
})

test_that("cc() with a learner is the chain fitted and walked by hand", {
  p <- learner_problem()
  ord <- c(3, 1, 2)
  fit <- cc(p$x, p$y, order = ord, learner = glm_learner())
  w <- list()
  for (k in 1:3) w[[k]] <- glm_ref(cbind(p$x, p$y[, ord[seq_len(k - 1)]] + 0), p$y[, ord[k]])
  newx <- p$x[1:9, ] * 0.8
  yhat <- matrix(0, 9, 0)
  score <- matrix(0, 9, 3)
  for (k in 1:3) {
    q <- glm_ref_prob(w[[k]], cbind(newx, yhat))
    score[, ord[k]] <- q
    yhat <- cbind(yhat, q > 0.5)
  }
  expect_equal(unname(predict(fit, newx, type = "score")), score, tolerance = 1e-10)
  expect_equal(unname(predict(fit, newx)), score > 0.5)
  # a learner of scores cuts at 0
  fl <- cc(p$x, p$y, order = ord, learner = lm_learner())
  s <- predict(fl, newx, type = "score")
  expect_equal(predict(fl, newx), s > 0)
  expect_output(print(fit), "Classifier chain, learner 'glm'")
  expect_error(coef(fit), "no coefficients")
  expect_error(cc(p$x, p$y, learner = glm_learner(), cost = 2), "'cost' is a setting")
})

test_that("pcc() with a learner: exact marginals, MAP and p(y|x) by enumeration", {
  p <- learner_problem(m = 4)
  ord <- c(2, 4, 1, 3)
  fit <- pcc(p$x, p$y, order = ord, learner = glm_learner())
  w <- list()
  for (k in 1:4) w[[k]] <- glm_ref(cbind(p$x, p$y[, ord[seq_len(k - 1)]] + 0), p$y[, ord[k]])
  newx <- p$x[1:6, ] + 0.2
  Ys <- as.matrix(expand.grid(rep(list(0:1), 4)))
  joint <- sapply(seq_len(nrow(Ys)), function(v) {
    yv <- Ys[v, ]
    pr <- rep(1, 6)
    for (k in 1:4) {
      q <- glm_ref_prob(w[[k]], cbind(newx, matrix(yv[ord[seq_len(k - 1)]], 6, k - 1,
                                                    byrow = TRUE)))
      pr <- pr * if (yv[ord[k]] == 1) q else 1 - q
    }
    pr
  })
  marg <- joint %*% Ys
  expect_equal(unname(predict(fit, newx, type = "score")[, ]), unname(marg),
               tolerance = 1e-10, ignore_attr = TRUE)
  map <- Ys[max.col(joint, ties.method = "first"), ] == 1
  expect_equal(unname(predict(fit, newx, type = "class")[, ]), unname(map), ignore_attr = TRUE)
  yq <- p$y[1:6, ]
  key <- match(apply(yq + 0, 1, paste, collapse = ""), apply(Ys, 1, paste, collapse = ""))
  expect_equal(as.numeric(predict(fit, newx, type = "prob", y = yq)),
               joint[cbind(1:6, key)], tolerance = 1e-10)
  # a beam of one is the greedy walk of cc(); a beam of 2^m is exact
  fc <- cc(p$x, p$y, order = ord, learner = glm_learner())
  expect_equal(unname(predict(fit, newx, type = "class", inference = "beam", beam_width = 1)[, ]),
               unname(predict(fc, newx)), ignore_attr = TRUE)
  expect_equal(predict(fit, newx, type = "score", inference = "beam", beam_width = 16)[, ],
               predict(fit, newx, type = "score")[, ], ignore_attr = TRUE)
  # sampling: marginals within a few Monte Carlo standard errors
  set.seed(5)
  s <- predict(fit, newx, type = "score", inference = "sample", n_samples = 4000)
  expect_lt(max(abs(s - marg)), 4 / (2 * sqrt(4000)))
  expect_error(pcc(p$x, p$y, learner = lm_learner()), "needs a learner that gives probabilities")
})

test_that("ebr() and ecc() with a learner average its fits on the sampled rows", {
  p <- learner_problem()
  set.seed(2)
  fit <- ebr(p$x, p$y, n_models = 3, learner = glm_learner(), vote = "score")
  newx <- p$x[1:5, ]
  ref <- Reduce(`+`, lapply(fit$rows, function(r)
    sapply(1:3, function(l) glm_ref_prob(glm_ref(p$x[r, ], p$y[r, l]), newx)))) / 3
  expect_equal(unname(predict(fit, newx, type = "score")), unname(ref), tolerance = 1e-10)
  expect_output(print(fit), "learner 'glm'")
  set.seed(2)
  fe <- ecc(p$x, p$y, n_models = 2, learner = glm_learner(), vote = "score")
  ref <- Reduce(`+`, lapply(1:2, function(j) {
    r <- fe$rows[[j]]
    ord <- match(fe$orders[[j]], colnames(p$y))
    out <- matrix(0, 5, 3)
    yhat <- matrix(0, 5, 0)
    for (k in 1:3) {
      w <- glm_ref(cbind(p$x[r, ], p$y[r, ord[seq_len(k - 1)]] + 0), p$y[r, ord[k]])
      q <- glm_ref_prob(w, cbind(newx, yhat))
      out[, ord[k]] <- q
      yhat <- cbind(yhat, q > 0.5)
    }
    out
  })) / 2
  expect_equal(unname(predict(fe, newx, type = "score")), ref, tolerance = 1e-10)
})

test_that("rakel() with a learner: each label powerset scores its classes one-vs-rest", {
  p <- learner_problem(n = 80, m = 4)
  subsets <- list(c(1, 2), c(2, 3, 4))
  fit <- rakel(p$x, p$y, learner = glm_learner(), vote = "score", subsets = subsets)
  newx <- p$x[1:6, ]
  votes <- matrix(0, 6, 4)
  for (s in subsets) {
    keys <- apply(p$y[, s] + 0, 1, paste, collapse = "")
    classes <- unique(keys)
    P <- sapply(classes, function(k) glm_ref_prob(glm_ref(p$x, keys == k), newx))
    P <- P / rowSums(P)
    sets <- t(sapply(classes, function(k) as.numeric(strsplit(k, "")[[1]])))
    votes[, s] <- votes[, s] + P %*% sets
  }
  votes <- votes / rep(c(1, 2, 1, 1), each = 6)
  expect_equal(unname(predict(fit, newx, type = "score")), votes, tolerance = 1e-10)
  expect_output(print(fit), "learner 'glm'")
})

test_that("lewl() takes a regression learner as its regressor", {
  p <- learner_problem(n = 50, m = 4)
  a <- lewl(p$x, p$y, k = 2, regressor = lm_learner())
  b <- lewl(p$x, p$y, k = 2, regressor = function(x, z) {
    B <- stats::lm.fit(cbind(1, x), z)$coefficients
    function(newx) cbind(1, newx) %*% B
  })
  expect_equal(predict(a, p$x, type = "score"), predict(b, p$x, type = "score"),
               tolerance = 1e-10)
  expect_error(lewl(p$x, p$y, regressor = glm_learner()), "is no regressor")
})

test_that("a learner written the documented way works in every method (contract)", {
  p <- learner_problem(n = 50, m = 3)
  for (l in list(lm_learner(), glm_learner(), centroid_learner())) {
    fits <- list(br = br(p$x, p$y, learner = l), cc = cc(p$x, p$y, learner = l),
                 ecc = ecc(p$x, p$y, n_models = 2, learner = l),
                 ebr = ebr(p$x, p$y, n_models = 2, learner = l),
                 rakel = rakel(p$x, p$y, k = 2, learner = l))
    if (l$type == "prob") fits$pcc <- pcc(p$x, p$y, learner = l)
    if (l$regression) fits$lewl <- lewl(p$x, p$y, k = 2, regressor = l)
    for (f in fits) {
      cls <- predict(f, p$x[1:4, ], type = "class")
      sc <- predict(f, p$x[1:4, ], type = "score")
      expect_equal(dim(cls), c(4L, 3L))
      expect_true(is.logical(cls))
      expect_equal(colnames(sc), colnames(p$y))
      expect_false(anyNA(sc))
    }
  }
})

test_that("cv_br() tunes a learner's parameters as ml_cv() over update()", {
  p <- learner_problem(n = 60)
  foldid <- rep(1:3, 20)
  l <- glm_learner()
  cv <- cv_br(p$x, p$y, learner = l, params = list(shrink = c(0, 1, 5)), foldid = foldid)
  ref <- ml_cv(p$x, p$y, fit = function(x, y, shrink) br(x, y, learner = update(l, shrink = shrink)),
               grid = list(shrink = c(0, 1, 5)), foldid = foldid, order = function(g) 1:3)
  expect_equal(cv$cvm, ref$cvm)
  expect_equal(cv$fit$learner$params$shrink, cv$grid$shrink[cv$best])
  expect_error(cv_br(p$x, p$y, learner = l, params = list(mtry = 2), foldid = foldid),
               "no parameter\\(s\\) 'mtry'")
  expect_error(cv_br(p$x, p$y, learner = "svm", params = list(cost = 1)), "learner object")
  # a built-in learner object walks the cost grid as its name does
  a <- cv_br(p$x, p$y, learner = ml_learner_logistic(tol = 1e-3), cost = c(0.1, 1),
             foldid = foldid)
  b <- cv_br(p$x, p$y, learner = "logistic", tol = 1e-3, cost = c(0.1, 1), foldid = foldid)
  expect_equal(a$cvm, b$cvm)
  skip_on_os("windows")
  par <- cv_br(p$x, p$y, learner = l, params = list(shrink = c(0, 1, 5)), foldid = foldid,
               parallel = 2)
  expect_equal(par$cvm, cv$cvm)
})

test_that("sparse input reaches a sparse learner sparse, a dense one dense", {
  p <- learner_problem()
  xs <- Matrix::Matrix(p$x * (abs(p$x) > 0.5), sparse = TRUE)
  seen <- NULL
  spy <- function(sparse) ml_learner("spy", fit = function(x, y) {
      seen <<- class(x)[1]
      glm_ref(as.matrix(x), y)
    }, predict = function(model, newx) glm_ref_prob(model, as.matrix(newx)), sparse = sparse)
  fit <- br(xs, p$y, learner = spy(TRUE))
  expect_equal(seen, "dgCMatrix")
  fit <- br(xs, p$y, learner = spy(FALSE))
  expect_equal(seen, "matrix")
  expect_equal(unname(predict(fit, xs, type = "score")),
               unname(predict(br(as.matrix(xs), p$y, learner = spy(FALSE)), as.matrix(xs),
                              type = "score")))
})

test_that("rakel() with a learner that gives every class probability 0 stays finite", {
  p <- learner_problem(n = 40, m = 3)
  zero <- ml_learner("zero", fit = function(x, y) NULL,
                     predict = function(model, newx) rep(0, nrow(newx)))
  fit <- rakel(p$x, p$y, k = 2, learner = zero, vote = "score")
  expect_false(anyNA(predict(fit, p$x, type = "score")))
})
