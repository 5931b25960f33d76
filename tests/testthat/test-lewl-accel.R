# Anderson mixing of LEWL's missing entries (issue 23, options(mlss.lewl_accel)):
# its fixed point against the plain alternation and against one step of the
# equations written in plain R (helper-lewl.R), and the safeguard that keeps
# the objectives non-increasing.

lewl_with_accel <- function(depth, ...) {
  old <- options(mlss.lewl_accel = depth)
  on.exit(options(old))
  suppressWarnings(lewl(...))
}

test_that("an accelerated fit's fixed point is the plain alternation's", {
  p <- lewl_problem(40, 4, m = 4, rate = 0.5, seed = 10)
  args <- list(p$x, p$ymiss, k = 2, lambda = 1, beta = 1, knn = 5, gamma = 0.5)
  plain <- do.call(lewl_with_accel, c(list(0L), args, tol = 0, max_iter = 3000))
  for (depth in c(3L, 10L)) {
    acc <- do.call(lewl_with_accel, c(list(depth), args, tol = 1e-13, max_iter = 3000))
    expect_true(acc$converged)
    expect_gt(acc$accel_steps, 0L)
    expect_lt(acc$iterations, 200L)
    # the same point as the plain alternation run to the end of its descent
    expect_equal(acc$recovered, plain$recovered, tolerance = 1e-6)
    expect_lte(tail(acc$objective, 1), tail(plain$objective, 1) +
                 1e-10 * abs(tail(plain$objective, 1)))
    # a fixed point of the equations: one Z-step (eigen()) and one exact
    # recovery (solve()) from it return it
    W <- ref_lewl_graph(p$x, 5, acc$t)
    K <- ref_lewl_kernel(p$x, 0.5)
    miss <- is.na(p$ymiss)
    Z <- ref_lewl_zstep(acc$completed, K, 1, 2)
    again <- ref_lewl_recover_exact(acc$completed, Z %*% crossprod(Z, acc$completed), W, 1,
                                    miss)
    expect_equal(again, acc$completed, tolerance = 1e-6, ignore_attr = TRUE)
    # the recorded objective is the objective of what is returned
    expect_equal(tail(acc$objective, 1),
                 ref_lewl_objective(acc$completed, acc$Z, acc$D, W, K, 1, 1),
                 tolerance = 1e-9)
  }
})

test_that("the safeguard refuses Anderson steps that would raise the objective", {
  # a problem on which depth-5 steps overshoot (12 of them refused)
  p <- lewl_problem(40, 4, m = 5, rate = 0.5, seed = 1)
  fit <- lewl_with_accel(5L, p$x, p$ymiss, k = 2, lambda = 1, beta = 1, knn = 5,
                         gamma = 0.5, tol = 1e-12, max_iter = 3000)
  expect_true(fit$converged)
  expect_gt(fit$accel_rejected, 0L)
  obj <- fit$objective
  expect_true(all(diff(obj) <= 1e-12 * abs(obj[-1])))
  plain <- lewl_with_accel(0L, p$x, p$ymiss, k = 2, lambda = 1, beta = 1, knn = 5,
                           gamma = 0.5, tol = 0, max_iter = 3000)
  expect_equal(fit$recovered, plain$recovered, tolerance = 1e-6)
})

test_that("the Anderson option is checked", {
  p <- lewl_problem(30, 4, m = 3, seed = 2)
  for (bad in list(-1, 2.5, 51, c(1, 2), "a")) {
    old <- options(mlss.lewl_accel = bad)
    expect_error(lewl(p$x, p$ymiss, k = 2), "mlss.lewl_accel")
    options(old)
  }
})

# The stopping test of options(mlss.lewl_stop_terms = TRUE):
# |f_i - f_(i-1)| <= tol * scale_i with scale_i the size of
# the objective's terms, ||Yt - ZD||^2 + beta tr(Yt' L Yt) + lambda tr(Z' HKH Z)
# (at least |f_i| and |f_(i-1)|): at large lambda the HSIC term cancels the
# others and |f| alone is near 0.  Reference: the terms from the equations at
# the fit stopped there and at the fit one iteration earlier.
test_that("the stopping test is relative to the size of the objective's terms", {
  old <- options(mlss.lewl_stop_terms = TRUE)
  on.exit(options(old))
  p <- lewl_problem(40, 4, m = 4, rate = 0.4, seed = 1)
  args <- list(p$x, p$ymiss, k = 2, lambda = 10, beta = 1, knn = 5, gamma = 0.5)
  tol <- 1e-5
  fit <- do.call(lewl_with_accel, c(list(0L), args, tol = tol, max_iter = 500))
  expect_true(fit$converged)
  W <- ref_lewl_graph(p$x, 5, fit$t)
  K <- ref_lewl_kernel(p$x, 0.5)
  H <- ref_centre(40)
  scale <- function(f) {
    L <- diag(rowSums(W)) - W
    sum((f$completed - f$Z %*% f$D)^2) + sum(diag(t(f$completed) %*% L %*% f$completed)) +
      10 * sum(diag(t(f$Z) %*% H %*% K %*% H %*% f$Z))
  }
  i <- fit$iterations
  obj <- fit$objective
  expect_lte(abs(obj[i] - obj[i - 1]), tol * max(abs(obj[i - 1:0]), scale(fit)))
  # one iteration earlier the test was not met
  early <- do.call(lewl_with_accel, c(list(0L), args, tol = 0, max_iter = i - 1))
  expect_equal(early$objective, obj[seq_len(i - 1)], tolerance = 1e-12)
  expect_gt(abs(obj[i - 1] - obj[i - 2]),
            tol * max(abs(obj[i - 2:1]), scale(early)))
  # and |f| alone would not have stopped here
  expect_gt(abs(obj[i] - obj[i - 1]), tol * max(abs(obj[i - 1:0])))
})
