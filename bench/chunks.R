# MLLS from data in chunks (issue 24): synthetic dense data written as chunk
# files, fitted by mlls() and cv_mlls() from the chunks with 1 and 2 workers.
# Reported, in one process: the time of each against reading the chunks alone
# and against one crossprod() of one chunk scaled to the whole; the speed-up
# from 1 to 2 workers; the peak memory (VmHWM) of every process; and the
# in-memory against the chunked fit on the same rows (time, same answer).
#
# The issue asks for 10^7 rows x 200 features x 50 labels in 100 files (16 GB
# on disk).  Scale with MLSS_BENCH_ROWS (default 10^6: 1.6 GB in 100 files of
# 10^4 rows), MLSS_BENCH_CHUNKS, MLSS_BENCH_D, MLSS_BENCH_M.  The files are
# written under tempdir() (or MLSS_BENCH_DIR) and deleted at the end.
#
# MLSS_BENCH_REUSE=1 keeps chunk files already in MLSS_BENCH_DIR (same n, k, d,
# m; written by an earlier run) instead of writing them again; MLSS_BENCH_TASKS
# (default "fit1,fit1_thr,cv1,fit2,cv2") runs a subset, in the order given; each
# time is printed as soon as it is measured.
#
# Run: R_LIBS=lib Rscript bench/chunks.R   (needs future, future.apply,
# parallelly; Linux for the peak memory from /proc)
source(file.path("bench", "common.R"))
stopifnot(requireNamespace("future", quietly = TRUE),
          requireNamespace("future.apply", quietly = TRUE))

n <- as.numeric(Sys.getenv("MLSS_BENCH_ROWS", "1e6"))
k <- as.integer(Sys.getenv("MLSS_BENCH_CHUNKS", "100"))
d <- as.integer(Sys.getenv("MLSS_BENCH_D", "200"))
m <- as.integer(Sys.getenv("MLSS_BENCH_M", "50"))
dir <- Sys.getenv("MLSS_BENCH_DIR", file.path(tempdir(), "mlss-bench-chunks"))
dir.create(dir, showWarnings = FALSE, recursive = TRUE)
rows <- diff(round(seq(0, n, length.out = k + 1)))

peak_mb <- function() {  # the resident peak of this process, MB
  s <- grep("^VmHWM", readLines("/proc/self/status"), value = TRUE)
  as.numeric(gsub("[^0-9]", "", s)) / 1024
}

