# Plain-R references for classifier chains, written from the definitions
# (Read et al. 2011; Dembczynski et al. 2010), not from the C code.

# The L2 logistic regression of br(learner = "logistic"): minimise
# 0.5 ||w||^2 + C sum_i log(1 + exp(-s_i w'z_i)) over w, z_i = (features, 1)
# (the intercept a penalised feature), s_i = +-1; by optim's BFGS.
chain_ref_logistic <- function(Z, s, C) {
  f <- function(w) 0.5 * sum(w^2) + C * sum(log1p(exp(-s * drop(Z %*% w))))
  g <- function(w) w - C * drop(crossprod(Z, s * stats::plogis(-s * drop(Z %*% w))))
  stats::optim(numeric(ncol(Z)), f, g, method = "BFGS",
               control = list(reltol = 1e-14, maxit = 5000))$par
}

# The chain: label order[k] regressed on x, the true labels order[1..k-1]
# (0/1) and 1.  Returns W (d x m), G (m x m, G[a, b] the weight of label a in
# the model of label b) and the intercepts, in the label order of y.
chain_ref_fit <- function(x, y, order = seq_len(ncol(y)), cost = rep(1, ncol(y))) {
  d <- ncol(x); m <- ncol(y)
  W <- matrix(0, d, m); G <- matrix(0, m, m); b <- numeric(m)
  for (k in seq_len(m)) {
    l <- order[k]
    prev <- order[seq_len(k - 1)]
    Z <- cbind(x, y[, prev, drop = FALSE] + 0, 1)
    w <- chain_ref_logistic(Z, 2 * y[, l] - 1, cost[l])
    W[, l] <- w[seq_len(d)]
    G[prev, l] <- w[d + seq_along(prev)]
    b[l] <- w[d + k]
  }
  list(W = W, G = G, intercept = b)
}

# p(y | x) of one instance x (a vector) and one 0/1 label vector y by the
# chain rule, for a model with W, G, intercept and the chain `order`
# (indices).
chain_ref_prob <- function(model, order, x, y) {
  p <- 1
  for (k in seq_along(order)) {
    l <- order[k]
    prev <- order[seq_len(k - 1)]
    z <- model$intercept[l] + sum(x * model$W[, l]) + sum(model$G[prev, l] * y[prev])
    p <- p * if (y[l] == 1) stats::plogis(z) else 1 - stats::plogis(z)
  }
  p
}

# All 2^m label vectors, one per row.
chain_ref_vectors <- function(m) as.matrix(expand.grid(rep(list(0:1), m)))

# Brute force over the 2^m vectors of one instance: the probabilities, the
# marginals and the MAP vector.
chain_ref_brute <- function(model, order, x) {
  V <- chain_ref_vectors(length(order))
  p <- apply(V, 1, function(v) chain_ref_prob(model, order, x, v))
  list(p = unname(p), marginals = unname(colSums(V * p)), map = unname(V[which.max(p), ]))
}

# CC: the greedy walk, each label from the predicted previous ones; returns
# the 0/1 vector and the conditional probabilities along it.
chain_ref_greedy <- function(model, order, x) {
  m <- length(order)
  y <- numeric(m); p <- numeric(m)
  for (k in seq_len(m)) {
    l <- order[k]
    prev <- order[seq_len(k - 1)]
    p[l] <- stats::plogis(model$intercept[l] + sum(x * model$W[, l]) +
                            sum(model$G[prev, l] * y[prev]))
    y[l] <- as.numeric(p[l] > 0.5)
  }
  list(y = y, p = p)
}

# Small random multi-label data whose labels depend on x and on each other.
chain_ref_data <- function(n = 80, d = 3, m = 4, seed = 1) {
  set.seed(seed)
  x <- matrix(stats::rnorm(n * d), n, d, dimnames = list(NULL, paste0("f", seq_len(d))))
  y <- matrix(FALSE, n, m, dimnames = list(NULL, paste0("L", seq_len(m))))
  for (l in seq_len(m)) {
    z <- x %*% stats::rnorm(d) + if (l > 1) 1.5 * y[, l - 1] - 0.7 else 0
    y[, l] <- stats::runif(n) < stats::plogis(z)
  }
  list(x = x, y = y)
}
