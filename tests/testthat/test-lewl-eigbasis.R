# LEWL's basis route (issue 23, session s39): H K H = V diag(s) V' once per
# prepared kernel, and the Z-step's eigensolver on V' M V = lambda diag(s) +
# F F', F = V' Yt.  References: the centred kernel and eigen() of the formed
# M in plain R (helper-lewl.R), and the dense route.

max_sin_angle <- function(A, B) max(svd(A - B %*% crossprod(B, A))$d)

# below 1200 rows "auto" keeps the dense route: the basis route forced
with_basis <- function(expr) {
  old <- options(mlss.lewl_eigen = "basis")
  on.exit(options(old))
  expr
}

lewl_start <- function(y, init = 0.5) {
  s <- y + 0
  s[is.na(s)] <- init
  s
}

test_that("the prepared eigenbasis is that of H K H", {
  p <- lewl_problem(60, 4, m = 5, seed = 11)
  prep <- with_basis(mlss:::lewl_prepare(p$x, 5, gamma = 0.3))
  H <- ref_centre(60)
  HKH <- H %*% ref_lewl_kernel(p$x, 0.3) %*% H
  V <- prep$basis$V
  expect_equal(crossprod(V), diag(60), tolerance = 1e-10)
  expect_equal(V %*% (prep$basis$s * t(V)), HKH, tolerance = 1e-10)
  expect_false(is.unsorted(rev(prep$basis$s)))
  # the constant vector: eigenvalue 0
  expect_lt(min(abs(prep$basis$s)), 1e-10)
  # another Z-step route, or "auto" at 1200 rows or fewer, skips the decomposition
  expect_null(mlss:::lewl_prepare(p$x, 5, gamma = 0.3)$basis)
  expect_identical(vapply(c(1200, 1201, 2500, 2501), mlss:::lewl_use_basis, NA,
                          shared = TRUE, method = "auto"), c(FALSE, TRUE, TRUE, FALSE))
  # one fit (a kernel not shared by several fits) keeps the other routes
  expect_false(mlss:::lewl_use_basis(2000, method = "auto"))
  expect_false(mlss:::lewl_use_basis(2000, TRUE, method = "iterative"))
  expect_true(mlss:::lewl_use_basis(10, method = "basis"))
})

test_that("the basis Z-step spans the top-k eigenspace of the formed M (eigen())", {
  p <- lewl_problem(150, 5, m = 6, rate = 0.3, seed = 3)
  prep <- mlss:::lewl_prepare(p$x, 5, gamma = 0.2, eig_basis = TRUE)
  Yt <- lewl_start(p$ymiss)
  H <- ref_centre(150)
  HKH <- H %*% ref_lewl_kernel(p$x, 0.2) %*% H
  for (lambda in c(0, 0.5, 5)) for (k in c(3L, 6L)) for (method in c("auto", "basis")) {
    fit <- suppressWarnings(mlss:::lewl_solve(p$ymiss, prep, k, lambda, 1, "exact", 0.5,
                                              0, 1, eig_method = method))
    e <- eigen(tcrossprod(Yt) + lambda * HKH, symmetric = TRUE)
    info <- paste(lambda, k, method)
    expect_gt(sum(fit$eig_products), 0)  # the eigensolver, not dsyevr
    expect_lt(max_sin_angle(fit$Z, e$vectors[, seq_len(k)]), 1e-8)
    expect_equal(fit$values, e$values[seq_len(k)], tolerance = 1e-9, info = info)
    expect_equal(crossprod(fit$Z), diag(k), tolerance = 1e-10, ignore_attr = TRUE)
    expect_equal(fit$D, crossprod(fit$Z, Yt), tolerance = 1e-9, ignore_attr = TRUE)
  }
})

test_that("ties among the eigenvalues of H K H (duplicated rows) do not matter", {
  p <- lewl_problem(60, 3, m = 5, rate = 0.3, seed = 7)
  x <- p$x[c(1:60, 1:60, 1:30), ]  # the kernel's duplicated rows: eigenvalue 0, many times
  y <- p$ymiss[c(1:60, 1:60, 1:30), ]
  prep <- mlss:::lewl_prepare(x, 5, gamma = 0.5, eig_basis = TRUE)
  expect_gte(sum(abs(prep$basis$s) < 1e-8), 90)
  H <- ref_centre(150)
  HKH <- H %*% ref_lewl_kernel(x, 0.5) %*% H
  Yt <- lewl_start(y)
  fit <- suppressWarnings(mlss:::lewl_solve(y, prep, 5, 1, 1, "exact", 0.5, 0, 1))
  e <- eigen(tcrossprod(Yt) + HKH, symmetric = TRUE)
  expect_lt(max_sin_angle(fit$Z, e$vectors[, 1:5]), 1e-8)
})

