# The L2-logistic solver (br(), cc(), pcc(), iblr()) against plain-R Newton,
# the optimality conditions of its stated problem, and LiblineaR.

# 0.5 ||theta||^2 + C sum_i log(1 + exp(-s_i x~_i'theta)), x~_i = (x_i, 1)
lr_ref_obj <- function(theta, X, s, C) {
  m <- -s * drop(X %*% theta)
  0.5 * sum(theta^2) + C * sum(pmax(m, 0) + log1p(exp(-abs(m))))
}
lr_ref_grad <- function(theta, X, s, C)
  theta - C * drop(crossprod(X, s * stats::plogis(-s * drop(X %*% theta))))
# plain Newton with step halving, to the limit of double precision
lr_ref_newton <- function(X, s, C) {
  th <- numeric(ncol(X))
  for (k in 1:200) {
    p <- stats::plogis(drop(X %*% th))
    H <- diag(ncol(X)) + C * crossprod(X, X * (p * (1 - p)))
    step <- solve(H, lr_ref_grad(th, X, s, C))
    f0 <- lr_ref_obj(th, X, s, C)
    t <- 1
    while (lr_ref_obj(th - t * step, X, s, C) > f0 && t > 1e-12) t <- t / 2
    th <- th - t * step
    if (max(abs(t * step) / (1 + abs(th))) < 1e-14) break
  }
  th
}
# |gradient| relative to the size of its terms, |theta_j| + C sum_i |x~_ij|
lr_rel_grad <- function(theta, X, s, C)
  max(abs(lr_ref_grad(theta, X, s, C)) / (abs(theta) + C * colSums(abs(X))))

test_that("at the defaults the weights are the optimum, also with a column scaled by 1e6", {
  e <- mlss::emotions
  for (sc in c(1, 1e6)) {
    x <- e$x
    x[, 3] <- x[, 3] * sc
    fit <- br(x, e$y, learner = "logistic")
    X <- cbind(x, 1)
    for (l in seq_len(ncol(e$y))) {
      s <- 2 * e$y[, l] - 1
      th <- unname(c(fit$W[, l], fit$intercept[l]))
      ref <- lr_ref_newton(X, s, 1)
      f_ref <- lr_ref_obj(ref, X, s, 1)
      # LIBLINEAR's rule alone stopped 1e-2 to 2 (x 1e6) above the optimum
      expect_lt((lr_ref_obj(th, X, s, 1) - f_ref) / f_ref, 1e-9)
      expect_lt(lr_rel_grad(th, X, s, 1), 1e-6)
      expect_equal(th, unname(ref), tolerance = 1e-4)
      expect_equal(unname(fit$grad_norm[l]), sqrt(sum(lr_ref_grad(th, X, s, 1)^2)),
                   tolerance = 1e-3)
    }
  }
})

test_that("a large cost converges at the limit of double precision without a stall warning", {
  e <- mlss::emotions
  y <- e$y[, 2:3]
  # the gradient test cannot be met in double precision here; a Newton step
  # that promises nothing shows the optimum is reached
  expect_warning(fit <- br(e$x, y, learner = "logistic", cost = 1e6), NA)
  X <- cbind(e$x, 1)
  for (l in 1:2) {
    s <- 2 * y[, l] - 1
    th <- unname(c(fit$W[, l], fit$intercept[l]))
    f_ref <- lr_ref_obj(lr_ref_newton(X, s, 1e6), X, s, 1e6)
    expect_lt((lr_ref_obj(th, X, s, 1e6) - f_ref) / f_ref, 1e-10)
  }
})

test_that("at the defaults the weights are LiblineaR's at a tight tolerance on an unbalanced label", {
  skip_if_not_installed("LiblineaR")
  e <- mlss::emotions
  x <- scale(e$x)
  y <- e$y[, "quiet-still", drop = FALSE]   # 148 positives of 593
  x <- x[1:300, ]
  y <- y[1:300, , drop = FALSE]
  expect_lt(mean(y), 0.3)
  fit <- br(x, y, learner = "logistic", cost = 0.5)
  ll <- LiblineaR::LiblineaR(x, as.integer(y[, 1]), type = 0, cost = 0.5, epsilon = 1e-10,
                             bias = 1)
  sgn <- if (as.character(ll$ClassNames[1]) == "1") 1 else -1
  expect_equal(unname(c(fit$W[, 1], fit$intercept)), sgn * unname(drop(ll$W)), tolerance = 1e-6)
})

test_that("extreme finite input gives an error or a correct fit, never W = 0 or a hang", {
  e <- mlss::emotions
  x <- e$x[1:150, 1:8]
  y <- e$y[1:150, 1:2]
  big <- x
  big[, 1] <- big[, 1] * 1e155   # x^2 overflows: the gradient norm was Inf <= Inf
  expect_error(br(big, y, learner = "logistic"), "overflows.*scale the features")
  expect_error(cc(big, y), "overflows")
  # features of 1e50: the conjugate gradients ran for minutes; now a few steps
  t <- system.time(fit <- br(x * 1e50, y, learner = "logistic"))[["elapsed"]]
  expect_lt(t, 20)
  X <- cbind(x * 1e50, 1)
  for (l in 1:2) {
    s <- 2 * y[, l] - 1
    th <- unname(c(fit$W[, l], fit$intercept[l]))
    expect_true(any(th[1:8] != 0))
    expect_lt(lr_rel_grad(th, X, s, 1), 1e-6)
  }
  expect_lt(system.time(cc(x * 1e50, y))[["elapsed"]], 20)
  # cost = 1e200 stopped at W = 0 after 0 steps; now a fit or a warning, never silent zeros
  res <- tryCatch(br(x, y, learner = "logistic", cost = 1e200),
                  warning = function(w) w, error = function(e) e)
  if (inherits(res, "br")) {
    expect_true(all(res$iter > 0))
    X <- cbind(x, 1)
    for (l in 1:2) {
      th <- unname(c(res$W[, l], res$intercept[l]))
      expect_true(any(th != 0))
      expect_lt(lr_rel_grad(th, X, 2 * y[, l] - 1, 1e200), 1e-6)
    }
  } else {
    expect_match(conditionMessage(res), "stalled|max_iter|overflows")
  }
})

test_that("a stall and an overflow are reported, naming the labels", {
  expect_warning(mlss:::warn_not_converged(c(0L, 2L, 0L), c("a", "b", "c")),
                 "stalled.*'b'")
  expect_error(mlss:::warn_not_converged(c(3L, 0L), c("a", "b")), "overflows.*'a'")
  expect_warning(mlss:::warn_not_converged(c(1L, 0L), c("a", "b")), "max_iter.*'a'")
  expect_silent(mlss:::warn_not_converged(c(0L, 0L), c("a", "b")))
})
