# Diagnostic for the CCA+SVM rows of bench/mlls_yahoo_results.md (issue 27): on the
# 1000 training pages of Arts split 1 (the split of bench/mlls_yahoo.R), the rank of
# the centred pages (eigenvalues of their centred Gram matrix: n - 1 non-zero means
# unregularised CCA correlates perfectly) and the regularised canonical correlations
# of cca_svm() over lambda.  Run: R_LIBS=lib nice Rscript bench/mlls_yahoo_cca_cor.R
source(file.path("bench", "common.R"))
d <- load_yahoo("arts")
s <- 1
set.seed(2007 + s)
repeat { tr <- seq_len(nrow(d$x)) %in% sample.int(nrow(d$x), 1000); if (all(colSums(d$y[tr, , drop = FALSE]) > 0)) break }
x <- d$x[tr, ]; y <- d$y[tr, ]
K <- as.matrix(tcrossprod(x)); H <- diag(nrow(K)) - 1 / nrow(K); ev <- eigen(H %*% K %*% H, symmetric = TRUE, only.values = TRUE)$values
cat("eigenvalues of the centred Gram matrix: largest", ev[1], ", the (n-1)-th", ev[length(ev) - 1], ", the n-th", ev[length(ev)], "\n")
for (l in c(1e-6, 1e-3, 1, 10)) {
  f <- suppressWarnings(cca_svm(x, y, lambda = l, cost = 1, loss = "hinge"))
  cat("lambda", l, ": regularised canonical correlations", format(range(f$cor), digits = 4), "\n")
}
