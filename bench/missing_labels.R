# Learning with missing labels (issue 12): BR, CPLST, MLML (and LEWL when the
# package has it) at missing rates 0.3 and 0.7, with the LEWL paper's protocol
# (lewl-nju2020, Section 3.3): a share `rate` of the label entries is hidden at
# random, 5-fold cross-validation, each method trained on four folds with the
# hidden entries missing, then
#   recovery    the training folds' label matrix completed by the method, scored
#               against the true labels on the hidden entries alone and on the
#               whole matrix (observed entries kept: ranked above / below every
#               score, predicted as observed);
#   prediction  the held-out fold, against its true labels.
# Measures: average precision, macro F1, ranking loss.  The paper's figures
# (Tables 2-4 recovery, 6-8 prediction, "whole matrix") are printed beside ours.
#
# Usage (from the package root, package installed):
#   Rscript bench/missing_labels.R [datasets] [rates] [methods] [budget_seconds]
#   Rscript bench/missing_labels.R emotions,yeast 0.3,0.7
#   Rscript bench/missing_labels.R corel5k 0.3 br,cplst,mlml 600
# datasets: emotions yeast medical enron corel5k cal500; methods: br cplst mlml
# lewl.  budget: a method whose folds have taken longer than this (seconds,
# default 300) on a (dataset, rate) skips its remaining folds.
#
# Settings (no tuning, unlike the paper, which cross-validates each method's
# parameters and regresses with random forests): dense features standardised;
# BR = br(learner = "ridge", cost = 1) with missing labels as negatives (the
# paper's rule for BR and CPLST); CPLST = cplst(k = ceiling(m / 2), lambda = 1);
# MLML = mlml(beta = 0.1, gamma = 0.1, knn = 10), fitted transductively on the
# training folds plus the held-out fold (its labels all missing), which gives
# recovery and prediction in one solve; LEWL = lewl() at its defaults.
source("bench/common.R")

args <- commandArgs(trailingOnly = TRUE)
split_arg <- function(i, default) if (length(args) >= i) strsplit(args[i], ",")[[1]] else default
datasets <- split_arg(1, c("emotions", "yeast"))
rates <- as.numeric(split_arg(2, c("0.3", "0.7")))
methods <- split_arg(3, c("br", "cplst", "mlml", "lewl"))
budget <- as.numeric(split_arg(4, "300"))
nfolds <- 5L
ns <- asNamespace("mlss")
have_lewl <- exists("lewl", envir = ns, inherits = FALSE)
if (!have_lewl) methods <- setdiff(methods, "lewl")

paper_names <- c(emotions = "Emotions", yeast = "Yeast", medical = "Medical", enron = "Enron",
                 corel5k = "Corel5k", cal500 = "CAL500")


# Hide a share `rate` of the entries: mask_labels() once `missing` is merged.
hide_entries <- function(y, rate, seed) {
  if (exists("mask_labels", envir = ns, inherits = FALSE))
    return(get("mask_labels", envir = ns)(y, rate, by = "entry", seed = seed)$mask)
  set.seed(seed)
  mask <- matrix(FALSE, nrow(y), ncol(y))
  mask[sample.int(length(y), floor(rate * length(y) + 0.5))] <- TRUE
  mask
}

# ---- measures -------------------------------------------------------------------

# On the whole matrix: observed entries kept (ranked above/below every score,
# predicted as observed), hidden ones scored and thresholded.
whole_matrix <- function(ytrue, yobs, score, pred) {
  hi <- max(score) + 1
  lo <- min(score) - 1
  s <- ifelse(is.na(yobs), score, ifelse(yobs, hi, lo))
  p <- ifelse(is.na(yobs), pred, yobs)
  unlist(ml_metrics(ytrue, score = s, pred = p,
                    measures = c("average_precision", "macro_f1", "ranking_loss")))
}

ml_metrics_takes_na <- tryCatch({
  ml_metrics(matrix(c(TRUE, NA, FALSE, TRUE), 2), score = matrix(c(1, 2, 3, 4), 2),
             measures = "average_precision")
  TRUE
}, error = function(e) FALSE)

