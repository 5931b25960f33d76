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
#   MLCRF_STRUCT_DESIGNS (a comma list of design names, overrides the sets),
#   MLCRF_STRUCT_DEFAULT (1: also cv_mlcrf() with its defaults on the same
#   folds and path), MLCRF_STRUCT_SAVE (a path prefix: each design's records
#   saved to <prefix>_<design>.rds),
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
only <- Sys.getenv("MLCRF_STRUCT_DESIGNS", "")
if (nzchar(only)) designs <- designs[strsplit(only, ",")[[1]]]

generate <- function(des, n = 500, d = 6) {
  m <- des$m
  x <- matrix(runif(n * d, -1, 1), n, d)
  V <- matrix(rnorm(d * m), d, m)
  Ycfg <- as.matrix(expand.grid(rep(list(0:1), m)))
  S <- if (isTRUE(des$spin)) 2 * Ycfg - 1 else Ycfg  # version 2: on the spins
  pair <- if (nrow(des$edges))
    rowSums(S[, des$edges[, 1], drop = FALSE] * S[, des$edges[, 2], drop = FALSE]) else 0
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
# (a transcription of its own, not the package's mlcrf_pseudo_loglik())
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

# One seed's data and path, shared by run_one() and run_rules(): the
# design's rows, lambda_v per label, the lambda_w path from the largest
# useful value of either eta down two decades, and the folds.
design_path <- function(des, seed) {
  set.seed(seed)
  dat <- generate(des)
  x <- dat$x; y <- dat$y
  lv <- suppressWarnings(mlcrf(x, y, edges = "none", tol = tol)$lambda_v)
  etas <- c(0.5, 1)
  top <- max(vapply(etas, function(e) mlss:::mlcrf_lambda_range(x, y, lv, e, tol = tol)$lambda_max, 0))
  lam <- top * 10^seq(0, -2, length.out = nlambda)
  foldid <- ml_folds(y, 5)
  list(x = x, y = y, lv = lv, etas = etas, lam = lam, foldid = foldid)
}

run_one <- function(des, seed) {
  list2env(design_path(des, seed), environment())
  grid <- expand.grid(lambda_w = lam, eta = etas)
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
  # the refits on all rows at every grid point: edge sets and pseudo-likelihood
  sets <- vector("list", nrow(grid)); fullpl <- numeric(nrow(grid))
  for (e in etas) {
    prev <- NULL
    for (l in lam) {
      fit <- suppressWarnings(mlcrf(x, y, lambda_v = lv, lambda_w = l, eta = e, init = prev, tol = tol))
      prev <- fit
      g <- which(grid$lambda_w == l & grid$eta == e)
      sets[[g]] <- edge_set(fit)
      fullpl[g] <- heldout_pl(fit, x, y)
    }
  }
  rec <- list(grid = grid, sets = sets, fullpl = fullpl, ll = rowMeans(ll), pl = rowMeans(pl),
              truth = truth_set(des), n = nrow(x), d = ncol(x), m = ncol(y), default = NA)
  rec$prune <- prune_rules(rec, x, y, lv)
  if (run_default) {
    cv <- suppressWarnings(suppressMessages(cv_mlcrf(x, y, lambda_w = lam, eta = etas, lambda_v = lv,
                                                     foldid = foldid, tol = tol, progress = FALSE,
                                                     path = FALSE)))
    rec$default <- identical(edge_set(cv$fit), rec$truth)
  }
  rec
}
run_default <- Sys.getenv("MLCRF_STRUCT_DEFAULT", "1") == "1"
save_to <- Sys.getenv("MLCRF_STRUCT_SAVE", "")  # a path prefix for each design's records

# The backward elimination of cv_mlcrf(prune = "ebic") from the refit on all
# rows at the CV point of ll / pl: the weakest edge dropped and the rest
# refitted, down to no edge; eBIC (df = K) with gamma 0, 0.5, 1 picks one.
prune_rules <- function(rec, x, y, lv) {
  grid <- rec$grid
  ord <- order(-grid$lambda_w, -grid$eta)
  best <- function(v) ord[which.max(v[ord])]
  out <- logical(0)
  for (rule in c("ll", "pl")) {
    g <- best(rec[[rule]])
    fit <- suppressWarnings(mlcrf(x, y, lambda_v = lv, lambda_w = grid$lambda_w[g],
                                  eta = grid$eta[g], tol = tol))
    for (gm in c(0, 0.5, 1)) {
      f_crit <- function(pl, kept) -2 * pl + lengths(kept) * (3 * log(nrow(x)) + 4 * gm * log(ncol(y)))
      # with cv_mlcrf()'s early stop (mlss:::mlcrf_ebic_patience graphs worse than the best)
      cand <- suppressWarnings(mlss:::mlcrf_ebic_candidates(fit, x, y, tol, 2000, f_crit,
                                                            mlss:::mlcrf_ebic_patience))
      crit <- f_crit(cand$pl, cand$edges)
      k <- max(which(crit == min(crit)))
      out[[paste0(rule, "+prune_", gm)]] <- identical(edge_set(cand$fits[[k]]), rec$truth)
    }
  }
  out
}

# ---- the rules, from a seed's record ------------------------------------------
# ll, pl: the best point of the held-out log-likelihood / pseudo-likelihood
# (ties: larger lambda_w, then larger eta, as the engine orders);
# ebic<df>_<gamma>: least extended BIC over the whole path (both etas),
#   -2 PL + |E| df log n + 4 gamma |E| log m, with df per edge 1, K = 3 (the
#   edge's potential table) or q = (d + 1) K (all its parameters);
# ll+ebic..., pl+ebic...: the same criterion among the points at the CV
#   point's eta with lambda_w >= its lambda_w (pruning the CV graph).
rule_results <- function(rec) {
  grid <- rec$grid
  ok <- function(g) identical(rec$sets[[g]], rec$truth)
  ord <- order(-grid$lambda_w, -grid$eta)
  best <- function(v) ord[which.max(v[ord])]
  E <- lengths(rec$sets)
  out <- c(ll = ok(best(rec$ll)), pl = ok(best(rec$pl)))
  for (df in c("1", "K", "q")) for (gm in c(0, 0.5, 1)) {
    per <- switch(df, "1" = 1, K = 3, q = (rec$d + 1) * 3) * log(rec$n) + 4 * gm * log(rec$m)
    crit <- -2 * rec$fullpl + E * per
    prune <- function(g0) {
      c <- which(grid$eta == grid$eta[g0] & grid$lambda_w >= grid$lambda_w[g0])
      c <- c[order(-grid$lambda_w[c])]
      c[which.min(crit[c])]
    }
    nm <- paste0("ebic", df, "_", gm)
    out[[nm]] <- ok(ord[which.min(crit[ord])])
    out[[paste0("ll+", nm)]] <- ok(prune(best(rec$ll)))
    out[[paste0("pl+", nm)]] <- ok(prune(best(rec$pl)))
  }
  out <- c(out, unlist(rec$prune))
  out[["default"]] <- rec$default
  out
}

# ---- MLCRF_STRUCT_MODE=rules (session s33): the default cv_mlcrf() and the
# pruning rules from its own cross-validated fit --------------------------------
# Per seed: cv_mlcrf() with its defaults on the path and folds above (the
# "default" column is its fit's edge set), the edge set of the CV point
# (cv$fit_cv, as prune = "none"), and the whole backward elimination from that
# point (no early stop) with two refit ridges: as mlcrf() refits ("cv":
# lambda_w (1 - eta)) and almost none ("min": lambda_w / 1000).  A rule
# "<ridge>_<penalty>" keeps the candidate of least -2 PL + |E| c (ties: the
# sparser), c per edge:
#   ebic   K log n + 4 gamma log m, gamma = 0.5 (the s32 default)
#   chi99  the 0.99 quantile of chi^2 with (d + 1) K degrees of freedom (an
#          edge's weights), 38.9 here; chi999 the 0.999 one (46.8)
#   aic    2 (d + 1) K (42)
# and "<ridge>_cvpl": the candidate of largest held-out pseudo-likelihood, each
# graph refitted on the 5 folds' training parts (mlss:::mlcrf_cv_candidates());
# "<ridge>_cvpl1se" the sparsest within one standard error of it.
# Also per pair the node-wise z: y_a regressed (glm, logistic) on x and the
# other labels, the coefficient of y_b over its standard error, the coupling's
# signal at this n under the true (constant-coupling) model.
struct_penalties <- function(n, m, d, K = 3)
  c(ebic = K * log(n) + 2 * log(m), chi99 = qchisq(0.99, (d + 1) * K),
    chi999 = qchisq(0.999, (d + 1) * K), aic = 2 * (d + 1) * K)
nodewise_z <- function(x, y) {
  m <- ncol(y); z <- c()
  for (a in 1:(m - 1)) for (b in (a + 1):m) {
    Yo <- y[, -a, drop = FALSE] + 0; ya <- y[, a] + 0
    cf <- summary(suppressWarnings(glm(ya ~ x + Yo, family = binomial)))$coefficients
    rn <- paste0("Yo", colnames(y)[b])
    z[paste0(colnames(y)[a], "~", colnames(y)[b])] <- cf[rn, 1] / cf[rn, 2]
  }
  z
}
run_rules <- function(des, seed) {
  list2env(design_path(des, seed), environment())
  t0 <- proc.time()[["elapsed"]]
  cv <- suppressWarnings(suppressMessages(cv_mlcrf(x, y, lambda_w = lam, eta = etas, lambda_v = lv,
                                                   foldid = foldid, tol = tol, progress = FALSE,
                                                   path = FALSE)))
  secs <- proc.time()[["elapsed"]] - t0
  fcv <- if (is.null(cv$fit_cv)) cv$fit else cv$fit_cv
  cand <- list(cv = suppressWarnings(mlss:::mlcrf_ebic_candidates(fcv, x, y, tol, 2000)),
               min = suppressWarnings(mlss:::mlcrf_ebic_candidates(fcv, x, y, tol, 2000,
                                                                    ridge = 1e-3)))
  cand <- lapply(cand, function(cc) list(
    pl = cc$pl, edges = cc$edges, sets = lapply(cc$fits, edge_set),
    cvpl = suppressWarnings(mlss:::mlcrf_cv_candidates(cc, x, y, foldid, tol, 2000))))
  list(truth = truth_set(des), default = edge_set(cv$fit), ll = edge_set(fcv), cand = cand,
       z = nodewise_z(x, y), n = nrow(x), m = ncol(y), d = ncol(x), secs = secs,
       point = c(lambda_w = cv$lambda_w_best, eta = cv$eta_best))
}
rules_of <- function(rec) {
  pen <- struct_penalties(rec$n, rec$m, rec$d)
  out <- c(ll = identical(rec$ll, rec$truth), default = identical(rec$default, rec$truth))
  for (r in names(rec$cand)) for (p in names(pen)) {
    cc <- rec$cand[[r]]
    crit <- -2 * cc$pl + cc$edges * pen[[p]]
    k <- max(which(crit == min(crit)))
    out[[paste0(r, "_", p)]] <- identical(cc$sets[[k]], rec$truth)
  }
  for (r in names(rec$cand)) {  # the held-out pseudo-likelihood of the refitted graphs
    cc <- rec$cand[[r]]
    v <- rowSums(cc$cvpl)
    k <- max(which(v == max(v)))
    out[[paste0(r, "_cvpl")]] <- identical(cc$sets[[k]], rec$truth)
    se <- apply(cc$cvpl, 1, sd) * sqrt(ncol(cc$cvpl))  # of the sum over folds
    k1 <- max(which(v >= v[k] - se[k]))
    out[[paste0(r, "_cvpl1se")]] <- identical(cc$sets[[k1]], rec$truth)
  }
  out
}
# the error of a rule on a seed: "ok", "missed", "extra" or "both"
error_kind <- function(got, truth) {
  mi <- length(setdiff(truth, got)) > 0; ex <- length(setdiff(got, truth)) > 0
  if (mi && ex) "both" else if (mi) "missed" else if (ex) "extra" else "ok"
}
# MLCRF_STRUCT_MODE=rules_table: the table of the rules mode's saved records
# (MLCRF_STRUCT_SAVE the same prefix), per design: each rule's count of exact
# recoveries, the default's errors by kind (a missed true edge, an extra
# edge), the weakest true edge's node-wise z (median, least); with
# MLCRF_STRUCT_CSV=<file>, the main rules appended to it (design named
# "<design>-balanced" for version 2).
if (Sys.getenv("MLCRF_STRUCT_MODE") == "rules_table") {
  version <- Sys.getenv("MLCRF_STRUCT_VERSION", "2")
  out <- Sys.getenv("MLCRF_STRUCT_SAVE", "mlcrf_struct")
  rows <- list()
  for (nm in names(designs)) {
    f <- sprintf("%s_v%s_%s.rds", out, version, nm)
    if (!file.exists(f)) next
    recs <- readRDS(f)
    ok <- sapply(recs, rules_of)
    kinds <- sapply(recs, function(r) error_kind(r$default, r$truth))
    kinds_ll <- sapply(recs, function(r) error_kind(r$ll, r$truth))
    zt <- sapply(recs, function(r) {
      z <- abs(r$z[names(r$z) %in% r$truth]); if (length(z)) min(z) else NA })
    zf <- sapply(recs, function(r) {
      z <- abs(r$z[!names(r$z) %in% r$truth]); if (length(z)) max(z) else NA })
    rows[[nm]] <- c(rowSums(ok), seeds = length(recs))
    cat(sprintf("%s (%d seeds): default errors: %s; ll errors: %s; weakest true z median %.1f, least %.1f; largest non-edge |z| %.1f; CV seconds median %.0f\n",
                nm, length(recs), paste(names(table(kinds)), table(kinds), collapse = ", "),
                paste(names(table(kinds_ll)), table(kinds_ll), collapse = ", "),
                median(zt), min(zt), max(zf), median(sapply(recs, `[[`, "secs"))))
  }
  tab <- do.call(rbind, rows)
  print(t(tab))
  csv <- Sys.getenv("MLCRF_STRUCT_CSV", "")
  if (nzchar(csv)) {
    keep <- c(cv_loglik = "ll", default_cv_loglik_prune_ebic = "default",
              prune_chisq_0.01 = "cv_chi99", prune_heldout_pseudo_loglik = "min_cvpl")
    keep <- keep[keep %in% colnames(tab)]
    suf <- if (version == "2") "-balanced" else ""
    res <- do.call(rbind, lapply(rownames(tab), function(nm) data.frame(
      design = paste0(sub("[0-9]+$", "", nm), suf), labels = designs[[nm]]$m, rule = names(keep),
      recovered = unname(tab[nm, keep]), seeds = unname(tab[nm, "seeds"]))))
    suppressWarnings(utils::write.table(res, csv, sep = ",", row.names = FALSE,
                                        col.names = !file.exists(csv), append = TRUE,
                                        qmethod = "double"))
  }
  quit(save = "no")
}
# ---- MLCRF_STRUCT_MODE=repick (session s34): the pruning rules from the CV
# points of a rules-mode run --------------------------------------------------
# The cross-validation of cv_mlcrf() (its measure, grid, folds) did not
# change, so its chosen point is that of the rules records
# (MLCRF_STRUCT_FROM=<prefix> of the rules run, rec$point); per seed the
# refit on all rows at that point (the same edge set as the record's "ll"
# is checked), then cv_mlcrf()'s pruning as installed (mlcrf_ebic_prune()
# with the default prune's rule, early stop included: "default"), and, from
# the whole elimination, the per-edge penalties compared: "ebic" (the s33
# default), "chisq_raw" (chi^2 with (d + 1) K df at 0.01, the s33 "chisq"),
# and "lrt<level>" (the ridge-corrected test of mlcrf_edge_null() at 0.05,
# 0.01, 0.001, 0.0001).  Records saved to MLCRF_STRUCT_SAVE_v2_<design>.rds
# (the rules records plus $repick); then MLCRF_STRUCT_MODE=repick_table.
repick_rules <- function(rec, x, y, fit) {
  n <- nrow(x); m <- ncol(y); d <- ncol(x)
  cand <- suppressWarnings(mlss:::mlcrf_ebic_candidates(fit, x, y, tol, 2000))
  nul <- mlss:::mlcrf_edge_null(fit, x, y)
  E <- nrow(fit$edges)
  pens <- list(ebic = rep(3 * log(n) + 2 * log(m), E),
               chisq_raw = rep(qchisq(0.99, (d + 1) * 3), E))
  for (lv in c(0.05, 0.01, 0.001, 1e-4))
    pens[[paste0("lrt", lv)]] <- nul[, "scale"] * qchisq(1 - lv, nul[, "df"])
  sets <- lapply(cand$fits, edge_set)
  got <- lapply(pens, function(pen) {
    crit <- -2 * cand$pl + vapply(cand$kept, function(k) sum(pen[k]), 0)
    sets[[max(which(crit == min(crit)))]]
  })
  d_args <- formals(cv_mlcrf)
  pr <- suppressWarnings(mlss:::mlcrf_ebic_prune(fit, x, y, tol, 2000, eval(d_args$gamma),
                                                level = if (eval(d_args$prune)[1] == "chisq")
                                                  eval(d_args$level)))
  c(list(default = edge_set(pr$fit)), got)
}
if (Sys.getenv("MLCRF_STRUCT_MODE") == "repick") {
  designs <- lapply(designs, function(d) {
    d$coupling <- 0.75 * sign(d$coupling)
    d$spin <- TRUE
    d
  })
  from <- Sys.getenv("MLCRF_STRUCT_FROM", "mlcrf_struct")
  out <- Sys.getenv("MLCRF_STRUCT_SAVE", "mlcrf_struct_repick")
  cat("mlcrf structure recovery, repick mode;", R.version.string, "\n")
  for (nm in names(designs)) {
    f <- sprintf("%s_v2_%s.rds", from, nm)
    if (!file.exists(f)) next
    recs <- readRDS(f)
    for (s in seq_along(recs)) {
      rec <- recs[[s]]
      t0 <- proc.time()[["elapsed"]]
      list2env(design_path(designs[[nm]], 1000 + s), environment())
      fit <- suppressWarnings(mlcrf(x, y, lambda_v = lv, lambda_w = rec$point[["lambda_w"]],
                                    eta = rec$point[["eta"]], tol = tol))
      rec$repick <- repick_rules(rec, x, y, fit)
      rec$repick_same_cv <- identical(edge_set(fit), rec$ll)
      rec$repick_secs <- proc.time()[["elapsed"]] - t0
      recs[[s]] <- rec
      saveRDS(recs, sprintf("%s_v2_%s.rds", out, nm))
      cat(sprintf("%s seed %d: CV graph as recorded %s; default %s (%s); %.0f s\n", nm, 1000 + s,
                  rec$repick_same_cv, error_kind(rec$repick$default, rec$truth),
                  paste(rec$repick$default, collapse = " "), rec$repick_secs))
    }
  }
  quit(save = "no")
}
if (Sys.getenv("MLCRF_STRUCT_MODE") == "repick_table") {
  out <- Sys.getenv("MLCRF_STRUCT_SAVE", "mlcrf_struct_repick")
  rows <- list()
  for (nm in names(designs)) {
    f <- sprintf("%s_v2_%s.rds", out, nm)
    if (!file.exists(f)) next
    recs <- readRDS(f)
    ok <- sapply(recs, function(r) c(ll = identical(r$ll, r$truth),
                                     vapply(r$repick, identical, NA, r$truth)))
    rows[[nm]] <- c(rowSums(ok), seeds = length(recs))
    kinds <- sapply(recs, function(r) error_kind(r$repick$default, r$truth))
    cat(sprintf("%s: default's errors: %s; CV graph as recorded in %d of %d\n", nm,
                paste(names(table(kinds)), table(kinds), collapse = ", "),
                sum(sapply(recs, `[[`, "repick_same_cv")), length(recs)))
  }
  tab <- do.call(rbind, rows)
  print(t(tab))
  csv <- Sys.getenv("MLCRF_STRUCT_CSV", "")
  if (nzchar(csv)) {
    keep <- c(cv_loglik = "ll", default_cv_loglik_prune_chisq_ridge = "default",
              prune_ebic = "ebic", prune_chisq_all_weights_0.01 = "chisq_raw",
              prune_chisq_ridge_0.01 = "lrt0.01")
    res <- do.call(rbind, lapply(rownames(tab), function(nm) data.frame(
      design = paste0(sub("[0-9]+$", "", nm), "-balanced"), labels = designs[[nm]]$m,
      rule = names(keep), recovered = unname(tab[nm, keep]), seeds = unname(tab[nm, "seeds"]))))
    suppressWarnings(utils::write.table(res, csv, sep = ",", row.names = FALSE,
                                        col.names = !file.exists(csv), append = TRUE,
                                        qmethod = "double"))
  }
  quit(save = "no")
}
if (Sys.getenv("MLCRF_STRUCT_MODE") == "rules") {
  version <- Sys.getenv("MLCRF_STRUCT_VERSION", "2")
  # version 2 (session s33): balanced couplings, c s_a s_b on the spins
  # s = 2 y - 1 (in 0/1 terms 4 c y_a y_b with node shifts -2 c), |c| = 0.75;
  # version 1 (above): c y_a y_b, which pushes the labels towards 1 (means
  # about 0.8 on the chain) and leaves weak edges (bench/mlcrf_structure.md)
  if (version == "2") {
    designs <- lapply(designs, function(d) {
      d$coupling <- 0.75 * sign(d$coupling)
      d$spin <- TRUE
      d
    })
  }
  seed0 <- as.integer(Sys.getenv("MLCRF_STRUCT_SEED0", "1000"))
  out <- Sys.getenv("MLCRF_STRUCT_SAVE", "mlcrf_struct")
  cat("mlcrf structure recovery, rules mode; designs version", version, ";", R.version.string,
      "; seeds:", seed0 + 1, "to", seed0 + seeds, "\n")
  for (nm in names(designs)) {
    recs <- list()
    for (s in seq_len(seeds)) {
      rec <- run_rules(designs[[nm]], seed0 + s)
      recs[[s]] <- rec
      saveRDS(recs, sprintf("%s_v%s_%s.rds", out, version, nm))
      zt <- rec$z[names(rec$z) %in% rec$truth]; zf <- rec$z[!names(rec$z) %in% rec$truth]
      cat(sprintf("%s seed %d (%.0f s): default %s (%s); ll %s; min true z %.1f, max |z| non-edge %.1f\n",
                  nm, seed0 + s, rec$secs, error_kind(rec$default, rec$truth),
                  paste(rec$default, collapse = " "), error_kind(rec$ll, rec$truth),
                  if (length(zt)) min(abs(zt)) else NA, if (length(zf)) max(abs(zf)) else NA))
    }
    r <- rowSums(sapply(recs, rules_of))
    cat(nm, ":", paste(sprintf("%s %d/%d", names(r), r, length(recs)), collapse = ", "), "\n")
  }
  quit(save = "no")
}

# MLCRF_STRUCT_FROM=<prefix>: add the pruning rules to the records saved by an
# earlier run (the data regenerated from the seeds), and print the table.
from <- Sys.getenv("MLCRF_STRUCT_FROM", "")
if (nzchar(from)) {
  tab <- t(sapply(names(designs), function(nm) {
    recs <- readRDS(sprintf("%s_%s.rds", from, nm))
    recs <- lapply(seq_along(recs), function(s) {
      r <- recs[[s]]
      if (is.null(r$prune) || Sys.getenv("MLCRF_STRUCT_REDO") == "1") {
        set.seed(1000 + s)
        dat <- generate(designs[[nm]])
        lv <- suppressWarnings(mlcrf(dat$x, dat$y, edges = "none", tol = tol)$lambda_v)
        r$prune <- prune_rules(r, dat$x, dat$y, lv)
      }
      r
    })
    saveRDS(recs, sprintf("%s_%s.rds", from, nm))
    r <- rowSums(sapply(recs, rule_results))
    c(r, seeds = length(recs))
  }))
  print(t(rbind(tab, total = colSums(tab))))
  # MLCRF_STRUCT_CSV=<file>: append the main rules to a CSV (design, labels,
  # rule, recovered, seeds), as inst/papers/mlcrf_structure.csv holds them
  csv <- Sys.getenv("MLCRF_STRUCT_CSV", "")
  if (nzchar(csv)) {
    keep <- c(cv_loglik = "ll", cv_pseudo_loglik = "pl", ebic_path = "ebicK_0.5",
              bic_all_weights = "ebicq_0.5", default_cv_loglik_prune_ebic = "ll+prune_0.5",
              cv_loglik_prune_ebic_gamma0 = "ll+prune_0", cv_loglik_prune_ebic_gamma1 = "ll+prune_1")
    out <- do.call(rbind, lapply(rownames(tab), function(nm) data.frame(
      design = sub("[0-9]+$", "", nm), labels = designs[[nm]]$m, rule = names(keep),
      recovered = unname(tab[nm, keep]), seeds = unname(tab[nm, "seeds"]))))
    new <- !file.exists(csv)
    if (new) writeLines(sprintf(paste("# made by bench/mlcrf_structure.R on %s, %s; seeds 1001 to 1000 + seeds",
                                      "per design (set.seed(seed) before the data, the folds and lambda_v);",
                                      "rules: see bench/mlcrf_structure.md"),
                                format(Sys.Date()), Sys.info()[["nodename"]]), csv)
    suppressWarnings(utils::write.table(out, csv, sep = ",", row.names = FALSE, col.names = new,
                                        append = TRUE, qmethod = "double"))
  }
  quit(save = "no")
}

cat("mlcrf structure recovery;", R.version.string, "; seeds:", seeds, "; B:", B,
    "; nlambda:", nlambda, "\n")
t0 <- proc.time()
res <- lapply(names(designs), function(nm) {
  recs <- lapply(seq_len(seeds), function(s) run_one(designs[[nm]], 1000 + s))
  if (nzchar(save_to)) saveRDS(recs, sprintf("%s_%s.rds", save_to, nm))
  ok <- sapply(recs, rule_results)
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
