# LEWL against plain-R references (helper-lewl.R): the graph and kernel, the
# Z-step from eigen(), the recovery step from solve(), the objective, and its
# monotone decrease step by step.

lewl_start <- function(y, init = 0.5) {
  s <- y + 0
  s[is.na(s)] <- init
  s
}

test_that("the kNN graph and the kernel match brute force", {
  p <- lewl_problem(30, 4)
  prep <- mlss:::lewl_prepare(p$x, knn = 4, t = 2, gamma = 0.3)
  expect_equal(as.matrix(prep$W), ref_lewl_graph(p$x, 4, 2), tolerance = 1e-10,
               ignore_attr = TRUE)
  expect_equal(prep$K, ref_lewl_kernel(p$x, 0.3), tolerance = 1e-10, ignore_attr = TRUE)
  expect_true(isSymmetric(as.matrix(prep$W)))
  # the defaults: median heuristics
  d2 <- as.matrix(dist(p$x))^2
  prep <- mlss:::lewl_prepare(p$x, knn = 4)
  expect_equal(prep$gamma, 1 / median(d2[upper.tri(d2)]))
  nb <- t(apply(d2 + diag(Inf, 30), 1, function(r) sort(r)[1:4]))
  expect_equal(prep$t, median(nb))
})

test_that("with no missing entries and beta = 0 the Z-step is the top-k eigenspace", {
  p <- lewl_problem(35, 5, m = 6)
  for (lambda in c(0, 0.5, 5)) {
    fit <- suppressWarnings(lewl(p$x, p$y, k = 3, lambda = lambda, beta = 0, gamma = 0.2,
                                 max_iter = 1))
    Y <- p$y + 0
    Zref <- ref_lewl_zstep(Y, ref_lewl_kernel(p$x, 0.2), lambda, 3)
    expect_equal(projector(fit$Z), projector(Zref), tolerance = 1e-8, ignore_attr = TRUE)
    expect_equal(crossprod(fit$Z), diag(3), tolerance = 1e-10, ignore_attr = TRUE)
    expect_equal(fit$D, crossprod(fit$Z, Y), tolerance = 1e-10, ignore_attr = TRUE)
    expect_equal(fit$completed, Y, ignore_attr = TRUE)  # nothing to recover
  }
})

test_that("the recovery step equals the dense solve (exact and paper's formula)", {
  p <- lewl_problem(30, 4, m = 5, rate = 0.4)
  W <- ref_lewl_graph(p$x, 5, 1.5)
  miss <- is.na(p$ymiss)
  for (beta in c(0, 0.7, 5)) {
    for (recovery in c("exact", "paper")) {
      fit <- suppressWarnings(lewl(p$x, p$ymiss, k = 2, lambda = 1, beta = beta, knn = 5,
                                   t = 1.5, gamma = 0.5, recovery = recovery,
                                   max_iter = 1))
      ref <- if (recovery == "exact") ref_lewl_recover_exact else ref_lewl_recover_paper
      Y1 <- ref(lewl_start(p$ymiss), fit$Z %*% fit$D, W, beta, miss)
      expect_equal(fit$completed, Y1, tolerance = 1e-8, ignore_attr = TRUE)
    }
  }
  # the paper's formula is not the minimiser over the missing entries: the
  # exact step reaches a lower objective from the same Z and D
  K <- ref_lewl_kernel(p$x, 0.5)
  fit <- suppressWarnings(lewl(p$x, p$ymiss, k = 2, beta = 5, knn = 5, t = 1.5,
                               gamma = 0.5, max_iter = 1))
  ZD <- fit$Z %*% fit$D
  f_exact <- ref_lewl_objective(ref_lewl_recover_exact(lewl_start(p$ymiss), ZD, W, 5, miss),
                                fit$Z, fit$D, W, K, 1, 5)
  f_paper <- ref_lewl_objective(ref_lewl_recover_paper(lewl_start(p$ymiss), ZD, W, 5, miss),
                                fit$Z, fit$D, W, K, 1, 5)
  expect_lt(f_exact, f_paper)
})

test_that("no update step increases the objective, and the recorded objective is right", {
  # the plain alternation's steps, replayed one iteration at a time (the
  # Anderson steps between them: test-lewl-accel.R)
  old <- options(mlss.lewl_accel = 0L)
  on.exit(options(old))
  for (seed in 1:3) {
    p <- lewl_problem(32, 4, m = 5, rate = 0.5, seed = seed)
    W <- ref_lewl_graph(p$x, 6, 2)
    K <- ref_lewl_kernel(p$x, 0.4)
    args <- list(p$x, p$ymiss, k = 2, lambda = 2, beta = 1.5, knn = 6, t = 2, gamma = 0.4,
                 tol = 0)
    prev <- lewl_start(p$ymiss)
    trace <- numeric(0)
    for (it in 1:6) {
      fit <- suppressWarnings(do.call(lewl, c(args, max_iter = it)))
      f_zd <- ref_lewl_objective(prev, fit$Z, fit$D, W, K, 2, 1.5)  # after Z, D
      f_y <- ref_lewl_objective(fit$completed, fit$Z, fit$D, W, K, 2, 1.5)  # after Yt
      trace <- c(trace, f_zd, f_y)
      expect_equal(fit$objective[it], f_y, tolerance = 1e-9)
      prev <- fit$completed
    }
    expect_true(all(diff(trace) <= 1e-9 * abs(trace[-1])))
  }
})

