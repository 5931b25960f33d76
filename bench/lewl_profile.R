# Where an iteration of lewl()'s default route goes at n rows (issue 23,
# session s38): bench/lewl_scale.R's enron-shaped rows, 30% hidden, k = m =
# 53, the Nystrom factor with its diagonal (500 landmarks, set.seed(1)),
# tol = 0 so that exactly ITERS iterations run.  Prints the preparation's and
# the alternation's CPU seconds; run on a build with the timers of
# bench/lewl_profile_timers.diff (patch -p1 < bench/lewl_profile_timers.diff
# on a copy of the package, R CMD INSTALL it into LIB) it also prints the
# CPU seconds of the pieces of lewl_run() summed over the iterations
# ("TIMERS": proj_prepare() once per run, the Z-step, the D-step, the
# recovery step, the objective; inside the projected Z-step: the pass over
# the missing entries for G'[Yt, dg Yt], Yt'[Yt, dg Yt], Z = G XG, the rest
# of Z, the residuals, the orthonormalisation).  Saves the objectives, the
# completed matrix and Z to OUT, to compare builds.
#   LIB=<build> N=20000 ITERS=6 OUT=/tmp/prof.rds nice -n 15 Rscript bench/lewl_profile.R
lib <- Sys.getenv("LIB")
if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
source(file.path("bench", "lewl_scale.R"))
d <- bench_data(as.integer(Sys.getenv("N", "20000")))
k <- ncol(d$y)
cpu <- function(tt) tt[["user.self"]] + tt[["sys.self"]]
set.seed(1)
tp <- system.time(prep <- mlss:::lewl_prepare(d$x, 10))
cat("prep CPU", cpu(tp), "\n")
it <- as.integer(Sys.getenv("ITERS", "6"))
tt <- system.time(fit <- suppressWarnings(mlss:::lewl_solve(d$y, prep, k, 1, 1, "exact", 0.5,
                                                            0, it, accel = 0L)))
cat("solve", it, "iterations CPU", cpu(tt), "; per iter", cpu(tt) / it, "; products",
    fit$eig_products, "; cg", fit$cg_iterations, "; load", readLines("/proc/loadavg"), "\n")
saveRDS(list(obj = fit$objective, Yt = fit$completed, Z = fit$Z),
        Sys.getenv("OUT", "/tmp/lewl_profile.rds"))
