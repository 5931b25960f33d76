# MLCRF: each solver against an independent plain-R reference
# (helper-mlcrf.R), written from methods.md section 3.

crf_small_data <- function(n = 40, d = 3, m = 4, seed = 1) {
  set.seed(seed)
  x <- matrix(rnorm(n * d), n, d, dimnames = list(NULL, paste0("f", 1:d)))
  y <- matrix(rbinom(n * m, 1, 0.5), n, m, dimnames = list(NULL, paste0("L", 1:m)))
  list(x = x, y = y)
}

test_that("the pseudo-likelihood objective and its gradient match plain R and finite differences", {
  dat <- crf_small_data()
  ns <- asNamespace("mlss")
  xs <- crf_ref_standardise(dat$x)
  for (type in c("full", "ising")) {
    prep <- ns$mlcrf_prepare(dat$x, dat$y == 1, type)
    E <- length(prep$from)
    set.seed(2)
    theta <- matrix(rnorm(4 * (4 + E * prep$K)) * 0.5, 4)
    lv <- runif(4)
    got <- ns$mlcrf_call_objective(prep, seq_len(E), lv, 0.3, 0.4, theta)
    ref <- crf_ref_objective(theta, xs, dat$y, prep$from, prep$to, prep$K, lv, 1e-6, 0.3, 0.4)
    expect_equal(got$value, ref$value, tolerance = 1e-10)
    expect_equal(got$group, ref$group, tolerance = 1e-10)
    num <- crf_ref_numgrad(function(t)
      crf_ref_objective(matrix(t, 4), xs, dat$y, prep$from, prep$to, prep$K, lv, 1e-6,
                        0.3, 0.4)$value, as.vector(theta))
    expect_equal(as.vector(got$gradient), num, tolerance = 1e-6)
  }
})

test_that("the scales of the L-BFGS variables are the Hessian's diagonal, from each column's intercept", {
  # crf_lbfgs() works on theta times these scales; the intercept row of
  # their squares is the exact diagonal of the smooth objective's Hessian
  # (central differences of the plain-R gradient), and the slopes of a
  # column take its intercept's loss part with their own ridge
  dat <- crf_small_data(n = 60)
  dat$y[, 2] <- dat$y[, 1] * dat$y[, 3]  # a rarer label, and dependent ones
  ns <- asNamespace("mlss")
  xs <- crf_ref_standardise(dat$x)
  lw <- 0.3
  eta <- 0.4
  for (type in c("full", "ising")) {
    prep <- ns$mlcrf_prepare(dat$x, dat$y == 1, type)
    E <- length(prep$from)
    K <- prep$K
    set.seed(3)
    theta <- matrix(rnorm(4 * (4 + E * K)), 4)
    lv <- runif(4)
    s2 <- ns$mlcrf_call_objective(prep, seq_len(E), lv, lw, eta, theta)$scales^2
    for (mode in 1:2)  # the two evaluations of the pseudo-likelihood give the same
      expect_equal(ns$mlcrf_call_objective(prep, seq_len(E), lv, lw, eta, theta,
                                           mode = mode)$scales^2, s2, tolerance = 1e-12)
    grad <- function(t) crf_ref_gradient(t, xs, dat$y, prep$from, prep$to, K, lv, 1e-6,
                                         lw * (1 - eta))
    h <- 1e-5
    diag0 <- vapply(seq_len(ncol(theta)), function(c) {
      tp <- theta; tp[1, c] <- tp[1, c] + h
      tm <- theta; tm[1, c] <- tm[1, c] - h
      (grad(tp)[1, c] - grad(tm)[1, c]) / (2 * h)
    }, 0)
    expect_equal(s2[1, ], diag0, tolerance = 1e-6)
    ridge <- matrix(2 * lw * (1 - eta), 4, ncol(theta))
    ridge[, 1:4] <- rep(2 * lv, each = 4)
    ridge[1, 1:4] <- 2 * 1e-6
    ridge[1, 4 + K * seq_len(E)] <- 2 * 1e-3  # the (1,1) intercepts
    loss <- s2 - ridge
    expect_equal(loss[-1, ], loss[rep(1, 3), ], tolerance = 1e-12)
    expect_true(all(loss > 0))
  }
})

