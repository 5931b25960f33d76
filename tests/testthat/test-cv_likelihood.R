# Cross-validation by held-out likelihood (measure = "log_loss") and the
# per-label Brier score, against plain-R computations: by enumeration of the
# 2^m label vectors for the joint models (MLCRF, PCC), from the per-label
# probabilities for the others; with and without missing labels.

# -mean over a fold's rows (with an observed label) of the log-likelihood of
# the observed entries under independent per-label probabilities p.
ref_label_nll <- function(y, p) {
  p <- pmin(pmax(p, 1e-15), 1 - 1e-15)
  ll <- vapply(seq_len(nrow(y)), function(i) {
    o <- !is.na(y[i, ])
    sum(ifelse(y[i, o], log(p[i, o]), log(1 - p[i, o])))
  }, 0)
  -mean(ll[rowSums(!is.na(y)) > 0])
}

test_that("ml_metrics(): log_loss and brier from per-label probabilities, with and without NA", {
  set.seed(3)
  y <- matrix(runif(24) < 0.4, 6, 4, dimnames = list(NULL, letters[1:4]))
  p <- matrix(runif(24), 6, 4, dimnames = list(NULL, letters[1:4]))
  yu <- unname(y)
  pu <- unname(p)
  m <- ml_metrics(y, prob = p, measures = c("log_loss", "brier"))
  # written out entry by entry
  nll <- 0
  for (i in 1:6) for (l in 1:4) nll <- nll - log(if (yu[i, l]) pu[i, l] else 1 - pu[i, l])
  expect_equal(m$log_loss, nll / 6)
  expect_equal(m$brier, sum((p - y)^2) / 24)
  # columns matched by name
  expect_equal(ml_metrics(y, prob = p[, 4:1], measures = "log_loss")$log_loss, nll / 6)
  # the default measures of a matrix of probabilities are both
  expect_named(ml_metrics(y, prob = p), c("log_loss", "brier"))
  # missing labels: the observed factors; a row with none observed left out
  yn <- y
  yn[cbind(c(1, 2, 2, 5), c(1, 2, 4, 3))] <- NA
  yn[6, ] <- NA
  ynu <- unname(yn)
  nll <- 0
  for (i in 1:5) for (l in 1:4) if (!is.na(ynu[i, l]))
    nll <- nll - log(if (ynu[i, l]) pu[i, l] else 1 - pu[i, l])
  expect_equal(ml_metrics(yn, prob = p, measures = "log_loss")$log_loss, nll / 5)
  obs <- !is.na(yn)
  expect_equal(ml_metrics(yn, prob = p, measures = "brier")$brier,
               sum(((p - yn)^2)[obs]) / sum(obs))
  # a certain mistake costs -log(1e-15), not Inf
  expect_equal(ml_metrics(y[1, , drop = FALSE], prob = 1 - y[1, , drop = FALSE] + 0,
                          measures = "log_loss")$log_loss,
               -sum(ifelse(yu[1, ], log(1e-15), log(1 - (1 - 1e-15)))))
  # brier needs the per-label probabilities
  expect_error(ml_metrics(y, prob = rep(0.5, 6), measures = "brier"), "'brier' needs the per-label")
  expect_named(ml_metrics(y, prob = rep(0.5, 6)), "log_loss")
  expect_error(ml_metrics(y, prob = p * 2), "'prob' must hold probabilities")
})

