# The test suite of an installed mutant, for tools/mutants.R:
#   Rscript mutants-suite.R <tests/testthat dir> <output file> [first test files]
# Runs the test files one at a time, the given ones first, and stops at the
# first file with a failing test or an error: the output file then names it
# ("file: test") and the exit status is 1.  Exit status 0: everything passed.
args <- commandArgs(trailingOnly = TRUE)
dir <- args[1]
out <- args[2]
files <- basename(list.files(dir, "^test.*\\.[rR]$"))
files <- c(intersect(args[-(1:2)], files), setdiff(files, args[-(1:2)]))
suppressPackageStartupMessages(library(testthat))
for (f in files) {
  res <- tryCatch(
    as.data.frame(test_file(file.path(dir, f), package = "mlss", load_package = "installed",
                            reporter = "silent", stop_on_failure = FALSE)),
    error = function(e) data.frame(file = f, test = conditionMessage(e), failed = 1L,
                                   error = TRUE))
  bad <- res$failed > 0 | res$error
  if (any(bad)) {
    writeLines(sprintf("%s: %s", f, res$test[bad][1]), out)
    quit(status = 1)
  }
}
quit(status = 0)