test_that("the objective on a sparse x equals the one on the dense x", {
  dat <- crf_small_data()
  dat$x[abs(dat$x) < 0.7] <- 0
  ns <- asNamespace("mlss")
  pd <- ns$mlcrf_prepare(dat$x, dat$y == 1, "full")
  ps <- ns$mlcrf_prepare(Matrix::Matrix(dat$x, sparse = TRUE), dat$y == 1, "full")
  theta <- matrix(seq(-1, 1, length.out = 4 * 22), 4)
  a <- ns$mlcrf_call_objective(pd, 1:6, rep(0.1, 4), 0.2, 0.5, theta)
  b <- ns$mlcrf_call_objective(ps, 1:6, rep(0.1, 4), 0.2, 0.5, theta)
  expect_equal(a, b, tolerance = 1e-12)
})

test_that("exact inference matches brute force for m <= 6", {
  infer <- get("crf_infer_call", asNamespace("mlss"))
  set.seed(3)
  for (m in c(2, 3, 5, 6)) {
    pairs <- which(upper.tri(diag(m)), arr.ind = TRUE)
    pairs <- pairs[order(pairs[, 1]), , drop = FALSE]
    pairs <- pairs[runif(nrow(pairs)) < 0.7 | seq_len(nrow(pairs)) == 1, , drop = FALSE]
    E <- nrow(pairs)
    n <- 4
    node <- matrix(rnorm(n * m), n)
    pair <- matrix(rnorm(n * 3 * E, sd = 1.5), n)
    ytest <- matrix(rbinom(n * m, 1, 0.5), n) + 0
    res <- infer(node, pair, pairs[, 1] - 1L, pairs[, 2] - 1L, "exact", ytest,
                 0.5, 100L, 1e-8)
    for (i in seq_len(n)) {
      ref <- crf_ref_brute(node[i, ], pair[i, ], pairs[, 1], pairs[, 2])
      expect_equal(res$marginal[i, ], unname(ref$marginal), tolerance = 1e-12)
      expect_equal(res$logZ[i], ref$logZ, tolerance = 1e-12)
      expect_equal(res$map[i, ], unname(ref$map))
      k <- which(apply(ref$configs, 1, function(r) all(r == ytest[i, ])))
      expect_equal(res$logp[i], ref$logp[k], tolerance = 1e-12)
    }
  }
})

test_that("predict() of a fit agrees with brute force on its own potentials", {
  dat <- crf_small_data(n = 60, m = 4, seed = 4)
  fit <- mlcrf(dat$x, dat$y, lambda_v = 0.01, lambda_w = 0.01, edges = "full")
  newx <- dat$x[1:5, ]
  sc <- predict(fit, newx, type = "score")
  cl <- predict(fit, newx)
  pr <- predict(fit, newx, type = "prob", y = dat$y[1:5, ])
  expect_identical(attr(sc, "inference")$method, "exact")
  # the potentials from the coefficients, in plain R
  X1 <- cbind(1, newx)
  node <- X1 %*% fit$nodes
  for (i in 1:5) {
    pair <- unlist(lapply(fit$weights, function(w) drop(X1[i, ] %*% w)))
    ref <- crf_ref_brute(node[i, ], pair, match(fit$edges$from, fit$labels),
                         match(fit$edges$to, fit$labels))
    expect_equal(unname(sc[i, ]), unname(ref$marginal), tolerance = 1e-10)
    expect_equal(unname(cl[i, ] + 0), unname(ref$map))
    k <- which(apply(ref$configs, 1, function(r) all(r == dat$y[i, ])))
    expect_equal(unname(pr[i]), exp(ref$logp[k]), tolerance = 1e-10)
  }
  expect_identical(colnames(sc), colnames(dat$y))
  expect_type(cl, "logical")
  # the probabilities feed ml_metrics()' log-likelihood loss
  expect_equal(ml_metrics(dat$y[1:5, ], prob = as.vector(pr))$log_loss, -mean(log(pr)))
})

