test_that("cc() and pcc() fit the chain's L2 logistic regressions (plain-R reference)", {
  dat <- chain_ref_data()
  ord <- c(3L, 1L, 4L, 2L)
  cost <- c(0.5, 1, 2, 0.3)
  ref <- chain_ref_fit(dat$x, dat$y, ord, cost)
  fit <- cc(dat$x, dat$y, order = ord, cost = cost, tol = 1e-10)
  expect_equal(unname(fit$W), ref$W, tolerance = 1e-5)
  expect_equal(unname(fit$G), ref$G, tolerance = 1e-5)
  expect_equal(unname(fit$intercept), ref$intercept, tolerance = 1e-5)
  expect_identical(fit$order, colnames(dat$y)[ord])
  # costs named by label, in any order
  named <- cc(dat$x, dat$y, order = ord, cost = rev(setNames(cost, colnames(dat$y))),
              tol = 1e-10)
  expect_equal(named$W, fit$W)
  # the same model behind pcc(), and the order by names
  fit2 <- pcc(dat$x, dat$y, order = colnames(dat$y)[ord], cost = cost, tol = 1e-10)
  expect_equal(fit2$W, fit$W)
  expect_equal(fit2$G, fit$G)
  # coef(): intercept, features, labels as inputs
  cf <- coef(fit)
  expect_equal(dim(cf), c(1 + 3 + 4, 4))
  expect_equal(unname(cf[1, ]), ref$intercept, tolerance = 1e-5)
  expect_equal(unname(cf[5:8, ]), ref$G, tolerance = 1e-5)
})

test_that("a sparse x gives the fit of the dense one", {
  dat <- chain_ref_data(n = 60, d = 5, m = 3, seed = 2)
  x <- dat$x
  x[abs(x) < 0.8] <- 0
  fd <- pcc(x, dat$y, tol = 1e-8)
  fs <- pcc(Matrix::Matrix(x, sparse = TRUE), dat$y, tol = 1e-8)
  expect_equal(fs$W, fd$W, tolerance = 1e-7)
  expect_equal(fs$G, fd$G, tolerance = 1e-7)
  newx <- Matrix::Matrix(x[1:10, ], sparse = TRUE)
  expect_equal(predict(fs, newx, type = "score"), predict(fd, x[1:10, ], type = "score"),
               tolerance = 1e-7)
})

test_that("a chain of one label is br(learner = \"logistic\")", {
  dat <- chain_ref_data(m = 1, seed = 3)
  b <- br(dat$x, dat$y, learner = "logistic", cost = 0.7)
  f <- cc(dat$x, dat$y, cost = 0.7)
  expect_equal(f$W, b$W)
  expect_equal(f$intercept, b$intercept)
  expect_equal(predict(f, dat$x, type = "score"), predict(b, dat$x, type = "score"))
})

test_that("CC predicts greedily along the chain (plain-R reference)", {
  dat <- chain_ref_data(seed = 4)
  ord <- c(2L, 4L, 1L, 3L)
  fit <- cc(dat$x, dat$y, order = ord)
  sc <- predict(fit, dat$x[1:15, ], type = "score")
  cl <- predict(fit, dat$x[1:15, ], type = "class")
  for (i in 1:15) {
    r <- chain_ref_greedy(fit, ord, dat$x[i, ])
    expect_equal(unname(sc[i, ]), r$p, tolerance = 1e-12)
    expect_equal(unname(cl[i, ]) + 0, r$y)
  }
  expect_identical(colnames(cl), colnames(dat$y))
  expect_true(is.logical(cl))
})

test_that("PCC exact inference matches brute force; p(y | x) sums to 1", {
  dat <- chain_ref_data(m = 5, seed = 5)
  ord <- c(5L, 2L, 3L, 1L, 4L)
  fit <- pcc(dat$x, dat$y, order = ord, cost = 3)
  newx <- dat$x[1:8, ]
  marg <- predict(fit, newx, type = "score")
  map <- predict(fit, newx, type = "class")
  V <- chain_ref_vectors(5)
  for (i in 1:8) {
    r <- chain_ref_brute(fit, ord, newx[i, ])
    expect_equal(unname(marg[i, ]), r$marginals, tolerance = 1e-12)
    expect_equal(unname(map[i, ]) + 0, unname(r$map))
    # p(y | x) of every vector: the brute force's, summing to 1
    # unnamed: by position (expand.grid's names Var1, ... are no labels)
    p <- predict(fit, newx[rep(i, nrow(V)), ], type = "prob", y = unname(V))
    expect_equal(unname(p), r$p, tolerance = 1e-12, ignore_attr = TRUE)
    expect_equal(sum(p), 1, tolerance = 1e-12)
  }
  expect_equal(attr(map, "inference")$method, "exact")
})

