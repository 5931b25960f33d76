# The Z-step's routes on the exact kernel, per iteration (issue 23, session
# s39): "dense" (M formed, dsyevr top k), "iterative" (block Krylov on
# products with H K H, O(n^2) per column) and "basis" (H K H = V diag(s) V'
# once per prepared kernel; the eigensolver on lambda diag(s) + F F', F = V'Yt,
# O(n c) per column; two n^2 c products per iteration), on one prepared
# kernel, lewl_solve() with tol = 0 for ITERS iterations each (k = m,
# lambda = beta = 1), and the preparation with and without the
# eigendecomposition.  Run from the package directory:
#   LEWL_EB_LIB=<build> LEWL_EB_N=1600 LEWL_EB_ITERS=5 Rscript bench/lewl_eigbasis.R
# Data: bench/lewl_scale.R's enron rows (30% of the label entries hidden).
# LEWL_EB_ROUTES ("dense,iterative,basis").
lib <- Sys.getenv("LEWL_EB_LIB", "")
if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
source(file.path("bench", "lewl_scale.R"))
n <- as.integer(Sys.getenv("LEWL_EB_N", "1600"))
iters <- as.integer(Sys.getenv("LEWL_EB_ITERS", "5"))
routes <- strsplit(Sys.getenv("LEWL_EB_ROUTES", "dense,iterative,basis"), ",")[[1]]
cpu <- function(tt) tt[["user.self"]] + tt[["sys.self"]]
cat("lewl Z-step routes; n", n, "; BLAS", extSoftVersion()[["BLAS"]], "; load",
    readLines("/proc/loadavg"), "\n")
d <- bench_data(n)
k <- ncol(d$y)
t0 <- system.time(prep0 <- mlss:::lewl_prepare(d$x, 10, eig_basis = FALSE))
te <- system.time(basis <- mlss:::lewl_hkh_eigen(prep0$K))
prep <- prep0
prep$basis <- basis
cat(sprintf("n %d, k %d: preparation %.2f CPU s, eigendecomposition of H K H %.2f CPU s; peak RSS %.0f MB\n",
            n, k, cpu(t0), cpu(te), peak_mb()))
for (r in routes) {
  tt <- system.time(f <- suppressWarnings(mlss:::lewl_solve(d$y, prep, k, 1, 1, "exact", 0.5, 0,
                                                              iters, eig_method = r)))
  cat(sprintf("%-9s %.3f CPU s / iteration (%.3f elapsed); products %s; objective %s\n", r,
              cpu(tt) / iters, tt[["elapsed"]] / iters, paste(f$eig_products, collapse = ", "),
              format(f$objective[iters], digits = 12)))
}
cat("peak RSS", round(peak_mb()), "MB; load", readLines("/proc/loadavg"), "\n")