test_that("approximate marginals for m = 10 are within 0.03 of the exact ones", {
  infer <- get("crf_infer_call", asNamespace("mlss"))
  set.seed(5)
  m <- 10
  pairs <- which(upper.tri(diag(m)), arr.ind = TRUE)
  pairs <- pairs[order(pairs[, 1]), , drop = FALSE]
  pairs <- pairs[runif(nrow(pairs)) < 0.3, , drop = FALSE]
  E <- nrow(pairs)
  n <- 20
  node <- matrix(rnorm(n * m), n)
  pair <- matrix(rnorm(n * 3 * E, sd = 0.5), n)
  ex <- infer(node, pair, pairs[, 1] - 1L, pairs[, 2] - 1L, "exact", NULL, 0.5, 500L, 1e-10)
  ap <- infer(node, pair, pairs[, 1] - 1L, pairs[, 2] - 1L, "approximate", NULL, 0.5, 500L, 1e-10)
  expect_true(all(ap$bp_delta < 1e-10))
  expect_lt(max(abs(ex$marginal - ap$marginal)), 0.03)
  expect_lt(max(abs(ex$logZ - ap$logZ)), 0.05)
  # ICM finds a label vector whose score is at least 99% ... the MAP in most rows
  expect_gte(mean(rowSums(ex$map != ap$map) == 0), 0.8)
})

test_that("on a tree, loopy belief propagation is exact", {
  infer <- get("crf_infer_call", asNamespace("mlss"))
  set.seed(6)
  from <- c(0L, 0L, 1L, 1L, 3L); to <- c(1L, 2L, 3L, 4L, 5L)
  node <- matrix(rnorm(12), 2)
  pair <- matrix(rnorm(30, sd = 2), 2)
  ex <- infer(node, pair, from, to, "exact", NULL, 0.5, 500L, 1e-12)
  ap <- infer(node, pair, from, to, "approximate", NULL, 0.5, 500L, 1e-12)
  expect_equal(ap$marginal, ex$marginal, tolerance = 1e-8)
  expect_equal(ap$logZ, ex$logZ, tolerance = 1e-8)
})

test_that("predict() runs approximate inference on request and says so", {
  dat <- crf_small_data(n = 80, m = 5, seed = 7)
  fit <- mlcrf(dat$x, dat$y, lambda_v = 0.01, lambda_w = 0.01, edges = "full")
  ex <- predict(fit, dat$x, type = "score")
  # (an almost unpenalised full graph on 80 rows has strong edges: a few
  # instances may keep a Monte Carlo error above the target, with a warning)
  ap <- suppressWarnings(predict(fit, dat$x, type = "score", inference = "approximate"))
  info <- attr(ap, "inference")
  expect_identical(info$method, "approximate")
  expect_true(all(info$gibbs_se > 0 & info$gibbs_se < 0.02))
  expect_false(any(info$map_certified))
  expect_true(all(info$bp_converged))
  # a dense graph with strong edges: loose agreement only (accuracy is tested above)
  expect_lt(max(abs(ex - ap)), 0.2)
  expect_gt(cor(as.vector(ex), as.vector(ap)), 0.95)
})

test_that("with no edges the node fit is independent L2 logistic regression", {
  dat <- crf_small_data(n = 100, m = 3, seed = 8)
  # unpenalised limit: glm()
  fit <- mlcrf(dat$x, dat$y, lambda_v = 0, edges = "none", tol = 1e-9)
  for (l in 1:3) {
    g <- glm(dat$y[, l] ~ dat$x, family = binomial)
    expect_equal(unname(fit$nodes[, l]), unname(coef(g)), tolerance = 1e-5)
  }
  # penalised: optim() of the penalised loss on the standardised features
  lv <- c(0.01, 0.1, 1)
  fit <- mlcrf(dat$x, dat$y, lambda_v = lv, edges = "none", tol = 1e-9)
  xs <- cbind(1, crf_ref_standardise(dat$x))
  for (l in 1:3) {
    f <- function(b) {
      z <- drop(xs %*% b)
      mean(log1p(exp(z)) - dat$y[, l] * z) + lv[l] * sum(b[-1]^2) + 1e-6 * b[1]^2
    }
    o <- optim(rep(0, 4), f, method = "BFGS", control = list(reltol = 1e-14, maxit = 1000))
    expect_equal(unname(fit$theta[, l]), o$par, tolerance = 1e-4)
  }
  expect_identical(nrow(fit$edges), 0L)
  expect_named(fit$edges, c("from", "to", "strength"))
})

