# What each approximate inference guarantees, as documented in
# ?predict.mlcrf and ?predict.pcc, checked against plain-R references
# (brute force, a transcription of the documented rule), never against the C
# code itself.  Already covered elsewhere and not repeated here: a full beam
# is exact (test-chains.R), sampled marginals within Monte Carlo error
# (test-chains.R), loopy BP exact on a tree (test-mlcrf.R).

# The unnormalised log-score of the pairwise CRF: node (m), pair (3E:
# (0,1), (1,0), (1,1) per edge), from/to 1-based.
approx_crf_score <- function(y, node, pair, from, to) {
  s <- sum(node[y == 1])
  for (e in seq_along(from)) {
    a <- y[from[e]]; b <- y[to[e]]
    if (a == 0 && b == 1) s <- s + pair[3 * e - 2]
    if (a == 1 && b == 0) s <- s + pair[3 * e - 1]
    if (a == 1 && b == 1) s <- s + pair[3 * e]
  }
  s
}

# Iterated conditional modes in plain R: sweep the labels in order, set each
# to its better value given the others (0 on a tie), until a sweep changes
# nothing.
approx_icm <- function(y, node, pair, from, to, maxit = 100) {
  for (sweep in seq_len(maxit)) {
    changed <- FALSE
    for (l in seq_along(y)) {
      y1 <- y; y1[l] <- 1
      y0 <- y; y0[l] <- 0
      v <- as.numeric(approx_crf_score(y1, node, pair, from, to) >
                        approx_crf_score(y0, node, pair, from, to))
      if (v != y[l]) { y[l] <- v; changed <- TRUE }
    }
    if (!changed) break
  }
  y
}

# A dense 10-label graph with strong couplings, where ICM and BP are poor.
approx_dense_potentials <- function(n, m = 10, sd_pair = 2, seed = 1) {
  set.seed(seed)
  P <- dense_potentials(n, m, sd_pair)
  c(P[c("node", "pair")], list(from = P$pairs[, 1], to = P$pairs[, 2]))
}

test_that("ICM returns a local optimum: no single-label flip raises the score", {
  infer <- get("crf_infer_call", asNamespace("mlss"))
  P <- approx_dense_potentials(n = 30)
  m <- ncol(P$node)
  ap <- suppressWarnings(infer(P$node, P$pair, P$from - 1L, P$to - 1L, "approximate", NULL,
                               0.5, 200L, 1e-8))
  ex <- infer(P$node, P$pair, P$from - 1L, P$to - 1L, "exact", NULL, 0.5, 200L, 1e-8)
  missed <- 0
  for (i in seq_len(nrow(P$node))) {
    sc <- function(y) approx_crf_score(y, P$node[i, ], P$pair[i, ], P$from, P$to)
    y <- ap$map[i, ]
    s <- sc(y)
    for (l in seq_len(m)) {
      yf <- y; yf[l] <- 1 - yf[l]
      expect_lte(sc(yf), s + 1e-12)
    }
    # at least as good as ICM from the independent solution (one of the
    # documented starts; the others are random or from sampling)
    a <- approx_icm(as.numeric(P$node[i, ] > 0), P$node[i, ], P$pair[i, ], P$from, P$to)
    expect_gte(s, sc(a) - 1e-12)
    # never better than the MAP, which it need not be
    expect_lte(s, sc(ex$map[i, ]) + 1e-12)
    missed <- missed + any(y != ex$map[i, ])
  }
  # the guarantee is only local, and said so: no MAP on a graph with cycles
  # is certified
  expect_false(any(ap$map_certified))
  expect_lte(missed, 3)
})

# The MAP by enumeration in plain R (m small): the label vector of largest
# score, with the score of each vector from approx_crf_score().
approx_brute_map <- function(node, pair, from, to) {
  m <- length(node)
  configs <- as.matrix(expand.grid(rep(list(0:1), m)))
  s <- apply(configs, 1, approx_crf_score, node = node, pair = pair, from = from, to = to)
  unname(configs[which.max(s), ])
}

