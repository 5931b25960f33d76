# The markdown tables of bench/utiml_results.md from the rows bench/utiml.R
# appends to its BENCH_OUT csv files (one or more, given as arguments):
#   Rscript bench/utiml_table.R rows1.csv rows2.csv ... > tables.md
# Each mlss row is set against the utiml row of the same model (its "CPU
# mlss/utiml" column): the same method name, or for RAkEL with utiml's
# subsets utiml's RAkEL, for the rows without Platt's probabilities the
# utiml model with them.
files <- commandArgs(trailingOnly = TRUE)
res <- do.call(rbind, lapply(files[file.exists(files)], utils::read.csv, check.names = FALSE))
res <- res[!duplicated(res[c("set", "method", "package")], fromLast = TRUE), ]
peer <- function(method) {
  if (grepl("^RAkELo", method)) return("RAkELo k=3")
  if (grepl("^LP", method)) return("LP")
  if (grepl("^ECC 10 \\(", method)) return("ECC 10 (LCard, 1+)")
  method
}
for (set in intersect(c("emotions", "scene", "yeast", "medical"), res$set)) {
  r <- res[res$set == set, ]
  cat("\n## ", set, "\n\n", sep = "")
  cat("| method | package | macro F1 | micro F1 | exact | Hamming | CPU s | CPU mlss/utiml |\n")
  cat("| --- | --- | --- | --- | --- | --- | --- | --- |\n")
  key <- vapply(r$method, peer, "")
  ord <- order(match(key, unique(key)), r$package != "utiml")
  for (i in ord) {
    u <- r[r$package == "utiml" & r$method == peer(r$method[i]), ]
    ratio <- if (r$package[i] == "mlss" && nrow(u)) sprintf("%.2f", r$cpu[i] / u$cpu[1]) else ""
    cat(sprintf("| %s | %s | %.4f | %.4f | %.4f | %.4f | %.1f | %s |\n", r$method[i],
                r$package[i], r$macro_f1[i], r$micro_f1[i], r$exact[i], r$hamming[i], r$cpu[i],
                ratio))
  }
}
