# MLML's label term on data with many rare labels (issue 28): hidden-entry
# micro AUC and ranking loss for gamma = 0.1 (the default before issue 28),
# 0.01 (the default now) and 0, and
# for an unnormalised label Laplacian D_C - W_C at gamma = 0.1; one mask per
# set and rate (mask_labels(seed = 2020)), beta = 0.1, knn = 10, the linear
# loss.  The ranking loss is over the rows with at least one hidden positive
# and one hidden negative, on the hidden entries only.  The table is in
# ?mlml, "Rare labels".
#   nice Rscript bench/mlml_rare_labels.R [sets...]     (default: all four)
suppressPackageStartupMessages(library(mlss))
root <- Sys.getenv("MLSS_SHARED", file.path("..", "shared"))
sets <- commandArgs(TRUE)
if (!length(sets)) sets <- c("emotions", "yeast", "medical", "enron")
hidden_rl <- function(Z, truth, hid) {
  v <- numeric(0)
  for (i in seq_len(nrow(Z))) {
    p <- Z[i, hid[i, ] & truth[i, ]]
    n <- Z[i, hid[i, ] & !truth[i, ]]
    if (length(p) && length(n)) v <- c(v, mean(outer(p, n, "<") + 0.5 * outer(p, n, "==")))
  }
  mean(v)
}
hidden_auc <- function(Z, truth, hid) {
  sc <- Z[hid]
  tr <- truth[hid]
  (mean(rank(sc)[tr]) - (sum(tr) + 1) / 2) / sum(!tr)
}
for (ds in sets) {
  dir <- file.path(root, "data", "mulan", ds)
  d <- read_mulan(file.path(dir, paste0(ds, ".arff")), file.path(dir, paste0(ds, ".xml")))
  x <- mlss:::as_features(d$x)
  for (rate in c(0.3, 0.7)) {
    y <- mlss:::mask_labels(d$y, rate, by = "entry", seed = 2020)$y
    hid <- is.na(y)
    Y <- ifelse(is.na(y), 0, ifelse(y, 1, -1))
    storage.mode(Y) <- "double"
    SCn <- mlss:::mlml_label_graph(y)
    # the unnormalised Laplacian as the solver's "I - S_C"
    W <- mlss:::mlml_label_cosine(y)
    SCu <- diag(ncol(W)) - (diag(rowSums(W)) - W)
    variants <- list("gamma = 0.1 (old default)" = list(SCn, 0.1), "gamma = 0.01" = list(SCn, 0.01),
                     "gamma = 0" = list(SCn, 0), "unnormalised, 0.1" = list(SCu, 0.1))
    for (v in names(variants)) {
      s <- mlss:::mlml_run(x, Y, Y, variants[[v]][[1]], 0.1, variants[[v]][[2]], 10L, "linear",
                           1000L, 1e-5)
      cat(sprintf("%-8s %.1f %-22s hidden AUC %.3f  ranking loss %.3f%s\n", ds, rate, v,
                  hidden_auc(s$Z, d$y, hid), hidden_rl(s$Z, d$y, hid),
                  if (s$converged) "" else "  (max_iter)"))
      if (v == "gamma = 0.1 (old default)" && rate == 0.3) {
        # the mean hidden score by label frequency: rare labels sit higher
        g <- cut(colMeans(d$y), c(0, 0.01, 0.05, 0.2, 1), include.lowest = TRUE)
        mh <- vapply(levels(g), function(b) {
          ls <- which(g == b)
          if (length(ls)) mean(s$Z[, ls][hid[, ls]]) else NA_real_
        }, numeric(1))
        cat("   mean hidden score by label frequency", paste0(levels(g), ": ", round(mh, 2),
            " (", table(g), " labels)", collapse = ", "), "\n")
      }
    }
  }
}
