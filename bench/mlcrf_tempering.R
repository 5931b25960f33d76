# The replica-exchange ladder of MLCRF's Gibbs sampler (issue 25, session
# 39): on the frustrated dense 12-label graphs of bench/mlcrf_inference.R
# (200 rows, node potentials N(0, 1), every pair entry N(0, sd^2) with sd 2.18,
# the pooled sd of yeast's learned pair potentials, and twice that), the
# marginals of inference = "approximate" against exact for a grid of ladders
# (chains, beta_min), with their CPU time.  Run from the package root:
# Rscript bench/mlcrf_tempering.R; results in bench/mlcrf_structure.md.
# Environment: MLCRF_PT_GRID ("chains:beta_min,..."; default below),
# MLCRF_PT_SEED (the seed set before each sampler run, default 3).
suppressMessages(library(mlss))
cat("mlcrf tempering; mlss from", find.package("mlss"), "; load:", readLines("/proc/loadavg"),
    "; date:", format(Sys.time(), tz = "UTC"), "UTC\n")
cpu <- function(t) sum(t[c(1, 2, 4, 5)], na.rm = TRUE)
grid <- strsplit(strsplit(Sys.getenv("MLCRF_PT_GRID", "1:1,4:0.2,4:0.1,6:0.1,8:0.1,8:0.2,12:0.05"),
                          ",")[[1]], ":")
f <- mlss:::crf_infer_call
for (sdp in c(2.18, 4.36)) {
  set.seed(2)
  m <- 12; n <- 200
  pairs <- which(upper.tri(diag(m)), arr.ind = TRUE); pairs <- pairs[order(pairs[, 1], pairs[, 2]), ]
  node <- matrix(rnorm(n * m), n, m)
  pair <- matrix(rnorm(n * 3 * nrow(pairs), sd = sdp), n)
  ex <- f(node, pair, pairs[, 1] - 1L, pairs[, 2] - 1L, "exact")
  for (gp in grid) {
    temp <- as.numeric(gp)
    set.seed(as.integer(Sys.getenv("MLCRF_PT_SEED", "3")))
    t0 <- proc.time()
    ap <- f(node, pair, pairs[, 1] - 1L, pairs[, 2] - 1L, "approximate", what = "score",
            tempering = temp)
    err <- apply(abs(ex$marginal - ap$marginal), 1, max)
    cat(sprintf("sd %.2f, chains %2d, beta_min %.3f: max |error| %.4f (rows > 0.02: %d), se max %.4f (rows > 0.005: %d), lowest swap rate median %.2f, min %.2f; %.1f CPU s\n",
                sdp, temp[1], temp[2], max(err), sum(err > 0.02), max(ap$gibbs_se),
                sum(ap$gibbs_se > 0.005), median(ap$swap_rate), min(ap$swap_rate),
                cpu(proc.time() - t0)))
  }
}
