# The LEWL paper's measures and protocol against the package's (issue 27),
# for vignettes/paper-lewl.Rmd (through bench/papers_tables.R).
#
# Three questions, on the test folds (prediction, Tables 6-8 of the paper):
# 1. ranking loss: the paper's prediction ranking losses (0.4-0.98) are far
#    above any ranking of real scores; ml_metrics()'s `ranking_loss_01` ranks
#    the 0/1 outputs, ties counted as errors.  Both are reported.
# 2. the baselines: the paper's BR and CPLST treat missing labels as
#    negatives (so do we) and then cut their scores; its BR macro F1 falls
#    to 0.01-0.06 at rate 0.7.  br_half cuts BR's scores at 1/2 (a rule that
#    does not adapt to the positives lost to the mask) beside br, the
#    package's per-label F1 thresholds (out of fold on the training scores,
#    chance rule at its default level).
# 3. medical: macro F1 with a label absent from the test fold counted as
#    F1 = 1 (absent = "one", the default), left out ("drop") or 0 ("zero").
# Methods: br (ridge, cost 1, missing as negatives), br_half (the same fit,
# cut at 1/2), lewl (defaults, one global cut), lewl_label (per-label cuts).
# Protocol: 5 folds (set.seed(1), sample(rep(1:5))), the training part's
# label entries hidden at rate 0.3 or 0.7 (mask_labels(seed = fold)), the
# test labels complete.  Sets: emotions, yeast (bundled), medical (needs
# ../shared/data or MLSS_SHARED).  Environment: LEWL_M_SETS, LEWL_M_LABEL
# (0 leaves lewl_label out: each lewl() fit takes minutes), LEWL_M_FOLDS
# (the folds run, default "1,2,3,4,5"), LEWL_M_OUT (default
# bench/lewl_measures_results.rds).
# Run: R_LIBS=lib nice Rscript bench/lewl_measures.R
source(file.path("bench", "common.R"))
sets <- strsplit(Sys.getenv("LEWL_M_SETS", "emotions,yeast,medical"), ",")[[1]]
folds_run <- as.integer(strsplit(Sys.getenv("LEWL_M_FOLDS", "1,2,3,4,5"), ",")[[1]])
out <- Sys.getenv("LEWL_M_OUT", file.path("bench", "lewl_measures_results.rds"))

load_set <- function(name) {
  if (name %in% c("emotions", "yeast", "scene")) {
    d <- get(name, envir = asNamespace("mlss"))
    return(list(x = d$x, y = d$y))
  }
  f <- shared_data("mulan", name, paste0(name, ".arff"))
  d <- read_mulan(f, xml = sub("\\.arff$", ".xml", f))
  list(x = d$x, y = d$y)
}

measures <- function(y, score, pred) {
  base <- unlist(ml_metrics(y, score = score, pred = pred,
                            measures = c("macro_f1", "ranking_loss", "ranking_loss_01",
                                         "average_precision")))
  c(base, macro_f1_drop = ml_metrics(y, pred = pred, measures = "macro_f1", absent = "drop")[[1]],
    macro_f1_zero = ml_metrics(y, pred = pred, measures = "macro_f1", absent = "zero")[[1]])
}

cat("LEWL paper measures;", format(Sys.time(), tz = "UTC", usetz = TRUE), "| machine:",
    Sys.info()[["nodename"]], "|", R.version.string, "\n")
rows <- list()
for (set in sets) {
  d <- load_set(set)
  set.seed(1)
  fold <- sample(rep(1:5, length.out = nrow(d$x)))
  for (rate in c(0.3, 0.7)) for (k in folds_run) {
    tr <- fold != k
    yte <- d$y[!tr, , drop = FALSE]
    m <- mask_labels(d$y[tr, ], rate = rate, seed = k)
    yneg <- m$y
    yneg[is.na(yneg)] <- FALSE
    t0 <- proc.time()[["elapsed"]]
    fit <- br(d$x[tr, ], yneg, learner = "ridge", cost = 1)
    sc <- predict(fit, d$x[!tr, ], type = "score")
    res <- list(br = measures(yte, sc, predict(fit, d$x[!tr, ], type = "class")),
                br_half = measures(yte, sc, sc > 0.5))
    tb <- proc.time()[["elapsed"]] - t0
    for (thr in if (Sys.getenv("LEWL_M_LABEL", "1") == "0") "global" else c("global", "label")) {
      t1 <- proc.time()[["elapsed"]]
      fl <- suppressWarnings(lewl(d$x[tr, ], m$y, threshold = thr))
      sl <- predict(fl, d$x[!tr, ], type = "score")
      res[[if (thr == "global") "lewl" else "lewl_label"]] <-
        measures(yte, sl, predict(fl, d$x[!tr, ], type = "class"))
      attr(res, thr) <- proc.time()[["elapsed"]] - t1
    }
    for (meth in names(res)) {
      v <- res[[meth]]
      time <- switch(meth, br = , br_half = tb, lewl = attr(res, "global"),
                     lewl_label = attr(res, "label"))
      rows[[length(rows) + 1]] <- data.frame(data = set, rate = rate, fold = k, method = meth,
                                             measure = names(v), value = unname(v),
                                             time_s = round(time, 1))
    }
    cat(sprintf("%-8s rate %.1f fold %d: br %.3f br_half %.3f lewl %.3f lewl_label %.3f (macro F1)\n",
                set, rate, k, res$br[["macro_f1"]], res$br_half[["macro_f1"]],
                res$lewl[["macro_f1"]], if (is.null(res$lewl_label)) NA else res$lewl_label[["macro_f1"]]))
    saveRDS(list(rows = do.call(rbind, rows), date = format(Sys.time(), tz = "UTC", usetz = TRUE),
                 machine = Sys.info()[["nodename"]]), out)
  }
}
