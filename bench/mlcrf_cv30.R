# The cost of fold scoring with more than 20 labels in one connected
# component (issue 25, regression of the per-component inference): a
# synthetic 30-label problem (300 rows, 5 features, labels sharing a latent
# factor, so that the learned graph is almost complete).  Run from the package
# root with the package installed: Rscript bench/mlcrf_cv30.R; results in
# bench/mlcrf_speed.md.  Environment: MLCRF_CV30_CV (1: also the whole
# cv_mlcrf(nlambda = 5, nfolds = 2)), MLCRF_CV30_PREDICT (0: skip the timings
# of single predict() calls), MLCRF_CV30_LIB (library to load mlss from),
# MLCRF_CV30_ROWS (validation rows predicted, default 150).
lib <- Sys.getenv("MLCRF_CV30_LIB", "")
if (nzchar(lib)) library(mlss, lib.loc = lib) else library(mlss)
cat("mlcrf cv30;", R.version.string, "; mlss from", find.package("mlss"), "; load:",
    readLines("/proc/loadavg"), "; date:", format(Sys.time(), tz = "UTC"), "UTC\n")
set.seed(30)
n <- 300; d <- 5; m <- 30
x <- matrix(runif(n * d, -1, 1), n, d, dimnames = list(NULL, paste0("f", 1:d)))
z <- rnorm(n)
B <- matrix(rnorm(d * m), d, m)
y <- (x %*% B + 1.5 * outer(z, rnorm(m, 1, 0.3)) + matrix(rnorm(n * m), n) > 0)
colnames(y) <- paste0("L", 1:m)
cpu <- function(t) sprintf("%.1f s elapsed, %.1f s CPU", t[["elapsed"]],
                           t[["user.self"]] + t[["sys.self"]])
tr <- 1:150
t <- system.time(fit <- mlcrf(x[tr, ], y[tr, ], lambda_v = 0.01, lambda_w = 0.02, eta = 0.5))
cat(sprintf("fit on 150 rows: %d edges, %s\n", nrow(fit$edges), cpu(t)))
va <- 150 + seq_len(as.integer(Sys.getenv("MLCRF_CV30_ROWS", "150")))
has_loopy <- "loopy" %in% names(formals(mlss:::predict.mlcrf))
if (Sys.getenv("MLCRF_CV30_PREDICT", "1") == "1")
for (loopy in if (has_loopy) c("gibbs", "bp") else "gibbs")
  for (type in c("score", "prob", "class")) {
    if (type == "prob" && loopy == "bp") next
    set.seed(1)
    args <- list(fit, x[va, ], type = type)
    if (type == "prob") args$y <- y[va, ]
    if (has_loopy) args$loopy <- loopy
    t <- system.time(p <- suppressWarnings(do.call(predict, args)))
    cat(sprintf("predict(type = \"%s\"%s) on %d rows: %s\n", type,
                if (has_loopy) paste0(", loopy = \"", loopy, "\"") else "", length(va), cpu(t)))
    if (type == "score") {
      inf <- attr(p, "inference")
      cat(sprintf("  BP converged on %d of %d rows; Gibbs ran on %s rows\n",
                  sum(inf$bp_converged), length(va), if (loopy == "bp") sum(inf$gibbs_se > 0) else "all"))
      if (loopy == "gibbs") ref <- p
      else cat(sprintf("  max |BP - Gibbs marginal| %.4f, mean %.4f\n", max(abs(p - ref)),
                       mean(abs(p - ref))))
    }
  }
if (Sys.getenv("MLCRF_CV30_CV", "1") == "1") {
  set.seed(2)
  t <- system.time(cv <- suppressWarnings(cv_mlcrf(x, y, lambda_v = 0.01, nlambda = 5,
                                                   nfolds = 2, progress = FALSE)))
  cat(sprintf("cv_mlcrf(nlambda = 5, nfolds = 2): %s; chosen lambda_w %.4g, eta %g, %d edges\n",
              cpu(t), cv$lambda_w_best, cv$eta_best, nrow(cv$fit$edges)))
}
