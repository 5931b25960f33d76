# The cheap scorers of issue 25 (fold scores over more than 20 labels):
# type = "prob" by BP's Bethe log Z without Gibbs or the MAP search,
# loopy = "bp" (BP's marginals where BP settles, Gibbs where it does not),
# the serial schedule BP falls back on; and the rename maxit -> max_iter.
# References: a plain-R transcription of sum-product BP and of the Bethe free
# energy, the forward algorithm on a chain, enumeration.

# Sum-product loopy BP in plain R, parallel updates without damping, to a
# fixed point: the marginals and the Bethe log Z.  node (m), pair (3E, the
# potentials of (0,1), (1,0), (1,1) per edge), from/to 1-based.
ref_bp <- function(node, pair, from, to, iters = 5000, tol = 1e-13) {
  m <- length(node); E <- length(from)
  pot <- lapply(seq_len(E), function(e) matrix(c(0, pair[3 * e - 1], pair[3 * e - 2],
                                                 pair[3 * e]), 2))  # [a + 1, b + 1]
  # messages as log-ratios: to[e] in mt, from[e] in mf
  mt <- mf <- numeric(E)
  lse <- function(v) max(v) + log(sum(exp(v - max(v))))
  h <- function() {
    b <- node
    for (e in seq_len(E)) { b[to[e]] <- b[to[e]] + mt[e]; b[from[e]] <- b[from[e]] + mf[e] }
    b
  }
  for (it in seq_len(iters)) {
    b <- h()
    nt <- nf <- numeric(E)
    for (e in seq_len(E)) {
      ha <- b[from[e]] - mf[e]; hb <- b[to[e]] - mt[e]
      P <- pot[[e]]
      nt[e] <- lse(c(0, ha) + P[, 2]) - lse(c(0, ha) + P[, 1])
      nf[e] <- lse(c(0, hb) + P[2, ]) - lse(c(0, hb) + P[1, ])
    }
    d <- max(abs(c(nt - mt, nf - mf)))
    mt <- nt; mf <- nf
    if (d < tol) break
  }
  b <- h()
  q <- stats::plogis(b)
  H <- function(p) -sum(ifelse(p > 0, p * log(p), 0))
  deg <- tabulate(c(from, to), m)
  # Bethe: log Z = sum_e [E_be(phi_e) + H(b_e)] + sum_l [node_l q_l - (deg_l - 1) H(q_l)]
  lz <- sum(node * q) + sum((deg - 1) * vapply(q, function(p) -H(c(p, 1 - p)), 0))
  for (e in seq_len(E)) {
    ha <- b[from[e]] - mf[e]; hb <- b[to[e]] - mt[e]
    t <- outer(c(0, ha), c(0, hb), "+") + pot[[e]]
    pe <- exp(t - max(t)); pe <- pe / sum(pe)
    lz <- lz + sum(pe * pot[[e]]) + H(pe)
  }
  list(marginal = q, logZ = lz, converged = d < tol)
}

test_that("type = \"prob\" on a component with cycles: the Bethe log Z of BP, no Gibbs", {
  infer <- get("crf_infer_call", asNamespace("mlss"))
  set.seed(41)
  m <- 8; n <- 6
  g <- dense_potentials(n, m, sd = 0.3)
  pairs <- g$pairs; node <- g$node; pair <- g$pair
  y <- matrix(rbinom(n * m, 1, 0.5), n) + 0
  ap <- infer(node, pair, pairs[, 1] - 1L, pairs[, 2] - 1L, "approximate", y, 0.5, 2000L,
              1e-12, what = "prob")
  expect_false(any(ap$gibbs))
  expect_true(all(ap$loopy))
  expect_identical(ap$gibbs_se, rep(0, n))
  for (i in seq_len(n)) {
    r <- ref_bp(node[i, ], pair[i, ], pairs[, 1], pairs[, 2])
    expect_true(r$converged)
    expect_equal(ap$logZ[i], r$logZ, tolerance = 1e-8)
    b <- crf_ref_brute(node[i, ], pair[i, ], pairs[, 1], pairs[, 2])
    sc <- b$logp[which(apply(b$configs, 1, function(v) all(v == y[i, ])))] + b$logZ
    expect_equal(ap$logp[i], sc - r$logZ, tolerance = 1e-8)
    # weak couplings: the Bethe approximation is close to the exact log Z
    expect_lt(abs(ap$logZ[i] - b$logZ), 0.05)
  }
})

