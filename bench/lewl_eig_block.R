# The eigensolver's block and depth (issue 23): one prepared kernel,
# lewl_solve() with tol = 0 for ITERS iterations per setting (extra columns
# b - k, Krylov depth), CPU s per iteration, the product columns per
# iteration and the final objective.  Data: bench/lewl_scale.R's
# enron-shaped rows, 30% hidden, lambda = beta = 1.
# * The Nystrom route (default): k = 27, 500 landmarks with the diagonal (the
#   default above n = 2500); settings LEWL_EB_SET ("10:3,5:3,20:3,10:2",
#   extra:depth).
#     LEWL_EB_LIB=<build> LEWL_EB_N=10000 LEWL_EB_ITERS=3 Rscript bench/lewl_eig_block.R
# * LEWL_EB_BASIS=TRUE (session s39): the exact kernel's eigenbasis (the
#   basis route, forced by options(mlss.lewl_eigen = "basis")), where a
#   product costs O(n c) and the eigensolver's own work (orthogonalisation,
#   Rayleigh-Ritz: O(n s^2), s = b (depth + 1)) dominates; k = m = 53;
#   defaults n = 2000, 5 iterations, settings "10:3,10:2,10:1,30:1,60:1".
# Session s40 added the restarts per iteration (from the products: b for the
# start block, b depth per restart, b = k + extra) and a third decimal.
lib <- Sys.getenv("LEWL_EB_LIB", "")
if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
source(file.path("bench", "common.R"))  # proc_cpu()
source(file.path("bench", "lewl_scale.R"))
basis <- as.logical(Sys.getenv("LEWL_EB_BASIS", "FALSE"))
if (basis) options(mlss.lewl_eigen = "basis")
n <- as.integer(Sys.getenv("LEWL_EB_N", if (basis) "2000" else "10000"))
iters <- as.integer(Sys.getenv("LEWL_EB_ITERS", if (basis) "5" else "3"))
sets <- strsplit(strsplit(Sys.getenv("LEWL_EB_SET", if (basis) "10:3,10:2,10:1,30:1,60:1"
                                     else "10:3,5:3,20:3,10:2"), ",")[[1]], ":")
cat("eigensolver block bench; route", if (basis) "basis" else if (n > mlss:::lewl_exact_max) "nystrom" else "iterative", "; n", n, "; load",
    readLines("/proc/loadavg"), "\n")
d <- bench_data(n)
k <- if (basis) ncol(d$y) else ceiling(ncol(d$y) / 2)
set.seed(1)
tp <- system.time(prep <- mlss:::lewl_prepare(d$x, 10))
cat("preparation:", tp[["user.self"]] + tp[["sys.self"]], "CPU s\n")
for (s in sets) {
  ex <- as.integer(s[1])
  dp <- as.integer(s[2])
  tt <- system.time(f <- suppressWarnings(mlss:::lewl_solve(d$y, prep, k, 1, 1, "exact", 0.5, 0,
                                                              iters, eig_extra = ex,
                                                              eig_depth = dp)))
  cat(sprintf("extra %d depth %d: %.3f CPU s / iteration; restarts %s; products %s; objective %s\n",
              ex, dp, proc_cpu(tt) / iters,
              paste(pmax(f$eig_products - (k + ex), 0) / ((k + ex) * dp), collapse = ", "),
              paste(f$eig_products, collapse = ", "),
              format(f$objective[iters], digits = 12)))
}
cat("load", readLines("/proc/loadavg"), "\n")
