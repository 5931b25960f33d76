# LEWL at scale (issue 23): the iterative eigensolver of the Z-step against
# eigen() and against the dense route, and the Nystrom kernel factor against
# its plain-R formula (helper-lewl.R for the problems and references).

# sin of the largest principal angle between span(A) and span(B) (orthonormal)
max_sin_angle <- function(A, B) max(svd(A - B %*% crossprod(B, A))$d)

lewl_start <- function(y, init = 0.5) {
  s <- y + 0
  s[is.na(s)] <- init
  s
}

with_eigen <- function(method, expr) {
  old <- options(mlss.lewl_eigen = method)
  on.exit(options(old))
  expr
}

test_that("the iterative Z-step spans the top-k eigenspace of eigen()", {
  p <- lewl_problem(150, 5, m = 6, rate = 0.3, seed = 3)
  K <- ref_lewl_kernel(p$x, 0.2)
  for (lambda in c(0, 0.5, 5)) {
    fit <- with_eigen("iterative", suppressWarnings(
      lewl(p$x, p$ymiss, k = 3, lambda = lambda, beta = 1, gamma = 0.2, max_iter = 1)))
    Zref <- ref_lewl_zstep(lewl_start(p$ymiss), K, lambda, 3)
    expect_lt(max_sin_angle(fit$Z, Zref), 1e-8)
    expect_equal(crossprod(fit$Z), diag(3), tolerance = 1e-10, ignore_attr = TRUE)
  }
})

test_that("below the switch, the iterative route recovers what the dense route does", {
  p <- lewl_problem(140, 4, m = 5, rate = 0.5, seed = 4)
  args <- list(p$x, p$ymiss, k = 2, lambda = 1, beta = 1, gamma = 0.3, knn = 6, tol = 1e-9)
  fd <- with_eigen("dense", do.call(lewl, args))
  fi <- with_eigen("iterative", do.call(lewl, args))
  expect_lt(max_sin_angle(fi$Z, fd$Z), 1e-8)
  expect_equal(fi$recovered, fd$recovered, tolerance = 1e-6)
  expect_equal(fi$objective, fd$objective, tolerance = 1e-8)
  # the objective recorded on the iterative route is the objective (reference)
  W <- ref_lewl_graph(p$x, 6, fi$t)
  K <- ref_lewl_kernel(p$x, 0.3)
  expect_equal(ref_lewl_objective(fi$completed, fi$Z, fi$D, W, K, 1, 1),
               fi$objective[fi$iterations], tolerance = 1e-9)
})

test_that("an eigensolver stopped before its tolerance warns with the package's class", {
  p <- lewl_problem(120, 4, m = 5, seed = 5)
  prep <- mlss:::lewl_prepare(p$x, 5, gamma = 0.3)
  expect_warning(mlss:::lewl_solve(p$y, prep, 2, 1, 1, "exact", 0.5, 1e-6, 3,
                                   eig_method = "iterative", eig_max_restart = 0,
                                   eig_tol = 1e-14),
                 class = "mlss_not_converged")
})

# The Nystrom factor from its formula: C = K(x, landmarks), W = K(landmarks,
# landmarks), H K H ~ H C W^+ C' H.
ref_nystrom_hkh <- function(x, marks, gamma) {
  K <- ref_lewl_kernel(x, gamma)
  C <- K[, marks, drop = FALSE]
  W <- K[marks, marks, drop = FALSE]
  e <- eigen(W, symmetric = TRUE)
  keep <- e$values > 1e-10 * e$values[1]
  Wp <- e$vectors[, keep] %*% (t(e$vectors[, keep]) / e$values[keep])
  H <- ref_centre(nrow(x))
  H %*% C %*% Wp %*% t(C) %*% H
}

