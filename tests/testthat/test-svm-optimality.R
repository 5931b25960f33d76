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