main <- function() {
# ---- the data: y from a low-rank linear model plus noise; offset columns ----
set.seed(24)
B <- matrix(rnorm(d * 5), d, 5) %*% matrix(rnorm(5 * m), 5, m) / sqrt(d)
shift <- rep(c(0, 1e3), length.out = d)
files <- file.path(dir, sprintf("chunk-%04d.rds", seq_len(k)))
reuse <- Sys.getenv("MLSS_BENCH_REUSE") == "1" && all(file.exists(files))
t_write <- if (reuse) NA else system.time(for (i in seq_len(k)) {
  x <- matrix(rnorm(rows[i] * d), rows[i], d, dimnames = list(NULL, paste0("f", seq_len(d))))
  s <- x %*% B
  y <- s + matrix(rnorm(length(s)), nrow(s)) > 0.5
  colnames(y) <- paste0("L", seq_len(m))
  x <- x + rep(shift, each = rows[i])
  saveRDS(list(x = x, y = y), files[i], compress = FALSE)
})[["elapsed"]]
size_gb <- sum(file.size(files)) / 2^30
cat(sprintf("data: %g rows x %d features x %d labels in %d files, %.2f GB on disk (%s)\n",
            n, d, m, k, size_gb,
            if (reuse) "reused from an earlier run" else sprintf("written in %.1f s", t_write)))
tasks <- strsplit(Sys.getenv("MLSS_BENCH_TASKS", "fit1,fit1_thr,cv1,fit2,cv2"), ",")[[1]]
times <- setNames(rep(NA_real_, 5), c("fit1", "fit1_thr", "cv1", "fit2", "cv2"))
res <- list()
usage <- list()
# the resident peak and the CPU seconds of this session and of each worker,
# per task: each process's peak is reset (5 > /proc/self/clear_refs, after a
# gc) before the task and read after it; CPU is user + system of proc.time()
probe <- quote({
  invisible(gc(FALSE))
  s <- grep("^VmHWM", readLines("/proc/self/status"), value = TRUE)
  pt <- proc.time()
  c(peak = as.numeric(gsub("[^0-9]", "", s)) / 1024, cpu = pt[[1]] + pt[[2]])
})
reset <- quote(try(writeLines("5", "/proc/self/clear_refs"), silent = TRUE))
run_task <- function(task) {
  workers <- exists("cl") && task %in% c("fit2", "cv2")
  if (workers) {
    w0 <- parallel::clusterCall(cl, eval, probe)
    parallel::clusterCall(cl, eval, reset)
  }
  s0 <- eval(probe)
  eval(reset)
  t <- elapsed(res[[task]] <<- switch(task,
    fit1 = , fit2 = mlls(src, alpha = 0.1, beta = 0.01, thresholds = "none", progress = FALSE),
    fit1_thr = mlls(src, alpha = 0.1, beta = 0.01, progress = FALSE),
    cv1 = , cv2 = cv_mlls(src, nfolds = 5, seed = 1, progress = FALSE)))
  s1 <- eval(probe)
  u <- data.frame(task = task, elapsed = t, process = "session", peak_mb = s1[["peak"]],
                  cpu_s = s1[["cpu"]] - s0[["cpu"]])
  if (workers) {
    w1 <- parallel::clusterCall(cl, eval, probe)
    u <- rbind(u, data.frame(task = task, elapsed = t,
                             process = paste0("worker", seq_along(w1)),
                             peak_mb = vapply(w1, `[[`, 0, "peak"),
                             cpu_s = vapply(w1, `[[`, 0, "cpu") - vapply(w0, `[[`, 0, "cpu")))
  }
  usage[[task]] <<- u
  times[[task]] <<- t
  cat(sprintf("%s: %.1f s elapsed (%s); %s\n", task, t, format(Sys.time(), "%H:%M:%S"),
              paste(sprintf("%s peak %.0f MB, CPU %.1f s", u$process, u$peak_mb, u$cpu_s),
                    collapse = "; ")))
}
src <- ml_chunks(files)

# ---- references in this process ---------------------------------------------
t_read <- elapsed(for (f in files) readRDS(f))
one <- readRDS(files[1])
t_cp1 <- elapsed({
  xc <- scale(one$x, scale = FALSE)
  crossprod(xc)
  crossprod(xc, 2 * one$y - 1)
}, reps = 3)
t_cp <- t_cp1 * n / rows[1]
rm(one, xc)
cat(sprintf("reading the chunks alone: %.1f s; one chunk's centred crossprod() (X'X and X'Y) scaled to all rows: %.1f s\n",
            t_read, t_cp))
# the references above held a whole chunk and its copies in this session:
# reset the resident peak (Linux: 5 > clear_refs) so that the peak reported
# below is that of the fits
invisible(gc(FALSE))
try(writeLines("5", "/proc/self/clear_refs"), silent = TRUE)

# ---- 1 worker (this session), then 2 (two local PSOCK processes) ------------
peak_workers <- NA
for (task in tasks) {
  if (task %in% c("fit2", "cv2")) {
    if (!exists("cl")) {
      cl <- parallelly::makeClusterPSOCK(2)
      invisible(parallel::clusterEvalQ(cl, library(mlss)))
    }
    # set for every such task: a sequential task in between resets the plan
    future::plan("cluster", workers = cl)
  }
  if (task %in% c("fit1", "fit1_thr", "cv1")) future::plan("sequential")
  run_task(task)
}
peak_main <- peak_mb()
usage <- do.call(rbind, usage)
print(usage, digits = 4, row.names = FALSE)
if (exists("cl")) {
  peak_workers <- unlist(parallel::clusterEvalQ(cl, {
    s <- grep("^VmHWM", readLines("/proc/self/status"), value = TRUE)
    as.numeric(gsub("[^0-9]", "", s)) / 1024
  }))
  future::plan("sequential")
  parallel::stopCluster(cl)
}
if (all(c("cv1", "cv2") %in% tasks)) stopifnot(identical(res$cv1$cvfold, res$cv2$cvfold))
if (all(c("fit1", "fit2") %in% tasks)) stopifnot(max(abs(res$fit1$U - res$fit2$U)) == 0)
fit1 <- res$fit1; fit1t <- res$fit1_thr; cv1 <- if (is.null(res$cv1)) res$cv2 else res$cv1
t_fit1 <- times[["fit1"]]; t_fit1_thr <- times[["fit1_thr"]]; t_cv1 <- times[["cv1"]]
t_fit2 <- times[["fit2"]]; t_cv2 <- times[["cv2"]]

tab <- data.frame(
  task = c("mlls() from chunks, thresholds = \"none\"", "mlls() with the threshold pass",
           "cv_mlls(), 5 folds, 8 x 7 grid, OOF threshold pass"),
  one_worker_s = c(t_fit1, t_fit1_thr, t_cv1),
  two_workers_s = c(t_fit2, NA, t_cv2))
tab$speedup <- tab$one_worker_s / tab$two_workers_s
tab$vs_read <- pmin(tab$one_worker_s, tab$two_workers_s, na.rm = TRUE) / t_read
tab$vs_crossprod <- pmin(tab$one_worker_s, tab$two_workers_s, na.rm = TRUE) / t_cp
print(tab, digits = 3, row.names = FALSE)
cat(sprintf("peak memory (VmHWM) over all tasks: this session %.0f MB and workers %s MB (each reset before each task: the last task's peaks)\n",
            peak_main, paste(sprintf("%.0f", peak_workers), collapse = ", ")))
if (!is.null(cv1)) cat(sprintf("cv_mlls chose alpha = %g, beta = %g; held-out mse %.4f\n",
                              cv1$fit$alpha, cv1$fit$beta, min(cv1$cvm)))

# ---- in memory against chunks, on the same rows -----------------------------
if (n <= 1e6 && !is.null(fit1) && !is.null(fit1t)) {
  parts <- lapply(files, readRDS)
  X <- do.call(rbind, lapply(parts, `[[`, "x"))
  Y <- do.call(rbind, lapply(parts, `[[`, "y"))
  rm(parts)
  gc(FALSE)
  t_mem <- elapsed(fit_mem <- mlls(X, Y, alpha = 0.1, beta = 0.01))
  t_mem_nothr <- elapsed(fit_mem0 <- mlss:::mlls_solve(X, Y, 0.1, 0.01, fit1$r, fitted = FALSE))
  rel <- max(abs(fit1$U - fit_mem$U)) / max(abs(fit_mem$U))
  relb <- max(abs(fit1$intercept - fit_mem$intercept)) / max(abs(fit_mem$intercept))
  cat(sprintf(paste0("in memory (%g rows, data already read): mlls() %.1f s (the solve alone, ",
                     "without training scores and thresholds, %.1f s); from chunks (reading ",
                     "included): %.1f s without the threshold pass, %.1f s with it; ",
                     "max relative difference of U %.1e, of the intercept %.1e\n"),
              n, t_mem, t_mem_nothr, t_fit1, t_fit1_thr, rel, relb))
  thr_same <- mean(abs(fit1t$thresholds - fit_mem$thresholds) < 0.05)
  cat(sprintf("thresholds within 0.05 of the in-memory ones: %.0f%% of labels\n", 100 * thr_same))
}
}

keep <- Sys.getenv("MLSS_BENCH_KEEP") == "1"  # keep the files for a later run
tryCatch(main(), finally = if (!keep) unlink(dir, recursive = TRUE))