test_that("the basis route recovers what the dense route does, warm-started or not", {
  p <- lewl_problem(140, 4, m = 5, rate = 0.5, seed = 4)
  args <- list(p$x, p$ymiss, k = 5, lambda = 1, beta = 1, gamma = 0.3, knn = 6, tol = 1e-9)
  fd <- do.call(lewl, args)  # "auto": the dense route at 140 rows
  fb <- with_basis(do.call(lewl, args))
  expect_lt(max_sin_angle(fb$Z, fd$Z), 1e-8)
  expect_equal(fb$recovered, fd$recovered, tolerance = 1e-6)
  expect_equal(fb$objective, fd$objective, tolerance = 1e-8)
  # a warm start of the eigensolver (cv_lewl()'s along its grid) changes the
  # work, not the fit
  prep <- mlss:::lewl_prepare(p$x, 6, gamma = 0.3, eig_basis = TRUE)
  cold <- mlss:::lewl_solve(p$ymiss, prep, 5, 1, 1, "exact", 0.5, 1e-9, 500)
  warm <- mlss:::lewl_solve(p$ymiss, prep, 5, 1, 1, "exact", 0.5, 1e-9, 500,
                            Z0 = fd$Z[, 5:1])
  expect_lt(max_sin_angle(warm$Z, cold$Z), 1e-8)
  expect_equal(warm$completed, cold$completed, tolerance = 1e-8)
})

test_that("from the third Z-step on, the eigensolver's history is the call before the last's", {
  # eigs_top()'s history block (session 43): the first two Z-steps take b
  # products per Krylov block, the later ones b + k for the first basis
  # [X, history] and then b per block (k = 5, b = k + 10)
  p <- lewl_problem(140, 4, m = 5, rate = 0.5, seed = 4)
  prep <- mlss:::lewl_prepare(p$x, 6, gamma = 0.3, eig_basis = TRUE)
  for (method in c("basis", "iterative")) {
    f <- mlss:::lewl_solve(p$ymiss, prep, 5L, 1, 1, "exact", 0.5, 1e-9, 500,
                           eig_method = method)
    pr <- f$eig_products
    expect_gt(length(pr), 3)
    expect_identical(pr[1:2] %% 15L, c(0L, 0L), info = method)
    expect_true(all((pr[-(1:2)] - 5L) %% 15L == 0L), info = method)
  }
})

test_that("M of low rank (lambda = 0) and a start from the exact eigenvectors (session s40)", {
  # lambda = 0: M = Yt Yt' has rank 6 below the block (k + 10 columns), so
  # the Krylov blocks lose columns and the orthogonalisation projects again
  p <- lewl_problem(150, 5, m = 6, rate = 0.3, seed = 3)
  prep <- mlss:::lewl_prepare(p$x, 5, gamma = 0.2, eig_basis = TRUE)
  args <- list(p$ymiss, prep, 4L, 0, 1, "exact", 0.5, 0, 25L)
  fb <- suppressWarnings(do.call(mlss:::lewl_solve, c(args, eig_method = "basis")))
  fd <- suppressWarnings(do.call(mlss:::lewl_solve, c(args, eig_method = "dense")))
  expect_gt(sum(fb$eig_products), 0)
  expect_lt(max_sin_angle(fb$Z, fd$Z), 1e-8)
  expect_equal(crossprod(fb$Z), diag(4), tolerance = 1e-10, ignore_attr = TRUE)
  expect_equal(fb$completed, fd$completed, tolerance = 1e-6)
  expect_equal(fb$objective, fd$objective, tolerance = 1e-10)
  # Z0 = the top eigenvectors of the formed M: the start already holds them
  Yt <- lewl_start(p$ymiss)
  H <- ref_centre(150)
  M <- tcrossprod(Yt) + H %*% ref_lewl_kernel(p$x, 0.2) %*% H
  e <- eigen(M, symmetric = TRUE)
  fit <- suppressWarnings(mlss:::lewl_solve(p$ymiss, prep, 5L, 1, 1, "exact", 0.5, 0, 1L,
                                            eig_method = "basis", Z0 = e$vectors[, 1:5]))
  expect_lt(max_sin_angle(fit$Z, e$vectors[, 1:5]), 1e-8)
  expect_equal(fit$values, e$values[1:5], tolerance = 1e-10)
  expect_equal(crossprod(fit$Z), diag(5), tolerance = 1e-10, ignore_attr = TRUE)
})