test_that("ICM runs until no flip helps, also where one sweep is not enough", {
  # A chain L1 - ... - L8 whose last label is pushed on and whose other
  # labels each lean off (node -a) but gain c > a from a neighbour that is on
  # (phi(1, 1) = c): the MAP is all on.  ICM sweeps L1..L8 in order, so from
  # the independent solution (only L8 on) each sweep switches on just one
  # more label, backwards from L7: it needs 7 sweeps.  With BP cut short
  # (one sweep, damping 0.99: messages near 0) and no random starts, every
  # MAP candidate is the independent solution (a tree: no Gibbs sampling),
  # so only ICM itself can reach the MAP.
  infer <- get("crf_infer_call", asNamespace("mlss"))
  m <- 8; n <- 6
  from <- 1:(m - 1); to <- 2:m
  set.seed(31)
  a <- runif(n, 0.5, 1.5)
  cc <- a * runif(n, 1.1, 1.4)
  node <- cbind(matrix(-a, n, m - 1), runif(n, 1, 3))
  pair <- matrix(0, n, 3 * (m - 1))
  pair[, seq(3, 3 * (m - 1), by = 3)] <- cc
  ap <- infer(node, pair, from - 1L, to - 1L, "approximate", NULL, 0.99, 1L, 1e-8,
              starts = 0L)
  for (i in seq_len(n)) {
    sc <- function(y) approx_crf_score(y, node[i, ], pair[i, ], from, to)
    start <- as.numeric(node[i, ] > 0)
    # the design: one sweep from the start leaves an improving flip
    one <- approx_icm(start, node[i, ], pair[i, ], from, to, maxit = 1)
    expect_true(any(vapply(seq_len(m), function(l) {
      yf <- one; yf[l] <- 1 - yf[l]
      sc(yf) > sc(one)
    }, NA)))
    y <- ap$map[i, ]
    # a local optimum: no single-label flip raises the score
    for (l in seq_len(m)) {
      yf <- y; yf[l] <- 1 - yf[l]
      expect_lte(sc(yf), sc(y) + 1e-12)
    }
    # ICM in plain R, run to the end, and the MAP by enumeration: all on
    expect_equal(y, approx_icm(start, node[i, ], pair[i, ], from, to))
    expect_equal(y, approx_brute_map(node[i, ], pair[i, ], from, to))
    expect_equal(y, rep(1, m))
  }
})

test_that("predict.mlcrf()'s approximate MAP of a fit is a local optimum of its potentials", {
  m <- 6
  cf <- crf_random_fit(21, n = 60, d = 3, m = m, lambda_v = 0.01, lambda_w = 0.001,
                       edges = "full")
  x <- cf$x; fit <- cf$fit
  newx <- x[1:10, ]
  # (strong edges: the Gibbs marginals may warn about their Monte Carlo error)
  cl <- suppressWarnings(predict(fit, newx, type = "class", inference = "approximate"))
  expect_identical(attr(cl, "inference")$map,
                   "max-product belief propagation and iterated conditional modes")
  # the potentials from the coefficients, in plain R
  X1 <- cbind(1, newx)
  node <- X1 %*% fit$nodes
  from <- match(fit$edges$from, fit$labels); to <- match(fit$edges$to, fit$labels)
  for (i in 1:10) {
    pair <- unlist(lapply(fit$weights, function(w) drop(X1[i, ] %*% w)))
    yi <- cl[i, ] + 0
    s <- approx_crf_score(yi, node[i, ], pair, from, to)
    for (l in seq_len(m)) {
      yf <- yi; yf[l] <- 1 - yf[l]
      expect_lte(approx_crf_score(yf, node[i, ], pair, from, to), s + 1e-10)
    }
  }
})

test_that("loopy BP that does not converge: a warning, the flag, and marginals in [0, 1]", {
  infer <- get("crf_infer_call", asNamespace("mlss"))
  P <- approx_dense_potentials(n = 5, sd_pair = 3, seed = 2)
  ap <- infer(P$node, P$pair, P$from - 1L, P$to - 1L, "approximate", NULL, 0.5, 3L, 1e-12)
  # after 3 sweeps from zero messages nothing has converged to 1e-12, nor
  # with more damping, nor on the serial schedule (five tries of 3 sweeps)
  expect_identical(ap$bp_iter, rep(15L, 5))
  expect_true(all(ap$bp_delta >= 1e-12))
  expect_true(all(ap$marginal >= 0 & ap$marginal <= 1))
  # through predict(): the warning and the per-instance flag
  cf <- crf_random_fit(22, n = 60, d = 3, m = 6, lambda_v = 0.01, lambda_w = 0.001,
                       edges = "full")
  x <- cf$x; y <- cf$y; fit <- cf$fit
  # (the marginals of a graph with cycles come from Gibbs sampling; BP's
  # log Z is what type = "prob" uses)
  expect_warning(sc <- predict(fit, x[1:4, ], type = "prob", y = y[1:4, ],
                               inference = "approximate", max_iter = 1, tol = 1e-14),
                 "did not converge for 4 of 4")
  expect_identical(attr(sc, "inference")$bp_converged, rep(FALSE, 4))
  expect_true(all(sc >= 0 & sc <= 1))
  expect_silent(predict(fit, x[1:4, ], type = "score", inference = "approximate"))
})

