# MLCRF against references written in plain R from ?mlcrf and methods.md
# section 3, not from the C code: the optimality (KKT) conditions of both
# stages, the Ising edge type against enumeration of all label vectors, the
# cross-validated lambda_v, the documented default lambda_w and lambda_max,
# and cv_mlcrf(select = "1se") against the regularisation order.

# Strongly correlated features (eight near-copies of one column, which make
# the Lipschitz constant L large, so that a stopping rule on the step |z - y|
# instead of the residual L |z - y| stops visibly early: KKT residuals up to
# 9e-6 against at most 1.7e-6 at tol = 1e-6), already standardised so that
# the fit's scale is the identity; labels in two dependent pairs.
kkt_data <- function(n = 120, seed = 21) {
  set.seed(seed)
  z <- rnorm(n)
  x <- cbind(sapply(1:8, function(i) z + 0.05 * rnorm(n)), rnorm(n))
  x <- crf_ref_standardise(x)
  colnames(x) <- paste0("f", 1:9)
  y1 <- runif(n) < plogis(1.5 * x[, 1])
  y2 <- ifelse(runif(n) < 0.85, y1, !y1)
  y3 <- runif(n) < plogis(x[, 9])
  y4 <- ifelse(runif(n) < 0.8, y3, runif(n) < 0.5)
  list(x = x, y = cbind(a = y1, b = y2, c = y3, d = y4) + 0)
}

all_pairs <- function(m) {
  p <- which(upper.tri(diag(m)), arr.ind = TRUE)
  p[order(p[, 1], p[, 2]), , drop = FALSE]
}

# L2 logistic regression with an unpenalised-but-for-lambda0 intercept, by
# Newton's method: min mean loss + lambda ||b[-1]||^2 + lambda0 b[1]^2.
ref_logistic <- function(X1, y, lambda, lambda0 = 1e-6) {
  b <- numeric(ncol(X1))
  pen <- c(lambda0, rep(lambda, ncol(X1) - 1))
  for (it in 1:100) {
    p <- plogis(drop(X1 %*% b))
    g <- drop(crossprod(X1, p - y)) / nrow(X1) + 2 * pen * b
    if (max(abs(g)) < 1e-13) break
    H <- crossprod(X1 * (p * (1 - p)), X1) / nrow(X1) + diag(2 * pen, length(b))
    b <- b - solve(H, g)
  }
  b
}

test_that("the plain-R gradient agrees with finite differences of the plain-R objective", {
  set.seed(31)
  x <- crf_ref_standardise(matrix(rnorm(45), 15))
  y <- matrix(rbinom(45, 1, 0.5), 15)
  P <- all_pairs(3)
  for (K in c(3, 1)) {
    theta <- matrix(rnorm(4 * (3 + 3 * K)), 4)
    lv <- c(0.1, 0.2, 0.3)
    f <- function(t) crf_ref_objective(matrix(t, 4), x, y, P[, 1], P[, 2], K, lv, 1e-6,
                                       0.4, 0.25)$value
    g <- crf_ref_gradient(theta, x, y, P[, 1], P[, 2], K, lv, 1e-6, 0.4 * 0.75)
    expect_equal(as.vector(g), crf_ref_numgrad(f, as.vector(theta)), tolerance = 1e-7)
  }
})

