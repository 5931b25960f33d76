# rbf_svm(): libsvm's C-SVC with the RBF kernel in C on one shared kernel
# matrix.  Against independent references: the dual's KKT conditions in
# plain R, quadprog's optimum of the dual, e1071::svm() (the same model),
# plain-R transcriptions of libsvm's sigmoid_train() and of the pairwise
# coupling's defining linear system, and enumeration of one-vs-one pairs.

rbf_ref_kernel <- function(a, b, gamma)
  exp(-gamma * outer(rowSums(a^2), rowSums(b^2), "+") + 2 * gamma * tcrossprod(a, b))

rbf_small <- function(n = 40, d = 3, seed = 1) {
  set.seed(seed)
  x <- matrix(rnorm(n * d), n, d)
  y <- x[, 1] + 0.5 * x[, 2]^2 + rnorm(n, sd = 0.5) > 0.4
  list(x = x, y = y)
}

# The model's dual variables over the training rows in terms of TRUE = +1:
# alpha >= 0, and the decision function's bias.
rbf_dual <- function(fit, n) {
  s <- if (fit$order[1] == 2L) 1 else -1   # +1 in the solver is the first class seen
  a <- numeric(n)
  a[fit$sv_train[fit$sv]] <- s * fit$coef
  list(ya = a, rho = s * fit$rho)
}

test_that("the solution satisfies the dual's KKT conditions (plain R)", {
  for (C in c(0.5, 10)) {
    s <- rbf_small(seed = 2)
    fit <- rbf_svm(s$x, s$y, cost = C, probability = FALSE, scale = FALSE, tol = 1e-6)
    yy <- ifelse(s$y, 1, -1)
    du <- rbf_dual(fit, nrow(s$x))
    alpha <- du$ya * yy
    expect_true(all(alpha >= -1e-12 & alpha <= C + 1e-12))
    expect_equal(sum(du$ya), 0, tolerance = 1e-9)
    K <- rbf_ref_kernel(s$x, s$x, 1 / 3)
    f <- drop(K %*% du$ya) - du$rho
    m <- yy * f
    tol <- 1e-5
    expect_true(all(m[alpha < 1e-10] >= 1 - tol))
    expect_true(all(m[alpha > C - 1e-10] <= 1 + tol))
    free <- alpha > 1e-10 & alpha < C - 1e-10
    expect_gt(sum(free), 0)
    expect_true(all(abs(m[free] - 1) <= tol))
    # the model's own decision values are those of the plain-R function
    expect_equal(predict(fit, s$x, type = "decision"), f, tolerance = 1e-10)
  }
})

test_that("the dual optimum is quadprog's", {
  skip_if_not_installed("quadprog")
  s <- rbf_small(n = 30, seed = 3)
  C <- 2
  yy <- ifelse(s$y, 1, -1)
  n <- nrow(s$x)
  K <- rbf_ref_kernel(s$x, s$x, 1 / 3)
  Q <- K * tcrossprod(yy)
  qp <- quadprog::solve.QP(Dmat = Q + 1e-10 * diag(n), dvec = rep(1, n),
                           Amat = cbind(yy, diag(n), -diag(n)),
                           bvec = c(0, rep(0, n), rep(-C, n)), meq = 1)
  obj <- function(a) 0.5 * sum(a * (Q %*% a)) - sum(a)
  fit <- rbf_svm(s$x, s$y, cost = C, probability = FALSE, scale = FALSE, tol = 1e-8)
  du <- rbf_dual(fit, n)
  a <- du$ya * yy
  expect_equal(obj(a), obj(qp$solution), tolerance = 1e-8)
  expect_equal(a, qp$solution, tolerance = 1e-4)
  # at the default tolerance, within the stopping rule's reach
  fit3 <- rbf_svm(s$x, s$y, cost = C, probability = FALSE, scale = FALSE)
  a3 <- rbf_dual(fit3, n)$ya * yy
  expect_lt(obj(a3) - obj(qp$solution), 1e-3 * abs(obj(qp$solution)))
})

