# Is a miss of bench/cv_vs_test.R noise?  The same check on random splits of
# a whole data set with Mulan's training size (split 0: Mulan's own), each
# method's cvm at the chosen point against predict(cv, test, type = "class").
# Usage, from the package root (results quoted in
# bench/cv_vs_test_toolbox_results.md):
#   Rscript bench/cv_vs_test_splits.R emotions cv_clr,cv_mlknn 0,1,2,3
# cv_mlcrf_defaults: cv_mlcrf() with its defaults, whose measure (and so
# cvm and test here) is the held-out log loss per row (lower is better).
suppressMessages(library(mlss))
args <- commandArgs(TRUE)
ds <- args[1]; meths <- strsplit(args[2], ",")[[1]]; seeds <- as.integer(strsplit(args[3], ",")[[1]])
d <- getExportedValue("mlss", ds)
f1 <- function(y, p) ml_metrics(y, pred = p, measures = "macro_f1")$macro_f1
runs <- list(cv_mlknn = function(x, y, ...) cv_mlknn(x, y, k = c(5, 10, 20), scale = TRUE, ...),
  cv_br = function(x, y, ...) cv_br(x, y, learner = "logistic", cost = 10^(-2:1), ...),
  cv_clr = function(x, y, ...) cv_clr(x, y, cost = c(0.1, 1), ...),
  cv_lp = function(x, y, ...) cv_lp(x, y, cost = c(0.1, 1), ...),
  cv_homer = function(x, y, ...) cv_homer(x, y, cost = c(0.1, 1), ...),
  cv_eps = function(x, y, ...) cv_eps(x, y, cost = c(0.1, 1), ...),
  cv_mlcrf_defaults = function(x, y, ...) cv_mlcrf(x, y, ...))
ntr <- sum(d$train)
for (sd in seeds) {
  set.seed(100 + sd)
  tr <- if (sd == 0) d$train else seq_len(nrow(d$x)) %in% sample.int(nrow(d$x), ntr)
  x <- scale(d$x[tr, ]); xt <- scale(d$x[!tr, ], attr(x, "scaled:center"), attr(x, "scaled:scale"))
  x[!is.finite(x)] <- 0; xt[!is.finite(xt)] <- 0
  y <- d$y[tr, ]; yt <- d$y[!tr, ]
  for (m in meths) {
    set.seed(1)
    t0 <- proc.time()[[3]]
    cv <- suppressMessages(suppressWarnings(runs[[m]](x, y, progress = FALSE)))
    test <- if (identical(cv$measure, "log_loss"))  # the measure print(cv) reports
      ml_metrics(yt, prob = predict(cv$fit, xt, type = "prob", y = yt), measures = "log_loss")$log_loss
    else f1(yt, predict(cv, xt, type = "class"))
    cat(sprintf("%s %s split %d: cvm %.3f se %.4f test %.3f gap %+.3f (%.0fs)\n", ds, m, sd,
      as.vector(cv$cvm)[cv$chosen], as.vector(cv$cvsd)[cv$chosen], test,
      test - as.vector(cv$cvm)[cv$chosen], proc.time()[[3]] - t0))
  }
}
