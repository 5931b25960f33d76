# Invariance to an offset (issue 28): adding 1e8 to every column of x must
# not change a model whose problem is invariant to it.  The data are
# multiples of 2^-6, so that x + 1e8 is exact and any difference comes from
# the method.  Two limits, both stated where they apply:
# - a linear model's scores x'w + b at |x| ~ 1e8 add and cancel terms of 1e8
#   |w|: evaluating them in double costs about eps * 1e8 * sum|w|, whatever
#   the fit.  For affine models that floor is added to the 1e-8 tolerance
#   (the slopes w are measured from the fit itself).
# - models whose problem is not invariant (a penalised intercept) are shown
#   to change, and the test says why; their help pages say so.

off_data <- function(n, d, seed) {
  set.seed(seed)
  x <- round(matrix(rnorm(n * d), n) * 64) / 64
  y <- matrix(runif(n * 3) < 0.4, n, dimnames = list(NULL, paste0("L", 1:3)))
  y[1:3, ] <- TRUE
  y[4:6, ] <- FALSE
  list(x = x, y = y)
}

off_gap <- function(s1, s2) max(abs(s1 - s2)) / max(1, max(abs(s1)))

# The slopes of an affine model's scores, from its own predictions at 0 and
# at the unit vectors: the error floor of evaluating x'w + b at |x| = off.
off_floor <- function(fit, d, off) {
  Z <- rbind(0, diag(d))
  s <- as.matrix(predict(fit, Z, type = "score"))
  w <- sweep(s[-1, , drop = FALSE], 2, s[1, ])
  4 * .Machine$double.eps * off * max(colSums(abs(w)))
}

# Fit on x and on x + off (dense, then sparse), same seed for both, and
# return the relative gap of the scores and the floor of the first fit.
off_compare <- function(fit_fun, n, d, sparse, seed = 1, off = 1e8, affine = TRUE) {
  dat <- off_data(n, d, seed)
  x1 <- dat$x
  x2 <- dat$x + off
  if (sparse) {
    x1 <- Matrix::Matrix(x1, sparse = TRUE)
    x2 <- Matrix::Matrix(x2, sparse = TRUE)
  }
  set.seed(2)
  f1 <- fit_fun(x1, dat$y)
  set.seed(2)
  f2 <- fit_fun(x2, dat$y)
  s1 <- as.matrix(predict(f1, x1, type = "score"))
  s2 <- as.matrix(predict(f2, x2, type = "score"))
  list(gap = off_gap(s1, s2), floor = if (affine) off_floor(f1, d, off) else 0)
}

expect_offset_invariant <- function(fit_fun, affine = TRUE, tol = 1e-8,
                                    shapes = list(c(40, 5), c(30, 50))) {
  for (sh in shapes) for (sparse in c(FALSE, TRUE)) {
    r <- off_compare(fit_fun, sh[1], sh[2], sparse, affine = affine)
    expect_true(r$gap <= tol + r$floor,
                label = sprintf("n = %d, d = %d, sparse = %s: gap %.3g <= %.3g + floor %.3g",
                                sh[1], sh[2], sparse, r$gap, tol, r$floor))
  }
}

test_that("the ridge-type linear models are invariant to an offset", {
  # both routes: d < n (primal, X'X) and d > n (dual, XX')
  expect_offset_invariant(function(x, y) mlls(x, y, alpha = 1, beta = 0.1))
  expect_offset_invariant(function(x, y) ssmddm(x, y, alpha = 1, beta = 0.1, k = 2))
  expect_offset_invariant(function(x, y) mddm(x, y, k = 2))
  expect_offset_invariant(function(x, y) br(x, y, learner = "ridge", cost = 1))
  expect_offset_invariant(function(x, y) cca_ridge(x, y, lambda = 1))
  # the SVM on the centred canonical projection: its bias is penalised, but
  # on centred data (enough iterations to converge: a stop at 'max_iter' is
  # wherever the path was)
  expect_offset_invariant(function(x, y) cca_svm(x, y, lambda = 1, max_iter = 1e5))
})

test_that("cplst() and aso_svm(loss = 'ls') are invariant to an offset", {
  expect_offset_invariant(function(x, y) cplst(x, y, k = 2, lambda = 1))
  expect_offset_invariant(function(x, y) aso_svm(x, y, alpha = 0.1, r = 2, loss = "ls"))
})

