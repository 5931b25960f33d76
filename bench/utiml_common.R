# Helpers of bench/utiml.R and bench/rbfsvm.R (mlss against utiml 0.1.7),
# which source this after bench/common.R.  It loads utiml and mldr.
suppressPackageStartupMessages({
  library(utiml)
  library(mldr)
})

# BENCH_SETS and BENCH_METHODS: the data sets and methods a bench runs
# (comma-separated; all four of each by default)
bench_sets <- function() strsplit(Sys.getenv("BENCH_SETS", "emotions,scene,yeast,medical"), ",")[[1]]
bench_methods <- function() strsplit(Sys.getenv("BENCH_METHODS", "BR,LP,RAkEL,ECC"), ",")[[1]]

# One row of results: the test measures of the labels pred (NA for a NULL
# pred: a method that failed) and the CPU seconds t, with the columns of ...
# (e.g. a time ratio); appended to the csv file `out` when that is not "".
bench_measures <- c("macro_f1", "micro_f1", "subset_accuracy", "hamming_loss")
bench_row <- function(set, method, pkg, yte, pred, t, out = "", ...) {
  v <- if (is.null(pred)) rep(NA_real_, 4) else
    unlist(ml_metrics(yte, pred = unname(pred), measures = bench_measures))
  r <- data.frame(set = set, method = method, package = pkg, macro_f1 = v[[1]],
                  micro_f1 = v[[2]], exact = v[[3]], hamming = v[[4]], cpu = t, ...)
  if (nzchar(out))
    utils::write.table(r, out, sep = ",", append = file.exists(out), row.names = FALSE,
                       col.names = !file.exists(out))
  r
}

load_set <- function(name) {
  if (name %in% c("emotions", "yeast", "scene")) return(getExportedValue("mlss", name))
  # medical has no Mulan split: a seeded 2/3 : 1/3 one, as bench/defaults.R
  file <- shared_data("mulan", name, paste0(name, ".arff"))
  d <- read_mulan(file, xml = sub("\\.arff$", ".xml", file))
  set.seed(1)
  tr <- seq_len(nrow(d$x)) %in% sample(nrow(d$x), round(0.67 * nrow(d$x)))
  list(x = d$x, y = d$y, train = tr)
}

as_mldr <- function(x, y, name) {
  x <- as.matrix(x)
  colnames(x) <- paste0("a", seq_len(ncol(x)))
  yy <- y + 0
  colnames(yy) <- paste0("L", seq_len(ncol(y)))
  df <- data.frame(x, yy, check.names = FALSE)
  mldr::mldr_from_dataframe(df, labelIndices = ncol(x) + seq_len(ncol(y)), name = name)
}

cpu <- function(expr) {
  c0 <- cpu_seconds()
  value <- expr
  list(value = value, cpu = cpu_seconds() - c0)
}

# utiml's default correction: a row predicted empty gets its most probable
# label ("1+" in the tables)
one_plus <- function(cls, score) {
  cls <- unname(cls)
  empty <- which(rowSums(cls) == 0)
  cls[cbind(empty, max.col(score[empty, , drop = FALSE], ties.method = "first"))] <- TRUE
  cls
}
scores_classes <- function(fit, x)
  list(class = predict(fit, x, type = "class"), score = predict(fit, x, type = "score"))

# utiml's LCard rule (lcard_threshold()): among the distinct scores t, the
# one whose rows' mean number of scores >= t is closest to the training
# cardinality (the lowest such t), then utiml's "1+"
utiml_lcard <- function(score, card) {
  ts <- sort(unique(c(score)))
  best <- which.min(abs(card - vapply(ts, function(t) mean(rowSums(score >= t)), 0)))
  one_plus(score >= ts[best], score)
}


# Mulan's training and test parts of a set as both packages' benches use
# them: labels with both classes among the training rows (medical has some
# without), dense x, and the mldr objects utiml reads.  Features constant on
# the training rows are kept: e1071 cannot scale them (it warns and leaves
# them unscaled), the same in both packages.
split_set <- function(set) {
  d <- load_set(set)
  tr <- d$train
  xtr <- as.matrix(d$x[tr, ])
  xte <- as.matrix(d$x[!tr, ])
  keep <- colSums(d$y[tr, , drop = FALSE]) > 0 & colSums(d$y[tr, , drop = FALSE]) < sum(tr)
  ytr <- d$y[tr, keep]
  yte <- d$y[!tr, keep]
  cat(sprintf("%s: %d train, %d test rows, %d features, %d labels\n", set, nrow(xtr),
              nrow(xte), ncol(xtr), ncol(ytr)))
  list(xtr = xtr, xte = xte, ytr = ytr, yte = yte, L = ncol(ytr),
       card = mean(rowSums(ytr)), mtr = as_mldr(xtr, ytr, paste0(set, "-train")),
       mte = as_mldr(xte, yte, paste0(set, "-test")))
}

# utiml's BR with its SVM, timed: its labels (Platt probability > 0.5, then
# by its default, utiml.empty.prediction = FALSE, the most probable label on a
# row left without any: "at least one") and its probabilities
utiml_br <- function(mtr, mte) {
  set.seed(26)
  cpu({
    model <- utiml::br(mtr, "SVM", seed = 26)
    pr <- predict(model, mte)
    list(class = as.matrix(as.bipartition(pr)) == 1, prob = as.matrix(as.probability(pr)))
  })
}
