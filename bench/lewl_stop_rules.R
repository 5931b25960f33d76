# LEWL's stopping test (issue 23): how far the plain alternation is from its
# own fixed point where each candidate test would stop it.
#   LEWL_SR_SETS=emotions,medical LEWL_SR_RATES=0.3,0.7 LEWL_SR_MAX=3000 \
#     nice -n 15 Rscript bench/lewl_stop_rules.R
# The protocol of bench/lewl_nystrom.R (mask_labels(by = "entry", seed =
# 2020), lewl()'s defaults: k = m, lambda = beta = 1, knn = 10, the exact
# route below 2500 rows).  Per set and rate:
# 1. the fixed point x*: the Anderson-mixed fit (depth 10) run to tol 1e-14,
#    checked by one plain iteration from it (its largest change, `residual`);
# 2. the plain alternation one iteration at a time (lewl_solve() with
#    max_iter = 1 from the previous completed matrix: the same sequence as
#    one run), recording per iteration the objective, its terms, the largest
#    change of a missing entry (dx) and the largest distance of a missing
#    entry of the completed matrix from x* (dist), and the hidden entries' AP
#    and macro AUC; until dist < 1e-8 or LEWL_SR_MAX iterations;
# 3. each candidate stopping test evaluated on that sequence: where it stops
#    and how far from x* the fit is there.
# LEWL_SR_LIB: the build; LEWL_SR_OUT: a directory for the trajectories (rds).
lib <- Sys.getenv("LEWL_SR_LIB", "")
if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
suppressPackageStartupMessages(source(file.path("bench", "common.R")))
options(width = 160)
sets <- strsplit(Sys.getenv("LEWL_SR_SETS", "emotions,medical"), ",")[[1]]
rates <- as.numeric(strsplit(Sys.getenv("LEWL_SR_RATES", "0.3,0.7"), ",")[[1]])
max_it <- as.integer(Sys.getenv("LEWL_SR_MAX", "3000"))
out <- Sys.getenv("LEWL_SR_OUT", tempdir())
cat("lewl stopping rules;", R.version.string, "; load:", readLines("/proc/loadavg"), "\n")


# The candidate tests on a trajectory tr (data frame per iteration): the
# first iteration t >= 2 where the test holds.
rules <- function(tr) {
  f <- tr$objective
  fp <- c(NA, head(f, -1))
  df <- abs(f - fp)
  rel_f <- df / pmax(abs(f), abs(fp))
  rel_terms <- df / pmax(abs(f), abs(fp), tr$terms)
  dx <- tr$dx
  dxp <- c(NA, head(dx, -1))
  rho <- pmin(dx / dxp, 0.9999)
  # the contraction estimated over the last 5 steps (geometric mean)
  rho5 <- pmin((dx / c(rep(NA, 5), head(dx, -5)))^(1 / 5), 0.9999)
  est <- dx * rho / (1 - rho)
  est5 <- dx * rho5 / (1 - rho5)
  cand <- list(
    "objective 1e-6 (current)" = rel_f <= 1e-6,
    "objective 1e-7" = rel_f <= 1e-7,
    "objective 1e-8" = rel_f <= 1e-8,
    "terms 1e-6 (mlss.lewl_stop_terms)" = rel_terms <= 1e-6,
    "dx <= 1e-3" = dx <= 1e-3,
    "dx <= 1e-4" = dx <= 1e-4,
    "objective 1e-6 and dx <= 1e-3" = rel_f <= 1e-6 & dx <= 1e-3,
    "objective 1e-6 and dx <= 1e-4" = rel_f <= 1e-6 & dx <= 1e-4,
    "dx rho/(1-rho) <= 1e-3, rho from 1 step" = est <= 1e-3,
    "dx rho/(1-rho) <= 1e-3, rho from 5 steps" = est5 <= 1e-3,
    "dx rho/(1-rho) <= 1e-2, rho from 5 steps" = est5 <= 1e-2,
    "dx rho/(1-rho) <= 1e-4, rho from 5 steps" = est5 <= 1e-4)
  do.call(rbind, lapply(names(cand), function(nm) {
    hit <- which(cand[[nm]] & seq_along(f) >= 2)[1]
    if (is.na(hit)) return(data.frame(rule = nm, stop = NA, dist = NA, d_ap = NA,
                                      d_macro_auc = NA))
    data.frame(rule = nm, stop = hit, dist = tr$dist[hit],
               d_ap = tr$ap[hit] - tail(tr$ap, 1),
               d_macro_auc = tr$macro_auc[hit] - tail(tr$macro_auc, 1))
  }))
}

for (name in sets) {
  d <- load_mulan_set(name)
  y <- d$y[, colSums(d$y) > 0, drop = FALSE]
  prep <- mlss:::lewl_prepare(d$x, 10)
  k <- ncol(y)
  for (rate in rates) {
    ymiss <- mlss:::mask_labels(y, rate, by = "entry", seed = 2020)$y
    miss <- is.na(ymiss)
    t0 <- proc.time()
    old <- options(mlss.lewl_accel = 10L)
    ref <- suppressWarnings(mlss:::lewl_solve(ymiss, prep, k, 1, 1, "exact", 0.5, 1e-14,
                                              3000L))
    options(old)
    xs <- ref$completed[miss]
    one <- mlss:::lewl_solve(ymiss, prep, k, 1, 1, "exact", 0.5, 0, 1L, start = ref$completed)
    cat(sprintf("\n%s rate %.1f: fixed point by Anderson(10) at tol 1e-14: %d iterations, %s, objective %.12g, one plain step from it moves %.3g (CPU %.1f s)\n",
                name, rate, ref$iterations, if (ref$converged) "converged" else "NOT converged",
                tail(ref$objective, 1), max(abs(one$completed[miss] - xs)),
                (proc.time() - t0)[[1]]))
    Yt <- NULL
    rows <- vector("list", max_it)
    t0 <- proc.time()
    for (it in seq_len(max_it)) {
      f <- mlss:::lewl_solve(ymiss, prep, k, 1, 1, "exact", 0.5, 0, 1L, start = Yt)
      x <- f$completed[miss]
      dx <- if (is.null(Yt)) NA else max(abs(x - Yt[miss]))
      W <- prep$W
      fit <- sum((f$completed - f$Z %*% f$D)^2)
      smooth <- sum(f$completed * as.matrix((Diagonal(x = rowSums(W)) - W) %*% f$completed))
      hsic <- fit + smooth - f$objective[1]
      m <- hidden_entry_measures(y, miss, f$recovered)
      rows[[it]] <- data.frame(iter = it, objective = f$objective[1],
                               terms = fit + abs(smooth) + abs(hsic), dx = dx,
                               dist = max(abs(x - xs)), ap = m[["ap"]],
                               macro_auc = m[["macro_auc"]])
      Yt <- f$completed
      if (rows[[it]]$dist < 1e-8) break
    }
    tr <- do.call(rbind, rows[seq_len(it)])
    cat(sprintf("plain alternation: %d iterations (CPU %.1f s), last dist %.3g, last dx %.3g\n",
                it, (proc.time() - t0)[[1]], tail(tr$dist, 1), tail(tr$dx, 1)))
    saveRDS(list(tr = tr, ref_iter = ref$iterations, ref_obj = tail(ref$objective, 1)),
            file.path(out, sprintf("lewl_stop_%s_%.1f.rds", name, rate)))
    pick <- unique(pmin(c(1:5, 10, 20, 50, 100, 200, 500, 1000, 2000, 3000), it))
    print(tr[pick, ], digits = 6, row.names = FALSE)
    print(rules(tr), digits = 4, row.names = FALSE)
  }
}