test_that("the structure of the paper's four synthetic designs is recovered", {
  truth <- list(independent = character(0), single = "y1~y2",
                chain = c("y1~y2", "y2~y3"), complete = c("y1~y2", "y1~y3", "y2~y3"))
  for (design in names(truth)) {
    hits <- 0
    for (seed in 1:10) {
      set.seed(seed)
      d <- crf_ref_synthetic(design)
      fit <- mlcrf(d$x, d$y, lambda_v = 1e-3, eta = 1)
      hits <- hits + setequal(paste(fit$edges$from, fit$edges$to, sep = "~"), truth[[design]])
    }
    expect_gte(hits, 9, label = paste(design, "recoveries"))
  }
})

test_that("warm starts give the cold-start solution", {
  set.seed(9)
  d <- crf_ref_synthetic("chain", n = 300)
  fit1 <- mlcrf(d$x, d$y, lambda_v = 0.01, lambda_w = 0.3, eta = 1, tol = 1e-8)
  warm <- mlcrf(d$x, d$y, lambda_v = 0.01, lambda_w = 0.1, eta = 1, tol = 1e-8, init = fit1)
  cold <- mlcrf(d$x, d$y, lambda_v = 0.01, lambda_w = 0.1, eta = 1, tol = 1e-8)
  expect_identical(warm$edges[, 1:2], cold$edges[, 1:2])
  expect_equal(warm$theta, cold$theta, tolerance = 1e-4)
  xv <- d$x[1:20, ]
  expect_equal(predict(warm, xv, type = "score"), predict(cold, xv, type = "score"),
               tolerance = 1e-5, ignore_attr = TRUE)
})

test_that("lambda_v = NULL picks one value per label from the documented grid", {
  dat <- crf_small_data(n = 80, m = 3, seed = 10)
  set.seed(1)
  fit <- mlcrf(dat$x, dat$y, edges = "none")
  expect_length(fit$lambda_v, 3)
  expect_true(all(fit$lambda_v %in% 10^seq(0, -3, by = -0.5)))
})

test_that("lambda_max removes every edge, and a smaller lambda_w keeps some", {
  set.seed(11)
  d <- crf_ref_synthetic("complete", n = 300)
  fit <- mlcrf(d$x, d$y, lambda_v = 0.01, eta = 1)
  at_max <- mlcrf(d$x, d$y, lambda_v = 0.01, eta = 1, lambda_w = fit$lambda_max * 1.001)
  below <- mlcrf(d$x, d$y, lambda_v = 0.01, eta = 1, lambda_w = fit$lambda_max * 0.9)
  expect_identical(nrow(at_max$edges), 0L)
  expect_gt(nrow(below$edges), 0L)
})

test_that("sparse and dense x, and the formula interface, give the same fit", {
  dat <- crf_small_data(n = 60, m = 3, seed = 12)
  dat$x[abs(dat$x) < 0.5] <- 0
  a <- mlcrf(dat$x, dat$y, lambda_v = 0.1, lambda_w = 0.05, tol = 1e-9)
  b <- mlcrf(Matrix::Matrix(dat$x, sparse = TRUE), dat$y, lambda_v = 0.1, lambda_w = 0.05,
             tol = 1e-9)
  expect_equal(a$theta, b$theta, tolerance = 1e-6)
  df <- data.frame(dat$x, dat$y)
  f <- mlcrf(cbind(L1, L2, L3) ~ f1 + f2 + f3, data = df, lambda_v = 0.1, lambda_w = 0.05,
             tol = 1e-9)
  expect_equal(f$theta, a$theta, tolerance = 1e-6)
  expect_equal(predict(f, df[1:4, ], type = "score"), predict(a, dat$x[1:4, ], type = "score"),
               ignore_attr = TRUE, tolerance = 1e-6)
})

test_that("print() lists the edges and plot() draws the graph", {
  set.seed(13)
  d <- crf_ref_synthetic("chain", n = 300)
  fit <- mlcrf(d$x, d$y, lambda_v = 0.01, eta = 1)
  out <- capture.output(print(fit))
  expect_true(any(grepl(paste(nrow(fit$edges), "of 3 label pairs linked"), out)))
  expect_true(any(grepl("y1 +y2", out)))
  pdf(NULL)
  on.exit(dev.off())
  expect_identical(plot(fit), fit)
  expect_named(coef(fit), c("nodes", "edges"))
})

