# The pruning helpers of cv_mlcrf(): the pseudo-likelihood, the eBIC and
# chi-square criteria, the refits on an edge subset and the candidates.

# The measures computed from the fold marginals (cv_mlcrf()'s fold_marginals).
mlcrf_marginal_measures <- function() {
  tab <- measure_table()
  c(tab$name[tab$needs == "score"], "brier")
}

# Each label's conditional log-odds given the other labels (n x m): its node
# term plus, per edge, the difference of the edge potentials at the
# neighbour's value (y 0/1, numeric).
mlcrf_conditional_logits <- function(pot, y) {
  z <- pot$node
  for (e in seq_along(pot$from)) {
    a <- pot$from[e] + 1L
    b <- pot$to[e] + 1L
    c01 <- pot$pair[, 3L * e - 2L]
    c10 <- pot$pair[, 3L * e - 1L]
    c11 <- pot$pair[, 3L * e]
    z[, a] <- z[, a] + y[, b] * (c11 - c01) + (1 - y[, b]) * c10
    z[, b] <- z[, b] + y[, a] * (c11 - c10) + (1 - y[, a]) * c01
  }
  z
}

# The pseudo-log-likelihood sum_i sum_l log p(y_il | y_i,-l, x_i) of a fit on
# the rows (x, y): each label's conditional log-odds is its node term plus,
# per edge, the difference of the edge potentials at the neighbour's value.
mlcrf_pseudo_loglik <- function(fit, x, y) {
  pot <- mlcrf_potentials(fit, x)
  y <- y + 0
  z <- mlcrf_conditional_logits(pot, y)
  sum(y * stats::plogis(z, log.p = TRUE) + (1 - y) * stats::plogis(-z, log.p = TRUE))
}

# The extended BIC of a fit with the pseudo-likelihood (Barber and Drton
# 2015): -2 PL + |E| (df log n + 4 gamma log m), df the parameters counted per
# edge: "K" (its potential table: 3 for full edges, 1 for Ising ones), "q"
# (all its (d + 1) K weights) or a number.
mlcrf_ebic <- function(pl, E, n, m, d, K, gamma, df = mlcrf_ebic_df) {
  if (is.character(df)) df <- switch(df, K = K, q = (d + 1) * K)
  -2 * pl + E * (df * log(n) + 4 * gamma * log(m))
}
mlcrf_ebic_df <- "K"

# prune = "chisq": -2 PL + sum over the graph's edges of c_e, c_e the
# (1 - level) quantile of the null distribution of what edge e adds to 2 PL
# (mlcrf_edge_null(): a scaled chi^2 from the ridge refit's curvature and
# the scores' spread): an edge stays when dropping it costs more than a
# likelihood-ratio test of the edge at `level` allows.  (Counting all its
# (d + 1) K weights as degrees of freedom, the first version, removed every
# edge of emotions: its ridge and its (0,1), (1,0) weights' overlap with the
# node weights leave far fewer; bench/mlcrf_structure.md.)
mlcrf_chisq_penalty <- function(fit, x, y, level) {
  nul <- mlcrf_edge_null(fit, x, y)
  nul[, "scale"] * stats::qchisq(1 - level, nul[, "df"])
}

