# cv_lewl()'s beta grid (issue 23): what beta = 0 costs and whether it is
# ever chosen.  Per set, cv_lewl() with the default lambda (10^(-1:1)) and k
# (ceiling(m * c(1/2, 1))) grids and beta = c(0, 0.1, 1, 10, 100), 5 folds
# (set.seed(1); ml_folds), 30% of the label entries hidden (mask_labels(by =
# "entry", seed = 1)), every other argument at its default.  Recorded per fold
# fit (tracing mlss:::lewl_fit_prepared): its grid point and fold, its
# iterations and convergence, its CPU seconds (user + sys: the solve, the
# regression and the thresholds; each fold's kNN graph and kernel are shared
# by the grid and counted apart), and the average precision of the fold's
# hidden training entries recovered by $completed against their true values
# (a second criterion, the recovery the method is built for).  Per set: the
# cv object's cvm, se, best and 1-SE points, the warnings.
# Sets (features as load_weak_label_set() prepares them: dense ones
# standardised, sparse ones as they are; labels without a positive in the
# rows dropped): emotions (all 593 rows), scene (first 1000 rows of
# scene-train.arff), yeast, medical and enron (first 1000 / 978 rows).
# Resumable: one .rds per set in bench/lewl_beta_grid_rds/ (LEWL_BG_OUT); two processes may
# run at once (each claims the next set not done by creating a directory).
#   OB=/usr/lib/x86_64-linux-gnu/openblas-pthread; OPENBLAS_NUM_THREADS=1 \
#   LD_PRELOAD="$OB/libblas.so.3 $OB/liblapack.so.3" LEWL_BG_LIB=/tmp/lib \
#   nice -n 15 Rscript bench/lewl_beta_grid.R [sets]
# The tables: Rscript bench/lewl_beta_grid_report.R.
lib <- Sys.getenv("LEWL_BG_LIB", "")
if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
source(file.path("bench", "common.R"))
args <- commandArgs(trailingOnly = TRUE)
sets <- if (length(args)) args else c("emotions", "scene", "yeast", "medical", "enron")
betas <- c(0, 0.1, 1, 10, 100)
out <- Sys.getenv("LEWL_BG_OUT", file.path("bench", "lewl_beta_grid_rds"))
cap <- as.numeric(Sys.getenv("LEWL_BG_N", "Inf"))  # a smoke test on fewer rows
dir.create(out, showWarnings = FALSE)

load_set <- function(name) load_lewl_grid_set(name, cap)
# average precision of the scores s for the logical truth t
avg_prec <- function(s, t) {
  o <- order(s, decreasing = TRUE)
  t <- t[o]
  if (!any(t)) return(NA_real_)
  mean((cumsum(t) / seq_along(t))[t])
}

# The trace's expressions run in lewl_fit_prepared's frame, whose enclosure
# (the namespace) reaches the global environment: the state lives there.
bg <- new.env()
bg_enter <- function() bg$t_in <- cpu_seconds()
bg_record <- function(fit, y, lambda, beta, k) {
  f <- if (nrow(y) == bg$n) 0L else
    Find(function(f) identical(unname(is.na(y)),
                               unname(is.na(bg$y[bg$foldid != f, , drop = FALSE]))), 1:5)
  tr <- if (f == 0L) seq_len(bg$n) else which(bg$foldid != f)
  miss <- is.na(y)
  bg$fits[[length(bg$fits) + 1L]] <- data.frame(
    fold = f, lambda = lambda, beta = beta, k = k, iterations = fit$iterations,
    converged = fit$converged, cpu = cpu_seconds() - bg$t_in,
    ap = avg_prec(fit$completed[miss], bg$truth[tr, , drop = FALSE][miss]))
}

run_set <- function(name) {
  d <- load_set(name)
  n <- nrow(d$x)
  set.seed(1)
  foldid <- mlss:::ml_folds(d$y, 5)
  bg$n <- n; bg$y <- d$y; bg$truth <- d$truth; bg$foldid <- foldid; bg$fits <- list()
  ns <- asNamespace("mlss")
  suppressMessages(trace(mlss:::lewl_fit_prepared, tracer = quote(bg_enter()),
                         exit = quote(bg_record(returnValue(), y, lambda, beta, k)),
                         print = FALSE, where = ns))
  on.exit(suppressMessages(untrace(mlss:::lewl_fit_prepared, where = ns)))
  warns <- character()
  c0 <- cpu_seconds()
  cat(sprintf("%s: %d x %d, m = %d; load %s\n", name, n, ncol(d$x), ncol(d$y),
              readLines("/proc/loadavg")))
  cv <- withCallingHandlers(
    cv_lewl(d$x, d$y, beta = betas, foldid = foldid, progress = FALSE),
    warning = function(w) {
      warns <<- c(warns, conditionMessage(w))
      invokeRestart("muffleWarning")
    })
  total <- cpu_seconds() - c0
  list(name = name, n = n, p = ncol(d$x), m = ncol(d$y), fits = do.call(rbind, bg$fits),
       grid = cv$grid, cvm = as.vector(cv$cvm), cvsd = as.vector(cv$cvsd), best = cv$best,
       best_1se = cv$best_1se, chosen = cv$chosen, warnings = warns, cpu = total,
       load = readLines("/proc/loadavg"), blas = extSoftVersion()[["BLAS"]],
       date = format(Sys.time(), tz = "UTC", usetz = TRUE))
}

for (nm in sets) {
  file <- file.path(out, paste0(nm, ".rds"))
  if (file.exists(file) || !dir.create(file.path(out, paste0(nm, ".claim")),
                                       showWarnings = FALSE)) next
  r <- run_set(nm)
  saveRDS(r, file)
  cat(sprintf("%s done: %.1f CPU s; best %s, 1se %s; load %s\n", nm, r$cpu,
              paste(format(r$grid[r$best, ]), collapse = " "),
              paste(format(r$grid[r$best_1se, ]), collapse = " "), r$load))
}
