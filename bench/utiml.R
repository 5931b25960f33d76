# mlss against utiml 0.1.7 at the same base learner: e1071's RBF SVM with
# Platt probabilities (utiml's default "SVM": e1071::svm(probability =
# TRUE), cost 1, gamma 1/d, features scaled), on Mulan's train/test splits of
# emotions, yeast, scene and medical.  Methods: BR, ECC, RAkEL, LP.  Test
# macro and micro F1, exact match (subset accuracy), Hamming loss, and the CPU
# time of fit + predict, mlss / utiml (user + system of this process).
#
# utiml left the current CRAN index; it installs from the CRAN archive, with
# ROCR (Debian: r-cran-rocr) and mldr first:
#   apt-get install r-cran-rocr      # or install.packages("ROCR")
#   Rscript -e 'install.packages("https://cloud.r-project.org/src/contrib/Archive/utiml/utiml_0.1.7.tar.gz",
#                                repos = NULL, type = "source", lib = "/tmp/utiml_lib")'
# Run (from the package root, mlss installed):
#   R_LIBS=<mlss lib>:/tmp/utiml_lib nice Rscript bench/utiml.R
# BENCH_SETS (default "emotions,scene,yeast,medical") and BENCH_METHODS
# (default "BR,LP,RAkEL,ECC") choose what runs.
#
# What is the same and what is not:
# * BR: the same model in both (one e1071 SVM per label on the same rows;
#   with the same seed even the same Platt probabilities).  utiml labels at
#   probability > 0.5 (e1071's class), then "1+".  mlss: the same, without
#   "1+", per-label cuts for F1 on the training probabilities (br()'s
#   default), and per-label cuts from 5-fold out-of-fold scores (cv_br(), one
#   grid point) on the decision values ("dv") or the probabilities ("p").
# * utiml labels a row that its method leaves empty with its most probable
#   label (its default, utiml.empty.prediction = FALSE): "1+" in the tables;
#   mlss's methods are shown with and without that correction.
# * LP: the same model: one multi-class e1071 SVM (libsvm's one-vs-one, Platt's
#   probabilities) on the label sets, the most probable set predicted
#   (mlss: lp(learner = ml_learner_e1071()), a multi-class learner).
# * RAkEL: RAkELo, k = 3, m = 2L; mlss with utiml's subsets (its draw can
#   repeat a subset, which mlss fits once) and its cut (votes >= 0.5), and
#   with its own draw (> 0.5).  bench/utiml_same.R checks the equality
#   entry by entry.
# * ECC: 10 chains; utiml samples 75% of the rows with replacement and half
#   of the features per chain (its defaults), averages the class votes and
#   cuts them by LCard, then "1+"; mlss: ecc(fraction = 0.75, features = 0.5)
#   with the same cut (utiml_lcard() in bench/utiml_common.R), and, unless BENCH_LEAN=1,
#   Read et al.'s ECC (bootstrap, all features).
# BENCH_PKGS (default "utiml,mlss") runs one package only; BENCH_OUT appends
# the rows to a csv (bench/utiml_table.R makes the tables of
# bench/utiml_results.md from such files); BENCH_OOF=1 adds BR with
# out-of-fold F1 cuts; BENCH_FAST=1 the same SVM without Platt's
# probabilities.
source(file.path("bench", "common.R"))
# load_set(), as_mldr(), cpu(), one_plus(), utiml_lcard(), split_set(); loads utiml and mldr
source(file.path("bench", "utiml_common.R"))
sets <- bench_sets()
methods <- bench_methods()

svm <- ml_learner_e1071()   # utiml's "SVM": radial, cost 1, gamma 1/d, Platt, scaled
svm_dv <- ml_learner_e1071(probability = FALSE)  # the same SVM's decision values
pkgs <- strsplit(Sys.getenv("BENCH_PKGS", "utiml,mlss"), ",")[[1]]
oof <- Sys.getenv("BENCH_OOF", "0") == "1"   # BR with out-of-fold cuts (slow)
out <- Sys.getenv("BENCH_OUT", "")             # append the rows to this csv
# BENCH_LEAN=1: only the models that are utiml's (no RAkEL of mlss's own
# draw, no ECC of Read et al.'s draws)
lean <- Sys.getenv("BENCH_LEAN", "0") == "1"
# BENCH_FAST=1: also mlss's LP, RAkEL and ECC with the same SVM without
# Platt's probabilities (libsvm's own class: one-vs-one votes for a label
# powerset, the sign of the decision value for a chain): not utiml's model
# (its labels come from Platt's probabilities), about a fifth of the fits
fast <- Sys.getenv("BENCH_FAST", "0") == "1"
res <- NULL
show <- function(r) {
  cat(sprintf("%-9s %-26s %-6s %8.4f %8.4f %8.4f %8.4f %9.1f\n", r$set, r$method, r$package,
              r$macro_f1, r$micro_f1, r$exact, r$hamming, r$cpu))
  flush.console()
}
cat(sprintf("%-9s %-26s %-6s %8s %8s %8s %8s %9s\n", "data", "method", "pkg", "macroF1",
            "microF1", "exact", "Hamming", "CPU s"))