test_that("bad input gives clear errors", {
  dat <- crf_small_data(n = 30, m = 3)
  x <- dat$x; x[1, 1] <- NA
  expect_error(mlcrf(x, dat$y, lambda_v = 0.1), "'x' contains NA")
  y <- dat$y; y[2, 2] <- NA
  expect_error(mlcrf(dat$x, y, lambda_v = 0.1), "'y' contains NA")
  expect_error(mlcrf(dat$x, dat$y[, 1], lambda_v = 0.1), "one label")
  expect_error(mlcrf(dat$x, dat$y, lambda_v = -1), "'lambda_v'")
  expect_error(mlcrf(dat$x, dat$y, lambda_v = 0.1, eta = 2), "'eta'")
  expect_error(mlcrf(dat$x, dat$y, lambda_v = 0.1, lambda_w = NA), "'lambda_w'")
  expect_error(mlcrf(dat$x, dat$y, lambda_v = 0.1, foo = 1), "unknown argument")
  y <- dat$y; y[, 2] <- 0
  expect_warning(fit <- mlcrf(dat$x, y, lambda_v = 0.1, edges = "none"), "no positive")
  expect_true(all(predict(fit, dat$x, type = "score")[, 2] < 1e-3))
  fit <- mlcrf(dat$x, dat$y, lambda_v = 0.1, lambda_w = 0.1)
  expect_error(predict(fit, dat$x, type = "prob"), "needs the label vectors")
  expect_error(predict(fit, dat$x, type = "prob", y = unname(dat$y[, 1:2])),
               "'y' has 2 columns but the model has 3 labels")
  expect_error(predict(fit, dat$x, type = "prob", y = dat$y[, 1:2]),
               "no column for the label\\(s\\) '")
  expect_error(predict(fit, dat$x[, 1:2]), "columns")
  expect_error(mlcrf(dat$x, dat$y, lambda_v = 0.1, init = list()), "'init'")
  # exact inference forced where it is impossible
  set.seed(1)
  big <- matrix(rbinom(30 * 26, 1, 0.5), 30, 26)
  fit <- mlcrf(dat$x, big, lambda_v = 1, edges = "none")
  expect_error(predict(fit, dat$x, inference = "exact"), "limited to 25 labels")
  # with no edges, every label is its own component: "auto" is exact
  p <- predict(fit, dat$x[1:2, ], type = "score")
  expect_identical(attr(p, "inference")$method, "exact")
  expect_identical(attr(p, "inference")$components, rep(1L, 26))
})

test_that("mlcrf_lambda_range() gives the fit's lambda_max and default lambda_w", {
  set.seed(14)
  d <- crf_ref_synthetic("single", n = 200)
  fit <- mlcrf(d$x, d$y, lambda_v = 0.01, eta = 0.7)
  r <- mlss:::mlcrf_lambda_range(d$x, d$y == 1, 0.01, 0.7)
  expect_equal(r$lambda_max, fit$lambda_max, tolerance = 1e-6)
  expect_equal(r$lambda_default, fit$lambda_w, tolerance = 1e-6)
})

test_that("inference per connected component: exact on small components, said so", {
  infer <- get("crf_infer_call", asNamespace("mlss"))
  set.seed(31)
  m <- 7; n <- 6
  # a triangle (0, 1, 2), a path (3, 4, 5) and a lone label 6
  from <- c(0L, 0L, 1L, 3L, 4L); to <- c(1L, 2L, 2L, 4L, 5L)
  node <- matrix(rnorm(n * m), n)
  pair <- matrix(rnorm(n * 15, sd = 1.5), n)
  ex <- infer(node, pair, from, to, "exact")
  au <- infer(node, pair, from, to, "auto", component_max = 3L)
  expect_identical(ex$component, c(1L, 1L, 1L, 2L, 2L, 2L, 3L))
  for (i in seq_len(n)) {
    b <- crf_ref_brute(node[i, ], pair[i, ], from + 1L, to + 1L)
    expect_equal(au$marginal[i, ], unname(b$marginal), tolerance = 1e-10)
    expect_equal(au$logZ[i], b$logZ, tolerance = 1e-10)
    expect_equal(au$map[i, ], unname(as.integer(b$map)))
  }
  expect_identical(au$exact_labels, rep(7L, n))
  expect_true(all(au$map_certified))
  # components above the limit go approximate, and the report says so
  ap <- infer(node, pair, from, to, "auto", component_max = 2L)
  expect_identical(ap$exact_labels, rep(1L, n))    # only the lone label
  expect_true(all(ap$gibbs_se > 0))                 # the triangle was sampled
})

