# Data in chunks (R/chunks.R, R/chunked_sums.R, R/mlls_chunked.R): the fits
# from sums against the in-memory fits, the merge against plain-R sums, the
# cross-validation against a plain-R reference with the same folds, the same
# answer on future's backends, SQLite, and the chunks that go wrong.

chunk_data <- function(n = 300, d = 8, m = 4, offset = 0, seed = 1) {
  set.seed(seed)
  x <- matrix(rnorm(n * d), n, d, dimnames = list(NULL, paste0("f", seq_len(d))))
  x[, 2] <- x[, 2] + offset
  W <- matrix(rnorm(d * m), d, m)
  s <- scale(x, scale = FALSE) %*% W
  y <- (s + rnorm(n * m)) > 0
  colnames(y) <- paste0("L", seq_len(m))
  list(x = x, y = y)
}

# chunk sizes of unequal length, with a chunk of one row and an empty one
chunk_rows_of <- function(sizes) {
  ends <- cumsum(sizes)
  lapply(seq_along(sizes), function(i) seq_len(sizes[i]) + ends[i] - sizes[i])
}

function_source <- function(data, sizes, sparse = FALSE) {
  rows <- chunk_rows_of(sizes)
  force(sparse)
  ml_chunks(function(i) {
    x <- data$x[rows[[i]], , drop = FALSE]
    if (sparse) x <- Matrix::Matrix(x, sparse = TRUE)
    list(x = x, y = data$y[rows[[i]], , drop = FALSE])
  }, n_chunks = length(sizes))
}

rel_err <- function(a, b) max(abs(a - b)) / max(abs(b))

sizes <- c(120, 1, 0, 79, 100)

test_that("chunked mlls() equals the in-memory fit (dense, intercept, column mean 1e8)", {
  d <- chunk_data(offset = 1e8)
  src <- function_source(d, sizes)
  for (ab in list(c(0.1, 0.01), c(0, 0.1), c(Inf, 0.01), c(1, 0))) {
    f1 <- mlls(src, alpha = ab[1], beta = ab[2], r = 2, thresholds = "none",
               progress = FALSE)
    f0 <- mlls(d$x, d$y, alpha = ab[1], beta = ab[2], r = 2)
    expect_s3_class(f1, "mlls")
    expect_lt(rel_err(f1$U, f0$U), 1e-10)
    expect_lt(rel_err(f1$intercept, f0$intercept), 1e-10)
    # the subspace: the same span
    expect_lt(rel_err(crossprod(t(f1$Theta), t(f0$Theta))^2, diag(2)), 1e-10)
    expect_equal(f1$nobs, 300)
    expect_equal(f1$chunk_rows, sizes)
    expect_equal(f1$rank, f0$rank)
    expect_equal(f1$sdev, f0$sdev, tolerance = 1e-10)
  }
  # (scores are not compared here: x U + b cancels a mean of 1e8 in both fits)
})

test_that("chunked mlls() equals the in-memory fit without intercept, and for sparse chunks", {
  d <- chunk_data()
  d$x[abs(d$x) < 0.8] <- 0
  src <- function_source(d, sizes)
  srcs <- function_source(d, sizes, sparse = TRUE)
  xs <- Matrix::Matrix(d$x, sparse = TRUE)
  for (icpt in c(TRUE, FALSE)) {
    f0 <- mlls(d$x, d$y, alpha = 0.5, beta = 0.01, r = 2, intercept = icpt)
    f1 <- mlls(src, alpha = 0.5, beta = 0.01, r = 2, intercept = icpt, thresholds = "none",
               progress = FALSE)
    f2 <- mlls(srcs, alpha = 0.5, beta = 0.01, r = 2, intercept = icpt, thresholds = "none",
               progress = FALSE)
    f3 <- mlls(xs, d$y, alpha = 0.5, beta = 0.01, r = 2, intercept = icpt)
    expect_lt(rel_err(f1$U, f0$U), 1e-10)
    expect_lt(rel_err(f2$U, f3$U), 1e-10)
    expect_lt(rel_err(f2$U, f0$U), 1e-10)
    expect_lt(rel_err(predict(f1, d$x, type = "score"), predict(f0, d$x, type = "score")), 1e-10)
    if (icpt) expect_lt(rel_err(f2$intercept, f0$intercept), 1e-10)
    else expect_true(all(f1$intercept == 0))
  }
  # a sparse chunk with a column of mean 1e8 (stored centred, as mlls() does)
  d <- chunk_data(offset = 1e8)
  d$x[abs(d$x) < 0.8] <- 0
  f0 <- mlls(d$x, d$y, alpha = 0.5, beta = 0.01, r = 2)
  f2 <- mlls(function_source(d, sizes, sparse = TRUE), alpha = 0.5, beta = 0.01, r = 2,
             thresholds = "none", progress = FALSE)
  expect_lt(rel_err(f2$U, f0$U), 1e-10)
})

