# Benchmarks of mddm() and ssmddm(), run from the package directory (make bench).
#
# Part 1: time of mddm() (the efficient algorithm: primal when d <= n, the n x n
#   Gram matrix when d > n) against the direct generalised eigenproblem solved
#   with eigen() on the d x d matrices, at n = 1000 and d from 500 to 20000, in
#   one R process.  The direct path is measured up to d = MDDM_DIRECT_MAX
#   (default 3000) and extrapolated beyond, cubically, and labelled so.
# Part 2: macro F1 on the test parts of yeast and yahoo_arts of MLLS, MDDM +
#   ridge and SSMDDM, each with its parameters chosen by 5-fold cross-validation
#   on the training part (the same folds): cv_mlls() and cv_ssmddm() (one
#   decomposition per fold), and for MDDM + ridge refits over its small grid;
#   then refitted on the whole training part.  Thresholds from the training
#   scores for all three, so that the methods differ only in their subspace.
#
# Environment: MDDM_BENCH_PARTS ("1,2" by default), MDDM_DIRECT_MAX,
#   MDDM_BENCH_OUT (part 2's table, default bench/mddm_results.rds, read by
#   bench/papers_tables.R for vignettes/paper-mddm.Rmd).
source(file.path("bench", "common.R"))

parts <- strsplit(Sys.getenv("MDDM_BENCH_PARTS", "1,2"), ",")[[1]]
direct_max <- as.numeric(Sys.getenv("MDDM_DIRECT_MAX", "3000"))
cat("mddm benchmark;", R.version.string, "; BLAS:", extSoftVersion()[["BLAS"]],
    "; cores:", parallel::detectCores(), "\n")

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

test_f1 <- function(fit, x_test, y_test)
  ml_metrics(y_test, pred = predict(fit, x_test, type = "class"), measures = "macro_f1")$macro_f1

# MDDM + ridge has no one-decomposition cross-validation: refit on every fold.
cv_refit <- function(grid, x, y, foldid) {
  cvm <- vapply(seq_len(nrow(grid)), function(i) mean(vapply(seq_len(max(foldid)), function(f) {
    va <- foldid == f
    fit <- suppressWarnings(do.call(mddm, c(list(x[!va, ], y[!va, ]), as.list(grid[i, , drop = FALSE]))))
    test_f1(fit, x[va, ], y[va, ])
  }, 0)), 0)
  list(best = grid[which.max(cvm), , drop = FALSE], cvm = max(cvm))
}

compare <- function(data) {
  x <- data$x[data$train, ]
  y <- data$y[data$train, ]
  x_test <- data$x[!data$train, ]
  y_test <- data$y[!data$train, ]
  m <- ncol(y)
  cat("\n", data$name, ": ", nrow(x), " training and ", nrow(x_test), " test instances, ",
      ncol(x), " features, ", m, " labels\n", sep = "")
  set.seed(1)
  foldid <- ml_folds(y, 5)
  alpha <- c(0, 10^(-6:0))
  beta <- 10^(-6:0)
  row <- function(method, chosen, cvm, test, seconds)
    data.frame(method = method, chosen = chosen, cv_macro_f1 = round(cvm, 4),
               test_macro_f1 = round(test, 4), seconds = round(seconds, 1))
  t <- elapsed(cv <- cv_mlls(x, y, alpha, beta, foldid = foldid, thresholds = "train",
                             progress = FALSE))
  res <- row("MLLS", sprintf("alpha=%g beta=%g", cv$alpha_best, cv$beta_best),
             cv$cvm[cv$best], test_f1(cv, x_test, y_test), t)
  grid <- expand.grid(mu = c(0, 0.5, 1), k = m, lambda = c(1e-3, 1e-2, 1e-1))
  t <- elapsed(mb <- cv_refit(grid, x, y, foldid))
  fit <- do.call(mddm, c(list(x, y), as.list(mb$best)))
  res <- rbind(res, row("MDDM + ridge", paste(names(mb$best), unlist(mb$best), sep = "=", collapse = " "),
                        mb$cvm, test_f1(fit, x_test, y_test), t))
  for (k in c(ceiling(m / 2), m)) {
    t <- elapsed(cs <- cv_ssmddm(x, y, k = k, alpha = alpha, beta = beta, foldid = foldid,
                                 thresholds = "train", progress = FALSE))
    res <- rbind(res, row("SSMDDM", sprintf("k=%d alpha=%g beta=%g", k, cs$alpha_best, cs$beta_best),
                          cs$cvm[cs$best], test_f1(cs, x_test, y_test), t))
  }
  print(res, row.names = FALSE)
  cbind(data = data$name, res)
}

if ("2" %in% parts) {
  cat("\n== Part 2: macro F1 on the test parts (parameters by 5-fold CV on the training part) ==\n")
  data(yeast)
  part2 <- list(compare(yeast))
  save_part2 <- function(tab)
    saveRDS(list(rows = tab, date = format(Sys.time(), tz = "UTC", usetz = TRUE),
                 machine = Sys.info()[["nodename"]], seed = "ml_folds() after set.seed(1)"),
            Sys.getenv("MDDM_BENCH_OUT", file.path("bench", "mddm_results.rds")))
  save_part2(part2[[1]])
  part2[[2]] <- compare(load_yahoo("arts"))
  save_part2(do.call(rbind, part2))
}