# On the hidden entries alone: ml_metrics() on the true labels with the other
# entries NA (the `missing` branch's rule: observed entries only); before that
# is merged, the same definitions in plain R.
hidden_only <- function(ytrue, hidden, score, pred) {
  if (ml_metrics_takes_na) {
    yh <- ytrue
    yh[!hidden] <- NA
    return(unlist(ml_metrics(yh, score = score, pred = pred,
                             measures = c("average_precision", "macro_f1", "ranking_loss"))))
  }
  ap <- rl <- c()
  for (i in which(rowSums(hidden & ytrue) > 0)) {
    h <- hidden[i, ]
    s <- score[i, h]
    y <- ytrue[i, h]
    pos <- s[y]
    neg <- s[!y]
    ap <- c(ap, mean(vapply(pos, function(v) mean(pos >= v) * sum(pos >= v) / sum(s >= v), 0)))
    if (length(neg)) rl <- c(rl, mean(outer(pos, neg, "<=")))
  }
  f1 <- vapply(seq_len(ncol(ytrue)), function(l) {
    h <- hidden[, l]
    tp <- sum(pred[h, l] & ytrue[h, l])
    np <- sum(pred[h, l])
    ntrue <- sum(ytrue[h, l])
    if (np + ntrue == 0) 1 else 2 * tp / (np + ntrue)
  }, 0)
  c(average_precision = mean(ap), macro_f1 = mean(f1), ranking_loss = mean(rl))
}

# ---- the methods: each returns train (recovered scores + classes) and test ----

as_neg <- function(y) { y[is.na(y)] <- FALSE; y }

run_method <- function(method, xtr, ytr, xte) {
  cls <- function(s, th) s > rep(th, each = nrow(s))
  switch(method,
    br = {
      fit <- br(xtr, as_neg(ytr), learner = "ridge", cost = 1)
      s <- predict(fit, xtr, type = "score"); st <- predict(fit, xte, type = "score")
      list(score = s, pred = cls(s, fit$thresholds), test_score = st,
           test_pred = cls(st, fit$thresholds))
    },
    cplst = {
      fit <- cplst(xtr, ytr)
      s <- predict(fit, xtr, type = "score"); st <- predict(fit, xte, type = "score")
      list(score = s, pred = cls(s, fit$thresholds), test_score = st,
           test_pred = cls(st, fit$thresholds))
    },
    mlml = {
      xall <- rbind(xtr, xte)
      yall <- rbind(ytr, matrix(NA, nrow(xte), ncol(ytr)))
      fit <- suppressWarnings(mlml(xall, yall))
      Z <- fit$recovered
      tr <- seq_len(nrow(xtr))
      P <- cls(Z, fit$thresholds)
      list(score = Z[tr, , drop = FALSE], pred = P[tr, , drop = FALSE],
           test_score = Z[-tr, , drop = FALSE], test_pred = P[-tr, , drop = FALSE])
    },
    lewl = {
      fit <- get("lewl", envir = ns)(xtr, ytr)
      s <- fit$recovered; st <- predict(fit, xte, type = "score")
      list(score = s, pred = cls(s, fit$thresholds), test_score = st,
           test_pred = predict(fit, xte, type = "class"))
    })
}

# ---- the paper's tables -------------------------------------------------------

paper_tables <- function() {
  txt <- readLines(file.path(Sys.getenv("MLSS_SHARED", file.path("..", "shared")), "papers",
                             "lewl-nju2020.txt"), encoding = "UTF-8", warn = FALSE)
  cols <- c("lewl", "mlml", "lrml", "cplst", "br")
  out <- list()
  for (tab in c(2:4, 6:8)) {
    start <- grep(paste0("^Table ", tab, "[^0-9]"), txt)
    if (!length(start)) next
    ds <- NA
    for (line in txt[(start + 1):(start + 40)]) {
      if (grepl("^Table ", line)) break
      if (!grepl("\u00b1", line)) next
      pieces <- strsplit(line, "\u00b1")[[1]]
      head <- pieces[1]
      m <- regmatches(head, regexec("^([A-Za-z0-9]*?)(0\\.[37])(.*)$", head))[[1]]
      if (!length(m)) next
      if (nzchar(m[2])) ds <- m[2]
      means <- m[4]
      for (p in pieces[-c(1, length(pieces))]) {
        at <- max(gregexpr("0\\.", p)[[1]])
        means <- c(means, substring(p, at))
      }
      if (length(means) != 5) next
      out[[length(out) + 1]] <- data.frame(table = tab, dataset = ds, rate = as.numeric(m[3]),
                                           method = cols, paper = as.numeric(means))
    }
  }
  do.call(rbind, out)
}
paper <- tryCatch(paper_tables(), error = function(e) NULL)
measure_of_table <- c(`2` = "average_precision", `3` = "macro_f1", `4` = "ranking_loss",
                      `6` = "average_precision", `7` = "macro_f1", `8` = "ranking_loss")

# ---- the experiment -------------------------------------------------------------

