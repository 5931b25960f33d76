# The CPU time of cv_eps() on yeast's Mulan training part (1500 rows, 14
# labels, about 100 label sets per pruned-sets model), and where it goes
# (Rprof of one eps() fit).  CPU seconds of this process (user + system),
# which the load of a shared machine changes less than the elapsed time.
# Run from the package root: Rscript bench/cv_eps_time.R; EPS_TIME_LIB
# points at a library to time another build (before/after).
lib <- Sys.getenv("EPS_TIME_LIB")
if (nzchar(lib)) library(mlss, lib.loc = lib) else library(mlss)
d <- mlss::yeast
tr <- d$train
x <- scale(d$x[tr, ])
y <- d$y[tr, ]
cpu <- function() sum(proc.time()[c("user.self", "sys.self")])
cost <- c(0.1, 1, 10)
set.seed(1)
t0 <- cpu()
cv <- suppressMessages(cv_eps(x, y, cost = cost, n_models = 3, nfolds = 3, progress = FALSE))
t_cv <- cpu() - t0
cat(sprintf("cv_eps(yeast train, cost = %s, n_models = 3, nfolds = 3): %.1f CPU s, cvm %s\n",
            paste(cost, collapse = "/"), t_cv, paste(round(as.vector(cv$cvm), 3), collapse = "/")))
if (nzchar(Sys.getenv("EPS_TIME_PROFILE"))) {
  prof <- tempfile()
  set.seed(1)
  Rprof(prof, interval = 0.02)
  fit <- eps(x, y, n_models = 2, cost = 1)
  Rprof(NULL)
  s <- summaryRprof(prof)$by.self
  print(utils::head(s, 5))
}
