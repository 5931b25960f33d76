# Warm against cold starts of the missing entries, grid point by grid point
# on one fold (issue 23): Rscript bench/lewl_warm_points.R SET N RATE
# (e.g. emotions 593 0.3; the library: .libPaths() or LEWL_WP_LIB).  The first
# N rows of a Mulan set, RATE of the label entries hidden (mask_labels(seed
# = 1)), 5 folds (set.seed(1)), folds 1 and 2; cv_lewl()'s default grid
# walked from the most regularised point (order(-beta, -lambda, k)); at
# each point a cold fit and a fit started from the previous point's warm
# fit (completed matrix and embedding): iterations, CPU s, final objective,
# the largest change of a validation score and of a recovered entry.
# (Run in session s34 with the fits of fold 1 only: the run was stopped at
# the 16th point, beta = 0 and lambda = 1, which took 500 iterations from
# either start.)
lib <- Sys.getenv("LEWL_WP_LIB", ""); if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
suppressPackageStartupMessages(library(mlss))
args <- commandArgs(TRUE)
set_name <- args[1]; n <- as.integer(args[2]); rate <- as.numeric(args[3])
dir <- file.path(file.path(Sys.getenv("MLSS_SHARED", file.path("..", "shared")), "data", "mulan"), set_name)
d <- read_mulan(file.path(dir, paste0(set_name, ".arff")), file.path(dir, paste0(set_name, ".xml")))
x <- d$x[seq_len(min(n, nrow(d$x))), ]; truth <- d$y[seq_len(nrow(x)), ]
truth <- truth[, colSums(truth) > 0]
y <- mlss:::mask_labels(truth, rate, by = "entry", seed = 1)$y
m <- ncol(y)
grid <- expand.grid(lambda = 10^(-1:1), beta = c(0, 1, 10), k = unique(as.integer(ceiling(m * c(0.5, 1)))))
ord <- order(-grid$beta, -grid$lambda, grid$k)
set.seed(1); foldid <- sample(rep(1:5, length.out = nrow(x)))
res <- list()
for (f in 1:2) {
  tr <- foldid != f
  xt <- x[tr, ]; yt <- y[tr, ]
  prep <- mlss:::lewl_prepare(xt, 10)
  Yw <- NULL; Zw <- NULL
  for (g in ord) {
    p <- grid[g, ]
    tc <- system.time(fc <- suppressWarnings(mlss:::lewl_fit_prepared(xt, yt, prep, p$k, p$lambda, p$beta, "ridge", 0.1, "global", "exact", 0.5, 1e-6, 500)))
    tw <- system.time(fw <- suppressWarnings(mlss:::lewl_fit_prepared(xt, yt, prep, p$k, p$lambda, p$beta, "ridge", 0.1, "global", "exact", 0.5, 1e-6, 500, Z0 = Zw, start = Yw)))
    sc <- predict(fc, x[!tr, ], type = "score"); sw <- predict(fw, x[!tr, ], type = "score")
    res[[length(res) + 1]] <- data.frame(fold = f, lambda = p$lambda, beta = p$beta, k = p$k,
      it_cold = fc$iterations, it_warm = fw$iterations, cpu_cold = sum(tc[c(1, 2)]), cpu_warm = sum(tw[c(1, 2)]),
      obj_cold = tail(fc$objective, 1), obj_warm = tail(fw$objective, 1),
      max_dscore = max(abs(sc - sw)), max_drec = max(abs(fc$recovered - fw$recovered)))
    print(res[[length(res)]], row.names = FALSE, digits = 10)
    Yw <- fw$completed; Zw <- fw$Z
  }
}
tab <- do.call(rbind, res)
saveRDS(tab, file.path(tempdir(), sprintf("warm_%s_%s.rds", set_name, rate)))
cat("total iterations cold", sum(tab$it_cold), "warm", sum(tab$it_warm), "; CPU cold", sum(tab$cpu_cold), "warm", sum(tab$cpu_warm), "\n")
