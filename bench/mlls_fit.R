# Time of one mlls() fit against the decomposition it cannot avoid, in one
# process: the symmetric eigendecomposition of the Gram matrix (X'X when
# d <= n, XX' when d > n, formed with crossprod/tcrossprod + eigen()) and, for
# moderate d, LAPACK's SVD of X (svd()).  The goal: a fit within 1.2 x the
# decomposition.  Run: make bench, or R_LIBS=lib Rscript bench/mlls_fit.R
#
# ill_fit_s: the same fit with beta = 0 on the dense data with column scales
# 10^0 .. 10^-6 (cond(X) about 1e6 or more), which a current mlls() decomposes
# by a thin SVD of the data instead of the Gram matrix (issue 9): the cost of
# that route, against the same Gram eigendecomposition.
source(file.path("bench", "common.R"))

n <- 1000
m <- 20
ds <- as.integer(strsplit(Sys.getenv("MLSS_BENCH_D", "100,500,1000,2000,5000,10000,20000"), ",")[[1]])
svd_max_d <- 5000  # svd() of 1000 x 20000 takes minutes with the reference LAPACK

labels_for <- function(X, seed) {
  set.seed(seed)
  B <- matrix(rnorm(ncol(X) * 3), ncol(X), 3) %*% matrix(rnorm(3 * m), 3, m)
  S <- as.matrix(X %*% B)
  S + matrix(rnorm(length(S), sd = sd(S)), nrow(S)) > 0
}

run <- function(X, kind, Y = labels_for(X, ncol(X))) {
  d <- ncol(X)
  reps <- if (d <= 1000) 5 else if (d <= 5000) 3 else 1
  gram <- function() if (d <= n) crossprod(X) else tcrossprod(X)
  t_eig <- elapsed(eigen(as.matrix(gram()), symmetric = TRUE, only.values = FALSE), reps)
  t_fit <- elapsed(fit <- mlls(X, Y, alpha = 0.1, beta = 0.01), reps)
  t_svd <- if (kind == "dense" && d <= svd_max_d) elapsed(svd(X), reps) else NA
  t_ill <- NA
  route <- NA
  if (kind == "dense" && d <= svd_max_d) {
    Xill <- X %*% diag(10^-seq(0, 6, length.out = d))
    t_ill <- elapsed(ill <- suppressMessages(mlls(Xill, Y, alpha = 0.1, beta = 0)), reps)
    route <- if (is.null(ill$decomposition)) "gram" else ill$decomposition
  }
  data.frame(kind = kind, n = n, d = d, method = fit$method, fit_s = t_fit,
             gram_eig_s = t_eig, svd_s = t_svd,
             fit_over_gram_eig = round(t_fit / t_eig, 3),
             fit_over_svd = round(t_fit / t_svd, 3),
             ill_route = route, ill_over_gram_eig = round(t_ill / t_eig, 3))
}

cat("mlls() fit time against one decomposition of the same matrix, n =", n, ", m =", m, "\n")
cat("BLAS:", extSoftVersion()[["BLAS"]], "\n")
res <- NULL
for (d in ds) {
  set.seed(d)
  res <- rbind(res, run(matrix(rnorm(n * d), n, d), "dense"))
  print(res[nrow(res), ], row.names = FALSE)
  Xs <- rsparsematrix(n, d, density = 0.005, rand.x = function(k) runif(k))
  res <- rbind(res, run(Xs, "sparse 0.5%"))
  print(res[nrow(res), ], row.names = FALSE)
}
# The sparse case on real text: Yahoo Arts, 1000 training pages (d > n: dual).
arts <- load_yahoo("arts")
res <- rbind(res, run(arts$x[arts$train, ], "yahoo_arts", arts$y[arts$train, ]))
print(res[nrow(res), ], row.names = FALSE)
cat("\nsummary\n")
print(res, row.names = FALSE)
