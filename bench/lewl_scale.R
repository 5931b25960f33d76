# How lewl() scales with n (issue 23), run from the package directory:
#   Rscript bench/lewl_scale.R                  # every size, each in a fresh Rscript
#   Rscript bench/lewl_scale.R one N ITERS APPROX   # one size in this process
#
# Data: rows of enron (1702 x 1001 sparse binary features, 53 labels); above
# 1702 rows, synthetic rows of the same shape: an enron row chosen at random,
# each of its words dropped with probability 0.1 and two random words added,
# its labels kept.  30% of the label entries hidden (mask_labels(), seed 1).
# Per size: lewl's preparation (kNN graph, kernel or its Nystrom factor), the
# first iteration, and the mean time per iteration over ITERS iterations
# (tol = 0, so that exactly ITERS run: with warm starts the later Z-steps
# are cheaper than the first), in elapsed and in CPU seconds (the machine is
# shared: CPU time is the steadier figure), and the peak memory of the process (VmHWM of
# /proc/self/status: R's heap, R_alloc scratch and BLAS alike) and gc()'s
# "max used" of R's heap.  The growth exponent is the slope of log(time per
# iteration) on log(n) between consecutive sizes.
# Environment: LEWL_SCALE_SIZES ("1000,2000,5000,10000,20000"),
#   LEWL_SCALE_ITERS ("5"), LEWL_SCALE_APPROX ("auto"), LEWL_SCALE_LIB (library
#   of the build to time; default the usual .libPaths()), LEWL_SCALE_DIAG
#   ("TRUE"; "FALSE": options(mlss.lewl_nystrom_diag = FALSE), the Nystrom
#   factor without its diagonal, whose Z-step takes the Gram route), LEWL_SCALE_K
#   ("half": ceiling(m / 2), the k of the earlier tables; "m": lewl()'s default).
args <- commandArgs(trailingOnly = TRUE)
lib <- Sys.getenv("LEWL_SCALE_LIB", "")
if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
suppressPackageStartupMessages({
  library(mlss, lib.loc = if (nzchar(lib)) lib)
  library(Matrix)
})
options(width = 150)

bench_data <- function(n) {
  root <- Sys.getenv("MLSS_SHARED", file.path("..", "shared"))
  dir <- file.path(root, "data", "mulan", "enron")
  d <- read_mulan(file.path(dir, "enron.arff"), file.path(dir, "enron.xml"))
  x <- d$x
  y <- d$y
  if (n <= nrow(x)) {
    x <- x[seq_len(n), , drop = FALSE]
    y <- y[seq_len(n), , drop = FALSE]
  } else {
    set.seed(23)
    src <- sample.int(nrow(x), n, replace = TRUE)
    xs <- methods::as(x[src, ], "TsparseMatrix")
    keep <- runif(length(xs@i)) > 0.1
    i <- c(xs@i[keep] + 1L, rep(seq_len(n), 2))
    j <- c(xs@j[keep] + 1L, sample.int(ncol(x), 2 * n, replace = TRUE))
    x <- Matrix::sparseMatrix(i = i, j = j, x = 1, dims = c(n, ncol(x)),
                              dimnames = list(NULL, colnames(x)))
    x@x[] <- 1  # a word added twice counts once
    y <- y[src, , drop = FALSE]
  }
  y <- y[, colSums(y) > 0, drop = FALSE]
  truth <- y
  y <- mlss:::mask_labels(y, 0.3, by = "entry", seed = 1)$y
  list(x = x, y = y, truth = truth)
}

# One cv_lewl() fold's training data on bench_data(2000) (its first `rows`
# rows, the labels with an observed positive) and its prepared kernel on the
# basis route, as cv_lewl()'s folds above 1200 rows (bench/lewl_cv_eigtol.R,
# bench/lewl_eigs_history.R).
bench_fold <- function(rows = 1600) {
  d <- bench_data(2000)
  x <- d$x[seq_len(rows), ]
  y <- d$y[seq_len(rows), ]
  y <- y[, colSums(y, na.rm = TRUE) > 0]
  list(x = x, y = y, prep = mlss:::lewl_prepare(x, knn = 10, eig_basis = TRUE))
}