test_that("the merge of Chan, Golub and LeVeque equals plain-R sums, and subtraction undoes it", {
  d <- chunk_data(n = 50, offset = 1e8)
  Y <- 2 * d$y - 1
  ref <- function(rows) {  # plain R: centred cross products of the rows
    xc <- scale(d$x[rows, ], scale = FALSE)
    yc <- scale(Y[rows, ], scale = FALSE)
    list(n = length(rows), mx = colMeans(d$x[rows, ]), Sxx = crossprod(xc),
         Sxy = crossprod(xc, yc), Syy = crossprod(yc))
  }
  a <- mlss:::block_sums(d$x[1:7, ], d$y[1:7, ])
  b <- mlss:::block_sums(d$x[8:50, ], d$y[8:50, ])
  s <- mlss:::merge_sums(a, b)
  r <- ref(1:50)
  expect_equal(s$n, 50)
  expect_equal(unname(s$mx), unname(r$mx), tolerance = 1e-15)
  expect_lt(rel_err(s$Sxx, r$Sxx), 1e-8)   # r's own error: its means lose ~1e-8
  expect_lt(rel_err(s$Sxy, r$Sxy), 1e-8)
  expect_lt(rel_err(s$Syy, r$Syy), 1e-12)
  back <- mlss:::subtract_sums(s, a)
  expect_equal(back$n, b$n)
  expect_lt(rel_err(back$Sxx, b$Sxx), 1e-10)
  expect_lt(rel_err(back$Sxy, b$Sxy), 1e-10)
  expect_lt(max(abs(back$mx - b$mx)), 1e-6)
  # folds: each fold's training sums are the merge of the others
  folds <- list(a, b, mlss:::block_sums(d$x[1:3, ], d$y[1:3, ]))
  tr <- mlss:::fold_training_sums(folds)
  expect_equal(tr[[3]]$n, 50)
  expect_lt(rel_err(tr[[3]]$Sxx, r$Sxx), 1e-8)
})

test_that("a chunk's rows are summed in blocks per fold as plain-R sums of each fold", {
  d <- chunk_data(n = 50, offset = 1e6)
  Y <- 2 * d$y - 1
  fold <- rep_len(c(2L, 1L, 3L, 3L), 50)
  s <- mlss:::fold_block_sums(d$x, d$y, fold, 3, block = 7)  # 8 blocks of at most 7 rows
  for (f in 1:3) {
    rows <- which(fold == f)
    xc <- scale(d$x[rows, ], scale = FALSE)
    yc <- scale(Y[rows, ], scale = FALSE)
    expect_equal(s[[f]]$n, length(rows))
    expect_equal(unname(s[[f]]$mx), unname(colMeans(d$x[rows, ])), tolerance = 1e-14)
    expect_lt(rel_err(s[[f]]$Sxx, crossprod(xc)), 1e-8)
    expect_lt(rel_err(s[[f]]$Sxy, crossprod(xc, yc)), 1e-8)
    expect_lt(rel_err(s[[f]]$Syy, crossprod(yc)), 1e-12)
  }
  whole <- mlss:::fold_block_sums(d$x, d$y, fold, 3)  # one block
  expect_lt(rel_err(s[[2]]$Sxx, whole[[2]]$Sxx), 1e-10)
  expect_equal(mlss:::fold_block_sums(d$x[0, ], d$y[0, ], integer(0), 2)[[2]]$n, 0)
})

