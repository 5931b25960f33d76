# The LEWL paper's Tables 2-4 (recovery) and 6-8 (prediction) at the
# package's current defaults (issue 27), for vignettes/paper-lewl.Rmd
# through bench/papers_tables.R.  Replaces, for the vignette's tables, the run
# of bench/missing_labels.R of 2026-11-24 (LEWL's old k = ceiling(m/2), MLML's
# old gamma = 0.1); same protocol and methods:
#   a share `rate` of the label entries hidden at random (mask_labels(seed =
#   2020), by entry, over all rows); 5 folds (set.seed(2020),
#   sample(rep_len(1:5, n))); each method trained on four folds with the
#   hidden entries missing;
#   recovery   the training folds' label matrix completed by the method,
#              scored on the whole matrix (observed entries kept: ranked
#              above / below every score, predicted as observed; the paper's
#              tables) and on the hidden entries alone;
#   prediction the held-out fold against its true labels.
# Methods: BR = br(learner = "ridge", cost = 1) with missing labels as
# negatives (the paper's rule for BR and CPLST); CPLST = cplst() at its
# defaults; MLML = mlml() at its defaults, fitted transductively on the
# training folds plus the held-out fold (its labels all missing); LEWL =
# lewl() at its defaults.  Dense features standardised.
#
# Recovered entries are cut two ways (the macro-F1 question of the vignette):
#   "own"  each method's own thresholds (BR and CPLST: the F1-optimal cuts of
#          their training scores against the labels with missing entries as
#          negatives; LEWL: its global cut; MLML: the observed positive rate);
#   "prev" per label, the hidden entries given the positive rate of that
#          label's observed entries (MLML's rule, for every method).
# Measures: average_precision, macro_f1 (own), macro_f1_prev, ranking_loss.
#
# Resumable: each (set, rate) goes to bench/lewl_tables_runs/<set>_<rate>.rds,
# saved after every fold; a rerun skips the folds already there.
# Environment: LEWL_T_SETS (default "emotions,cal500,medical,yeast,enron",
# smallest first), LEWL_T_RATES (default "0.3,0.7"), LEWL_T_METHODS (default
# "br,cplst,mlml,lewl"), LEWL_T_DIR (default bench/lewl_tables_runs).
# Needs ../shared/data (or MLSS_SHARED).
# Run: R_LIBS=lib nice Rscript bench/lewl_tables.R
source(file.path("bench", "common.R"))
env_list <- function(name, default) strsplit(Sys.getenv(name, default), ",")[[1]]
sets <- env_list("LEWL_T_SETS", "emotions,cal500,medical,yeast,enron")
rates <- as.numeric(env_list("LEWL_T_RATES", "0.3,0.7"))
methods <- env_list("LEWL_T_METHODS", "br,cplst,mlml,lewl")
out_dir <- Sys.getenv("LEWL_T_DIR", file.path("bench", "lewl_tables_runs"))
dir.create(out_dir, showWarnings = FALSE, recursive = TRUE)
nfolds <- 5L
measures <- c("average_precision", "macro_f1", "ranking_loss")


# Per label, the hidden entries' top scores predicted positive, as many as the
# label's observed positive rate gives.
cut_prevalence <- function(score, yobs) {
  pred <- matrix(FALSE, nrow(score), ncol(score))
  for (l in seq_len(ncol(score))) {
    h <- is.na(yobs[, l])
    if (!any(h)) next
    q <- mean(yobs[!h, l])
    k <- round(if (is.finite(q)) q * sum(h) else 0)
    if (k > 0) pred[h, l][order(score[h, l], decreasing = TRUE)[seq_len(k)]] <- TRUE
  }
  pred
}

recovery <- function(ytrue, yobs, score, pred) {
  h <- is.na(yobs)
  prev <- cut_prevalence(score, yobs)
  hi <- max(score) + 1
  lo <- min(score) - 1
  s_whole <- ifelse(h, score, ifelse(yobs, hi, lo))
  whole <- function(p) ifelse(h, p, yobs)
  yh <- ytrue
  yh[!h] <- NA
  m_whole <- unlist(ml_metrics(ytrue, score = s_whole, pred = whole(pred), measures = measures))
  m_hidden <- unlist(ml_metrics(yh, score = score, pred = pred, measures = measures))
  list(recovery_whole = c(m_whole, macro_f1_prev = ml_metrics(ytrue, pred = whole(prev),
                                                              measures = "macro_f1")[[1]]),
       recovery_hidden = c(m_hidden, macro_f1_prev = ml_metrics(yh, pred = prev,
                                                                measures = "macro_f1")[[1]]))
}

