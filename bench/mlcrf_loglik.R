# Why MLCRF's held-out likelihood on yeast was far below PCC's (issue 25):
# single mlcrf() fits on one fold of bench/mlcrf.R's protocol (ml_folds(y,
# 10) after set.seed(2014), features standardised with the training part's
# mean and sd), the test fold's log-likelihood loss (the sum over its rows,
# exact inference), at a few (edge_type, lambda_w, eta) points, with the
# penalty of the (1,1) intercepts as before session 36 (in the edge ridge
# lambda_w (1 - eta), with the slopes) and as now (a tiny fixed ridge, as
# the node intercepts; ?mlcrf, section Objective).  lambda_v per label as
# mlcrf(edges = "none") chooses it, then fixed.  Results: bench/mlcrf_loglik.md.
#
# The old penalty is reproduced exactly at eta < 1: it is the new code with
# mlss:::mlcrf_lambda0_w set to lambda_w (1 - eta) for the fit (stage 1 and
# the refit of stage 2 both use that ridge).
#
# Environment: MLCRF_LL_DATA ("yeast"), MLCRF_LL_FOLD (1), MLCRF_LL_POINTS
# (a ";"-list of edge_type,lambda_w,eta; default below).
source(file.path("bench", "common.R"))

name <- Sys.getenv("MLCRF_LL_DATA", "yeast")
fold <- as.integer(Sys.getenv("MLCRF_LL_FOLD", "1"))
pts <- Sys.getenv("MLCRF_LL_POINTS", "full,0.09,0.5;ising,0.09,0.5;full,0.2223,0.5")
pts <- lapply(strsplit(strsplit(pts, ";")[[1]], ","), function(p)
  list(edge_type = p[1], lambda_w = as.numeric(p[2]), eta = as.numeric(p[3])))

ns <- asNamespace("mlss")
d <- get(name, ns)
d$x <- as.matrix(d$x)
set.seed(2014)
foldid <- ml_folds(d$y, 10)
tr <- foldid != fold
mu <- colMeans(d$x[tr, ])
s <- sqrt(colMeans(sweep(d$x[tr, ], 2, mu)^2))
s[s == 0] <- 1
xtr <- sweep(sweep(d$x[tr, ], 2, mu), 2, s, "/")
xte <- sweep(sweep(d$x[!tr, ], 2, mu), 2, s, "/")
ytr <- d$y[tr, ]
yte <- d$y[!tr, ]
loss <- function(f) -sum(log(pmax(predict(f, xte, type = "prob", y = yte), 1e-300)))

cat("mlcrf_loglik:", name, "fold", fold, "; n train", sum(tr), ", test", sum(!tr),
    "; load:", readLines("/proc/loadavg"), "\n")
br <- mlcrf(xtr, ytr, edges = "none")
lv <- br$lambda_v
cat("lambda_v:", signif(lv, 3), "\n")
cat(sprintf("%-6s %-7s %8s %5s  %-5s %6s %10s %8s\n", "edges", "type", "lambda_w", "eta",
            "ridge", "kept", "test loss", "CPU s"))
cat(sprintf("%-6s %-7s %8s %5s  %-5s %6d %10.2f %8s\n", "none", "-", "-", "-", "-", 0L,
            loss(br), "-"))
lambda0_w <- ns$mlcrf_lambda0_w
set_lambda0_w <- function(v) {
  unlockBinding("mlcrf_lambda0_w", ns)
  assign("mlcrf_lambda0_w", v, ns)
  lockBinding("mlcrf_lambda0_w", ns)
}
res <- list()
for (p in pts) for (rule in c("old", "new")) {
  set_lambda0_w(if (rule == "old") p$lambda_w * (1 - p$eta) else lambda0_w)
  t <- system.time(f <- suppressWarnings(mlcrf(xtr, ytr, lambda_v = lv, lambda_w = p$lambda_w,
                                                eta = p$eta, edge_type = p$edge_type)))
  set_lambda0_w(lambda0_w)
  r <- data.frame(edge_type = p$edge_type, lambda_w = p$lambda_w, eta = p$eta, ridge = rule,
                  kept = nrow(f$edges), loss = loss(f), cpu = t[["user.self"]] + t[["sys.self"]])
  res[[length(res) + 1]] <- r
  cat(sprintf("%-6s %-7s %8.4g %5.2g  %-5s %6d %10.2f %8.1f\n", "learn", r$edge_type,
              r$lambda_w, r$eta, r$ridge, r$kept, r$loss, r$cpu))
}
