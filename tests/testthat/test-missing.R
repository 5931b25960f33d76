# Missing labels (NA in y): the measures, thresholds, folds and engine use the
# observed entries only; mask_labels() hides exactly the share asked.

test_that("every measure scores the observed entries only, as computed by hand", {
  for (seed in 1:3) {
    d <- missing_problem(seed = seed)
    d$Y[1, ] <- NA          # an instance with no observed label: left out
    d$Y[, 2] <- NA          # a label never observed: left out
    m <- suppressWarnings(ml_metrics(d$Y, score = d$S, pred = d$P))
    expect_equal(m$macro_f1, ref_macro_f1(d$Y, d$P))
    expect_equal(m$micro_f1, ref_micro_f1(d$Y, d$P))
    expect_equal(m$hamming_loss, ref_hamming(d$Y, d$P))
    for (w in c("subset_accuracy", "example_f1", "example_accuracy", "example_precision",
                "example_recall"))
      expect_equal(m[[w]], ref_example(d$Y, d$P, w), info = w)
    for (w in c("ranking_loss", "average_precision", "coverage", "one_error"))
      expect_equal(m[[w]], ref_ranking(d$Y, d$S, w), info = w)
    expect_equal(m$macro_auc, ref_macro_auc(d$Y, d$S))
    expect_equal(m$micro_auc, ref_micro_auc(d$Y, d$S))
  }
})

test_that("the references agree with ml_metrics() on a fully observed y", {
  d <- missing_problem(na_rate = 0, seed = 4)
  m <- ml_metrics(d$Y, score = d$S, pred = d$P)
  expect_equal(m$macro_f1, ref_macro_f1(d$Y, d$P))
  expect_equal(m$example_f1, ref_example(d$Y, d$P, "example_f1"))
  expect_equal(m$average_precision, ref_ranking(d$Y, d$S, "average_precision"))
  expect_equal(m$coverage, ref_ranking(d$Y, d$S, "coverage"))
})

test_that("macro F1 with NA is the mean of each label's F1 on its observed rows", {
  d <- missing_problem(seed = 7)
  per_label <- vapply(1:5, function(l) {
    o <- !is.na(d$Y[, l])
    ml_metrics(d$Y[o, l, drop = FALSE], pred = d$P[o, l, drop = FALSE])$macro_f1
  }, 0)
  expect_equal(ml_metrics(d$Y, pred = d$P)$macro_f1, mean(per_label))
})

test_that("a missing label is not read as a positive (NA_LOGICAL in C)", {
  y <- rbind(c(NA, FALSE), c(TRUE, FALSE))
  # were the NA read as TRUE, label 1 would have a false negative
  expect_equal(ml_metrics(y, pred = rbind(c(FALSE, FALSE), c(TRUE, FALSE)))$macro_f1, 1)
  expect_equal(ml_metrics(y, pred = rbind(c(TRUE, TRUE), c(TRUE, FALSE)))$hamming_loss, 1 / 3)
})

test_that("log_loss and measures with nothing observed say so", {
  y <- rbind(c(NA, TRUE), c(FALSE, TRUE))
  expect_warning(m <- ml_metrics(y, prob = c(0.5, 0.5)), "log_loss")
  expect_true(is.na(m$log_loss))
  expect_warning(m <- ml_metrics(matrix(NA, 2, 2), pred = matrix(TRUE, 2, 2)), "NaN")
  expect_true(is.nan(m$macro_f1))
  expect_error(ml_metrics(y, pred = rbind(c(NA, TRUE), c(FALSE, TRUE))), "'pred' contains NA")
})

test_that("f1_thresholds() chooses each cut on the observed rows only", {
  d <- missing_problem(n = 60, seed = 2)
  res <- f1_thresholds(d$S, d$Y)
  for (l in 1:5) {
    o <- !is.na(d$Y[, l])
    ref <- f1_thresholds(d$S[o, l], d$Y[o, l])
    expect_equal(res$threshold[[l]], ref$threshold[[1]])
    expect_equal(res$f1[[l]], ref$f1[[1]])
  }
})

