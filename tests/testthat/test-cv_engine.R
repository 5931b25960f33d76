# The cross-validation engine: its generic path (refitting at every grid
# point) against MLLS's fast path, the one-standard-error rule against a
# plain-R reading of it, per-point thresholds with ties, threads, r as an
# axis, and the messages of degenerate cases.

engine_problem <- function(n, d, m, seed) {
  set.seed(seed)
  X <- matrix(rnorm(n * d), n)
  Y <- X %*% matrix(rnorm(d * m), d) + matrix(rnorm(n * m, sd = 2), n) > 0
  colnames(Y) <- paste0("L", seq_len(m))
  list(X = X, Y = Y)
}

test_that("the generic path (refitting mlls() per grid point) equals the fast path", {
  p <- engine_problem(70, 6, 4, seed = 11)
  q <- engine_problem(40, 60, 3, seed = 12)
  foldid <- rep(1:4, length.out = 70)
  fq <- rep(1:3, length.out = 40)
  fit <- function(x, y, alpha, beta) mlls(x, y, alpha = alpha, beta = beta, r = 2)
  for (case in list(list(p, foldid, "oof", "macro_f1"), list(p, foldid, "train", "micro_f1"),
                    list(q, fq, "oof", "ranking_loss"), list(q, fq, "train", "macro_f1"))) {
    pr <- case[[1]]
    grid <- list(alpha = c(0, 0.5, Inf), beta = c(0.01, 1))
    fast <- cv_mlls(pr$X, pr$Y, alpha = grid$alpha, beta = grid$beta, r = 2,
                    foldid = case[[2]], thresholds = case[[3]], measure = case[[4]],
                    keep = TRUE, progress = FALSE)
    slow <- ml_cv(pr$X, pr$Y, fit, grid, foldid = case[[2]], thresholds = case[[3]],
                  measure = case[[4]], keep = TRUE, progress = FALSE)
    expect_lt(max(abs(fast$cvfold - slow$cvfold)), 1e-8)
    expect_lt(max(abs(fast$oof - slow$oof)), 1e-8)
    expect_identical(fast$grid, slow$grid)
  }
})

test_that("the one-standard-error point follows its definition", {
  # plain R: the most regularised point (first in the order) whose mean is
  # within one standard error of the best mean
  ref_1se <- function(cvm, se, ord, higher) {
    best <- ord[which.max((if (higher) cvm else -cvm)[ord])]
    ok <- if (higher) cvm >= cvm[best] - se[best] else cvm <= cvm[best] + se[best]
    ord[ok[ord]][1]
  }
  set.seed(5)
  for (i in 1:50) {
    cvm <- round(runif(12), 1)
    se <- runif(12, 0, 0.2)
    ord <- sample(12)
    for (higher in c(TRUE, FALSE)) {
      best <- best_grid_point(cvm, ord, higher)
      expect_identical(one_se_point(cvm, se, best, ord, higher), ref_1se(cvm, se, ord, higher))
    }
  }
  # on a cross-validation: the 1se point is at least as regularised (beta) and
  # within a standard error; select = "1se" refits there
  p <- engine_problem(90, 8, 4, seed = 13)
  set.seed(14)
  cv <- cv_mlls(p$X, p$Y, alpha = c(0, 0.1, 1), beta = 10^(-3:1), nfolds = 3, r = 2,
                select = "1se", keep = TRUE, progress = FALSE)
  cvm <- rowMeans(cv$cvfold)
  se <- apply(cv$cvfold, 1, sd) / sqrt(3)
  expect_gte(cvm[cv$best_1se], cvm[cv$best] - se[cv$best])
  expect_gte(cv$beta_1se, cv$beta_best)
  ref <- mlls(p$X, p$Y, alpha = cv$alpha_1se, beta = cv$beta_1se, r = 2)
  expect_equal(cv$fit$U, ref$U)
  expect_equal(unname(cv$fit$thresholds),
               unname(f1_thresholds(cv$oof[, , cv$best_1se], p$Y)$threshold))
  expect_identical(cv$fit$threshold_source, "oof")
  expect_output(print(cv), "refitted at the 1se point")
})

