# The multi-label toolbox of issue 26 on scene (Mulan's split): decision
# rules on ML-kNN's scores (k = 10, s = 1), exact match (subset accuracy),
# micro and macro F1 and Hamming loss on the test rows, each rule with and
# without the "at least one label" correction.  SCut chooses its cuts on
# 5-fold out-of-fold scores of the training rows.
# Run: R_LIBS=lib Rscript bench/toolbox.R
# utiml (0.1.7, archived) is not compared here: installing it needs ROCR,
# whose dependencies (gplots, caTools, ...) built from source for more than
# the 90 s tried (install.packages("ROCR"), then
# install.packages(".../Archive/utiml/utiml_0.1.7.tar.gz", repos = NULL,
# type = "source")).
source(file.path("bench", "common.R"))

d <- mlss::scene
tr <- d$train
ytr <- d$y[tr, ]
yte <- d$y[!tr, ]
t_fit <- elapsed(fit <- mlknn(d))
s <- predict(fit, d, type = "score")
set.seed(26)
fold <- sample(rep_len(1:5, sum(tr)))
oof <- matrix(0, sum(tr), ncol(ytr), dimnames = list(NULL, colnames(ytr)))
xtr <- d$x[tr, ]
for (k in 1:5) {
  f <- mlknn(xtr[fold != k, ], ytr[fold != k, ])
  oof[fold == k, ] <- predict(f, xtr[fold == k, ], type = "score")
}
rules <- list(
  `fixed 0.5` = list("fixed"), `rcut (k = round(card))` = list("rcut", y = ytr),
  pcut = list("pcut", y = ytr), mcut = list("mcut"), lcard = list("lcard", y = ytr),
  `scut F1 (OOF)` = list("scut", y = ytr, train_score = oof),
  `scut Hamming (OOF)` = list("scut", y = ytr, train_score = oof, measure = "hamming"))
meas <- c("subset_accuracy", "micro_f1", "macro_f1", "hamming_loss")
cat(sprintf("scene, ML-kNN (fit %.2f s): %d test rows\n", t_fit, nrow(yte)))
cat(sprintf("%-24s %-5s %8s %8s %8s %8s %6s\n", "rule", "1+", "exact", "microF1", "macroF1",
            "Hamming", "empty"))
for (r in names(rules)) for (one in c(FALSE, TRUE)) {
  p <- do.call(ml_decide, c(list(s), rules[[r]], at_least_one = one))
  v <- unlist(ml_metrics(yte, pred = p, measures = meas))
  cat(sprintf("%-24s %-5s %8.4f %8.4f %8.4f %8.4f %6d\n", r, one, v[1], v[2], v[3], v[4],
              sum(rowSums(p) == 0)))
}

# ---- transformations: BR, LP, PS, RAkELo, RAkELd, EBR, ECC (logistic, cost 1) ----
# Each on the training rows of Mulan's split, scored on its test rows: the
# class predictions of each method's own rule (BR: the training F1 cuts;
# LP/PS: the most probable set; RAkEL: averaged votes > 0.5), and CPU time.
cat("\nTransformations on Mulan's splits (logistic class model, cost 1):\n")
cat(sprintf("%-9s %-10s %8s %8s %8s %8s %8s\n", "data", "method", "exact", "microF1",
            "macroF1", "Hamming", "CPU s"))
# Each method of methods_of(dd) (functions that fit it on the data set dd)
# on the training rows of Mulan's split of each of `sets`, scored on its
# test rows by predict(type = "class"): the measures `meas` and the seconds
# of fit + predict (`clock`: "user.self" or "elapsed" of system.time()).
# set.seed(26) once per set, or before each method with seed_each; quiet:
# the fits' warnings suppressed; width: of the method column.
score_methods <- function(sets, methods_of, meas, clock, seed_each = FALSE, quiet = FALSE,
                          width = 10) {
  for (name in sets) {
    dd <- get(name, asNamespace("mlss"))
    yt <- dd$y[!dd$train, ]
    if (!seed_each) set.seed(26)
    methods <- methods_of(dd)
    for (mth in names(methods)) {
      if (seed_each) set.seed(26)
      t <- system.time({
        f <- if (quiet) suppressWarnings(methods[[mth]]()) else methods[[mth]]()
        p <- predict(f, dd, type = "class")
      })[[clock]]
      v <- unlist(ml_metrics(yt, pred = p, measures = meas))
      cat(sprintf("%-9s %-*s %8.4f %8.4f %8.4f %8.4f %8.2f\n", name, width, mth, v[1], v[2],
                  v[3], v[4], t))
    }
  }
}
score_methods(c("emotions", "scene"), function(dd) list(
  BR = function() br(dd, learner = "logistic"),
  LP = function() lp(dd),
  `PS p=3 b=2` = function() ps(dd, p = 3, b = 2),
  `RAkELo k=3` = function() rakel(dd, k = 3),
  `RAkELd k=3` = function() rakel(dd, k = 3, mode = "disjoint"),
  `EBR 10` = function() ebr(dd, n_models = 10),
  `ECC 10` = function() ecc(dd, n_models = 10)), meas, "user.self")