cat("load average:", readLines("/proc/loadavg"), "\n")

for (set in sets) {
  sp <- split_set(set)
  for (v in names(sp)) assign(v, sp[[v]])
  add <- function(method, pkg, pred, t) {
    r <- bench_row(set, method, pkg, yte, pred, t, out)
    show(r)
    res <<- rbind(res, r)
  }
  # utiml's labels with its "1+" (options(utiml.empty.prediction = FALSE), its
  # default) and without
  ut_pred <- function(model) {
    options(utiml.empty.prediction = TRUE)
    raw <- as.matrix(as.bipartition(predict(model, mte))) == 1
    options(utiml.empty.prediction = FALSE)
    list(raw = raw)
  }
  ut_fit <- function(fun, ...) {
    set.seed(26)
    cpu({
      model <- fun(mtr, "SVM", ..., seed = 26)
      c(ut_pred(model), list(model = model))
    })
  }
  if ("BR" %in% methods) {
    # utiml's labels: the SVM's class (Platt probability > 0.5), then, by its
    # default (utiml.empty.prediction = FALSE), the most probable label on a
    # row left without any ("at least one")
    if ("utiml" %in% pkgs) {
      u <- utiml_br(mtr, mte)
      add("BR (p>0.5, 1+)", "utiml", u$value$class, u$cpu)
      add("BR (p>0.5)", "utiml", u$value$prob > 0.5, u$cpu)
    }
    if ("mlss" %in% pkgs) {
      set.seed(26)
      m <- cpu({
        f <- mlss::br(xtr, ytr, learner = svm)
        s <- predict(f, xte, type = "score")
        list(f = f, s = s)
      })
      add("BR (p>0.5, 1+)", "mlss", one_plus(m$value$s > 0.5, m$value$s), m$cpu)
      add("BR (p>0.5)", "mlss", m$value$s > 0.5, m$cpu)
      add("BR (train F1 cuts)", "mlss", predict(m$value$f, xte), m$cpu)
      # BR with out-of-fold F1 cuts, on decision values (dv) and on probabilities (p)
      if (oof) for (lrn in list(list(name = "dv", learner = svm_dv),
                                list(name = "p", learner = svm))) {
        set.seed(26)
        o <- cpu({
          cv <- mlss::cv_br(xtr, ytr, learner = lrn$learner, params = list(cost = 1),
                            nfolds = 5, progress = FALSE)
          list(class = predict(cv$fit, xte), score = predict(cv$fit, xte, type = "score"))
        })
        add(sprintf("BR %s (OOF F1 cuts)", lrn$name), "mlss", o$value$class, o$cpu)
        add(sprintf("BR %s (OOF F1 cuts, 1+)", lrn$name), "mlss",
            one_plus(o$value$class, o$value$score), o$cpu)
      }
    }
  }
  if ("LP" %in% methods) {
    # the same model: one multi-class e1071 SVM with Platt probabilities on
    # the label sets, the most probable one predicted (e1071's class with
    # probability = TRUE is the most probable); the same seed before the fit
    if ("utiml" %in% pkgs) {
      u <- ut_fit(utiml::lp)
      add("LP", "utiml", u$value$raw, u$cpu)
    }
    if ("mlss" %in% pkgs) {
      set.seed(26)
      m <- cpu(scores_classes(mlss::lp(xtr, ytr, learner = svm), xte))
      add("LP", "mlss", m$value$class, m$cpu)
      add("LP (1+ on marginals)", "mlss", one_plus(m$value$class, m$value$score), m$cpu)
    }
    if ("mlss" %in% pkgs && fast) {
      set.seed(26)
      m <- cpu(predict(mlss::lp(xtr, ytr, learner = svm_dv), xte))
      add("LP (no Platt: SVM vote)", "mlss", m$value, m$cpu)
    }
  }
  if ("RAkEL" %in% methods) {
    # RAkELo, k = 3, m = 2L, votes >= 0.5 (utiml's cut; mlss's own is > 0.5)
    ut_sub <- NULL
    if ("utiml" %in% pkgs) {
      u <- ut_fit(utiml::rakel, k = 3, m = 2 * L)
      add("RAkELo k=3", "utiml", u$value$raw, u$cpu)
      ut_sub <- lapply(u$value$model$labelsets, function(s) match(s, paste0("L", seq_len(L))))
      saveRDS(ut_sub, file.path(tempdir(), paste0("subsets-", set, ".rds")))
    }
    if ("mlss" %in% pkgs) {
      if (is.null(ut_sub)) {   # utiml's draw: its subsets (sample(labels, 3), seed 26)
        set.seed(26)
        ut_sub <- lapply(seq_len(2 * L), function(i) match(sample(paste0("L", seq_len(L)), 3),
                                                           paste0("L", seq_len(L))))
      }
      set.seed(26)
      m <- cpu(scores_classes(mlss::rakel(xtr, ytr, k = 3, subsets = ut_sub, learner = svm,
                                          threshold = 0.5 - 1e-9), xte))
      add("RAkELo k=3 (utiml's subsets)", "mlss", m$value$class, m$cpu)
    }
    if ("mlss" %in% pkgs && fast) {
      set.seed(26)
      m <- cpu(predict(mlss::rakel(xtr, ytr, k = 3, subsets = ut_sub, learner = svm_dv,
                                   threshold = 0.5 - 1e-9), xte))
      add("RAkELo k=3 (utiml's subsets, no Platt)", "mlss", m$value, m$cpu)
    }
    if ("mlss" %in% pkgs && !lean) {
      set.seed(26)
      m <- cpu(scores_classes(mlss::rakel(xtr, ytr, k = 3, m = min(2 * L, choose(L, 3)),
                                          learner = svm), xte))
      add("RAkELo k=3 (own draw, >0.5)", "mlss", m$value$class, m$cpu)
    }
  }
  if ("ECC" %in% methods) {
    # 10 chains, each on ceiling(0.75 n) rows drawn with replacement and half
    # of the features (utiml's defaults), class votes averaged, utiml's LCard
    # cut and "1+"
    if ("utiml" %in% pkgs) {
      set.seed(26)
      u <- cpu({
        model <- utiml::ecc(mtr, "SVM", m = 10, seed = 26)
        as.matrix(as.bipartition(predict(model, mte))) == 1
      })
      add("ECC 10 (LCard, 1+)", "utiml", u$value, u$cpu)
    }
    if ("mlss" %in% pkgs) {
      set.seed(26)
      m <- cpu(mlss::ecc(xtr, ytr, n_models = 10, learner = svm, fraction = 0.75,
                         features = 0.5))
      s <- predict(m$value, xte, type = "score")
      add("ECC 10 (LCard, 1+)", "mlss", utiml_lcard(s, card), m$cpu)
      add("ECC 10 (>0.5)", "mlss", s > 0.5, m$cpu)
    }
    if ("mlss" %in% pkgs && fast) {
      set.seed(26)
      m <- cpu(mlss::ecc(xtr, ytr, n_models = 10, learner = svm_dv, fraction = 0.75,
                         features = 0.5))
      s <- predict(m$value, xte, type = "score")
      add("ECC 10 (no Platt; LCard, 1+)", "mlss", utiml_lcard(s, card), m$cpu)
    }
    if ("mlss" %in% pkgs && !lean) {
      set.seed(26)
      m <- cpu(mlss::ecc(xtr, ytr, n_models = 10, learner = svm))
      s <- predict(m$value, xte, type = "score")
      add("ECC 10 Read (LCard, 1+)", "mlss", utiml_lcard(s, card), m$cpu)
      add("ECC 10 Read (>0.5)", "mlss", s > 0.5, m$cpu)
    }
  }
}
if (length(pkgs) > 1) {
  cat("\nCPU time mlss / utiml (same method name):\n")
  for (set in unique(res$set)) for (mth in unique(res$method[res$set == set])) {
    a <- res[res$set == set & res$method == mth & res$package == "mlss", ]
    b <- res[res$set == set & res$method == mth & res$package == "utiml", ]
    if (nrow(a) && nrow(b)) cat(sprintf("%-9s %-26s %6.2f\n", set, mth, a$cpu / b$cpu))
  }
}
cat("load average:", readLines("/proc/loadavg"), "\n")
