# cv_lewl()'s whole default grid on 2000 rows (issue 23's goal: under two
# minutes), timed: Rscript bench/lewl_cv_grid.R (LEWL_GRID_LIB: the build).
# Data: bench/lewl_scale.R's 2000 enron rows, 30% of the label entries
# hidden; cv_lewl(x, y) with every default (5 folds, lambda 10^(-1:1), beta
# c(0, 1, 10), k = ceiling(m * c(1/2, 1)): 18 points), set.seed(1).  Each
# fold fit (and the refit) is logged as it ends: its grid point, iterations
# and the process's CPU (user + sys, children included) and elapsed time so
# far, so that a run stopped early still says how far it got.
# Environment (session 40): LEWL_GRID_BETA ("0,1,10": the grid of before
#   session 40; default cv_lewl()'s own), LEWL_GRID_PARALLEL (cv_lewl's
#   `parallel`, e.g. 2: forked folds, whose fits log from the children),
#   LEWL_GRID_WARM ("TRUE": warm_start = TRUE), LEWL_GRID_ACCEL ("TRUE":
#   options(mlss.lewl_accel = 10, mlss.lewl_stop = "settled")).  At the end:
#   the fold fits' iterations and CPU per beta (each fit's own CPU, from its
#   entry to its exit), summed in this process (not the children's).
#   LEWL_GRID_N (2000): the rows, fewer for a smoke test.
#   Session 41: LEWL_GRID_EIGTOL (options(mlss.lewl_cv_eig_tol): the fold
#   fits' eigensolver tolerance, default cv_lewl()'s 1e-6; 1e-10 as lewl());
#   LEWL_GRID_SAVE (a file: saveRDS() of the grid, cvm and cvsd, to compare runs).
#   Session 42: LEWL_GRID_ACCEL = "objective" (options(mlss.lewl_accel = 10)
#   with the default stopping test on the objective); LEWL_GRID_COLDZ (set:
#   every fit's eigensolver started cold, Z0 dropped by the tracer, to price
#   the warm starts along the grid).  With parallel workers the end also
#   prints cv$schedule (the pieces' own CPU) and the CPU of this process and
#   of its children apart.
lib <- Sys.getenv("LEWL_GRID_LIB", "")
if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
source(file.path("bench", "common.R"))  # cpu_seconds()
source(file.path("bench", "lewl_scale.R"))
cat("cv_lewl default grid, 2000 rows; BLAS", extSoftVersion()[["BLAS"]], "; LAPACK",
    La_library(), "; load", readLines("/proc/loadavg"), "\n")
d <- bench_data(as.integer(Sys.getenv("LEWL_GRID_N", "2000")))  # fewer: a smoke test
c0 <- cpu_seconds()
e0 <- proc.time()[["elapsed"]]
nfit <- 0L
fits <- NULL
t_in <- 0
log_fit <- quote({
  nfit <<- nfit + 1L
  f <- returnValue()
  fits <<- rbind(fits, data.frame(beta = beta, iterations = f$iterations,
                                  converged = f$converged, cpu = cpu_seconds() - t_in))
  cat(sprintf("fit %3d: lambda %g beta %g k %d: %d iterations; %.1f CPU s, %.1f s elapsed so far; load %s\n",
              nfit, lambda, beta, k, f$iterations, cpu_seconds() - c0,
              proc.time()[["elapsed"]] - e0, readLines("/proc/loadavg")))
})
entry <- if (nzchar(Sys.getenv("LEWL_GRID_COLDZ"))) {
  quote({t_in <<- cpu_seconds(); Z0 <- NULL})
} else {
  quote(t_in <<- cpu_seconds())
}
suppressMessages(trace(mlss:::lewl_solve, tracer = entry, exit = log_fit,
                       print = FALSE, where = asNamespace("mlss")))
env_beta <- Sys.getenv("LEWL_GRID_BETA", "")
cv_args <- list(x = quote(d$x), y = quote(d$y), progress = FALSE,
                parallel = as.numeric(Sys.getenv("LEWL_GRID_PARALLEL", "0")),
                warm_start = as.logical(Sys.getenv("LEWL_GRID_WARM", "FALSE")))
if (nzchar(env_beta)) cv_args$beta <- as.numeric(strsplit(env_beta, ",")[[1]])
if (cv_args$parallel < 2) cv_args$parallel <- FALSE
if (nzchar(Sys.getenv("LEWL_GRID_EIGTOL")))
  options(mlss.lewl_cv_eig_tol = as.numeric(Sys.getenv("LEWL_GRID_EIGTOL")))
accel_env <- Sys.getenv("LEWL_GRID_ACCEL", "FALSE")
if (accel_env == "objective") {
  options(mlss.lewl_accel = 10)
} else if (as.logical(accel_env)) {
  options(mlss.lewl_accel = 10, mlss.lewl_stop = "settled")
}
cat("cv_lewl arguments:", deparse(cv_args[-(1:2)]), "; beta grid",
    deparse(if (is.null(cv_args$beta)) formals(cv_lewl)$beta else cv_args$beta),
    "; options(mlss.lewl_accel)", format(getOption("mlss.lewl_accel", "unset")),
    "mlss.lewl_stop", format(getOption("mlss.lewl_stop", "unset")),
    "mlss.lewl_cv_eig_tol", format(getOption("mlss.lewl_cv_eig_tol", "unset")), "\n")
set.seed(1)
cv <- suppressWarnings(do.call("cv_lewl", cv_args))
cat(sprintf("cv_lewl done: %.1f CPU s (%.2f min), %.1f s elapsed; %d fits; peak RSS %.0f MB\n",
            cpu_seconds() - c0, (cpu_seconds() - c0) / 60, proc.time()[["elapsed"]] - e0, nfit, peak_mb()))
print(cv)
if (!is.null(cv$schedule)) {
  cat("schedule:\n")
  print(cv$schedule)
}
pt <- proc.time()
cat(sprintf("CPU self %.1f, children %.1f\n", pt[["user.self"]] + pt[["sys.self"]],
            pt[["user.child"]] + pt[["sys.child"]]))
if (nzchar(Sys.getenv("LEWL_GRID_SAVE")))
  saveRDS(list(grid = cv$grid, cvm = cv$cvm, cvsd = cv$cvsd), Sys.getenv("LEWL_GRID_SAVE"))
if (NROW(fits) > 1) {  # with parallel, the fold fits ran in the children
  fold <- seq_len(nrow(fits)) < nrow(fits)  # the last fit is the refit
  cat("fold fits per beta (this process):\n")
  print(do.call(rbind, lapply(split(fits[fold, ], fits$beta[fold]), function(f)
    data.frame(beta = f$beta[1], fits = nrow(f), not_converged = sum(!f$converged),
               iter_median = median(f$iterations), iter_min = min(f$iterations),
               iter_max = max(f$iterations), cpu = round(sum(f$cpu), 1)))), row.names = FALSE)
}
cat("load", readLines("/proc/loadavg"), "\n")