test_that("observed entries never change, recovered scores lie in [0, 1]", {
  p <- lewl_problem(40, 5, m = 4, rate = 0.5)
  obs <- !is.na(p$ymiss)
  for (recovery in c("exact", "paper")) {
    fit <- lewl(p$x, p$ymiss, k = 2, recovery = recovery)
    expect_identical(fit$completed[obs], as.double(p$ymiss[obs]))
    expect_identical(fit$recovered[obs], as.double(p$ymiss[obs]))
    expect_true(all(fit$recovered >= 0 & fit$recovered <= 1))
    expect_equal(fit$recovered[!obs], pmin(pmax(fit$completed[!obs], 0), 1))
    expect_identical(fit$missing, !obs, ignore_attr = TRUE)
    expect_identical(dimnames(fit$recovered), dimnames(p$ymiss))
  }
})

test_that("converges, warns when it does not, and plots its objective", {
  p <- lewl_problem(40, 5)
  fit <- lewl(p$x, p$ymiss)
  expect_true(fit$converged)
  expect_equal(fit$k, 5L)  # m = 5 labels (issue 22; was ceiling(5 / 2))
  expect_warning(lewl(p$x, p$ymiss, max_iter = 1, tol = 0), "did not converge")
  # beta = 0 with missing entries: more iterations are not the remedy
  w1 <- tryCatch(lewl(p$x, p$ymiss, beta = 1, max_iter = 1, tol = 0),
                 mlss_not_converged = conditionMessage)
  w0 <- tryCatch(lewl(p$x, p$ymiss, beta = 0, max_iter = 1, tol = 0),
                 mlss_not_converged = conditionMessage)
  expect_match(w1, "raise 'max_iter'")
  expect_false(grepl("beta = 0", w1, fixed = TRUE))
  expect_match(w0, "at beta = 0 nothing ties the missing entries")
  expect_false(grepl("raise 'max_iter'", w0, fixed = TRUE))
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_identical(plot(fit), fit)
  # a fully observed y converges at once: ticks at whole iterations
  short <- lewl(p$x, p$y)
  expect_identical(plot(short), short)
  n_iter <- length(short$objective)
  expect_true(n_iter %in% 2:5)
  expect_equal(lewl_plot_args(short)$xaxp, c(1, n_iter, n_iter - 1))
  expect_identical(lewl_plot_args(short, main = "m")$main, "m")
  expect_output(print(fit), "LEWL on 40 instances")
  expect_output(print(summary(fit)), "recovered_mean")
  expect_identical(coef(fit), fit$D)
  expect_identical(coef(fit, "Z"), fit$Z)
})

test_that("predictions: scores, classes, thresholds, formula, sparse, regressors", {
  p <- lewl_problem(50, 4, m = 4)
  fit <- lewl(p$x, p$ymiss, k = 2)
  s <- predict(fit, p$x[1:5, ], type = "score")
  expect_identical(colnames(s), colnames(p$y))
  cls <- predict(fit, p$x[1:5, ], type = "class")
  expect_identical(cls, s > fit$thresholds[1])
  expect_length(unique(fit$thresholds), 1)  # one global cut
  # the global cut maximises F1 over all observed training entries
  train <- predict(fit, p$x, type = "score")
  obs <- !is.na(p$ymiss)
  expect_equal(unname(fit$thresholds[1]),
               unname(f1_thresholds(train[obs], p$ymiss[obs])$threshold))
  fitl <- lewl(p$x, p$ymiss, k = 2, threshold = "label")
  expect_equal(unname(fitl$thresholds[2]),
               unname(f1_thresholds(train[obs[, 2], 2], p$ymiss[obs[, 2], 2])$threshold))
  # sparse x and the formula interface give the same model
  fs <- lewl(Matrix::Matrix(p$x, sparse = TRUE), p$ymiss, k = 2)
  expect_equal(fs$completed, fit$completed, tolerance = 1e-8)
  df <- data.frame(p$x, p$ymiss)
  ff <- lewl(cbind(L1, L2, L3, L4) ~ X1 + X2 + X3 + X4, data = df, k = 2)
  expect_equal(ff$completed, fit$completed, tolerance = 1e-10, ignore_attr = TRUE)
  expect_equal(predict(ff, df[1:5, ], type = "score"), s, tolerance = 1e-10, ignore_attr = TRUE)
  # kernel ridge and a user regressor (ordinary least squares)
  fk <- lewl(p$x, p$ymiss, k = 2, regressor = "kernel_ridge")
  expect_equal(dim(predict(fk, p$x[1:3, ], type = "score")), c(3L, 4L))
  ols <- function(x, z) {
    b <- qr.solve(cbind(1, x), z)
    function(newx) cbind(1, newx) %*% b
  }
  fu <- lewl(p$x, p$ymiss, k = 2, regressor = ols)
  expect_equal(predict(fu, p$x[1:3, ], type = "score"),
               cbind(1, p$x[1:3, ]) %*% qr.solve(cbind(1, p$x), fu$Z) %*% fu$D,
               ignore_attr = TRUE)
})

