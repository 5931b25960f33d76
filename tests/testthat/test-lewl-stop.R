# LEWL's stopping test "settled" (options(mlss.lewl_stop), issue 23): the
# objective's relative change at most tol AND the missing entries settled:
# their largest change in the last iteration, dx, times rho / (1 - rho), rho
# the largest contraction |T(x_s) - T(x_s-1)| / |x_s - x_s-1| seen over the
# last 5 iterations (for the plain scheme the ratio of consecutive steps), at
# most xtol = sqrt(tol).  References: the plain alternation written in plain R
# (eigen() for the Z-step, solve() for the exact recovery; helper-lewl.R),
# run to its fixed point.

lewl_with_stop <- function(stop, ..., accel = 0L) {
  old <- options(mlss.lewl_stop = stop, mlss.lewl_accel = accel)
  on.exit(options(old))
  suppressWarnings(lewl(...))
}

# The plain alternation from the start (missing entries at 0.5) in plain R:
# the completed matrix after each of `iters` iterations.
ref_lewl_path <- function(p, k, lambda, beta, knn, gamma, t, iters) {
  W <- ref_lewl_graph(p$x, knn, t)
  K <- ref_lewl_kernel(p$x, gamma)
  miss <- is.na(p$ymiss)
  Yt <- p$ymiss + 0
  Yt[miss] <- 0.5
  path <- vector("list", iters)
  for (it in seq_len(iters)) {
    Z <- ref_lewl_zstep(Yt, K, lambda, k)
    Yt <- ref_lewl_recover_exact(Yt, Z %*% crossprod(Z, Yt), W, beta, miss)
    path[[it]] <- Yt
  }
  path
}

test_that("$steps is the largest change of a missing entry per iteration", {
  p <- lewl_problem(36, 4, m = 4, rate = 0.5, seed = 3)
  fit <- lewl_with_stop("objective", p$x, p$ymiss, k = 2, lambda = 1, beta = 1, knn = 5,
                        gamma = 0.5, t = 2, tol = 0, max_iter = 8)
  path <- ref_lewl_path(p, 2, 1, 1, 5, 0.5, 2, 8)
  miss <- is.na(p$ymiss)
  prev <- c(list(ifelse(miss, 0.5, p$ymiss + 0)), path[-8])
  ref <- mapply(function(a, b) max(abs(a[miss] - b[miss])), path, prev)
  expect_length(fit$steps, 8L)
  expect_equal(fit$steps, ref, tolerance = 1e-7)
  # the contraction seen per iteration: for the plain scheme the ratio of
  # consecutive steps
  expect_equal(fit$rates[-1], ref[-1] / ref[-8], tolerance = 1e-6)
})

# The bound is an estimate (rho from the last iterations, not the limit's
# rate): on 12 such problems (seeds 1-12) x (plain, Anderson 3, 10) x (tol
# 1e-4, 1e-6, 1e-8) the stopped fits lay within 1.10 sqrt(tol) of the fixed
# point (plain: 1.09, at tol 1e-4); hence the factor 1.25 below.
test_that("the settled test stops within sqrt(tol) of the fixed point", {
  # the plain alternation contracts by about 0.8 per iteration here; the
  # objective's test alone stops 2.5e-3 from the fixed point at tol = 1e-6,
  # the settled test 8.5e-4 (bound 1e-3)
  p <- lewl_problem(40, 4, m = 4, rate = 0.5, seed = 10)
  args <- list(p$x, p$ymiss, k = 2, lambda = 1, beta = 1, knn = 5, gamma = 0.5)
  t <- lewl_with_stop("objective", p$x, p$ymiss, k = 2, knn = 5, gamma = 0.5,
                      max_iter = 1)$t
  path <- ref_lewl_path(p, 2, 1, 1, 5, 0.5, t, 1500)
  xstar <- path[[1500]]
  miss <- is.na(p$ymiss)
  # the reference is at its fixed point
  expect_lt(max(abs(path[[1499]][miss] - xstar[miss])), 1e-10)
  for (tol in c(1e-4, 1e-6, 1e-8)) {
    # with Anderson mixing (depth 3, 10) too: the rates are then those of the
    # map T at the mixed points, not the (faster) ratios of the mixed steps
    for (accel in c(3L, 10L)) {
      acc <- do.call(lewl_with_stop, c(list("settled"), args, tol = tol, max_iter = 3000,
                                       accel = accel))
      expect_true(acc$converged)
      expect_gt(acc$accel_steps, 0L)
      expect_lte(max(abs(acc$completed[miss] - xstar[miss])), 1.25 * sqrt(tol))
      # the test as stated, on the recorded steps and rates (the largest of
      # the last 5 rates: the mixed sequence's rates are not monotone)
      i <- acc$iterations
      rho <- max(acc$rates[i - 4:0])
      expect_lte(acc$steps[i] * rho / (1 - rho), sqrt(tol))
    }
    fit <- do.call(lewl_with_stop, c(list("settled"), args, tol = tol, max_iter = 3000))
    expect_true(fit$converged)
    dist <- max(abs(fit$completed[miss] - xstar[miss]))
    expect_lte(dist, 1.25 * sqrt(tol))
    # the test as stated, on the recorded steps and objectives
    i <- fit$iterations
    s <- fit$steps
    rho <- max(s[i - 4:0] / s[i - 5:1])
    expect_lt(rho, 1)
    expect_lte(s[i] * rho / (1 - rho), sqrt(tol))
    expect_lte(abs(diff(fit$objective[i - 1:0])), tol * max(abs(fit$objective[i - 1:0])))
    # and it first holds there: one iteration earlier it did not
    j <- i - 1
    rho_j <- max(s[j - 4:0] / s[j - 5:1])
    settled_j <- rho_j < 1 && s[j] * rho_j / (1 - rho_j) <= sqrt(tol)
    expect_false(settled_j &&
                   abs(diff(fit$objective[j - 1:0])) <= tol * max(abs(fit$objective[j - 1:0])))
  }
  # the objective's change alone stops this fit farther than sqrt(tol) away
  obj <- do.call(lewl_with_stop, c(list("objective"), args, tol = 1e-6, max_iter = 3000))
  expect_gt(max(abs(obj$completed[miss] - xstar[miss])), 1e-3)
  expect_lt(obj$iterations, fit$iterations)
})
