# MLLS on the Yahoo collections with the papers' protocol (issue 27): why does
# cross-validation pick a tiny alpha (little shared subspace), and does a
# linear SVM beat MLLS under one common threshold rule?
#
# Protocol (Ji et al. KDD 2008 Sec. 5.1, TKDD 2010 Sec. 6): labels with >= 100
# pages, words in >= 5 pages, pages with a label, TF-IDF, unit rows
# (tfidf(), which reproduces the papers' Table 2 sizes); 1000 random
# training pages, the rest for testing; alpha and beta tuned by 5-fold CV on
# the training pages over {0, 1e-6, ..., 1}; r = 5 floor((m - 1) / 5);
# thresholds tuned for F1 on the training data.
#
# Variants, each on every split (one line per split and variant):
#   pkg        cv_mlls() as shipped: default r (min(paper's r, ceiling(m/2))),
#              alpha {0, 1e-6..1}, beta {1e-6..1}, out-of-fold thresholds
#              with the chance rule (level 0.05)
#   paper_r    the same with the papers' r = 5 floor((m - 1) / 5)
#   paper_r_tr the papers' r and their threshold rule: per-label F1 cuts on
#              the training scores of the final fit (cv on training-score
#              cuts too), plain F1 maximum (level = 1)
#   paper_r_l1 the papers' r, out-of-fold thresholds, plain F1 maximum
#   noint      the papers' r without intercept (the papers' model has none;
#              rows are unit length, not centred)
#   wide       the papers' r, alpha up to 1e3 (is the best alpha at the top?)
#   ridge      alpha = 0 only (beta tuned): MLLS without the subspace
#   ridge_tr   the same with the papers' training-score thresholds
#   r5, r5_tr  r = 5 (a subspace well below the number of labels), with
#              out-of-fold or the papers' training-score thresholds
#   svm        br(learner = "svm", cost = 1) (LIBLINEAR's L2-loss SVM, C = 1)
#              with out-of-fold (5-fold) or training-score thresholds
#   cca_ridge  cca_ridge(cost = 1), lambda {1e-6..1} by 5-fold ml_cv() on
#              the same folds; out-of-fold (cca_ridge_oof) or training-score
#              (cca_ridge_train) thresholds (issue 27, for the papers' Table III)
#   aso_svm    aso_svm(alpha = 1) at its defaults, NOT tuned (one fit takes
#              about 5 minutes on Arts), training-score thresholds only
#              (aso_svm_train)
# Measures on the test pages: macro F1, micro F1, macro AUC.
#
# Run: R_LIBS=lib nice Rscript bench/mlls_yahoo.R  (needs ../shared/data or
# MLSS_SHARED).  MLSS_YAHOO_SETS (default "arts,health"), MLSS_YAHOO_SPLITS
# (default 2), MLSS_YAHOO_VARIANTS (default all).  The split of split s uses
# set.seed(2007 + s) for the 1000 training pages, set.seed(100 + s) before
# every cross-validation (the same folds for every variant of a split).
# Writes bench/mlls_yahoo_results.rds (every line, the CV surfaces; another
# name with MLSS_YAHOO_OUT).
source(file.path("bench", "common.R"))

sets <- strsplit(Sys.getenv("MLSS_YAHOO_SETS", "arts,health"), ",")[[1]]
nsplit <- as.integer(Sys.getenv("MLSS_YAHOO_SPLITS", "2"))
variants_all <- c("pkg", "paper_r", "paper_r_tr", "paper_r_l1", "noint", "wide", "ridge",
                  "svm", "r5", "r5_tr", "ridge_tr", "cca_ridge", "aso_svm")
variants <- strsplit(Sys.getenv("MLSS_YAHOO_VARIANTS", paste(variants_all, collapse = ",")),
                     ",")[[1]]
grid_a <- c(0, 10^(-6:0))
grid_b <- 10^(-6:0)

test_measures <- function(yte, score, pred)
  unlist(ml_metrics(yte, score = score, pred = pred,
                    measures = c("macro_f1", "micro_f1", "macro_auc")))