# The null distribution of each edge's gain in 2 PL (what the elimination
# compares with a penalty), from each edge's block of the Hessian (the
# plain reading: mlcrf_edge_blocks() of tests/testthat/helper-mlcrf-blocks.R): after
# projecting out the nodes of a and b (with their ridge; the full potential
# table's (0,1) and (1,0) weights are otherwise collinear with the node
# weights), the edge's information S = H_ee - H_en (H_nn + P_n)^-1 H_ne and
# its scores' cross-products J (the pseudo-likelihood is a composite
# likelihood: each edge weight enters two conditionals, so J is not S).
# Dropping a null edge then gains about g'M g, g ~ N(0, J), M = 2 R - R S R,
# R = (S + P_e)^-1 (the ridge refit's gain, to second order): a weighted sum
# of chi^2_1 with the eigenvalues of M J as weights, matched in mean and
# variance by s chi^2_nu (Satterthwaite).  A matrix of one row per edge,
# columns mean (the sum of the weights: the edge's effective degrees of
# freedom in units of 2 PL), scale s and df nu.
mlcrf_edge_null <- function(fit, x, y) {
  parts <- mlcrf_edge_parts(fit, x, y)
  xs <- parts$xs
  p <- ncol(xs)
  K <- parts$K
  y <- parts$y
  w <- parts$w
  r <- parts$r
  # H and J without forming the n x (2 + K) p rows of mlcrf_edge_blocks():
  # row i's derivatives of label a's conditional log-odds are
  # kronecker(ca(y_ib), x_i) (the groups v_a, v_b, then the edge's K columns),
  # those of b's kronecker(cb(y_ia), x_i), so that H and J are sums over the
  # rows with given (y_ia, y_ib) of kronecker(coefficients, X'DX) with X'DX
  # the weighted Gram of those rows' features: 5 n p^2 multiply-adds per edge
  # in place of about 40 (bench/mlcrf_speed.md, session s36)
  ca <- function(t) c(1, 0, if (K == 3L) c(-t, 1 - t, t) else t)
  cb <- function(s) c(0, 1, if (K == 3L) c(1 - s, -s, s) else s)
  gram <- function(rows, v) {
    xr <- xs[rows, , drop = FALSE]
    crossprod(xr * v[rows], xr)
  }
  nd <- seq_len(2L * p)
  ed <- 2L * p + seq_len(K * p)
  out <- matrix(NA_real_, length(parts$from), 3L, dimnames = list(NULL, c("mean", "scale", "df")))
  for (e in seq_along(parts$from)) {
    a <- parts$from[e]
    b <- parts$to[e]
    H <- J <- 0
    for (t in 0:1) {
      at_b <- y[, b] == t  # a's rows with y_b = t, b's with y_a = t
      at_a <- y[, a] == t
      H <- H + kronecker(tcrossprod(ca(t)), gram(at_b, w[, a])) +
        kronecker(tcrossprod(cb(t)), gram(at_a, w[, b]))
      J <- J + kronecker(tcrossprod(ca(t)), gram(at_b, r[, a]^2)) +
        kronecker(tcrossprod(cb(t)), gram(at_a, r[, b]^2))
      for (s in 0:1) {
        C <- tcrossprod(ca(t), cb(s))
        J <- J + kronecker(C + t(C), gram(at_b & y[, a] == s, r[, a] * r[, b]))
      }
    }
    ridge <- parts$ridge(a, b)
    Hn <- H[nd, nd] + diag(ridge[nd])
    T <- solve(Hn, H[nd, ed])
    S <- H[ed, ed] - H[ed, nd] %*% T
    # crossprod(G_e - G_n T), G the rows' scores
    JT <- J[ed, nd] %*% T
    Jp <- J[ed, ed] - JT - t(JT) + crossprod(T, J[nd, nd] %*% T)
    R <- solve(S + diag(ridge[ed]))
    A <- (2 * R - R %*% S %*% R) %*% Jp
    s1 <- sum(diag(A))
    s2 <- sum(A * t(A))  # the trace of A^2
    out[e, ] <- c(s1, if (s1 > 0) s2 / s1 else 1, if (s2 > 0) s1^2 / s2 else 0)
  }
  out
}

# What mlcrf_edge_null() (and the tests' mlcrf_edge_blocks()) start from: the
# standardised features with an intercept (xs), the labels 0/1, each label's
# conditional probability's weight w = pr (1 - pr) and residual r = y - pr
# (n x m), the edges' labels (from, to, 1-based), K, and ridge(a, b): the
# ridge of (v_a, v_b, w_e) in the refit's objective times n.
mlcrf_edge_parts <- function(fit, x, y) {
  prep <- mlcrf_prepare(x, y + 0, fit$edge_type)
  y <- y + 0
  n <- prep$n
  xs <- if (inherits(prep$xc, "dgCMatrix")) as.matrix(prep$xc) else prep$xc
  xs <- cbind(1, sweep(sweep(xs, 2L, prep$shift), 2L, prep$sinv, `*`))
  p <- ncol(xs)
  K <- prep$K
  pot <- mlcrf_potentials(fit, x)
  z <- mlcrf_conditional_logits(pot, y)
  pr <- stats::plogis(z)
  eta2 <- mlcrf_refit_eta(fit$eta)  # the refit's edge ridge, as mlcrf()'s stage 2
  ridge_v <- function(l) 2 * n * c(mlcrf_lambda0, rep(unname(fit$lambda_v[l]), p - 1L))
  ridge_w <- 2 * n * rep(fit$lambda_w * (1 - eta2), K * p)
  ridge_w[(K - 1L) * p + 1L] <- 2 * n * mlcrf_lambda0_w  # the (1,1) intercept
  list(xs = xs, y = y, w = pr * (1 - pr), r = y - pr, K = K,
       from = pot$from + 1L, to = pot$to + 1L,
       ridge = function(a, b) c(ridge_v(a), ridge_v(b), ridge_w))
}