test_that("cplst() matches a plain-R CPLST on centred data at a large offset", {
  dat <- off_data(30, 50, 3)  # d > n: the Gram route
  for (dd in c(50, 5)) {      # and d <= n
    x <- dat$x[, seq_len(dd)] + 1e8
    y <- dat$y
    Xc <- dat$x[, seq_len(dd)] - rep(colMeans(dat$x[, seq_len(dd)]), each = 30)
    Yc <- y - rep(colMeans(y), each = 30)
    H <- Xc %*% solve(crossprod(Xc) + diag(dd), t(Xc))
    V <- eigen(crossprod(Yc, H %*% Yc), symmetric = TRUE)$vectors[, 1:2]
    W <- solve(crossprod(Xc) + diag(dd), crossprod(Xc, Yc %*% V)) %*% t(V)
    fit <- cplst(x, y, k = 2, lambda = 1)
    expect_lt(max(abs(fit$W - W)) / max(abs(W)), 1e-9)
  }
  # the d <= n route no longer calls X'X + I singular at an offset of 1e8
  expect_silent(cplst(dat$x[, 1:5] + 1e8, dat$y, k = 2, lambda = 1))
})

test_that("mlcrf() standardises with the variance of the centred data", {
  dat <- off_data(40, 5, 4)
  x <- dat$x + 1e7
  fit <- mlcrf(x, dat$y, edges = "none", lambda_v = 0.1)
  sd_ref <- apply(dat$x, 2, function(v) sqrt(mean((v - mean(v))^2)))
  expect_lt(max(abs(fit$scale - sd_ref) / sd_ref), 1e-12)
  xs <- Matrix::Matrix(x, sparse = TRUE)
  fit_s <- mlcrf(xs, dat$y, edges = "none", lambda_v = 0.1)
  expect_lt(max(abs(fit_s$scale - sd_ref) / sd_ref), 1e-12)
  # huge values do not overflow the variance: the scale is the scaled one
  fit_h <- mlcrf(dat$x * 1e200, dat$y, edges = "none", lambda_v = 0.1)
  expect_lt(max(abs(fit_h$scale / 1e200 - sd_ref) / sd_ref), 1e-12)
})

test_that("mlcrf() is invariant to an offset up to its solver's tolerance", {
  # edges = "none": one smooth problem, the same to the last digit
  expect_offset_invariant(function(x, y) mlcrf(x, y, edges = "none", lambda_v = 0.1),
                          affine = FALSE, shapes = list(c(40, 5)))
  # with edges, the solver stops where rounding has taken it: a shift by 1,
  # where nothing cancels, already moves the scores by 1.6e-7.  An offset of
  # 1e8 must add nothing beyond the rounding of x + 1e8 itself (its spacing
  # is 1.5e-8: the shifted data differ from the unshifted by that much, and
  # the scores moved by up to 2.4e-8 with the solver of 2026-11-25 whatever
  # its tol); it moved them by 0.09 with the one-pass variance and the
  # implicit centring in C
  ff <- function(x, y)
    mlcrf(x, y, edges = "full", lambda_v = 0.1, lambda_w = 0.01, tol = 1e-10)
  for (sparse in c(FALSE, TRUE)) {
    base <- off_compare(ff, 40, 5, sparse, off = 1, affine = FALSE)$gap
    expect_lte(off_compare(ff, 40, 5, sparse, affine = FALSE)$gap, 2 * base + 1e-7)
  }
})

test_that("the distance-based methods are invariant to an offset", {
  # kNN distances are differences of rows: nothing cancels; the default
  # scaling divides by the column range (dense: after subtracting the
  # minimum; sparse: counting its zeros), which an offset does not change
  expect_offset_invariant(function(x, y) mlknn(x, y, k = 5), affine = FALSE)
  expect_offset_invariant(function(x, y) iblr(x, y, k = 5), affine = FALSE)
  expect_offset_invariant(function(x, y) mlknn(x, y, k = 5, scale = FALSE), affine = FALSE)
  expect_offset_invariant(function(x, y) mlml(x, y, knn = 5), affine = FALSE)
  # the [0, 1] scaling of a dense x uses the column minimum: invariant too
  for (sh in list(c(40, 5), c(30, 50))) {
    r <- off_compare(function(x, y) mlknn(x, y, k = 5, scale = TRUE), sh[1], sh[2],
                     FALSE, affine = FALSE)
    expect_lte(r$gap, 1e-8)
  }
  # lewl(): the graph from distances of centred data, a ridge regressor on x
  expect_offset_invariant(function(x, y) lewl(x, y, knn = 5))
})

test_that("methods with a penalised intercept change with an offset, as documented", {
  # LIBLINEAR's bias is a constant feature whose weight is penalised (the help
  # pages of br(), cc(), pcc(), iblr() and aso_svm() say so): an
  # offset changes the problem, not only its rounding.  Centre x first.
  changed <- function(fit_fun, sparse = FALSE)
    suppressWarnings(off_compare(fit_fun, 40, 5, sparse, affine = FALSE)$gap)
  expect_gt(changed(function(x, y) br(x, y, learner = "logistic", cost = 1)), 1e-3)
  expect_gt(changed(function(x, y) br(x, y, learner = "svm", cost = 1)), 1e-3)
  expect_gt(changed(function(x, y) cc(x, y)), 1e-3)
  expect_gt(changed(function(x, y) pcc(x, y)), 1e-3)
  expect_gt(changed(function(x, y) iblr(x, y, k = 5, features = TRUE, scale = FALSE)), 1e-3)
  expect_gt(changed(function(x, y) aso_svm(x, y, alpha = 0.1, r = 2)), 1e-3)
  # iblr()'s features enter its logistic models: unscaled, or scaled without
  # a shift (sparse x), the offset reaches the penalised intercept
  expect_gt(changed(function(x, y) iblr(x, y, k = 5, features = TRUE, scale = TRUE),
                    sparse = TRUE), 1e-3)
})

