# Speed of mlcrf() and cv_mlcrf() (issue 25), run from the package root with
# the package installed: Rscript bench/mlcrf_speed.R.  Results in
# bench/mlcrf_speed.md (the "before" figures there were measured with the
# same calls at commit 8c0d0f7, before the working set of stage 1).
#
# Part 1: single fits on yeast's training part (1500 x 103, 14 labels) at
#   three points of the lambda_w path (fixed lambda_v), cold starts.
# Part 2: cv_mlcrf() with its defaults on yeast's training part (2 workers).
# Part 3: mlcrf() with its defaults on enron (53 labels) and cal500 (174).
# Environment: MLCRF_SPEED_PARTS ("1,2,3"), MLCRF_SPEED_WORKERS (2).
source(file.path("bench", "common.R"))
parts <- strsplit(Sys.getenv("MLCRF_SPEED_PARTS", "1,2,3"), ",")[[1]]
workers <- as.integer(Sys.getenv("MLCRF_SPEED_WORKERS", "2"))
cat("mlcrf speed;", R.version.string, "; BLAS:", extSoftVersion()[["BLAS"]],
    "; cores:", parallel::detectCores(), "; load:", readLines("/proc/loadavg"), "\n")
x <- yeast$x[yeast$train, ]
y <- yeast$y[yeast$train, ]

if ("1" %in% parts) {
  lv <- mlcrf(x, y, edges = "none")$lambda_v
  lmax <- mlss:::mlcrf_lambda_range(as.matrix(x), y, lv, 0.5)$lambda_max
  for (f in c(1, 0.4, 0.16)) {
    t <- system.time(fit <- mlcrf(x, y, lambda_v = lv, lambda_w = f * lmax, eta = 0.5))
    cat(sprintf("yeast fit at lambda_max * %.2f: %d edges, stage-1 iterations %d, %.1f s CPU, %.1f s elapsed\n",
                f, nrow(fit$edges), fit$convergence$stage1$iter, t[["user.self"]], t[["elapsed"]]))
  }
}

if ("2" %in% parts) {
  set.seed(1)
  t <- system.time(cv <- cv_mlcrf(x, y, parallel = workers, progress = FALSE))
  cat(sprintf("yeast cv_mlcrf() defaults, %d workers: %.1f s elapsed (%.1f s CPU in this process)\n",
              workers, t[["elapsed"]], t[["user.self"]]))
  print(cv)
}

if ("3" %in% parts) {
  for (name in c("enron", "cal500")) {
    d <- read_mulan(shared_data("mulan", name, paste0(name, ".arff")),
                    shared_data("mulan", name, paste0(name, ".xml")))
    t <- system.time(fit <- mlcrf(d$x, d$y))
    cat(sprintf("%s (%d x %d, %d labels): mlcrf() defaults %.1f s elapsed, %d edges\n",
                name, nrow(d$x), ncol(d$x), ncol(d$y), t[["elapsed"]], nrow(fit$edges)))
    t <- system.time(p <- predict(fit, d$x[1:100, ], type = "score"))
    cat(sprintf("  predict(type = \"score\") on 100 rows: %.1f s, inference %s\n", t[["elapsed"]],
                attr(p, "inference")$method))
  }
}