test_that("chunks whose row counts multiply past the integer range merge", {
  set.seed(5)
  x <- matrix(rnorm(2.4e5), ncol = 2, dimnames = list(NULL, c("a", "b")))
  y <- cbind(l = x[, 1] + rnorm(1.2e5) > 0)
  src <- ml_chunks(function(i) list(x = x[(i - 1) * 6e4 + 1:6e4, ],
                                    y = y[(i - 1) * 6e4 + 1:6e4, , drop = FALSE]),
                   n_chunks = 2)
  f1 <- mlls(src, alpha = 0, beta = 0.01, thresholds = "none", progress = FALSE)
  expect_lt(rel_err(f1$U, mlls(x, y, alpha = 0, beta = 0.01)$U), 1e-10)
})

test_that("more chunks than the 32 groups of the map are all merged", {
  d <- chunk_data(n = 210)
  src <- function_source(d, c(rep(3, 69), 3))
  f1 <- mlls(src, alpha = 0.1, beta = 0.01, r = 2, thresholds = "none", progress = FALSE)
  expect_equal(f1$nobs, 210)
  expect_lt(rel_err(f1$U, mlls(d$x, d$y, alpha = 0.1, beta = 0.01, r = 2)$U), 1e-10)
})

test_that("the fold rule is balanced within a chunk, deterministic, and leaves the RNG alone", {
  set.seed(3)
  before <- .Random.seed
  f <- mlss:::chunk_foldid(103, 7, 5, 42)
  expect_identical(.Random.seed, before)
  expect_identical(f, mlss:::chunk_foldid(103, 7, 5, 42))
  expect_false(identical(f, mlss:::chunk_foldid(103, 8, 5, 42)))
  expect_true(all(table(f) %in% c(20, 21)))
  expect_length(mlss:::chunk_foldid(0, 1, 5, 42), 0)
})

# the in-memory reference of cross-validation: a fit on each fold's training
# rows, its squared error on the fold's rows (labels +1/-1), per entry
plain_cv <- function(x, y, foldid, grid, r) {
  Y <- 2 * y - 1
  out <- matrix(NA, nrow(grid), max(foldid))
  for (f in seq_len(max(foldid))) {
    tr <- foldid != f
    for (g in seq_len(nrow(grid))) {
      fit <- suppressMessages(mlls(x[tr, ], y[tr, ], alpha = grid$alpha[g],
                                   beta = grid$beta[g], r = r))
      res <- Y[!tr, ] - predict(fit, x[!tr, ], type = "score")
      out[g, f] <- sum(res^2) / length(res)
    }
  }
  out
}