cut_at <- function(score, thr) score > rep(thr, each = nrow(score))

# One split: 1000 training pages, each label present in the training part
# (the papers guarantee it: redraw until it holds).
split_data <- function(d, s) {
  set.seed(2007 + s)
  repeat {
    tr <- seq_len(nrow(d$x)) %in% sample.int(nrow(d$x), 1000)
    if (all(colSums(d$y[tr, , drop = FALSE]) > 0)) break
  }
  list(xtr = d$x[tr, ], ytr = d$y[tr, ], xte = d$x[!tr, ], yte = d$y[!tr, ])
}

run_mlls <- function(sp, variant, m) {
  paper_r <- 5L * ((m - 1L) %/% 5L)
  args <- list(sp$xtr, sp$ytr, alpha = grid_a, beta = grid_b, nfolds = 5)
  level <- NULL
  switch(variant,
         pkg = NULL,
         paper_r = args$r <- paper_r,
         paper_r_tr = { args$r <- paper_r; args$thresholds <- "train"; level <- 1 },
         paper_r_l1 = { args$r <- paper_r; level <- 1 },
         noint = { args$r <- paper_r; args$intercept <- FALSE },
         wide = { args$r <- paper_r; args$alpha <- c(0, 10^(-6:3)) },
         ridge = { args$r <- paper_r; args$alpha <- 0 },
         ridge_tr = { args$r <- paper_r; args$alpha <- 0; args$thresholds <- "train"
                      level <- 1 },
         r5 = args$r <- 5L,
         r5_tr = { args$r <- 5L; args$thresholds <- "train"; level <- 1 })
  old <- options(mlss.chance_level = if (is.null(level)) 0.05 else level)
  on.exit(options(old))
  t0 <- proc.time()[["elapsed"]]
  cv <- do.call(cv_mlls, args)
  sc <- predict(cv, sp$xte, type = "score")
  if (variant %in% c("paper_r_tr", "r5_tr", "ridge_tr")) {
    # the papers' rule: cuts on the final fit's training scores, plain F1
    thr <- f1_thresholds(predict(cv, sp$xtr, type = "score"), sp$ytr, level = 1)$threshold
    pred <- cut_at(sc, thr)
  } else pred <- predict(cv, sp$xte, type = "class")
  list(meas = test_measures(sp$yte, sc, pred), alpha = cv$alpha_best, beta = cv$beta_best,
       r = cv$fit$r, time = proc.time()[["elapsed"]] - t0,
       cvm = cv$cvm, cv_best = max(cv$cvm, na.rm = TRUE))
}

run_svm <- function(sp, rule) {
  t0 <- proc.time()[["elapsed"]]
  fit <- br(sp$xtr, sp$ytr, learner = "svm", cost = 1)
  sc <- predict(fit, sp$xte, type = "score")
  if (rule == "train") {
    thr <- f1_thresholds(predict(fit, sp$xtr, type = "score"), sp$ytr, level = 1)$threshold
  } else {
    # out-of-fold cuts on 5 stratified folds of the training pages, as
    # cv_mlls() takes them (chance rule at its default level)
    fold <- ml_folds(sp$ytr, 5)
    oof <- matrix(0, nrow(sp$ytr), ncol(sp$ytr))
    for (k in 1:5) {
      f <- br(sp$xtr[fold != k, ], sp$ytr[fold != k, ], learner = "svm", cost = 1)
      oof[fold == k, ] <- predict(f, sp$xtr[fold == k, ], type = "score")
    }
    thr <- f1_thresholds(oof, sp$ytr)$threshold
  }
  list(meas = test_measures(sp$yte, sc, cut_at(sc, thr)), alpha = NA, beta = NA, r = NA,
       time = proc.time()[["elapsed"]] - t0, cvm = NULL, cv_best = NA)
}