test_that("on a tree, max-product gives the exact MAP, certified", {
  infer <- get("crf_infer_call", asNamespace("mlss"))
  set.seed(32)
  m <- 9; n <- 40
  from <- c(0L, 0L, 1L, 1L, 2L, 4L, 4L, 6L); to <- c(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L)
  node <- matrix(rnorm(n * m, sd = 0.5), n)
  pair <- matrix(rnorm(n * 3 * length(from), sd = 2.5), n)
  ap <- infer(node, pair, from, to, "approximate", starts = 0L)
  for (i in seq_len(n)) {
    b <- crf_ref_brute(node[i, ], pair[i, ], from + 1L, to + 1L)
    expect_equal(ap$map[i, ], unname(as.integer(b$map)))
    expect_equal(ap$marginal[i, ], unname(b$marginal), tolerance = 1e-6)
  }
  expect_true(all(ap$map_certified))
})

test_that("Gibbs marginals on dense 12-label graphs are within 0.02 of the exact ones", {
  infer <- get("crf_infer_call", asNamespace("mlss"))
  set.seed(33)
  m <- 12; n <- 8
  pairs <- which(upper.tri(diag(m)), arr.ind = TRUE)
  pairs <- pairs[order(pairs[, 1], pairs[, 2]), , drop = FALSE]
  node <- matrix(rnorm(n * m), n)
  # couplings of the size learned on yeast (bench/mlcrf_inference.R)
  pair <- matrix(rnorm(n * 3 * nrow(pairs), sd = 0.5), n)
  ex <- infer(node, pair, pairs[, 1] - 1L, pairs[, 2] - 1L, "exact")
  ap <- infer(node, pair, pairs[, 1] - 1L, pairs[, 2] - 1L, "approximate")
  expect_lt(max(abs(ex$marginal - ap$marginal)), 0.02)
  expect_true(all(ap$gibbs_se <= 0.005))
  expect_false(any(ap$map_certified))
  expect_gte(mean(rowSums(ex$map != ap$map) == 0), 7 / 8)
})

test_that("both evaluations of the pseudo-likelihood (per edge, per row) match plain R on a subset of edges", {
  # the C code evaluates either through the potentials of every edge (mode 1)
  # or per row over its positive labels (mode 2); each must equal the plain-R
  # objective and gradient, on dense and on sparse x (offset columns: the
  # implicit centring enters the per-row form through a constant term)
  ns <- asNamespace("mlss")
  set.seed(71)
  n <- 40; m <- 5
  x <- matrix(rnorm(n * 3), n, 3)
  x[abs(x) < 0.5] <- 0
  x[, 3] <- x[, 3] + 2
  y <- matrix(rbinom(n * m, 1, 0.35), n, m)
  xs <- crf_ref_standardise(x)
  which <- c(1, 3, 4, 7, 10)  # edges (1,2) (1,4) (1,5) (2,5) (4,5): label 3 has none
  for (sparse in c(FALSE, TRUE)) for (type in c("full", "ising")) {
    xx <- if (sparse) Matrix::Matrix(x, sparse = TRUE) else x
    prep <- ns$mlcrf_prepare(xx, y == 1, type)
    theta <- matrix(rnorm(4 * (m + length(which) * prep$K)) * 0.5, 4)
    lv <- runif(m)
    ref <- crf_ref_objective(theta, xs, y, prep$from[which], prep$to[which], prep$K, lv, 1e-6,
                             0.3, 0.4)
    g <- crf_ref_gradient(theta, xs, y, prep$from[which], prep$to[which], prep$K, lv, 1e-6,
                          0.3 * 0.6)
    for (mode in 1:2) {
      got <- ns$mlcrf_call_objective(prep, which, lv, 0.3, 0.4, theta, mode = mode)
      info <- paste(sparse, type, mode)
      expect_equal(got$value, ref$value, tolerance = 1e-10, info = info)
      expect_equal(got$group, ref$group, tolerance = 1e-10, info = info)
      expect_equal(unname(got$gradient), unname(g), tolerance = 1e-10, info = info)
    }
  }
})