test_that("both stages satisfy their optimality conditions on correlated features", {
  dd <- kkt_data()
  P <- all_pairs(4)
  lv <- c(0.01, 0.02, 0.01, 0.03)
  for (type in c("full", "ising")) for (eta in c(0.5, 1)) for (scale_w in c(1, 0.3)) {
    K <- if (type == "full") 3 else 1
    lw <- if (scale_w == 1) NULL else
      scale_w * mlcrf(dd$x, dd$y, lambda_v = lv, eta = eta, edge_type = type)$lambda_w
    fit <- mlcrf(dd$x, dd$y, lambda_v = lv, lambda_w = lw, eta = eta, edge_type = type)
    expect_lt(max(abs(fit$center)), 1e-12)
    expect_lt(max(abs(fit$scale - 1)), 1e-12)
    info <- paste(type, eta, scale_w)
    # stage 1: min smooth + lambda_w eta sum_e ||w_e|| over all pairs
    th <- crf_ref_to_standard(fit$start, fit$center, fit$scale)
    g <- crf_ref_gradient(th, dd$x, dd$y, P[, 1], P[, 2], K, lv, 1e-6,
                          fit$lambda_w * (1 - eta))
    group <- fit$lambda_w * eta
    expect_lt(max(abs(g[, 1:4])), 3e-6, label = paste("node gradient,", info))
    zero <- logical(nrow(P))
    for (e in seq_len(nrow(P))) {
      cols <- 4 + (e - 1) * K + seq_len(K)
      w <- th[, cols]
      nw <- sqrt(sum(w^2))
      zero[e] <- nw == 0
      if (zero[e]) {
        expect_lte(sqrt(sum(g[, cols]^2)), group * (1 + 1e-6), label = paste("zero edge", e, info))
      } else {
        expect_lt(sqrt(sum((g[, cols] + group * w / nw)^2)), 3e-6,
                  label = paste("edge", e, info))
      }
    }
    # the kept edges are the nonzero ones, and the true pairs (a, b), (c, d) are among them
    expect_identical(paste(fit$edges$from, fit$edges$to),
                     paste(colnames(dd$y)[P[!zero, 1]], colnames(dd$y)[P[!zero, 2]]))
    expect_true(all(c("a b", "c d") %in% paste(fit$edges$from, fit$edges$to)))
    # stage 2: the kept graph refitted without the group term, edge ridge
    # lambda_w (1 - eta) but at least lambda_w / 1000
    kp <- which(!zero)
    g2 <- crf_ref_gradient(fit$theta, dd$x, dd$y, P[kp, 1], P[kp, 2], K, lv, 1e-6,
                           fit$lambda_w * max(1 - eta, 1e-3))
    expect_lt(max(abs(g2)), 3e-6, label = paste("stage 2,", info))
  }
  # a mix of zero and nonzero edges was seen (the conditions of both kinds were checked)
  fit <- mlcrf(dd$x, dd$y, lambda_v = lv)
  expect_gt(nrow(fit$edges), 0)
  expect_lt(nrow(fit$edges), 6)
})

test_that("the Ising edge type's predictions agree with enumeration of all label vectors", {
  set.seed(32)
  n <- 100
  x <- matrix(rnorm(n * 3), n, dimnames = list(NULL, paste0("f", 1:3)))
  y1 <- runif(n) < plogis(x[, 1])
  y <- cbind(A = y1, B = ifelse(runif(n) < 0.8, y1, !y1), C = runif(n) < plogis(-x[, 2]),
             D = ifelse(runif(n) < 0.7, y1, runif(n) < 0.5), E = runif(n) < 0.4)
  fit <- mlcrf(x, y, lambda_v = 0.01, lambda_w = 0.02, edges = "full", edge_type = "ising")
  expect_identical(unique(vapply(fit$weights, ncol, 1L)), 1L)
  newx <- matrix(rnorm(18, sd = 1.5), 6, dimnames = list(NULL, colnames(x)))
  ynew <- y[1:6, ]
  sc <- predict(fit, newx, type = "score")
  cl <- predict(fit, newx)
  pr <- predict(fit, newx, type = "prob", y = ynew)
  ap <- predict(fit, newx, type = "score", inference = "approximate")
  X1 <- cbind(1, newx)
  node <- X1 %*% fit$nodes
  from <- match(fit$edges$from, fit$labels)
  to <- match(fit$edges$to, fit$labels)
  for (i in 1:6) {
    # an Ising edge: phi(0, 1) = phi(1, 0) = 0, phi(1, 1) = w'x
    pair <- unlist(lapply(fit$weights, function(w) c(0, 0, sum(X1[i, ] * w))))
    ref <- crf_ref_brute(node[i, ], pair, from, to)
    expect_equal(unname(sc[i, ]), unname(ref$marginal), tolerance = 1e-10)
    expect_equal(unname(cl[i, ] + 0), unname(ref$map) + 0)
    k <- which(apply(ref$configs, 1, function(r) all(r == ynew[i, ])))
    expect_equal(unname(pr[i]), exp(ref$logp[k]), tolerance = 1e-10)
    # loopy belief propagation on 5 labels and 10 edges: close, not exact
    expect_lt(max(abs(ap[i, ] - ref$marginal)), 0.1)
  }
  # the fitted Ising model is a different fit from the full one (a third of the
  # parameters), not the full one relabelled
  full <- mlcrf(x, y, lambda_v = 0.01, lambda_w = 0.02, edges = "full")
  expect_gt(max(abs(predict(full, newx, type = "score") - sc)), 1e-3)
})