test_that("beam search: a full beam is exact, a beam of one is CC's greedy walk", {
  dat <- chain_ref_data(m = 5, seed = 6)
  fit <- pcc(dat$x, dat$y, cost = 2)
  newx <- dat$x[1:20, ]
  exact_map <- predict(fit, newx, type = "class")
  expect_equal(predict(fit, newx, type = "class", inference = "beam", beam_width = 32),
               exact_map, ignore_attr = TRUE)
  expect_equal(predict(fit, newx, type = "class", inference = "beam", beam_width = 1e9),
               exact_map, ignore_attr = TRUE)
  expect_equal(predict(fit, newx, type = "score", inference = "beam", beam_width = 40),
               predict(fit, newx, type = "score"), tolerance = 1e-12, ignore_attr = TRUE)
  greedy <- predict(cc(dat$x, dat$y, cost = 2), newx, type = "class")
  expect_equal(predict(fit, newx, type = "class", inference = "beam", beam_width = 1),
               greedy, ignore_attr = TRUE)
})

test_that("sampling: marginals within Monte Carlo error, best sample = MAP, reproducible", {
  dat <- chain_ref_data(m = 4, seed = 7)
  fit <- pcc(dat$x, dat$y)
  newx <- dat$x[1:10, ]
  set.seed(11)
  s1 <- predict(fit, newx, type = "score", inference = "sample", n_samples = 4000)
  set.seed(11)
  s2 <- predict(fit, newx, type = "score", inference = "sample", n_samples = 4000)
  expect_identical(s1, s2)
  ex <- predict(fit, newx, type = "score")
  # the standard error of a mean of 4000 values in [0, 1] is below 0.008
  expect_lt(max(abs(s1 - ex)), 0.03)
  expect_gt(max(abs(s1 - ex)), 0)
  set.seed(12)
  expect_equal(predict(fit, newx, type = "class", inference = "sample", n_samples = 500),
               predict(fit, newx, type = "class"), ignore_attr = TRUE)
})

test_that("the exact MAP by branch and bound visits less of the tree than the marginals", {
  dat <- chain_ref_data(n = 100, m = 8, seed = 8)
  fit <- pcc(dat$x, dat$y)
  cl <- predict(fit, dat$x[1:5, ], type = "class")
  sc <- predict(fit, dat$x[1:5, ], type = "score")
  expect_equal(attr(sc, "inference")$nodes, rep(2^9 - 1, 5))
  expect_true(all(attr(cl, "inference")$nodes < 2^9 - 1))
})

test_that("warm starts, formula interface, print and ml_compare()", {
  dat <- chain_ref_data(seed = 9)
  f1 <- cc(dat$x, dat$y, cost = 0.5, tol = 1e-10)
  f2 <- cc(dat$x, dat$y, cost = 1, tol = 1e-10)
  f3 <- cc(dat$x, dat$y, cost = 1, tol = 1e-10, init = f1)
  expect_equal(f3$W, f2$W, tolerance = 1e-6)
  expect_lte(sum(f3$iter), sum(f2$iter))
  df <- data.frame(dat$x, dat$y)
  ff <- pcc(cbind(L1, L2, L3, L4) ~ f1 + f2 + f3, data = df)
  fm <- pcc(dat$x, dat$y)
  expect_equal(unname(ff$W), unname(fm$W))
  expect_equal(predict(ff, df[1:5, ], type = "score"), predict(fm, dat$x[1:5, ], type = "score"),
               ignore_attr = TRUE)
  expect_output(print(ff), "Probabilistic classifier chain")
  expect_output(print(f1), "order: L1 < L2 < L3 < L4")
  set.seed(1)
  cmp <- ml_compare(dat$x, dat$y, nfolds = 2, measures = "macro_f1",
                    methods = list(CC = function(x, y) cc(x, y),
                                   PCC = function(x, y) pcc(x, y)))
  expect_equal(nrow(cmp), 4)
  set.seed(1)
  cv <- cv_pcc(dat$x, dat$y, cost = c(0.1, 1), nfolds = 2)
  expect_s3_class(cv, "cv_pcc")
  expect_s3_class(cv$fit, "pcc")
})

