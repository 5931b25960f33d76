# The linear SVM's default loss (squared hinge) reaches the optimum of its
# stated problem at the defaults, on the bundled data as it comes (features
# from 0.017 to 237) and with one column multiplied by 1e6, against the plain-R
# gradient of the primal and LiblineaR's primal solver at a tight tolerance.

# gradient of 0.5 ||w||^2 + C sum_i max(0, 1 - y_i w'x~_i)^2, x~_i = (x_i, 1)
ref_l2svm_gradient <- function(w, X, y, C) {
  Xt <- cbind(X, 1)
  slack <- pmax(1 - y * drop(Xt %*% w), 0)
  w - 2 * C * drop(crossprod(Xt, slack * y))
}

test_that("the squared-hinge SVM at its defaults satisfies its optimality conditions", {
  data(emotions, package = "mlss")
  x <- emotions$x[1:250, ]
  y <- emotions$y[1:250, ]
  x_big <- x
  x_big[, 3] <- x_big[, 3] * 1e6
  for (X in list(x, x_big)) {
    expect_no_warning(fit <- br(X, y, learner = "svm"))
    Xt <- cbind(X, 1)
    for (l in seq_len(ncol(y))) {
      yl <- 2 * y[, l] - 1
      w <- c(fit$W[, l], fit$intercept[l])
      g <- ref_l2svm_gradient(w, X, yl, 1)
      slack <- pmax(1 - yl * drop(Xt %*% w), 0)
      f <- 0.5 * sum(w^2) + sum(slack^2)
      # the Newton decrement with the generalised Hessian I + 2C X~_I'X~_I
      # (I: rows inside the margin), half of which estimates f(w) - min f;
      # unlike the gradient it does not depend on the scale of the columns.
      # Stated (?br, Solver accuracy): below 1e-10 relative.
      H <- diag(length(w)) + 2 * crossprod(Xt[slack > 0, , drop = FALSE])
      expect_lt(0.5 * sum(g * solve(H, g)), 1e-10 * f)
    }
  }
})

test_that("its objective is LiblineaR's optimum at a tight tolerance", {
  skip_if_not_installed("LiblineaR")
  data(emotions, package = "mlss")
  x <- emotions$x[1:250, ]
  y <- emotions$y[1:250, ]
  obj <- function(w, l) {
    z <- drop(cbind(x, 1) %*% w)
    0.5 * sum(w^2) + sum(pmax(1 - (2 * y[, l] - 1) * z, 0)^2)
  }
  fit <- br(x, y, learner = "svm")
  for (l in seq_len(ncol(y))) {
    ll <- LiblineaR::LiblineaR(x, as.integer(y[, l]), type = 2, cost = 1, epsilon = 1e-10,
                               bias = 1)
    s <- if (as.character(ll$ClassNames[1]) == "1") 1 else -1
    best <- obj(s * drop(ll$W), l)
    expect_lt(obj(c(fit$W[, l], fit$intercept[l]), l), best * (1 + 1e-9))
  }
})

# the hinge loss: the duality gap P(w) - D(a) of
#   min_w 0.5 ||w||^2 + C sum_i max(0, 1 - y_i w'x~_i)
#   max_a sum_i a_i - 0.5 ||sum_i a_i y_i x~_i||^2,  0 <= a_i <= C
# bounds P(w) - min P; computed here in plain R from the returned w and dual
ref_hinge_gap <- function(w, a, X, y, C) {
  Xt <- cbind(X, 1)
  P <- 0.5 * sum(w^2) + C * sum(pmax(1 - y * drop(Xt %*% w), 0))
  wa <- drop(crossprod(Xt, a * y))
  c(P = P, gap = P - (sum(a) - 0.5 * sum(wa^2)), wdiff = max(abs(wa - w)),
    box = min(a, C - a))
}

test_that("the hinge SVM at its defaults reaches its optimum or says it did not", {
  data(yeast, package = "mlss")
  x <- yeast$x[1:300, ]
  y <- yeast$y[1:300, 1:6]
  expect_no_warning(fit <- br(x, y, learner = "svm", loss = "hinge"))
  for (l in seq_len(ncol(y))) {
    r <- ref_hinge_gap(c(fit$W[, l], fit$intercept[l]), fit$dual[, l], x, 2 * y[, l] - 1, 1)
    # a feasible dual point whose w is the returned one
    expect_gte(r[["box"]], 0)
    expect_lt(r[["wdiff"]], 1e-10 * max(1, max(abs(fit$W[, l]))))
    # stated: a relative gap below 1e-6, and reported
    expect_lt(r[["gap"]], 1e-6 * r[["P"]])
    expect_lt(abs(fit$dual_gap[[l]] - r[["gap"]] / r[["P"]]), 1e-9)
  }
  # LIBLINEAR's rule alone (the spread of the projected gradients below 0.1)
  # stopped at relative gaps up to 7.8e-7 here and 3e-2 on scaled emotions
})

# The duality gap at (w, a) with w = sum_i a_i y_i x~_i is the KKT conditions'
# complementarity, sum_i a_i (m_i - 1)_+ + (C - a_i) (1 - m_i)_+ with margins
# m_i = y_i w'x~_i: zero exactly when a_i = 0 wherever m_i > 1 and a_i = C
# wherever m_i < 1.
ref_hinge_kkt <- function(w, a, X, y, C) {
  m <- y * drop(cbind(X, 1) %*% w)
  sum(a * pmax(m - 1, 0) + (C - a) * pmax(1 - m, 0))
}

