# lewl()'s default `k` chosen by measurement (issue 22): k = ceiling(m / 2),
# ceiling(0.8 m) and m for m labels, fully observed labels, the other
# arguments at their defaults (threshold = "global"), test-set macro and micro
# F1 of predict(fit, xtest, type = "class") (the fit's own thresholds).  Same
# sets and splits as bench/defaults.R: the bundled sets' Mulan train/test
# splits, medical and enron with a seeded 2/3 : 1/3 split.
#   R_LIBS=lib nice Rscript bench/lewl_default_k.R
# Last column: a paired bootstrap (200 resamples of the test rows, seed 1) of
# the macro F1 difference against k = ceiling(m / 2): its standard error.
# Environment: LEWL_K_SETS (default "emotions,scene,yeast,medical,enron");
#   LEWL_K_RATE (default 0: fully observed): hide that share of the training
#   entries (mask_labels(seed = 1)) before the fit, a check that the choice
#   holds when labels are missing (lewl()'s purpose); test labels complete.
source(file.path("bench", "common.R"))
library(mlss)
want <- strsplit(Sys.getenv("LEWL_K_SETS", "emotions,scene,yeast,medical,enron"), ",")[[1]]
sets <- default_sets(want)
rate <- as.numeric(Sys.getenv("LEWL_K_RATE", "0"))
macro <- function(pred, y) {
  tp <- colSums(pred & y); fp <- colSums(pred & !y); fn <- colSums(!pred & y)
  mean(ifelse(2 * tp + fp + fn == 0, 1, 2 * tp / (2 * tp + fp + fn)))
}
boot_se <- function(p1, p0, y) {
  set.seed(1)
  sd(replicate(200, {
    i <- sample(nrow(y), replace = TRUE)
    macro(p1[i, , drop = FALSE], y[i, , drop = FALSE]) - macro(p0[i, , drop = FALSE], y[i, , drop = FALSE])
  }))
}
f1 <- function(pred, y) ml_metrics(y, pred = pred, measures = c("macro_f1", "micro_f1"))
for (nm in names(sets)) {
  d <- sets[[nm]]
  tr <- d$train
  x <- d$x
  y <- trainable_labels(d)
  m <- ncol(y)
  ytr <- y[tr, , drop = FALSE]
  if (rate > 0) ytr <- mask_labels(ytr, rate, seed = 1)$y
  yte <- y[!tr, , drop = FALSE] > 0
  p0 <- NULL
  for (rule in c("ceiling(m/2)", "ceiling(0.8m)", "m")) {
    k <- switch(rule, "ceiling(m/2)" = ceiling(m / 2), "ceiling(0.8m)" = ceiling(0.8 * m),
                m = m)
    tm <- system.time(fit <- suppressWarnings(lewl(x[tr, ], ytr, k = k)))[["elapsed"]]
    pr <- as.matrix(predict(fit, x[!tr, ], type = "class")) > 0
    if (is.null(p0)) p0 <- pr
    s <- f1(pr, y[!tr, ])
    cat(sprintf("%-9s rate %.1f m = %3d  k = %-13s (%3d) macro F1 %.3f micro F1 %.3f  %-5s %5.1f s  se(diff) %.3f\n",
                nm, rate, m, rule, k, s[[1]], s[[2]], fit$converged, tm, boot_se(pr, p0, yte)))
  }
}
