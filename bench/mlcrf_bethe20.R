# How good the cheap scorers are where exact inference is still possible: the
# generator of bench/mlcrf_cv30.R with 20 labels (a complete learned graph,
# strong positive couplings), approximate inference forced, against
# enumeration.  Run from the package root: Rscript bench/mlcrf_bethe20.R;
# results in bench/mlcrf_speed.md.
lib <- Sys.getenv("MLCRF_CV30_LIB", "")
if (nzchar(lib)) library(mlss, lib.loc = lib) else library(mlss)
cat("mlcrf bethe20; load:", readLines("/proc/loadavg"), "; date:",
    format(Sys.time(), tz = "UTC"), "UTC\n")
for (m in c(12, 20)) {
  set.seed(30)
  n <- 300; d <- 5
  x <- matrix(runif(n * d, -1, 1), n, d, dimnames = list(NULL, paste0("f", 1:d)))
  z <- rnorm(n); B <- matrix(rnorm(d * m), d, m)
  y <- (x %*% B + 1.5 * outer(z, rnorm(m, 1, 0.3)) + matrix(rnorm(n * m), n) > 0)
  colnames(y) <- paste0("L", 1:m)
  fit <- mlcrf(x[1:150, ], y[1:150, ], lambda_v = 0.01, lambda_w = 0.02, eta = 0.5)
  va <- 151:180
  ex <- predict(fit, x[va, ], type = "score", inference = "exact")
  exp_ <- predict(fit, x[va, ], type = "prob", y = y[va, ], inference = "exact")
  set.seed(1)
  tg <- system.time(g <- suppressWarnings(predict(fit, x[va, ], type = "score",
                                                   inference = "approximate")))
  tb <- system.time(b <- suppressWarnings(predict(fit, x[va, ], type = "score",
                                                   inference = "approximate", loopy = "bp")))
  bp <- suppressWarnings(predict(fit, x[va, ], type = "prob", y = y[va, ],
                                 inference = "approximate"))
  pl <- mlss:::mlcrf_potentials(fit, x[va, ])
  cat(sprintf(paste0("m = %d, %d edges, pair potentials sd %.2f; 30 rows: |Gibbs - exact| max %.3f mean %.4f (%.1f s CPU); ",
                     "|BP - exact| max %.3f mean %.4f (%.2f s CPU, BP settled on %d/30); ",
                     "log-likelihood loss exact %.3f, Bethe %.3f (per row |diff| max %.3f)\n"),
              m, nrow(fit$edges), sd(pl$pair), max(abs(g - ex)), mean(abs(g - ex)), tg[[1]],
              max(abs(b - ex)), mean(abs(b - ex)), tb[[1]],
              sum(attr(b, "inference")$bp_converged), -mean(log(exp_)), -mean(log(bp)),
              max(abs(log(exp_) - log(bp)))))
}
