# Structure recovery of MLCRF (issue 25): how often each rule for choosing
# lambda_w returns exactly the true edge set.  Run from the package root with
# the package installed: Rscript bench/mlcrf_structure.R; results in
# bench/mlcrf_structure.md.
#
# Data: our own generators (not the tests' helper): rows are drawn exactly
# from a pairwise CRF with a known graph, by enumerating its 2^m label
# vectors, x uniform in [-1, 1]^6, node terms v_l'x with v_l drawn once per
# data set (N(0, 1) entries, intercept 0), and Ising couplings on the true
# edges.  The paper's four designs on 3 labels (independent, a single edge,
# a chain, complete) and larger ones (5 and 8 labels: a chain, a star, two
# disconnected blocks, each a chain of its half).  500 rows.
#
# Rules, each on the same folds (5) and the same path (nlambda values from
# lambda_max down to lambda_max / 100, eta in {0.5, 1}, lambda_v chosen once
# by mlcrf(edges = "none") as cv_mlcrf() does):
#   f1, f1_1se     cv_mlcrf() with measure = "macro_f1" (today's default), best / 1-SE
#   ll, ll_1se     held-out log-likelihood of the validation rows' label
#                  vectors, from predict(fit, type = "prob", y = yval)
#   pl, pl_1se     held-out pseudo-log-likelihood, sum_l log p(y_l | y_-l, x)
#   stab           mlcrf_stability(): B subsamples of half the rows, eta = 1,
#                  threshold 0.6, its default path (lambda_max down to the
#                  default lambda_w / sqrt(1/2))
#   default1       mlcrf() at its default lambda_w with eta = 1 (no CV)
# Environment: MLCRF_STRUCT_SEEDS (10), MLCRF_STRUCT_SETS ("small,large"),
#   MLCRF_STRUCT_B (10), MLCRF_STRUCT_NLAMBDA (8).
suppressMessages(library(mlss))
seeds <- as.integer(Sys.getenv("MLCRF_STRUCT_SEEDS", "10"))
sets <- strsplit(Sys.getenv("MLCRF_STRUCT_SETS", "small,large"), ",")[[1]]
B <- as.integer(Sys.getenv("MLCRF_STRUCT_B", "10"))
nlambda <- as.integer(Sys.getenv("MLCRF_STRUCT_NLAMBDA", "6"))
tol <- 1e-5

# ---- generators ------------------------------------------------------------
designs <- list(
  independent3 = list(m = 3, edges = matrix(0, 0, 2), coupling = 0),
  single3 = list(m = 3, edges = rbind(c(1, 2)), coupling = -2.5),
  chain3 = list(m = 3, edges = rbind(c(1, 2), c(2, 3)), coupling = 2),
  complete3 = list(m = 3, edges = rbind(c(1, 2), c(1, 3), c(2, 3)), coupling = -1.5),
  chain5 = list(m = 5, edges = cbind(1:4, 2:5), coupling = 2),
  star5 = list(m = 5, edges = cbind(1, 2:5), coupling = 1.5),
  blocks5 = list(m = 5, edges = rbind(c(1, 2), c(3, 4), c(4, 5)), coupling = 2),
  chain8 = list(m = 8, edges = cbind(1:7, 2:8), coupling = 2),
  star8 = list(m = 8, edges = cbind(1, 2:8), coupling = 1.5),
  blocks8 = list(m = 8, edges = rbind(c(1, 2), c(2, 3), c(3, 4), c(5, 6), c(6, 7), c(7, 8)),
                 coupling = 2))
if (!"small" %in% sets) designs <- designs[!grepl("3$", names(designs))]
if (!"large" %in% sets) designs <- designs[grepl("3$", names(designs))]

generate <- function(des, n = 500, d = 6) {
  m <- des$m
  x <- matrix(runif(n * d, -1, 1), n, d)
  V <- matrix(rnorm(d * m), d, m)
  Ycfg <- as.matrix(expand.grid(rep(list(0:1), m)))
  pair <- if (nrow(des$edges))
    rowSums(Ycfg[, des$edges[, 1], drop = FALSE] * Ycfg[, des$edges[, 2], drop = FALSE]) else 0
  node <- x %*% V                          # n x m
  s <- node %*% t(Ycfg) + rep(des$coupling * pair, each = n)   # n x 2^m
  s <- s - apply(s, 1, max)
  p <- exp(s) / rowSums(exp(s))
  k <- apply(p, 1, function(pr) sample.int(length(pr), 1, prob = pr))
  y <- Ycfg[k, , drop = FALSE] == 1
  colnames(y) <- paste0("y", seq_len(m))
  list(x = x, y = y)
}
truth_set <- function(des) if (nrow(des$edges)) sort(paste0("y", des$edges[, 1], "~y", des$edges[, 2])) else character(0)
edge_set <- function(fit) sort(paste(fit$edges$from, fit$edges$to, sep = "~"))

