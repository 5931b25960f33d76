# The cost of cv_lewl()'s default grid on 2000 rows (issue 23), estimated from
# fold fits: Rscript bench/lewl_cv.R (LEWL_CV_LIB: the build to time).
# 2000 rows shaped like enron (bench/lewl_scale.R's bench_data(): enron's
# 1702 rows and 298 synthetic ones), 30% of the label entries hidden; one
# fold's training part (1600 rows, the first of 5 folds), lewl() at grid
# points of cv_lewl()'s default grid (lambda 10^(-1:1), beta c(0, 1, 10),
# k = ceiling(m / 2), m since issue 22; LEWL_CV_OLD_K=TRUE: the former
# ceiling(m / 4), ceiling(m / 2)), cold started as lewl() is.  The default
# grid costs 5 folds x 18 points such fits plus the refit; the estimate
# scales the mean fit by 91.  Environment: LEWL_CV_POINTS (rows of the grid,
# default "1,4,7,10,13,16": lambda 0.1 at every beta and k), LEWL_RELAX (the
# over-relaxation of the recovery step, options(mlss.lewl_relax); unset: the
# build's default; "1": none, the scheme before issue 23's second session),
# LEWL_CV_TOL (lewl()'s tol, default 1e-6), LEWL_CV_WARM ("TRUE": each point
# starts from the previous point's completed matrix and embedding, as
# cv_lewl(warm_start = TRUE) walks its grid; the first point cold),
# LEWL_CV_ACCEL (the depth of the Anderson mixing, options(mlss.lewl_accel);
# unset: the build's default; "0": the plain alternation).
lib <- Sys.getenv("LEWL_CV_LIB", "")
if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
source(file.path("bench", "lewl_scale.R"))
if (nzchar(Sys.getenv("LEWL_RELAX"))) options(mlss.lewl_relax = as.numeric(Sys.getenv("LEWL_RELAX")))
if (nzchar(Sys.getenv("LEWL_CV_ACCEL")))
  options(mlss.lewl_accel = as.integer(Sys.getenv("LEWL_CV_ACCEL")))
cat("accel", format(getOption("mlss.lewl_accel", "default")), "\n")
cat("cv_lewl bench; relax", format(getOption("mlss.lewl_relax", "default")), "; load",
    readLines("/proc/loadavg"), "\n")
d <- bench_data(2000)
m <- ncol(d$y)
grid <- expand.grid(lambda = 10^(-1:1), beta = c(0, 1, 10),
                    k = unique(as.integer(ceiling(m * if (as.logical(Sys.getenv(
                      "LEWL_CV_OLD_K", "FALSE"))) c(0.25, 0.5) else c(0.5, 1)))))
pts <- as.integer(strsplit(Sys.getenv("LEWL_CV_POINTS", "1,4,7,10,13,16"), ",")[[1]])
set.seed(1)
foldid <- sample(rep(1:5, length.out = 2000))
train <- foldid != 1
x <- d$x[train, ]
y <- d$y[train, ]
prep_t <- system.time(prep <- mlss:::lewl_prepare(x, 10))
cat("preparation of one fold:", prep_t[["elapsed"]], "s elapsed,",
    prep_t[["user.self"]] + prep_t[["sys.self"]], "s CPU\n")
tol <- as.numeric(Sys.getenv("LEWL_CV_TOL", "1e-6"))
warm <- as.logical(Sys.getenv("LEWL_CV_WARM", "FALSE"))
cat("tol", tol, "; warm start along the points", warm, "\n")
rows <- list()
prev <- NULL
for (g in pts) {
  p <- grid[g, ]
  tt <- system.time(fit <- suppressWarnings(
    mlss:::lewl_fit_prepared(x, y, prep, p$k, p$lambda, p$beta, "ridge", 0.1, "global",
                             "exact", 0.5, tol, 500, Z0 = if (warm) prev$Z,
                             start = if (warm) prev$completed)))
  prev <- fit
  r <- data.frame(point = g, lambda = p$lambda, beta = p$beta, k = p$k,
                  iterations = fit$iterations, refused = fit$accel_rejected,
                  objective = format(tail(fit$objective, 1), digits = 10),
                  cg_per_iter = mean(fit$cg_iterations), elapsed_s = tt[["elapsed"]],
                  cpu_s = tt[["user.self"]] + tt[["sys.self"]])
  print(r, row.names = FALSE)
  rows[[length(rows) + 1]] <- r
}
tab <- do.call(rbind, rows)
cat("mean fit:", mean(tab$cpu_s), "s CPU; the default grid (91 fits + 5 preparations):",
    round((91 * mean(tab$cpu_s) + 5 * (prep_t[["user.self"]] + prep_t[["sys.self"]])) / 60, 1),
    "min CPU (estimate)\n")
