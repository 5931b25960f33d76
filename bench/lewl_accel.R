# The Anderson mixing of lewl()'s missing entries (issue 23, session s35):
# iterations, CPU seconds, final objective and recovery quality of the plain
# alternation (accel = 0) against Anderson mixing of depth 3, 5 and 10, at
# lewl()'s tol = 1e-6 and at a tight tol (1e-12), run from the package
# directory:  Rscript bench/lewl_accel.R
# Data: the first LEWL_ACC_N (default 600) rows of each set, a share `rate` of
# the label entries hidden (mask_labels(by = "entry", seed = 2020)); lewl()'s
# defaults (k = m, lambda = beta = 1, the exact kernel route).  Per run: the
# iterations, the Anderson steps refused by the safeguard, CPU s, the final
# objective, the hidden entries' micro AUC, and the largest difference of the
# completed matrix from the run with the lowest objective at the tight tol
# (the best estimate of the fixed point).
# Environment: LEWL_ACC_SETS ("emotions,yeast,medical,enron"), LEWL_ACC_RATES
# ("0.3,0.7"), LEWL_ACC_DEPTHS ("0,3,5,10"), LEWL_ACC_TIGHT ("TRUE"),
# LEWL_ACC_LIB (the build to time).
lib <- Sys.getenv("LEWL_ACC_LIB", "")
if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
suppressPackageStartupMessages({
  library(mlss)
  library(Matrix)
})
options(width = 160)
sets <- strsplit(Sys.getenv("LEWL_ACC_SETS", "emotions,yeast,medical,enron"), ",")[[1]]
rates <- as.numeric(strsplit(Sys.getenv("LEWL_ACC_RATES", "0.3,0.7"), ",")[[1]])
depths <- as.integer(strsplit(Sys.getenv("LEWL_ACC_DEPTHS", "0,3,5,10"), ",")[[1]])
nmax <- as.integer(Sys.getenv("LEWL_ACC_N", "600"))
tight <- as.logical(Sys.getenv("LEWL_ACC_TIGHT", "TRUE"))
root <- Sys.getenv("MLSS_SHARED", file.path("..", "shared"))
cat("lewl Anderson mixing; load:", readLines("/proc/loadavg"), "\n")
load_set <- function(name) {
  dir <- file.path(root, "data", "mulan", name)
  arff <- list.files(dir, "\\.arff$", full.names = TRUE)
  arff <- arff[!grepl("-(train|test)\\.arff$", arff)][1]
  read_mulan(arff, list.files(dir, "\\.xml$", full.names = TRUE)[1])
}
auc <- function(s, t) {
  r <- rank(s)
  np <- as.numeric(sum(t))
  (sum(r[t == 1]) - np * (np + 1) / 2) / (np * (length(t) - np))
}
rows <- list()
for (name in sets) {
  d <- load_set(name)
  n <- min(nmax, nrow(d$x))
  x <- d$x[seq_len(n), , drop = FALSE]
  truth <- d$y[seq_len(n), , drop = FALSE]
  keep <- colSums(truth) > 0 & colSums(truth) < n
  truth <- truth[, keep, drop = FALSE]
  prep <- mlss:::lewl_prepare(x, 10)
  for (rate in rates) {
    y <- mlss:::mask_labels(truth, rate, by = "entry", seed = 2020)$y
    miss <- is.na(y)
    fits <- list()
    for (tol in c(1e-6, if (tight) 1e-12)) for (a in depths) {
      tt <- system.time(f <- suppressWarnings(mlss:::lewl_solve(
        y, prep, ncol(y), 1, 1, "exact", 0.5, tol, if (tol < 1e-9) 3000L else 500L, accel = a)))
      fits[[length(fits) + 1]] <- list(tol = tol, accel = a, fit = f,
                                       cpu = tt[["user.self"]] + tt[["sys.self"]])
    }
    obj <- vapply(fits, function(u) tail(u$fit$objective, 1), 0)
    tights <- which(vapply(fits, function(u) u$tol, 0) < 1e-9)
    best <- if (length(tights)) tights[which.min(obj[tights])] else which.min(obj)
    for (i in seq_along(fits)) {
      u <- fits[[i]]
      rows[[length(rows) + 1]] <- data.frame(
        set = name, n = n, rate = rate, tol = u$tol, accel = u$accel,
        iterations = u$fit$iterations, converged = u$fit$converged,
        refused = u$fit$accel_rejected, cpu_s = round(u$cpu, 2),
        objective = sprintf("%.8f", obj[i]),
        micro_auc = round(auc(u$fit$recovered[miss], truth[miss]), 5),
        max_diff_best = signif(max(abs(u$fit$completed - fits[[best]]$fit$completed)), 3))
      print(rows[[length(rows)]], row.names = FALSE)
    }
  }
}
cat("\nAll:\n")
print(do.call(rbind, rows), row.names = FALSE)