# ---- held-out pseudo-log-likelihood -----------------------------------------
heldout_pl <- function(fit, x, y) {
  pot <- mlss:::mlcrf_potentials(fit, x)
  y <- y + 0
  z <- pot$node
  for (e in seq_along(pot$from)) {
    a <- pot$from[e] + 1; b <- pot$to[e] + 1
    c01 <- pot$pair[, 3 * e - 2]; c10 <- pot$pair[, 3 * e - 1]; c11 <- pot$pair[, 3 * e]
    z[, a] <- z[, a] + ifelse(y[, b] == 1, c11 - c01, c10)
    z[, b] <- z[, b] + ifelse(y[, a] == 1, c11 - c10, c01)
  }
  sum(y * plogis(z, log.p = TRUE) + (1 - y) * plogis(-z, log.p = TRUE))
}

one_se <- function(cvm, cvsd, order) {  # cvm: higher is better; order: most regularised first
  best <- order[which.max(cvm[order])]
  ok <- cvm >= cvm[best] - cvsd[best]
  c(best = best, se = order[ok[order]][1])
}

run_one <- function(des, seed) {
  set.seed(seed)
  dat <- generate(des)
  x <- dat$x; y <- dat$y
  truth <- truth_set(des)
  lv <- suppressWarnings(mlcrf(x, y, edges = "none", tol = tol)$lambda_v)
  etas <- c(0.5, 1)
  top <- max(vapply(etas, function(e) mlss:::mlcrf_lambda_range(x, y, lv, e, tol = tol)$lambda_max, 0))
  lam <- top * 10^seq(0, -2, length.out = nlambda)
  foldid <- ml_folds(y, 5)
  grid <- expand.grid(lambda_w = lam, eta = etas)
  ord <- order(-grid$lambda_w, -grid$eta)
  ll <- pl <- matrix(NA, nrow(grid), 5)
  for (k in 1:5) {
    tr <- foldid != k
    for (e in etas) {
      prev <- NULL
      for (l in lam) {
        fit <- suppressWarnings(mlcrf(x[tr, ], y[tr, ], lambda_v = lv, lambda_w = l, eta = e,
                                      init = prev, tol = tol))
        prev <- fit
        g <- which(grid$lambda_w == l & grid$eta == e)
        ll[g, k] <- sum(log(predict(fit, x[!tr, ], type = "prob", y = y[!tr, ])))
        pl[g, k] <- heldout_pl(fit, x[!tr, ], y[!tr, ])
      }
    }
  }
  refit <- function(g) edge_set(suppressWarnings(mlcrf(x, y, lambda_v = lv, lambda_w = grid$lambda_w[g],
                                                       eta = grid$eta[g], tol = tol)))
  pick <- function(M) one_se(rowMeans(M), apply(M, 1, sd) / sqrt(5), ord)
  out <- list()
  p <- pick(ll); out$ll <- refit(p[["best"]]); out$ll_1se <- refit(p[["se"]])
  p <- pick(pl); out$pl <- refit(p[["best"]]); out$pl_1se <- refit(p[["se"]])
  cv <- suppressWarnings(suppressMessages(cv_mlcrf(x, y, lambda_w = lam, eta = etas, lambda_v = lv,
                                                   foldid = foldid, tol = tol, progress = FALSE)))
  out$f1 <- edge_set(cv$fit)
  out$f1_1se <- refit(cv$best_1se)
  st <- suppressWarnings(mlcrf_stability(x, y, eta = 1, B = B, lambda_v = lv, tol = tol))
  out$stab <- sort(paste(st$edges$from, st$edges$to, sep = "~"))
  out$default1 <- edge_set(suppressWarnings(mlcrf(x, y, lambda_v = lv, eta = 1, tol = tol)))
  vapply(out, function(s) identical(s, truth), NA)
}

cat("mlcrf structure recovery;", R.version.string, "; seeds:", seeds, "; B:", B,
    "; nlambda:", nlambda, "\n")
t0 <- proc.time()
res <- lapply(names(designs), function(nm) {
  ok <- vapply(seq_len(seeds), function(s) run_one(designs[[nm]], 1000 + s),
               logical(8))
  r <- rowSums(ok)
  cat(sprintf("%-13s %s   (%.0f s)\n", nm, paste(sprintf("%s %d/%d", names(r), r, seeds), collapse = ", "),
              (proc.time() - t0)[["elapsed"]]))
  r
})
tab <- do.call(rbind, res)
rownames(tab) <- names(designs)
cat("\nExact recovery of the true edge set (out of", seeds, "seeds):\n")
print(tab)
cat("\nTotal:", colSums(tab), "\n")