# CCA + ridge (cost 1), lambda by 5-fold ml_cv() over the MLLS grid of beta;
# both threshold rules from the one cross-validation (kept for the second rule).
cca_cache <- new.env()
run_cca <- function(sp, rule) {
  t0 <- proc.time()[["elapsed"]]
  if (rule == "oof" || is.null(cca_cache$cv))
    cca_cache$cv <- ml_cv(sp$xtr, sp$ytr, grid = list(lambda = grid_b), nfolds = 5,
                          fit = function(x, y, lambda) cca_ridge(x, y, lambda = lambda, cost = 1),
                          progress = FALSE)
  cv <- cca_cache$cv
  sc <- predict(cv, sp$xte, type = "score")
  pred <- if (rule == "train") {
    thr <- f1_thresholds(predict(cv, sp$xtr, type = "score"), sp$ytr, level = 1)$threshold
    cut_at(sc, thr)
  } else predict(cv, sp$xte, type = "class")
  list(meas = test_measures(sp$yte, sc, pred), alpha = NA, beta = cv$lambda_best, r = NA,
       time = proc.time()[["elapsed"]] - t0, cvm = NULL, cv_best = max(cv$cvm, na.rm = TRUE))
}

# ASO-SVM at alpha = 1 and its defaults (not tuned: see the header), cuts on
# the training scores.
run_aso <- function(sp) {
  t0 <- proc.time()[["elapsed"]]
  fit <- suppressWarnings(aso_svm(sp$xtr, sp$ytr, alpha = 1))
  sc <- predict(fit, sp$xte, type = "score")
  thr <- f1_thresholds(predict(fit, sp$xtr, type = "score"), sp$ytr, level = 1)$threshold
  list(meas = test_measures(sp$yte, sc, cut_at(sc, thr)), alpha = 1, beta = NA, r = NA,
       time = proc.time()[["elapsed"]] - t0, cvm = NULL, cv_best = NA)
}

cat("MLLS on Yahoo, papers' protocol;", format(Sys.time(), tz = "UTC", usetz = TRUE), "\n")
cat("machine:", Sys.info()[["nodename"]], "|", R.version.string, "| cores", parallel::detectCores(),
    "\n\n")
rows <- list()
surfaces <- list()
for (set in sets) {
  d <- load_yahoo(set)
  m <- ncol(d$y)
  cat(sprintf("%s: %d pages, %d words, %d labels\n", set, nrow(d$x), ncol(d$x), m))
  for (s in seq_len(nsplit)) {
    sp <- split_data(d, s)
    for (v in variants) {
      rules <- switch(v, svm = , cca_ridge = c("oof", "train"), aso_svm = "train", NA)
      for (rule in rules) {
        set.seed(100 + s)
        res <- switch(v, svm = run_svm(sp, rule), cca_ridge = run_cca(sp, rule),
                      aso_svm = run_aso(sp), run_mlls(sp, v, m))
        name <- if (is.na(rule)) v else paste0(v, "_", rule)
        row <- data.frame(set = set, split = s, variant = name, r = res$r, alpha = res$alpha,
                          beta = res$beta, cv_macro_f1 = round(res$cv_best, 4),
                          macro_f1 = round(res$meas[["macro_f1"]], 4),
                          micro_f1 = round(res$meas[["micro_f1"]], 4),
                          macro_auc = round(res$meas[["macro_auc"]], 4),
                          time_s = round(res$time, 1))
        print(row, row.names = FALSE)
        rows[[length(rows) + 1]] <- row
        if (!is.null(res$cvm)) surfaces[[paste(set, s, name)]] <- res$cvm
        saveRDS(list(rows = do.call(rbind, rows), surfaces = surfaces),
                Sys.getenv("MLSS_YAHOO_OUT", file.path("bench", "mlls_yahoo_results.rds")))
      }
    }
  }
}
res <- do.call(rbind, rows)
cat("\nAll lines\n")
print(res, row.names = FALSE)
cat("\nMeans over splits\n")
print(aggregate(cbind(macro_f1, micro_f1, macro_auc) ~ set + variant, data = res, FUN = mean),
      digits = 4)