test_that("type = \"prob\" over a 22-label chain (above the exact limit) is exact", {
  d <- 3; m <- 22
  cf <- crf_random_fit(42, n = 40, d = d, m = m, lambda_v = 0.1, lambda_w = 0.1, edges = "none")
  x <- cf$x; y <- cf$y; fit <- cf$fit
  # a chain L1 - L2 - ... - L22 with coefficients drawn here
  fit$edges <- data.frame(from = paste0("L", 1:(m - 1)), to = paste0("L", 2:m),
                          strength = 1, stringsAsFactors = FALSE)
  fit$weights <- lapply(1:(m - 1), function(k)
    matrix(rnorm((d + 1) * 3, sd = 0.8), d + 1, 3, dimnames = list(NULL, c("01", "10", "11"))))
  newx <- x[1:5, ]
  p <- predict(fit, newx, type = "prob", y = y[1:5, ])
  expect_identical(attr(p, "inference")$method, "approximate")
  # the forward algorithm in plain R
  X1 <- cbind(1, newx)
  for (i in 1:5) {
    node <- drop(X1[i, ] %*% fit$nodes)
    w <- lapply(fit$weights, function(W) drop(X1[i, ] %*% W))
    alpha <- c(0, node[1])                       # log-mass of y_1 = 0, 1
    for (l in 2:m) {
      P <- matrix(c(0, w[[l - 1]][2], w[[l - 1]][1], w[[l - 1]][3]), 2)  # [a + 1, b + 1]
      alpha <- vapply(1:2, function(b) {
        v <- alpha + P[, b]; max(v) + log(sum(exp(v - max(v))))
      }, 0) + c(0, node[l])
    }
    logZ <- max(alpha) + log(sum(exp(alpha - max(alpha))))
    yi <- y[i, ]
    s <- sum(node[yi == 1])
    for (l in 1:(m - 1)) {
      a <- yi[l]; b <- yi[l + 1]
      if (a || b) s <- s + w[[l]][if (a && b) 3 else if (a) 2 else 1]
    }
    expect_equal(unname(p[i]), unname(exp(s - logZ)), tolerance = 1e-8)
  }
})

test_that("loopy = \"bp\": BP's marginals where BP settled, Gibbs where it did not", {
  infer <- get("crf_infer_call", asNamespace("mlss"))
  set.seed(43)
  m <- 9; n <- 6
  g <- dense_potentials(n, m, sd = 0.3)
  bp <- infer(g$node, g$pair, g$f, g$t, "approximate", NULL, 0.5, 2000L, 1e-12, what = "score",
              loopy = "bp")
  expect_false(any(bp$gibbs))
  for (i in seq_len(n)) {
    r <- ref_bp(g$node[i, ], g$pair[i, ], g$pairs[, 1], g$pairs[, 2])
    expect_equal(bp$marginal[i, ], r$marginal, tolerance = 1e-8)
  }
  # BP stopped after one sweep per try: Gibbs instead, within its error of exact
  set.seed(44)
  gb <- infer(g$node, g$pair, g$f, g$t, "approximate", NULL, 0.5, 1L, 1e-12, what = "score",
              loopy = "bp")
  expect_true(all(gb$gibbs))
  expect_true(all(gb$gibbs_se > 0))
  ex <- infer(g$node, g$pair, g$f, g$t, "exact")
  expect_lt(max(abs(gb$marginal - ex$marginal)), 0.02)
  # the default runs Gibbs on a component with cycles whether BP settled or not
  gd <- infer(g$node, g$pair, g$f, g$t, "approximate", NULL, 0.5, 2000L, 1e-12, what = "score")
  expect_true(all(gd$gibbs))
})

