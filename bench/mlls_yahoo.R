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
#   cca_svm    the papers' CCA+SVM (TKDD 2010 Sec. 6.1): cca_svm(), i.e.
#              regularised CCA of the words against the labels, all its
#              directions kept (r = NULL: as many as labels; the papers give
#              no r for CCA), then a linear SVM per label on the projection
#              with the hinge loss (the papers solve it with LIBSVM's C-SVC);
#              lambda over {1e-6, ..., 10} and C over {1e-4, ..., 1e5} (the
#              papers' grids) jointly by 5-fold ml_cv() on the same folds;
#              out-of-fold (cca_svm_oof) or training-score (cca_svm_train)
#              thresholds from the one cross-validation.  The projection
#              depends on lambda only, so within a run it is computed once per
#              (fold, lambda) and reused for the 10 costs (a memo around
#              mlss's internal cca_projection(), checked at the start of the
#              run to give the same cross-validation as without it).
#   cca_svm_tr the same with the papers' threshold rule inside the
#              cross-validation too (each fold model cut on its own training
#              scores, plain F1 maximum), and for the final fit: the
#              protocol of paper_r_tr for MLLS
# Measures on the test pages: macro F1, micro F1, macro AUC.
#
# Run: R_LIBS=lib nice Rscript bench/mlls_yahoo.R  (needs ../shared/data or
# MLSS_SHARED).  MLSS_YAHOO_SETS (default "arts,health"), MLSS_YAHOO_SPLITS
# (the last split, default 2), MLSS_YAHOO_FIRST_SPLIT (default 1: splits
# first..last), MLSS_YAHOO_VARIANTS (default all).  The split of split s uses
# set.seed(2007 + s) for the 1000 training pages, set.seed(100 + s) before
# every cross-validation (the same folds for every variant of a split), so a
# split is the same whichever splits a run starts from.
# Writes bench/mlls_yahoo_results.rds (every line, the CV surfaces; another
# name with MLSS_YAHOO_OUT).  Each line's time_s is elapsed seconds, cpu_s
# the CPU seconds (user + system, children included) and load the 1-minute
# load average at its end.
source(file.path("bench", "common.R"))

sets <- strsplit(Sys.getenv("MLSS_YAHOO_SETS", "arts,health"), ",")[[1]]
nsplit <- as.integer(Sys.getenv("MLSS_YAHOO_SPLITS", "2"))
first_split <- as.integer(Sys.getenv("MLSS_YAHOO_FIRST_SPLIT", "1"))
variants_all <- c("pkg", "paper_r", "paper_r_tr", "paper_r_l1", "noint", "wide", "ridge",
                  "svm", "r5", "r5_tr", "ridge_tr", "cca_ridge", "aso_svm", "cca_svm",
                  "cca_svm_tr")
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