test_that("the refit of a graph of several connected components evaluates as asked (mode), and reaches the plain-R optimum either way", {
  # L-BFGS runs per connected component (src/mlcrf_core.c, crf_lbfgs()); the
  # mode asked for (1: the potentials of every edge, 2: per row) must reach
  # the components too, or a test of one evaluation would run the other
  # there.  The objectives are the same either way: both fits must have the
  # plain-R gradient (crf_ref_gradient()) zero.
  ns <- asNamespace("mlss")
  set.seed(72)
  n <- 60; m <- 5
  x <- matrix(rnorm(n * 3), n, 3)
  y <- matrix(rbinom(n * m, 1, 0.4), n, m)
  xs <- crf_ref_standardise(x)
  prep <- ns$mlcrf_prepare(x, y == 1, "full")
  which <- c(1, 8, 10)  # edges (1,2), (3,4), (4,5): components {1,2}, {3,4,5}
  lv <- rep(0.05, m)
  th0 <- matrix(0, 4, m + length(which) * 3)
  fits <- lapply(1:2, function(mode)
    ns$mlcrf_call_fit(prep, which, lv, 0.2, 0.5, th0, 2L, 1e-10, 2000L, mode = mode))
  expect_identical(fits[[1]]$modes, 2L)  # bit 1 << 1: the potentials of every edge only
  expect_identical(fits[[2]]$modes, 4L)  # bit 1 << 2: per row only
  for (f in fits) {
    expect_identical(f$status, 0L)
    g <- crf_ref_gradient(f$theta, xs, y, prep$from[which], prep$to[which], 3L, lv, 1e-6,
                          0.2 * 0.5)
    expect_lt(max(abs(g)), 1e-6)
  }
  expect_equal(fits[[1]]$theta, fits[[2]]$theta, tolerance = 1e-6)
})

test_that("cv_mlcrf() fits the folds to fold_tol and the rows to tol", {
  # The first grid point has no warm start, so each fold's fit there is
  # mlcrf() on the fold at fold_tol; the fit on all the rows is mlcrf() at
  # tol.  The two tolerances give visibly different fits (checked), so a
  # swap of them fails.
  d <- crf_three_labels()
  X <- d$X
  Y <- d$Y
  n <- nrow(X)
  foldid <- rep(1:3, 30)
  cv <- suppressMessages(cv_mlcrf(X, Y, lambda_w = c(0.2, 0.05), eta = 0.5, lambda_v = 0.01,
                                  foldid = foldid, keep = TRUE, progress = FALSE, tol = 1e-9,
                                  fold_tol = 1e-2, prune = "none", path = FALSE))
  oof <- function(tol) {
    s <- matrix(0, n, 3)
    for (k in 1:3) {
      va <- foldid == k
      f <- mlcrf(X[!va, ], Y[!va, ], lambda_v = 0.01, lambda_w = 0.2, eta = 0.5, tol = tol,
                 progress = FALSE)
      s[va, ] <- predict(f, X[va, ], type = "score")
    }
    s
  }
  expect_equal(unname(cv$oof[, , 1]), oof(1e-2), tolerance = 1e-10)
  expect_gt(max(abs(oof(1e-2) - oof(1e-9))), 1e-7)
  full <- mlcrf(X, Y, lambda_v = 0.01, lambda_w = cv$lambda_w_best, eta = 0.5, tol = 1e-9,
                progress = FALSE)
  expect_equal(cv$fit$theta, full$theta, tolerance = 1e-10)
  loose <- mlcrf(X, Y, lambda_v = 0.01, lambda_w = cv$lambda_w_best, eta = 0.5, tol = 1e-2,
                 progress = FALSE)
  expect_gt(max(abs(loose$theta - full$theta)), 1e-7)
  expect_error(cv_mlcrf(X, Y, lambda_v = 0.01, fold_tol = 0, progress = FALSE), "'fold_tol'")
})