test_that("chunked cv_mlls() gives the in-memory held-out squared error with the same folds", {
  foldid <- unlist(lapply(seq_along(sizes), function(i)
    mlss:::chunk_foldid(sizes[i], i, 3, 11)))
  # with a column of mean 1e8 the reference itself is off by ~1e-9: the
  # in-memory fit's intercept, a double of size 1e8 |U|, is rounded
  for (offset in c(0, 1e8)) {
    d <- chunk_data(offset = offset)
    src <- function_source(d, sizes)
    cv <- cv_mlls(src, alpha = c(0, 0.1, Inf), beta = c(0.001, 1), r = 2, nfolds = 3,
                  seed = 11, thresholds = "none", progress = FALSE)
    ref <- plain_cv(d$x, d$y, foldid, cv$grid, 2)
    expect_equal(unname(cv$cvfold), ref, tolerance = if (offset) 1e-8 else 1e-10)
  }
  expect_equal(cv$fold_rows, as.vector(table(foldid)))
  expect_equal(cv$best, which.min(rowMeans(ref)))
  expect_s3_class(cv$fit, "mlls")
  expect_equal(cv$fit$alpha, cv$grid$alpha[cv$chosen])
  expect_output(print(cv), "mse")
  # predict() and coef() of the cross-validation, at the chosen and the 1se points
  expect_equal(predict(cv, d$x[1:3, ], type = "score"),
               predict(cv$fit, d$x[1:3, ], type = "score"))
  f1se <- mlls(src, alpha = cv$alpha_1se, beta = cv$beta_1se, r = 2, thresholds = "none",
               progress = FALSE)
  expect_equal(coef(cv, s = "1se"), coef(f1se))
  # a fold column gives the folds instead
  rows <- chunk_rows_of(sizes)
  fid <- rep(1:3, length.out = 300)
  src2 <- ml_chunks(function(i) list(x = cbind(d$x[rows[[i]], , drop = FALSE],
                                               fold = fid[rows[[i]]]),
                                     y = d$y[rows[[i]], , drop = FALSE]),
                    n_chunks = length(sizes), fold = "fold")
  cv2 <- cv_mlls(src2, alpha = c(0, 0.1), beta = 0.01, r = 2, nfolds = 3,
                 thresholds = "none", progress = FALSE)
  expect_equal(unname(cv2$cvfold), plain_cv(d$x, d$y, fid, cv2$grid, 2), tolerance = 1e-8)
})

test_that("out-of-fold F1 thresholds from histograms lose at most the stated bound", {
  d <- chunk_data(n = 600, m = 3, seed = 4)
  src <- function_source(d, c(200, 150, 250))
  for (bins in c(8L, 4096L)) {
    cv <- cv_mlls(src, alpha = 0, beta = 0.1, r = 1, nfolds = 3, seed = 2, bins = bins,
                  progress = FALSE)
    foldid <- unlist(lapply(1:3, function(i)
      mlss:::chunk_foldid(c(200, 150, 250)[i], i, 3, 2)))
    oof <- matrix(0, 600, 3)
    for (f in 1:3) {
      fit <- mlls(d$x[foldid != f, ], d$y[foldid != f, ], alpha = 0, beta = 0.1, r = 1)
      oof[foldid == f, ] <- predict(fit, d$x[foldid == f, ], type = "score")
    }
    best <- f1_thresholds(oof, d$y, level = 1)$f1
    f1_of <- function(l, t) {
      p <- oof[, l] > t
      2 * sum(p & d$y[, l]) / (sum(p) + sum(d$y[, l]))
    }
    got <- vapply(1:3, function(l) f1_of(l, cv$fit$thresholds[l]), 0)
    expect_equal(unname(cv$fit$oof_f1), got, tolerance = 1e-12)  # exact for its cut
    expect_true(all(best - got <= cv$fit$f1_bound + 1e-12))
    # the counts and the bound, recounted in plain R from the exact scores
    for (l in 1:3) {
      e <- cv$fit$histograms$edges[[l]]
      bin <- cut(oof[, l], c(-Inf, e, Inf), right = TRUE, labels = FALSE)
      negs <- tabulate(bin[!d$y[, l]], length(e) + 1)
      expect_equal(cv$fit$histograms$neg[, l], negs)
      P <- sum(d$y[, l])
      expect_equal(unname(cv$fit$f1_bound[l]), max(negs) / (P + max(negs)))
    }
    if (bins == 4096L) expect_true(all(cv$fit$f1_bound < 0.02))
  }
})

