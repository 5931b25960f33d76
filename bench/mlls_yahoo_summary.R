# The summary of bench/mlls_yahoo.R's runs over many splits (issue 27,
# session 39) for bench/mlls_yahoo_results.md: CPU seconds per split and
# variant with the load, the means over every split, and the signed-rank
# tests.  Run from the package root after bench/papers_tables.R (which it
# reads for the tests): Rscript bench/mlls_yahoo_summary.R
options(width = 150)
files <- list.files("bench", "^mlls_yahoo_results_s39_.*\\.rds$", full.names = TRUE)
runs <- do.call(rbind, lapply(files, function(f) cbind(file = basename(f), readRDS(f)$rows)))

cat("Runs of session 39: CPU seconds (user + system) per split, and the load average\n")
cpu <- aggregate(cbind(cpu_s, time_s, load) ~ set + variant, runs, function(v)
  sprintf("%.1f [%.1f-%.1f]", mean(v), min(v), max(v)))
cpu$splits <- aggregate(split ~ set + variant, runs, function(s)
  sprintf("%d-%d (%d)", min(s), max(s), length(s)))$split
print(cpu[order(cpu$set, cpu$variant), ], row.names = FALSE)
cat("\nCPU seconds of all lines, by file:",
    paste(sprintf("%s %.0f", names(tapply(runs$cpu_s, runs$file, sum)),
                  tapply(runs$cpu_s, runs$file, sum)), collapse = "; "), "\n")

y <- read.csv(file.path("inst", "papers", "mlls_yahoo.csv"), comment.char = "#")
cat("\nMeans over every split (inst/papers/mlls_yahoo.csv)\n")
w <- reshape(y[y$splits > 0, c("data", "method", "rule", "measure", "ours", "splits")],
             direction = "wide", idvar = c("data", "method", "rule", "splits"),
             timevar = "measure")
names(w) <- sub("^ours\\.", "", names(w))
print(w[order(w$data, w$method, w$rule), ], row.names = FALSE)

cat("\nWilcoxon signed-rank tests of MLLS against each method (inst/papers/mlls_yahoo_wilcoxon.csv)\n")
wt <- read.csv(file.path("inst", "papers", "mlls_yahoo_wilcoxon.csv"), comment.char = "#")
print(wt[wt$splits > 0, names(wt) != "note"], row.names = FALSE)
