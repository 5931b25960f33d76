# Plain-R references for MLCRF, written from methods.md section 3 (not from
# the C code): the pseudo-likelihood objective, brute-force inference, and the
# synthetic designs of the paper's section 4.2.

# Standardised features as mlcrf() uses them: centred, divided by the
# population standard deviation (1 for a constant column).
crf_ref_standardise <- function(x) {
  mu <- colMeans(x)
  sd <- sqrt(colMeans(sweep(x, 2, mu)^2))
  sd[sd == 0] <- 1
  sweep(sweep(x, 2, mu), 2, sd, "/")
}

# Edge potential table phi_e(a, b) for one instance: a 2 x 2 matrix indexed
# [a + 1, b + 1], from the stacked potentials c (K = 3: (0,1), (1,0), (1,1);
# K = 1: (1,1)).
crf_ref_table <- function(c, K) {
  t <- matrix(0, 2, 2)
  if (K == 3) { t[1, 2] <- c[1]; t[2, 1] <- c[2]; t[2, 2] <- c[3] } else t[2, 2] <- c[1]
  t
}

# The objective: - (1/n) sum_n sum_l log p(y_l | y_-l, x) + sum_l lambda_v[l]
# ||v_l without intercept||^2 + lambda0 sum_l v_l0^2 + lambda_w (1 - eta)
# sum_e ||w_e||^2 but for the intercept of its (1,1) column + lambda0_w sum_e
# (that intercept)^2 (the smooth part), and lambda_w eta sum_e ||w_e|| (group,
# all of w_e).
crf_ref_objective <- function(theta, xs, y, from, to, K, lambda_v, lambda0, lambda_w, eta,
                              lambda0_w = 1e-3) {
  n <- nrow(xs); m <- ncol(y)
  X1 <- cbind(1, xs)
  pot <- X1 %*% theta
  nll <- 0
  for (i in seq_len(n)) {
    yi <- y[i, ]
    score <- function(yy) {
      s <- sum(yy * pot[i, seq_len(m)])
      for (e in seq_along(from)) {
        tab <- crf_ref_table(pot[i, m + (e - 1) * K + seq_len(K)], K)
        s <- s + tab[yy[from[e]] + 1, yy[to[e]] + 1]
      }
      s
    }
    for (l in seq_len(m)) {
      y1 <- yi; y1[l] <- 1
      y0 <- yi; y0[l] <- 0
      s1 <- score(y1); s0 <- score(y0)
      lognorm <- max(s1, s0) + log(exp(s1 - max(s1, s0)) + exp(s0 - max(s1, s0)))
      nll <- nll - ((if (yi[l] == 1) s1 else s0) - lognorm)
    }
  }
  V <- theta[, seq_len(m), drop = FALSE]
  W <- theta[, -seq_len(m), drop = FALSE]
  c11 <- K * seq_along(from)  # the (1,1) column of each edge, its last
  smooth <- nll / n + sum(lambda_v * colSums(V[-1, , drop = FALSE]^2)) +
    lambda0 * sum(V[1, ]^2) + lambda_w * (1 - eta) * sum(W[, -c11]^2) +
    lambda_w * (1 - eta) * sum(W[-1, c11]^2) + lambda0_w * sum(W[1, c11]^2)
  group <- 0
  for (e in seq_along(from)) group <- group + sqrt(sum(W[, (e - 1) * K + seq_len(K)]^2))
  list(value = smooth, group = lambda_w * eta * group)
}

# Central finite differences of a scalar function of a vector.
crf_ref_numgrad <- function(f, theta, h = 1e-5) {
  g <- theta
  for (k in seq_along(theta)) {
    tp <- theta; tp[k] <- tp[k] + h
    tm <- theta; tm[k] <- tm[k] - h
    g[k] <- (f(tp) - f(tm)) / (2 * h)
  }
  g
}

# Brute force over all 2^m label vectors of one instance: node (m), pair (3E:
# (0,1), (1,0), (1,1) per edge).  Returns the MAP, the marginals, log Z and
# the log-probability of every configuration.
crf_ref_brute <- function(node, pair, from, to) {
  m <- length(node)
  Y <- as.matrix(expand.grid(rep(list(0:1), m)))
  s <- drop(Y %*% node)
  for (e in seq_along(from)) {
    a <- Y[, from[e]]; b <- Y[, to[e]]
    s <- s + ifelse(a == 0 & b == 1, pair[3 * e - 2], 0) +
      ifelse(a == 1 & b == 0, pair[3 * e - 1], 0) + ifelse(a == 1 & b == 1, pair[3 * e], 0)
  }
  logZ <- max(s) + log(sum(exp(s - max(s))))
  p <- exp(s - logZ)
  list(map = Y[which.max(s), ], marginal = colSums(Y * p), logZ = logZ,
       configs = Y, logp = s - logZ)
}

