# Benchmarks of mlcrf(), run from the package directory (make bench).
#
# Part 1: accuracy as in the paper's Tables 2-5 (exact match, log-likelihood
#   loss, micro and macro F1) on emotions, yeast and scene: k-fold CV on
#   ml_folds() (MLCRF_BENCH_FOLDS, 10 by default as in the paper), MLCRF
#   against binary relevance with the same logistic model (mlcrf(edges =
#   "none"), the same lambda_v).  Not the paper's full protocol, for time:
#   lambda_v is chosen per label by 5-fold CV of the logistic models (as in the
#   paper) once, on the training part of the first fold (MLCRF_BENCH_LV =
#   "fold" repeats it in every fold), and lambda_w is the documented
#   default rule (no cross-validation of lambda_w and eta; cv_mlcrf() does not
#   exist yet) and eta is fixed (MLCRF_BENCH_ETA, 0.5 by default: with eta = 1
#   the refit of the kept edges has almost no ridge and overfits).  Predictions
#   use exact inference (m <= 14).  The paper's log-likelihood loss is the sum
#   over a test fold, averaged over the folds; ours is reported the same way
#   (mean log loss times the fold size).
# Part 2: time per fit and per prediction, and how it grows with the number
#   of labels m (exact vs approximate inference) and of instances n.
#
# Environment: MLCRF_BENCH_PARTS ("1,2"), MLCRF_BENCH_FOLDS, MLCRF_BENCH_ETA,
#   MLCRF_BENCH_DATA ("emotions,yeast,scene").
source(file.path("bench", "common.R"))

parts <- strsplit(Sys.getenv("MLCRF_BENCH_PARTS", "1,2"), ",")[[1]]
nfolds <- as.integer(Sys.getenv("MLCRF_BENCH_FOLDS", "10"))
lv_each_fold <- Sys.getenv("MLCRF_BENCH_LV", "once") == "fold"
fit_tol <- 1e-5
eta <- as.numeric(Sys.getenv("MLCRF_BENCH_ETA", "0.5"))
sets <- strsplit(Sys.getenv("MLCRF_BENCH_DATA", "emotions,yeast,scene"), ",")[[1]]
cat("mlcrf benchmark;", R.version.string, "; BLAS:", extSoftVersion()[["BLAS"]],
    "; cores:", parallel::detectCores(), "; loaded machine\n")

# The Mulan data sets as bundled in the package (the same instances as the
# ARFF files in ../shared/data/mulan, train and test parts together).
load_set <- function(name) {
  d <- get(name, asNamespace("mlss"))
  d$x <- as.matrix(d$x)
  d
}

# The paper's figures (Tables 2-5; MLCRF and BR columns), log-likelihood loss
# as the sum over a test fold.
paper <- data.frame(
  data = rep(c("emotions", "yeast", "scene"), each = 2),
  method = rep(c("MLCRF", "BR"), 3),
  exact_match = c(0.371, 0.265, 0.225, 0.151, 0.687, 0.541),
  loglik_loss = c(130.4, 153.5, 923.9, 1500.3, 252.4, 344.7),
  micro_f1 = c(0.697, 0.645, 0.629, 0.635, 0.733, 0.696),
  macro_f1 = c(0.695, 0.632, 0.476, 0.457, 0.746, 0.703),
  stringsAsFactors = FALSE)

fold_measures <- function(y, pred, prob) {
  r <- ml_metrics(y, pred = pred, prob = prob,
                  measures = c("subset_accuracy", "log_loss", "micro_f1", "macro_f1"))
  c(exact_match = r$subset_accuracy, loglik_loss = r$log_loss * nrow(y),
    micro_f1 = r$micro_f1, macro_f1 = r$macro_f1)
}

if ("1" %in% parts) {
  rows <- list()
  for (name in sets) {
    d <- load_set(name)
    set.seed(2014)
    foldid <- ml_folds(d$y, nfolds)
    res <- list(MLCRF = NULL, BR = NULL)
    tfit <- c(MLCRF = 0, BR = 0)
    nedges <- integer(0)
    for (k in seq_len(nfolds)) {
      tr <- foldid != k
      if (k == 1 || lv_each_fold)
        lv <- mlss:::mlcrf_cv_lambda_v(d$x[tr, ], d$y[tr, ], 5, tol = 1e-4, maxit = 2000)
      for (method in c("MLCRF", "BR")) {
        t0 <- proc.time()[["elapsed"]]
        fit <- suppressWarnings(mlcrf(d$x[tr, ], d$y[tr, ], lambda_v = lv, eta = eta, tol = fit_tol,
                                      edges = if (method == "BR") "none" else "learn"))
        tfit[method] <- tfit[method] + proc.time()[["elapsed"]] - t0
        if (method == "MLCRF") nedges <- c(nedges, nrow(fit$edges))
        pred <- predict(fit, d$x[!tr, ])
        prob <- predict(fit, d$x[!tr, ], type = "prob", y = d$y[!tr, ])
        res[[method]] <- rbind(res[[method]], fold_measures(d$y[!tr, ], pred, prob))
      }
    }
    for (method in c("MLCRF", "BR")) {
      rows[[length(rows) + 1]] <- data.frame(
        data = name, method = method, t(colMeans(res[[method]])),
        fit_seconds = tfit[[method]] / nfolds,
        edges = if (method == "MLCRF") paste0(round(mean(nedges), 1), "/",
                                              ncol(d$y) * (ncol(d$y) - 1) / 2) else "0")
    }
    cat(name, "done:\n")
    print(format(do.call(rbind, rows[length(rows) - 1:0]), digits = 3), row.names = FALSE)
  }
  ours <- do.call(rbind, rows)
  tab <- merge(ours, paper, by = c("data", "method"), suffixes = c("", "_paper"), sort = FALSE)
  # the paper's folds are a tenth of the data: our sums rescaled to that size
  tab$loglik_loss_tenth <- tab$loglik_loss * nfolds / 10
  tab <- tab[, c("data", "method", "exact_match", "exact_match_paper", "loglik_loss",
                 "loglik_loss_tenth", "loglik_loss_paper", "micro_f1", "micro_f1_paper", "macro_f1",
                 "macro_f1_paper", "edges", "fit_seconds")]
  cat("\nPart 1:", nfolds, "-fold CV (mean over folds); eta =", eta,
      "; lambda_w the default rule; lambda_v by 5-fold CV",
      if (lv_each_fold) "in every fold" else "on the first fold's training part only",
      "; tol =", fit_tol, "; _paper = the paper's Tables 2-5 (10-fold CV, tuned)\n")
  print(format(tab, digits = 3), row.names = FALSE)
}

