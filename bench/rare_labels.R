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
# Each data set runs at every level of MLSS_CHANCE_LEVELS (default "0.05,1":
# the rule's default and the rule turned off, options(mlss.chance_level = 1)).
# Run: R_LIBS=lib Rscript bench/rare_labels.R  (about 4 minutes)
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

parts <- strsplit(Sys.getenv("MLSS_BENCH_PARTS", "1,2,3"), ",")[[1]]
if ("1" %in% parts) {
  sets <- strsplit(Sys.getenv("MLSS_BENCH_DATA", "medical,enron,cal500,arts"), ",")[[1]]
  # each data set at each level of the chance rule (the option
  # mlss.chance_level; 1 turns the rule off)
  levels <- as.numeric(strsplit(Sys.getenv("MLSS_CHANCE_LEVELS", "0.05,1"), ",")[[1]])
  rows <- unlist(lapply(sets, function(s) {
    d <- if (s == "arts") load_yahoo("arts") else mulan_split(s)
    lapply(levels, function(lv) {
      old <- options(mlss.chance_level = lv)
      on.exit(options(old))
      cbind(level = lv, one(d))
    })
  }), recursive = FALSE)
  cat("cv_mlls() at the old default grid, test part of a 2/3 : 1/3 split\n")
  print(do.call(rbind, rows), row.names = FALSE)
}

# Part 2 (item 6): measure = "hamming_loss" on yeast (Mulan split): the test
# Hamming loss of cv_mlls() (Hamming-optimal cuts now, F1 cuts before), of
# the empty prediction, and of the same fit cut at 0.
# Part 3 (item 7): the default grid.  On emotions, yeast and scene (Mulan
# splits) the old default (alpha = c(0, 10^(-6:0)), beta = 10^(-6:0)) chose
# beta = 1, its top; the wider default (alpha = c(0, 10^(-6:2)),
# beta = 10^(-6:3)): the chosen point and the test macro F1 of both.
mulan_pair <- function(name) {
  f <- function(part) shared_data("mulan", name, paste0(name, "-", part, ".arff"))
  xml <- shared_data("mulan", name, paste0(name, ".xml"))
  list(train = read_mulan(f("train"), xml), test = read_mulan(f("test"), xml), name = name)
}
parts <- strsplit(Sys.getenv("MLSS_BENCH_PARTS", "1,2,3"), ",")[[1]]
if ("2" %in% parts) {
  d <- mulan_pair("yeast")
  set.seed(2)
  cv <- suppressMessages(cv_mlls(d$train$x, d$train$y, measure = "hamming_loss",
                                 alpha = c(0, 10^(-6:0)), beta = 10^(-6:0), progress = FALSE))
  yt <- d$test$y
  h <- function(pred) ml_metrics(yt, pred = pred, measures = "hamming_loss")$hamming_loss
  sc <- predict(cv, d$test$x, type = "score")
  cat("\nyeast, measure = \"hamming_loss\": test Hamming loss\n")
  print(data.frame(tuned = round(h(predict(cv, d$test$x, type = "class")), 4),
                   empty = round(h(yt & FALSE), 4), cut_at_0 = round(h(sc > 0), 4),
                   never_predicted = sum(cv$fit$thresholds == Inf)), row.names = FALSE)
}
if ("3" %in% parts) {
  grids <- list(old = list(alpha = c(0, 10^(-6:0)), beta = 10^(-6:0)),
                wide = list(alpha = c(0, 10^(-6:2)), beta = 10^(-6:3)))
  rows <- list()
  for (name in c("emotions", "yeast", "scene")) {
    d <- mulan_pair(name)
    for (g in names(grids)) {
      set.seed(3)
      cv <- suppressMessages(cv_mlls(d$train$x, d$train$y, alpha = grids[[g]]$alpha,
                                     beta = grids[[g]]$beta, progress = FALSE))
      pred <- predict(cv, d$test$x, type = "class")
      rows[[length(rows) + 1]] <- data.frame(
        data = name, grid = g, alpha = cv$alpha_best, beta = cv$beta_best,
        edge = paste(names(cv$edge), cv$edge, collapse = ", "),
        cv_macro_f1 = round(max(cv$cvm), 3),
        test_macro_f1 = round(ml_metrics(d$test$y, pred = pred, measures = "macro_f1")$macro_f1, 3))
    }
  }
  cat("\ncv_mlls() default grid: old against wide\n")
  print(do.call(rbind, rows), row.names = FALSE)
}