# The paper's synthetic designs (section 4.2), 3 labels, x uniform in
# [-1, 1]^6.  The paper's formulas for the means were lost; these follow its
# text: mu = sigmoid of a linear function of x, then
#   independent: y1, y2, y3 independent Bernoulli(mu1, mu2, mu3)
#   single edge: z ~ Bern(mu1); (y1, y2) = (0, 0) when z = 0, else (1, 0) or
#     (0, 1) with equal probability; y3 ~ Bern(mu2), independent
#   chain: y1 ~ Bern(mu1); y2 = y1 and y3 = y2, each copy flipped with
#     probability 0.2 (a Markov chain y1 - y2 - y3: y1 and y3 independent
#     given y2)
#   complete: z ~ Bern(mu1); y = (0, 0, 0) when z = 1, else one of (1, 0, 0),
#     (0, 1, 0), (0, 0, 1) with equal probability.
crf_ref_synthetic <- function(design, n = 500) {
  x <- matrix(stats::runif(n * 6, -1, 1), n, 6)
  sig <- function(z) 1 / (1 + exp(-z))
  mu1 <- sig(x[, 1] + x[, 2] - x[, 3])
  mu2 <- sig(-x[, 4] + x[, 5] + x[, 6])
  mu3 <- sig(x[, 1] - x[, 5] + x[, 6])
  b <- function(p) as.numeric(stats::runif(length(p)) < p)
  y <- switch(design,
    independent = cbind(b(mu1), b(mu2), b(mu3)),
    single = {
      z <- b(mu1); first <- b(rep(0.5, n))
      cbind(z * first, z * (1 - first), b(mu2))
    },
    chain = {
      y1 <- b(mu1)
      y2 <- abs(y1 - b(rep(0.2, n)))
      y3 <- abs(y2 - b(rep(0.2, n)))
      cbind(y1, y2, y3)
    },
    complete = {
      z <- b(mu1); k <- sample.int(3, n, replace = TRUE)
      Y <- matrix(0, n, 3); Y[cbind(seq_len(n), k)] <- 1
      Y * (1 - z)
    })
  colnames(y) <- paste0("y", 1:3)
  list(x = x, y = y)
}

# The gradient of the smooth part of crf_ref_objective() (loss / n, the node
# ridges, the tiny intercept ridge, `lambda0_w` on the intercept of each
# edge's (1,1) column and the edge ridge `ridge` on the rest), vectorised.
# Derived from the tables, not expanded by hand: the log-odds of y_a is
# phi(1, y_b) - phi(0, y_b), so d z_a / d phi(s, t) = [t = y_b] (2 s - 1), and
# likewise d z_b / d phi(s, t) = [s = y_a] (2 t - 1).
crf_ref_gradient <- function(theta, xs, y, from, to, K, lambda_v, lambda0, ridge,
                             lambda0_w = 1e-3) {
  n <- nrow(xs); m <- ncol(y)
  X1 <- cbind(1, xs)
  pot <- X1 %*% theta
  cfg <- if (K == 3) list(c(0, 1), c(1, 0), c(1, 1)) else list(c(1, 1))
  z <- pot[, seq_len(m), drop = FALSE]
  for (e in seq_along(from)) {
    a <- from[e]; b <- to[e]
    for (k in seq_len(K)) {
      s <- cfg[[k]][1]; t <- cfg[[k]][2]; c <- pot[, m + (e - 1) * K + k]
      z[, a] <- z[, a] + c * (y[, b] == t) * (2 * s - 1)
      z[, b] <- z[, b] + c * (y[, a] == s) * (2 * t - 1)
    }
  }
  r <- stats::plogis(z) - y            # d loss / d log-odds
  D <- matrix(0, n, ncol(theta))
  D[, seq_len(m)] <- r
  for (e in seq_along(from)) {
    a <- from[e]; b <- to[e]
    for (k in seq_len(K)) {
      s <- cfg[[k]][1]; t <- cfg[[k]][2]
      D[, m + (e - 1) * K + k] <- r[, a] * (y[, b] == t) * (2 * s - 1) +
        r[, b] * (y[, a] == s) * (2 * t - 1)
    }
  }
  g <- crossprod(X1, D) / n
  V <- theta[, seq_len(m), drop = FALSE]
  g[-1, seq_len(m)] <- g[-1, seq_len(m)] + 2 * rep(lambda_v, each = nrow(V) - 1) * V[-1, ]
  g[1, seq_len(m)] <- g[1, seq_len(m)] + 2 * lambda0 * V[1, ]
  W <- theta[, -seq_len(m), drop = FALSE]
  pen <- matrix(ridge, nrow(W), ncol(W))
  pen[1, K * seq_along(from)] <- lambda0_w  # the (1,1) intercepts
  g[, -seq_len(m)] <- g[, -seq_len(m)] + 2 * pen * W
  g
}

# A coefficient matrix reported on the scale of x back on the standardised one.
crf_ref_to_standard <- function(coef, center, scale) {
  b <- coef[-1, , drop = FALSE]
  rbind(coef[1, ] + colSums(b * center), b * scale)
}

# Small random data for MLCRF fits: x (n x d, columns f1, ...) normal, y
# (n x m, columns L1, ...) fair coin flips, drawn in that order.
crf_random_data <- function(n, d, m) {
  list(x = matrix(rnorm(n * d), n, d, dimnames = list(NULL, paste0("f", 1:d))),
       y = matrix(rbinom(n * m, 1, 0.5), n, m, dimnames = list(NULL, paste0("L", 1:m))))
}
