# The pruning helpers of cv_mlcrf(): the pseudo-likelihood, the eBIC and
# chi-square criteria, the refits on an edge subset and the candidates.

# The measures computed from the fold marginals (cv_mlcrf()'s fold_marginals).
mlcrf_marginal_measures <- function() {
  tab <- measure_table()
  c(tab$name[tab$needs == "score"], "brier")
}

# The pseudo-log-likelihood sum_i sum_l log p(y_il | y_i,-l, x_i) of a fit on
# the rows (x, y): each label's conditional log-odds is its node term plus,
# per edge, the difference of the edge potentials at the neighbour's value.
mlcrf_pseudo_loglik <- function(fit, x, y) {
  pot <- mlcrf_potentials(fit, x)
  y <- y + 0
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

# prune = "chisq": -2 PL + |E| c, c the (1 - level) quantile of chi^2 with an
# edge's (d + 1) K weights as degrees of freedom: an edge stays when dropping
# it costs more than a likelihood-ratio test of its weights at `level` allows.
mlcrf_chisq_crit <- function(pl, E, d, K, level)
  -2 * pl + E * stats::qchisq(1 - level, (d + 1) * K)

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
# edge (or until `crit`, a function of the pseudo-log-likelihoods and edge
# counts, has been above its minimum for `patience` graphs in a row); each
# graph's pseudo-log-likelihood on those rows.  (Refits with
# almost no edge ridge instead, lambda_w / 1000, recovered the synthetic
# graphs no better: bench/mlcrf_structure.md.)
mlcrf_ebic_candidates <- function(fit, x, y, tol, max_iter, crit = NULL, patience = Inf,
                                  ridge = NULL) {
  prep <- mlcrf_prepare(x, y + 0, fit$edge_type)
  pairs <- paste(prep$labels[prep$from], prep$labels[prep$to], sep = "~")
  keep <- match(paste(fit$edges$from, fit$edges$to, sep = "~"), pairs)
  m <- prep$m
  K <- prep$K
  eta2 <- min(fit$eta, 1 - 1e-3)  # as the refit of mlcrf() (stage 2)
  # ridge: the refits' edge ridge as a fraction of lambda_w (NULL: as mlcrf())
  if (!is.null(ridge)) eta2 <- 1 - ridge
  cur <- if (is.null(ridge)) fit else
    mlcrf_refit_edges(fit, prep, x, y, keep, fit$theta, eta2, tol, max_iter)
  fits <- list(cur)
  pl <- mlcrf_pseudo_loglik(cur, x, y)
  while (length(keep)) {
    if (!is.null(crit)) {  # stop once `patience` graphs in a row are worse than the best
      v <- crit(pl, vapply(fits, function(f) nrow(f$edges), 0L))
      if (length(v) > patience && all(utils::tail(v, patience) > min(v))) break
    }
    drop <- which.min(cur$edges$strength)
    th0 <- cur$theta[, -(m + (drop - 1L) * K + seq_len(K)), drop = FALSE]
    keep <- keep[-drop]
    cur <- mlcrf_refit_edges(fit, prep, x, y, keep, th0, eta2, tol, max_iter)
    fits[[length(fits) + 1L]] <- cur
    pl <- c(pl, mlcrf_pseudo_loglik(cur, x, y))
  }
  list(fits = fits, pl = pl, edges = vapply(fits, function(f) nrow(f$edges), 0L), eta2 = eta2)
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

# cv_mlcrf(prune = "ebic"): the candidate of least extended BIC (ties: the
# sparser; with `level`, prune = "chisq"'s criterion instead) from `fit`,
# the refit on all the rows at a point of the grid: a
# list of the pruned `fit`, the fit before pruning `fit_cv` and the
# candidates' criterion `ebic`.
mlcrf_ebic_prune <- function(fit, x, y, tol, max_iter, gamma, df = mlcrf_ebic_df, cand = NULL,
                             level = NULL) {
  K <- if (fit$edge_type == "full") 3 else 1
  f_crit <- if (is.null(level))
    function(pl, E) mlcrf_ebic(pl, E, nrow(x), ncol(y), ncol(x), K, gamma, df) else
    function(pl, E) mlcrf_chisq_crit(pl, E, ncol(x), K, level)
  if (is.null(cand))
    cand <- mlcrf_ebic_candidates(fit, x, y, tol, max_iter, f_crit, mlcrf_ebic_patience)
  crit <- f_crit(cand$pl, cand$edges)
  k <- max(which(crit == min(crit)))  # the candidates go from dense to empty
  list(fit = cand$fits[[k]], fit_cv = fit,
       ebic = stats::setNames(data.frame(cand$edges, cand$pl, crit),
                              c("edges", "pseudo_loglik",
                                if (is.null(level)) "ebic" else "criterion")))
}

# The parts of a formula fit (model_data()) that predict() needs to rebuild
# the features from a data frame, copied from `from` (cv_formula()'s fit) to
# `fit`.
mlcrf_formula_parts <- function(fit, from) {
  parts <- intersect(c("terms", "xlevels", "contrasts", "na.action"), names(from))
  structure(c(unclass(fit)[setdiff(names(fit), parts)], unclass(from)[parts]),
            class = class(fit))
}
