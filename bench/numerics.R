# Accuracy of mlls() on hard numbers against a high-precision reference
# (issue 9).  The reference is the closed form of ridge MLLS (alpha = 0,
# U = (Xc'Xc/n + beta I)^{-1} Xc'Yc/n; for beta = 0 the minimum-norm
# least-squares solution) evaluated with Rmpfr in 200-bit arithmetic on the
# exact double inputs.  ok: the error of U is within the goal; warned: mlls()
# gave a warning (the sparse Gram route says when it cannot be accurate).  X = Q1 diag(s) Q2' with centred orthonormal Q1,
# orthonormal Q2 and s from 1 down to 1/cond; "offset" adds 1e4 to every
# entry (the centred data are then only known to about 1e4 * eps); "sparse"
# passes the same numbers as a dgCMatrix.  Reported: the relative error of U,
# the relative excess of the ridge objective, and the goal 100 * eps * cond.
#
# Run: R_LIBS=lib:<Rmpfr library> Rscript bench/numerics.R [out.csv]
# Rmpfr is needed here only (never by the tests).
suppressPackageStartupMessages({
  library(mlss)
  library(Rmpfr)
})
args <- commandArgs(trailingOnly = TRUE)
out <- if (length(args)) args[1] else ""
prec <- 200
eps <- .Machine$double.eps

centred_basis <- function(n, k) {
  Z <- cbind(1, matrix(rnorm(n * k), n))
  qr.Q(qr(Z))[, -1, drop = FALSE]
}

# H = I - 11'/n in high precision.
centring <- function(n) mpfr(diag(n) * n - 1, prec) / as.double(n)

# A^{-1} B by Gaussian elimination with partial pivoting, in high precision
# (small systems only).
mp_solve <- function(A, B) {
  p <- nrow(A)
  M <- mpfr(matrix(0, p, p + ncol(B)), prec)
  M[, seq_len(p)] <- A
  M[, p + seq_len(ncol(B))] <- B
  for (j in seq_len(p)) {
    piv <- j - 1 + which.max(as.numeric(abs(M[j:p, j])))
    if (piv != j) M[c(j, piv), ] <- M[c(piv, j), ]
    M[j, ] <- M[j, ] / M[j, j]
    for (i in setdiff(seq_len(p), j)) M[i, ] <- M[i, ] - M[i, j] * M[j, ]
  }
  M[, -seq_len(p), drop = FALSE]
}

# Reference U in high precision; X and Yc are the exact double inputs.
ref_U <- function(X, Y, beta) {
  n <- as.double(nrow(X)); d <- ncol(X)
  Xm <- mpfr(X, prec); Ym <- mpfr(Y, prec)
  Xc <- centring(n) %*% Xm
  Yc <- centring(n) %*% Ym
  if (beta > 0 || d < n) {
    A <- crossprod(Xc) / n
    for (j in seq_len(d)) A[j, j] <- A[j, j] + beta
    return(mp_solve(A, crossprod(Xc, Yc) / n))
  }
  # beta = 0, d >= n: minimum norm, U = Xc'(XcXc' + 11'/n)^{-1} Yc (Xc'1 = 0)
  K <- tcrossprod(Xc) + mpfr(matrix(1, n, n), prec) / n
  crossprod(Xc, mp_solve(K, Yc))
}

objective <- function(X, Y, U, beta) {
  Xm <- mpfr(X, prec); Ym <- mpfr(Y, prec)
  Um <- if (is(U, "mpfr")) U else mpfr(unname(U), prec)
  n <- as.double(nrow(X))
  Xc <- centring(n) %*% Xm
  Yc <- centring(n) %*% Ym
  R <- Xc %*% Um - Yc
  sum(R * R) / n + beta * sum(Um * Um)
}

one_case <- function(path, kind, cond, beta, seed) {
  set.seed(seed)
  if (path == "primal") { n <- 40; d <- 8 } else { n <- 16; d <- 30 }
  k <- min(n - 1, d)
  s <- 10^-seq(0, log10(cond), length.out = k)
  X <- centred_basis(n, k) %*% diag(s) %*% t(qr.Q(qr(matrix(rnorm(d * k), d, k))))
  if (grepl("offset", kind)) X <- X + 1e4
  Y <- matrix(sample(c(-1, 1), n * 3, replace = TRUE), n, 3)
  x <- if (grepl("sparse", kind)) Matrix::Matrix(X, sparse = TRUE) else X
  warned <- FALSE
  fit <- tryCatch(withCallingHandlers(suppressMessages(
    mlls(x, Y > 0, alpha = 0, beta = beta, method = path)),
    warning = function(w) { warned <<- TRUE; invokeRestart("muffleWarning") }),
    error = function(e) NULL)
  Ur <- ref_U(X, Y, beta)
  err <- if (is.null(fit)) NA else
    as.numeric(max(abs(mpfr(unname(fit$U), prec) - Ur)) / max(abs(Ur)))
  # excess objective relative to the objective of U = 0 (with beta = 0 and
  # d >= n the optimum is 0: the data are interpolated)
  f_ref <- objective(X, Y, Ur, beta)
  f_0 <- objective(X, Y, matrix(0, d, ncol(Y)), beta)
  excess <- if (is.null(fit)) NA else
    as.numeric((objective(X, Y, fit$U, beta) - f_ref) / f_0)
  Xc <- sweep(X, 2, colMeans(X))
  sv <- svd(Xc)$d[seq_len(k)]
  data.frame(path = path, kind = kind, cond = cond, beta = beta,
             cond_input = signif(sv[1] / sv[k], 2),
             route = if (is.null(fit)) "error" else
               if (is.null(fit$decomposition)) "gram (old)" else fit$decomposition,
             err_U = signif(err, 2), excess_obj = signif(excess, 2),
             goal = signif(100 * eps * cond, 2), warned = warned,
             ok = !is.na(err) && err <= 100 * eps * sv[1] / sv[k])
}

# The full grid takes an hour on a loaded machine; MLSS_BENCH_QUICK=1 runs a
# subset (kinds dense and sparse offset, cond 1e2, 1e6, 1e10, beta 0, 1e-6, 1e-2).
quick <- nzchar(Sys.getenv("MLSS_BENCH_QUICK"))
kinds <- if (quick) c("dense", "sparse offset") else
  c("dense", "sparse", "dense offset", "sparse offset")
conds <- 10^(if (quick) c(2, 6, 10) else c(2, 4, 6, 8, 10, 12))
betas <- if (quick) c(0, 1e-6, 1e-2) else c(0, 1e-10, 1e-6, 1e-2)
res <- NULL
seed <- 0
for (path in c("primal", "dual"))
  for (kind in kinds)
    for (cond in conds)
      for (beta in betas) {
        seed <- seed + 1
        res <- rbind(res, one_case(path, kind, cond, beta, seed))
        print(res[nrow(res), ], row.names = FALSE)
      }
print(res, row.names = FALSE)
if (nzchar(out)) utils::write.csv(res, out, row.names = FALSE)