test_that("the hinge SVM reaches its optimum on unscaled features and a column times 1e6", {
  # dual coordinate descent alone stopped at gaps near 1 here (LiblineaR too);
  # the interior-point method it hands over to reaches the stated 1e-6
  data(emotions, package = "mlss")
  data(yeast, package = "mlss")
  x_big <- yeast$x[1:300, ]
  x_big[, 3] <- x_big[, 3] * 1e6
  e_big <- emotions$x[1:150, ]
  e_big[, 3] <- e_big[, 3] * 1e6
  cases <- list(list(x_big, yeast$y[1:300, 1:3], 1), list(emotions$x[1:150, ], emotions$y[1:150, 1:3], 1),
                list(e_big, emotions$y[1:150, 1:3], 0.01))
  for (case in cases) {
    X <- case[[1]]
    C <- case[[3]]
    expect_no_warning(fit <- br(X, case[[2]], learner = "svm", loss = "hinge", cost = C))
    # handed over after sweeps costing 1/20 of the interior-point solve (about
    # 200 here), not at max_iter = 1000
    expect_lt(max(fit$iter), 500)
    for (l in seq_len(ncol(case[[2]]))) {
      yl <- 2 * case[[2]][, l] - 1
      w <- c(fit$W[, l], fit$intercept[l])
      a <- fit$dual[, l]
      r <- ref_hinge_gap(w, a, X, yl, C)
      expect_gte(r[["box"]], 0)
      expect_lt(r[["gap"]], 1e-6 * r[["P"]])
      expect_equal(fit$dual_gap[[l]], r[["gap"]] / r[["P"]], tolerance = 1e-6)
      # w = sum_i a_i y_i x~_i up to the rounding of that sum (its terms reach
      # 1e6 times the features where w is of order 1e-6)
      Xt <- cbind(X, 1)
      expect_true(all(abs(drop(crossprod(Xt, a * yl)) - w) <=
                        1e-9 * drop(crossprod(abs(Xt), a)) + 1e-12))
      # the complementarity of the KKT conditions: the gap, up to that rounding
      expect_lt(ref_hinge_kkt(w, a, X, yl, C), 1e-6 * r[["P"]])
    }
  }
})

test_that("the hinge SVM's objective is a generic QP solver's optimum (quadprog)", {
  skip_if_not_installed("quadprog")
  # the primal QP min 0.5 w'w + C sum xi, y_i w'x~_i + xi_i >= 1, xi >= 0,
  # each constraint divided by its norm, xi given a 1e-8 ridge (quadprog
  # wants a positive definite matrix); its objective is read at its own w
  data(emotions, package = "mlss")
  x <- emotions$x[1:60, ]
  y <- emotions$y[1:60, 1:3]
  x_big <- x
  x_big[, 3] <- x_big[, 3] * 1e6
  for (X in list(x, x_big)) {
    fit <- br(X, y, learner = "svm", loss = "hinge")
    Xt <- cbind(X, 1)
    n <- nrow(Xt)
    p <- ncol(Xt)
    for (l in seq_len(ncol(y))) {
      yl <- 2 * y[, l] - 1
      V <- yl * Xt
      nr <- sqrt(rowSums(V^2) + 1)
      A <- rbind(cbind(V / nr, diag(1 / nr)), cbind(matrix(0, n, p), diag(n)))
      q <- quadprog::solve.QP(Dmat = diag(c(rep(1, p), rep(1e-8, n))),
                              dvec = c(rep(0, p), rep(-1, n)), Amat = t(A),
                              bvec = c(1 / nr, rep(0, n)))
      P <- function(w) 0.5 * sum(w^2) + sum(pmax(1 - yl * drop(Xt %*% w), 0))
      w <- c(fit$W[, l], fit$intercept[l])
      best <- P(q$solution[seq_len(p)])
      expect_lt(P(w), best * (1 + 1e-6))
      # weak duality: nothing is below the returned dual's objective
      a <- fit$dual[, l]
      expect_gte(best, sum(a) - 0.5 * sum(crossprod(V, a)^2) - 1e-9 * best)
    }
  }
})

test_that("the hinge SVM's optimum matches LiblineaR's at a tight tolerance", {
  skip_if_not_installed("LiblineaR")
  data(yeast, package = "mlss")
  x <- yeast$x[1:300, ]
  y <- yeast$y[1:300, 1:3]
  fit <- br(x, y, learner = "svm", loss = "hinge")
  for (l in seq_len(ncol(y))) {
    yl <- 2 * y[, l] - 1
    P <- function(w) 0.5 * sum(w^2) + sum(pmax(1 - yl * drop(cbind(x, 1) %*% w), 0))
    ll <- LiblineaR::LiblineaR(x, as.integer(y[, l]), type = 3, cost = 1, epsilon = 1e-8,
                               bias = 1)
    s <- if (as.character(ll$ClassNames[1]) == "1") 1 else -1
    expect_lt(P(c(fit$W[, l], fit$intercept[l])), P(s * drop(ll$W)) * (1 + 1e-6))
  }
})