test_that("lambda_v = NULL is the plain-R cross-validation of ridge logistic regressions on the same folds", {
  set.seed(33)
  n <- 90
  x <- matrix(rnorm(n * 4) * c(1, 10, 0.1, 3), n, byrow = TRUE,
              dimnames = list(NULL, paste0("f", 1:4)))
  y <- cbind(a = runif(n) < plogis(2 * x[, 1]), b = runif(n) < plogis(x[, 2] / 10),
             c = runif(n) < 0.5, d = runif(n) < plogis(3 * x[, 1] - 3 * x[, 3] * 10))
  grid <- 10^seq(0, -3, by = -0.5)
  set.seed(34)
  foldid <- ml_folds(y, 4)
  loss <- matrix(0, length(grid), 4)
  for (k in 1:4) {
    tr <- foldid != k
    mu <- colMeans(x[tr, ])
    sd <- sqrt(colMeans(sweep(x[tr, ], 2, mu)^2))
    X1 <- cbind(1, sweep(sweep(x[tr, ], 2, mu), 2, sd, "/"))
    Xv <- cbind(1, sweep(sweep(x[!tr, ], 2, mu), 2, sd, "/"))
    for (g in seq_along(grid)) for (l in 1:4) {
      eta <- drop(Xv %*% ref_logistic(X1, y[tr, l] + 0, grid[g]))
      loss[g, l] <- loss[g, l] + sum(log1p(exp(-abs(eta))) + pmax(eta, 0) - y[!tr, l] * eta)
    }
  }
  ref <- grid[apply(loss, 2, which.min)]
  set.seed(34)
  fit <- mlcrf(x, y, edges = "none", nfolds_v = 4)
  expect_equal(unname(fit$lambda_v), ref)
  # the choice is not one value for every label (else a per-label mix-up is invisible)
  expect_gt(length(unique(ref)), 2)
  # and the gaps between the best and the next grid values are not within the
  # fits' tolerance (max(tol, 1e-4)), so that the comparison is meaningful
  gap <- apply(loss, 2, function(v) diff(sort(v))[1])
  expect_gt(min(gap), 1e-3)
})