# Beam search in plain R, from the documented rule: at label k (chain order)
# every member of the beam is extended by y_k = 0 and 1; the marginal of
# label k is the mass of the extensions with y_k = 1 over the mass of all
# extensions, BEFORE they are pruned to the `B` most probable.
approx_beam_ref <- function(model, order, x, B) {
  m <- length(order)
  beam <- list(list(y = numeric(m), lp = 0))
  marg <- numeric(m)
  for (k in seq_len(m)) {
    l <- order[k]; prev <- order[seq_len(k - 1)]
    cand <- list()
    for (b in beam) {
      z <- model$intercept[l] + sum(x * model$W[, l]) + sum(model$G[prev, l] * b$y[prev])
      y0 <- b$y; y0[l] <- 0
      y1 <- b$y; y1[l] <- 1
      cand <- c(cand, list(list(y = y0, lp = b$lp + stats::plogis(-z, log.p = TRUE)),
                           list(y = y1, lp = b$lp + stats::plogis(z, log.p = TRUE))))
    }
    lp <- vapply(cand, `[[`, 0, "lp")
    w <- exp(lp - max(lp))
    marg[l] <- sum(w[vapply(cand, function(c) c$y[l] == 1, NA)]) / sum(w)
    beam <- cand[order(-lp)][seq_len(min(B, length(cand)))]
  }
  list(marginals = marg, map = beam[[1]]$y)
}

test_that("beam marginals are over the candidates before pruning; the MAP is the beam's best", {
  dat <- chain_ref_data(n = 80, m = 6, seed = 23)
  ord <- c(3L, 1L, 6L, 2L, 5L, 4L)
  fit <- pcc(dat$x, dat$y, order = ord, cost = 3)
  newx <- dat$x[1:10, ]
  ex <- predict(fit, newx, type = "score")
  for (B in c(2L, 3L)) {
    sc <- predict(fit, newx, type = "score", inference = "beam", beam_width = B)
    cl <- predict(fit, newx, type = "class", inference = "beam", beam_width = B)
    for (i in 1:10) {
      r <- approx_beam_ref(fit, ord, newx[i, ], B)
      expect_equal(unname(sc[i, ]), r$marginals, tolerance = 1e-12)
      expect_equal(unname(cl[i, ]) + 0, r$map)
    }
    # no pruning before label k (chain order) while 2^(k-1) <= B: those
    # labels' marginals are exact
    first <- ord[seq_len(floor(log2(B)) + 1)]
    expect_equal(sc[, first], ex[, first], tolerance = 1e-12, ignore_attr = TRUE)
  }
  # a narrow beam is an approximation somewhere on these rows
  sc1 <- predict(fit, newx, type = "score", inference = "beam", beam_width = 2)
  expect_gt(max(abs(sc1 - ex)), 1e-6)
})

test_that("sampled marginals: the first label in the chain is exact, the rest within 4/sqrt(S)", {
  dat <- chain_ref_data(n = 80, m = 5, seed = 24)
  ord <- c(2L, 5L, 1L, 4L, 3L)
  fit <- pcc(dat$x, dat$y, order = ord, cost = 3)
  newx <- dat$x[1:10, ]
  ex <- predict(fit, newx, type = "score")
  S <- 300L
  set.seed(25)
  sm <- predict(fit, newx, type = "score", inference = "sample", n_samples = S)
  # the mean of p(y_l = 1 | x, y_<l) over the samples: for the first label
  # that probability does not depend on the sample (a frequency of y_l = 1
  # would not be exact)
  expect_equal(sm[, ord[1]], ex[, ord[1]], tolerance = 1e-12, ignore_attr = TRUE)
  expect_lt(max(abs(sm - ex)), 4 / sqrt(S))
  # the sampled MAP is one of the vectors and never more probable than the MAP
  set.seed(26)
  cl <- predict(fit, newx, type = "class", inference = "sample", n_samples = 5L)
  pm <- predict(fit, newx, type = "prob", y = predict(fit, newx, type = "class"))
  ps <- predict(fit, newx, type = "prob", y = cl)
  expect_true(all(ps <= pm * (1 + 1e-12)))
})