test_that("decision values and probabilities are e1071's", {
  skip_if_not_installed("e1071")
  d <- mlss::emotions
  x <- as.matrix(d$x[1:150, ])
  xte <- as.matrix(d$x[151:200, ])
  for (l in c(1, 4)) {
    y <- d$y[1:150, l]
    for (tol in c(1e-3, 1e-8)) {
      set.seed(7)
      e <- e1071::svm(x, factor(y, levels = c(FALSE, TRUE)), probability = TRUE,
                      tolerance = tol)
      set.seed(7)
      f <- rbf_svm(x, y, tol = tol)
      dv <- attr(predict(e, xte, decision.values = TRUE), "decision.values")
      dv <- if (colnames(dv)[1] == "TRUE/FALSE") dv[, 1] else -dv[, 1]
      # the same iterates as libsvm's (its working-set rule, its folds): e1071
      # differs only by its single-precision kernel (seen: below 1e-7 at both
      # tolerances); a solver reaching another point within the tolerance
      # would differ by up to about tol
      expect_lt(max(abs(predict(f, xte, type = "decision") - dv)), 1e-5)
      pe <- attr(predict(e, xte, probability = TRUE), "probabilities")[, "TRUE"]
      expect_lt(max(abs(predict(f, xte) - pe)), 1e-5)
    }
  }
  # several classes: one-vs-one with pairwise coupling
  key <- factor(apply(d$y[1:150, 1:3] + 0, 1, paste, collapse = ""))
  set.seed(8)
  e <- e1071::svm(x, key, probability = TRUE)
  set.seed(8)
  f <- rbf_svm(x, key)
  pe <- attr(predict(e, xte, probability = TRUE), "probabilities")[, levels(key)]
  expect_lt(max(abs(predict(f, xte) - pe)), 1e-4)
  expect_identical(as.character(predict(f, xte, type = "class")),
                   as.character(predict(e1071::svm(x, key), xte)))
  # rare classes: Platt folds holding one class only (libsvm's +-1 fallback),
  # label sets of one row
  y <- rep(FALSE, 150)
  y[c(5, 77)] <- TRUE
  set.seed(9)
  e <- e1071::svm(x, factor(y, levels = c(FALSE, TRUE)), probability = TRUE)
  set.seed(9)
  pe <- attr(predict(e, xte, probability = TRUE), "probabilities")[, "TRUE"]
  expect_lt(max(abs(predict(rbf_svm(x, y), xte) - pe)), 1e-5)
  key <- factor(apply(d$y[1:150, ] + 0, 1, paste, collapse = ""))
  set.seed(10)
  e <- e1071::svm(x, key, probability = TRUE)
  set.seed(10)
  pe <- attr(predict(e, xte, probability = TRUE), "probabilities")[, levels(key)]
  expect_lt(max(abs(predict(rbf_svm(x, key), xte) - pe)), 1e-3)
})

# libsvm's sigmoid_train(), transcribed line by line into R
ref_sigmoid_train <- function(dec, y) {
  prior1 <- sum(y > 0)
  prior0 <- sum(y <= 0)
  hi <- (prior1 + 1) / (prior1 + 2)
  lo <- 1 / (prior0 + 2)
  t <- ifelse(y > 0, hi, lo)
  A <- 0
  B <- log((prior0 + 1) / (prior1 + 1))
  fobj <- function(A, B) {
    f <- dec * A + B
    sum(ifelse(f >= 0, t * f + log1p(exp(-f)), (t - 1) * f + log1p(exp(f))))
  }
  fval <- fobj(A, B)
  for (iter in 1:100) {
    f <- dec * A + B
    p <- 1 / (1 + exp(f))
    q <- 1 - p
    d2 <- p * q
    h11 <- 1e-12 + sum(dec^2 * d2)
    h22 <- 1e-12 + sum(d2)
    h21 <- sum(dec * d2)
    g1 <- sum(dec * (t - p))
    g2 <- sum(t - p)
    if (abs(g1) < 1e-5 && abs(g2) < 1e-5) break
    det <- h11 * h22 - h21^2
    dA <- -(h22 * g1 - h21 * g2) / det
    dB <- -(-h21 * g1 + h11 * g2) / det
    gd <- g1 * dA + g2 * dB
    step <- 1
    while (step >= 1e-10) {
      nf <- fobj(A + step * dA, B + step * dB)
      if (nf < fval + 1e-4 * step * gd) {
        A <- A + step * dA
        B <- B + step * dB
        fval <- nf
        break
      }
      step <- step / 2
    }
    if (step < 1e-10) break
  }
  c(A, B)
}