# Stage 2 of mlcrf() on the edges `keep` (indices into prep's pairs) at the
# penalties of `fit`, the edge ridge lambda_w (1 - eta2), from th0 (nodes,
# then the K columns of each kept edge): an mlcrf object.
mlcrf_refit_edges <- function(fit, prep, x, y, keep, th0, eta2, tol, max_iter) {
  s2 <- mlcrf_call_fit(prep, keep, unname(fit$lambda_v), fit$lambda_w, eta2, th0, 2L, tol,
                       max_iter)
  if (s2$status == 2L) stop("cv_mlcrf: the L-BFGS refit failed", call. = FALSE)
  if (s2$status == 1L)
    warn_not_converged_msg("cv_mlcrf: a refit of the pruning did not converge in ",
                           "'max_iter' = ", max_iter, " iterations")
  m <- prep$m
  stage1 <- matrix(0, prep$d + 1L, m + length(prep$from) * prep$K)
  stage1[, c(seq_len(m), edge_columns(prep, keep))] <- s2$theta
  res <- list(theta = s2$theta, keep = keep, stage1 = stage1, lambda_v = unname(fit$lambda_v),
              lambda_w = fit$lambda_w, eta = fit$eta, lambda_max = fit$lambda_max,
              edge_mode = "learn", convergence = list(stage2 = s2[c("status", "iter", "objective")]))
  mlcrf_object(res, prep, x, y, fit$call)
}

# The candidates of cv_mlcrf(prune = "ebic"): backward elimination from the
# chosen fit, on all the rows: the weakest edge (least strength) of the
# current graph is dropped and the rest refitted (stage 2 of mlcrf() at the
# chosen lambda_w and eta, warm-started from the current refit), down to no
# edge (or until `crit`, a function of the pseudo-log-likelihoods and the
# graphs' edges, has been above its minimum for `patience` graphs in a row);
# each graph's pseudo-log-likelihood on those rows, its number of edges and
# `kept`, its edges as indices into fit$edges' rows (crit(pl, kept)).  (Refits with
# almost no edge ridge instead, lambda_w / 1000, recovered the synthetic
# graphs no better: bench/mlcrf_structure.md.)
mlcrf_ebic_candidates <- function(fit, x, y, tol, max_iter, crit = NULL, patience = Inf,
                                  ridge = NULL) {
  prep <- mlcrf_prepare(x, y + 0, fit$edge_type)
  pairs <- paste(prep$labels[prep$from], prep$labels[prep$to], sep = "~")
  keep <- match(paste(fit$edges$from, fit$edges$to, sep = "~"), pairs)
  m <- prep$m
  K <- prep$K
  eta2 <- mlcrf_refit_eta(fit$eta)  # as the refit of mlcrf() (stage 2)
  # ridge: the refits' edge ridge as a fraction of lambda_w (NULL: as mlcrf())
  if (!is.null(ridge)) eta2 <- 1 - ridge
  cur <- if (is.null(ridge)) fit else
    mlcrf_refit_edges(fit, prep, x, y, keep, fit$theta, eta2, tol, max_iter)
  fits <- list(cur)
  keep0 <- keep
  orig <- seq_along(keep)  # the kept edges as rows of fit$edges
  kept <- list(orig)
  pl <- mlcrf_pseudo_loglik(cur, x, y)
  while (length(keep)) {
    if (!is.null(crit)) {  # stop once `patience` graphs in a row are worse than the best
      v <- crit(pl, kept)
      if (length(v) > patience && all(utils::tail(v, patience) > min(v))) break
    }
    drop <- which.min(cur$edges$strength)
    th0 <- cur$theta[, -(m + (drop - 1L) * K + seq_len(K)), drop = FALSE]
    keep <- keep[-drop]
    orig <- orig[-drop]
    kept[[length(kept) + 1L]] <- orig
    cur <- mlcrf_refit_edges(fit, prep, x, y, keep, th0, eta2, tol, max_iter)
    fits[[length(fits) + 1L]] <- cur
    pl <- c(pl, mlcrf_pseudo_loglik(cur, x, y))
  }
  # pairs: the same graphs as indices into prep's pairs
  list(fits = fits, pl = pl, edges = lengths(kept), kept = kept,
       pairs = lapply(kept, function(o) keep0[o]), eta2 = eta2)
}