test_that("the default lambda_w and lambda_max follow their documented formulas", {
  for (case in list(list("full", 0.5, 41), list("ising", 1, 42), list("full", 0.8, 43))) {
    set.seed(case[[3]])
    n <- 150
    x <- matrix(rnorm(n * 3) * c(2, 1, 5), n, byrow = TRUE) + 3
    y <- cbind(runif(n) < plogis(x[, 1] - 3), runif(n) < 0.4, runif(n) < plogis(x[, 3] / 5 - 0.6),
               runif(n) < 0.6) + 0
    y[, 2] <- ifelse(runif(n) < 0.7, y[, 1], y[, 2])
    lv <- c(0.01, 0.1, 0.03, 0.01)
    K <- if (case[[1]] == "full") 3 else 1
    eta <- case[[2]]
    fit <- mlcrf(x, y, lambda_v = lv, eta = eta, edge_type = case[[1]])
    xs <- crf_ref_standardise(x)
    X1 <- cbind(1, xs)
    # the nodes fitted alone, then the edges' derivatives at w = 0
    B <- sapply(1:4, function(l) ref_logistic(X1, y[, l], lv[l]))
    r <- plogis(X1 %*% B) - y
    cfg <- if (K == 3) list(c(0, 1), c(1, 0), c(1, 1)) else list(c(1, 1))
    P <- all_pairs(4)
    ce <- gn <- numeric(nrow(P))
    for (e in seq_len(nrow(P))) {
      a <- P[e, 1]; b <- P[e, 2]
      D <- sapply(cfg, function(st) r[, a] * (y[, b] == st[2]) * (2 * st[1] - 1) +
                    r[, b] * (y[, a] == st[1]) * (2 * st[2] - 1))
      D <- matrix(D, n)
      ce[e] <- sqrt(sum(rowSums(X1^2) * rowSums(D^2))) / n
      gn[e] <- sqrt(sum((crossprod(X1, D) / n)^2))
    }
    df <- 4 * K
    q <- qchisq(1 - 0.05 / 6, df)
    expect_equal(fit$lambda_w, max(ce) * sqrt(q / df) / eta, tolerance = 1e-5)
    expect_equal(fit$lambda_max, max(gn) / eta, tolerance = 1e-5)
  }
})

test_that("cv_mlcrf(select = '1se') refits at the most regularised point within a standard error", {
  # seed 52: a case where the best and the 1se point differ (with the Hamming
  # cuts of the thresholds change, seed 50's best became the 1se point)
  set.seed(52)
  n <- 60
  x <- matrix(runif(n * 3, -1, 1), n)
  y1 <- runif(n) < plogis(3 * x[, 1])
  y <- cbind(a = y1, b = ifelse(runif(n) < 0.85, y1, !y1), c = runif(n) < plogis(-2 * x[, 2]))
  foldid <- rep(1:4, length.out = n)
  # lambda_w = 100 removes every edge at both eta: the same node-only model,
  # a tie that the order breaks towards the larger eta
  lw <- c(100, 0.1, 0.03, 0.01, 0.003)
  cv <- cv_mlcrf(x, y, lambda_w = lw, eta = c(0.3, 1), lambda_v = 0.05, foldid = foldid,
                 select = "1se", measure = "hamming_loss", progress = FALSE)
  # plain R: the order from the most regularised (largest lambda_w, then largest eta)
  ord <- order(-cv$grid$lambda_w, -cv$grid$eta)
  cvm <- rowMeans(cv$cvfold)
  se <- apply(cv$cvfold, 1, sd) / 2
  best <- ord[which.min(cvm[ord])]
  one <- ord[which(cvm[ord] <= cvm[best] + se[best])[1]]
  expect_identical(cv$best, best)
  expect_identical(cv$best_1se, one)
  expect_identical(cv$chosen, one)
  expect_equal(cv$fit$lambda_w, cv$grid$lambda_w[one])
  expect_equal(cv$fit$eta, cv$grid$eta[one])
  expect_equal(c(cv$lambda_w_1se, cv$eta_1se), c(cv$grid$lambda_w[one], cv$grid$eta[one]))
  top <- which(cv$grid$lambda_w == 100)
  expect_equal(cv$cvfold[top[1], ], cv$cvfold[top[2], ])
  # (since the Hamming loss of cv_mlcrf() is that of the MAP label sets, the
  # 1se point of this seed is lambda_w = 0.1, no longer the tie at 100)
  # the case is not degenerate: the 1se point is more regularised than the best
  expect_false(one == best)
  expect_gt(cv$grid$lambda_w[one], cv$grid$lambda_w[best])
})