test_that("the Nystrom route: its factor, its Z-step, and all rows as landmarks", {
  p <- lewl_problem(90, 4, m = 5, rate = 0.3, seed = 6)
  set.seed(2)
  prep <- mlss:::lewl_prepare(p$x, 5, gamma = 0.4, approx = "nystrom", landmarks = 20)
  expect_null(prep$K)
  expect_identical(dim(prep$G)[1], 90L)
  expect_lte(ncol(prep$G), 20L)
  expect_length(prep$landmarks, 20L)
  A <- ref_nystrom_hkh(p$x, prep$landmarks, 0.4)
  expect_equal(tcrossprod(prep$G), A, tolerance = 1e-8, ignore_attr = TRUE)
  # the Z-step on the factor: the top eigenvectors of Yt Yt' + lambda H K~ H,
  # K~ = C W^+ C' + diag(1 - diag(C W^+ C')) (the exact diagonal); without
  # the correction (the option), of Yt Yt' + lambda H C W^+ C' H
  Yt <- lewl_start(p$ymiss)
  H <- ref_centre(90)
  Kn <- ref_lewl_kernel(p$x, 0.4)[, prep$landmarks] %*%
    solve(ref_lewl_kernel(p$x, 0.4)[prep$landmarks, prep$landmarks],
          t(ref_lewl_kernel(p$x, 0.4)[, prep$landmarks]))
  Ad <- A + H %*% diag(pmax(1 - diag(Kn), 0)) %*% H
  expect_equal(prep$dg, pmax(1 - diag(Kn), 0), tolerance = 1e-6, ignore_attr = TRUE)
  old <- options(mlss.lewl_nystrom_diag = FALSE)
  set.seed(2)
  prep0 <- mlss:::lewl_prepare(p$x, 5, gamma = 0.4, approx = "nystrom", landmarks = 20)
  options(old)
  expect_null(prep0$dg)
  for (method in c("dense", "iterative", "gram")) {
    for (case in list(list(prep = prep, A = Ad), list(prep = prep0, A = A))) {
      if (method == "gram" && !is.null(case$prep$dg)) next  # the low-rank case only
      fit <- with_eigen(method, suppressWarnings(
        mlss:::lewl_solve(p$ymiss, case$prep, 2, 2, 1, "exact", 0.5, 0, 1)))
      e <- eigen(tcrossprod(Yt) + 2 * case$A, symmetric = TRUE)
      expect_lt(max_sin_angle(fit$Z, e$vectors[, 1:2]), 1e-8)
      expect_equal(fit$values, e$values[1:2], tolerance = 1e-9)
    }
  }
  # "auto" on the low-rank factor takes the Gram route (no eigensolver products)
  fit <- suppressWarnings(mlss:::lewl_solve(p$ymiss, prep0, 2, 2, 1, "exact", 0.5, 0, 2))
  expect_identical(fit$eig_products, c(0L, 0L))
  # every row a landmark: K W^+ K' is K itself (to the eigenvalues dropped)
  ex <- lewl(p$x, p$ymiss, k = 2, gamma = 0.4, approx = "exact", tol = 1e-9)
  ny <- lewl(p$x, p$ymiss, k = 2, gamma = 0.4, approx = "nystrom", landmarks = 90,
             tol = 1e-9)
  expect_identical(c(ex$approx, ny$approx), c("exact", "nystrom"))
  expect_equal(ny$recovered, ex$recovered, tolerance = 1e-6)
  # below the switch "auto" is exact
  expect_identical(lewl(p$x, p$ymiss, k = 2)$approx, "exact")
  expect_error(lewl(p$x, p$ymiss, landmarks = 0), "'landmarks'")
  expect_error(lewl(p$x, p$ymiss, approx = "svd"), "'arg'")
})

