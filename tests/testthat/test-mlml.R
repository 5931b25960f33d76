mlml_case <- function(seed = 1, n = 30, m = 4, rate = 0.3) {
  d <- mlb_data(n = n, d = 3, m = m, seed = seed)
  y <- d$Y
  set.seed(seed + 100)
  y[matrix(runif(n * m) < rate, n, m)] <- NA
  list(X = d$X, Y = d$Y, y = y)
}

test_that("the solution satisfies the KKT conditions of the box-constrained QP", {
  for (loss in c("linear", "squared")) {
    d <- mlml_case()
    fit <- mlml(d$X, d$y, beta = 0.7, gamma = 0.4, knn = 5, loss = loss, tol = 1e-14,
                max_iter = 50000)
    expect_true(fit$converged)
    g <- ref_mlml_graphs(d$X, d$y, 5)
    Ys <- ifelse(is.na(d$y), 0, ifelse(d$y, 1, -1))
    Z <- unname(fit$recovered)
    G <- ref_mlml_gradient(Z, Ys, g, 0.7, 0.4, loss)
    expect_true(all(abs(Z) <= 1))
    inner <- abs(Z) < 1 - 1e-6
    expect_lt(max(abs(G[inner])), 1e-4)
    expect_true(all(G[Z >= 1 - 1e-9] <= 1e-4))     # at the upper bound, -grad points out
    expect_true(all(G[Z <= -1 + 1e-9] >= -1e-4))
    expect_equal(fit$objective[length(fit$objective)],
                 ref_mlml_objective(Z, Ys, g, 0.7, 0.4, loss), tolerance = 1e-10)
  }
})

test_that("mlml agrees with L-BFGS-B on the same QP, and every step decreases it", {
  d <- mlml_case(seed = 2)
  fit <- mlml(d$X, d$y, beta = 0.5, gamma = 1, knn = 4, loss = "squared", tol = 1e-15,
              max_iter = 50000)
  ref <- ref_mlml_optim(d$X, d$y, 0.5, 1, 4, "squared")
  expect_equal(unname(fit$recovered), ref$Z, tolerance = 1e-4)
  fit <- mlml(d$X, d$y, beta = 0.5, gamma = 1, knn = 4, loss = "linear", tol = 1e-15,
              max_iter = 50000)
  ref <- ref_mlml_optim(d$X, d$y, 0.5, 1, 4, "linear")
  expect_equal(min(fit$objective), ref$value, tolerance = 1e-6)
  expect_true(all(diff(fit$objective) <= 1e-10 * abs(fit$objective[-1])))
})

test_that("special cases: no smoothing recovers the observed signs; missing entries follow neighbours", {
  d <- mlml_case(seed = 3)
  fit <- mlml(d$X, d$y, beta = 0, gamma = 0, knn = 3)
  obs <- !is.na(d$y)
  expect_equal(fit$recovered[obs], ifelse(d$y[obs], 1, -1))
  expect_true(all(fit$recovered[!obs] == 0))
  # two well separated clusters: a hidden label takes its cluster's value
  set.seed(4)
  X <- rbind(matrix(rnorm(20, 0, 0.1), 10), matrix(rnorm(20, 5, 0.1), 10))
  Y <- cbind(a = rep(c(TRUE, FALSE), each = 10), b = rep(c(FALSE, TRUE), each = 10))
  y <- Y
  y[c(1, 12), ] <- NA
  fit <- mlml(X, y, beta = 1, gamma = 0, knn = 3)
  expect_equal(fit$recovered[c(1, 12), ] > 0, Y[c(1, 12), ], ignore_attr = TRUE)
})

test_that("predict() is transductive: new rows are unlabelled rows of a refit", {
  d <- mlml_case(seed = 5, n = 40)
  tr <- 1:30
  fit <- mlml(d$X[tr, ], d$y[tr, ], beta = 1, gamma = 0.5, knn = 4, loss = "squared",
              tol = 1e-14, max_iter = 50000)
  p <- predict(fit, d$X[-tr, ], type = "score")
  expect_equal(dim(p), c(10, 4))
  expect_equal(colnames(p), colnames(d$y))
  yall <- d$y
  yall[-tr, ] <- NA
  full <- mlml(d$X, yall, beta = 1, gamma = 0.5, knn = 4, loss = "squared", tol = 1e-14,
               max_iter = 50000)
  # the label graph is the training one in both (the new rows have no labels)
  expect_equal(unname(p), unname(full$recovered[-tr, ]), tolerance = 1e-6)
  cls <- predict(fit, d$X[-tr, ], type = "class")
  expect_equal(cls, p > rep(fit$thresholds, each = nrow(p)))
  expect_equal(predict(fit, type = "score"), fit$recovered)
  # the formula interface (complete labels: model.frame()'s na.action sees the labels)
  df <- data.frame(d$X, d$Y)
  ff <- mlml(cbind(L1, L2, L3, L4) ~ ., data = df[tr, ], knn = 4)
  fm <- mlml(d$X[tr, ], d$Y[tr, ], knn = 4)
  expect_equal(unname(predict(ff, df[-tr, ], type = "score")), unname(predict(fm, d$X[-tr, ], type = "score")),
               tolerance = 1e-10)
})

