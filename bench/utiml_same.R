# Are mlss's LP and RAkEL with e1071's SVM the same models as utiml's?  Both
# fit, per label powerset, one multi-class e1071 SVM with Platt's
# probabilities and predict its most probable class; Platt's internal
# cross-validation draws from R's generator, so the same seed before the
# same sequence of fits gives the same models.  utiml's RAkEL refits a label
# subset that its draw repeats (mlss::rakel() fits it once and reuses it, so
# its later fits see another random stream): here mlss's RAkEL is also run
# as utiml runs it, one mlss::lp() per drawn subset, to check the equality
# entry by entry.  Setup as bench/utiml.R (utiml 0.1.7 from the CRAN
# archive); run from the package root:
#   R_LIBS=<lib with mlss and utiml> BENCH_SETS=emotions,scene nice Rscript bench/utiml_same.R
source(file.path("bench", "common.R"))
suppressPackageStartupMessages({
  library(utiml)
  library(mldr)
})
sets <- strsplit(Sys.getenv("BENCH_SETS", "emotions,scene"), ",")[[1]]
as_mldr <- function(x, y, name) {
  colnames(x) <- paste0("a", seq_len(ncol(x)))
  yy <- y + 0
  colnames(yy) <- paste0("L", seq_len(ncol(y)))
  mldr::mldr_from_dataframe(data.frame(x, yy, check.names = FALSE),
                            labelIndices = ncol(x) + seq_len(ncol(y)), name = name)
}
cpu <- function(expr) {
  t0 <- proc.time()
  value <- expr
  t <- proc.time() - t0
  list(value = value, cpu = sum(t[c("user.self", "sys.self")]))
}
svm <- ml_learner_e1071()
options(utiml.empty.prediction = TRUE)   # utiml's raw labels (no "1+")
cat("load average:", readLines("/proc/loadavg"), "\n")
cat(sprintf("%-9s %-32s %10s %10s %9s %9s %6s\n", "data", "model", "equal ent", "equal rows",
            "utiml s", "mlss s", "ratio"))
say <- function(set, what, a, b, ta, tb)
  cat(sprintf("%-9s %-32s %10.4f %10.4f %9.1f %9.1f %6.2f\n", set, what, mean(a == b),
              mean(rowSums(a != b) == 0), ta, tb, tb / ta))
for (set in sets) {
  d <- getExportedValue("mlss", set)
  xtr <- as.matrix(d$x[d$train, ])
  xte <- as.matrix(d$x[!d$train, ])
  ytr <- d$y[d$train, ]
  L <- ncol(ytr)
  mtr <- as_mldr(xtr, ytr, "train")
  mte <- as_mldr(xte, d$y[!d$train, ], "test")
  # LP
  set.seed(26)
  u <- cpu(as.matrix(as.bipartition(predict(utiml::lp(mtr, "SVM", seed = 26), mte))) == 1)
  set.seed(26)
  m <- cpu(predict(mlss::lp(xtr, ytr, learner = svm), xte))
  say(set, "LP", unname(u$value), unname(m$value), u$cpu, m$cpu)
  # RAkELo k = 3, m = 2L, utiml's subsets (its draw: set.seed(26), sample(labels, 3))
  set.seed(26)
  u <- cpu({
    model <- utiml::rakel(mtr, "SVM", k = 3, m = 2 * L, seed = 26)
    as.matrix(as.bipartition(predict(model, mte))) == 1
  })
  sub <- lapply(model$labelsets, function(s) match(s, paste0("L", seq_len(L))))
  set.seed(26)
  m <- cpu({   # as utiml: one LP per drawn subset, repeats refitted; votes >= 0.5
    votes <- matrix(0, nrow(xte), L)
    for (s in sub) votes[, s] <- votes[, s] + predict(mlss::lp(xtr, ytr[, s], learner = svm), xte)
    votes / rep(tabulate(unlist(sub), L), each = nrow(xte)) >= 0.5
  })
  say(set, "RAkELo (each subset fitted)", unname(u$value), unname(m$value), u$cpu, m$cpu)
  set.seed(26)
  m <- cpu(predict(mlss::rakel(xtr, ytr, subsets = sub, learner = svm, threshold = 0.5 - 1e-9),
                   xte))
  say(set, sprintf("RAkELo (rakel(), %d repeats reused)", sum(duplicated(
    vapply(sub, function(s) paste(sort(s), collapse = ","), "")))),
    unname(u$value), unname(m$value), u$cpu, m$cpu)
}
cat("load average:", readLines("/proc/loadavg"), "\n")
