# The stored result tables of the paper vignettes (issue 27): converts the
# outputs the benches stored into inst/papers/*.csv, beside the papers'
# figures (transcribed below from the papers' text, and checked against the
# text in ../shared/papers when it is there).  Re-run a bench, then this
# script, then rebuild the vignettes.
#
#   inst/papers/mlls_yahoo.csv          bench/mlls_yahoo.R's .rds files
#   inst/papers/mlls_yahoo_surface.csv  its cross-validation surfaces
#   inst/papers/mddm.csv                bench/mddm.R (part 2) -> bench/mddm_results.rds
#   inst/papers/lewl_recovery.csv       bench/lewl_tables.R -> bench/lewl_tables_runs/*.rds,
#   inst/papers/lewl_prediction.csv       the cells it has not run from
#                                         bench/missing_labels_results.md (the
#                                         section "With LEWL, after the merges")
#   inst/papers/lewl_measures.csv       bench/lewl_measures.R -> bench/lewl_measures_results.rds
# (inst/papers/mlcrf_tables.csv and mlcrf_structure.csv are written by
# bench/mlcrf.R and bench/mlcrf_structure.R themselves.)
#
# Every table: columns data, method, measure, ours, paper, note (and others
# named in its first line), a first line "# made by <script> on <date>,
# <machine>, <seeds>".  Run from the package root: Rscript bench/papers_tables.R
# (needs only base R; the bench outputs it reads are in bench/).
out_dir <- file.path("inst", "papers")
dir.create(out_dir, showWarnings = FALSE, recursive = TRUE)
papers_dir <- file.path(Sys.getenv("MLSS_SHARED", file.path("..", "shared")), "papers")

write_table <- function(tab, file, made_by) {
  path <- file.path(out_dir, file)
  con <- file(path, "w")
  on.exit(close(con))
  writeLines(paste("#", made_by), con)
  utils::write.csv(tab, con, row.names = FALSE, na = "")
  cat("wrote", path, "(", nrow(tab), "rows )\n")
}

# Check transcribed numbers against a paper's text: each must occur there.
check_in_text <- function(values, file) {
  path <- file.path(papers_dir, file)
  if (!file.exists(path)) {
    cat("(", file, "not found: transcription not re-checked )\n")
    return(invisible())
  }
  txt <- paste(readLines(path, warn = FALSE), collapse = " ")
  v <- unique(values[!is.na(values)])
  miss <- v[!vapply(sprintf("%.3f", v), grepl, TRUE, x = txt, fixed = TRUE) &
              !vapply(sprintf("%.4f", v), grepl, TRUE, x = txt, fixed = TRUE) &
              !vapply(sub("0+$", "", sprintf("%.3f", v)), grepl, TRUE, x = txt, fixed = TRUE)]
  if (length(miss)) stop("not in ", file, ": ", paste(miss, collapse = ", "))
  cat("all", length(v), "transcribed values of", file, "found in its text\n")
}