test_that("thresholds give the missing entries the observed positive rate", {
  d <- mlml_case(seed = 7, n = 60, rate = 0.5)
  fit <- mlml(d$X, d$y, knn = 5)
  miss <- is.na(d$y)
  for (l in seq_len(ncol(d$y))) {
    predicted <- sum(fit$recovered[miss[, l], l] > fit$thresholds[l])
    expect_equal(predicted, round(mean(d$y[!miss[, l], l]) * sum(miss[, l])))
  }
  full <- mlml(d$X, d$Y, knn = 5)
  expect_equal(unname(full$thresholds), rep(0, ncol(d$Y)))
})

test_that("sparse x gives the same fit, and bad input is refused", {
  d <- mlml_case(seed = 6)
  Xs <- d$X * (d$X > 0)
  f1 <- mlml(Xs, d$y, knn = 4)
  f2 <- mlml(Matrix::Matrix(Xs, sparse = TRUE), d$y, knn = 4)
  expect_equal(f1$recovered, f2$recovered, tolerance = 1e-10)
  expect_output(print(f1), "MLML")
  expect_error(mlml(d$X, d$y, knn = 30), "'knn'")
  expect_error(mlml(d$X, d$y, beta = -1), "'beta'")
  expect_error(mlml(d$X, d$y, loss = "hinge"), "should be one of")
  expect_error(mlml(d$X[-1, ], d$y), "rows")
  expect_error(mlml(d$X, d$y, foo = 2), "unknown argument")
  expect_error(predict(f1, d$X[, 1:2], type = "score"), "columns")
  expect_warning(mlml(d$X, d$y, max_iter = 1), "max_iter")
})

test_that("a huge value gives the fit of a large one, not NaN (issue 28)", {
  d <- mlml_case(seed = 8)
  # 1e300 and 1e150 both dwarf the other values, so the graphs are the same
  # (the row's distances are its value, the weights of its edges the same
  # ratios); only 1e300 overflowed d^2, and every score became NaN
  X1 <- X2 <- d$X
  X1[2, 1] <- 1e300
  X2[2, 1] <- 1e150
  f1 <- mlml(X1, d$y, knn = 4)
  f2 <- mlml(X2, d$y, knn = 4)
  expect_true(all(is.finite(f1$recovered)))
  expect_equal(f1$recovered, f2$recovered, tolerance = 1e-12)
  fs <- mlml(Matrix::Matrix(X1, sparse = TRUE), d$y, knn = 4)
  expect_equal(fs$recovered, f1$recovered, tolerance = 1e-12)
  # the same in predict(): a new row with 1e300
  f0 <- mlml(d$X, d$y, knn = 4)
  new1 <- new2 <- d$X[1:4, ]
  new1[3, 2] <- 1e300
  new2[3, 2] <- 1e150
  p1 <- predict(f0, new1, type = "score")
  expect_true(all(is.finite(p1)))
  expect_equal(p1, predict(f0, new2, type = "score"), tolerance = 1e-12)
  # distances beyond the largest double (row 2 at 1e308, the others at
  # -1e308) are recomputed by heat_weights() on x / 2^1023: the same fit as
  # at +-1e150, where nothing overflows (x / 2^1024 = x / Inf made every
  # distance 0, and every weight 1)
  X5 <- X6 <- d$X
  X5[, 1] <- -1e308
  X5[2, 1] <- 1e308
  X6[, 1] <- -1e150
  X6[2, 1] <- 1e150
  expect_equal(mlml(X5, d$y, knn = 4)$recovered, mlml(X6, d$y, knn = 4)$recovered,
               tolerance = 1e-12)
  # all values huge: the graph depends on the distances' ratios only
  expect_equal(mlml(d$X * 1e200, d$y, knn = 4)$recovered, f0$recovered, tolerance = 1e-12)
})

test_that("the documented defaults: beta = 0.1, gamma = 0.01 (issue 28), knn = 10", {
  # The fit at the defaults solves the QP with those weights: its KKT
  # conditions, in the plain-R gradient, hold at beta = 0.1, gamma = 0.01 and
  # 10 neighbours (and fail at the old gamma = 0.1).
  d <- mlml_case(seed = 8, n = 40)
  fit <- mlml(d$X, d$y, tol = 1e-14, max_iter = 50000)
  expect_true(fit$converged)
  g <- ref_mlml_graphs(d$X, d$y, 10)
  Ys <- ifelse(is.na(d$y), 0, ifelse(d$y, 1, -1))
  Z <- unname(fit$recovered)
  kkt <- function(gamma) {
    G <- ref_mlml_gradient(Z, Ys, g, 0.1, gamma, "linear")
    inner <- abs(Z) < 1 - 1e-6
    max(abs(G[inner]), pmax(G[Z >= 1 - 1e-9], 0), pmax(-G[Z <= -1 + 1e-9], 0))
  }
  expect_true(any(abs(Z) < 1 - 1e-6))
  expect_lt(kkt(0.01), 1e-4)
  expect_gt(kkt(0.1), 1e-3)
})
