# The stored result tables of the paper vignettes (inst/papers, written by
# bench/papers_tables.R and the MLCRF benches): their documented columns,
# their first line, a few of the papers' figures transcribed independently
# here from the papers' text, and the figures quoted in the vignettes' prose.

papers_dir <- function() system.file("papers", package = "mlss")

read_stored <- function(f) utils::read.csv(file.path(papers_dir(), f), comment.char = "#",
                                           stringsAsFactors = FALSE)

# The documented columns of each table (inst/papers; the vignettes read them).
documented <- list(
  mlls_yahoo.csv = c("data", "method", "measure", "rule", "ours", "paper", "splits", "time_s",
                     "chosen", "note"),
  mlls_yahoo_surface.csv = c("data", "split", "variant", "alpha", "beta", "cv_macro_f1"),
  mlls_yahoo_splits.csv = c("data", "method", "measure", "rule", "split", "ours", "alpha", "beta",
                            "cost", "time_s", "cpu_s"),
  mlls_yahoo_wilcoxon.csv = c("data", "method", "measure", "rule", "splits", "diff", "wins",
                              "ours", "paper", "note"),
  mddm.csv = c("data", "method", "measure", "ours", "paper", "chosen", "cv_macro_f1", "time_s",
               "note"),
  lewl_recovery.csv = c("data", "method", "measure", "rate", "ours", "sd", "paper", "note"),
  lewl_prediction.csv = c("data", "method", "measure", "rate", "ours", "sd", "paper", "note"),
  lewl_measures.csv = c("data", "method", "measure", "rate", "ours", "paper", "folds", "time_s",
                        "note"),
  mlcrf_tables.csv = c("data", "method", "measure", "ours", "paper", "folds", "note"),
  mlcrf_structure.csv = c("design", "labels", "rule", "recovered", "seeds"),
  mlcrf_structure_endtoend.csv = c("prune", "rows", "coupling", "design", "labels", "recovered",
                                   "seeds"),
  mlls_scalability.csv = c("data", "method", "n_train", "measure", "ours", "elapsed_s", "paper",
                           "note"))

test_that("every stored table has its documented columns and a 'made by' first line", {
  dir <- papers_dir()
  skip_if(!nzchar(dir), "inst/papers is not installed")
  files <- list.files(dir, "\\.csv$")
  expect_true(all(c("mlls_yahoo.csv", "lewl_recovery.csv", "lewl_prediction.csv") %in% files))
  for (f in files) {
    first <- readLines(file.path(dir, f), n = 1)
    expect_match(first, "^# made by \\S+", info = f)
    tab <- read_stored(f)
    want <- documented[[f]]
    if (is.null(want)) want <- c("data", "method", "measure", "ours", "paper", "note")
    expect_identical(names(tab), want, info = f)
    expect_gt(nrow(tab), 0)
    for (col in intersect(c("ours", "paper", "cv_macro_f1"), names(tab))) {
      expect_true(is.numeric(tab[[col]]) || all(is.na(tab[[col]])), info = paste(f, col))
      expect_true(all(is.na(tab[[col]]) | is.finite(tab[[col]])), info = paste(f, col))
    }
  }
})

test_that("the measures of the stored tables lie in [0, 1] and their keys are unique", {
  dir <- papers_dir()
  skip_if(!nzchar(dir), "inst/papers is not installed")
  for (f in c("mlls_yahoo.csv", "mlls_yahoo_splits.csv", "mlls_yahoo_wilcoxon.csv",
              "lewl_recovery.csv", "lewl_prediction.csv")) {
    tab <- read_stored(f)
    v <- c(tab$ours, tab$paper)
    expect_true(all(is.na(v) | (v >= 0 & v <= 1)), info = f)
    key <- intersect(c("data", "method", "measure", "rule", "rate", "split"), names(tab))
    expect_false(anyDuplicated(do.call(paste, tab[key])) > 0, info = f)
  }
})