test_that("stage 1's L-BFGS polishes are short, each followed by FISTA's certification", {
  # mlcrf_stage1_set() with the C calls recorded, polishes of 5 iterations:
  # the sequence of its comments, replayed on the record
  ns <- asNamespace("mlss")
  set.seed(1)
  rows <- sample(nrow(yeast$x), 300)
  x <- yeast$x[rows, 1:15]
  y <- yeast$y[rows, 1:6]
  prep <- ns$mlcrf_prepare(x, y, "full")
  lv <- rep(0.01, 6)
  nodes <- ns$mlcrf_call_fit(prep, integer(0), lv, 0, 0.5, matrix(0, 16, 6), 2L, 1e-6, 2000L)
  active <- seq_along(prep$from)
  theta <- cbind(nodes$theta, matrix(0, 16, 3 * length(active)))
  calls <- list()
  env <- new.env(parent = ns)
  env$mlcrf_polish_iter <- 5L
  env$mlcrf_call_fit <- function(prep, which, lambda_v, lambda_w, eta, theta, stage, tol,
                                 max_iter, mode = 0L, say = NULL) {
    r <- ns$mlcrf_call_fit(prep, which, lambda_v, lambda_w, eta, theta, stage, tol, max_iter)
    calls[[length(calls) + 1L]] <<- list(stage = stage, which = which, tol = tol,
                                         max_iter = max_iter, status = r$status,
                                         start = theta, end = r$theta)
    r
  }
  f <- ns$mlcrf_stage1_set
  environment(f) <- env
  tol <- 1e-6
  fit <- f(prep, active, lv, 0.1, 0.5, theta, tol, 2000L, function(...) NULL)
  st <- vapply(calls, `[[`, 0L, "stage")
  pol <- which(st == 3L)
  expect_true(length(pol) > 3)  # several polishes were needed here
  # the FISTA guess first, then polish and certification in turn, certified at the end
  expect_identical(st, c(1L, rep(c(3L, 1L), length(pol))))
  nonzero <- function(th, which) {
    w <- th[, -(1:6), drop = FALSE]
    which[colSums(matrix(colSums(w^2), 3)) > 0]
  }
  for (k in pol) {
    expect_true(calls[[k]]$max_iter <= 5L)
    cert <- calls[[k + 1L]]
    expect_equal(c(cert$tol, cert$max_iter), c(tol / 4, 20))
    # the polish on the edges the step before left non-zero, from its point
    expect_identical(calls[[k]]$which, nonzero(calls[[k - 1L]]$end, calls[[k - 1L]]$which))
    cols <- c(1:6, 6 + as.vector(outer(1:3, (match(calls[[k]]$which, active) - 1) * 3, "+")))
    expect_identical(calls[[k]]$start, calls[[k - 1L]]$end[, cols])
    # FISTA from the polish's point (its other edges zero)
    expect_identical(cert$start[, cols], calls[[k]]$end)
    expect_true(all(cert$start[, -cols] == 0))
    expect_identical(cert$status == 0L, k == max(pol))
  }
  # the same point as with the default polishes (both certified at tol)
  ref <- ns$mlcrf_stage1_set(prep, active, lv, 0.1, 0.5, theta, tol, 2000L, function(...) NULL)
  expect_identical(fit$status, 0L)
  expect_identical(ns$edge_norms(prep, fit$theta) > 0, ns$edge_norms(prep, ref$theta) > 0)
  expect_equal(fit$theta, ref$theta, tolerance = 1e-4)
})

test_that("stage 2's L-BFGS runs on the scaled variables: the iterates of optim() on them", {
  # the same lbfgsb() through optim(), on u = s theta with s the scales at
  # the start: the same evaluations and the same point (a gradient or a
  # start not transformed as the scaling requires changes the iterates)
  dat <- crf_small_data(n = 80, m = 3)
  dat$y[, 2] <- dat$y[, 1] * dat$y[, 3]  # a rarer label
  ns <- asNamespace("mlss")
  prep <- ns$mlcrf_prepare(dat$x, dat$y == 1, "full")
  lv <- c(0.05, 0.1, 0.02)
  th0 <- matrix(0, 4, 3 + 3 * 3)
  tol <- 1e-6
  got <- ns$mlcrf_call_fit(prep, 1:3, lv, 0.1, 0.5, th0, 2L, tol, 500L)
  s <- as.vector(ns$mlcrf_call_objective(prep, 1:3, lv, 0.1, 0.5, th0)$scales)
  obj <- function(u) ns$mlcrf_call_objective(prep, 1:3, lv, 0.1, 0.5, u / s)
  ref <- stats::optim(as.vector(th0) * s, function(u) obj(u)$value,
                      function(u) as.vector(obj(u)$gradient) / s, method = "L-BFGS-B",
                      control = list(factr = max(tol^2 / .Machine$double.eps, 10),
                                     pgtol = tol * 1e-2, lmm = 10, maxit = 500))
  expect_identical(got$iter, unname(ref$counts[["gradient"]]))
  expect_equal(as.vector(got$theta), ref$par / s, tolerance = 1e-10)
  expect_equal(got$objective, ref$value, tolerance = 1e-12)
})
