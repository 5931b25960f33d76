# The table of bench/mlcrf_structure_endtoend.R's runs for the MLCRF
# vignette: inst/papers/mlcrf_structure_endtoend.csv, one row per (rule of
# pruning, rows, coupling size, design) with the seeds whose chosen graph is
# exactly the true edge set.  Reads the runs' outputs kept in
# bench/mlcrf_structure_endtoend_logs/<prune>_n<rows>_c<coupling>.log, each
# made by
#   N=<rows> COUPLING=<coupling> CV_ARGS='prune = "<prune>"' \
#     Rscript bench/mlcrf_structure_endtoend.R > <that log>
# (session 38, 2026-11-26, this vm, 2 cores at load 2-8, main 49dbdd9's
# package: cv_mlcrf() defaults but `prune`; seeds 1001-1010 per design).
# Run from the package root: Rscript bench/mlcrf_structure_endtoend_table.R
logs <- list.files(file.path("bench", "mlcrf_structure_endtoend_logs"), "\\.log$", full.names = TRUE)
rows <- do.call(rbind, lapply(logs, function(f) {
  key <- regmatches(basename(f), regexec("^(\\w+)_n(\\d+)_c([0-9.]+)\\.log$", basename(f)))[[1]]
  tot <- grep("^== ", readLines(f), value = TRUE)
  hit <- regmatches(tot, regexec("^== (\\w+): (\\d+) of (\\d+) exact", tot))
  data.frame(prune = key[2], rows = as.integer(key[3]), coupling = as.numeric(key[4]),
             design = vapply(hit, `[`, "", 2), labels = as.integer(gsub("\\D", "", vapply(hit, `[`, "", 2))),
             recovered = as.integer(vapply(hit, `[`, "", 3)), seeds = as.integer(vapply(hit, `[`, "", 4)))
}))
rows <- rows[order(rows$rows != 500 | rows$coupling != 0.75, -rows$rows, -rows$coupling,
                   rows$prune, rows$labels), ]
out <- file.path("inst", "papers", "mlcrf_structure_endtoend.csv")
writeLines(paste("# made by bench/mlcrf_structure_endtoend.R (session 38, 2026-11-26, vm, 2 cores),",
                 "cv_mlcrf() with its defaults but prune; 10 seeds (1001-1010) per design;",
                 "x uniform in [-1, 1]^6; couplings c on the labels' signs"), out)
suppressWarnings(write.table(rows, out, sep = ",", row.names = FALSE, append = TRUE))
print(rows, row.names = FALSE)
cat("totals:\n")
print(aggregate(cbind(recovered, seeds) ~ prune + rows + coupling, rows, sum))
