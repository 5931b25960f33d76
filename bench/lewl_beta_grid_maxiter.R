# Does beta = 0's cross-validated score depend on where its unconverged fits
# are stopped?  bench/lewl_beta_grid.R chose lambda 0.1, beta 0, k 14 on
# yeast (first 1000 rows, 30% hidden, the same folds) with 21 of its 30
# beta = 0 fold fits stopped at max_iter = 500.  Here that point again with
# max_iter = 250 and 1000 (and 500, the check that this run is that run).
#   (OpenBLAS as in lewl_beta_grid.R) LEWL_BG_LIB=lib nice -n 15 Rscript bench/lewl_beta_grid_maxiter.R
lib <- Sys.getenv("LEWL_BG_LIB", "")
if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
source(file.path("bench", "common.R"))
d <- load_lewl_grid_set("yeast")  # as lewl_beta_grid.R's load_set("yeast")
y <- d$y
x <- d$x
set.seed(1)
foldid <- ml_folds(y, 5)
its <- NULL
suppressMessages(trace(mlss:::lewl_solve, exit = quote(its <<- c(its, returnValue()$iterations)),
                       print = FALSE, where = asNamespace("mlss")))
for (mi in as.integer(strsplit(Sys.getenv("LEWL_BG_MAXITER", "250,1000,500"), ",")[[1]])) {
  its <- NULL
  c0 <- cpu_seconds()
  cv <- suppressWarnings(cv_lewl(x, y, lambda = 0.1, beta = 0, k = 14, foldid = foldid,
                                 progress = FALSE, max_iter = mi))
  cat(sprintf("yeast lambda 0.1 beta 0 k 14, max_iter %4d: cvm %.4f se %.4f; fold fits' iterations %s; %.1f CPU s; load %s\n",
              mi, cv$cvm, cv$cvsd, paste(head(its, 5), collapse = " "), cpu_seconds() - c0,
              readLines("/proc/loadavg")))
}