test_that("ml_folds() stratifies on the observed positives", {
  d <- missing_problem(n = 60, seed = 3)
  neg <- d$Y
  neg[is.na(neg)] <- FALSE
  set.seed(5); f1 <- ml_folds(d$Y, 4)
  set.seed(5); f2 <- ml_folds(neg, 4)
  expect_identical(f1, f2)
  expect_true(all(table(f1) %in% 15))
})

test_that("ml_cv() passes NA to fit only when asked, and scores observed entries", {
  d <- missing_problem(n = 60, m = 3, na_rate = 0.25, seed = 8)
  set.seed(1)
  x <- cbind(d$S[, 1:2], rnorm(60))
  seen <- NULL
  # a model whose scores are x %*% w, w depending on the grid point
  fit <- function(x, y, w) {
    seen <<- c(seen, anyNA(y))
    structure(list(w = w), class = "toy")
  }
  pred <- function(object, newx) newx %*% matrix(object$w * (1:3), 3, 3)
  foldid <- rep(1:3, 20)
  expect_error(ml_cv(x, d$Y, fit, list(w = 1), predict = pred, foldid = foldid,
                     progress = FALSE), "ml_cv\\(na_labels = \"negative\"\\)")
  cv <- ml_cv(x, d$Y, fit, list(w = c(1, -1)), predict = pred, foldid = foldid,
              progress = FALSE, na_labels = "observed")
  expect_true(all(seen))
  # by hand: thresholds on the other folds' observed rows, macro F1 on the fold's
  for (g in 1:2) {
    s <- pred(list(w = c(1, -1)[g]), x)
    for (k in 1:3) {
      tr <- foldid != k
      thr <- oof_f1_cuts(s, d$Y, tr)  # the chance rule decided on all rows
      p <- sweep(s[!tr, ], 2, thr, ">")
      expect_equal(cv$cvfold[g, k], ml_metrics(d$Y[!tr, ], pred = p)$macro_f1)
    }
  }
  seen <- NULL
  cv2 <- ml_cv(x, d$Y, fit, list(w = c(1, -1)), predict = pred, foldid = foldid,
               progress = FALSE, na_labels = "negative")
  expect_false(any(seen))
  expect_equal(cv2$cvfold, cv$cvfold)   # the truth scored is the same
  cv3 <- ml_cv(x, d$Y, fit, list(w = c(1, -1)), predict = pred, foldid = foldid,
               progress = FALSE, na_labels = "observed", thresholds = "train")
  s <- pred(list(w = 1), x)
  thr <- f1_thresholds(s[foldid != 1, ], d$Y[foldid != 1, ])$threshold
  expect_equal(cv3$cvfold[1, 1],
               ml_metrics(d$Y[foldid == 1, ], pred = sweep(s[foldid == 1, ], 2, thr, ">"))$macro_f1)
})

test_that("mask_labels() hides exactly the share asked, of observed entries only", {
  d <- missing_problem(n = 50, m = 6, na_rate = 0.1, seed = 9)
  obs <- !is.na(d$Y)
  for (rate in c(0, 0.3, 0.7, 1)) {
    e <- mask_labels(d$Y, rate, seed = 1)
    expect_equal(sum(e$mask), floor(rate * sum(obs) + 0.5))
    expect_true(all(obs[e$mask]))                      # never an NA already there
    expect_identical(is.na(e$y), e$mask | !obs)
    expect_identical(e$y[!is.na(e$y)], d$Y[!is.na(e$y)])  # the rest unchanged
    l <- mask_labels(d$Y, rate, by = "label", seed = 1)
    expect_equal(colSums(l$mask), floor(rate * colSums(obs) + 0.5), ignore_attr = TRUE)
    expect_true(all(obs[l$mask]))
    i <- mask_labels(d$Y, rate, by = "instance", seed = 1)
    expect_equal(rowSums(i$mask), floor(rate * rowSums(obs) + 0.5))
    expect_true(all(obs[i$mask]))
  }
  # 0.5 of 5 observed entries: 2.5 rounds up to 3
  expect_equal(sum(mask_labels(matrix(c(TRUE, FALSE, TRUE, FALSE, TRUE, NA), 2), 0.5)$mask), 3)
  expect_identical(colnames(mask_labels(d$Y, 0.3)$y), colnames(d$Y))
})

