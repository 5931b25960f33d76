# Helpers of bench/utiml.R and bench/rbfsvm.R (mlss against utiml 0.1.7).

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
  t0 <- proc.time()
  value <- expr
  t <- proc.time() - t0
  list(value = value, cpu = sum(t[c("user.self", "sys.self", "user.child", "sys.child")],
                                na.rm = TRUE))
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