test_that("the papers' figures in the stored tables are the papers'", {
  dir <- papers_dir()
  skip_if(!nzchar(dir), "inst/papers is not installed")
  # Read off the papers' tables independently of bench/papers_tables.R.
  # MLLS, TKDD 2010 Table III (Arts, Health).
  y <- read_stored("mlls_yahoo.csv")
  fig <- function(tab, ...) {
    key <- list(...)
    keep <- rep(TRUE, nrow(tab))
    for (k in names(key)) keep <- keep & tab[[k]] == key[[k]]
    unique(tab$paper[keep])
  }
  expect_equal(fig(y, data = "health", method = "MLLS", measure = "macro_f1"), 0.5971)
  expect_equal(fig(y, data = "arts", method = "MLLS", measure = "macro_auc"), 0.7611)
  expect_equal(fig(y, data = "arts", method = "SVM", measure = "micro_f1"), 0.4134)
  expect_equal(fig(y, data = "health", method = "ASO-SVM", measure = "macro_f1"), 0.5814)
  expect_equal(fig(y, data = "arts", method = "CCA+ridge", measure = "macro_f1"), 0.3176)
  expect_equal(fig(y, data = "health", method = "CCA+SVM", measure = "macro_f1"), 0.5689)
  expect_equal(fig(y, data = "arts", method = "SVMperf", measure = "micro_f1"), 0.4087)
  # SVMperf is not run here: its rows carry the paper's figures only
  expect_true(all(is.na(y$ours[y$method == "SVMperf"])))
  expect_true(all(is.na(y$paper[y$method == "ridge"])))
  # LEWL (2020), Table 7 (prediction macro F1) and Table 3 (recovery macro F1),
  # columns LEWL MLML LRML CPLST BR.
  p <- read_stored("lewl_prediction.csv")
  expect_equal(fig(p, data = "yeast", method = "LEWL", measure = "macro_f1", rate = 0.3), 0.461)
  expect_equal(fig(p, data = "medical", method = "BR", measure = "macro_f1", rate = 0.3), 0.098)
  expect_equal(fig(p, data = "medical", method = "CPLST", measure = "macro_f1", rate = 0.7), 0.171)
  expect_equal(fig(p, data = "enron", method = "MLML", measure = "ranking_loss", rate = 0.7), 0.569)
  expect_equal(fig(p, data = "cal500", method = "LEWL", measure = "average_precision", rate = 0.7),
               0.369)
  r <- read_stored("lewl_recovery.csv")
  expect_equal(fig(r, data = "emotions", method = "MLML", measure = "macro_f1", rate = 0.3), 0.905)
  expect_equal(fig(r, data = "yeast", method = "LEWL", measure = "ranking_loss", rate = 0.7), 0.227)
  # the paper's BR and CPLST recoveries are identical, in every row
  br <- r[r$method == "BR" & !is.na(r$paper), ]
  cp <- r[r$method == "CPLST" & !is.na(r$paper), ]
  expect_equal(br$paper[order(br$data, br$rate, br$measure)],
               cp$paper[order(cp$data, cp$rate, cp$measure)])
  expect_true(all(is.na(r$paper[grepl("_hidden$", r$measure)])))
})