test_that("bad input is refused with clear errors", {
  dat <- chain_ref_data(n = 40, seed = 10)
  x <- dat$x; y <- dat$y
  expect_error(cc(x, y, order = c(1, 1, 2, 3)), "permutation")
  expect_error(cc(x, y, order = 1:3), "permutation")
  expect_error(cc(x, y, order = c(1.5, 2, 3, 4)), "permutation")
  expect_error(cc(x, y, order = c("L1", "L2", "L3", "nope")), "'nope'")
  expect_error(cc(x, y, cost = -1), "cost")
  yn <- y + 0; yn[3, 2] <- NA
  expect_error(cc(x, yn), "NA")
  expect_error(pcc(x, y, beam_width = 0), "beam_width")
  y0 <- y; y0[, 2] <- FALSE
  expect_warning(cc(x, y0), "'L2' have no positive example")
  fit <- pcc(x, y)
  expect_error(predict(fit, x, type = "prob"), "needs the label vectors")
  expect_error(predict(fit, x, type = "prob", y = unname(y[, 1:3])),
               "'y' has 3 columns but the model has 4 labels")
  expect_error(predict(fit, x, type = "prob", y = y[, 1:3]), "no column for the label\\(s\\) 'L4'")
  expect_error(predict(fit, x, y = y), "only used")
  expect_error(predict(fit, x[, 1:2]), "columns")
  expect_error(predict(fit, x, inference = "magic"), "should be one of")
  expect_error(cc(x, y, init = pcc(x, y, order = 4:1)), "another order")
  set.seed(1)
  big <- matrix(runif(30 * 21) < 0.5, 30, 21)
  fb <- pcc(x[1:30, ], big)
  # above 20 labels, exact inference switches to beam search (?predict.pcc)
  sw <- predict(fb, x[1:2, ], type = "score")
  expect_identical(attr(sw, "inference")$method, "beam")
  expect_equal(sw, predict(fb, x[1:2, ], type = "score", inference = "beam"), ignore_attr = TRUE)
  expect_identical(predict(fb, x[1:2, ]), predict(fb, x[1:2, ], inference = "beam"),
                   ignore_attr = TRUE)
  expect_equal(dim(predict(fb, x[1:2, ], inference = "beam")), c(2, 21))
  expect_length(predict(fb, x[1:2, ], type = "prob", y = big[1:2, ]), 2)
})

test_that("grad_norm is the plain-R gradient norm of each link; the links are optimal", {
  # each link's objective 0.5 ||w||^2 + C sum_i log(1 + exp(-s_i w'z_i)),
  # z_i = (x_i, previous labels 0/1, 1): its gradient and Hessian in plain R
  link_parts <- function(fit, x, y, l, C) {
    k <- match(colnames(y)[l], fit$order)
    prev <- match(fit$order[seq_len(k - 1)], colnames(y))
    Z <- cbind(x, y[, prev, drop = FALSE] + 0, 1)
    w <- c(fit$W[, l], fit$G[prev, l], fit$intercept[l])
    s <- 2 * y[, l] - 1
    z <- drop(Z %*% w)
    p <- stats::plogis(z)
    list(g = w - C * drop(crossprod(Z, s * stats::plogis(-s * z))),
         H = diag(length(w)) + C * crossprod(Z * sqrt(p * (1 - p))),
         f = 0.5 * sum(w^2) + C * sum(log1p(exp(-s * z))))
  }
  dat <- chain_ref_data()
  ord <- c(2L, 4L, 1L, 3L)
  for (fun in list(cc, pcc)) {
    fit <- fun(dat$x, dat$y, order = ord, cost = 0.7, tol = 0.1)
    for (l in seq_len(ncol(dat$y))) {
      g <- link_parts(fit, dat$x, dat$y, l, 0.7)$g
      expect_equal(unname(fit$grad_norm[l]), sqrt(sum(g^2)), tolerance = 1e-6)
    }
  }
  # at the defaults, on the bundled data and with a column multiplied by 1e6:
  # half the Newton decrement (an estimate of f - min f) below 1e-10 of f
  data(emotions, package = "mlss")
  x <- emotions$x[1:150, 1:20]
  y <- emotions$y[1:150, 1:3]
  x_big <- x
  x_big[, 2] <- x_big[, 2] * 1e6
  for (X in list(x, x_big)) {
    expect_no_warning(fit <- cc(X, y))
    for (l in seq_len(ncol(y))) {
      pr <- link_parts(fit, X, y, l, 1)
      expect_lt(0.5 * sum(pr$g * solve(pr$H, pr$g)), 1e-10 * pr$f)
      expect_equal(unname(fit$grad_norm[l]), sqrt(sum(pr$g^2)), tolerance = 1e-6)
    }
  }
})
