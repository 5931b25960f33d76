# mlss's own RBF SVM (rbf_svm(), ml_learner_rbf_svm(): libsvm's C-SVC with
# Platt's probabilities on one shared kernel matrix) against utiml 0.1.7 at
# its default base learner (e1071::svm(probability = TRUE): cost 1, gamma
# 1/d, features scaled, tolerance 1e-3), the same model.  Mulan's
# train/test splits of emotions, scene and yeast, medical's seeded 2/3 split
# (as bench/utiml.R).  BR, LP, RAkELo (k = 3, m = 2L, utiml's subsets and its
# cut, votes >= 0.5) and ECC (10 chains, 75% of the rows with replacement,
# half of the features, utiml's LCard cut and "1+").  Test macro and micro
# F1, exact match, Hamming loss, and the CPU seconds (user + system) of fit +
# predict, each package timed in this same process, one after the other.
# BENCH_E1071=1 adds mlss with ml_learner_e1071() (the model of the last
# session's tables) for a three-way comparison.
#
# utiml from the CRAN archive (see bench/utiml.R), then from the package root:
#   R_LIBS=<mlss lib>:/tmp/utiml_lib BENCH_SETS=emotions,scene nice Rscript bench/rbfsvm.R
# BENCH_SETS, BENCH_METHODS (BR,LP,RAkEL,ECC), BENCH_OUT (append rows to a csv),
# BENCH_NO_UTIML=1 (mlss only: utiml's subsets of RAkEL then drawn as utiml
# draws them, sample(labels, 3) after set.seed(26)).
source(file.path("bench", "common.R"))
source(file.path("bench", "utiml_common.R"))   # also loads utiml and mldr
sets <- bench_sets()
methods <- bench_methods()
with_e1071 <- Sys.getenv("BENCH_E1071", "0") == "1"
no_utiml <- Sys.getenv("BENCH_NO_UTIML", "0") == "1"
out <- Sys.getenv("BENCH_OUT", "")
rbf <- ml_learner_rbf_svm()   # utiml's "SVM": radial, cost 1, gamma 1/d, Platt, scaled
learners <- list(rbf = rbf)
if (with_e1071) learners$e1071 <- ml_learner_e1071()

res <- NULL
cat("load average:", readLines("/proc/loadavg"), "\n")
cat(sprintf("%-9s %-30s %-12s %8s %8s %8s %8s %9s %7s\n", "data", "method", "package",
            "macroF1", "microF1", "exact", "Hamming", "CPU s", "/utiml"))
for (set in sets) {
  sp <- split_set(set)
  for (v in names(sp)) assign(v, sp[[v]])
  ref <- list()
  add <- function(method, pkg, pred, t) {
    if (pkg == "utiml") ref[[method]] <<- t
    ratio <- if (pkg != "utiml" && !is.null(ref[[method]])) t / ref[[method]] else NA
    r <- bench_row(set, method, pkg, yte, pred, t, out, ratio = ratio)
    cat(sprintf("%-9s %-30s %-12s %8.4f %8.4f %8.4f %8.4f %9.1f %7.2f\n", set, method, pkg,
                r$macro_f1, r$micro_f1, r$exact, r$hamming, t, ratio))
    flush.console()
    res <<- rbind(res, r)
  }
  ut_raw <- function(model) {
    options(utiml.empty.prediction = TRUE)
    on.exit(options(utiml.empty.prediction = FALSE))
    as.matrix(as.bipartition(predict(model, mte))) == 1
  }
  if ("BR" %in% methods) {
    if (!no_utiml) {
    u <- utiml_br(mtr, mte)
    add("BR (p>0.5, 1+)", "utiml", u$value$class, u$cpu)
    add("BR (p>0.5)", "utiml", u$value$prob > 0.5, u$cpu)
    }
    for (nm in names(learners)) {
      rbf_svm_cache_clear()
      set.seed(26)
      m <- cpu(predict(mlss::br(xtr, ytr, learner = learners[[nm]]), xte, type = "score"))
      add("BR (p>0.5, 1+)", paste("mlss", nm), one_plus(m$value > 0.5, m$value), m$cpu)
      add("BR (p>0.5)", paste("mlss", nm), m$value > 0.5, m$cpu)
    }
  }
  if ("LP" %in% methods) {
    if (!no_utiml) {
      set.seed(26)
      u <- cpu(ut_raw(utiml::lp(mtr, "SVM", seed = 26)))
      add("LP", "utiml", u$value, u$cpu)
    }
    for (nm in names(learners)) {
      rbf_svm_cache_clear()
      set.seed(26)
      m <- cpu(predict(mlss::lp(xtr, ytr, learner = learners[[nm]]), xte))
      add("LP", paste("mlss", nm), m$value, m$cpu)
    }
  }
  if ("RAkEL" %in% methods) {
    set.seed(26)
    u <- if (!no_utiml) tryCatch(cpu({
      model <- utiml::rakel(mtr, "SVM", k = 3, m = 2 * L, seed = 26)
      list(model = model, raw = ut_raw(model))
    }), error = function(e) {
      cat("utiml RAkEL failed:", conditionMessage(e), "\n")
      NULL
    })
    if (!is.null(u)) {
      pred <- u$value$raw
      if (anyNA(pred)) {
        cat("utiml RAkEL predicted NA for", sum(is.na(pred)), "entries (labels in no subset:",
            sum(colSums(is.na(pred)) > 0), ")\n")
        pred <- NULL
      }
      add("RAkELo k=3", "utiml", pred, u$cpu)
      sub <- lapply(u$value$model$labelsets, function(s) match(s, paste0("L", seq_len(L))))
    } else {
      set.seed(26)
      sub <- lapply(seq_len(2 * L), function(i) match(sample(paste0("L", seq_len(L)), 3),
                                                      paste0("L", seq_len(L))))
    }
    for (nm in names(learners)) {
      rbf_svm_cache_clear()
      set.seed(26)
      m <- cpu(predict(mlss::rakel(xtr, ytr, k = 3, subsets = sub, learner = learners[[nm]],
                                   threshold = 0.5 - 1e-9), xte))
      add("RAkELo k=3", paste("mlss", nm), m$value, m$cpu)
    }
  }
  if ("ECC" %in% methods) {
    set.seed(26)
    options(utiml.empty.prediction = FALSE)   # utiml's default: "1+"
    u <- if (!no_utiml) tryCatch(cpu({
      model <- utiml::ecc(mtr, "SVM", m = 10, seed = 26)
      as.matrix(as.bipartition(predict(model, mte))) == 1
    }), error = function(e) {
      cat("utiml ECC failed:", conditionMessage(e), "\n")
      NULL
    })
    if (!is.null(u)) add("ECC 10 (LCard, 1+)", "utiml", u$value, u$cpu)
    for (nm in names(learners)) {
      rbf_svm_cache_clear()
      set.seed(26)
      m <- cpu({
        f <- mlss::ecc(xtr, ytr, n_models = 10, learner = learners[[nm]], fraction = 0.75,
                       features = 0.5)
        predict(f, xte, type = "score")
      })
      add("ECC 10 (LCard, 1+)", paste("mlss", nm), utiml_lcard(m$value, card), m$cpu)
    }
  }
}
cat("load average:", readLines("/proc/loadavg"), "\n")
