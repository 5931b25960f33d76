# Cross-validation with many labels: the time of cv_mlls() against its
# inherent BLAS work (grid points x folds x one n_val x t x m product, timed
# in the same process), and its peak memory (gc()'s maximum of R's heap, and
# the process's maximum resident size VmHWM) against the training data and one
# n x m score matrix (heap_over).  On a synthetic case shaped like Mulan's
# delicious and on corel5k and cal500.  With another BLAS for one process:
#   R_LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu/openblas-pthread:/usr/lib/R/lib Rscript ...
# One case per process, so that VmHWM is its own:
#   R_LIBS=lib Rscript bench/many_labels.R                  (all cases)
#   R_LIBS=lib Rscript bench/many_labels.R synthetic 6000   (one, with n rows)
source(file.path("bench", "common.R"))
args <- commandArgs(TRUE)

# Elapsed and CPU seconds of expr (CPU: user + system of this process and its
# threads; on a loaded machine the CPU time is the steadier measure of work).
timed <- function(expr) {
  gc(FALSE)
  st <- system.time(expr)
  c(elapsed = st[["elapsed"]], cpu = st[["user.self"]] + st[["sys.self"]])
}

vm_hwm <- function() {  # the process's peak resident size, MB (Linux)
  s <- grep("^VmHWM", readLines("/proc/self/status"), value = TRUE)
  if (length(s)) as.numeric(gsub("[^0-9]", "", s)) / 1024 else NA
}

# Labels from a low-rank model of the features, each with a few positives,
# like delicious (16105 x 500, 983 labels, about 19 labels per row).
synthetic <- function(n, d = 500, m = 1000, seed = 1) {
  set.seed(seed)
  x <- matrix(rnorm(n * d), n) %*% diag(sqrt(seq(1, 0.05, length.out = d)))
  w <- matrix(rnorm(d * 20), d) %*% matrix(rnorm(20 * m), 20)
  z <- x %*% w / sqrt(d)
  y <- z > matrix(apply(z, 2, stats::quantile, 0.98), n, m, byrow = TRUE)
  colnames(y) <- sprintf("l%04d", seq_len(m))
  list(x = x, y = y, name = sprintf("synthetic %d x %d, %d labels", n, d, m))
}

mulan <- function(name, arff, xml) {
  d <- read_mulan(shared_data("mulan", name, arff), shared_data("mulan", name, xml))
  keep <- colSums(d$y) >= 5  # labels too rare for 3 stratified folds
  list(x = as.matrix(d$x), y = d$y[, keep], name = sprintf("%s (%d labels kept of %d)",
                                                          name, sum(keep), ncol(d$y)))
}

one_case <- function(d, grid = list(alpha = c(0, 1e-3, 1e-1, 10), beta = c(1e-3, 1e-2, 1e-1, 1)),
                     nfolds = 3) {
  set.seed(2)
  foldid <- ml_folds(d$y, nfolds)
  heap0 <- sum(gc(reset = TRUE)[, 2])  # in use before, MB (Ncells and Vcells)
  t_cv <- timed(cv <- cv_mlls(d$x, d$y, alpha = grid$alpha, beta = grid$beta,
                              foldid = foldid, progress = FALSE))
  heap <- sum(gc()[, 6]) - heap0  # the most used during cv_mlls(), above what was in use
  hwm <- vm_hwm()
  # The inherent product: a validation fold's rows in the rank-t basis times
  # the t x m coefficients, once per grid point and fold.
  n_va <- round(nrow(d$x) / nfolds)
  t <- min(ncol(d$x), nrow(d$x) - n_va - 1)
  Z <- matrix(rnorm(n_va * t), n_va)
  Tm <- matrix(rnorm(t * ncol(d$y)), t)
  t_prod <- timed(for (i in seq_len(nfolds)) Z %*% Tm) * length(grid$alpha) *
    length(grid$beta)
  data_mb <- (object.size(d$x) + object.size(d$y)) / 2^20
  scores_mb <- 8 * prod(dim(d$y)) / 2^20
  data.frame(case = d$name, blas = basename(extSoftVersion()[["BLAS"]]),
             grid = sprintf("%dx%d", length(grid$alpha), length(grid$beta)),
             cv_s = round(t_cv[["elapsed"]], 1), blas_s = round(t_prod[["elapsed"]], 1),
             ratio = round(t_cv[["elapsed"]] / t_prod[["elapsed"]], 2),
             cv_cpu = round(t_cv[["cpu"]], 1), blas_cpu = round(t_prod[["cpu"]], 1),
             cpu_ratio = round(t_cv[["cpu"]] / t_prod[["cpu"]], 2), heap_mb = round(heap),
             vmhwm_mb = round(hwm), data_mb = round(as.numeric(data_mb)),
             scores_mb = round(scores_mb),
             heap_over = round(heap / (as.numeric(data_mb) + scores_mb), 2),
             r = cv$r, threads = getOption("mlss.threads", 2L))
}

cases <- if (length(args)) args[1] else c("synthetic", "corel5k", "cal500")
for (case in cases) {
  d <- switch(case,
              synthetic = synthetic(if (length(args) > 1) as.integer(args[2]) else 6000),
              corel5k = mulan("corel5k", "Corel5k-sparse.arff", "Corel5k.xml"),
              cal500 = mulan("cal500", "cal500.arff", "cal500.xml"))
  if (length(cases) > 1) {  # each case in its own process, for VmHWM
    system2(file.path(R.home("bin"), "Rscript"), c("bench/many_labels.R", case))
    next
  }
  print(one_case(d), row.names = FALSE)
}
