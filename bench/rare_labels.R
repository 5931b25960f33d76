# The chance rule of the thresholds (issue 28, item 5; ?f1_thresholds): a cut
# is kept only when random ranks would reach its F1 with probability <= 0.05,
# else the label falls back to the majority rule (never predicted for a rare
# label).  Before it, labels with one or two training positives were cut at
# an out-of-fold F1 near 0.005 and predicted for about half the documents.
#
# cv_mlls() on a random 2/3 : 1/3 split (seed 1) of medical, enron and cal500,
# and on Yahoo Arts by the papers' protocol (1000 training pages), at the old
# default grid (alpha = c(0, 10^(-6:0)), beta = 10^(-6:0), so that only the
# thresholds differ), 5 folds, out-of-fold thresholds.  Test macro F1, micro
# F1, Hamming loss, labels predicted per row against the true number, and
# the labels never predicted.  "before" is the same script run with the
# package built from the commit before the rule (b27c8b9); the table of both
# is in bench/rare_labels.md.
# Run: R_LIBS=lib Rscript bench/rare_labels.R  (about 2 minutes)
source(file.path("bench", "common.R"))

mulan_split <- function(name) {
  f <- shared_data("mulan", name, paste0(name, ".arff"))
  d <- read_mulan(f, sub("\\.arff$", ".xml", f))
  set.seed(1)
  n <- nrow(d$x)
  list(x = d$x, y = d$y, train = sample(n) <= round(2 * n / 3), name = name)
}

one <- function(d) {
  tr <- d$train
  set.seed(2)
  t <- elapsed(cv <- suppressWarnings(suppressMessages(
    cv_mlls(d$x[tr, ], d$y[tr, ], alpha = c(0, 10^(-6:0)), beta = 10^(-6:0),
            nfolds = 5, progress = FALSE))))
  pred <- predict(cv, d$x[!tr, ], type = "class")
  yt <- d$y[!tr, ]
  m <- ml_metrics(yt, pred = pred, measures = c("macro_f1", "micro_f1", "hamming_loss"))
  data.frame(data = d$name, n_train = sum(tr), labels = ncol(yt),
             alpha = cv$alpha_best, beta = cv$beta_best,
             macro_f1 = round(m$macro_f1, 3), micro_f1 = round(m$micro_f1, 3),
             hamming = round(m$hamming_loss, 4),
             per_row = round(mean(rowSums(pred)), 2), true_per_row = round(mean(rowSums(yt)), 2),
             never = sum(is.infinite(cv$fit$thresholds) & cv$fit$thresholds > 0),
             seconds = round(t, 1))
}

sets <- strsplit(Sys.getenv("MLSS_BENCH_DATA", "medical,enron,cal500,arts"), ",")[[1]]
rows <- lapply(sets, function(s) {
  d <- if (s == "arts") load_yahoo("arts") else mulan_split(s)
  one(d)
})
print(do.call(rbind, rows), row.names = FALSE)
