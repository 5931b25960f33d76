# Benchmarks of cc() and pcc(), run from the package directory (make bench).
#
# Part 1: accuracy as in the MLCRF paper's Tables 2-5 (exact match,
#   log-likelihood loss, micro and macro F1) on emotions, yeast and scene,
#   the whole bundled data sets (mlss::emotions etc., training and test parts
#   together, as bench/mlcrf.R does): 10-fold CV on ml_folds() (seed 2014).
#   Features standardised with each fold's training mean and sd (the raw
#   emotions features range over -99..237).  Chain order: the column order
#   (the paper's Y1 < Y2 < ...).  Cost: CHAINS_BENCH_COST = a number (1 by
#   default, the same for BR, CC, PCC) or "cv": chosen once by 5-fold cv_pcc()
#   (macro F1, grid 10^(-3:1)) on the first fold's training part, then used
#   in every fold (the paper tunes by CV in every fold: not done, for time).
#   BR = br(learner = "logistic") at the same cost with labels at p > 1/2 and
#   p(y | x) the product of its independent probabilities; CC = greedy chain;
#   PCC = exact inference (MAP for exact match and F1, p(y | x) by the chain
#   rule for the log-likelihood; CC's model is the same, so its LL is PCC's
#   and is not repeated).  Log-likelihood loss as the paper's: the sum over a
#   test fold of -log p(y | x), averaged over the folds.
# Part 2: times on the same folds (per fold, median of the folds' times):
#   fit of BR and of the chain, and prediction (CC greedy, PCC exact MAP by
#   branch and bound, PCC exact marginals, PCC beam 10, PCC 1000 samples,
#   p(y | x) of the true vectors; each prediction timed as the mean of 5
#   runs), as ratios to BR's fit and prediction in
#   the same process.  utiml (archived on CRAN) is not installable here, so
#   there is no comparison with its implementation.
#
# Environment: CHAINS_BENCH_DATA ("emotions,yeast,scene"), CHAINS_BENCH_FOLDS
#   (10), CHAINS_BENCH_COST ("1").
source(file.path("bench", "common.R"))

sets <- strsplit(Sys.getenv("CHAINS_BENCH_DATA", "emotions,yeast,scene"), ",")[[1]]
nfolds <- as.integer(Sys.getenv("CHAINS_BENCH_FOLDS", "10"))
cost_arg <- Sys.getenv("CHAINS_BENCH_COST", "1")
cat("chains benchmark;", R.version.string, "; BLAS:", extSoftVersion()[["BLAS"]],
    "; cores:", parallel::detectCores(), "; load average at start:",
    paste(format(as.numeric(strsplit(readLines("/proc/loadavg"), " ")[[1]][1:3])),
          collapse = " "), "\n")

# The MLCRF paper's Tables 2-5 for CC and PCC (and BR), 10-fold CV, tuned.
paper <- data.frame(
  data = rep(c("emotions", "yeast", "scene"), each = 3),
  method = rep(c("BR", "CC", "PCC"), 3),
  exact_match = c(0.265, 0.268, 0.317, 0.151, 0.193, 0.230, 0.541, 0.632, 0.666),
  loglik_loss = c(153.5, 169.6, 134.9, 1500.3, 2303.8, 932.1, 344.7, 395.0, 258.9),
  micro_f1 = c(0.645, 0.621, 0.664, 0.635, 0.628, 0.645, 0.696, 0.697, 0.722),
  macro_f1 = c(0.632, 0.620, 0.659, 0.457, 0.467, 0.486, 0.703, 0.709, 0.729),
  stringsAsFactors = FALSE)

standardise <- function(xtr, xte) {
  mu <- colMeans(xtr)
  s <- sqrt(colMeans(sweep(xtr, 2, mu)^2))
  s[s == 0] <- 1
  list(tr = sweep(sweep(xtr, 2, mu), 2, s, "/"), te = sweep(sweep(xte, 2, mu), 2, s, "/"))
}

measures <- function(y, pred, prob) {
  r <- ml_metrics(y, pred = pred, prob = prob,
                  measures = c("subset_accuracy", "log_loss", "micro_f1", "macro_f1"))
  c(exact_match = r$subset_accuracy, loglik_loss = r$log_loss * nrow(y),
    micro_f1 = r$micro_f1, macro_f1 = r$macro_f1)
}

# The value of expr and its time in seconds, the mean of `reps` runs (the
# predictions take milliseconds); sampling draws again in each run.
timed <- function(expr, reps = 1) {
  expr <- substitute(expr)
  env <- parent.frame()
  t0 <- proc.time()[["elapsed"]]
  for (r in seq_len(reps)) value <- eval(expr, env)
  list(value = value, seconds = (proc.time()[["elapsed"]] - t0) / reps)
}