test_that("Platt's sigmoid is libsvm's sigmoid_train()", {
  set.seed(11)
  for (k in 1:3) {
    y <- ifelse(runif(60) < 0.3 * k, 1, -1)
    dec <- y * runif(60, 0, 2) + rnorm(60)
    got <- .Call(mlss:::C_rbfsvm_sigmoid_call, dec, y)
    expect_equal(got[1:2], ref_sigmoid_train(dec, y), tolerance = 1e-8)
    expect_equal(got[3], 0)
    # and it is the minimiser of the regularised targets' cross-entropy
    t <- ifelse(y > 0, (sum(y > 0) + 1) / (sum(y > 0) + 2), 1 / (sum(y <= 0) + 2))
    nll <- function(ab) { p <- 1 / (1 + exp(dec * ab[1] + ab[2]))
      -sum(t * log(p) + (1 - t) * log(1 - p)) }
    expect_equal(got[1:2], optim(c(0, 0), nll, method = "BFGS",
                                 control = list(reltol = 1e-14))$par, tolerance = 1e-3)
  }
})

test_that("the pairwise coupling solves its defining linear system", {
  set.seed(12)
  k <- 5
  r <- matrix(0, k, k)
  for (i in 1:(k - 1)) for (j in (i + 1):k) {
    r[i, j] <- runif(1, 0.05, 0.95)
    r[j, i] <- 1 - r[i, j]
  }
  # Wu, Lin and Weng's method 2: min sum_i sum_{j != i} (r_ji p_i - r_ij p_j)^2,
  # sum p = 1: Q p = b e with Q_tt = sum_{j != t} r_jt^2, Q_tj = -r_jt r_tj
  Q <- -t(r) * r
  diag(Q) <- colSums(r^2) - diag(r)^2
  sol <- solve(rbind(cbind(Q, 1), c(rep(1, k), 0)), c(rep(0, k), 1))[1:k]
  p <- .Call(mlss:::C_rbfsvm_coupling_call, r)
  expect_equal(sum(p), 1, tolerance = 1e-12)
  expect_equal(p, sol, tolerance = 5e-3)   # libsvm stops at max error 0.005 / k
})

test_that("a multi-class fit is its one-vs-one binary fits", {
  set.seed(13)
  n <- 60
  x <- matrix(rnorm(n * 2), n, 2)
  cls <- factor(c("b", "a", "c")[1 + (x[, 1] > 0) + (x[, 2] > 0.5)], levels = c("a", "b", "c"))
  fit <- rbf_svm(x, cls, probability = FALSE, tol = 1e-8, scale = FALSE)
  seen <- unique(as.character(cls))   # libsvm's class order: first rows
  expect_identical(fit$levels[fit$order], seen)
  dec <- predict(fit, x, type = "decision")
  p <- 0
  for (i in 1:2) for (j in (i + 1):3) {
    p <- p + 1
    rows <- cls %in% seen[c(i, j)]
    b <- rbf_svm(x[rows, ], cls[rows] == seen[i], probability = FALSE, tol = 1e-8,
                 scale = FALSE)
    expect_equal(dec[, p], predict(b, x, type = "decision"), tolerance = 1e-6)
  }
  # votes: the first class with most pairwise wins
  v <- cbind(a = (dec[, 1] > 0) + (dec[, 2] > 0), b = (dec[, 1] <= 0) + (dec[, 3] > 0),
             c = (dec[, 2] <= 0) + (dec[, 3] <= 0))
  expect_identical(as.character(predict(fit, x, type = "class")),
                   seen[max.col(v, ties.method = "first")])
})

