# Benchmarks of mddm() and ssmddm(), run from the package directory (make bench).
#
# Part 1: time of mddm() (the efficient algorithm: primal when d <= n, the n x n
#   Gram matrix when d > n) against the direct generalised eigenproblem solved
#   with eigen() on the d x d matrices, at n = 1000 and d from 500 to 20000, in
#   one R process.  The direct path is measured up to d = MDDM_DIRECT_MAX
#   (default 3000) and extrapolated beyond, cubically, and labelled so.
# Part 2: macro F1 on the test parts of yeast and yahoo_arts of MLLS, MDDM +
#   ridge and SSMDDM, each with its parameters chosen by a simple holdout (2/3
#   fit, 1/3 validation) on the training part, then refitted on the whole
#   training part.  (The cross-validation machinery, cv_mlls, is being built on
#   another branch; this holdout stands in for it.)
#
# Environment: MDDM_BENCH_PARTS ("1,2" by default), MDDM_DIRECT_MAX.
library(mlss)
source(file.path("bench", "helpers", "read-yahoo.R"))

parts <- strsplit(Sys.getenv("MDDM_BENCH_PARTS", "1,2"), ",")[[1]]
direct_max <- as.numeric(Sys.getenv("MDDM_DIRECT_MAX", "3000"))
cat("mddm benchmark;", R.version.string, "; BLAS:", extSoftVersion()[["BLAS"]],
    "; cores:", parallel::detectCores(), "\n")

elapsed <- function(expr) system.time(expr, gcFirst = TRUE)[["elapsed"]]

# The direct reference in plain R: S1 = W0 L W0' by eigen(), W = W0 L^{-1/2},
# then eigen() of W'S2W; every matrix d x d.
direct_mddm <- function(x, y, mu, k) {
  xc <- scale(x, scale = FALSE)
  s1 <- mu * crossprod(xc) + (1 - mu) * diag(ncol(x))
  xty <- crossprod(xc, scale(y + 0, scale = FALSE))
  s2 <- tcrossprod(xty)
  e1 <- eigen(s1, symmetric = TRUE)
  w <- e1$vectors * rep(1 / sqrt(e1$values), each = ncol(x))
  e2 <- eigen(crossprod(w, s2 %*% w), symmetric = TRUE)
  w %*% e2$vectors[, seq_len(k)]
}

max_angle <- function(A, B) {
  qa <- qr.Q(qr(A))
  qb <- qr.Q(qr(B))
  asin(min(1, max(svd(qb - qa %*% crossprod(qa, qb))$d)))
}

if ("1" %in% parts) {
  cat("\n== Part 1: time of mddm() against the direct d x d eigenproblem ==\n")
  n <- 1000
  m <- 20
  k <- 10
  mu <- 0.5
  ds <- c(500, 1000, 2000, 3000, 5000, 10000, 20000)
  set.seed(1)
  X <- matrix(rnorm(n * max(ds)), n)
  Y <- (X[, 1:m] %*% matrix(rnorm(m * m), m) + matrix(rnorm(n * m, sd = 2), n)) > 1
  invisible(mddm(X[, 1:50], Y, k = 2))  # load Matrix and warm up before timing
  rows <- list()
  for (d in ds) {
    x <- X[, seq_len(d)]
    reps <- if (d <= 5000) 3 else 1
    t_fast <- Inf
    for (i in seq_len(reps)) t_fast <- min(t_fast, elapsed(fit <- mddm(x, Y, k = k, mu = mu)))
    t_direct <- NA
    angle <- NA
    if (d <= direct_max) {
      t_direct <- elapsed(P <- direct_mddm(x, Y, mu, k))
      angle <- max_angle(fit$P, P)
    }
    rows[[length(rows) + 1]] <- data.frame(d = d, path = fit$method, mddm_s = t_fast,
                                           direct_s = t_direct, angle = angle)
    cat(sprintf("d = %5d  mddm (%s) %7.2f s   direct %s   max principal angle %s\n",
                d, fit$method, t_fast,
                if (is.na(t_direct)) "not run" else sprintf("%7.2f s", t_direct),
                if (is.na(angle)) "-" else format(angle, digits = 2)))
    rm(x)
  }
  tab <- do.call(rbind, rows)
  measured <- tab[!is.na(tab$direct_s), ]
  d_ref <- max(measured$d)
  t_ref <- measured$direct_s[measured$d == d_ref]
  tab$direct_kind <- ifelse(is.na(tab$direct_s), "extrapolated (cubic)", "measured")
  tab$direct_s[is.na(tab$direct_s)] <- t_ref * (tab$d[is.na(tab$direct_s)] / d_ref)^3
  tab$ratio <- tab$direct_s / tab$mddm_s
  cat("\nTime in seconds (n = 1000, ", m, " labels, k = ", k, ", mu = ", mu,
      "); the direct times beyond d = ", d_ref, " are EXTRAPOLATED as t(",
      d_ref, ") * (d / ", d_ref, ")^3, not measured:\n", sep = "")
  print(data.frame(d = tab$d, mddm_path = tab$path, mddm_s = round(tab$mddm_s, 2),
                   direct_s = signif(tab$direct_s, 3), direct = tab$direct_kind,
                   ratio_direct_over_mddm = signif(tab$ratio, 3)), row.names = FALSE)
  big <- measured[measured$d >= 1000, ]
  if (nrow(big) >= 2)
    cat(sprintf("\ndirect path, measured growth exponent (log-log slope, d = %s): %.2f\n",
                paste(big$d, collapse = ", "), coef(lm(log(direct_s) ~ log(d), big))[2]))
  dual <- tab[tab$path == "dual", ]
  cat(sprintf("mddm dual path, growth exponent (log-log slope, d = %s): %.2f\n",
              paste(dual$d, collapse = ", "), coef(lm(log(mddm_s) ~ log(d), dual))[2]))
  cat(sprintf("mddm time ratio t(%d) / t(%d) = %.2f for a ratio of d of %.0f\n",
              max(dual$d), min(dual$d), dual$mddm_s[nrow(dual)] / dual$mddm_s[1],
              max(dual$d) / min(dual$d)))
  # the dual path costs O(n^3) (the n x n eigenproblem, fixed here) + O(n^2 d)
  lin <- lm(mddm_s ~ d, dual)
  cat(sprintf(paste0("mddm dual path, least-squares fit t = a + b d: a = %.2f s, ",
                     "b = %.3f ms per feature, R^2 = %.3f\n"),
              coef(lin)[1], 1000 * coef(lin)[2], summary(lin)$r.squared))
  rm(X)
}