acc_rows <- list()
time_rows <- list()
for (name in sets) {
  d <- get(name, asNamespace("mlss"))
  x <- as.matrix(d$x)
  y <- d$y
  set.seed(2014)
  foldid <- ml_folds(y, nfolds)
  cost <- if (cost_arg == "cv") {
    tr <- foldid != 1
    s <- standardise(x[tr, ], x[tr, ])
    set.seed(1)
    cv <- cv_pcc(s$tr, y[tr, ], cost = 10^(-3:1), nfolds = 5, progress = FALSE)
    cv$cost_best
  } else as.numeric(cost_arg)
  res <- list(BR = NULL, CC = NULL, PCC = NULL)
  tm <- NULL
  for (k in seq_len(nfolds)) {
    tr <- foldid != k
    s <- standardise(x[tr, ], x[!tr, ])
    yte <- y[!tr, ]
    fb <- timed(br(s$tr, y[tr, ], learner = "logistic", cost = cost))
    fc <- timed(pcc(s$tr, y[tr, ], cost = cost))
    model <- fc$value
    class(model) <- c("cc", "chain")
    pb <- timed(predict(fb$value, s$te, type = "score"), reps = 5)
    pbr <- pb$value
    prob_br <- apply(ifelse(yte, pbr, 1 - pbr), 1, prod)
    cc_class <- timed(predict(model, s$te, type = "class"), reps = 5)
    map <- timed(predict(fc$value, s$te, type = "class"), reps = 5)
    marg <- timed(predict(fc$value, s$te, type = "score"), reps = 5)
    beam <- timed(predict(fc$value, s$te, type = "class", inference = "beam",
                          beam_width = 10), reps = 5)
    set.seed(k)
    samp <- timed(predict(fc$value, s$te, type = "class", inference = "sample",
                          n_samples = 1000))
    prob <- timed(predict(fc$value, s$te, type = "prob", y = yte), reps = 5)
    res$BR <- rbind(res$BR, measures(yte, pbr > 0.5, prob_br))
    res$CC <- rbind(res$CC, measures(yte, cc_class$value, prob$value))
    res$PCC <- rbind(res$PCC, measures(yte, map$value, prob$value))
    res$PCC_beam10 <- rbind(res$PCC_beam10, measures(yte, beam$value, prob$value))
    res$PCC_sample1000 <- rbind(res$PCC_sample1000, measures(yte, samp$value, prob$value))
    tm <- rbind(tm, c(br_fit = fb$seconds, chain_fit = fc$seconds, br_predict = pb$seconds,
                      cc_greedy = cc_class$seconds, pcc_exact_map = map$seconds,
                      pcc_exact_marginals = marg$seconds, pcc_beam10 = beam$seconds,
                      pcc_sample1000 = samp$seconds, pcc_prob = prob$seconds,
                      map_nodes = mean(attr(map$value, "inference")$nodes),
                      n_test = sum(!tr)))
  }
  for (method in names(res)) {
    v <- colMeans(res[[method]])
    if (method %in% c("CC", "PCC_beam10", "PCC_sample1000")) v[["loglik_loss"]] <- NA
    acc_rows[[length(acc_rows) + 1]] <- data.frame(data = name, method = method, t(v),
                                                   cost = cost)
  }
  med <- apply(tm, 2, stats::median)
  time_rows[[length(time_rows) + 1]] <- data.frame(
    data = name, m = ncol(y), n_test = med[["n_test"]], br_fit_s = med[["br_fit"]],
    chain_fit_x = med[["chain_fit"]] / med[["br_fit"]], br_predict_ms = 1000 * med[["br_predict"]],
    cc_greedy_x = med[["cc_greedy"]] / med[["br_predict"]],
    pcc_map_x = med[["pcc_exact_map"]] / med[["br_predict"]],
    pcc_marg_x = med[["pcc_exact_marginals"]] / med[["br_predict"]],
    pcc_beam10_x = med[["pcc_beam10"]] / med[["br_predict"]],
    pcc_sample_x = med[["pcc_sample1000"]] / med[["br_predict"]],
    pcc_prob_x = med[["pcc_prob"]] / med[["br_predict"]],
    pcc_marg_ms_per_row = 1000 * med[["pcc_exact_marginals"]] / med[["n_test"]],
    map_nodes = med[["map_nodes"]], tree_nodes = 2^(ncol(y) + 1) - 1)
  cat(name, "done\n")
}

ours <- do.call(rbind, acc_rows)
tab <- merge(ours, paper, by = c("data", "method"), all.x = TRUE, suffixes = c("", "_paper"),
             sort = FALSE)
tab <- tab[order(match(tab$data, sets), match(tab$method, names(res))),
           c("data", "method", "cost", "exact_match", "exact_match_paper", "loglik_loss",
             "loglik_loss_paper", "micro_f1", "micro_f1_paper", "macro_f1", "macro_f1_paper")]
cat("\nPart 1:", nfolds, "-fold CV (mean over folds); cost",
    if (cost_arg == "cv") "by 5-fold cv_pcc() on the first fold's training part" else cost_arg,
    "; _paper = the MLCRF paper's Tables 2-5 (10-fold CV, cost tuned by CV)\n")
print(format(tab, digits = 3), row.names = FALSE)
cat("\nPart 2: per-fold medians; *_x = time / BR's (fit, predict) in the same process;",
    "map_nodes = mean nodes of the 2^(m+1)-1 tree visited by branch and bound\n")
print(format(do.call(rbind, time_rows), digits = 3), row.names = FALSE)
cat("load average at end:", readLines("/proc/loadavg"), "\n")
