# The out-of-fold F1 thresholds of one grid point (cv_point_thresholds(), run
# by every method's cross-validation with thresholds = "oof"): the route by
# positives against the sorted route (a radix sort of each label, then one
# scan per fold), both in this process through the internal entry points,
# with the same results checked bitwise.  6000 rows x 1000 labels, 2%
# positives, scores rnorm + signal, 3 folds, 1 and 2 threads; then the share
# of positives (above n / 5 a label takes the sorted route), and f1_thresholds()
# on all rows.
# Run: make bench, or R_LIBS=lib Rscript bench/thresholds.R
source(file.path("bench", "common.R"))
reps <- 5

problem <- function(n, m, share, nfolds, seed = 1) {
  set.seed(seed)
  y <- matrix(runif(n * m) < share, n, m)
  list(score = matrix(rnorm(n * m), n, m) + y, y = y,
       foldid = sample(rep_len(seq_len(nfolds), n)), nfolds = nfolds)
}

time_routes <- function(p, threads) {
  args <- list(p$score, p$y, p$foldid, as.integer(p$nfolds), as.integer(threads), 0.05)
  fast <- do.call(.Call, c(list(mlss:::C_cv_point_thresholds_call), args))
  sorted <- do.call(.Call, c(list(mlss:::C_cv_point_thresholds_sorted_call), args))
  if (!identical(fast, sorted, num.eq = FALSE)) stop("the two routes differ")
  t_fast <- elapsed(do.call(.Call, c(list(mlss:::C_cv_point_thresholds_call), args)), reps)
  t_sorted <- elapsed(do.call(.Call, c(list(mlss:::C_cv_point_thresholds_sorted_call), args)),
                      reps)
  data.frame(sorted_s = t_sorted, positives_s = t_fast, ratio = round(t_sorted / t_fast, 2))
}

cat("6000 x 1000, 2% positives, 3 folds (median of", reps, "runs, seconds)\n")
p <- problem(6000, 1000, 0.02, 3)
rows <- lapply(1:2, function(threads) cbind(threads = threads, time_routes(p, threads)))
print(do.call(rbind, rows), row.names = FALSE)

cat("\nshare of positives, 6000 x 300, 1 thread\n")
rows <- list()
for (nfolds in c(3, 10)) for (share in c(0.01, 0.02, 0.05, 0.1, 0.2, 0.3)) {
  rows[[length(rows) + 1]] <- cbind(nfolds = nfolds, share = share,
                                    time_routes(problem(6000, 300, share, nfolds), 1))
}
print(do.call(rbind, rows), row.names = FALSE)

cat(sprintf("\nf1_thresholds() on all rows, 6000 x 1000, 2%% positives: %.3f s (its .Call %.3f s)\n",
            elapsed(f1_thresholds(p$score, p$y), reps),
            elapsed(.Call(mlss:::C_f1_thresholds, p$score, p$y, 0.05), reps)))