test_that("per-point thresholds are those of f1_thresholds() on the other folds, ties and infinities included", {
  p <- engine_problem(60, 4, 3, seed = 15)
  foldid <- rep(1:3, 20)
  # scores with many ties and an infinite one
  fit <- function(x, y, beta) mlls(x, y, alpha = 0, beta = beta)
  pred <- function(object, newx) {
    s <- round(predict(object, newx, type = "score"), 1)
    s[1, 1] <- Inf
    s
  }
  cv <- ml_cv(p$X, p$Y, fit, list(beta = c(0.1, 1)), predict = pred, foldid = foldid,
              keep = TRUE, progress = FALSE)
  for (g in 1:2) for (k in 1:3) {
    va <- foldid == k
    thr <- oof_f1_cuts(cv$oof[, , g], p$Y, !va)  # the chance rule decided on all rows
    pr <- cv$oof[va, , g] > rep(thr, each = sum(va))
    expect_equal(cv$cvfold[g, k], ml_metrics(p$Y[va, ], pred = pr)$macro_f1)
  }
  expect_equal(unname(cv$oof_thresholds[, 2]),
               unname(f1_thresholds(cv$oof[, , 2], p$Y)$threshold))
})

test_that("threads do not change the result", {
  p <- engine_problem(80, 5, 6, seed = 16)
  foldid <- rep(1:4, 20)
  run <- function(threads) {
    op <- options(mlss.threads = threads)
    on.exit(options(op))
    suppressMessages(cv_mlls(p$X, p$Y, alpha = c(0, 1), beta = c(0.1, 1), foldid = foldid,
                             progress = FALSE))
  }
  expect_identical(run(1)$cvfold, run(2)$cvfold)
  expect_identical(run(1)$oof_thresholds, run(3)$oof_thresholds)
  op <- options(mlss.threads = 0)
  on.exit(options(op))
  expect_error(cv_mlls(p$X, p$Y, alpha = 0, beta = 1, foldid = foldid, progress = FALSE),
               "mlss.threads")
})

test_that("the eigenvector routes of the rank-t algebra equal refitting", {
  # m > t (through P P') and m <= t (through CC'), r below and at the rank
  foldid <- rep(1:3, 20)
  for (case in list(list(d = 3, m = 9, r = 2), list(d = 3, m = 9, r = 5),
                    list(d = 8, m = 3, r = 2), list(d = 8, m = 3, r = 3))) {
    p <- engine_problem(60, case$d, case$m, seed = 17)
    cv <- suppressMessages(cv_mlls(p$X, p$Y, alpha = c(0.3, Inf), beta = c(0.01, 1),
                                   r = case$r, foldid = foldid, keep = TRUE,
                                   progress = FALSE))
    for (g in 1:4) for (k in 1:3) {
      va <- foldid == k
      fit <- suppressMessages(mlls(p$X[!va, ], p$Y[!va, ], alpha = cv$grid$alpha[g],
                                   beta = cv$grid$beta[g], r = case$r))
      expect_lt(max(abs(cv$oof[va, , g] - predict(fit, p$X[va, ], type = "score"))), 1e-8)
    }
  }
})

test_that("r as a third axis of the grid", {
  p <- engine_problem(60, 6, 5, seed = 18)
  foldid <- rep(1:3, 20)
  cv <- cv_mlls(p$X, p$Y, alpha = c(0, 1), beta = c(0.1, 1), r = c(1, 3), foldid = foldid,
                progress = FALSE)
  expect_identical(dim(cv$cvm), c(2L, 2L, 2L))
  expect_identical(names(dimnames(cv$cvm)), c("alpha", "beta", "r"))
  one <- cv_mlls(p$X, p$Y, alpha = c(0, 1), beta = c(0.1, 1), r = 3, foldid = foldid,
                 progress = FALSE)
  expect_equal(unname(cv$cvfold[cv$grid$r == 3, ]), unname(one$cvfold))
  expect_identical(cv$fit$r, cv$r_best)
  expect_error(cv_mlls(p$X, p$Y, r = c(1, 0), progress = FALSE), "'r'")
})