# The held-out pseudo-log-likelihood of each candidate graph of
# mlcrf_ebic_candidates() (`cand`): per fold of `foldid`, the graph refitted
# on the other folds' rows (stage 2 at the penalties of cand$fits[[1]], the
# refits' ridge, warm-started from the candidate's fit on all rows) and its
# pseudo-log-likelihood on the fold's rows: a candidates x folds matrix.
mlcrf_cv_candidates <- function(cand, x, y, foldid, tol, max_iter) {
  fit <- cand$fits[[1]]
  nf <- max(foldid)
  out <- matrix(NA_real_, length(cand$fits), nf)
  for (k in seq_len(nf)) {
    tr <- foldid != k
    prep <- mlcrf_prepare(x[tr, , drop = FALSE], y[tr, , drop = FALSE] + 0, fit$edge_type)
    pairs <- paste(prep$labels[prep$from], prep$labels[prep$to], sep = "~")
    for (j in seq_along(cand$fits)) {
      f <- cand$fits[[j]]
      keep <- match(paste(f$edges$from, f$edges$to, sep = "~"), pairs)
      fk <- mlcrf_refit_edges(fit, prep, x[tr, , drop = FALSE], y[tr, , drop = FALSE], keep,
                              f$theta, cand$eta2, tol, max_iter)
      out[j, k] <- mlcrf_pseudo_loglik(fk, x[!tr, , drop = FALSE], y[!tr, , drop = FALSE])
    }
  }
  out
}

# The elimination stops when this many graphs in a row have a larger eBIC
# than the best so far (with many edges, each refit costs; the criterion
# falls while spurious edges go and rises once true ones do).
mlcrf_ebic_patience <- 3L

# The candidates of the pruning are refitted to cv_mlcrf()'s fold_tol (half
# the time of tol on yeast); those whose criterion is within this much of the
# least (in units of -2 PL; the looser refits moved yeast's criteria by at
# most 0.17, bench/mlcrf_speed.md) are refitted again to tol, and the least
# is taken among these.
mlcrf_prune_slack <- 1

# cv_mlcrf(prune = "ebic"): the candidate of least extended BIC (ties: the
# sparser; with `level`, prune = "chisq"'s criterion instead: -2 PL plus
# each kept edge's mlcrf_chisq_penalty()) from `fit`, the refit on all the
# rows at a point of the grid: a list of the pruned `fit`, the fit before
# pruning `fit_cv` and the candidates' criterion `ebic` (with `level`, also
# `penalty`, the penalty of each edge of `fit`).
mlcrf_ebic_prune <- function(fit, x, y, tol, max_iter, gamma, df = mlcrf_ebic_df, cand = NULL,
                             level = NULL, cand_tol = tol, slack = mlcrf_prune_slack) {
  K <- if (fit$edge_type == "full") 3 else 1
  pen <- NULL
  f_crit <- if (is.null(level)) {
    function(pl, kept) mlcrf_ebic(pl, lengths(kept), nrow(x), ncol(y), ncol(x), K, gamma, df)
  } else {
    pen <- mlcrf_chisq_penalty(fit, x, y, level)
    function(pl, kept) -2 * pl + vapply(kept, function(k) sum(pen[k]), 0)
  }
  if (is.null(cand))
    cand <- mlcrf_ebic_candidates(fit, x, y, cand_tol, max_iter, f_crit, mlcrf_ebic_patience)
  crit <- f_crit(cand$pl, cand$kept)
  if (cand_tol > tol) {
    # the candidates refitted to cand_tol: those within `slack` of the least
    # criterion again to tol, from their fits (the first is `fit`, at tol),
    # and the least taken among them
    near <- which(crit <= min(crit) + slack & seq_along(crit) > 1L)
    if (length(near)) {
      prep <- mlcrf_prepare(x, y + 0, fit$edge_type)
      for (j in near) {
        cand$fits[[j]] <- mlcrf_refit_edges(fit, prep, x, y, cand$pairs[[j]],
                                            cand$fits[[j]]$theta, cand$eta2, tol, max_iter)
        cand$pl[j] <- mlcrf_pseudo_loglik(cand$fits[[j]], x, y)
      }
      crit <- f_crit(cand$pl, cand$kept)
    }
  }
  k <- max(which(crit == min(crit)))  # the candidates go from dense to empty
  list(fit = cand$fits[[k]], fit_cv = fit,
       ebic = stats::setNames(data.frame(cand$edges, cand$pl, crit),
                              c("edges", "pseudo_loglik",
                                if (is.null(level)) "ebic" else "criterion")),
       penalty = if (!is.null(pen))
         stats::setNames(pen, paste(fit$edges$from, fit$edges$to, sep = "~")))
}

# The parts of a formula fit (model_data()) that predict() needs to rebuild
# the features from a data frame, copied from `from` (cv_formula()'s fit) to
# `fit`.
mlcrf_formula_parts <- function(fit, from) {
  parts <- intersect(c("terms", "xlevels", "contrasts", "na.action"), names(from))
  structure(c(unclass(fit)[setdiff(names(fit), parts)], unclass(from)[parts]),
            class = class(fit))
}

