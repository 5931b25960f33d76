# Does the one-standard-error point (select = "1se") predict better than the
# best one?  cv_mlls() with its default grid and 5 folds on the training part,
# then the test macro and micro F1 at both points (out-of-fold thresholds),
# on the held-out Yahoo pages (the papers' protocol: 1000 training pages) and
# on the bundled Mulan splits.
# Run: R_LIBS=lib Rscript bench/one_se.R [arts health yeast scene emotions]
source(file.path("bench", "common.R"))
args <- commandArgs(TRUE)
names <- if (length(args)) args else c("arts", "health", "yeast", "scene", "emotions")
rows <- list()
for (name in names) {
  d <- switch(name, arts = load_yahoo("arts"), health = load_yahoo("health"),
              yeast = mlss::yeast, scene = mlss::scene, emotions = mlss::emotions)
  set.seed(1)
  cv <- suppressMessages(cv_mlls(d$x[d$train, ], d$y[d$train, ], progress = FALSE))
  for (s in c("best", "1se")) {
    pred <- predict(cv, d$x[!d$train, ], s = s, type = "class")
    m <- ml_metrics(d$y[!d$train, ], pred = pred, measures = c("macro_f1", "micro_f1"))
    i <- if (s == "best") cv$best else cv$best_1se
    rows[[length(rows) + 1]] <- data.frame(
      data = name, point = s, alpha = cv$grid$alpha[i], beta = cv$grid$beta[i],
      cv_macro_f1 = round(mean(cv$cvfold[i, ]), 4), test_macro_f1 = round(m$macro_f1, 4),
      test_micro_f1 = round(m$micro_f1, 4))
  }
  print(do.call(rbind, rows[vapply(rows, function(r) r$data == name, NA)]), row.names = FALSE)
}