test_that("alpha without effect, ties, undefined measures and constant folds are said", {
  p <- engine_problem(40, 3, 6, seed = 19)
  expect_message(cv <- cv_mlls(p$X, p$Y, alpha = c(0, 1, 100), beta = 1, nfolds = 2, r = 5,
                               progress = FALSE),
                 "alpha has no effect")
  expect_lt(max(abs(cv$cvfold[1, ] - cv$cvfold[3, ])), 1e-12)
  expect_gt(cv$ties, 1)
  expect_output(print(cv), "tie at the best mean")
  expect_error(cv_mlls(p$X[1:12, ], p$Y[1:12, ], alpha = 0, beta = 1, foldid = 1:12,
                       measure = "macro_auc", progress = FALSE),
               "undefined on some fold at every grid point")
  y <- cbind(a = rep(c(TRUE, FALSE), c(3, 27)), b = rep(c(TRUE, FALSE), c(3, 27)))
  x <- matrix(rnorm(60), 30)
  expect_error(suppressWarnings(cv_ssmddm(x, y, k = 1, alpha = 0, beta = 1,
                                          foldid = rep(1:2, c(3, 27)), progress = FALSE)),
               "training part has every label constant")
})

test_that("predict() and coef() at another grid point refit with its out-of-fold thresholds", {
  p <- engine_problem(80, 6, 3, seed = 20)
  set.seed(21)
  cv <- cv_mlls(p$X, p$Y, alpha = c(0, 1), beta = c(0.01, 1), nfolds = 3, keep = TRUE,
                progress = FALSE)
  other <- which(cv$grid$alpha == 1 & cv$grid$beta == 1)
  ref <- mlls(p$X, p$Y, alpha = 1, beta = 1)
  ref$thresholds[] <- f1_thresholds(cv$oof[, , other], p$Y)$threshold
  expect_equal(predict(cv, p$X, alpha = 1, beta = 1, type = "class"),
               predict(ref, p$X, type = "class"))
  expect_equal(coef(cv, alpha = 1, beta = 1), coef(ref))
  one_se <- mlls(p$X, p$Y, alpha = cv$alpha_1se, beta = cv$beta_1se)
  expect_equal(predict(cv, p$X, s = "1se", type = "score"), predict(one_se, p$X, type = "score"))
  expect_message(predict(cv, p$X, alpha = 0.5, beta = 1), "not on the grid")
  expect_error(predict(cv, p$X, s = "lambda.1se"), "'arg' should be one of")
  expect_error(predict(cv, p$X, s = "best", alpha = 1), "either 's' or values")
})

test_that("as.data.frame(), summary() and the plots", {
  p <- engine_problem(60, 5, 3, seed = 22)
  set.seed(23)
  cv <- cv_mlls(p$X, p$Y, alpha = c(0, 1), beta = c(0.01, 0.1, 1), nfolds = 3,
                progress = FALSE)
  df <- as.data.frame(cv)
  expect_identical(nrow(df), 6L)
  expect_equal(df$mean, unname(rowMeans(cv$cvfold)))
  expect_equal(df$se, unname(apply(cv$cvfold, 1, sd) / sqrt(3)))
  expect_identical(which(df$best), cv$best)
  expect_identical(which(df$best_1se), cv$best_1se)
  expect_output(print(summary(cv)), "ten best grid points")
  one <- ml_cv(p$X, p$Y, function(x, y, beta) mlls(x, y, alpha = 0, beta = beta),
               list(beta = c(0, 0.01, 1)), nfolds = 3, progress = FALSE)
  expect_s3_class(one, "ml_cv")
  expect_identical(names(one$cvm), c("0", "0.01", "1"))
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_identical(plot(one), one)
  three <- cv_mlls(p$X, p$Y, alpha = c(0, 1), beta = c(0.1, 1), r = c(1, 2), nfolds = 3,
                   progress = FALSE)
  expect_identical(plot.ml_cv(three), three)
})

test_that("warm starts hand each fold its previous model", {
  p <- engine_problem(45, 4, 2, seed = 24)
  seen <- new.env()
  seen$init <- list()
  fit <- function(x, y, beta, init) {
    seen$init[[length(seen$init) + 1]] <- if (is.null(init)) NA else init$beta
    mlls(x, y, alpha = 0, beta = beta)
  }
  ml_cv(p$X, p$Y, fit, list(beta = c(1, 0.1, 0.01)), warm_start = TRUE,
        foldid = rep(1:3, 15), progress = FALSE)
  # grid point 1 on three folds (no init), then 2 and 3 with the previous beta,
  # then the final refit (no init)
  expect_identical(unlist(seen$init), c(NA, NA, NA, 1, 1, 1, 0.1, 0.1, 0.1, NA))
})

