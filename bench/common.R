# Shared by the bench scripts: where the data are, the papers' text protocol,
# and a timer.  Scripts run from the package root with the package installed
# (make bench), and need ../shared/data (or MLSS_SHARED pointing at it).
library(mlss)
library(Matrix)
options(width = 150)

shared_data <- function(...) {  # a path below ../shared/data
  root <- Sys.getenv("MLSS_SHARED", file.path("..", "shared"))
  path <- file.path(root, "data", ...)
  if (!file.exists(path)) stop("bench needs ", path, " (set MLSS_SHARED to the shared folder)")
  path
}

# The MLLS papers' protocol for the Yahoo collections: labels with >= 100
# pages, words in >= 5 pages, pages with a label, TF-IDF, unit-length rows;
# n_train random pages for training, the rest for testing.
load_yahoo <- function(name = "arts", n_train = 1000, seed = 2008) {
  file <- shared_data("yahoo", paste0("yahoo_", name, ".arff"))
  raw <- read_mulan(file, sub("\\.arff$", ".xml", file))
  d <- tfidf(raw, min_positives = 100, min_docs = 5)
  set.seed(seed)
  d$train <- seq_len(nrow(d$x)) %in% sample.int(nrow(d$x), n_train)
  d$name <- paste0("yahoo_", name)
  d
}

# CPU seconds (user + system) of this process and its children in a
# proc_time (proc.time(), system.time() or a difference of two), and so far.
proc_cpu <- function(t) sum(t[c("user.self", "sys.self", "user.child", "sys.child")], na.rm = TRUE)
cpu_seconds <- function() proc_cpu(proc.time())

# Median elapsed seconds of `reps` evaluations of expr.
elapsed <- function(expr, reps = 1) {
  expr <- substitute(expr)
  env <- parent.frame()
  median(vapply(seq_len(reps), function(i) {
    gc(FALSE)
    system.time(eval(expr, env))[["elapsed"]]
  }, 0))
}

# The sets the defaults are chosen on (bench/defaults.R, bench/lewl_default_k.R):
# the bundled ones with their Mulan train/test split, and medical and enron
# from ../shared with a seeded 2/3 : 1/3 split (those of `want` found there).
# Each element: x, y and the logical `train`.
default_sets <- function(want = c("emotions", "scene", "yeast", "medical", "enron")) {
  data(list = c("emotions", "scene", "yeast"), package = "mlss", envir = environment())
  sets <- list(emotions = emotions, scene = scene, yeast = yeast)
  for (nm in intersect(c("medical", "enron"), want)) {
    f <- shared_data("mulan", nm, paste0(nm, ".arff"))
    if (!file.exists(f)) next
    d <- mlss::read_mulan(f, xml = sub("\\.arff$", ".xml", f))
    set.seed(1)
    tr <- seq_len(nrow(d$x)) %in% sample(nrow(d$x), round(0.67 * nrow(d$x)))
    sets[[nm]] <- list(x = d$x, y = d$y, train = tr)
  }
  sets[intersect(want, names(sets))]
}

# A set's labels with at least one positive and one negative training row.
trainable_labels <- function(d) {
  ytr <- d$y[d$train, , drop = FALSE]
  d$y[, colSums(ytr) > 0 & colSums(ytr) < nrow(ytr), drop = FALSE]
}

# The Mulan sets of the weak-label benches (LEWL paper), read from ../shared
# with dense features standardised (constant columns to 0) and sparse ones as
# they are: bench/missing_labels.R and bench/lewl_tables.R; scene (its training
# part) for bench/lewl_beta_grid.R and bench/lewl_beta0.R.
weak_label_files <- list(emotions = c("emotions", "emotions.arff", "emotions.xml"),
                         yeast = c("yeast", "yeast.arff", "yeast.xml"),
                         medical = c("medical", "medical.arff", "medical.xml"),
                         enron = c("enron", "enron.arff", "enron.xml"),
                         corel5k = c("corel5k", "Corel5k-sparse.arff", "Corel5k.xml"),
                         cal500 = c("cal500", "cal500.arff", "cal500.xml"),
                         scene = c("scene", "scene-train.arff", "scene.xml"))  # its training part
load_weak_label_set <- function(name) {
  f <- weak_label_files[[name]]
  d <- read_mulan(shared_data("mulan", f[1], f[2]), shared_data("mulan", f[1], f[3]))
  x <- d$x
  if (!inherits(x, "sparseMatrix")) {
    x <- scale(x)
    x[, !is.finite(colSums(x))] <- 0          # constant columns
  }
  list(x = x, y = d$y)
}

# The rows of cv_lewl()'s beta-grid benches (bench/lewl_beta_grid.R,
# bench/lewl_beta0.R): emotions all 593, scene, yeast and enron the first
# 1000, medical 978 (at most `cap`); labels without a positive dropped; 30%
# of the label entries hidden (mask_labels(by = "entry", seed = 1)).
lewl_grid_rows <- c(emotions = 593, scene = 1000, yeast = 1000, medical = 978, enron = 1000)
load_lewl_grid_set <- function(name, cap = Inf) {
  d <- load_weak_label_set(name)
  n <- min(lewl_grid_rows[[name]], nrow(d$x), cap)
  x <- d$x[seq_len(n), , drop = FALSE]
  y <- d$y[seq_len(n), , drop = FALSE]
  y <- y[, colSums(y) > 0, drop = FALSE]
  list(x = x, y = mlss::mask_labels(y, 0.3, by = "entry", seed = 1)$y, truth = y > 0)
}

# A whole Mulan set from ../shared/data/mulan/<name>: its one .arff that is
# not a -train or -test part, with its .xml.
load_mulan_set <- function(name) {
  dir <- shared_data("mulan", name)
  arff <- list.files(dir, "\\.arff$", full.names = TRUE)
  arff <- arff[!grepl("-(train|test)\\.arff$", arff)][1]
  read_mulan(arff, list.files(dir, "\\.xml$", full.names = TRUE)[1])
}

# LEWL's recovery measures on the hidden entries (the paper's Table 2
# protocol): average precision over the hidden entries, micro AUC over all of
# them, macro AUC over the labels with hidden positives and negatives.
hidden_entry_measures <- function(ytrue, hidden, score) {
  yh <- ytrue
  yh[!hidden] <- NA
  ap <- ml_metrics(yh, score = score, measures = "average_precision")[[1]]
  micro <- ml_metrics(matrix(ytrue[hidden]), score = matrix(score[hidden]),
                      measures = "micro_auc")[[1]]
  c(ap = ap, micro_auc = micro, macro_auc = hidden_macro_auc(ytrue, hidden, score))
}

# The macro AUC of the hidden entries over the labels with at least
# `min_positives` hidden positives and a hidden negative.
hidden_macro_auc <- function(ytrue, hidden, score, min_positives = 1) {
  yh <- ytrue
  yh[!hidden] <- NA
  keep <- colSums(hidden & ytrue) >= min_positives & colSums(hidden & !ytrue) > 0
  ml_metrics(yh[, keep, drop = FALSE], score = score[, keep, drop = FALSE],
             measures = "macro_auc")[[1]]
}
