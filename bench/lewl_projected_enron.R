# Enron (1702 rows, 30% hidden, the protocol of bench/lewl_nystrom.R), the Nystrom route
# forced, k = m: one build against another (session s37: main against the projected
# first Z-step).  Rscript bench/lewl_projected_enron.R <library> <tag>; saves the
# recovered matrix to /tmp/s37w/enron_rec_<tag>.rds and prints the hidden-entry measures.
args <- commandArgs(TRUE)
suppressMessages(library(mlss, lib.loc = args[1]))
source("bench/common.R")
d <- load_mulan_set("enron"); y <- d$y[, colSums(d$y) > 0, drop = FALSE]
ym <- mlss:::mask_labels(y, 0.3, by = "entry", seed = 2020)$y
set.seed(1)
tt <- system.time(fit <- suppressWarnings(lewl(d$x, ym, approx = "nystrom", landmarks = 500)))
m <- hidden_entry_measures(y, is.na(ym), fit$recovered)
saveRDS(fit$recovered, paste0("/tmp/s37w/enron_rec_", args[2], ".rds"))
cat(args[2], "iterations", fit$iterations, "products", head(fit$eig_products, 3), "cpu", tt[1] + tt[2], "\n")
print(m)
