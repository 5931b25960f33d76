# What the stopping rule of lewl() buys (issue 23): the alternating
# iterations of one fit run one at a time (lewl_solve() with max_iter = 1,
# started from the previous iteration's completed matrix and embedding: the
# same sequence as one run), recording per iteration the objective's
# relative change, the largest change of a missing entry and the hidden
# entries' micro AUC and average precision against the true labels.
#   LEWL_STOP_LIB=<build> LEWL_STOP_ITERS=150 Rscript bench/lewl_stopping.R
# Data: the training part of bench/lewl_cv.R's first fold (1600 of
# bench/lewl_scale.R's 2000 enron-shaped rows, 30% hidden); lambda 0.1,
# beta 1, k = ceiling(m / 2) (LEWL_STOP_LAMBDA, LEWL_STOP_BETA; LEWL_STOP_K
# "m" for k = m).
lib <- Sys.getenv("LEWL_STOP_LIB", "")
if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
source(file.path("bench", "lewl_scale.R"))
iters <- as.integer(Sys.getenv("LEWL_STOP_ITERS", "150"))
lambda <- as.numeric(Sys.getenv("LEWL_STOP_LAMBDA", "0.1"))
beta <- as.numeric(Sys.getenv("LEWL_STOP_BETA", "1"))
cat("lewl stopping bench; load", readLines("/proc/loadavg"), "\n")
d <- bench_data(2000)
set.seed(1)
foldid <- sample(rep(1:5, length.out = 2000))
train <- foldid != 1
x <- d$x[train, ]
y <- d$y[train, ]
truth <- d$truth[train, ]
k <- if (Sys.getenv("LEWL_STOP_K", "half") == "m") ncol(y) else ceiling(ncol(y) / 2)
prep <- mlss:::lewl_prepare(x, 10)
miss <- is.na(y)
auc <- function(s, t) {
  r <- rank(s)
  np <- sum(t)
  (sum(r[t == 1]) - np * (np + 1) / 2) / (np * (length(t) - np))
}
ap <- function(s, t) {
  o <- order(-s)
  t <- t[o]
  mean((cumsum(t) / seq_along(t))[t == 1])
}
Yt <- NULL
Z <- NULL
obj_prev <- NA
rows <- list()
cpu0 <- proc.time()
for (it in seq_len(iters)) {
  f <- suppressWarnings(mlss:::lewl_solve(y, prep, k, lambda, beta, "exact", 0.5, 0, 1L,
                                          Z0 = Z, start = Yt))
  dy <- if (is.null(Yt)) NA else max(abs(f$completed[miss] - Yt[miss]))
  obj <- f$objective[1]
  s <- f$completed[miss]
  tt <- truth[miss]
  rows[[it]] <- data.frame(iter = it, objective = obj,
                           rel_change = abs(obj_prev - obj) / abs(obj),
                           max_dy = dy, auc = auc(s, tt), ap = ap(s, tt))
  Yt <- f$completed
  Z <- f$Z
  obj_prev <- obj
}
tm <- proc.time() - cpu0
tab <- do.call(rbind, rows)
print(tab[c(1:10, seq(20, iters, by = 10)), ], digits = 8, row.names = FALSE)
cat("CPU s:", tm[["user.self"]] + tm[["sys.self"]], "\n")
saveRDS(tab, file.path(tempdir(), "lewl_stopping.rds"))
write.csv(tab, Sys.getenv("LEWL_STOP_OUT", "/dev/null"), row.names = FALSE)
