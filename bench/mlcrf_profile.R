# Where the time of cv_mlcrf() on yeast goes (issue 25): Rprof over one fit at
# a low point of the default path, and a C-level timing of the pieces (one
# evaluation of the pseudo-likelihood and its gradient, its two products with
# the design, the stage-1 iterations).  Run from the package root with the
# package installed: Rscript bench/mlcrf_profile.R; results in
# bench/mlcrf_speed.md.  The machine is shared: CPU and elapsed are printed.
source(file.path("bench", "common.R"))
cat("mlcrf profile;", R.version.string, "; BLAS:", extSoftVersion()[["BLAS"]],
    "; load:", readLines("/proc/loadavg"), "; date:", format(Sys.time(), tz = "UTC"), "UTC\n")
x <- as.matrix(yeast$x[yeast$train, ])
y <- yeast$y[yeast$train, ]
cpu <- function(t) sprintf("%.2f s CPU (%.2f s elapsed)", t[["user.self"]] + t[["sys.self"]],
                           t[["elapsed"]])
t <- system.time(lv <- mlcrf(x, y, edges = "none")$lambda_v)
cat("lambda_v by CV (5 folds x 7 values, 14 labels):", cpu(t), "\n")
lmax <- mlss:::mlcrf_lambda_range(x, y, lv, 0.5)$lambda_max
prep <- mlss:::mlcrf_prepare(x, y, "full")
q <- prep$m + length(prep$from) * prep$K
theta <- matrix(rnorm((prep$d + 1) * q, sd = 0.01), prep$d + 1, q)
all <- seq_along(prep$from)
reps <- 20
t <- system.time(for (r in 1:reps) mlss:::mlcrf_call_objective(prep, all, lv, 0.1, 0.5, theta))
cat(sprintf("one evaluation of the pseudo-likelihood + gradient, all %d pairs (q = %d columns): %s per call\n",
            length(all), q, cpu(t / reps)))
B <- matrix(rnorm(prep$d * q), prep$d, q)
t <- system.time(for (r in 1:reps) P <- x %*% B)
cat(sprintf("  the product X B (n x d x q = %d x %d x %d) alone, R's BLAS: %s per product\n",
            nrow(x), prep$d, q, cpu(t / reps)))
t <- system.time(for (r in 1:reps) crossprod(x, P))
cat(sprintf("  the product X'P alone: %s per product\n", cpu(t / reps)))
Rprof(tf <- tempfile(), interval = 0.01)
t <- system.time(fit <- mlcrf(x, y, lambda_v = lv, lambda_w = 0.16 * lmax, eta = 0.5))
Rprof(NULL)
cat(sprintf("fit at lambda_max x 0.16: %d edges, stage-1 iterations %d (%d rounds), stage-2 iterations %d; %s\n",
            nrow(fit$edges), fit$convergence$stage1$iter, fit$convergence$stage1$rounds,
            fit$convergence$stage2$iter, cpu(t)))
s <- summaryRprof(tf)$by.total
print(head(s[, c("total.time", "total.pct", "self.time")], 12))

# The pseudo-likelihood and its gradient on all pairs, on enron (sparse x,
# 53 labels, 1378 pairs) and cal500 (dense, 174 labels, 15051 pairs): the
# evaluation through the potentials of every edge (mode 1) against the one
# per row over the positive labels (mode 2), the same numbers (checked).
for (name in c("enron", "cal500")) {
  d <- read_mulan(shared_data("mulan", name, paste0(name, ".arff")),
                  shared_data("mulan", name, paste0(name, ".xml")))
  prep <- mlss:::mlcrf_prepare(d$x, d$y, "full")
  nall <- length(prep$from)
  q <- prep$m + nall * prep$K
  set.seed(1)
  theta <- matrix(rnorm((prep$d + 1) * q, sd = 0.01), prep$d + 1, q)
  lv <- rep(0.01, prep$m)
  res <- list()
  for (mode in 1:2) {
    t <- system.time(res[[mode]] <- mlss:::mlcrf_call_objective(prep, seq_len(nall), lv, 0.1,
                                                                 0.5, theta, mode = mode))
    cat(sprintf("%s: one evaluation + gradient on all %d pairs (q = %d), mode %d: %s\n",
                name, nall, q, mode, cpu(t)))
  }
  cat(sprintf("  largest difference between the modes: value %.2g, gradient %.2g\n",
              abs(res[[1]]$value - res[[2]]$value),
              max(abs(res[[1]]$gradient - res[[2]]$gradient))))
}
