# The eigensolver's block and depth on the Nystrom route (issue 23): one
# prepared kernel, lewl_solve() with tol = 0 for ITERS iterations per
# setting (extra columns b - k, Krylov depth), CPU s per iteration, the
# product columns per iteration and the final objective.
#   LEWL_EB_LIB=<build> LEWL_EB_N=10000 LEWL_EB_ITERS=3 Rscript bench/lewl_eig_block.R
# Data: bench/lewl_scale.R's enron-shaped rows, 30% hidden, k = 27,
# lambda = beta = 1, 500 landmarks with the diagonal (the default above
# n = 2500).  Settings: LEWL_EB_SET ("10:3,5:3,20:3,10:2"; extra:depth).
lib <- Sys.getenv("LEWL_EB_LIB", "")
if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
source(file.path("bench", "lewl_scale.R"))
n <- as.integer(Sys.getenv("LEWL_EB_N", "10000"))
iters <- as.integer(Sys.getenv("LEWL_EB_ITERS", "3"))
sets <- strsplit(strsplit(Sys.getenv("LEWL_EB_SET", "10:3,5:3,20:3,10:2"), ",")[[1]], ":")
cat("eigensolver block bench; n", n, "; load", readLines("/proc/loadavg"), "\n")
d <- bench_data(n)
k <- ceiling(ncol(d$y) / 2)
set.seed(1)
prep <- mlss:::lewl_prepare(d$x, 10)
for (s in sets) {
  ex <- as.integer(s[1])
  dp <- as.integer(s[2])
  tt <- system.time(f <- suppressWarnings(mlss:::lewl_solve(d$y, prep, k, 1, 1, "exact", 0.5, 0,
                                                              iters, eig_extra = ex,
                                                              eig_depth = dp)))
  cat(sprintf("extra %d depth %d: %.2f CPU s / iteration; products %s; objective %s\n", ex, dp,
              (tt[["user.self"]] + tt[["sys.self"]]) / iters,
              paste(f$eig_products, collapse = ", "),
              format(f$objective[iters], digits = 12)))
}
cat("load", readLines("/proc/loadavg"), "\n")