# The over-relaxed recovery step (issue 23): from the second iteration on the
# missing entries move to y + w (y* - y), y* the exact step's minimiser.
# Reference: two iterations written from the equations (eigen(), solve()).
test_that("the over-relaxed recovery step: two iterations from the equations", {
  p <- lewl_problem(36, 4, m = 5, rate = 0.4, seed = 9)
  W <- ref_lewl_graph(p$x, 5, 1.5)
  K <- ref_lewl_kernel(p$x, 0.5)
  miss <- is.na(p$ymiss)
  for (w in c(1, 1.5, 1.8)) {
    old <- options(mlss.lewl_relax = w)
    fit <- suppressWarnings(lewl(p$x, p$ymiss, k = 2, lambda = 1, beta = 0.7, knn = 5,
                                 t = 1.5, gamma = 0.5, max_iter = 2, tol = 0))
    options(old)
    Y <- lewl_start(p$ymiss)
    for (it in 1:2) {
      Z <- ref_lewl_zstep(Y, K, 1, 2)
      star <- ref_lewl_recover_exact(Y, Z %*% crossprod(Z, Y), W, 0.7, miss)
      Y <- if (it == 1) star else Y + w * (star - Y)
    }
    expect_equal(fit$completed, Y, tolerance = 1e-8, ignore_attr = TRUE, info = w)
    expect_equal(fit$objective[2], ref_lewl_objective(Y, fit$Z, fit$D, W, K, 1, 0.7),
                 tolerance = 1e-9, info = w)
  }
  # the paper's formula is not a minimiser: it is never relaxed
  old <- options(mlss.lewl_relax = 1.5)
  fp <- suppressWarnings(lewl(p$x, p$ymiss, k = 2, lambda = 1, beta = 0.7, knn = 5, t = 1.5,
                              gamma = 0.5, max_iter = 2, tol = 0, recovery = "paper"))
  options(old)
  Y <- lewl_start(p$ymiss)
  for (it in 1:2) {
    Z <- ref_lewl_zstep(Y, K, 1, 2)
    Y <- ref_lewl_recover_paper(Y, Z %*% crossprod(Z, Y), W, 0.7, miss)
  }
  expect_equal(fp$completed, Y, tolerance = 1e-8, ignore_attr = TRUE)
})

test_that("relaxed and plain updates reach the same fixed point", {
  p <- lewl_problem(40, 4, m = 4, rate = 0.5, seed = 10)
  fits <- lapply(c(1, 1.5), function(w) {
    # over-relaxation against the plain alternation (no Anderson mixing)
    old <- options(mlss.lewl_relax = w, mlss.lewl_accel = 0L)
    on.exit(options(old))
    lewl(p$x, p$ymiss, k = 2, lambda = 1, beta = 1, knn = 5, gamma = 0.5, tol = 1e-13,
         max_iter = 5000)
  })
  expect_true(all(vapply(fits, `[[`, TRUE, "converged")))
  expect_equal(fits[[2]]$recovered, fits[[1]]$recovered, tolerance = 1e-6)
  expect_lt(fits[[2]]$iterations, fits[[1]]$iterations)
  old <- options(mlss.lewl_relax = 2)
  on.exit(options(old))
  expect_error(lewl(p$x, p$ymiss, k = 2), "mlss.lewl_relax")
})

# options(mlss.lewl_eig_warm_gram = TRUE) (measured in
# bench/lewl_scale_results.md, s35): on the factor with its diagonal, each
# Z-step's eigensolver starts from the exact eigenvectors of the low-rank part
# Yt Yt' + lambda G G'; a start changes the work, not the result.
test_that("the diagonal route warm-started from the low-rank part: the same Z-steps", {
  p <- lewl_problem(90, 4, m = 5, rate = 0.3, seed = 6)
  set.seed(2)
  prep <- mlss:::lewl_prepare(p$x, 5, gamma = 0.4, approx = "nystrom", landmarks = 20)
  expect_false(is.null(prep$dg))
  H <- ref_centre(90)
  A <- ref_nystrom_hkh(p$x, prep$landmarks, 0.4) + H %*% diag(prep$dg) %*% H
  Yt <- lewl_start(p$ymiss)
  one <- with_eigen("iterative", suppressWarnings(
    mlss:::lewl_solve(p$ymiss, prep, 2, 2, 1, "exact", 0.5, 0, 1, eig_warm_gram = TRUE)))
  e <- eigen(tcrossprod(Yt) + 2 * A, symmetric = TRUE)
  expect_lt(max_sin_angle(one$Z, e$vectors[, 1:2]), 1e-8)
  expect_equal(one$values, e$values[1:2], tolerance = 1e-9)
  runs <- lapply(c(FALSE, TRUE), function(warm) with_eigen("iterative", suppressWarnings(
    mlss:::lewl_solve(p$ymiss, prep, 2, 2, 1, "exact", 0.5, 0, 4, eig_warm_gram = warm))))
  expect_equal(runs[[2]]$completed, runs[[1]]$completed, tolerance = 1e-8)
  expect_equal(runs[[2]]$objective, runs[[1]]$objective, tolerance = 1e-10)
})