test_that("the MLLS table's means and tests are those of its per-split figures", {
  dir <- papers_dir()
  skip_if(!nzchar(dir), "inst/papers is not installed")
  y <- read_stored("mlls_yahoo.csv")
  sp <- read_stored("mlls_yahoo_splits.csv")
  # every mean, and its number of splits, recomputed from the splits
  run <- y[y$splits > 0, ]
  for (i in seq_len(nrow(run))) {
    v <- sp$ours[sp$data == run$data[i] & sp$method == run$method[i] &
                   sp$measure == run$measure[i] & sp$rule == run$rule[i]]
    expect_length(v, run$splits[i])
    expect_equal(run$ours[i], round(mean(v), 4), tolerance = 1e-12,
                 info = paste(run$data[i], run$method[i], run$measure[i], run$rule[i]))
  }
  expect_identical(nrow(sp), sum(run$splits))
  # splits 1 and 2 are those of the first run (bench/mlls_yahoo_results.md, per-line table)
  fig <- function(set, method, rule, split, measure = "macro_f1")
    sp$ours[sp$data == set & sp$method == method & sp$rule == rule & sp$split == split &
              sp$measure == measure]
  expect_equal(fig("arts", "MLLS", "oof", 1), 0.3893)
  expect_equal(fig("arts", "SVM", "oof", 1), 0.3909)
  expect_equal(fig("health", "MLLS", "train", 2), 0.5993)
  expect_equal(fig("health", "SVM", "train", 2, "micro_f1"), 0.6753)
  # the Wilcoxon p-values: wilcox.test(paired = TRUE) of MLLS against the
  # method on the splits both have, paired by split number
  w <- read_stored("mlls_yahoo_wilcoxon.csv")
  tested <- w[!is.na(w$ours), ]
  expect_gt(nrow(tested), 0)
  for (i in seq_len(nrow(tested))) {
    get <- function(m) {
      r <- sp[sp$data == tested$data[i] & sp$measure == tested$measure[i] &
                sp$rule == tested$rule[i] & sp$method == m, ]
      r[order(r$split), c("split", "ours")]
    }
    both <- merge(get("MLLS"), get(tested$method[i]), by = "split")
    expect_identical(nrow(both), tested$splits[i])
    p <- suppressWarnings(wilcox.test(both$ours.x, both$ours.y, paired = TRUE)$p.value)
    expect_equal(tested$ours[i], signif(p, 3), info = paste(tested[i, 1:4], collapse = " "))
    expect_equal(tested$diff[i], round(mean(both$ours.x - both$ours.y), 4))
    expect_identical(tested$wins[i], sum(both$ours.x > both$ours.y))
  }
  # TKDD 2010 Table V (Arts in the first column, Health in the sixth), for
  # the papers' rule; none for ridge or the out-of-fold rule
  pv <- function(set, method, measure)
    w$paper[w$data == set & w$method == method & w$measure == measure & w$rule == "train"]
  expect_equal(pv("arts", "CCA+ridge", "macro_auc"), 0.280)
  expect_equal(pv("health", "SVM", "macro_f1"), 2.60e-6)
  expect_equal(pv("health", "CCA+ridge", "micro_f1"), 9.36e-2)
  expect_equal(pv("arts", "CCA+SVM", "macro_f1"), 1.73e-6)
  expect_true(all(is.na(w$paper[w$method == "ridge" | w$rule == "oof"])))
})

# The prose of a vignette: without its code chunks and inline code.
vignette_prose <- function(path) {
  lines <- readLines(path, warn = FALSE)
  fence <- cumsum(grepl("^```", lines)) %% 2 == 1 | grepl("^```", lines)
  header <- seq_len(max(which(lines == "---")[1:2]))
  txt <- paste(lines[!fence & !seq_along(lines) %in% header], collapse = " ")
  gsub("`r [^`]*`", " ", txt)
}

test_that("the figures written in the vignettes' prose come from the stored tables", {
  dir <- papers_dir()
  skip_if(!nzchar(dir), "inst/papers is not installed")
  vdir <- file.path("..", "..", "vignettes")
  skip_if(!dir.exists(vdir), "the vignettes' sources are not here")
  vigs <- list.files(vdir, "^paper-.*\\.Rmd$", full.names = TRUE)
  expect_length(vigs, 4)
  stored <- unlist(lapply(list.files(dir, "\\.csv$"), function(f) {
    tab <- read_stored(f)
    unlist(lapply(tab[vapply(tab, is.numeric, TRUE)], function(v) v[!is.na(v)]))
  }))
  known <- unique(c(sprintf("%.3f", stored), sprintf("%.4f", stored)))
  for (v in vigs) {
    prose <- vignette_prose(v)
    figs <- regmatches(prose, gregexpr("(?<![0-9.])[0-9]+\\.[0-9]{3,}(?![0-9])", prose, perl = TRUE))[[1]]
    expect_true(all(figs %in% known),
                info = paste(basename(v), "quotes", paste(setdiff(figs, known), collapse = ", ")))
    # every table a vignette reads is stored (MLCRF's: written by its benches, may be absent)
    read <- regmatches(prose <- paste(readLines(v, warn = FALSE), collapse = " "),
                       gregexpr("read_paper\\(\"[^\"]+\"\\)", prose))[[1]]
    files <- sub("read_paper\\(\"([^\"]+)\"\\)", "\\1", read)
    missing <- setdiff(files[!grepl("^mlcrf_", files)], list.files(dir))
    expect_identical(missing, character(0), info = basename(v))
  }
})
