# One whole lewl() fit at n = 20000 (issue 23's goal: under two minutes and
# 2 GB on a 2-core machine): bench/lewl_scale.R's enron-shaped rows, 30%
# hidden, lewl() defaults (k = m, lambda = beta = 1, tol = 1e-6, 500
# landmarks above n = 2500) unless set:
#   LEWL_FIT_LIB=<build> LEWL_FIT_N=20000 LEWL_FIT_DIAG=TRUE Rscript bench/lewl_fit_large.R
# LEWL_FIT_DIAG=FALSE: options(mlss.lewl_nystrom_diag = FALSE), the Gram
# route; LEWL_FIT_K: "m" (default) or "half" (ceiling(m / 2)).  Prints the
# preparation and the fit's CPU and elapsed seconds, the iterations, the
# peak RSS (VmHWM) and the hidden entries' micro AUC and AP.
# LEWL_FIT_ACCEL: the depth of the Anderson mixing (options(mlss.lewl_accel);
# unset: the build's default; "0": the plain alternation); LEWL_FIT_TOL:
# lewl()'s tol (default 1e-6).  LEWL_FIT_RPROF: a file for Rprof() of the fit;
# then the fit's time by its parts (preparation, alternation, regression, the
# rest) is printed (session s38).
lib <- Sys.getenv("LEWL_FIT_LIB", "")
if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
source(file.path("bench", "lewl_scale.R"))
n <- as.integer(Sys.getenv("LEWL_FIT_N", "20000"))
diag_on <- as.logical(Sys.getenv("LEWL_FIT_DIAG", "TRUE"))
options(mlss.lewl_nystrom_diag = diag_on)
if (nzchar(Sys.getenv("LEWL_FIT_ACCEL")))
  options(mlss.lewl_accel = as.integer(Sys.getenv("LEWL_FIT_ACCEL")))
tol <- as.numeric(Sys.getenv("LEWL_FIT_TOL", "1e-6"))
cat("accel", format(getOption("mlss.lewl_accel", "default")), "; tol", tol, "\n")
cat("lewl whole fit; n", n, "; diagonal", diag_on, "; load", readLines("/proc/loadavg"), "\n")
d <- bench_data(n)
k <- if (Sys.getenv("LEWL_FIT_K", "m") == "half") ceiling(ncol(d$y) / 2) else ncol(d$y)
set.seed(1)
rprof <- Sys.getenv("LEWL_FIT_RPROF")
if (nzchar(rprof)) Rprof(rprof, interval = 0.1)
tt <- system.time(fit <- withCallingHandlers(lewl(d$x, d$y, k = k, tol = tol),
                                             warning = function(w) {
                                               cat("warning:", conditionMessage(w), "\n")
                                               invokeRestart("muffleWarning")
                                             }))
if (nzchar(rprof)) {
  Rprof(NULL)
  tot <- summaryRprof(rprof)$by.total
  parts <- c("lewl_prepare", "lewl_solve", "lewl_regression", "lewl_thresholds")
  cat("Rprof seconds by part (of", tot["\"lewl.default\"", "total.time"], "in lewl.default):",
      paste(parts, tot[paste0("\"", parts, "\""), "total.time"]), "\n")
}
miss <- is.na(d$y)
s <- fit$recovered[miss]
t <- d$truth[miss]
r <- rank(s)
np <- as.numeric(sum(t))  # double: np * (N - np) overflows an integer at n = 20000
auc <- (sum(r[t == 1]) - np * (np + 1) / 2) / (np * (length(t) - np))
o <- order(-s)
ap <- mean((cumsum(t[o]) / seq_along(o))[t[o] == 1])
cat("k", k, "; route", fit$approx, "; iterations", fit$iterations, "; converged", fit$converged,
    "\nwhole lewl() (preparation included):", tt[["user.self"]] + tt[["sys.self"]], "s CPU,",
    tt[["elapsed"]], "s elapsed; peak RSS", round(peak_mb()), "MB",
    "\nhidden entries: micro AUC", format(auc, digits = 5), "AP", format(ap, digits = 5),
    "\nAnderson steps", fit$accel_steps, "; refused", fit$accel_rejected,
    "; eigensolver products per iteration (mean)", round(mean(fit$eig_products), 1),
    "; final objective", format(tail(fit$objective, 1), digits = 12),
    "\nload", readLines("/proc/loadavg"), "\n")
