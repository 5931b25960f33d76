# bench/lewl_cv_grid.R's logs side by side, grid point by grid point (the
# fits of a point are its 5 folds in order; a stopped run compares the
# points it finished): iterations (mean over the folds) and CPU seconds of
# the point's fold fits (the differences of the log's cumulative CPU, so the
# first point also carries the folds' preparation).
#   Rscript bench/lewl_cv_grid_compare.R name=log [name=log ...]
args <- commandArgs(trailingOnly = TRUE)
read_log <- function(file) {
  l <- grep("^fit ", readLines(file), value = TRUE)
  m <- regmatches(l, regexec(
    "lambda ([0-9.e+-]+) beta ([0-9.e+-]+) k ([0-9]+): ([0-9]+) iterations; ([0-9.]+) CPU s", l))
  d <- as.data.frame(do.call(rbind, lapply(m, function(x) as.numeric(x[-1]))))
  names(d) <- c("lambda", "beta", "k", "iterations", "cpu_total")
  d$cpu <- diff(c(0, d$cpu_total))
  d$point <- (seq_len(nrow(d)) - 1) %/% 5 + 1
  d
}
logs <- lapply(sub("^[^=]*=", "", args), read_log)
names(logs) <- sub("=.*$", "", args)
pts <- min(vapply(logs, function(d) sum(tabulate(d$point) == 5), 0))
tab <- unique(logs[[1]][logs[[1]]$point <= pts, c("point", "lambda", "beta", "k")])
for (nm in names(logs)) {
  d <- logs[[nm]][logs[[nm]]$point <= pts, ]
  tab[[paste0(nm, "_iter")]] <- as.vector(tapply(d$iterations, d$point, mean))
  tab[[paste0(nm, "_at_max")]] <- as.vector(tapply(d$iterations >= 500, d$point, sum))
  tab[[paste0(nm, "_cpu")]] <- round(as.vector(tapply(d$cpu, d$point, sum)), 1)
}
print(tab, row.names = FALSE, width = 200)
cat("\nCPU s over these", pts, "points:",
    paste(names(logs), vapply(logs, function(d) round(sum(d$cpu[d$point <= pts]), 1), 0),
          collapse = "; "), "\n")