# The projected Z-step (session s37), the default on the factor with its
# diagonal: Rayleigh-Ritz of M = Yt Yt' + lambda (G G' + H diag(dg) H) on
# span[G, 1, dg, Yt], the span of M's low-rank part; the reference takes an
# orthonormal basis of that span from svd() and eigen() of the projected M.
ref_projected_zstep <- function(Yt, G, dg, lambda, k, exact = TRUE) {
  centre <- function(V) sweep(V, 2, colMeans(V))
  M_times <- function(V) tcrossprod(Yt, crossprod(V, Yt)) +
    lambda * (G %*% crossprod(G, V) + centre(dg * centre(V)))  # M V, H = centring
  s <- svd(cbind(G, 1, dg, Yt))
  Q <- s$u[, s$d > 1e-10 * s$d[1], drop = FALSE]
  e <- eigen(crossprod(Q, M_times(Q)), symmetric = TRUE)
  Z <- Q %*% e$vectors[, seq_len(k), drop = FALSE]
  list(Z = Z, values = e$values[seq_len(k)], MZ = M_times(Z),
       exact = if (exact) eigen(M_times(diag(nrow(Yt))), symmetric = TRUE))
}

test_that("the projected Z-step: Rayleigh-Ritz on the span of the low-rank part", {
  p <- lewl_problem(90, 4, m = 5, rate = 0.3, seed = 6)
  set.seed(2)
  prep <- mlss:::lewl_prepare(p$x, 5, gamma = 0.4, approx = "nystrom", landmarks = 20)
  Yt <- lewl_start(p$ymiss)
  for (lambda in c(0.5, 10)) for (k in c(2, 5)) {
    fit <- with_eigen("projected", suppressWarnings(
      mlss:::lewl_solve(p$ymiss, prep, k, lambda, 1, "exact", 0.5, 0, 1)))
    ref <- ref_projected_zstep(Yt, prep$G, prep$dg, lambda, k)
    expect_lt(max_sin_angle(fit$Z, ref$Z), 1e-8)
    expect_equal(fit$values, ref$values, tolerance = 1e-9)
    expect_equal(crossprod(fit$Z), diag(k), tolerance = 1e-10, ignore_attr = TRUE)
    expect_identical(fit$eig_products, 0L)
    # an approximation of the exact eigenvectors (here where lambda max(dg) is
    # not small against the eigenvalues: the bound is loose)
    ang <- max_sin_angle(fit$Z, ref$exact$vectors[, seq_len(k)])
    expect_gt(ang, 1e-6)
    expect_lt(ang, 0.1)
  }
  # the second iteration's Z-step at the first one's completed matrix (the
  # missing entries' part of G'Yt taken afresh, the observed part once)
  two <- lapply(1:2, function(it) with_eigen("projected", suppressWarnings(
    mlss:::lewl_solve(p$ymiss, prep, 3, 2, 1, "exact", 0.5, 0, it))))
  ref2 <- ref_projected_zstep(unname(two[[1]]$completed), prep$G, prep$dg, 2, 3,
                              exact = FALSE)
  expect_lt(max_sin_angle(two[[2]]$Z, ref2$Z), 1e-8)
  expect_equal(two[[2]]$values, ref2$values, tolerance = 1e-9)
  # the eigensolver still gives the exact eigenvectors
  ref <- ref_projected_zstep(Yt, prep$G, prep$dg, 2, 3)
  it <- with_eigen("iterative", suppressWarnings(
    mlss:::lewl_solve(p$ymiss, prep, 3, 2, 1, "exact", 0.5, 0, 1)))
  expect_lt(max_sin_angle(it$Z, ref$exact$vectors[, 1:3]), 1e-8)
  # a zero diagonal: the span holds M's whole range, the exact eigenvectors
  prep0 <- prep
  prep0$dg <- rep(0, 90)
  z0 <- with_eigen("projected", suppressWarnings(
    mlss:::lewl_solve(p$ymiss, prep0, 3, 2, 1, "exact", 0.5, 0, 1)))
  e0 <- eigen(tcrossprod(Yt) + 2 * tcrossprod(prep$G), symmetric = TRUE)
  expect_lt(max_sin_angle(z0$Z, e0$vectors[, 1:3]), 1e-8)
  expect_equal(z0$values, e0$values[1:3], tolerance = 1e-9)
})