peak_mb <- function() {
  s <- readLines("/proc/self/status")
  as.numeric(sub("[^0-9]*([0-9]+).*", "\\1", grep("^VmHWM", s, value = TRUE))) / 1024
}

one_size <- function(n, iters, approx) {
  d <- bench_data(n)
  k <- if (Sys.getenv("LEWL_SCALE_K", "half") == "m") ncol(d$y) else ceiling(ncol(d$y) / 2)
  options(mlss.lewl_nystrom_diag = as.logical(Sys.getenv("LEWL_SCALE_DIAG", "TRUE")))
  gc(reset = TRUE, verbose = FALSE)
  has_approx <- "approx" %in% names(formals(mlss:::lewl_prepare))
  cpu <- function(tt) tt[["user.self"]] + tt[["sys.self"]]
  t_prep <- system.time(
    prep <- if (has_approx) mlss:::lewl_prepare(d$x, 10, approx = approx)
            else mlss:::lewl_prepare(d$x, 10))
  solve <- function(it)
    suppressWarnings(mlss:::lewl_solve(d$y, prep, k, 1, 1, "exact", 0.5, 0, it))
  t1 <- system.time(solve(1L))
  tn <- if (iters > 1) system.time(fit <- solve(iters)) else t1
  route <- if (!is.null(prep$route)) prep$route else "exact (dense eigen)"
  data.frame(n = n, m = ncol(d$y), k = k, route = route,
             prepare_s = t_prep[["elapsed"]], prepare_cpu = cpu(t_prep),
             first_iter_s = t1[["elapsed"]], first_iter_cpu = cpu(t1), iters = iters,
             per_iter_s = tn[["elapsed"]] / iters, per_iter_cpu = cpu(tn) / iters,
             peak_rss_mb = round(peak_mb()), r_heap_max_mb = round(sum(gc()[, 6])),
             products = if (iters > 1) paste(fit$eig_products, collapse = " ") else NA)
}

if (sys.nframe() > 0L) {
  # source()d for its functions only
} else if (length(args) && args[1] == "one") {
  res <- one_size(as.integer(args[2]), as.integer(args[3]), args[4])
  write.csv(res, stdout(), row.names = FALSE)
} else {
  sizes <- as.integer(strsplit(Sys.getenv("LEWL_SCALE_SIZES", "1000,2000,5000,10000,20000"),
                               ",")[[1]])
  iters <- Sys.getenv("LEWL_SCALE_ITERS", "5")
  approx <- Sys.getenv("LEWL_SCALE_APPROX", "auto")
  cat("lewl scaling;", R.version.string, "; BLAS:", extSoftVersion()[["BLAS"]],
      "; load:", readLines("/proc/loadavg"), "\n")
  rows <- list()
  for (n in sizes) {
    out <- system2(file.path(R.home("bin"), "Rscript"),
                   c("bench/lewl_scale.R", "one", n, iters, approx), stdout = TRUE)
    r <- utils::read.csv(text = out[length(out) - 1:0])
    print(r, row.names = FALSE)
    rows[[length(rows) + 1]] <- r
  }
  tab <- do.call(rbind, rows)
  if (nrow(tab) > 1) {
    tab$exponent <- c(NA, diff(log(tab$per_iter_s)) / diff(log(tab$n)))
    tab$exponent_cpu <- c(NA, diff(log(tab$per_iter_cpu)) / diff(log(tab$n)))
    tab$exponent_mem <- c(NA, diff(log(tab$peak_rss_mb)) / diff(log(tab$n)))
  }
  cat("\nAll sizes:\n")
  print(tab, digits = 3, row.names = FALSE)
}
