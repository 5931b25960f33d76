# The exact kNN search (knn_search(), src/knn_core.c) against the plain
# brute force of base R: dist() + order() on the full n x n matrix.
# Times are elapsed seconds (median of `reps`) and, more telling on a shared
# machine, ratios against the brute force timed in the same process.  Peak
# memory is R's "max used" (R_alloc scratch included) above the data.
#   Rscript bench/knn.R          (from the package root, mlss installed)
source(file.path("bench", "common.R"))  # mlss, Matrix, elapsed()
knn <- mlss:::knn_search
k <- 10

# MB allocated by R at the peak of expr, above what was in use before.
peak_mb <- function(expr) {
  before <- sum(gc(reset = TRUE)[, 2])
  force(expr)
  sum(gc()[, 6]) - before   # column 6: "max used" in Mb
}

brute <- function(x, k) {
  D <- as.matrix(dist(x))
  diag(D) <- Inf
  t(apply(D, 1, function(d) order(d)[seq_len(k)]))
}

cat("machine load (1, 5, 15 min):", readLines("/proc/loadavg"), "\n")
cat("threads of the search (mlss.threads):", mlss:::mlss_threads(), "; BLAS:", extSoftVersion()[["BLAS"]], "\n\n")

rows <- list()
set.seed(1)
for (n in c(2000, 5000, 20000)) {
  x <- matrix(rnorm(n * 100), n)
  t_knn <- elapsed(res <- knn(x, k), reps = if (n <= 5000) 3 else 1)
  mem_knn <- peak_mb(knn(x, k))
  if (n <= 5000) {
    t_brute <- elapsed(ref <- brute(x, k))
    mem_brute <- peak_mb(brute(x, k))
    same <- identical(res$index, unname(ref))
  } else {
    t_brute <- mem_brute <- NA
    same <- NA
  }
  rows[[length(rows) + 1]] <- data.frame(
    data = sprintf("dense n = %d, d = 100", n), knn_s = t_knn, brute_s = t_brute,
    brute_over_knn = t_brute / t_knn, knn_peak_MB = mem_knn, brute_peak_MB = mem_brute,
    same_neighbours = same)
}

# A text-like sparse case: 20000 rows, 30000 columns, ~60 non-zeros per row,
# rows of unit length (as after tfidf()); checked against brute force on 200
# query rows (sparse products, distances sorted by order()).
set.seed(2)
n <- 20000
d <- 30000
nnz <- 60 * n
xs <- sparseMatrix(i = rep(seq_len(n), each = 60), j = sample.int(d, nnz, replace = TRUE,
                   prob = 1 / seq_len(d)), x = rexp(nnz), dims = c(n, d))
xs <- Diagonal(x = 1 / sqrt(rowSums(xs^2))) %*% xs
xs <- as(xs, "generalMatrix")
t_sp <- elapsed(res <- knn(xs, k))
mem_sp <- peak_mb(knn(xs, k))
q <- 1:200
sq <- rowSums(xs^2)
t_chk <- elapsed({
  G <- as.matrix(tcrossprod(xs[q, ], xs))
  D2 <- outer(sq[q], sq, "+") - 2 * G
  D2[cbind(q, q)] <- Inf
  ref <- t(apply(D2, 1, function(v) order(v)[seq_len(k)]))
})
rows[[length(rows) + 1]] <- data.frame(
  data = sprintf("sparse n = %d, d = %d, 60 nz/row", n, d), knn_s = t_sp,
  brute_s = t_chk * n / length(q), brute_over_knn = t_chk * n / length(q) / t_sp,
  knn_peak_MB = mem_sp, brute_peak_MB = NA,
  same_neighbours = identical(res$index[q, ], unname(ref)))
tab <- do.call(rbind, rows)
cat("kNN search, k = ", k, ", each training row against the others (leave-self-out)\n", sep = "")
cat("(sparse brute_s: the 200-row check scaled to n; same_neighbours on those rows)\n")
print(format(tab, digits = 3), row.names = FALSE)
cat("\nmachine load at the end:", readLines("/proc/loadavg"), "\n")