test_that("parallel folds give the same answer; bad 'parallel' is refused", {
  skip_on_os("windows")
  p <- engine_problem(60, 5, 3, seed = 25)
  foldid <- rep(1:3, 20)
  a <- cv_mlls(p$X, p$Y, alpha = c(0, 1), beta = 1, foldid = foldid, progress = FALSE)
  b <- cv_mlls(p$X, p$Y, alpha = c(0, 1), beta = 1, foldid = foldid, parallel = 2,
               progress = FALSE)
  expect_identical(a$cvfold, b$cvfold)
  g <- ml_cv(p$X, p$Y, function(x, y, beta) mlls(x, y, alpha = 0, beta = beta),
             list(beta = c(0.1, 1)), foldid = foldid, parallel = 2, progress = FALSE)
  expect_equal(unname(g$cvfold[2, ]), unname(a$cvfold[1, ]))
  expect_error(cv_mlls(p$X, p$Y, parallel = 1.5), "'parallel'")
  expect_error(ml_cv(p$X, p$Y, fit = 1, grid = list(a = 1)), "'fit'")
  expect_error(ml_cv(p$X, p$Y, fit = function(x, y, a) 1, grid = list(1:2)), "'grid'")
})

# A forked worker's OpenBLAS on one thread (session 42): with another BLAS
# (R's reference one) nothing to do; with OpenBLAS (preloaded into a fresh R
# when this machine has it) the parent keeps its count, and the workers of
# fold_apply() and of the pieces' scheduler (cv_schedule_paths()) read one;
# the call that sets it leaves the parent (the loading process) alone.
test_that("forked workers run OpenBLAS on one thread, the parent keeps its count", {
  skip_on_os("windows")
  n <- mlss:::blas_threads()
  if (is.na(n))
    expect_true(is.na(parallel::mccollect(parallel::mcparallel(mlss:::fork_worker_blas()))[[1]]))
  ob <- "/usr/lib/x86_64-linux-gnu/openblas-pthread"
  skip_if_not(file.exists(file.path(ob, "libblas.so.3")),
              "OpenBLAS (Debian's libopenblas0-pthread) is not installed")
  script <- tempfile(fileext = ".R")
  on.exit(unlink(script))
  writeLines(c(
    "library(mlss)",
    "cat('parent', mlss:::blas_threads(), '\\n')",
    "r <- mlss:::fold_apply(1:2, function(k) mlss:::blas_threads(), 2L, NULL)",
    "cat('fold_apply', unlist(r), '\\n')",
    "pstop <- list(path = c(1L, 1L), restart = TRUE, patience = 10L, margin = Inf)",
    "run <- mlss:::cv_schedule_paths(2L, 2L, pstop, TRUE, list(list(), list()), 2L,",
    "  score_fold = function(state, k, g) list(threads = mlss:::blas_threads()),",
    "  use_point = function(g, res) {",
    "    cat('pieces', vapply(res, function(x) x$threads, 1L), '\\n'); c(g, 0) },",
    "  tick = function() NULL)",
    "cat('parent', mlss:::fork_worker_blas(), '\\n')"), script)
  out <- system2(file.path(R.home("bin"), "Rscript"), script, stdout = TRUE, stderr = TRUE,
                 env = c(paste0("R_LIBS=", paste(.libPaths(), collapse = ":")),
                         "OPENBLAS_NUM_THREADS=2",
                         # after a preload of the run (ASan's runtime must come first)
                         sprintf("LD_PRELOAD='%s'", trimws(paste(
                           Sys.getenv("LD_PRELOAD"), file.path(ob, "libblas.so.3"),
                           file.path(ob, "liblapack.so.3"))))))
  expect_identical(trimws(out), c("parent 2", "fold_apply 1 1", "pieces 1 1", "pieces 1 1",
                                  "parent 2"))
})