if ("2" %in% parts) {
  d <- load_set("yeast")
  set.seed(1)
  cat("\nPart 2a: yeast, the first m labels, n = 1500 training / 500 test instances,",
      "lambda_v = 0.01, default lambda_w, eta =", eta, "\n")
  idx <- sample.int(nrow(d$x), 2000)
  xtr <- d$x[idx[1:1500], ]; xte <- d$x[idx[1501:2000], ]
  tab <- NULL
  for (m in c(4, 6, 8, 10, 12, 14)) {
    ytr <- d$y[idx[1:1500], 1:m]
    fit <- NULL
    tf <- elapsed(fit <- suppressWarnings(mlcrf(xtr, ytr, lambda_v = 0.01, eta = eta)))
    te <- elapsed(pe <- predict(fit, xte, type = "score", inference = "exact"))
    ta <- elapsed(pa <- suppressWarnings(predict(fit, xte, type = "score",
                                                 inference = "approximate")))
    tab <- rbind(tab, data.frame(m = m, edges = nrow(fit$edges), fit_s = tf,
                                 stage1_iter = fit$convergence$stage1$iter,
                                 stage2_iter = fit$convergence$stage2$iter,
                                 exact_ms_per_500 = 1000 * te, approx_ms_per_500 = 1000 * ta,
                                 max_marginal_diff = max(abs(pe - pa))))
  }
  print(format(tab, digits = 3), row.names = FALSE)

  cat("\nPart 2b: inference alone on random potentials (100 instances, each pair",
      "linked with probability 0.3, edge potentials N(0, 0.5^2)): exact vs loopy BP + ICM\n")
  infer <- get("C_crf_infer", asNamespace("mlss"))
  tab <- NULL
  for (m in c(8, 10, 12, 14, 16, 18, 20)) {
    set.seed(m)
    pairs <- which(upper.tri(diag(m)), arr.ind = TRUE)
    pairs <- pairs[order(pairs[, 1]), , drop = FALSE]
    pairs <- pairs[runif(nrow(pairs)) < 0.3, , drop = FALSE]
    n <- 100
    node <- matrix(rnorm(n * m), n)
    pair <- matrix(rnorm(n * 3 * nrow(pairs), sd = 0.5), n)
    te <- elapsed(ex <- .Call(infer, node, pair, pairs[, 1] - 1L, pairs[, 2] - 1L, TRUE,
                              NULL, 0.5, 500L, 1e-8))
    ta <- elapsed(ap <- .Call(infer, node, pair, pairs[, 1] - 1L, pairs[, 2] - 1L, FALSE,
                              NULL, 0.5, 500L, 1e-8))
    tab <- rbind(tab, data.frame(m = m, edges = nrow(pairs), exact_ms = 1000 * te,
                                 approx_ms = 1000 * ta, ratio = te / max(ta, 1e-6),
                                 max_marginal_diff = max(abs(ex$marginal - ap$marginal)),
                                 map_agree = mean(rowSums(ex$map != ap$map) == 0)))
  }
  print(format(tab, digits = 3), row.names = FALSE)

  cat("\nPart 2c: yeast, all 14 labels, fit time against n (lambda_v = 0.01, default",
      "lambda_w, eta =", eta, ")\n")
  tab <- NULL
  for (n in c(300, 600, 1200, 2417)) {
    set.seed(n)
    rows <- sample.int(nrow(d$x), n)
    fit <- NULL
    tf <- elapsed(fit <- suppressWarnings(mlcrf(d$x[rows, ], d$y[rows, ], lambda_v = 0.01,
                                                eta = eta)))
    tab <- rbind(tab, data.frame(n = n, edges = nrow(fit$edges), fit_s = tf,
                                 stage1_iter = fit$convergence$stage1$iter,
                                 stage2_iter = fit$convergence$stage2$iter))
  }
  print(format(tab, digits = 3), row.names = FALSE)
}