# "auto" above 1200 rows: the projected route where the first Z-step's Ritz
# residuals are at most 0.005 of theta_k, else the eigensolver (the exact
# eigenvectors); the diagonal scaled to move the residuals across the bound.
test_that("auto takes the projected route only where its residuals are small", {
  p <- lewl_problem(1250, 3, m = 4, rate = 0.3, seed = 7)
  set.seed(3)
  prep <- mlss:::lewl_prepare(p$x, 5, gamma = 0.5, approx = "nystrom", landmarks = 15)
  Yt <- lewl_start(p$ymiss)
  # the largest residual over theta_k of the projected Ritz pairs (reference)
  ratio <- function(pr, lambda, k) {
    ref <- ref_projected_zstep(Yt, pr$G, pr$dg, lambda, k, exact = FALSE)
    max(sqrt(colSums((ref$MZ - ref$Z %*% diag(ref$values, k))^2))) / ref$values[k]
  }
  seen <- logical(0)
  for (s in c(1e-3, 6, 20)) {  # ratios 6e-7, 0.0035, 0.0116
    pr <- prep
    pr$dg <- prep$dg * s
    r <- ratio(pr, 1, 2)
    seen <- c(seen, r <= 0.005)
    auto <- suppressWarnings(mlss:::lewl_solve(p$ymiss, pr, 2, 1, 1, "exact", 0.5, 0, 1))
    if (r <= 0.005) {
      expect_identical(auto$eig_products, 0L)
      fp <- with_eigen("projected", suppressWarnings(
        mlss:::lewl_solve(p$ymiss, pr, 2, 1, 1, "exact", 0.5, 0, 1)))
      expect_equal(auto$Z, fp$Z, tolerance = 1e-12)
    } else {
      expect_gt(auto$eig_products, 0L)
      it <- with_eigen("iterative", suppressWarnings(
        mlss:::lewl_solve(p$ymiss, pr, 2, 1, 1, "exact", 0.5, 0, 1)))
      expect_lt(max_sin_angle(auto$Z, it$Z), 1e-8)
    }
  }
  expect_identical(seen, c(TRUE, TRUE, FALSE))  # both branches taken
  # where the eigensolver's basis would exceed n (here a deep Krylov basis),
  # a projected step over the bound falls back to the dense route
  pr$dg <- prep$dg * 20
  deep <- suppressWarnings(mlss:::lewl_solve(p$ymiss, pr, 2, 1, 1, "exact", 0.5, 0, 1,
                                             eig_depth = 200L))
  it <- with_eigen("iterative", suppressWarnings(
    mlss:::lewl_solve(p$ymiss, pr, 2, 1, 1, "exact", 0.5, 0, 1)))
  expect_lt(max_sin_angle(deep$Z, it$Z), 1e-8)
})
