# One fit's stopping-test inputs per iteration (issue 23): medical, 30%
# hidden (bench/lewl_nystrom.R's mask), the Nystrom route with its diagonal
# (500 landmarks, set.seed(1)), Anderson depth 10, tol 0, 150 iterations:
# the objective's relative change, $steps and $rates.
#   nice -n 15 Rscript bench/lewl_stop_diag.R   (LEWL_DIAG_LIB: the build;
#   LEWL_DIAG_ACCEL: the depth, default 10, 0 the plain scheme; LEWL_DIAG_ITERS: 150)
lib <- Sys.getenv("LEWL_DIAG_LIB", "")
if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
suppressPackageStartupMessages({library(mlss); library(Matrix)})
dir <- file.path(Sys.getenv("MLSS_SHARED", file.path("..", "shared")), "data", "mulan", "medical")
arff <- list.files(dir, "\\.arff$", full.names = TRUE); arff <- arff[!grepl("-(train|test)\\.arff$", arff)][1]
d <- read_mulan(arff, list.files(dir, "\\.xml$", full.names = TRUE)[1])
y <- d$y[, colSums(d$y) > 0, drop = FALSE]
ymiss <- mlss:::mask_labels(y, 0.3, by = "entry", seed = 2020)$y
set.seed(1)
prep <- mlss:::lewl_prepare(as.matrix(d$x), 10, approx = "nystrom", landmarks = 500)
options(mlss.lewl_accel = as.integer(Sys.getenv("LEWL_DIAG_ACCEL", "10")), mlss.lewl_stop = "objective")
t0 <- proc.time()
f <- mlss:::lewl_solve(ymiss, prep, ncol(y), 1, 1, "exact", 0.5, 0, as.integer(Sys.getenv("LEWL_DIAG_ITERS", "150")))
print(proc.time() - t0)
o <- f$objective
print(data.frame(it = seq_along(o), relf = c(NA, abs(diff(o)) / abs(o[-1])), step = f$steps, rate = f$rates)[unique(pmin(c(1:10, seq(20, 150, 10)), length(o))), ], digits = 4)
cat("accel steps", f$accel_steps, "rejected", f$accel_rejected, "\n")
