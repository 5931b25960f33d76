# The projected Z-step's Ritz residuals against theta_k (session s37, issue 23):
#   LEWL_PR_LIB=<build> Rscript bench/lewl_projected_resid.R
# On the Nystrom route with its diagonal (500 landmarks, set.seed(1)), k = m,
# lambda = beta = 1: three iterations, then one projected Z-step
# (eig_method = "projected") at the completed matrix, and the residuals
# ||M z - theta z|| of its k Ritz pairs from products with M = Yt Yt' +
# G G' + H diag(dg) H in plain R.  Prints theta_1, theta_k, the largest
# residual, the largest over theta_1 ("rel") and the k-th residual; the
# ratio lewl()'s "auto" bounds (0.005) is the largest residual over theta_k.
# Sets: medical, enron, yeast at the protocol's masks (rates 0.3, 0.7,
# mask_labels(seed = 2020)), and bench/lewl_scale.R's rows at 5000 and 20000.
lib <- Sys.getenv("LEWL_PR_LIB", "")
if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
suppressPackageStartupMessages(library(mlss))
source("bench/common.R"); source("bench/lewl_scale.R")
res <- function(x, y, label) {
  set.seed(1)
  prep <- mlss:::lewl_prepare(x, 10, approx = "nystrom")
  k <- ncol(y)
  f <- suppressWarnings(mlss:::lewl_solve(y, prep, k, 1, 1, "exact", 0.5, 0, 3))
  Yt <- f$completed; Z <- f$Z; G <- prep$G; dg <- prep$dg
  hd <- function(V) { V <- sweep(V, 2, colMeans(V)); V <- V * dg; sweep(V, 2, colMeans(V)) }
  # Z after the last iteration's Z-step used Yt before the last recovery; recompute one step
  f1 <- suppressWarnings(mlss:::lewl_solve(y, prep, k, 1, 1, "exact", 0.5, 0, 1, start = Yt,
                                            eig_method = "projected"))
  Z <- f1$Z; th <- f1$values
  MZ <- Yt %*% crossprod(Yt, Z) + G %*% crossprod(G, Z) + hd(Z)
  r <- sqrt(colSums((MZ - Z * rep(th, each = nrow(Z)))^2))
  cat(label, "n", nrow(x), "k", k, "theta1", th[1], "theta_k", th[k], "max resid", max(r), "rel", max(r) / th[1],
      "resid_k", r[k], "max dg", max(dg), "\n")
}
for (nm in c("medical", "enron", "yeast")) {
  d <- load_mulan_set(nm); y <- d$y[, colSums(d$y) > 0, drop = FALSE]
  for (rate in c(0.3, 0.7)) res(d$x, mlss:::mask_labels(y, rate, by = "entry", seed = 2020)$y, paste(nm, rate))
}
for (n in c(5000, 20000)) { d <- bench_data(n); res(d$x, d$y, paste("bench", n)) }