test_that("huge data: cplst() and aso_svm(loss = 'ls') stop clearly, mlml() is exact", {
  dat <- off_data(20, 3, 5)
  expect_error(cplst(dat$x * 1e200, dat$y, k = 2), "cross products of 'x' overflow")
  expect_error(aso_svm(dat$x * 1e200, dat$y, alpha = 0.1, r = 2, loss = "ls"),
               "cross products of 'x' overflow")
  # MLML's graph depends on the distances' ratios only: x * 1e200 is x
  f1 <- mlml(dat$x, dat$y, knn = 3)
  f2 <- mlml(dat$x * 1e200, dat$y, knn = 3)
  expect_lt(max(abs(f1$recovered - f2$recovered)), 1e-12)
  expect_lt(max(abs(predict(f1, dat$x) - predict(f2, dat$x * 1e200))), 1e-12)
})

test_that("the toolbox's methods: invariant with the ridge learner, not with the logistic", {
  # LP, PS and RAkEL fit br()'s learners: with "ridge" (unpenalised
  # intercept) nothing changes; the default "logistic" has br()'s penalised
  # intercept (see ?br), as have ECC and EBR (cc() and br(learner =
  # "logistic") underneath)
  expect_offset_invariant(function(x, y) lp(x, y, learner = "ridge"))
  expect_offset_invariant(function(x, y) ps(x, y, p = 2, b = 1, learner = "ridge"))
  expect_offset_invariant(function(x, y) rakel(x, y, k = 2, learner = "ridge"))
  changed <- function(fit_fun)
    suppressWarnings(off_compare(fit_fun, 40, 5, FALSE, affine = FALSE)$gap)
  expect_gt(changed(function(x, y) lp(x, y)), 1e-3)
  expect_gt(changed(function(x, y) ps(x, y, p = 2, b = 1)), 1e-3)
  expect_gt(changed(function(x, y) rakel(x, y, k = 2)), 1e-3)
  expect_gt(changed(function(x, y) ecc(x, y, n_models = 3)), 1e-3)
  expect_gt(changed(function(x, y) ebr(x, y, n_models = 3)), 1e-3)
})

test_that("EPS, HOMER, CLR, BR+ and DBR: invariant with the ridge learner, not with the logistic", {
  # the same two learners as above, under the second-layer and pairwise fits
  # (off_compare() sets the same seed before both fits of a random method)
  expect_offset_invariant(function(x, y) eps(x, y, n_models = 3, p = 1, b = 1,
                                             learner = "ridge"))
  expect_offset_invariant(function(x, y) homer(x, y, k = 2, learner = "ridge"))
  expect_offset_invariant(function(x, y) clr(x, y, learner = "ridge"))
  expect_offset_invariant(function(x, y) brplus(x, y, learner = "ridge", inner_folds = 1))
  expect_offset_invariant(function(x, y) dbr(x, y, learner = "ridge"))
  changed <- function(fit_fun)
    suppressWarnings(off_compare(fit_fun, 40, 5, FALSE, affine = FALSE)$gap)
  expect_gt(changed(function(x, y) eps(x, y, n_models = 3, p = 1, b = 1)), 1e-3)
  expect_gt(changed(function(x, y) homer(x, y, k = 2)), 1e-3)
  expect_gt(changed(function(x, y) clr(x, y, vote = "score")), 1e-3)
  expect_gt(changed(function(x, y) brplus(x, y, inner_folds = 1)), 1e-3)
  expect_gt(changed(function(x, y) dbr(x, y)), 1e-3)
})

test_that("every method of the registry is covered by this file", {
  # a new entry of ml_registry() must be added to one of these lists, with a
  # test above: invariant (at the settings of its test), or changed by an
  # offset for a documented reason (a penalised intercept)
  invariant <- c("mlls", "ssmddm", "mddm", "br", "cca_ridge", "cca_svm", "cplst",
                 "aso_svm", "mlcrf", "mlknn", "iblr", "mlml", "lewl", "lp", "ps", "rakel", "eps", "homer", "clr",
                 "brplus", "dbr")
  changed <- c("br", "cc", "pcc", "iblr", "aso_svm", "lp", "ps", "rakel", "ecc", "ebr",
               "eps", "homer", "clr", "brplus", "dbr")
  expect_setequal(union(invariant, changed), names(mlss:::ml_registry()))
})