test_that("BP falls back on the serial schedule, which reaches the same fixed point", {
  infer <- get("crf_infer_call", asNamespace("mlss"))
  set.seed(45)
  m <- 10; n <- 5
  g <- dense_potentials(n, m, sd = 0.5)
  for (i in seq_len(n)) {
    nd <- g$node[i, , drop = FALSE]; pr <- g$pair[i, , drop = FALSE]
    # how many parallel sweeps (no damping) BP takes, then one sweep fewer:
    # the parallel try cannot settle, the three damped ones are slower still,
    # and the fifth, serial (in place, Gauss-Seidel) does
    k <- infer(nd, pr, g$f, g$t, "approximate", NULL, 0, 5000L, 1e-10, what = "prob")$bp_iter
    lim <- k - 1L
    ap <- infer(nd, pr, g$f, g$t, "approximate", NULL, 0, lim, 1e-10, what = "prob")
    expect_lt(ap$bp_delta, 1e-10)
    expect_gt(ap$bp_iter, 4L * lim)
    r <- ref_bp(g$node[i, ], g$pair[i, ], g$pairs[, 1], g$pairs[, 2])
    expect_equal(ap$logZ, r$logZ, tolerance = 1e-7)
  }
})

test_that("maxit is the deprecated name of max_iter, with a classed warning", {
  set.seed(46)
  dat <- list(x = matrix(rnorm(180), 60, 3, dimnames = list(NULL, paste0("f", 1:3))),
              y = matrix(rbinom(180, 1, 0.5), 60, 3, dimnames = list(NULL, paste0("L", 1:3))))
  a <- mlcrf(dat$x, dat$y, lambda_v = 0.01, lambda_w = 0.05, max_iter = 300)
  expect_warning(b <- mlcrf(dat$x, dat$y, lambda_v = 0.01, lambda_w = 0.05, maxit = 300),
                 class = "mlss_deprecated")
  expect_equal(b$theta, a$theta)
  expect_warning(predict(a, dat$x[1:3, ], maxit = 10), "'maxit' is deprecated")
  expect_error(predict(a, dat$x[1:3, ], loopy = "mcmc"), "'loopy' must be NULL")
  # a fraction of an iteration would run no BP sweep at all
  expect_error(predict(a, dat$x[1:3, ], max_iter = 0.5), "'max_iter' must be a whole number")
  # the old name still reaches the solver (the deprecation warned once already)
  w <- character(0)
  withCallingHandlers(mlcrf(dat$x, dat$y, lambda_v = 0.01, lambda_w = 0.05, maxit = 1),
                      warning = function(cond) {
                        w <<- c(w, class(cond)[1]); invokeRestart("muffleWarning")
                      })
  expect_setequal(w, "mlss_not_converged")
})

test_that("mlcrf(progress = TRUE) says each step; cv_mlcrf()'s final fit samples as predict()'s default", {
  set.seed(47)
  x <- matrix(rnorm(240), 80, 3, dimnames = list(NULL, paste0("f", 1:3)))
  y <- matrix(rbinom(240, 1, 0.5), 80, 3, dimnames = list(NULL, paste0("L", 1:3)))
  msgs <- character(0)
  withCallingHandlers(mlcrf(x, y, progress = TRUE),
                      message = function(m) {
                        msgs <<- c(msgs, conditionMessage(m)); invokeRestart("muffleMessage")
                      })
  expect_true(any(grepl("choosing lambda_v", msgs)))
  expect_true(any(grepl("stage 1 .*3 pairs", msgs)))
  expect_true(any(grepl("stage 2: refit", msgs)))
  expect_silent(mlcrf(x, y, lambda_v = 0.1))
  cv <- suppressWarnings(suppressMessages(
    cv_mlcrf(x, y, lambda_v = 0.1, eta = 0.5, nlambda = 2, nfolds = 2, path = FALSE,
             progress = FALSE)))
  expect_null(cv$fit$loopy)
  w <- character(0)
  suppressMessages(withCallingHandlers(
    cv_mlcrf(x, y, lambda_v = 0.1, eta = 0.5, nlambda = 2, nfolds = 2, path = FALSE,
             progress = FALSE, maxit = 3000),
    warning = function(cond) { w <<- c(w, class(cond)[1]); invokeRestart("muffleWarning") }))
  expect_true("mlss_deprecated" %in% w)
})

