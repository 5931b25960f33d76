# Which default r keeps MLLS's shared subspace a subspace?  With many labels
# the paper's r = 5 floor((m - 1) / 5) reaches the rank of X'Y (at most
# min(d, m)), where alpha has no effect and MLLS is ridge regression.  For the
# Mulan sets with many labels, a random 2/3 for training (seed 1), 5-fold CV
# over alpha x beta with r as a third axis (candidates: shares of
# q = min(d, m, n - 1), and the paper's default capped at q), then the test
# macro F1 of the best (alpha, beta) at each r, with out-of-fold thresholds.
# The bundled yeast, scene and emotions (Mulan's splits) can be named too.
# Run: R_LIBS=lib Rscript bench/default_r.R [dataset ...]
source(file.path("bench", "common.R"))
sets <- list(cal500 = c("cal500.arff", "cal500.xml"),
             corel5k = c("Corel5k-sparse.arff", "Corel5k.xml"),
             enron = c("enron.arff", "enron.xml"),
             medical = c("medical.arff", "medical.xml"))
bundled <- c("yeast", "scene", "emotions")  # the package's data, with Mulan's split
args <- commandArgs(TRUE)
if (length(args)) sets <- c(sets, stats::setNames(as.list(bundled), bundled))[args]

rows <- list()
for (name in names(sets)) {
  if (name %in% bundled) {
    d <- getExportedValue("mlss", name)
    train <- d$train
  } else {
    d <- read_mulan(shared_data("mulan", name, sets[[name]][1]),
                    shared_data("mulan", name, sets[[name]][2]))
    set.seed(1)
    train <- seq_len(nrow(d$x)) %in% sample.int(nrow(d$x), round(2 / 3 * nrow(d$x)))
  }
  keep <- colSums(d$y[train, ]) >= 5 & colSums(d$y[!train, ]) >= 1
  x <- d$x[train, ]
  y <- d$y[train, keep]
  m <- ncol(y)
  q <- min(ncol(x), m, nrow(x) - 1)
  paper <- min(max(1, 5 * ((m - 1) %/% 5)), q)
  cands <- sort(unique(c(pmax(1, round(q * c(0.1, 0.25, 0.5, 0.75))), paper)))
  set.seed(2)
  t_cv <- elapsed(cv <- suppressMessages(cv_mlls(x, y, alpha = c(0, 1e-3, 1e-2, 1e-1, 1),
                                                 beta = 10^(-4:0), r = cands, nfolds = 5,
                                                 progress = FALSE)))
  cvm <- rowMeans(cv$cvfold)
  for (r in cands) {
    at <- which(cv$grid$r == r)
    i <- at[which.max(cvm[at])]
    pred <- suppressMessages(predict(cv, d$x[!train, ], alpha = cv$grid$alpha[i],
                                     beta = cv$grid$beta[i], r = r, type = "class"))
    test <- ml_metrics(d$y[!train, keep], pred = pred, measures = c("macro_f1", "micro_f1"))
    rows[[length(rows) + 1]] <- data.frame(
      data = name, n = nrow(x), d = ncol(x), m = m, q = q, r = r, share = round(r / q, 2),
      paper = r == paper, alpha = cv$grid$alpha[i], beta = cv$grid$beta[i],
      cv_macro_f1 = round(cvm[i], 4), test_macro_f1 = round(test$macro_f1, 4),
      test_micro_f1 = round(test$micro_f1, 4), cv_seconds = round(t_cv, 1))
  }
  print(do.call(rbind, rows[vapply(rows, function(r) r$data == name, NA)]), row.names = FALSE)
}