test_that("a chunk's histogram counts, taken in blocks of rows, are plain-R counts per fold", {
  d <- chunk_data(n = 50, m = 3, seed = 6)
  fold <- rep_len(c(3L, 1L, 2L, 2L), 50)
  set.seed(8)
  model <- list(U = lapply(1:3, function(f) matrix(rnorm(8 * 3), 8, 3)),
                b = lapply(1:3, function(f) rnorm(3)))
  edges <- lapply(1:3, function(l) seq(-4, 4, length.out = 9))
  # plain R: each row scored by its fold's model, binned by cut()
  score <- matrix(0, 50, 3)
  for (f in 1:3) {
    r <- fold == f
    score[r, ] <- d$x[r, ] %*% model$U[[f]] + matrix(model$b[[f]], sum(r), 3, byrow = TRUE)
  }
  pos <- neg <- matrix(0, 10, 3)
  for (l in 1:3) {
    bin <- cut(score[, l], c(-Inf, edges[[l]], Inf), right = TRUE, labels = FALSE)
    pos[, l] <- tabulate(bin[d$y[, l]], 10)
    neg[, l] <- tabulate(bin[!d$y[, l]], 10)
  }
  for (block in c(7L, 50L)) {  # 8 blocks of at most 7 rows, and one
    h <- mlss:::chunk_histogram(d$x, d$y, fold, model, edges, 9L, block = block)
    expect_equal(h$pos, pos)
    expect_equal(h$neg, neg)
  }
  xs <- Matrix::Matrix(d$x, sparse = TRUE)
  h <- mlss:::chunk_histogram(xs, d$y, fold, model, edges, 9L)
  expect_equal(h$pos, pos)
  expect_equal(h$neg, neg)
  expect_equal(sum(mlss:::chunk_histogram(d$x[0, ], d$y[0, ], integer(0), model, edges,
                                          9L)$pos), 0)
})

test_that("chunked cca_ridge() equals the in-memory fit", {
  d <- chunk_data(m = 5)
  src <- function_source(d, sizes)
  c1 <- cca_ridge(src, lambda = 0.01, cost = 1, thresholds = "none", progress = FALSE)
  c0 <- cca_ridge(d$x, d$y, lambda = 0.01, cost = 1)
  expect_s3_class(c1, "cca_ridge")
  expect_lt(rel_err(c1$W, c0$W), 1e-10)
  expect_lt(rel_err(c1$intercept, c0$intercept), 1e-10)
  expect_equal(unname(c1$cor), unname(c0$cor), tolerance = 1e-10)
  expect_lt(rel_err(predict(c1, d$x, type = "score"), predict(c0, d$x, type = "score")), 1e-10)
  # fewer directions than labels: the whitening of the labels matters
  c1 <- cca_ridge(src, lambda = 0.01, cost = 1, r = 2, thresholds = "none", progress = FALSE)
  c0 <- cca_ridge(d$x, d$y, lambda = 0.01, cost = 1, r = 2)
  expect_lt(rel_err(c1$W, c0$W), 1e-10)
  expect_equal(unname(c1$cor), unname(c0$cor), tolerance = 1e-10)
})

test_that("files of every format the package reads make a source", {
  d <- chunk_data(n = 60, d = 4, m = 2)
  d$x[abs(d$x) < 0.5] <- 0
  rows <- chunk_rows_of(c(25, 1, 34))
  dir <- tempfile("chunks")
  dir.create(dir)
  rds <- file.path(dir, sprintf("c%d.rds", 1:3))
  saveRDS(list(x = d$x[rows[[1]], ], y = d$y[rows[[1]], ]), rds[1])
  saveRDS(mlss_data(d$x[rows[[2]], , drop = FALSE], d$y[rows[[2]], , drop = FALSE]), rds[2])
  saveRDS(cbind(d$x[rows[[3]], ], d$y[rows[[3]], ] * 1), rds[3])  # a matrix, labels by name
  f0 <- mlls(d$x, d$y, alpha = 0.1, beta = 0.01, r = 1)
  src <- ml_chunks(rds, labels = c("L1", "L2"))
  expect_output(print(src), "3 file")
  # with features and labels given no chunk is read for its columns
  known <- ml_chunks(c(file.path(dir, "absent.rds"), rds), labels = c("L1", "L2"),
                     features = colnames(d$x))
  expect_error(mlls(known, alpha = 0.1, beta = 0.01, r = 1, progress = FALSE),
               "chunk 1 \\(file .*absent.rds")
  f1 <- mlls(src, alpha = 0.1, beta = 0.01, r = 1, progress = FALSE, thresholds = "none")
  expect_lt(rel_err(f1$U, f0$U), 1e-10)
  arff <- file.path(dir, sprintf("c%d.arff", 1:3))
  for (i in 1:3) write_mulan(mlss_data(d$x[rows[[i]], , drop = FALSE],
                                       d$y[rows[[i]], , drop = FALSE]), arff[i], xml = NULL)
  f2 <- mlls(ml_chunks(arff, labels = c("L1", "L2")), alpha = 0.1, beta = 0.01, r = 1,
             progress = FALSE, thresholds = "none")
  expect_lt(rel_err(f2$U, f0$U), 1e-8)  # the files hold rounded values
  svm <- file.path(dir, sprintf("c%d.svm", 1:3))
  for (i in 1:3) {
    xi <- d$x[rows[[i]], , drop = FALSE]
    yi <- d$y[rows[[i]], , drop = FALSE]
    writeLines(vapply(seq_len(nrow(xi)), function(k) {
      nz <- which(xi[k, ] != 0)
      paste0(paste(which(yi[k, ]), collapse = ","), " ",
             if (length(nz)) paste0(nz, ":", sprintf("%.17g", xi[k, nz]), collapse = " "))
    }, ""), svm[i])
  }
  src3 <- ml_chunks(svm, read_args = list(n_features = 4, labels = 1:2))
  f3 <- mlls(src3, alpha = 0.1, beta = 0.01, r = 1, progress = FALSE, thresholds = "none")
  expect_lt(max(abs(unname(f3$U) - unname(f0$U))) / max(abs(f0$U)), 1e-10)
  unlink(dir, recursive = TRUE)
})

