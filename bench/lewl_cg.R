# The recovery step's CG (issue 23): CG iterations and CPU seconds per
# alternating iteration of lewl_solve() on bench/lewl_scale.R's data, k = m,
# with the graph (beta = 1) and without it (beta = 0: the Z-step alone), from
# the package directory:  Rscript bench/lewl_cg.R
# Environment: LEWL_CG_N (rows, "2000"), LEWL_CG_ITERS ("3"), LEWL_SCALE_LIB
# (the build to time).

source("bench/lewl_scale.R")
n <- as.integer(Sys.getenv("LEWL_CG_N", "2000")); it <- as.integer(Sys.getenv("LEWL_CG_ITERS", "3"))
d <- bench_data(n)
k <- ncol(d$y)
cpu <- function(tt) round(tt[["user.self"]] + tt[["sys.self"]], 2)
set.seed(1)
tp <- system.time(prep <- mlss:::lewl_prepare(d$x, 10))
cat("n", n, "k", k, "route", prep$route, "prep cpu", cpu(tp), "\n")
tt <- system.time(f <- suppressWarnings(mlss:::lewl_solve(d$y, prep, k, 1, 1, "exact", 0.5, 0, it)))
cat("beta=1 cpu/iter", cpu(tt) / it, " cg", f$cg_iterations, " eigprod", f$eig_products, "\n")
t0 <- system.time(f0 <- suppressWarnings(mlss:::lewl_solve(d$y, prep, k, 1, 0, "exact", 0.5, 0, it)))
cat("beta=0 cpu/iter", cpu(t0) / it, " eigprod", f0$eig_products, "\n")
cat("peak MB", peak_mb(), "\n")
