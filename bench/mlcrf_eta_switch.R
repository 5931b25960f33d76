# The first grid point of cv_mlcrf()'s second eta (issue 25): the engine
# walks the grid eta by eta, each from the largest lambda_w down, so with
# warm starts the first point of eta = 1 (lambda_max) started from the last,
# densest fit of eta = 0.5.  Here, on the fold of bench/mlcrf_fold_path.R
# (1200 of yeast's 1500 training rows, lambda_v as cv_mlcrf() chooses it),
# at the fold fits' tolerance 1e-4: that start against a cold one.  Run from
# the package root with the package installed: Rscript bench/mlcrf_eta_switch.R
library(mlss)
ns <- asNamespace("mlss")
cat("mlcrf eta switch;", R.version.string, "; load:", readLines("/proc/loadavg"), "\n")
x <- yeast$x[yeast$train, ]
y <- yeast$y[yeast$train, ]
set.seed(1)
lv <- mlcrf(x, y, edges = "none", progress = FALSE)$lambda_v
set.seed(2)
tr <- sample(nrow(x), 1200)
lmax <- max(vapply(c(0.5, 1), function(e)
  ns$mlcrf_lambda_range(x[tr, ], y[tr, ], lv, e)$lambda_max, 0))
lams <- lmax * 10^seq(0, -2, length.out = 6)
cpu <- function(t) t[["user.self"]] + t[["sys.self"]]
t <- system.time(dense <- mlcrf(x[tr, ], y[tr, ], lambda_v = lv, lambda_w = lams[6], eta = 0.5,
                                tol = 1e-4, progress = FALSE))
cat(sprintf("eta = 0.5 at the last point (%.4g): %d edges, %.2f s CPU\n", lams[6],
            nrow(dense$edges), cpu(t)))
for (start in c("from that fit", "cold")) {
  init <- if (start == "cold") NULL else dense
  t <- system.time(f <- mlcrf(x[tr, ], y[tr, ], lambda_v = lv, lambda_w = lams[1], eta = 1,
                              init = init, tol = 1e-4, progress = FALSE))
  cat(sprintf("eta = 1 at the first point (%.4g), %s: %d edges, %.2f s CPU, stage-1 iterations %d, stage-2 objective %.7g\n",
              lams[1], start, nrow(f$edges), cpu(t), f$convergence$stage1$iter,
              f$convergence$stage2$objective))
}
cat("load:", readLines("/proc/loadavg"), "\n")