test_that("a fit keeps no n x n matrix: its serialised size grows less than quadratically", {
  # the predictor's closure once kept the kernel through an unforced promise:
  # saveRDS() wrote 8 n^2 bytes and more while object.size() saw none of it
  size <- function(n, ...) {
    p <- lewl_problem(n, 4, m = 3, seed = 2)
    length(serialize(lewl(p$x, p$y, k = 2, ...), NULL))
  }
  for (reg in c("ridge", "kernel_ridge")) {
    s200 <- size(200, regressor = reg)
    s400 <- size(400, regressor = reg)
    expect_lt(s400, 8 * 400^2 / 10, label = paste(reg, "bytes at n = 400"))
    expect_lt(s400 / s200, 3, label = paste(reg, "growth from n = 200 to 400"))
  }
  # a user's regressor: the fit holds the predictor it returned, nothing more of ours
  p <- lewl_problem(400, 4, m = 3, seed = 2)
  ols <- function(x, z) {
    b <- qr.solve(cbind(1, x), z)
    function(newx) cbind(1, newx) %*% b
  }
  # not this test's frame (which holds p), nor the test file's source references
  ols <- utils::removeSource(ols)
  environment(ols) <- globalenv()
  fu <- lewl(p$x, p$y, k = 2, regressor = ols)
  expect_lt(length(serialize(fu, NULL)), 8 * 400^2 / 10)
})

test_that("bad input gives clear errors", {
  p <- lewl_problem(30, 4, m = 4)
  x <- p$x
  expect_error(lewl(x, p$ymiss[-1, ]), "rows")
  x[2, 2] <- NA
  expect_error(lewl(x, p$ymiss), "NA")
  expect_error(lewl(p$x, p$ymiss, k = 31), "'k' must be a whole number from 1 to 30")
  expect_error(lewl(p$x, p$ymiss, knn = 30), "'knn'")
  expect_error(lewl(p$x, p$ymiss, lambda = -1), "'lambda'")
  expect_error(lewl(p$x, p$ymiss, beta = NA), "'beta'")
  y <- p$ymiss
  y[, 3] <- NA
  expect_error(lewl(p$x, y), "missing \\(NA\\) on every row")
  expect_error(lewl(data.frame(a = letters[1:30], b = 1:30), p$ymiss), "not numeric")
  expect_error(lewl(p$x, p$ymiss, foo = 1), "unknown argument")
  expect_error(lewl(p$x, p$ymiss, regressor = function(x, z) 1), "must return a function")
  expect_error(lewl(p$x, p$ymiss, t = 0), "'t' must be > 0")
  fit <- lewl(p$x, p$ymiss, k = 2)
  expect_error(predict(fit, p$x[, 1:3], type = "score"), "columns")
})

test_that("a label without an observed positive (or negative) is kept, never (always) predicted", {
  p <- lewl_problem()
  y <- p$ymiss
  y[!is.na(y[, 3]), 3] <- FALSE
  y[!is.na(y[, 4]), 4] <- TRUE
  expect_warning(expect_warning(fit <- lewl(p$x, y, k = 2),
                                "have no positive example"), "positive for every example")
  expect_lt(max(abs(fit$recovered[is.na(y[, 3]), 3])), 1e-3)
  cls <- predict(fit, p$x, type = "class")
  expect_false(any(cls[, 3]))
  expect_true(all(cls[, 4]))
  # in cross-validation a fold's training part may lose a rare label's positives
  y[, 4] <- p$ymiss[, 4]
  y[, 3] <- NA
  y[2, 3] <- TRUE
  y[c(3, 4, 7), 3] <- FALSE
  expect_warning(cv <- cv_lewl(p$x, y, lambda = 1, beta = 1, k = 2, nfolds = 2,
                               progress = FALSE), "only one fold")
  expect_true(all(is.finite(cv$cvfold)))
})