test_that("stage 1 satisfies its optimality conditions on 20 labels (working set, components, L-BFGS polish)", {
  # 20 labels: two blocks of five dependent labels, ten independent ones, so
  # that the graph has several components and isolated labels; labels mostly
  # negative (the per-row evaluation is the cheaper one on all pairs); the
  # fit warm-started from the default lambda_w's, as along cv_mlcrf()'s path
  set.seed(61)
  n <- 150
  x <- matrix(rnorm(n * 4), n, dimnames = list(NULL, paste0("f", 1:4)))
  x <- crf_ref_standardise(x)
  z1 <- x[, 1] + rnorm(n)
  z2 <- x[, 2] + rnorm(n)
  y <- cbind(sapply(1:5, function(i) z1 + 0.7 * rnorm(n) > 0.8),
             sapply(1:5, function(i) z2 + 0.7 * rnorm(n) > 1),
             sapply(1:10, function(i) runif(n) < plogis(x[, 3] - 1.2))) + 0
  colnames(y) <- paste0("L", 1:20)
  m <- 20
  P <- all_pairs(m)
  lv <- rep(0.02, m)
  for (eta in c(0.5, 1)) {
    fit0 <- mlcrf(x, y, lambda_v = lv, eta = eta, progress = FALSE)
    fit <- mlcrf(x, y, lambda_v = lv, lambda_w = 0.7 * fit0$lambda_w, eta = eta,
                 init = fit0, progress = FALSE)
    th <- crf_ref_to_standard(fit$start, fit$center, fit$scale)
    g <- crf_ref_gradient(th, x, y, P[, 1], P[, 2], 3, lv, 1e-6, fit$lambda_w * (1 - eta))
    group <- fit$lambda_w * eta
    expect_lt(max(abs(g[, 1:m])), 3e-6, label = paste("node gradient", eta))
    nz <- 0
    for (e in seq_len(nrow(P))) {
      cols <- m + (e - 1) * 3 + 1:3
      w <- th[, cols]
      nw <- sqrt(sum(w^2))
      if (nw == 0) {
        expect_lte(sqrt(sum(g[, cols]^2)), group * (1 + 1e-6), label = paste("zero edge", e, eta))
      } else {
        nz <- nz + 1
        expect_lt(sqrt(sum((g[, cols] + group * w / nw)^2)), 3e-6, label = paste("edge", e, eta))
      }
    }
    # a graph with edges, far from complete, and labels left out of it
    expect_gt(nz, 3)
    expect_lt(nz, 60)
    expect_gt(sum(!colnames(y) %in% c(fit$edges$from, fit$edges$to)), 0)
    # stage 2 on the kept graph, solved per connected component
    kp <- match(paste(fit$edges$from, fit$edges$to),
                paste(colnames(y)[P[, 1]], colnames(y)[P[, 2]]))
    g2 <- crf_ref_gradient(fit$theta, x, y, P[kp, 1], P[kp, 2], 3, lv, 1e-6,
                           fit$lambda_w * max(1 - eta, 1e-3))
    expect_lt(max(abs(g2)), 3e-6, label = paste("stage 2", eta))
  }
})

