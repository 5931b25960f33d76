# Approximate against exact inference on MLCRF's learned yeast graph (14
# labels, exact is feasible) and on random dense 12-label graphs with
# couplings of the size seen on yeast (issue 25).  Run from the package root:
# Rscript bench/mlcrf_inference.R; results in bench/mlcrf_structure.md.
# MLCRF_INFER_ETA: the yeast fit's eta (default 0.5; 0.25 is what
# cv_mlcrf()'s default grid chooses on yeast since session 38).
suppressMessages(library(mlss))
cat("mlcrf inference; mlss from", find.package("mlss"), "; load:", readLines("/proc/loadavg"),
    "; date:", format(Sys.time(), tz = "UTC"), "UTC\n")
# CPU seconds (user + sys, children included) of a proc.time() difference
cpu <- function(t) sum(t[c(1, 2, 4, 5)], na.rm = TRUE)
set.seed(1)
tr <- yeast$train
t0 <- proc.time()
fit <- mlcrf(yeast$x[tr, ], yeast$y[tr, ], eta = as.numeric(Sys.getenv("MLCRF_INFER_ETA", "0.5")),
             tol = 1e-5)
cat(sprintf("yeast fit: %d edges, %.0f s\n", nrow(fit$edges), (proc.time() - t0)[["elapsed"]]))
xt <- yeast$x[!tr, ]
pot <- mlss:::mlcrf_potentials(fit, xt)
cat("pair potentials on the test rows: sd", signif(sd(pot$pair), 3), ", 99% |.|",
    signif(quantile(abs(pot$pair), 0.99), 3), ", max |.|", signif(max(abs(pot$pair)), 3), "\n")
ex_s <- predict(fit, xt, type = "score", inference = "exact")
ex_c <- predict(fit, xt, type = "class", inference = "exact")
t0 <- proc.time()
ap_s <- predict(fit, xt, type = "score", inference = "approximate")
ap_c <- predict(fit, xt, type = "class", inference = "approximate")
info <- attr(ap_c, "inference")
cat(sprintf("yeast test rows (%d): approximate marginals max |error| %.4f (Gibbs se max %.4f); MAP equal to exact on %.2f%% of rows; MAP certified on %d rows; %.1f CPU s\n",
            nrow(xt), max(abs(ex_s - ap_s)), max(attr(ap_s, "inference")$gibbs_se),
            100 * mean(rowSums(ex_c != ap_c) == 0), sum(info$map_certified),
            cpu(proc.time() - t0)))
# random dense 12-label graphs (200 rows, node potentials N(0, 1)), the
# entries of each edge's pair table ((0,1), (1,0), (1,1)) drawn normal with
# the means and sds given by kind; exact against approximate inference
dense12 <- function(mu, sds, what) {
  set.seed(2)
  m <- 12; n <- 200
  pairs <- which(upper.tri(diag(m)), arr.ind = TRUE); pairs <- pairs[order(pairs[, 1], pairs[, 2]), ]
  node <- matrix(rnorm(n * m), n, m)
  k3 <- rep(1:3, nrow(pairs))
  pair <- matrix(rnorm(n * 3 * nrow(pairs), mean = rep(mu[k3], each = n),
                       sd = rep(sds[k3], each = n)), n)
  f <- mlss:::crf_infer_call
  ex <- f(node, pair, pairs[, 1] - 1L, pairs[, 2] - 1L, "exact")
  t0 <- proc.time()
  ap <- f(node, pair, pairs[, 1] - 1L, pairs[, 2] - 1L, "approximate")
  cat(sprintf("dense 12-label graphs, %s: max |marginal error| %.4f, Gibbs se max %.4f, MAP equal %.1f%%; %.1f CPU s\n",
              what, max(abs(ex$marginal - ap$marginal)), max(ap$gibbs_se),
              100 * mean(rowSums(ex$map != ap$map) == 0), cpu(proc.time() - t0)))
}
# every entry symmetric about 0 at the sd of all yeast's pair entries
sdp <- sd(pot$pair)
for (scale in c(1, 2))
  dense12(rep(0, 3), rep(scale * sdp, 3),
          sprintf("coupling sd %.3f (%g x yeast's)", scale * sdp, scale))
# each entry drawn as yeast's learned ones are: the (0,1) and (1,0) entries
# about 0 at their sd, the (1,1) entry (the coupling proper) at its mean and
# sd (mostly positive: labels that co-occur)
if (ncol(pot$pair) == 3 * nrow(fit$edges)) {
  kind <- rep(rep(1:3, nrow(fit$edges)), each = nrow(pot$pair))
  mu <- tapply(as.vector(pot$pair), kind, mean)
  sds <- tapply(as.vector(pot$pair), kind, sd)
  dense12(mu, sds, sprintf("entries as yeast's by kind (means %s, sds %s)",
                           paste(signif(mu, 3), collapse = "/"), paste(signif(sds, 3), collapse = "/")))
}