test_that("a chunk with other columns, a failing chunk and an empty chunk", {
  d <- chunk_data(n = 50)
  rows <- chunk_rows_of(c(20, 0, 30))
  other <- ml_chunks(function(i) {
    x <- d$x[rows[[i]], , drop = FALSE]
    if (i == 3) colnames(x)[2] <- "g2"
    list(x = x, y = d$y[rows[[i]], , drop = FALSE])
  }, n_chunks = 3)
  expect_error(mlls(other, alpha = 0, beta = 1, progress = FALSE),
               "chunk 3.*has 'g2'.*lacks 'f2'")
  # the same columns in another order are reordered
  shuffled <- ml_chunks(function(i) {
    x <- d$x[rows[[i]], , drop = FALSE]
    if (i == 3) x <- x[, ncol(x):1]
    list(x = x, y = d$y[rows[[i]], , drop = FALSE])
  }, n_chunks = 3)
  expect_lt(rel_err(mlls(shuffled, alpha = 0, beta = 1, progress = FALSE,
                         thresholds = "none")$U,
                    mlls(d$x, d$y, alpha = 0, beta = 1)$U), 1e-10)
  failing <- ml_chunks(function(i) {
    if (i == 3) stop("disk on fire")
    list(x = d$x[rows[[i]], , drop = FALSE], y = d$y[rows[[i]], , drop = FALSE])
  }, n_chunks = 3)
  expect_error(mlls(failing, alpha = 0, beta = 1, progress = FALSE),
               "chunk 3 could not be read: disk on fire")
  missing_file <- ml_chunks(c(tempfile(fileext = ".rds")))
  expect_error(mlls(missing_file, alpha = 0, beta = 1, progress = FALSE),
               "chunk 1 \\(file .*does not exist")
  # the empty chunk contributes nothing and is reported
  ok <- ml_chunks(function(i) list(x = d$x[rows[[i]], , drop = FALSE],
                                   y = d$y[rows[[i]], , drop = FALSE]), n_chunks = 3)
  fit <- mlls(ok, alpha = 0, beta = 1, progress = FALSE)
  expect_equal(fit$chunk_rows, c(20, 0, 30))
  expect_equal(fit$nobs, 50)
  empty <- ml_chunks(function(i) list(x = d$x[0, , drop = FALSE], y = d$y[0, , drop = FALSE]),
                     n_chunks = 2)
  expect_error(mlls(empty, alpha = 0, beta = 1, progress = FALSE), "no rows")
  expect_error(ml_chunks(42), "'source' must be")
  expect_error(ml_chunks(function(i) NULL), "n_chunks")
  na <- ml_chunks(function(i) list(x = replace(d$x[1:5, ], 3, NA), y = d$y[1:5, ]),
                  n_chunks = 1)
  expect_error(mlls(na, alpha = 0, beta = 1, progress = FALSE), "chunk 1.*NA")
  for (bad in c(Inf, -Inf, NaN)) {
    src <- ml_chunks(function(i) list(x = replace(d$x[1:5, ], 7, bad), y = d$y[1:5, ]),
                     n_chunks = 1)
    expect_error(mlls(src, alpha = 0, beta = 1, progress = FALSE), "chunk 1.*Inf")
    sp <- ml_chunks(function(i) list(x = Matrix::Matrix(replace(d$x[1:5, ], 7, bad),
                                                         sparse = TRUE), y = d$y[1:5, ]),
                    n_chunks = 1)
    expect_error(mlls(sp, alpha = 0, beta = 1, progress = FALSE), "chunk 1.*Inf")
  }
  # an integer or logical chunk is read as double
  int <- ml_chunks(function(i) list(x = matrix(1:10, 5, 2, dimnames = list(NULL, c("a", "b"))),
                                    y = d$y[1:5, ]), n_chunks = 1)
  expect_true(is.double(read_chunk(int, 1)$x))
})