# ---- issue 26, second part: EPS, HOMER, CLR, BR+, DBR beside BR/ECC/RAkEL ----
# Each on the training rows of Mulan's split, scored on its test rows by its
# own rule (BR: training F1 cuts; ECC/RAkEL/EPS: averaged votes > 0.5; CLR:
# more votes than the virtual label; HOMER: the top-down walk; BR+/DBR: the
# second layer's probabilities > 0.5), logistic base learner at cost 1;
# elapsed seconds of fit + predict.
cat("\nNew methods beside BR/ECC/RAkEL (logistic, cost 1), Mulan's splits:\n")
cat(sprintf("%-9s %-12s %8s %8s %8s %8s %8s\n", "data", "method", "macroF1", "microF1",
            "exact", "Hamming", "time s"))
meas2 <- c("macro_f1", "micro_f1", "subset_accuracy", "hamming_loss")
score_methods(c("emotions", "yeast", "scene"), function(dd) list(
  BR = function() br(dd, learner = "logistic"),
  `ECC 10` = function() ecc(dd, n_models = 10),
  `RAkELo k=3` = function() rakel(dd, k = 3),
  `EPS 10` = function() eps(dd, n_models = 10, p = 2, b = 2),
  `HOMER k=3` = function() homer(dd, k = 3),
  CLR = function() clr(dd),
  `BR+ 5-fold` = function() brplus(dd, inner_folds = 5),
  DBR = function() dbr(dd)), meas2, "elapsed", seed_each = TRUE, quiet = TRUE, width = 12)

# ---- the decision rule chosen in cross-validation (rule = ), scene ----
# BR (logistic) and CLR, cost in {0.1, 1}, 5 folds of the training rows,
# measure exact match: the engine's default cuts (rule = NULL, the per-label
# F1 cuts) against the rule chosen among all of them; exact match of
# predict(cv) on the test rows.
cat("\nscene: exact match on the test rows, default cuts vs the rule chosen in 5-fold CV:\n")
d <- mlss::scene
yt <- d$y[!d$train, ]
all_rules <- c("f1", "fixed", "rcut", "pcut", "mcut", "lcard", "scut",
               "f1+1", "fixed+1", "pcut+1", "lcard+1", "scut+1")
for (mth in c("BR", "CLR")) {
  run <- function(rule) {
    set.seed(26)
    if (mth == "BR")
      ml_cv(d, fit = function(x, y, cost) br(x, y, learner = "logistic", cost = cost),
            grid = list(cost = c(0.1, 1)), measure = "subset_accuracy", rule = rule,
            progress = FALSE)
    else cv_clr(d, cost = c(0.1, 1), measure = "subset_accuracy", rule = rule,
                progress = FALSE)
  }
  t0 <- system.time(cv0 <- suppressMessages(run(NULL)))[["elapsed"]]
  t1 <- system.time(cv1 <- suppressMessages(run(all_rules)))[["elapsed"]]
  e0 <- ml_metrics(yt, pred = predict(cv0, d), measures = "subset_accuracy")[[1]]
  e1 <- ml_metrics(yt, pred = predict(cv1, d), measures = "subset_accuracy")[[1]]
  cat(sprintf("%-4s default cuts: CV %.4f test %.4f (%.1f s) | chosen rule %-8s cost %-4s: CV %.4f test %.4f (%.1f s)\n",
              mth, max(cv0$cvm), e0, t0, cv1$rule_best, format(cv1$cost_best),
              max(cv1$cvm), e1, t1))
}