test_that("cv_mlcrf() samples the fold marginals exactly when the measure is computed from them", {
  mm <- get("mlcrf_marginal_measures", asNamespace("mlss"))()
  expect_true(all(c("brier", "macro_auc", "ranking_loss", "average_precision") %in% mm))
  expect_false(any(c("log_loss", "macro_f1", "subset_accuracy", "hamming_loss") %in% mm))
  expect_error(cv_mlcrf(matrix(rnorm(40), 20), matrix(rbinom(40, 1, 0.5), 20),
                        fold_marginals = "mcmc"), "'fold_marginals' must be NULL")
})

# Replica exchange (session 39): Gibbs sampling on frustrated dense graphs,
# where a plain chain stays in one mode.  References: enumeration in plain R
# (crf_ref_brute) and a symmetry.

test_that("replica exchange: marginals on a frustrated dense 8-label graph within 0.02 of exact", {
  infer <- get("crf_infer_call", asNamespace("mlss"))
  # every pair entry N(0, 2^2); five rows on which plain Gibbs sampling (one
  # temperature) misses by 0.03-0.11 for 9 of 10 seeds
  set.seed(392)
  g <- dense_potentials(60, 8, sd = 2)
  rows <- c(3, 28, 51, 57, 59)
  node <- g$node[rows, ]; pair <- g$pair[rows, ]
  set.seed(1)
  ap <- infer(node, pair, g$f, g$t, "approximate", what = "score")
  for (i in seq_along(rows)) {
    b <- crf_ref_brute(node[i, ], pair[i, ], g$pairs[, 1], g$pairs[, 2])
    expect_lt(max(abs(ap$marginal[i, ] - b$marginal)), 0.02)
  }
  expect_true(all(ap$gibbs))
  # swaps between neighbouring temperatures were accepted
  expect_true(all(ap$swap_rate > 0.2 & ap$swap_rate < 1))
})

test_that("replica exchange crosses between the modes of a symmetric model; runs in different modes are reported", {
  infer <- get("crf_infer_call", asNamespace("mlss"))
  # an Ising model on the complete graph of 6 labels without fields, every
  # disagreement of two labels costs J: p(y) = p(1 - y), so every marginal is
  # 1/2; for J = 2 one flip from all-0 or all-1 costs 10 (e^-10)
  m <- 6
  pairs <- dense_pairs(m)
  f <- pairs[, 1] - 1L; t <- pairs[, 2] - 1L
  ising <- function(J) matrix(rep(c(-J, -J, 0), nrow(pairs)), 1)
  set.seed(3)
  ap <- infer(matrix(0, 1, m), ising(2), f, t, "approximate", what = "score")
  expect_lt(max(abs(ap$marginal - 0.5)), 0.02)
  # plain Gibbs (one temperature) with J = 30 never flips a label: the run
  # from the rounded BP marginals stays at all-0, the random one (this seed)
  # settles at all-1; the between-run standard error of the mean of the two
  # run means (0 and 1) is sqrt(((0 - 1/2)^2 + (1 - 1/2)^2) / 1 / 2) = 1/2
  set.seed(4)
  pl <- infer(matrix(0, 1, m), ising(30), f, t, "approximate", what = "score",
              tempering = c(1, 1))
  expect_equal(drop(pl$marginal), rep(0.5, m), tolerance = 1e-12)
  expect_equal(pl$gibbs_se, 0.5, tolerance = 1e-12)
  expect_true(is.na(pl$swap_rate))
})
