# The MLLS papers' scalability figure (TKDD 2010, Section 6.2.2, Figures 1-2;
# issue 27): computation time against the number of training pages, MLLS
# against the linear SVM and ASO-SVM, for one fit at a fixed parameter setting
# and for the parameter tuning by cross-validation.
#
# Data: Yahoo Arts with the papers' protocol (load_yahoo(): labels with >= 100
# pages, words in >= 5 pages, TF-IDF, unit rows); for each size n, n pages
# drawn at random (set.seed(2010 + n)), redrawn until every label has a
# positive.  Timed, each on the same pages:
#   MLLS     fixed:  mlls(alpha = 0.1, beta = 0.1, r = 5 floor((m - 1) / 5))
#            tuning: cv_mlls() on the papers' grid, alpha {0, 1e-6..1} x beta
#                    {1e-6..1}, r as above, 5 folds (the decomposition once per
#                    fold, as the papers say)
#   SVM      fixed:  br(learner = "svm", cost = 1) (LIBLINEAR's L2-loss SVM)
#            tuning: cv_br(learner = "svm", cost = 10^(-3:2)), 5 folds
#   ASO-SVM  fixed:  aso_svm(alpha = 1) at its defaults
#            tuning: not run (one untuned fit is already the slowest; a grid
#                    over alpha x 5 folds would multiply it by 25 or more)
# The figure is CPU seconds of the R process (user + system: threads
# included), which a loaded machine does not inflate as much as elapsed
# time; elapsed is stored beside it.
#
# Resumable: every (n, method, kind) is saved to MLSS_SCAL_OUT (default
# bench/mlls_scalability_results.rds) as it finishes; a rerun skips those
# there.  Environment: MLSS_SCAL_SET (default "arts"), MLSS_SCAL_SIZES
# (default "250,500,1000,2000"), MLSS_SCAL_WHAT (default
# "mlls_fixed,svm_fixed,aso_fixed,mlls_tuning,svm_tuning").
# Needs ../shared/data (or MLSS_SHARED).
# Run: R_LIBS=lib nice Rscript bench/mlls_scalability.R
source(file.path("bench", "common.R"))
set_name <- Sys.getenv("MLSS_SCAL_SET", "arts")
sizes <- as.integer(strsplit(Sys.getenv("MLSS_SCAL_SIZES", "250,500,1000,2000"), ",")[[1]])
what <- strsplit(Sys.getenv("MLSS_SCAL_WHAT",
                            "mlls_fixed,svm_fixed,aso_fixed,mlls_tuning,svm_tuning"), ",")[[1]]
out <- Sys.getenv("MLSS_SCAL_OUT", file.path("bench", "mlls_scalability_results.rds"))
old <- if (file.exists(out)) readRDS(out) else NULL
rows <- if (is.null(old)) list() else list(old$rows)
done <- if (is.null(old)) character() else paste(old$rows$n_train, old$rows$task)

d <- load_yahoo(set_name, n_train = 1000)
m <- ncol(d$y)
r <- 5L * ((m - 1L) %/% 5L)
cat(sprintf("MLLS scalability; %s | machine %s | %s | yahoo_%s: %d pages, %d words, %d labels, r = %d | load %s\n",
            format(Sys.time(), tz = "UTC", usetz = TRUE), Sys.info()[["nodename"]],
            R.version.string, set_name, nrow(d$x), ncol(d$x), m, r, readLines("/proc/loadavg")))

timed <- function(expr) {
  gc(FALSE)
  t0 <- proc.time()
  force(expr)
  t <- proc.time() - t0
  c(cpu_s = t[["user.self"]] + t[["sys.self"]], elapsed_s = t[["elapsed"]])
}

for (n in sizes) {
  set.seed(2010 + n)
  repeat {
    rows_n <- sample.int(nrow(d$x), n)
    if (all(colSums(d$y[rows_n, , drop = FALSE]) > 0)) break
  }
  x <- d$x[rows_n, ]
  y <- d$y[rows_n, ]
  for (task in what) {
    if (paste(n, task) %in% done) next
    set.seed(100 + n)
    tm <- switch(task,
      mlls_fixed = timed(mlls(x, y, alpha = 0.1, beta = 0.1, r = r)),
      svm_fixed = timed(br(x, y, learner = "svm", cost = 1)),
      aso_fixed = timed(suppressWarnings(aso_svm(x, y, alpha = 1))),
      mlls_tuning = timed(cv_mlls(x, y, alpha = c(0, 10^(-6:0)), beta = 10^(-6:0), r = r,
                                  nfolds = 5, progress = FALSE)),
      svm_tuning = timed(cv_br(x, y, learner = "svm", cost = 10^(-3:2), nfolds = 5,
                               progress = FALSE)),
      stop("unknown task ", task))
    rows[[length(rows) + 1]] <- data.frame(
      data = set_name, n_train = n, task = task,
      method = switch(sub("_.*", "", task), mlls = "MLLS", svm = "SVM", aso = "ASO-SVM"),
      kind = sub(".*_", "", task), cpu_s = round(tm[["cpu_s"]], 2),
      elapsed_s = round(tm[["elapsed_s"]], 2), load = readLines("/proc/loadavg"))
    saveRDS(list(rows = do.call(rbind, rows), date = format(Sys.time(), tz = "UTC", usetz = TRUE),
                 machine = Sys.info()[["nodename"]], words = ncol(d$x), labels = m, r = r), out)
    cat(sprintf("n = %5d %-12s %8.2f s CPU %8.2f s elapsed | %s\n", n, task, tm[["cpu_s"]],
                tm[["elapsed_s"]], format(Sys.time(), "%H:%M:%S")))
  }
}
