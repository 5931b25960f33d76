# Why the Z-step's eigensolver takes a history block (issue 23, session 43;
# bench/lewl_cv_grid_results.md): on cv_lewl()'s fold size (bench/lewl_scale.R's
# first 1600 enron rows, 30% hidden, the basis route), the state of a fit after
# IT - 1 and IT iterations at a few grid points; then, in plain R on the basis
# route's matrix A = lambda diag(s) + F F' (F = V' Yt, Yt after IT iterations):
#   * the warm start's residual after its Rayleigh-Ritz (the largest of the k
#     relative residuals, as eigs_core.c's test): the previous Z-step's vectors
#     X alone (with the 10 extra columns of the block: the exact next
#     eigenvectors of the matrix before), with the history (the Z-step before's
#     vectors) beside them, and the linear extrapolation X + (X - X_prev) alone;
#   * the eigensolver transcribed in R, to tol (1e-6 and 1e-10): restarts,
#     products and the O(n s^2) work (in units of n: s^2 + 2 s b per
#     Rayleigh-Ritz, 2 p b per projected block) before (depth 3 from the warm
#     start) and now (the history in the first Rayleigh-Ritz, the first
#     restart of depth 1, then depth 3).
#   LIB=<build> Rscript bench/lewl_eigs_history.R
lib <- Sys.getenv("LIB", "")
if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
source(file.path("bench", "common.R"))
source(file.path("bench", "lewl_scale.R"))
f <- bench_fold(1600)
y <- f$y
prep <- f$prep
V <- prep$basis$V
n <- nrow(V)
# lambda, beta, k, IT
cases <- list(c(10, 1, 53, 100), c(10, 1, 53, 5), c(1, 1, 53, 40), c(0.1, 10, 53, 5),
              c(10, 10, 27, 5), c(1, 1, 27, 2), c(10, 1, 27, 200))
resid_of <- function(X, AX, th, k) max(sqrt(colSums((AX - X * rep(th, each = n))^2))[1:k]) / abs(th[1])
orth <- function(Q, B) {
  for (p in 1:2) Q <- Q - B %*% crossprod(B, Q)
  qr.Q(qr(Q))
}
for (cs in cases) {
  lam <- cs[1]; beta <- cs[2]; k <- cs[3]; it <- cs[4]; b <- k + 10
  st <- lapply(c(it - 1, it), function(m)
    suppressWarnings(mlss:::lewl_solve(y, prep, k, lam, beta, "exact", 0.5, tol = 1e-6,
                                       max_iter = m, eig_tol = 1e-6)))
  if (st[[2]]$iterations < it) next
  dl <- lam * prep$basis$s
  Fm <- crossprod(V, unname(st[[2]]$completed))
  opA <- function(W) dl * W + Fm %*% crossprod(Fm, W)
  rr <- function(Q, AQ) {
    e <- eigen(crossprod(Q, AQ), symmetric = TRUE)
    U <- e$vectors[, 1:b, drop = FALSE]
    list(X = Q %*% U, AX = AQ %*% U, th = e$values[1:b])
  }
  Z1 <- crossprod(V, unname(st[[2]]$Z))  # the previous Z-step's vectors (basis coordinates)
  Z0 <- crossprod(V, unname(st[[1]]$Z))  # the one before: the history
  Fp <- crossprod(V, unname(st[[1]]$completed))
  extra <- eigen(diag(dl) + tcrossprod(Fp), symmetric = TRUE)$vectors[, (k + 1):b]
  X0 <- cbind(Z1, extra)
  warm <- function(Q) { Q <- qr.Q(qr(Q)); r <- rr(Q, opA(Q)); resid_of(r$X, r$AX, r$th, k) }
  sv <- svd(crossprod(Z0, Z1))
  Xe <- 2 * Z1 - Z0 %*% (sv$u %*% t(sv$v))
  cat(sprintf("lambda %g beta %g k %d, after %d iterations: warm start's residual %.1e alone, %.1e with the history, %.1e extrapolated\n",
              lam, beta, k, it, warm(X0), warm(cbind(X0, Z0)), warm(cbind(Xe, extra))))
  for (tol in c(1e-6, 1e-10)) {
    run <- function(history) {
      Q <- qr.Q(qr(X0))
      AQ <- opA(Q)
      prods <- b
      work <- 0
      if (history) {
        P <- orth(Z0, Q)
        work <- work + 2 * b * k
        Q <- cbind(Q, P)
        AQ <- cbind(AQ, opA(P))
        prods <- prods + k
      }
      work <- work + ncol(Q)^2 + 2 * ncol(Q) * b
      r <- rr(Q, AQ)
      rs <- 0
      while (resid_of(r$X, r$AX, r$th, k) > tol && rs < 50) {
        B <- r$X
        AB <- r$AX
        for (j in seq_len(if (history && rs == 0) 1 else 3)) {
          Qj <- orth(AB[, (j - 1) * b + 1:b], B)
          work <- work + 2 * ncol(B) * b
          B <- cbind(B, Qj)
          AB <- cbind(AB, opA(Qj))
          prods <- prods + b
        }
        work <- work + ncol(B)^2 + 2 * ncol(B) * b
        r <- rr(B, AB)
        rs <- rs + 1
      }
      c(restarts = rs, products = prods, work = work)
    }
    a <- run(FALSE)
    h <- run(TRUE)
    cat(sprintf("  tol %g: before %d restarts, %d products, work %d; now %d restarts, %d products, work %d (%.2f of before)\n",
                tol, a[["restarts"]], a[["products"]], a[["work"]], h[["restarts"]],
                h[["products"]], h[["work"]], h[["work"]] / a[["work"]]))
  }
}