cat(sprintf("missing-label bench: %s; BLAS %s; load %s\n", format(Sys.time()),
            basename(sessionInfo()$BLAS), paste(readLines("/proc/loadavg"), collapse = "")))
cat("hidden-only measures from", if (ml_metrics_takes_na) "ml_metrics() with NA" else
    "the bench's plain-R fallback (ml_metrics() does not take NA yet)", "\n")
if (!have_lewl) cat("lewl() is not in this mlss: LEWL left out\n")

results <- list()
times <- list()
for (name in datasets) {
  d <- load_weak_label_set(name)
  cat(sprintf("\n== %s: n = %d, d = %d, m = %d\n", name, nrow(d$x), ncol(d$x), ncol(d$y)))
  for (rate in rates) {
    hidden <- hide_entries(d$y, rate, seed = 2020)
    yobs <- d$y
    yobs[hidden] <- NA
    set.seed(2020)
    foldid <- sample(rep_len(seq_len(nfolds), nrow(d$x)))
    for (method in methods) {
      spent <- 0
      done <- 0
      for (k in seq_len(nfolds)) {
        if (spent > budget) break
        tr <- foldid != k
        t0 <- proc.time()[["elapsed"]]
        res <- tryCatch(run_method(method, d$x[tr, , drop = FALSE], yobs[tr, , drop = FALSE],
                                   d$x[!tr, , drop = FALSE]),
                        error = function(e) { cat("  ", method, "failed:", conditionMessage(e), "\n"); NULL })
        spent <- spent + proc.time()[["elapsed"]] - t0
        if (is.null(res)) break
        done <- done + 1
        yt <- d$y[tr, , drop = FALSE]
        rows <- rbind(
          data.frame(what = "recovery_hidden",
                     t(hidden_only(yt, hidden[tr, , drop = FALSE], res$score, res$pred))),
          data.frame(what = "recovery_whole",
                     t(whole_matrix(yt, yobs[tr, , drop = FALSE], res$score, res$pred))),
          data.frame(what = "prediction",
                     t(unlist(ml_metrics(d$y[!tr, , drop = FALSE], score = res$test_score,
                                         pred = res$test_pred,
                                         measures = c("average_precision", "macro_f1",
                                                      "ranking_loss"))))))
        results[[length(results) + 1]] <- cbind(dataset = name, rate = rate, method = method,
                                                fold = k, rows)
      }
      times[[length(times) + 1]] <- data.frame(dataset = name, rate = rate, method = method,
                                               folds = done, seconds = round(spent, 1))
      cat(sprintf("  rate %.1f %-6s %d folds in %7.1f s\n", rate, method, done, spent))
    }
  }
}

res <- do.call(rbind, results)
long <- do.call(rbind, lapply(c("average_precision", "macro_f1", "ranking_loss"), function(ms)
  data.frame(res[c("dataset", "rate", "method", "fold", "what")], measure = ms, value = res[[ms]])))
agg <- aggregate(value ~ dataset + rate + method + what + measure, long,
                 function(v) c(mean = mean(v), sd = stats::sd(v)))
agg <- cbind(agg[1:5], mean = agg$value[, "mean"], sd = agg$value[, "sd"])
if (!is.null(paper)) {
  paper$measure <- measure_of_table[as.character(paper$table)]
  paper$what <- ifelse(paper$table < 5, "recovery_whole", "prediction")
  paper$dataset <- names(paper_names)[match(paper$dataset, paper_names)]
  agg <- merge(agg, paper[c("dataset", "rate", "method", "what", "measure", "paper")],
               all.x = TRUE)
}
agg <- agg[order(agg$dataset, agg$rate, agg$what, agg$measure, agg$method), ]
for (w in c("recovery_hidden", "recovery_whole", "prediction")) {
  cat("\n###", w, "(mean over folds; sd; the paper's figure where it reports one)\n")
  a <- agg[agg$what == w, ]
  a$ours <- sprintf("%.3f (%.3f)", a$mean, a$sd)
  if (!is.null(a$paper)) a$ours <- ifelse(is.na(a$paper), a$ours,
                                          sprintf("%s [%.3f]", a$ours, a$paper))
  wide <- reshape(a[c("dataset", "rate", "measure", "method", "ours")], direction = "wide",
                  idvar = c("dataset", "rate", "measure"), timevar = "method")
  names(wide) <- sub("^ours\\.", "", names(wide))
  print(wide, row.names = FALSE, right = FALSE)
}
cat("\n### time per (dataset, rate, method), all folds\n")
print(do.call(rbind, times), row.names = FALSE)