test_that("stage 1's FISTA iterates are those of a plain-R FISTA with backtracking and restarts", {
  # FISTA as ?mlcrf (Algorithm) and methods.md state it (Beck and Teboulle
  # 2009; the function-value restart of O'Donoghue and Candes 2015), written
  # from those equations: from x_0 = y_1, step 1/L (L from 1, doubled until
  # the quadratic upper bound holds at the proximal point z, then times 0.9),
  # z = prox(y - grad f(y) / L), y_next = z + (t - 1) / t_next (z - x),
  # restart (y = x, t = 1) when F(z) > F(x); stop when L max |z - y| <= tol.
  # A few iterations at a tolerance that is never met: the iterates (and so
  # the gradient at the extrapolated point y) must agree, not only the limit.
  ref_fista <- function(theta, f, grad, gpen, prox, maxit, tol) {
    x <- theta; yk <- x; L <- 1; t <- 1
    Fx <- f(x) + gpen(x)
    it <- 0
    while (it < maxit) {
      it <- it + 1
      gy <- f(yk); g <- grad(yk)
      repeat {
        z <- prox(yk - g / L, 1 / L)
        gz <- f(z)
        d <- z - yk
        if (gz <= gy + sum(g * d) + 0.5 * L * sum(d^2) + 1e-12 * abs(gy) || L > 1e12) break
        L <- 2 * L
      }
      Fz <- gz + gpen(z)
      if (Fz > Fx && t > 1) { yk <- x; t <- 1; next }
      resid <- L * max(abs(z - yk))
      tn <- (1 + sqrt(1 + 4 * t^2)) / 2
      yk <- z + (t - 1) / tn * (z - x)
      x <- z; t <- tn; Fx <- Fz
      if (resid <= tol) break
      L <- 0.9 * L
    }
    list(theta = x, iter = it, objective = Fx)
  }
  set.seed(41)
  n <- 50
  x <- crf_ref_standardise(matrix(rnorm(n * 3), n, dimnames = list(NULL, paste0("f", 1:3))))
  y1 <- runif(n) < plogis(x[, 1])
  y <- cbind(a = y1, b = ifelse(runif(n) < 0.8, y1, !y1), c = runif(n) < 0.5) + 0
  P <- all_pairs(3)
  lv <- c(0.01, 0.02, 0.03)
  for (K in c(3, 1)) {
    prep <- mlss:::mlcrf_prepare(x, y, if (K == 3) "full" else "ising")
    lw <- 0.05
    eta <- 0.5
    f <- function(th) crf_ref_objective(th, x, y, P[, 1], P[, 2], K, lv, 1e-6, lw, eta)$value
    gpen <- function(th) crf_ref_objective(th, x, y, P[, 1], P[, 2], K, lv, 1e-6, lw, eta)$group
    grad <- function(th) crf_ref_gradient(th, x, y, P[, 1], P[, 2], K, lv, 1e-6, lw * (1 - eta))
    prox <- function(th, s) {
      for (e in seq_len(nrow(P))) {
        cols <- 3 + (e - 1) * K + seq_len(K)
        nw <- sqrt(sum(th[, cols]^2))
        th[, cols] <- th[, cols] * if (nw > s * lw * eta) 1 - s * lw * eta / nw else 0
      }
      th
    }
    # a start with the nodes and the edges away from the solution (one edge
    # that thresholding removes on the way)
    th0 <- matrix(rnorm(4 * (3 + 3 * K), sd = 0.3), 4)
    th0[, 3 + (2 - 1) * K + seq_len(K)] <- 0.01
    ref <- ref_fista(th0, f, grad, gpen, prox, maxit = 8, tol = 1e-14)
    for (mode in 1:2) {
      s1 <- mlss:::mlcrf_call_fit(prep, seq_len(nrow(P)), lv, lw, eta, th0, 1L, 1e-14, 8L,
                                  mode = mode)
      info <- paste("K =", K, "mode", mode)
      expect_identical(s1$iter, 8L, label = info)
      expect_equal(s1$status, 1L)
      expect_equal(unname(s1$theta), unname(ref$theta), tolerance = 1e-9, label = info)
      expect_equal(s1$objective, ref$objective, tolerance = 1e-10, label = info)
    }
    # run to a tolerance that is met: the same stopping iteration, since the
    # stopping residual is L max |z - y| (not the step |z - y| alone)
    ref2 <- ref_fista(th0, f, grad, gpen, prox, maxit = 500, tol = 1e-5)
    s2 <- mlss:::mlcrf_call_fit(prep, seq_len(nrow(P)), lv, lw, eta, th0, 1L, 1e-5, 500L,
                                mode = 1L)
    expect_lt(ref2$iter, 500)
    expect_identical(s2$iter, as.integer(ref2$iter), label = paste("K =", K, "stopping iteration"))
    expect_equal(unname(s2$theta), unname(ref2$theta), tolerance = 1e-8)
  }
})