test_that("with a cache folder a rerun recomputes only the chunks that are missing", {
  d <- chunk_data(n = 50)
  rows <- chunk_rows_of(c(10, 15, 25))
  reads <- new.env()
  reads$n <- integer(0)
  fail <- TRUE
  src <- ml_chunks(function(i) {
    reads$n <- c(reads$n, i)
    if (fail && i == 2) stop("network down")
    list(x = d$x[rows[[i]], , drop = FALSE], y = d$y[rows[[i]], , drop = FALSE])
  }, n_chunks = 3)
  cache <- tempfile("cache")
  old <- if (requireNamespace("future", quietly = TRUE)) future::plan("sequential")
  on.exit(if (!is.null(old)) future::plan(old), add = TRUE)
  expect_error(mlls(src, alpha = 0, beta = 1, cache = cache, progress = FALSE), "chunk 2")
  expect_equal(sort(list.files(cache)), c("sums-000001.rds", "sums-000003.rds"))
  fail <- FALSE
  reads$n <- integer(0)
  fit <- mlls(src, alpha = 0, beta = 1, cache = cache, progress = FALSE, thresholds = "none")
  expect_equal(reads$n, c(1L, 2L))  # chunk 1 for its columns, chunk 2 for its sums
  expect_lt(rel_err(fit$U, mlls(d$x, d$y, alpha = 0, beta = 1)$U), 1e-10)
  # other settings (folds) do not reuse the cached sums
  cv1 <- cv_mlls(src, alpha = 0, beta = 1, r = 1, nfolds = 2, seed = 1, cache = cache,
                 thresholds = "none", progress = FALSE)
  cv0 <- cv_mlls(src, alpha = 0, beta = 1, r = 1, nfolds = 2, seed = 1,
                 thresholds = "none", progress = FALSE)
  expect_identical(cv1$cvfold, cv0$cvfold)
  unlink(cache, recursive = TRUE)
})

test_that("predict() on a source scores chunk by chunk, or writes files", {
  d <- chunk_data(n = 60)
  src <- function_source(d, c(30, 0, 30))
  fit <- mlls(d$x, d$y, alpha = 0.1, beta = 0.1, r = 2)
  p <- predict(fit, src, type = "score")
  expect_length(p, 3)
  expect_equal(nrow(p[[2]]), 0)
  expect_equal(do.call(rbind, p), predict(fit, d$x, type = "score"), ignore_attr = TRUE)
  dir <- tempfile("pred")
  files <- predict_chunks(fit, src, type = "class", folder = dir, progress = FALSE)
  expect_length(files, 3)
  expect_equal(readRDS(files[3]), predict(fit, d$x[31:60, ], type = "class"),
               ignore_attr = TRUE)
  unlink(dir, recursive = TRUE)
})

