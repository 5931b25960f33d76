# Is the Nystrom route's macro-AUC gap on enron (rate 0.3, +0.016 against the
# exact route; bench/lewl_scale_results.md, session s38) the drift of the
# missing entries in rows the kNN graph joins only weakly
# (bench/lewl_beta0_results.md, session 41)?  bench/lewl_nystrom.R's
# protocol (all of enron, 30% of the entries hidden with seed 2020, lewl()'s
# defaults, set.seed(1) before each fit; the Nystrom route forced with 500
# landmarks), and the hidden-entry measures over all hidden entries and
# over those outside the weakest quarter of rows by weighted degree (row
# sums of the graph's W); per fit, the missing entries outside [-1, 2].
#   OB=/usr/lib/x86_64-linux-gnu/openblas-pthread; OPENBLAS_NUM_THREADS=1 \
#   LD_PRELOAD="$OB/libblas.so.3 $OB/liblapack.so.3" LIB=<build> Rscript bench/lewl_nystrom_weakrows.R
lib <- Sys.getenv("LIB", "")
if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
suppressPackageStartupMessages(source(file.path("bench", "common.R")))
d <- load_mulan_set("enron")
y <- d$y[, colSums(d$y) > 0, drop = FALSE]
ymiss <- mlss:::mask_labels(y, 0.3, by = "entry", seed = 2020)$y
hidden <- is.na(ymiss)
deg <- Matrix::rowSums(mlss:::lewl_prepare(d$x, 10)$W)
weak <- deg <= stats::quantile(deg, 0.25)
cat(sprintf("enron: %d rows, %d labels, %d hidden entries; weakest quarter: degree <= %.3f (median %.3f)\n",
            nrow(y), ncol(y), sum(hidden), max(deg[weak]), stats::median(deg)))
fits <- list()
for (route in c("exact", "nystrom")) {
  set.seed(1)
  c0 <- cpu_seconds()
  fit <- suppressWarnings(lewl(d$x, ymiss, approx = route, landmarks = if (route == "nystrom") 500))
  fits[[route]] <- fit
  out <- hidden & (fit$completed < -1 | fit$completed > 2)
  cat(sprintf("%-7s: %d iterations, %.0f CPU s; hidden entries outside [-1, 2]: %d, in %d rows (%d of them in the weakest quarter)\n",
              route, fit$iterations, cpu_seconds() - c0, sum(out), sum(rowSums(out) > 0),
              sum(rowSums(out[weak, , drop = FALSE]) > 0)))
}
for (part in c("all rows", "strong rows")) {
  h <- hidden
  if (part == "strong rows") h[weak, ] <- FALSE
  m <- lapply(fits, function(f) unlist(hidden_entry_measures(y, h, f$recovered)))
  cat(sprintf("%-11s (%d hidden): exact %s; nystrom - exact %s\n", part, sum(h),
              paste(names(m$exact), sprintf("%.4f", m$exact), collapse = " "),
              paste(sprintf("%+.4f", m$nystrom - m$exact), collapse = " ")))
}
cat(sprintf("largest |recovered difference| between the routes: all rows %.3f, strong rows %.3f\n",
            max(abs(fits$exact$recovered - fits$nystrom$recovered)[hidden]),
            max(abs(fits$exact$recovered - fits$nystrom$recovered)[hidden & !weak])))
# the macro AUC label by label: which labels carry the gap
auc <- function(s, t) {  # the AUC of scores s for the logical truth t (ml_metrics())
  if (all(t) || !any(t)) return(NA_real_)
  ml_metrics(matrix(t), score = matrix(s), measures = "micro_auc")[[1]]
}
per <- t(vapply(seq_len(ncol(y)), function(j) {
  h <- hidden[, j]
  t <- y[h, j] > 0
  c(positives = sum(t), exact = auc(fits$exact$recovered[h, j], t),
    nystrom = auc(fits$nystrom$recovered[h, j], t))
}, numeric(3)))
per <- data.frame(label = colnames(y), per, d = per[, "nystrom"] - per[, "exact"])
ok <- !is.na(per$d)
cat(sprintf("labels with an AUC: %d; mean d %+.4f (the macro gap); from labels with <= 5 hidden positives %+.4f (%d labels), > 5: %+.4f (%d labels)\n",
            sum(ok), mean(per$d[ok]), sum(per$d[ok & per$positives <= 5]) / sum(ok),
            sum(ok & per$positives <= 5), sum(per$d[ok & per$positives > 5]) / sum(ok),
            sum(ok & per$positives > 5)))
print(head(per[order(-abs(per$d)), ], 8), row.names = FALSE, digits = 3)