test_that("mask_labels() is reproducible with a seed and leaves the user's RNG alone", {
  y <- missing_problem(na_rate = 0, seed = 10)$Y
  set.seed(123)
  before <- .Random.seed
  a <- mask_labels(y, 0.4, seed = 42)
  expect_identical(.Random.seed, before)
  expect_identical(mask_labels(y, 0.4, seed = 42), a)
  expect_false(identical(mask_labels(y, 0.4, seed = 43)$mask, a$mask))
  expect_identical(mask_labels(y, 0.4, by = "label", seed = 42),
                   mask_labels(y, 0.4, by = "label", seed = 42))
  # without a seed: drawn from (and advancing) R's stream
  set.seed(7); b1 <- mask_labels(y, 0.4)
  set.seed(7); b2 <- mask_labels(y, 0.4)
  expect_identical(b1, b2)
  expect_error(mask_labels(y, 1.5), "'rate'")
  expect_error(mask_labels(y, 0.5, by = "cell"), "should be one of")
})

# ---- each fitting function's rule ---------------------------------------------

na_fit_data <- function(n = 60, seed = 11) {
  set.seed(seed)
  x <- matrix(rnorm(n * 4), n, 4, dimnames = list(NULL, paste0("f", 1:4)))
  y <- cbind(a = x[, 1] + rnorm(n) > 0, b = x[, 2] - x[, 3] + rnorm(n) > 0.3,
             c = x[, 4] + rnorm(n) > -0.2)
  yna <- y
  yna[c(3, 10, 17, 25, 40, 44, 52, 58, 61 + 0:1, 100, 150, 170)] <- NA
  yneg <- yna
  yneg[is.na(yneg)] <- FALSE
  list(x = x, y = y, yna = yna, yneg = yneg)
}

test_that("each fitting function refuses NA by default, naming itself", {
  d <- na_fit_data()
  calls <- list(
    mlls = function(...) mlls(d$x, d$yna, alpha = 1, beta = 0.1, ...),
    mddm = function(...) mddm(d$x, d$yna, k = 2, ...),
    ssmddm = function(...) ssmddm(d$x, d$yna, alpha = 1, beta = 0.1, k = 2, r = 1, ...),
    cca_ridge = function(...) cca_ridge(d$x, d$yna, lambda = 0.1, ...),
    cca_svm = function(...) cca_svm(d$x, d$yna, lambda = 0.1, ...),
    aso_svm = function(...) aso_svm(d$x, d$yna, alpha = 1, r = 1, ...),
    mlcrf = function(...) mlcrf(d$x, d$yna, lambda_v = 1, lambda_w = 1, edges = "full", ...),
    br = function(...) br(d$x, d$yna, ...),
    cv_mlls = function(...) cv_mlls(d$x, d$yna, nfolds = 3, progress = FALSE, ...),
    cv_ssmddm = function(...) cv_ssmddm(d$x, d$yna, k = 2, nfolds = 3, progress = FALSE, ...),
    cv_mlcrf = function(...) cv_mlcrf(d$x, d$yna, lambda_w = 1, eta = 1, lambda_v = 1,
                                      nfolds = 3, progress = FALSE, ...),
    cv_br = function(...) cv_br(d$x, d$yna, nfolds = 3, progress = FALSE, ...))
  for (f in names(calls)) {
    msg <- error_of(calls[[f]]())
    expect_match(msg, "^'y' contains NA: 13 missing label", info = f)
    expect_match(msg, paste0(f, "(na_labels = \"negative\")"), fixed = TRUE, info = f)
  }
  expect_match(error_of(calls$br()), "br(na_labels = \"observed\")", fixed = TRUE)
})

