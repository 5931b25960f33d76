# One fold's path of cv_mlcrf() on yeast's training part (issue 25): the six
# default points of lambda_w at eta = 0.5, warm-started as the engine does,
# on 1200 of the 1500 rows, with every call of the C solver logged (stage:
# 1 FISTA, 2 the refit, 3 the L-BFGS polish of stage 1; the edges, the
# evaluations and the CPU seconds).  Where cv_mlcrf()'s time goes, per fit;
# run from the package root with the package installed:
#   Rscript bench/mlcrf_fold_path.R     (MLCRF_PATH_POINTS: how many points, 6;
#   MLCRF_PATH_TOL: the fits' tol, 1e-6; MLCRF_PATH_ETA: eta, 0.5)
# Each point also prints the held-out log-likelihood loss of the 300 other
# rows (exact inference), the quantity cv_mlcrf() chooses by.
# Results in bench/mlcrf_speed.md.  lambda_v is chosen once (set.seed(1)),
# as cv_mlcrf() does, and cached in tempdir() for a second run.
library(mlss)
ns <- asNamespace("mlss")
cat("mlcrf fold path;", R.version.string, "; load:", readLines("/proc/loadavg"), "; date:",
    format(Sys.time(), tz = "UTC"), "UTC\n")
x <- yeast$x[yeast$train, ]
y <- yeast$y[yeast$train, ]
set.seed(1)
lv <- mlcrf(x, y, edges = "none", progress = FALSE)$lambda_v
calls <- new.env()
calls$rows <- list()
orig <- ns$mlcrf_call_fit
logged <- function(prep, which, lambda_v, lambda_w, eta, theta, stage, tol, max_iter,
                   mode = 0L, say = NULL) {
  t <- system.time(r <- orig(prep, which, lambda_v, lambda_w, eta, theta, stage, tol, max_iter,
                             mode, say))
  calls$rows[[length(calls$rows) + 1L]] <- data.frame(
    stage = stage, edges = length(which), tol = tol, max_iter = max_iter, evaluations = r$iter,
    status = r$status, cpu = t[["user.self"]] + t[["sys.self"]])
  r
}
unlockBinding("mlcrf_call_fit", ns)
assign("mlcrf_call_fit", logged, ns)
set.seed(2)
tr <- sample(nrow(x), 1200)
lmax <- max(vapply(c(0.5, 1), function(e)
  ns$mlcrf_lambda_range(x[tr, ], y[tr, ], lv, e)$lambda_max, 0))
lams <- lmax * 10^seq(0, -2, length.out = 6)
init <- NULL
total <- 0
tol <- as.numeric(Sys.getenv("MLCRF_PATH_TOL", "1e-6"))
eta <- as.numeric(Sys.getenv("MLCRF_PATH_ETA", "0.5"))
cat("tol", tol, "eta", eta, "\n")
for (k in seq_len(as.integer(Sys.getenv("MLCRF_PATH_POINTS", "6")))) {
  calls$rows <- list()
  t <- system.time(f <- mlcrf(x[tr, ], y[tr, ], lambda_v = lv, lambda_w = lams[k], eta = eta,
                              init = init, tol = tol, progress = FALSE))
  init <- f
  cpu <- t[["user.self"]] + t[["sys.self"]]
  total <- total + cpu
  ll <- -sum(log(pmax(predict(f, x[-tr, ], type = "prob", y = y[-tr, ]), 1e-300)))
  cat(sprintf("point %d, lambda_w %.4g: %d edges, %.2f s CPU, stage-2 objective %.7g, held-out log loss %.4f\n", k,
              lams[k], nrow(f$edges), cpu, f$convergence$stage2$objective, ll))
  print(do.call(rbind, calls$rows))
}
cat(sprintf("the path: %.1f s CPU; load %s\n", total, readLines("/proc/loadavg")))
