# Cross-validation over the alpha x beta grid: the time of cv_mlls() against
# the time of the decompositions it cannot avoid (one per fold plus one for
# the final fit, the same eigendecompositions done by R's eigen() in the same
# process), and against refitting mlls() at every grid point; for the 8 x 8
# and the 20 x 20 grids, on yeast (Mulan's split) and on yahoo_arts (1000
# training pages, the papers' protocol).  Also the two threshold rules.
# Run: make bench, or R_LIBS=lib Rscript bench/cv_grid.R
source(file.path("bench", "common.R"))
nfolds <- 5
grids <- list("8x8" = list(alpha = c(0, 10^(-6:0)), beta = 10^(-7:0)),
              "20x20" = list(alpha = c(0, 10^seq(-6, 0, length.out = 19)),
                             beta = 10^seq(-7, 0, length.out = 20)))
refit_sample <- 4  # grid points refitted in full; the rest is extrapolated

data(yeast)
sets <- list(yeast = yeast, yahoo_arts = load_yahoo("arts"))

# The decompositions of cv_mlls(), done by eigen() on the same matrices.
decompositions <- function(x, foldid) {
  dual <- ncol(x) > nrow(x)
  center_gram <- function(K) {
    m <- colMeans(K)
    K - outer(m, m, "+") + mean(m)
  }
  elapsed({
    if (dual) K <- as.matrix(tcrossprod(x))
    for (k in c(seq_len(max(foldid)), 0)) {
      tr <- foldid != k
      if (dual) {
        eigen(center_gram(K[tr, tr]), symmetric = TRUE)
      } else {
        xt <- x[tr, , drop = FALSE]
        eigen(crossprod(xt) - tcrossprod(colSums(xt)) / nrow(xt), symmetric = TRUE)
      }
    }
  })
}

test_measures <- function(cv, d) {
  pred <- predict(cv, d$x[!d$train, ], type = "class")
  unlist(ml_metrics(d$y[!d$train, ], pred = pred, measures = c("macro_f1", "micro_f1")))
}

rows <- list()
for (name in names(sets)) {
  d <- sets[[name]]
  x <- d$x[d$train, ]
  y <- d$y[d$train, ]
  set.seed(1)
  foldid <- ml_folds(y, nfolds)
  t_dec <- decompositions(x, foldid)
  cat(sprintf("\n%s: %d training x %d features (%s), %d labels; test %d; 6 decompositions %.2f s\n",
              name, nrow(x), ncol(x), class(x)[1], ncol(y), sum(!d$train), t_dec))
  for (g in names(grids)) {
    a <- grids[[g]]$alpha
    b <- grids[[g]]$beta
    for (thr in c("oof", "train")) {
      t_cv <- elapsed(cv <- cv_mlls(x, y, alpha = a, beta = b, foldid = foldid, thresholds = thr,
                                    progress = FALSE))
      t_refit <- NA
      if (thr == "oof") {  # refitting mlls() at a sample of grid points, on every fold
        set.seed(2)
        pts <- sample(nrow(cv$grid), refit_sample)
        t_pts <- elapsed(for (i in pts) for (k in c(seq_len(nfolds), 0))
          mlls(x[foldid != k, ], y[foldid != k, ], alpha = cv$grid$alpha[i],
               beta = cv$grid$beta[i]))
        t_refit <- t_pts * nrow(cv$grid) / refit_sample
      }
      rows[[length(rows) + 1]] <- data.frame(
        data = name, grid = g, thresholds = thr, cv_s = round(t_cv, 2),
        decomp_s = round(t_dec, 2), cv_over_decomp = round(t_cv / t_dec, 2),
        refit_all_s = round(t_refit, 1), refit_over_cv = round(t_refit / t_cv, 1),
        alpha = signif(cv$alpha_best, 3), beta = signif(cv$beta_best, 3),
        cv_macro_f1 = round(cv$cvm[cv$best], 4), t(round(test_measures(cv, d), 4)))
      print(rows[[length(rows)]], row.names = FALSE)
    }
  }
}
cat("\nsummary (refit_all_s is extrapolated from", refit_sample, "grid points x 6 fits)\n")
print(do.call(rbind, rows), row.names = FALSE)
