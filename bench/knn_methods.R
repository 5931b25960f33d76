# ML-kNN and IBLR-ML (k = 10, Euclidean) by 10-fold cross-validation on the
# bundled emotions, yeast and scene, beside the MLCRF paper's figures for the
# same methods (Naeini et al., SDM 2014, Tables 2, 4 and 5: ../shared/papers/
# mlcrf-sdm2014.txt).  As in the paper, each data set is used whole (its
# train and test parts combined: 593, 2417 and 2407 instances) and split into
# 10 folds (ml_folds(), seed 2014).  Measures: exact match (subset accuracy),
# micro and macro F1 of the labels predicted by each method's own rule
# (posterior / probability above 1/2).
#
# Features: "raw" as bundled; "scaled" with scale = TRUE (each column to
# [0, 1] by its range on the training folds, as Weka's EuclideanDistance,
# used by Mulan's and MEKA's ML-kNN and IBLR, normalises attributes).  The
# paper does not say which.
# IBLR's logistic regressions use cost = 1 (the paper chose its
# regularisation by CV; cv over the cost is not done here).
# Time: seconds of fit + predict summed over the 10 folds (elapsed; the
# machine's load is printed).
#   Rscript bench/knn_methods.R   (from the package root, mlss installed)
library(mlss)
options(width = 150)

# The paper's figures, decoded from the text extraction of its tables, whose
# column order is rcv1_top10, emotions, yeast, scene, image (MMOC's missing
# value and the values' ranges place them).
paper <- data.frame(
  data = rep(c("emotions", "yeast", "scene"), each = 2),
  method = rep(c("mlknn", "iblr"), 3),
  exact = c(0.283, 0.335, 0.179, 0.204, 0.629, 0.644),
  micro_f1 = c(0.656, 0.692, 0.646, 0.661, 0.736, 0.758),
  macro_f1 = c(0.656, 0.690, 0.478, 0.498, 0.743, 0.765))

timer <- new.env()
timed <- function(name, fit) function(x, y) {
  t0 <- proc.time()[["elapsed"]]
  model <- fit(x, y)
  timer[[name]] <- (timer[[name]] %||% 0) + proc.time()[["elapsed"]] - t0
  structure(list(model = model, name = name), class = "timed_model")
}
predict.timed_model <- function(object, newx, ...) {
  t0 <- proc.time()[["elapsed"]]
  out <- predict(object$model, newx, ...)
  timer[[object$name]] <- timer[[object$name]] + proc.time()[["elapsed"]] - t0
  out
}
`%||%` <- function(a, b) if (is.null(a)) b else a
cat("machine load (1, 5, 15 min):", readLines("/proc/loadavg"), "\n\n")
out <- list()
for (name in c("emotions", "yeast", "scene")) {
  d <- get(name, envir = asNamespace("mlss"))
  set.seed(2014)
  foldid <- ml_folds(d$y, 10)
  for (scaling in c("raw", "scaled")) {
    sc <- scaling == "scaled"
    rm(list = ls(timer), envir = timer)
    methods <- list(mlknn = timed("mlknn", function(x, y) mlknn(x, y, k = 10, scale = sc)),
                    iblr = timed("iblr", function(x, y) iblr(x, y, k = 10, scale = sc)))
    cmp <- suppressWarnings(ml_compare(d$x, d$y, methods, foldid = foldid,
      measures = c("subset_accuracy", "micro_f1", "macro_f1")))
    agg <- aggregate(value ~ method + measure, data = cmp, FUN = mean)
    for (m in names(methods)) {
      v <- agg$value[agg$method == m]
      names(v) <- as.character(agg$measure[agg$method == m])
      p <- paper[paper$data == name & paper$method == m, ]
      out[[length(out) + 1]] <- data.frame(
        data = name, features = scaling, method = m,
        exact = v[["subset_accuracy"]], exact_paper = p$exact,
        micro_f1 = v[["micro_f1"]], micro_paper = p$micro_f1,
        macro_f1 = v[["macro_f1"]], macro_paper = p$macro_f1,
        seconds = timer[[m]])
    }
  }
}
tab <- do.call(rbind, out)
cat("10-fold CV, k = 10, whole data sets; *_paper: the MLCRF paper's figures\n")
print(format(tab, digits = 3), row.names = FALSE)
cat("\nmachine load at the end:", readLines("/proc/loadavg"), "\n")