test_that("cv_pcc(measure = \"log_loss\") is the held-out NLL of the chain by enumeration", {
  d <- chain_ref_data(n = 60, d = 3, m = 4, seed = 5)
  fid <- rep(1:3, length.out = 60)
  cv <- cv_pcc(d$x, d$y, cost = 1, foldid = fid, measure = "log_loss", progress = FALSE)
  expect_false(cv$higher_better)
  for (k in 1:3) {
    tr <- fid != k
    fit <- pcc(d$x[tr, ], d$y[tr, ], cost = 1)
    ord <- match(fit$order, fit$labels)
    va <- which(!tr)
    lp <- vapply(va, function(i) {
      e <- chain_ref_brute(fit, ord, d$x[i, ])
      v <- chain_ref_vectors(4)
      log(e$p[which(apply(v, 1, function(r) all(r == d$y[i, ])))])
    }, 0)
    expect_equal(unname(cv$cvfold[1, k]), -mean(lp), tolerance = 1e-8, info = paste("fold", k))
  }
  # missing labels: the joint probability of a partial vector is not computed
  yn <- d$y
  yn[2, 3] <- NA
  expect_error(cv_pcc(d$x, yn, cost = 1, foldid = fid, measure = "log_loss",
                      na_labels = "negative", progress = FALSE),
               "missing labels needs the probability of each row's observed entries.*cv_pcc\\(\\)")
  # brier on the marginals, by enumeration, with the NA left out
  cvb <- cv_pcc(d$x, yn, cost = 1, foldid = fid, measure = "brier", na_labels = "negative",
                progress = FALSE)
  yf <- yn
  yf[is.na(yf)] <- FALSE
  for (k in 1:3) {
    tr <- fid != k
    fit <- pcc(d$x[tr, ], yf[tr, ], cost = 1)
    ord <- match(fit$order, fit$labels)
    va <- which(!tr)
    marg <- t(vapply(va, function(i) chain_ref_brute(fit, ord, d$x[i, ])$marginals, numeric(4)))
    o <- !is.na(yn[va, ])
    expect_equal(unname(cvb$cvfold[1, k]), mean(((marg - yn[va, ])^2)[o]), tolerance = 1e-8)
  }
})

test_that("cv_mlcrf(measure = \"log_loss\") is the held-out NLL of the CRF by enumeration", {
  set.seed(6)
  n <- 60
  x <- matrix(rnorm(n * 3), n, 3, dimnames = list(NULL, paste0("f", 1:3)))
  y <- matrix(rbinom(n * 4, 1, 0.5) == 1, n, 4, dimnames = list(NULL, paste0("L", 1:4)))
  y[, 2] <- xor(y[, 1], runif(n) < 0.2)
  fid <- rep(1:3, length.out = n)
  # the fold fits at mlcrf()'s default tol, as the references below
  cv <- cv_mlcrf(x, y, lambda_w = 0.02, eta = 1, lambda_v = 0.05, foldid = fid,
                 measure = "log_loss", progress = FALSE, fold_tol = 1e-6)
  for (k in 1:3) {
    tr <- fid != k
    fit <- mlcrf(x[tr, ], y[tr, ], lambda_v = 0.05, lambda_w = 0.02, eta = 1)
    va <- which(!tr)
    X1 <- cbind(1, x[va, , drop = FALSE])
    node <- X1 %*% fit$nodes
    lp <- vapply(seq_along(va), function(j) {
      pair <- unlist(lapply(fit$weights, function(w) drop(X1[j, ] %*% w)))
      ref <- crf_ref_brute(node[j, ], pair, match(fit$edges$from, fit$labels),
                           match(fit$edges$to, fit$labels))
      ref$logp[which(apply(ref$configs, 1, function(r) all(r == y[va[j], ])))]
    }, 0)
    expect_equal(unname(cv$cvfold[1, k]), -mean(lp), tolerance = 1e-6, info = paste("fold", k))
  }
  yn <- y
  yn[1, 1] <- NA
  expect_error(cv_mlcrf(x, yn, lambda_w = 0.02, eta = 1, lambda_v = 0.05, foldid = fid,
                        measure = "log_loss", na_labels = "negative", progress = FALSE),
               "missing labels needs the probability.*cv_mlcrf\\(\\)")
})