# ---- MLLS on Yahoo ----------------------------------------------------------
# Ji, Tang, Yu, Ye (TKDD 2010), Table III, columns Arts and Health (the two
# Yahoo sets in ../shared); 30 splits (ASO-SVM 10).  Read from the text
# (mlls-tkdd2010.txt, lines 1331-1365); every number was legible.
mlls_paper <- read.table(text = "
method     measure    arts   health
MLLS       macro_auc  0.7611 0.8539
CCA+ridge  macro_auc  0.7573 0.8557
CCA+SVM    macro_auc  0.7393 0.8450
SVM        macro_auc  0.7425 0.8439
ASO-SVM    macro_auc  0.7678 0.8621
SVMperf    macro_auc  0.7599 0.8554
MLLS       macro_f1   0.3572 0.5971
CCA+ridge  macro_f1   0.3176 0.5728
CCA+SVM    macro_f1   0.3217 0.5689
SVM        macro_f1   0.3374 0.5657
ASO-SVM    macro_f1   0.3568 0.5814
SVMperf    macro_f1   0.3361 0.4953
MLLS       micro_f1   0.4700 0.6816
CCA+ridge  micro_f1   0.4530 0.6775
CCA+SVM    micro_f1   0.4479 0.6646
SVM        micro_f1   0.4134 0.6349
ASO-SVM    micro_f1   0.4449 0.6754
SVMperf    micro_f1   0.4087 0.5997
", header = TRUE, stringsAsFactors = FALSE)
check_in_text(c(mlls_paper$arts, mlls_paper$health), "mlls-tkdd2010.txt")
# and row by row: in Table III each method's line occurs three times (AUC,
# macro F1, micro F1), Arts in column 1, Health in column 6.
local({
  path <- file.path(papers_dir, "mlls-tkdd2010.txt")
  if (!file.exists(path)) return()
  txt <- readLines(path, warn = FALSE)
  t3 <- txt[grep("^Table III\\.", txt):grep("^Table IV\\.", txt)]
  names_txt <- c(MLLS = "MLLS", "CCA+ridge" = "CCA\\+Ridge", "CCA+SVM" = "CCA\\+SVM",
                 SVM = "SVM", "ASO-SVM" = "ASOSVM", SVMperf = "SVMperf")
  for (meth in names(names_txt)) {
    ln <- t3[grepl(paste0("^", names_txt[[meth]], " [0-9]"), t3)]
    v <- do.call(rbind, lapply(strsplit(ln, " "), function(z) as.numeric(z[-1])))
    mine <- mlls_paper[mlls_paper$method == meth, ]
    stopifnot(nrow(v) == 3, all(v[, 1] == mine$arts), all(v[, 6] == mine$health))
  }
  cat("Table III checked row by row against the text\n")
})

# every run of bench/mlls_yahoo.R: the first ones (splits 1-2) and those of
# later sessions (mlls_yahoo_results_s39_*.rds: more splits)
mlls_files <- file.path("bench", c("mlls_yahoo_results.rds", "mlls_yahoo_results_r5.rds",
                                   "mlls_yahoo_results_ridge_tr.rds",
                                   "mlls_yahoo_results_cca_aso.rds",
                                   "mlls_yahoo_results_cca_svm.rds",
                                   "mlls_yahoo_results_cca_svm_tr.rds"))
mlls_files <- c(mlls_files[file.exists(mlls_files)],
                sort(list.files("bench", "^mlls_yahoo_results_s39_.*\\.rds$", full.names = TRUE)))
# the later runs add columns (cost for CCA+SVM, cpu_s and load): fill them in the earlier ones
yahoo <- lapply(mlls_files, function(f) readRDS(f)$rows)
yahoo_cols <- unique(unlist(lapply(yahoo, names)))
yahoo <- do.call(rbind, lapply(yahoo, function(r) { r[setdiff(yahoo_cols, names(r))] <- NA; r[yahoo_cols] }))
# a split run twice (in two files) would count twice in the means and tests
stopifnot(!anyDuplicated(yahoo[c("set", "split", "variant")]))
# The chosen values of a parameter over the splits: "name value xcount, ...".
tally <- function(name, v) {
  t <- table(v)
  paste0(name, " ", paste(sprintf("%g x%d", as.numeric(names(t)), t), collapse = ", "))
}
# variant of bench/mlls_yahoo.R -> (method, threshold rule)
variant_map <- read.table(text = "
variant         method     rule
paper_r_tr      MLLS       train
pkg             MLLS       oof
ridge_tr        ridge      train
ridge           ridge      oof
cca_ridge_train CCA+ridge  train
cca_ridge_oof   CCA+ridge  oof
svm_train       SVM        train
svm_oof         SVM        oof
aso_svm_train   ASO-SVM    train
paper_r         MLLS_paper_r    oof
noint           MLLS_no_intercept oof
r5              MLLS_r5    oof
r5_tr           MLLS_r5    train
cca_svm_train   CCA+SVM    train
cca_svm_oof     CCA+SVM    oof
cca_svm_tr      CCA+SVM_cv_train train
", header = TRUE, stringsAsFactors = FALSE)
rows <- list()
for (i in seq_len(nrow(variant_map))) {
  v <- variant_map[i, ]
  for (set in c("arts", "health")) {
    r <- yahoo[yahoo$variant == v$variant & yahoo$set == set, ]
    for (meas in c("macro_auc", "macro_f1", "micro_f1")) {
      p <- mlls_paper[mlls_paper$method == v$method & mlls_paper$measure == meas, set]
      rows[[length(rows) + 1]] <- data.frame(
        data = set, method = v$method, measure = meas, rule = v$rule,
        ours = if (nrow(r)) round(mean(r[[meas]]), 4) else NA,
        paper = if (length(p)) p else NA, splits = nrow(r),
        time_s = if (nrow(r)) round(mean(r$time_s), 1) else NA,
        chosen = if (!nrow(r) || v$method %in% c("SVM", "ASO-SVM")) NA
                 else if (v$method == "CCA+ridge") tally("lambda", r$beta)
                 else if (v$method %in% c("CCA+SVM", "CCA+SVM_cv_train"))
                   paste0(tally("lambda", r$beta), "; ", tally("C", r$cost))
                 else paste0(tally("alpha", r$alpha), "; ", tally("beta", r$beta)),
        note = paste0(
          switch(v$method, MLLS_paper_r = "the papers' r = 5 floor((m-1)/5); ",
                 MLLS_no_intercept = "the papers' r, no intercept (the papers' model literally); ",
                 MLLS_r5 = "r = 5; ", MLLS = "the package's default r = min(papers' r, ceiling(m/2)) with oof cuts, the papers' r with training cuts; ", ""),
          if (!nrow(r)) "not run; " else "",
          if (v$method == "ridge") "the paper has no plain ridge (alpha = 0 of MLLS); " else "",
          if (v$method == "ASO-SVM") "ours at alpha = 1, not tuned; " else "",
          if (v$method == "CCA+SVM_cv_train") paste0("as CCA+SVM, with the papers' cuts in ",
                                                     "the CV too (each fold model cut on its own ",
                                                     "training scores, as MLLS's train rows); ")
          else "",
          if (v$method %in% c("CCA+SVM", "CCA+SVM_cv_train"))
            paste0("cca_svm(loss = \"hinge\"), all CCA directions (r = m); lambda {1e-6..10} ",
                   "x C {1e-4..1e5} by one 5-fold CV (the papers' grids); ") else "",
          if (v$rule == "train") "thresholds: per-label F1 cuts on the training scores (the papers' rule)"
          else "thresholds: out-of-fold per-label F1 cuts (the package's default)"))
    }
  }
}
mlls_tab <- do.call(rbind, rows)
# the paper's SVMperf, for the record: not run (see the vignette)
svmperf_note <- paste0(
  "not run: SVMperf (Joachims 2005, a cutting-plane structural SVM of a multivariate loss) ",
  "is not in the package; the paper gives only C = 5000, not the loss it optimised (F1 or ",
  "ROC area), the stopping epsilon or how its outputs were cut, and no SVMperf build was ",
  "found among the Debian packages to check one against; the closest substitute here: ",
  "method SVM, rule train (LIBLINEAR-type SVM with per-label F1-optimal cuts on the ",
  "training scores)")
for (set in c("arts", "health")) {
  p <- mlls_paper[mlls_paper$method == "SVMperf", ]
  mlls_tab <- rbind(mlls_tab, data.frame(data = set, method = "SVMperf", measure = p$measure,
                                         rule = "train", ours = NA, paper = p[[set]], splits = 0,
                                         time_s = NA, chosen = NA, note = svmperf_note))
}
mlls_made <- paste0(
  "made by bench/papers_tables.R from ", paste(basename(mlls_files), collapse = ", "),
  " (bench/mlls_yahoo.R: splits 1-2 2026-11-25, CCA+SVM 2026-11-26; splits 3-",
  max(yahoo$split), " 2026-11-26 (session 39; which method ran on which split: ",
  "mlls_yahoo_splits.csv); machine vm, 2 cores shared; ",
  "splits: set.seed(2007 + s), cv folds: set.seed(100 + s))")
write_table(mlls_tab, "mlls_yahoo.csv", paste0(
  mlls_made, "; paper: TKDD 2010 Table III (30 splits, ASO-SVM 10); ",
  "ours: mean over the splits (their number in column splits); time_s: mean elapsed seconds ",
  "per split (tuning included) under load"))

# Every split's figures, for paired tests (one row per set, method, rule,
# split and measure).
long <- merge(yahoo, variant_map, by = "variant")
mlls_splits <- do.call(rbind, lapply(c("macro_auc", "macro_f1", "micro_f1"), function(meas)
  data.frame(data = long$set, method = long$method, measure = meas, rule = long$rule,
             split = long$split, ours = long[[meas]], alpha = long$alpha, beta = long$beta,
             cost = long$cost, time_s = long$time_s, cpu_s = long$cpu_s)))
mlls_splits <- mlls_splits[order(mlls_splits$data, match(mlls_splits$method, variant_map$method),
                                 mlls_splits$rule, mlls_splits$measure, mlls_splits$split), ]
write_table(mlls_splits, "mlls_yahoo_splits.csv", paste0(
  mlls_made, "; ours: the test pages' figure of one split; alpha, beta, cost: chosen by the ",
  "split's cross-validation (beta is CCA's lambda); time_s elapsed, cpu_s CPU seconds (user + ",
  "system; recorded from session 39 on) of the split, tuning included, under load"))

# Wilcoxon signed-rank tests of MLLS against each method, paired by split
# (TKDD 2010 Table V: p-values over 30 splits; Arts in column 1, Health in
# column 6).  The paper's p-values, read from the text (lines 1395-1416):
mlls_wilcox_paper <- read.table(text = "
method     measure    arts    health
CCA+ridge  macro_auc  2.80e-1 4.16e-1
CCA+SVM    macro_auc  7.51e-5 2.25e-3
SVM        macro_auc  3.11e-5 4.44e-5
CCA+ridge  macro_f1   1.73e-6 3.06e-4
CCA+SVM    macro_f1   1.73e-6 5.75e-6
SVM        macro_f1   4.72e-6 2.60e-6
CCA+ridge  micro_f1   2.35e-6 9.36e-2
CCA+SVM    micro_f1   4.72e-6 3.16e-3
SVM        micro_f1   1.73e-6 1.73e-6
", header = TRUE, stringsAsFactors = FALSE)
local({
  path <- file.path(papers_dir, "mlls-tkdd2010.txt")
  if (!file.exists(path)) return()
  txt <- readLines(path, warn = FALSE)
  t5 <- txt[grep("^Table V\\.", txt):grep("^Table VI\\.", txt)]
  for (meth in c("CCA+ridge", "CCA+SVM", "SVM")) {
    pat <- paste0("^MLLS v\\.s\\. ", sub("ridge", "Ridge", sub("+", "\\+", meth, fixed = TRUE)), " ")
    v <- do.call(rbind, lapply(strsplit(t5[grepl(pat, t5)], " "), function(z) as.numeric(tail(z, 6))))
    mine <- mlls_wilcox_paper[mlls_wilcox_paper$method == meth, ]
    stopifnot(nrow(v) == 3, all(v[, 1] == mine$arts), all(v[, 6] == mine$health))
  }
  cat("Table V checked row by row against the text\n")
})
# Ours: wilcox.test(paired = TRUE) at R's defaults (exact when there are
# fewer than 50 splits and no ties or zero differences); only with at least 6
# paired splits, the fewest whose two-sided p can fall below 0.05.
wil <- list()
for (set in c("arts", "health")) for (meas in c("macro_auc", "macro_f1", "micro_f1"))
  for (rule in c("train", "oof")) for (meth in c("ridge", "CCA+ridge", "CCA+SVM", "SVM")) {
    pick <- function(m) {
      r <- mlls_splits[mlls_splits$data == set & mlls_splits$measure == meas &
                         mlls_splits$rule == rule & mlls_splits$method == m, ]
      setNames(r$ours, r$split)
    }
    a <- pick("MLLS")
    b <- pick(meth)
    both <- intersect(names(a), names(b))
    p <- if (length(both) >= 6)
      suppressWarnings(stats::wilcox.test(a[both], b[both], paired = TRUE)$p.value) else NA
    pp <- if (rule == "train") mlls_wilcox_paper[mlls_wilcox_paper$method == meth &
                                                   mlls_wilcox_paper$measure == meas, set]
    wil[[length(wil) + 1]] <- data.frame(
      data = set, method = meth, measure = meas, rule = rule, splits = length(both),
      diff = if (length(both)) round(mean(a[both] - b[both]), 4) else NA,
      wins = sum(a[both] > b[both]), ours = signif(p, 3),
      paper = if (length(pp)) pp else NA,
      note = paste0("MLLS against ", meth, ", paired by split; diff: mean MLLS - ", meth,
                    ", wins: splits where MLLS is above",
                    if (length(both) < 6) "; ours: fewer than 6 splits, not tested" else "",
                    if (meth == "ridge") "; the paper has no plain ridge" else "",
                    if (rule == "oof") "; the paper tested its own (train) rule only" else ""))
  }
write_table(do.call(rbind, wil), "mlls_yahoo_wilcoxon.csv", paste0(
  mlls_made, "; ours: p-value of wilcox.test(paired = TRUE) of MLLS against method over the ",
  "splits both have (R's defaults: exact without ties or zeros); paper: TKDD 2010 Table V ",
  "(30 splits; its 1.73e-6 is the normal approximation's p when MLLS wins 30 of 30)"))

surf <- list()
for (f in mlls_files) {
  s <- readRDS(f)$surfaces
  for (nm in names(s)) {
    key <- strsplit(nm, " ")[[1]]
    cvm <- s[[nm]]
    g <- expand.grid(alpha = as.numeric(rownames(cvm)), beta = as.numeric(colnames(cvm)))
    surf[[length(surf) + 1]] <- data.frame(data = key[1], split = as.integer(key[2]),
                                           variant = key[3], g, cv_macro_f1 = round(c(cvm), 4))
  }
}
surf <- do.call(rbind, surf)
# splits 1-2 only: the later splits would add 56 rows per split and variant
surf <- surf[surf$variant %in% c("pkg", "paper_r", "paper_r_tr", "ridge", "ridge_tr") &
               surf$split <= 2, ]
write_table(surf, "mlls_yahoo_surface.csv", paste0(
  "made by bench/papers_tables.R from the surfaces of bench/mlls_yahoo_results*.rds ",
  "(bench/mlls_yahoo.R, 2026-11-25, machine vm; 5-fold cv after set.seed(100 + split); splits 1-2); ",
  "cv_macro_f1: mean macro F1 over the folds at (alpha, beta); variant as in bench/mlls_yahoo.R"))

# ---- MDDM -------------------------------------------------------------------
if (file.exists(file.path("bench", "mddm_results.rds"))) {
  md <- readRDS(file.path("bench", "mddm_results.rds"))
  r <- md$rows
  mddm_tab <- data.frame(data = r$data, method = r$method, measure = "macro_f1",
                         ours = r$test_macro_f1, paper = NA, chosen = r$chosen,
                         cv_macro_f1 = r$cv_macro_f1, time_s = r$seconds,
                         note = paste("test part; parameters by 5-fold CV on the training part;",
                                      "thresholds from the training scores; no paper figure",
                                      "(the SSMDDM paper's results are not in ../shared/papers)"))
  write_table(mddm_tab, "mddm.csv", paste0(
    "made by bench/papers_tables.R from bench/mddm_results.rds (bench/mddm.R part 2, ",
    md$date, ", machine ", md$machine, "; folds: ", md$seed,
    "; yeast: Mulan's split; yahoo_arts: 1000 training pages after set.seed(2008))"))
} else cat("bench/mddm_results.rds not found: run MDDM_BENCH_PARTS=2 Rscript bench/mddm.R\n")

# ---- LEWL ---------------------------------------------------------------------
# The LEWL paper (2020), Tables 2-4 (recovery) and 6-8 (prediction): mean of
# 5 folds, columns LEWL MLML LRML CPLST BR.  Read from lewl-nju2020.txt
# (lines 281-425); every mean was legible.  Some standard deviations carry a
# stray digit in the text (0.920 +- 0.0044, 0.716 +- 0.01999, 0.729 +- 0.0222,
# 0.262 +- 0.0121, 0.259 +- 0.0055, 0.059 +- 0.0120.): only the means are
# transcribed.  Langlog and Corel5k are left out (not run here).
lewl_txt <- "
table measure data rate LEWL MLML LRML CPLST BR
recovery average_precision emotions 0.3 0.918 0.920 0.843 0.886 0.886
recovery average_precision emotions 0.7 0.839 0.846 0.772 0.781 0.781
recovery average_precision yeast 0.3 0.894 0.891 0.792 0.869 0.869
recovery average_precision yeast 0.7 0.811 0.805 0.716 0.738 0.738
recovery average_precision cal500 0.3 0.832 0.791 0.784 0.816 0.816
recovery average_precision cal500 0.7 0.663 0.633 0.652 0.623 0.623
recovery average_precision medical 0.3 0.790 0.776 0.772 0.766 0.766
recovery average_precision medical 0.7 0.602 0.588 0.531 0.542 0.542
recovery average_precision enron 0.3 0.819 0.823 0.764 0.795 0.795
recovery average_precision enron 0.7 0.632 0.667 0.543 0.585 0.585
recovery macro_f1 emotions 0.3 0.882 0.905 0.857 0.847 0.847
recovery macro_f1 emotions 0.7 0.775 0.801 0.814 0.666 0.666
recovery macro_f1 yeast 0.3 0.883 0.874 0.805 0.850 0.850
recovery macro_f1 yeast 0.7 0.749 0.738 0.717 0.660 0.660
recovery macro_f1 cal500 0.3 0.845 0.776 0.755 0.849 0.849
recovery macro_f1 cal500 0.7 0.667 0.633 0.643 0.657 0.657
recovery macro_f1 medical 0.3 0.804 0.783 0.755 0.796 0.796
recovery macro_f1 medical 0.7 0.566 0.593 0.565 0.557 0.557
recovery macro_f1 enron 0.3 0.845 0.822 0.754 0.822 0.822
recovery macro_f1 enron 0.7 0.633 0.648 0.630 0.651 0.651
recovery ranking_loss emotions 0.3 0.132 0.133 0.229 0.262 0.262
recovery ranking_loss emotions 0.7 0.274 0.271 0.324 0.498 0.498
recovery ranking_loss yeast 0.3 0.116 0.138 0.209 0.261 0.261
recovery ranking_loss yeast 0.7 0.227 0.258 0.288 0.502 0.502
recovery ranking_loss cal500 0.3 0.130 0.239 0.249 0.259 0.259
recovery ranking_loss cal500 0.7 0.248 0.394 0.339 0.503 0.503
recovery ranking_loss medical 0.3 0.107 0.254 0.155 0.257 0.257
recovery ranking_loss medical 0.7 0.148 0.444 0.205 0.505 0.505
recovery ranking_loss enron 0.3 0.129 0.191 0.213 0.257 0.257
recovery ranking_loss enron 0.7 0.272 0.363 0.291 0.513 0.513
prediction average_precision emotions 0.3 0.732 0.716 0.729 0.662 0.645
prediction average_precision emotions 0.7 0.708 0.687 0.682 0.558 0.568
prediction average_precision yeast 0.3 0.708 0.654 0.441 0.587 0.573
prediction average_precision yeast 0.7 0.698 0.648 0.440 0.448 0.450
prediction average_precision cal500 0.3 0.365 0.310 0.202 0.248 0.248
prediction average_precision cal500 0.7 0.369 0.307 0.197 0.170 0.175
prediction average_precision medical 0.3 0.805 0.734 0.775 0.675 0.289
prediction average_precision medical 0.7 0.718 0.685 0.721 0.332 0.112
prediction average_precision enron 0.3 0.536 0.395 0.348 0.331 0.296
prediction average_precision enron 0.7 0.493 0.346 0.252 0.213 0.197
prediction macro_f1 emotions 0.3 0.606 0.576 0.616 0.429 0.389
prediction macro_f1 emotions 0.7 0.596 0.523 0.610 0.152 0.160
prediction macro_f1 yeast 0.3 0.461 0.334 0.367 0.251 0.234
prediction macro_f1 yeast 0.7 0.452 0.313 0.366 0.058 0.062
prediction macro_f1 cal500 0.3 0.234 0.073 0.212 0.035 0.046
prediction macro_f1 cal500 0.7 0.232 0.066 0.205 0.008 0.015
prediction macro_f1 medical 0.3 0.358 0.311 0.325 0.310 0.098
prediction macro_f1 medical 0.7 0.306 0.258 0.287 0.171 0.010
prediction macro_f1 enron 0.3 0.166 0.065 0.120 0.063 0.042
prediction macro_f1 enron 0.7 0.149 0.051 0.101 0.022 0.013
prediction ranking_loss emotions 0.3 0.446 0.509 0.441 0.692 0.731
prediction ranking_loss emotions 0.7 0.457 0.561 0.453 0.924 0.915
prediction ranking_loss yeast 0.3 0.385 0.484 0.709 0.652 0.679
prediction ranking_loss yeast 0.7 0.401 0.496 0.722 0.940 0.933
prediction ranking_loss cal500 0.3 0.461 0.577 0.518 0.890 0.885
prediction ranking_loss cal500 0.7 0.457 0.584 0.528 0.972 0.969
prediction ranking_loss medical 0.3 0.139 0.476 0.302 0.345 0.785
prediction ranking_loss medical 0.7 0.168 0.529 0.347 0.462 0.977
prediction ranking_loss enron 0.3 0.315 0.500 0.548 0.792 0.835
prediction ranking_loss enron 0.7 0.349 0.569 0.771 0.948 0.967
"
lewl_paper <- read.table(text = lewl_txt, header = TRUE, stringsAsFactors = FALSE)
check_in_text(unlist(lewl_paper[, c("LEWL", "MLML", "LRML", "CPLST", "BR")]), "lewl-nju2020.txt")
# and row by row: each table's 14 lines (7 sets x 2 rates), the means before
# each "+-" sign.
local({
  path <- file.path(papers_dir, "lewl-nju2020.txt")
  if (!file.exists(path)) return()
  txt <- readLines(path, warn = FALSE)
  sets_txt <- c("emotions", "yeast", "cal500", "medical", "langlog", "enron", "corel5k")
  tabs <- c(average_precision = 2, macro_f1 = 3, ranking_loss = 4)
  for (kind in c("recovery", "prediction")) for (meas in names(tabs)) {
    no <- tabs[[meas]] + if (kind == "prediction") 4 else 0
    at <- grep(sprintf("^Table %d[^0-9]", no), txt)
    body <- txt[(at + 3):(at + 16)]
    means <- lapply(regmatches(body, gregexpr("0\\.[0-9]{1,3}(?=\u00b1)", body, perl = TRUE)),
                    as.numeric)
    for (i in seq_along(body)) {
      set <- sets_txt[(i + 1) %/% 2]
      rt <- if (i %% 2) 0.3 else 0.7
      mine <- lewl_paper[lewl_paper$table == kind & lewl_paper$measure == meas &
                           lewl_paper$data == set & lewl_paper$rate == rt, ]
      if (!nrow(mine)) next
      if (!isTRUE(all.equal(unname(unlist(mine[, 5:9])), means[[i]])))
        stop("Table ", no, " ", set, " ", rt, ": ", paste(means[[i]], collapse = " "))
    }
  }
  cat("Tables 2-4, 6-8 checked row by row against the text\n")
})

# Our figures: the tables of bench/missing_labels_results.md after the line
# "## With LEWL, after the merges", lines "data rate measure v (sd) [paper] ...".
md_lines <- readLines(file.path("bench", "missing_labels_results.md"))
md_lines <- md_lines[seq(grep("^## With LEWL, after the merges", md_lines), length(md_lines))]
section <- NA
cols <- NULL
ours <- list()
for (ln in md_lines) {
  if (grepl("^###", ln)) {
    section <- if (grepl("^### (recovery_hidden|recovery_whole|prediction)", ln))
      sub("^### (\\w+).*", "\\1", ln) else NA
    next
  }
  if (grepl("^ dataset +rate +measure", ln)) {
    cols <- strsplit(trimws(ln), " +")[[1]][-(1:3)]
    next
  }
  if (is.na(section) || !grepl("^ \\w+ +0\\.[0-9] +\\w+ +[0-9]", ln)) next
  key <- strsplit(trimws(ln), " +")[[1]][1:3]
  vals <- regmatches(ln, gregexpr("[0-9.]+ \\([0-9.]+\\)", ln))[[1]]
  mean_sd <- do.call(rbind, lapply(strsplit(gsub("[()]", "", vals), " "), as.numeric))
  ours[[length(ours) + 1]] <- data.frame(section = section, data = key[1], rate = as.numeric(key[2]),
                                         measure = key[3], method = toupper(cols),
                                         ours = mean_sd[, 1], sd = mean_sd[, 2])
}
ours <- do.call(rbind, ours)
long_paper <- do.call(rbind, lapply(c("LEWL", "MLML", "LRML", "CPLST", "BR"), function(meth)
  data.frame(lewl_paper[, c("table", "measure", "data", "rate")], method = meth,
             paper = lewl_paper[[meth]])))

# Today's figures: bench/lewl_tables.R's per-fold results, one file per (set,
# rate) in bench/lewl_tables_runs (current defaults: LEWL's k = m, MLML's
# gamma = 0.01; recovered entries also cut by the prevalence rule,
# macro_f1_prev).  A (set, rate, method) cell it has not run keeps the old
# figure of bench/missing_labels_results.md, said so in its note.
run_files <- list.files(file.path("bench", "lewl_tables_runs"), "\\.rds$", full.names = TRUE)
runs <- do.call(rbind, lapply(run_files, function(f) readRDS(f)$rows))
run_dates <- vapply(run_files, function(f) readRDS(f)$date, "")
new_ours <- NULL
if (!is.null(runs)) {
  runs$method <- toupper(runs$method)
  a <- aggregate(value ~ data + rate + method + what + measure, runs,
                 function(v) c(mean = mean(v), sd = if (length(v) > 1) stats::sd(v) else NA,
                               folds = length(v)))
  new_ours <- data.frame(section = a$what, data = a$data, rate = a$rate, measure = a$measure,
                         method = a$method, ours = round(a$value[, "mean"], 4),
                         sd = round(a$value[, "sd"], 4), folds = a$value[, "folds"])
  # only cells with all 5 folds replace the old run's (a resumed run
  # completes the others)
  part <- new_ours[new_ours$folds < 5, ]
  if (nrow(part)) cat("lewl_tables: left out (not all folds yet):",
                      paste(unique(paste(part$data, part$rate, part$method, part$folds)),
                            collapse = "; "), "\n")
  new_ours <- new_ours[new_ours$folds == 5, ]
}
old_tag <- paste0("; old run (2026-11-24, bench/missing_labels.R: LEWL k = ceiling(m/2), ",
                  "MLML gamma = 0.1)")

lewl_table <- function(tab_name, sections) {
  p <- long_paper[long_paper$table == tab_name & long_paper$method != "LRML", ]
  res <- list()
  for (sec in sections) {
    o <- ours[ours$section == sec, ]
    m <- merge(p[, c("data", "rate", "measure", "method", "paper")],
               o[, c("data", "rate", "measure", "method", "ours", "sd")],
               by = c("data", "rate", "measure", "method"), all.x = TRUE)
    m$run <- old_tag
    if (!is.null(new_ours)) {
      n <- new_ours[new_ours$section == sec, ]
      cell <- paste(n$data, n$rate, n$method)
      is_new <- paste(m$data, m$rate, m$method) %in% cell
      # the cells of the new run replace the old ones, its extra measures join
      m <- m[!is_new, ]
      n <- merge(n, p[, c("data", "rate", "measure", "method", "paper")],
                 by = c("data", "rate", "measure", "method"), all.x = TRUE)
      n$run <- "; current defaults (bench/lewl_tables.R)"
      m <- rbind(m, n[, names(m)])
    }
    if (sec == "recovery_hidden") {
      m$measure <- paste0(m$measure, "_hidden")
      m$paper <- NA
    }
    m$note <- paste0(switch(sec,
      recovery_whole = "the training folds' whole label matrix, observed entries kept as observed",
      recovery_hidden = "the hidden entries alone (no paper figure: the paper scores the whole matrix)",
      prediction = "the held-out fold, all its labels"),
      ifelse(grepl("^macro_f1_prev", m$measure),
             ", hidden entries cut to their label's observed positive rate", ""), m$run)
    res[[sec]] <- m
  }
  res <- do.call(rbind, res)
  res <- res[order(res$data, res$rate, res$measure, match(res$method, c("LEWL", "BR", "CPLST", "MLML"))), ]
  data.frame(data = res$data, method = res$method, measure = res$measure, rate = res$rate,
             ours = res$ours, sd = res$sd, paper = res$paper, note = res$note)
}
lewl_made <- paste0(
  "made by bench/papers_tables.R from bench/lewl_tables_runs/*.rds (bench/lewl_tables.R, ",
  "runs ending %s, machine vm; mask_labels(seed = 2020), 5 folds set.seed(2020); lewl() and ",
  "mlml() at their current defaults) and, for the cells it did not run (see note), ",
  "bench/missing_labels_results.md, section 'With LEWL, after the merges' (bench/missing_labels.R, ",
  "2026-11-24, the same masks and folds, LEWL k = ceiling(m/2), MLML gamma = 0.1); ",
  "ours: mean over folds, sd over folds; paper: LEWL paper (2020) %s")
last_run <- if (length(run_dates)) max(run_dates) else "(none)"
write_table(lewl_table("recovery", c("recovery_whole", "recovery_hidden")), "lewl_recovery.csv",
            sprintf(lewl_made, last_run, "Tables 2-4"))
write_table(lewl_table("prediction", "prediction"), "lewl_prediction.csv",
            sprintf(lewl_made, last_run, "Tables 6-8"))

# Measures and protocol (bench/lewl_measures.R)
lm_file <- file.path("bench", "lewl_measures_results.rds")
if (file.exists(lm_file)) {
  lm_res <- readRDS(lm_file)
  r <- lm_res$rows
  agg <- aggregate(cbind(value, time_s) ~ data + rate + method + measure, r, mean)
  nf <- aggregate(fold ~ data + rate + method + measure, r, length)
  agg$folds <- nf$fold[match(do.call(paste, agg[, 1:4]), do.call(paste, nf[, 1:4]))]
  paper_of <- function(d, rt, meth, meas) {
    pm <- switch(meth, br = , br_half = "BR", lewl = , lewl_label = "LEWL")
    pmeas <- switch(meas, ranking_loss_01 = "ranking_loss", macro_f1 = "macro_f1",
                    average_precision = "average_precision", NA)
    if (is.na(pmeas)) return(NA)
    v <- long_paper$paper[long_paper$table == "prediction" & long_paper$data == d &
                            long_paper$rate == rt & long_paper$method == pm &
                            long_paper$measure == pmeas]
    if (length(v)) v else NA
  }
  agg$paper <- mapply(paper_of, agg$data, agg$rate, agg$method, agg$measure)
  agg$note <- ifelse(agg$measure == "ranking_loss_01",
                     "ranking loss of the 0/1 outputs (ties are errors): the paper's Table 8",
              ifelse(agg$measure == "ranking_loss", "ranking loss of the scores (paper: no such figure)",
              ifelse(agg$measure %in% c("macro_f1_drop", "macro_f1_zero"),
                     "macro F1 with a label absent from the test fold left out (drop) or counted 0 (zero)",
                     "")))
  agg$paper[agg$measure == "ranking_loss"] <- NA
  tab <- data.frame(data = agg$data, method = agg$method, measure = agg$measure, rate = agg$rate,
                    ours = round(agg$value, 4), paper = agg$paper, folds = agg$folds,
                    time_s = round(agg$time_s, 1), note = agg$note)
  tab <- tab[order(tab$data, tab$rate, tab$measure, tab$method), ]
  write_table(tab, "lewl_measures.csv", paste0(
    "made by bench/papers_tables.R from bench/lewl_measures_results.rds (bench/lewl_measures.R, ",
    lm_res$date, ", machine ", lm_res$machine, "; folds: set.seed(1), sample(rep(1:5)); ",
    "mask_labels(seed = fold)); ours: mean over the folds; paper: Tables 6-8 (BR, LEWL)"))
} else cat(lm_file, "not found: run bench/lewl_measures.R\n")

# ---- MLLS scalability (bench/mlls_scalability.R) --------------------------------
# TKDD 2010 Figures 1-2: time against the number of training pages; the
# paper's figures are plots (no numbers to transcribe), so `paper` is empty.
# (the fixed fits and the tuning may have run in two processes, each with its
# own file: bench/mlls_scalability_results*.rds)
sc_files <- list.files("bench", "^mlls_scalability_results.*\\.rds$", full.names = TRUE)
sc_file <- file.path("bench", "mlls_scalability_results*.rds")
if (length(sc_files)) {
  scs <- lapply(sc_files, readRDS)
  sc <- scs[[1]]
  sc$date <- max(vapply(scs, function(z) z$date, ""))
  r <- do.call(rbind, lapply(scs, function(z) z$rows))
  r <- r[order(r$kind, r$method, r$n_train), ]
  ld <- round(range(as.numeric(sub(" .*", "", r$load))))
  tab <- data.frame(data = r$data, method = r$method, n_train = r$n_train,
                    measure = paste0("cpu_s_", r$kind), ours = r$cpu_s, elapsed_s = r$elapsed_s,
                    paper = NA,
                    note = ifelse(r$kind == "fixed",
                                  "one fit at a fixed parameter setting",
                                  "5-fold cross-validation over the grid, refit included"))
  write_table(tab, "mlls_scalability.csv", paste0(
    "made by bench/papers_tables.R from ", sc_file, " (bench/mlls_scalability.R, ", sc$date,
    ", machine ", sc$machine, ", 2 cores shared, load average ", ld[1], "-", ld[2],
    " at the timings; yahoo_", r$data[1], " with the papers' ",
    "protocol, ", sc$words, " words, ", sc$labels, " labels, r = ", sc$r,
    "; pages set.seed(2010 + n), folds set.seed(100 + n)); ours: CPU seconds of the R process"))
} else cat(sc_file, "not found: run bench/mlls_scalability.R\n")
