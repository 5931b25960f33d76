# Which of enron's missing entries drift at beta = 1 (issue 23, session 41;
# bench/lewl_beta0_results.md): the first 1000 rows, 30% hidden, k = m,
# lambda 10, beta 1, 500 plain iterations at tol = 0; the rows holding
# entries outside [-1, 2], their weighted degree in the kNN graph (row sums
# of W) against all rows', and their number of distinct words.
#   LEWL_B0_LIB=<build> Rscript bench/lewl_beta0_rows.R
lib <- Sys.getenv("LEWL_B0_LIB", "")
if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
source(file.path("bench", "common.R"))
d <- load_lewl_grid_set("enron")  # bench/lewl_beta0.R's rows and mask
x <- d$x
y <- d$y
set.seed(1)
prep <- mlss:::lewl_prepare(x, knn = 10)
miss <- is.na(y)
r <- suppressWarnings(mlss:::lewl_solve(y, prep, ncol(y), 10, 1, "exact", 0.5, tol = 0, max_iter = 500))
deg <- Matrix::rowSums(prep$W)
far <- which(miss & abs(r$completed) > 2 | miss & r$completed < -1, arr.ind = TRUE)
rows <- unique(far[, 1])
cat("entries outside [-1,2]:", nrow(far), "in", length(rows), "rows\n")
cat("weighted degree quantiles, all rows:", format(quantile(deg, c(0, .01, .05, .5)), digits = 3), "\n")
cat("weighted degree of those rows:", format(sort(deg[rows]), digits = 3), "\n")
cat("rank of those rows' degrees among 1000 (1 = weakest):", sort(rank(deg)[rows]), "\n")
cat("nonzero features of those rows:", Matrix::rowSums(x[rows, , drop = FALSE] != 0), " median all:", median(Matrix::rowSums(x != 0)), "\n")