test_that("na_labels = \"negative\" fits as if NA were FALSE", {
  d <- na_fit_data()
  same <- function(a, b, parts) for (p in parts) expect_equal(a[[p]], b[[p]], info = p)
  same(mlls(d$x, d$yna, alpha = 1, beta = 0.1, na_labels = "negative"),
       mlls(d$x, d$yneg, alpha = 1, beta = 0.1), c("U", "Theta", "intercept", "thresholds"))
  same(mddm(d$x, d$yna, k = 2, na_labels = "negative"), mddm(d$x, d$yneg, k = 2), "P")
  same(ssmddm(d$x, d$yna, alpha = 1, beta = 0.1, k = 2, r = 1, na_labels = "negative"),
       ssmddm(d$x, d$yneg, alpha = 1, beta = 0.1, k = 2, r = 1), "P")
  same(cca_ridge(d$x, d$yna, lambda = 0.1, na_labels = "negative"),
       cca_ridge(d$x, d$yneg, lambda = 0.1), c("W", "intercept"))
  same(br(d$x, d$yna, learner = "logistic", na_labels = "negative"),
       br(d$x, d$yneg, learner = "logistic"), c("W", "intercept", "thresholds"))
  same(mlcrf(d$x, d$yna, lambda_v = 1, lambda_w = 1, edges = "full", na_labels = "negative"),
       mlcrf(d$x, d$yneg, lambda_v = 1, lambda_w = 1, edges = "full"), "theta")
})

test_that("br(na_labels = \"observed\") fits each label on its observed rows", {
  d <- na_fit_data()
  for (learner in c("ridge", "logistic", "svm")) {
    fit <- br(d$x, d$yna, learner = learner, na_labels = "observed", tol = 1e-8)
    for (l in 1:3) {
      o <- !is.na(d$yna[, l])
      ref <- br(d$x[o, ], d$yna[o, l, drop = FALSE], learner = learner, tol = 1e-8)
      expect_equal(unname(c(fit$intercept[l], fit$W[, l])),
                   unname(c(ref$intercept, ref$W[, 1])), tolerance = 1e-6, info = learner)
      expect_equal(unname(fit$thresholds[l]), unname(ref$thresholds), tolerance = 1e-6)
    }
    expect_false(anyNA(predict(fit, d$x, type = "score")))
  }
  expect_equal(unname(br(d$x, d$yna, na_labels = "observed")$n_pos),
               unname(colSums(d$yna, na.rm = TRUE)))
  # a warm start from an observed fit
  f1 <- br(d$x, d$yna, learner = "svm", na_labels = "observed", cost = 0.5)
  f2 <- br(d$x, d$yna, learner = "svm", na_labels = "observed", cost = 0.6, init = f1)
  expect_equal(dim(f2$W), c(4L, 3L))
  all_na <- d$yna
  all_na[, 2] <- NA
  expect_error(br(d$x, all_na, na_labels = "observed"), "'b' are missing \\(NA\\) on every row")
})

test_that("cv_*(na_labels = \"negative\") fit on FALSE, score observed entries", {
  d <- na_fit_data()
  foldid <- rep(1:3, 20)
  grid <- list(alpha = c(0, 1), beta = c(0.01, 1))
  fast <- cv_mlls(d$x, d$yna, alpha = grid$alpha, beta = grid$beta, r = 1, foldid = foldid,
                  progress = FALSE, na_labels = "negative")
  generic <- ml_cv(d$x, d$yna, function(x, y, alpha, beta) mlls(x, y, alpha, beta, r = 1),
                   grid = grid, foldid = foldid, progress = FALSE, na_labels = "negative")
  expect_equal(unname(fast$cvfold), unname(generic$cvfold), tolerance = 1e-8)
  expect_equal(fast$fit$U, mlls(d$x, d$yneg, fast$alpha_best, fast$beta_best, r = 1)$U)
  cb <- cv_br(d$x, d$yna, learner = "logistic", cost = c(0.1, 1), foldid = foldid,
              progress = FALSE, na_labels = "observed")
  gb <- ml_cv(d$x, d$yna, function(x, y, cost) br(x, y, learner = "logistic", cost = cost,
                                                  na_labels = "observed"),
              grid = list(cost = c(0.1, 1)), foldid = foldid, progress = FALSE,
              na_labels = "observed")
  expect_equal(unname(cb$cvfold), unname(gb$cvfold), tolerance = 1e-6)
  cs <- cv_ssmddm(d$x, d$yna, k = 2, alpha = 1, beta = c(0.01, 1), r = 1, foldid = foldid,
                  progress = FALSE, na_labels = "negative")
  expect_false(anyNA(cs$cvfold))
  cm <- cv_mlcrf(d$x, d$yna, lambda_w = c(1, 0.1), eta = 1, lambda_v = 1, foldid = foldid,
                 progress = FALSE, na_labels = "negative")
  expect_false(anyNA(cm$cvfold))
})