# ---- Part 2 -----------------------------------------------------------------

macro_f1 <- function(pred, truth) {
  tp <- colSums(pred & truth)
  fp <- colSums(pred & !truth)
  fn <- colSums(!pred & truth)
  mean(ifelse(2 * tp + fp + fn == 0, 1, 2 * tp / (2 * tp + fp + fn)))
}

# Pick the grid row with the best validation macro F1 (2/3 fit, 1/3 validation
# of the training part), refit it on the whole training part, score the test part.
holdout <- function(name, fit_fun, grid, x, y, x_test, y_test, seed = 1) {
  set.seed(seed)
  val <- seq_len(nrow(x)) %in% sample(nrow(x), round(nrow(x) / 3))
  t0 <- proc.time()[["elapsed"]]
  f1 <- vapply(seq_len(nrow(grid)), function(i) tryCatch({
    fit <- suppressMessages(suppressWarnings(do.call(fit_fun, c(list(x[!val, ], y[!val, ]),
                                                           as.list(grid[i, , drop = FALSE])))))
    macro_f1(predict(fit, x[val, ], type = "class"), y[val, ])
  }, error = function(e) NA_real_), numeric(1))
  best <- grid[which.max(f1), , drop = FALSE]
  fit <- suppressMessages(suppressWarnings(do.call(fit_fun, c(list(x, y), as.list(best)))))
  test <- macro_f1(predict(fit, x_test, type = "class"), y_test)
  data.frame(method = name, chosen = paste(names(best), unlist(best), sep = "=", collapse = " "),
             grid = nrow(grid), val_macro_f1 = round(max(f1), 4), test_macro_f1 = round(test, 4),
             seconds = round(proc.time()[["elapsed"]] - t0, 1))
}

compare <- function(data) {
  x <- data$x[data$train, ]
  y <- data$y[data$train, ]
  x_test <- data$x[!data$train, ]
  y_test <- data$y[!data$train, ]
  m <- ncol(y)
  cat("\n", data$name, ": ", nrow(x), " training and ", nrow(x_test), " test instances, ",
      ncol(x), " features, ", m, " labels\n", sep = "")
  penalties <- expand.grid(alpha = c(0, 0.01, 0.1, 1), beta = c(1e-4, 1e-3, 1e-2, 1e-1, 1))
  res <- rbind(
    holdout("MLLS", mlls, penalties, x, y, x_test, y_test),
    holdout("MDDM + ridge", mddm,
            expand.grid(mu = c(0, 0.5, 1), k = c(0.9, m), lambda = c(1e-3, 1e-1)),
            x, y, x_test, y_test),
    holdout("SSMDDM", ssmddm,
            cbind(penalties[rep(seq_len(nrow(penalties)), 2), ],
                  k = rep(c(0.9, m), each = nrow(penalties))),
            x, y, x_test, y_test))
  print(res, row.names = FALSE)
}

if ("2" %in% parts) {
  cat("\n== Part 2: macro F1 on the test parts (parameters by holdout on the training part) ==\n")
  cat("Labels from per-label thresholds maximising the training F1 (all methods).\n")
  data(yeast)
  compare(yeast)
  shared <- file.path("..", "shared", "data", "yahoo")
  if (file.exists(file.path(shared, "yahoo_arts.arff"))) {
    compare(yahoo_data(file.path(shared, "yahoo_arts.arff"), file.path(shared, "yahoo_arts.xml")))
  } else {
    cat("\n../shared/data/yahoo not found: yahoo_arts skipped\n")
  }
}