test_that("log_loss of per-label models is the product of the observed factors", {
  d <- chain_ref_data(n = 60, d = 3, m = 4, seed = 7)
  fid <- rep(1:3, length.out = 60)
  yn <- d$y
  set.seed(2)
  yn[sample(length(yn), 30)] <- NA
  cases <- list(
    br = list(cv = function(y, na) cv_br(d$x, y, learner = "logistic", cost = 0.5, foldid = fid,
                                         measure = "log_loss", progress = FALSE,
                                         na_labels = if (na) "observed" else "refuse"),
              fit = function(x, y) br(x, y, learner = "logistic", cost = 0.5,
                                      na_labels = "observed")),
    mlknn = list(cv = function(y, na) cv_mlknn(d$x, y, k = 5, foldid = fid, measure = "log_loss",
                                               progress = FALSE,
                                               na_labels = if (na) "negative" else "refuse"),
                 fit = function(x, y) { y[is.na(y)] <- FALSE; mlknn(x, y, k = 5) }),
    iblr = list(cv = function(y, na) ml_cv(d$x, y, function(x, y, k) iblr(x, y, k = k),
                                           grid = list(k = 5), foldid = fid, measure = "log_loss",
                                           probabilities = TRUE, progress = FALSE,
                                           na_labels = if (na) "negative" else "refuse"),
                fit = function(x, y) { y[is.na(y)] <- FALSE; iblr(x, y, k = 5) }))
  for (nm in names(cases)) for (na in c(FALSE, TRUE)) {
    y <- if (na) yn else d$y
    cv <- cases[[nm]]$cv(y, na)
    for (k in 1:3) {
      tr <- fid != k
      p <- predict(cases[[nm]]$fit(d$x[tr, ], y[tr, ]), d$x[!tr, ], type = "score")
      expect_equal(unname(cv$cvfold[1, k]), ref_label_nll(y[!tr, ], p), tolerance = 1e-10,
                   info = paste(nm, "NA" = na, "fold", k))
    }
  }
})

test_that("methods whose scores are not probabilities refuse log_loss and brier clearly", {
  d <- chain_ref_data(n = 40, d = 3, m = 3, seed = 2)
  expect_error(cv_br(d$x, d$y, cost = 1, nfolds = 3, measure = "log_loss", progress = FALSE),
               "needs probabilities, and the scores of cv_br\\(\\) are not probabilities \\(learner = \"ridge\"")
  expect_error(cv_cc(d$x, d$y, cost = 1, nfolds = 3, measure = "brier", progress = FALSE),
               "scores of cv_cc\\(\\) are not probabilities.*cv_pcc\\(\\) gives them")
  expect_error(cv_cplst(d$x, d$y, k = 2, lambda = 1, nfolds = 3, measure = "log_loss",
                        progress = FALSE), "cv_cplst\\(\\) are not probabilities")
  expect_error(ml_cv(d$x, d$y, function(x, y, beta) mlls(x, y, alpha = 0, beta = beta),
                     grid = list(beta = 1), nfolds = 3, measure = "log_loss", progress = FALSE),
               "scores of ml_cv\\(\\) are not probabilities")
  # a user's probabilities = TRUE whose scores leave [0, 1] is caught
  expect_error(ml_cv(d$x, d$y, function(x, y, beta) mlls(x, y, alpha = 0, beta = beta),
                     grid = list(beta = 1), nfolds = 3, measure = "log_loss",
                     probabilities = TRUE, progress = FALSE),
               "are not probabilities \\(some are outside \\[0, 1\\]\\)")
})

test_that("lower is better: the engine's best and 1-SE points take the smallest log_loss", {
  d <- chain_ref_data(n = 90, d = 3, m = 4, seed = 11)
  fid <- rep(1:3, length.out = 90)
  cv <- cv_br(d$x, d$y, learner = "logistic", cost = c(0.001, 0.1, 10), foldid = fid,
              measure = "log_loss", progress = FALSE)
  cvm <- as.vector(cv$cvm)
  expect_identical(cv$best, which.min(cvm))
  bound <- cvm[cv$best] + as.vector(cv$cvsd)[cv$best]
  # most regularised = smallest cost first
  expect_identical(cv$best_1se, which(cvm <= bound)[1])
  expect_true(cvm[1] > min(cvm))  # cost 0.001 is visibly worse: the test can tell
})