# The test measures of a cross-validated model: labels by its out-of-fold
# cuts (rule "oof") or by F1-optimal cuts on its own training scores ("train").
cv_test_measures <- function(cv, sp, rule) {
  sc <- predict(cv, sp$xte, type = "score")
  pred <- if (rule == "train") {
    thr <- f1_thresholds(predict(cv, sp$xtr, type = "score"), sp$ytr, level = 1)$threshold
    cut_at(sc, thr)
  } else predict(cv, sp$xte, type = "class")
  test_measures(sp$yte, sc, pred)
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
  list(meas = cv_test_measures(cv, sp, rule), alpha = NA, beta = cv$lambda_best, r = NA,
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

# CCA + linear SVM (the papers' CCA+SVM), lambda and C by one 5-fold ml_cv()
# over the papers' grids; both threshold rules from the one cross-validation.
cca_svm_grid <- list(lambda = 10^(-6:1), cost = 10^(-4:5))
cca_svm_fit <- function(x, y, lambda, cost) cca_svm(x, y, lambda = lambda, cost = cost, loss = "hinge")
# The CCA projection is the same for every cost at one lambda: memoise
# mlss:::cca_projection() on (rows of x and y, lambda, r) for this process.
cca_memo <- local({
  orig <- get("cca_projection", envir = asNamespace("mlss"))
  store <- new.env()
  key_of <- function(x, y, lambda, r) {
    w <- seq_len(nrow(x))
    paste(nrow(x), ncol(x), format(sum(x), digits = 17),
          format(sum(as.numeric(Matrix::rowSums(x)) * w), digits = 17),
          format(sum(as.numeric(Matrix::colSums(x)) * seq_len(ncol(x))), digits = 17),
          sum(y), sum(row(y)[y] * col(y)[y]), format(lambda, digits = 17),
          if (is.null(r)) "all" else r)
  }
  list(fun = function(x, y, lambda, r = NULL) {
         key <- key_of(x, y, lambda, r)
         if (is.null(store[[key]])) store[[key]] <- orig(x, y, lambda, r)
         store[[key]]
       },
       on = function() utils::assignInNamespace("cca_projection", cca_memo$fun, "mlss"),
       off = function() utils::assignInNamespace("cca_projection", orig, "mlss"),
       reset = function() rm(list = ls(store), envir = store),
       size = function() length(ls(store)))
})
cca_svm_cache <- new.env()
cca_svm_warnings <- character()
run_cca_svm <- function(sp, rule, cv_rule = "oof") {
  t0 <- proc.time()[["elapsed"]]
  if (cv_rule == "train" || rule == "oof" || is.null(cca_svm_cache$cv)) {
    cca_memo$reset()
    cca_memo$on()
    # cv_rule "train": the folds scored with cuts on each fold model's own
    # training scores, plain F1 maximum (as paper_r_tr does for MLLS)
    old <- options(mlss.chance_level = if (cv_rule == "train") 1 else 0.05)
    on.exit({ cca_memo$off(); cca_memo$reset(); options(old) })
    cca_svm_cache$cv <- withCallingHandlers(
      ml_cv(sp$xtr, sp$ytr, grid = cca_svm_grid, nfolds = 5, fit = cca_svm_fit,
            thresholds = cv_rule, progress = FALSE),
      warning = function(w) {
        cca_svm_warnings <<- c(cca_svm_warnings, conditionMessage(w))
        invokeRestart("muffleWarning")
      })
    cv <- cca_svm_cache$cv
    cat("cv macro F1 by lambda (best cost):\n")
    print(round(tapply(cv$cvm, cv$grid$lambda, max), 4))
    cat("cv macro F1 by cost (best lambda):\n")
    print(round(tapply(cv$cvm, cv$grid$cost, max), 4))
  }
  cv <- cca_svm_cache$cv
  list(meas = cv_test_measures(cv, sp, rule), alpha = NA, beta = cv$lambda_best,
       cost = cv$cost_best, r = ncol(cv$fit$projection),
       time = proc.time()[["elapsed"]] - t0, cvm = NULL, cv_best = max(cv$cvm, na.rm = TRUE))
}

# The memo must not change what ml_cv() finds: one small cross-validation
# with and without it (300 pages of the first set, a 2 x 2 grid, 3 folds).
check_cca_memo <- function(d) {
  set.seed(1)
  i <- sample.int(nrow(d$x), 300)
  x <- d$x[i, ]
  y <- d$y[i, colSums(d$y[i, ]) > 0, drop = FALSE]
  g <- list(lambda = c(1e-3, 1), cost = c(0.1, 10))
  run <- function() {
    set.seed(2)
    suppressWarnings(ml_cv(x, y, grid = g, nfolds = 3, fit = cca_svm_fit, progress = FALSE))
  }
  plain <- run()
  cca_memo$on()
  memo <- run()
  n_memo <- cca_memo$size()
  cca_memo$off()
  cca_memo$reset()
  stopifnot(identical(plain$cvm, memo$cvm), identical(plain$fit$W, memo$fit$W),
            n_memo == 3 * 2 + 1)
  cat("cca_svm: the projection memo gives the same cross-validation (", n_memo,
      "projections for", 3 * 4 + 1, "fits )\n")
}

# The 1-minute load average (CPU seconds: cpu_seconds() of common.R).
load_average <- function() {
  if (!file.exists("/proc/loadavg")) return(NA)
  as.numeric(strsplit(readLines("/proc/loadavg"), " ")[[1]][1])
}

cat("MLLS on Yahoo, papers' protocol;", format(Sys.time(), tz = "UTC", usetz = TRUE), "\n")
cat("machine:", Sys.info()[["nodename"]], "|", R.version.string, "| cores", parallel::detectCores(),
    "\n\n")
rows <- list()
surfaces <- list()
for (set in sets) {
  d <- load_yahoo(set)
  if (any(c("cca_svm", "cca_svm_tr") %in% variants) && set == sets[1]) check_cca_memo(d)
  m <- ncol(d$y)
  cat(sprintf("%s: %d pages, %d words, %d labels\n", set, nrow(d$x), ncol(d$x), m))
  for (s in seq(first_split, nsplit)) {
    sp <- split_data(d, s)
    for (v in variants) {
      rules <- switch(v, svm = , cca_ridge = , cca_svm = c("oof", "train"), aso_svm = "train",
                      NA)
      for (rule in rules) {
        set.seed(100 + s)
        cpu0 <- cpu_seconds()
        res <- switch(v, svm = run_svm(sp, rule), cca_ridge = run_cca(sp, rule),
                      cca_svm = run_cca_svm(sp, rule),
                      cca_svm_tr = run_cca_svm(sp, "train", cv_rule = "train"),
                      aso_svm = run_aso(sp),
                      run_mlls(sp, v, m))
        name <- if (is.na(rule)) v else paste0(v, "_", rule)
        row <- data.frame(set = set, split = s, variant = name, r = res$r, alpha = res$alpha,
                          beta = res$beta, cost = if (is.null(res$cost)) NA else res$cost,
                          cv_macro_f1 = round(res$cv_best, 4),
                          macro_f1 = round(res$meas[["macro_f1"]], 4),
                          micro_f1 = round(res$meas[["micro_f1"]], 4),
                          macro_auc = round(res$meas[["macro_auc"]], 4),
                          time_s = round(res$time, 1), cpu_s = round(cpu_seconds() - cpu0, 1),
                          load = load_average())
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
if (length(cca_svm_warnings)) {
  cat("\ncca_svm: warnings of the cross-validations (each once, with its count)\n")
  print(table(cca_svm_warnings))
}
cat("\nAll lines\n")
print(res, row.names = FALSE)
cat("\nMeans over splits\n")
print(aggregate(cbind(macro_f1, micro_f1, macro_auc) ~ set + variant, data = res, FUN = mean),
      digits = 4)