# ---- where labels come from ------------------------------------------------------

test_that("formulas keep rows whose only NA is a label; na.action sees the features", {
  d <- na_fit_data()
  df <- data.frame(d$x, d$yna)
  df$f2[5] <- NA                         # a feature NA: na.action's business
  expect_error(mlls(cbind(a, b, c) ~ ., data = df, alpha = 1, beta = 0.1),
               "missing values")         # na.fail, on the feature
  msg <- error_of(mlls(cbind(a, b, c) ~ ., data = df, alpha = 1, beta = 0.1,
                       na.action = na.omit))
  expect_match(msg, "^'y' contains NA: 13 missing label")   # rows kept, the rule applies
  expect_match(msg, "mlls(na_labels = \"negative\")", fixed = TRUE)
  fit <- br(cbind(a, b, c) ~ ., data = df, na.action = na.omit, na_labels = "observed")
  ref <- br(d$x[-5, ], d$yna[-5, ], na_labels = "observed")
  expect_equal(unname(fit$W), unname(ref$W))
  expect_equal(fit$nobs, 59L)
  fit <- mlls(cbind(a, b, c) ~ ., data = df, alpha = 1, beta = 0.1, na.action = "na.omit",
              na_labels = "negative")
  expect_equal(unname(fit$U), unname(mlls(d$x[-5, ], d$yneg[-5, ], alpha = 1, beta = 0.1)$U))
  # factor labels with NA
  df2 <- data.frame(d$x, a = factor(ifelse(d$yna[, 1], "yes", "no"), c("no", "yes")))
  expect_error(br(a ~ ., data = df2), "^'y' contains NA: 8 missing")
})

test_that("mlss_data objects and ARFF files carry NA labels to the rules", {
  d <- na_fit_data()
  ds <- mlss_data(d$x, d$yna)
  expect_identical(unname(ds$y), unname(d$yna))
  expect_output(print(ds), "missing labels: 13")
  expect_error(mlls(ds, alpha = 1, beta = 0.1), "^'y' contains NA: 13")
  fit <- br(ds, na_labels = "observed")
  expect_equal(unname(fit$W), unname(br(d$x, d$yna, na_labels = "observed")$W))
  f <- text_file(c("@relation r", "@attribute f1 numeric", "@attribute f2 numeric",
                   "@attribute l1 {0,1}", "@attribute l2 numeric", "@data",
                   "1.5,2,1,0", "0.5,?,?,1", "2,1,0,?", "{0 3, 2 1, 3 ?}"))
  r <- read_mulan(f, labels = 2)
  expect_identical(unname(r$y), rbind(c(TRUE, FALSE), c(NA, TRUE), c(FALSE, NA), c(TRUE, NA)))
  expect_true(is.na(as.matrix(r$x)[2, 2]))
})

test_that("predict.mlcrf(type = \"prob\") refuses label vectors with NA", {
  d <- na_fit_data()
  fit <- mlcrf(d$x, d$y, lambda_v = 1, lambda_w = 1, edges = "full")
  expect_error(predict(fit, d$x[1:3, ], type = "prob", y = d$yna[1:3, ]),
               "^'y' contains NA: type = \"prob\"")
})