as_neg <- function(y) { y[is.na(y)] <- FALSE; y }
cut_at <- function(s, th) s > rep(th, each = nrow(s))

run_method <- function(method, xtr, ytr, xte) {
  switch(method,
    br = , cplst = {
      fit <- if (method == "br") br(xtr, as_neg(ytr), learner = "ridge", cost = 1) else cplst(xtr, ytr)
      s <- predict(fit, xtr, type = "score")
      st <- predict(fit, xte, type = "score")
      list(score = s, pred = cut_at(s, fit$thresholds), test_score = st,
           test_pred = cut_at(st, fit$thresholds))
    },
    mlml = {
      fit <- suppressWarnings(mlml(rbind(xtr, xte), rbind(ytr, matrix(NA, nrow(xte), ncol(ytr)))))
      tr <- seq_len(nrow(xtr))
      P <- cut_at(fit$recovered, fit$thresholds)
      list(score = fit$recovered[tr, , drop = FALSE], pred = P[tr, , drop = FALSE],
           test_score = fit$recovered[-tr, , drop = FALSE], test_pred = P[-tr, , drop = FALSE],
           converged = fit$converged)
    },
    lewl = {
      fit <- suppressWarnings(lewl(xtr, ytr))
      list(score = fit$recovered, pred = cut_at(fit$recovered, fit$thresholds),
           test_score = predict(fit, xte, type = "score"),
           test_pred = predict(fit, xte, type = "class"), converged = fit$converged,
           k = fit$k)
    })
}

cat("LEWL tables;", format(Sys.time(), tz = "UTC", usetz = TRUE), "| machine:",
    Sys.info()[["nodename"]], "|", R.version.string, "| load", readLines("/proc/loadavg"), "\n")
for (set in sets) {
  d <- load_weak_label_set(set)
  for (rate in rates) {
    file <- file.path(out_dir, sprintf("%s_%.1f.rds", set, rate))
    old <- if (file.exists(file)) readRDS(file) else NULL
    rows <- if (is.null(old)) list() else list(old$rows)
    done <- if (is.null(old)) character() else unique(paste(old$rows$method, old$rows$fold))
    hidden <- mask_labels(d$y, rate, by = "entry", seed = 2020)$mask
    yobs <- d$y
    yobs[hidden] <- NA
    set.seed(2020)
    foldid <- sample(rep_len(seq_len(nfolds), nrow(d$x)))
    for (k in seq_len(nfolds)) for (method in methods) {
      if (paste(method, k) %in% done) next
      tr <- foldid != k
      t0 <- proc.time()
      res <- run_method(method, d$x[tr, , drop = FALSE], yobs[tr, , drop = FALSE],
                        d$x[!tr, , drop = FALSE])
      tm <- proc.time() - t0
      rec <- recovery(d$y[tr, , drop = FALSE], yobs[tr, , drop = FALSE], res$score, res$pred)
      pre <- unlist(ml_metrics(d$y[!tr, , drop = FALSE], score = res$test_score,
                               pred = res$test_pred, measures = measures))
      vals <- c(rec, list(prediction = pre))
      rows[[length(rows) + 1]] <- do.call(rbind, lapply(names(vals), function(w)
        data.frame(data = set, rate = rate, method = method, fold = k, what = w,
                   measure = names(vals[[w]]), value = unname(vals[[w]]),
                   elapsed_s = round(tm[["elapsed"]], 1),
                   cpu_s = round(tm[["user.self"]] + tm[["sys.self"]], 1),
                   converged = if (is.null(res$converged)) NA else res$converged,
                   k = if (is.null(res$k)) NA else res$k)))
      saveRDS(list(rows = do.call(rbind, rows), date = format(Sys.time(), tz = "UTC", usetz = TRUE),
                   machine = Sys.info()[["nodename"]],
                   commit = tryCatch(system("git rev-parse --short HEAD", intern = TRUE),
                                     error = function(e) NA)), file)
      cat(sprintf("%-8s rate %.1f fold %d %-5s %6.1f s elapsed (%6.1f CPU): whole macro F1 %.3f (prev %.3f), AP %.3f; test macro F1 %.3f | %s\n",
                  set, rate, k, method, tm[["elapsed"]], tm[["user.self"]] + tm[["sys.self"]],
                  rec$recovery_whole[["macro_f1"]], rec$recovery_whole[["macro_f1_prev"]],
                  rec$recovery_whole[["average_precision"]], pre[["macro_f1"]],
                  format(Sys.time(), "%H:%M:%S")))
    }
  }
}
