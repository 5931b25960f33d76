# cv_lewl(warm_start = TRUE) against the default (cold starts of the missing
# entries) on the same folds (issue 23): CPU, the fold fits' iterations, the
# chosen point, the cross-validated measure and the largest change of an
# out-of-fold score per grid point.
#   LEWL_CVW_LIB=<build> LEWL_CVW_SET=emotions LEWL_CVW_N=300 Rscript bench/lewl_cv_warm.R
# Data: the first LEWL_CVW_N rows of a Mulan set, 30% of the label entries
# hidden (mask_labels(seed = 1)); 3 folds (set.seed(3)); lambda 10^(-1:1),
# beta LEWL_CVW_BETA (default "1,10": beta = 0, no graph, often does not
# converge in 500 iterations from either start), k the default.
lib <- Sys.getenv("LEWL_CVW_LIB", "")
if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
suppressPackageStartupMessages(library(mlss))
set_name <- Sys.getenv("LEWL_CVW_SET", "emotions")
n <- as.integer(Sys.getenv("LEWL_CVW_N", "300"))
beta <- as.numeric(strsplit(Sys.getenv("LEWL_CVW_BETA", "1,10"), ",")[[1]])
root <- Sys.getenv("MLSS_SHARED", file.path("..", "shared"))
dir <- file.path(root, "data", "mulan", set_name)
d <- read_mulan(file.path(dir, paste0(set_name, ".arff")), file.path(dir, paste0(set_name, ".xml")))
x <- d$x[seq_len(min(n, nrow(d$x))), ]
truth <- d$y[seq_len(nrow(x)), ]
truth <- truth[, colSums(truth) > 0]
y <- mlss:::mask_labels(truth, 0.3, by = "entry", seed = 1)$y
cat(set_name, nrow(x), "rows; beta", beta, "; load", readLines("/proc/loadavg"), "\n")
set.seed(3)
foldid <- sample(rep(1:3, length.out = nrow(x)))
its <- new.env()
run <- function(warm) {
  its$n <- 0
  suppressMessages(trace(mlss:::lewl_solve, exit = quote(its$n <- its$n + returnValue()$iterations),
                         print = FALSE, where = asNamespace("mlss")))
  on.exit(suppressMessages(untrace(mlss:::lewl_solve, where = asNamespace("mlss"))))
  tt <- system.time(cv <- suppressWarnings(cv_lewl(x, y, beta = beta, foldid = foldid,
                                                   keep = TRUE, progress = FALSE,
                                                   warm_start = warm)))
  list(cv = cv, cpu = tt[["user.self"]] + tt[["sys.self"]], iterations = its$n)
}
a <- run(FALSE)
b <- run(TRUE)
pt <- function(cv) paste(names(cv$grid)[1:3], unlist(cv$grid[cv$best, 1:3]), sep = "=", collapse = " ")
cat("CPU s: cold", a$cpu, "warm", b$cpu, "; iterations of all fits (refit included): cold",
    a$iterations, "warm", b$iterations, "\n")
cat("chosen: cold", pt(a$cv), "; warm", pt(b$cv), "\n")
cat("cvm cold:", format(round(as.vector(a$cv$cvm), 4)), "\n")
cat("cvm warm:", format(round(as.vector(b$cv$cvm), 4)), "\n")
cat("largest |cvm warm - cold|:", format(max(abs(a$cv$cvm - b$cv$cvm)), digits = 3),
    "; largest |oof score change| per grid point:",
    format(apply(abs(a$cv$oof - b$cv$oof), 3, max), digits = 2), "\n")
cat("load", readLines("/proc/loadavg"), "\n")