test_that("the shared kernel, its cap and the learner give the same models", {
  d <- mlss::emotions
  x <- as.matrix(d$x[1:120, ])
  xte <- as.matrix(d$x[121:160, ])
  y <- d$y[1:120, ]
  rbf_svm_cache_clear()
  set.seed(5)
  b <- br(x, y, learner = ml_learner_rbf_svm())
  pb <- predict(b, xte, type = "score")
  # each label on its own, no cache, kernel columns on the fly (cap 0)
  set.seed(5)
  own <- sapply(seq_len(ncol(y)), function(l) {
    rbf_svm_cache_clear()
    predict(rbf_svm(x, y[, l], cache_mb = 0), xte)
  })
  expect_equal(unname(pb), unname(own), tolerance = 1e-9)
  # scaling as e1071: none at all when a column is constant
  x0 <- cbind(x, 1)
  f0 <- rbf_svm(x0, y[, 1], probability = FALSE, gamma = 0.01)
  expect_false(f0$scaled)
  f1 <- rbf_svm(x, y[, 1], probability = FALSE)
  expect_true(f1$scaled)
  expect_equal(predict(f0, cbind(xte, 1), type = "decision"),
               predict(rbf_svm(x, y[, 1], probability = FALSE, scale = FALSE, gamma = 0.01), xte,
                       type = "decision"), tolerance = 1e-8)
  # the learner's output follows `probability`
  l <- ml_learner_rbf_svm(probability = FALSE)
  expect_identical(l$type, "score")
  expect_identical(update(l, probability = TRUE)$type, "prob")
  # a multi-class learner in lp(): the most probable label set
  set.seed(6)
  fit <- lp(x, y[, 1:3], learner = ml_learner_rbf_svm())
  key <- factor(apply(y[, 1:3] + 0, 1, paste, collapse = ""))
  set.seed(6)
  m <- rbf_svm(x, key)
  P <- predict(m, xte)
  want <- do.call(rbind, strsplit(colnames(P)[max.col(P, ties.method = "first")], "")) == "1"
  expect_equal(unname(predict(fit, xte) + 0), unname(want + 0))
})

test_that("the cache never serves the kernel of other rows", {
  set.seed(21)
  x1 <- matrix(rnorm(200), 50, 4)
  x2 <- matrix(rnorm(200), 50, 4)
  y <- x1[, 1] > 0
  n1 <- matrix(rnorm(80), 20, 4)
  n2 <- matrix(rnorm(80), 20, 4)
  fresh <- function(x, newx) {
    rbf_svm_cache_clear()
    predict(rbf_svm(x, y, probability = FALSE), newx, type = "decision")
  }
  want <- list(fresh(x1, n1), fresh(x1, n2), fresh(x2, n1))
  rbf_svm_cache_clear()
  f1 <- rbf_svm(x1, y, probability = FALSE)
  expect_equal(predict(f1, n1, type = "decision"), want[[1]], tolerance = 1e-12)
  expect_equal(predict(f1, n2, type = "decision"), want[[2]], tolerance = 1e-12)
  f2 <- rbf_svm(x2, y, probability = FALSE)   # same size, other rows
  expect_equal(predict(f2, n1, type = "decision"), want[[3]], tolerance = 1e-12)
  # an older model after the cache moved on: its own support vectors
  expect_equal(predict(f1, n1, type = "decision"), want[[1]], tolerance = 1e-12)
})

test_that("bad arguments are refused with the argument named", {
  s <- rbf_small(n = 10)
  expect_error(rbf_svm(s$x, s$y, cost = -1), "'cost'")
  expect_error(rbf_svm(s$x, rep(TRUE, 10)), "two classes")
  expect_error(rbf_svm(s$x, s$y[-1]), "one entry per row")
  expect_error(rbf_svm(s$x, as.numeric(s$y)), "'y' must be")
  f <- rbf_svm(s$x, s$y, probability = FALSE)
  expect_error(predict(f, s$x), "no probabilities")
  expect_error(predict(f, s$x[, 1:2], type = "decision"), "columns")
})

test_that("hitting the iteration limit warns", {
  s <- rbf_small(n = 40)
  expect_warning(rbf_svm(s$x, s$y, probability = FALSE, max_iter = 2),
                 class = "mlss_not_converged")
})
