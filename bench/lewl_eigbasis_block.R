# The eigensolver's block and depth on the basis route (issue 23, session
# s39): the exact kernel's eigenbasis, where a product costs O(n c) and the
# eigensolver's own work (orthogonalisation, Rayleigh-Ritz: O(n s^2), s =
# b (depth + 1)) dominates.  One prepared kernel, lewl_solve() with tol = 0
# for ITERS iterations per setting (extra columns b - k, Krylov depth): CPU s
# per iteration, product columns per iteration, the final objective.
#   LEWL_EB_LIB=<build> LEWL_EB_N=2000 LEWL_EB_ITERS=5 Rscript bench/lewl_eigbasis_block.R
# Data: bench/lewl_scale.R's enron rows, 30% hidden, k = m = 53,
# lambda = beta = 1.  Settings: LEWL_EB_SET ("10:3,10:2,10:1,30:1,60:1").
lib <- Sys.getenv("LEWL_EB_LIB", "")
if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
source(file.path("bench", "lewl_scale.R"))
n <- as.integer(Sys.getenv("LEWL_EB_N", "2000"))
iters <- as.integer(Sys.getenv("LEWL_EB_ITERS", "5"))
sets <- strsplit(strsplit(Sys.getenv("LEWL_EB_SET", "10:3,10:2,10:1,30:1,60:1"), ",")[[1]], ":")
cat("basis-route eigensolver block bench; n", n, "; load", readLines("/proc/loadavg"), "\n")
d <- bench_data(n)
k <- ncol(d$y)
tp <- system.time(prep <- mlss:::lewl_prepare(d$x, 10))
cat("preparation (with the eigendecomposition):", tp[["user.self"]] + tp[["sys.self"]], "CPU s\n")
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
