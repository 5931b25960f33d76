# The test files named on the command line (all of tests/testthat when none),
# run from tests/testthat in one R process: `make valgrind` runs this under
# valgrind.  A failing test fails the run, as a valgrind error does.
library(testthat)
library(mlss)
files <- commandArgs(TRUE)
if (!length(files)) files <- list.files(".", "^test-.*\\.R$")
files <- ifelse(grepl("^test-", files), files, paste0("test-", files, ".R"))
for (f in files) {
  t <- system.time(res <- as.data.frame(test_file(f, package = "mlss", load_package = "installed",
                                                  reporter = "summary")))[["elapsed"]]
  cat(sprintf("valgrind-tests: %s %.1f s\n", f, t))
  if (sum(res$failed) + sum(res$error)) stop("test failures in ", f)
}