test_that("SQLite through DBI: paged reads give the in-memory fit", {
  skip_if_not_installed("DBI")
  skip_if_not_installed("RSQLite")
  d <- chunk_data(n = 100)
  db <- tempfile(fileext = ".sqlite")
  con <- DBI::dbConnect(RSQLite::SQLite(), db)
  on.exit({
    DBI::dbDisconnect(con)
    unlink(db)
  })
  tab <- data.frame(id = 1:100, d$x, d$y * 1L)
  DBI::dbWriteTable(con, "rows", tab)
  q <- paste("SELECT", paste(c(colnames(d$x), colnames(d$y)), collapse = ", "),
             "FROM rows ORDER BY id")
  src <- ml_chunks(con, query = q, labels = colnames(d$y), chunk_rows = 37)
  expect_equal(src$n_chunks, 3L)
  expect_output(print(src), "3 page")
  f0 <- mlls(d$x, d$y, alpha = 0.1, beta = 0.01, r = 2)
  f1 <- mlls(src, alpha = 0.1, beta = 0.01, r = 2, progress = FALSE, thresholds = "none")
  expect_lt(rel_err(f1$U, f0$U), 1e-10)
  # a function that connects: each worker opens its own connection
  src2 <- ml_chunks(function() DBI::dbConnect(RSQLite::SQLite(), db), query = q,
                    labels = colnames(d$y), chunk_rows = 50)
  f2 <- mlls(src2, alpha = 0.1, beta = 0.01, r = 2, progress = FALSE, thresholds = "none")
  expect_lt(rel_err(f2$U, f0$U), 1e-10)
})

test_that("the same result under sequential, multisession and cluster plans", {
  skip_on_cran()
  skip_if_not_installed("future")
  skip_if_not_installed("future.apply")
  skip_if_not_installed("parallelly")
  d <- chunk_data(n = 120)
  dir <- tempfile("plans")
  dir.create(dir)
  rows <- chunk_rows_of(c(50, 1, 0, 69))
  files <- file.path(dir, sprintf("c%d.rds", seq_along(rows)))
  for (i in seq_along(rows))
    saveRDS(list(x = d$x[rows[[i]], , drop = FALSE], y = d$y[rows[[i]], , drop = FALSE]),
            files[i])
  src <- ml_chunks(files)
  old <- future::plan()
  on.exit({
    future::plan(old)
    unlink(dir, recursive = TRUE)
  })
  run <- function() cv_mlls(src, alpha = c(0, 1), beta = 0.1, r = 2, nfolds = 3, seed = 9,
                            progress = FALSE)
  future::plan("sequential")
  seq_cv <- run()
  cl <- parallelly::makeClusterPSOCK(2, autoStop = TRUE)  # two local PSOCK workers
  future::plan("cluster", workers = cl)
  cl_cv <- run()
  future::plan("multisession", workers = 2)
  ms_cv <- run()
  expect_identical(ms_cv$cvfold, seq_cv$cvfold)
  expect_identical(cl_cv$cvfold, seq_cv$cvfold)
  expect_identical(ms_cv$fit$U, seq_cv$fit$U)
  expect_identical(cl_cv$fit$thresholds, seq_cv$fit$thresholds)
  expect_identical(ms_cv$fit$thresholds, seq_cv$fit$thresholds)
  # a worker's failure names the chunk
  file.remove(files[2])
  expect_error(mlls(src, alpha = 0, beta = 1, progress = FALSE), "chunk 2 \\(file")
  future::plan("sequential")
})

test_that("progress over the chunks does not change the result", {
  d <- chunk_data(n = 40)
  src <- function_source(d, c(20, 20))
  out <- utils::capture.output(fit <- mlls(src, alpha = 0, beta = 1, progress = TRUE,
                                           thresholds = "none"))
  expect_lt(rel_err(fit$U, mlls(d$x, d$y, alpha = 0, beta = 1)$U), 1e-10)
})
