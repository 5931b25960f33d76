# The main job: cross-validated MLLS on the bundled yeast data (Mulan's
# train/test split) against ridge regression (alpha = 0), with the papers'
# protocol: 5-fold cross-validation over an alpha x beta grid on the training
# part, per-label F1 thresholds, macro and micro F1 on the test part.
# Run with `make demo`, or demo("yeast", package = "mlss").
library(mlss)
data(yeast)
train <- yeast$train
x <- yeast$x[train, ]
y <- yeast$y[train, ]

set.seed(2008)
folds <- ml_folds(y, 5)
mlls_cv <- cv_mlls(x, y, alpha = c(0, 10^(-6:0)), beta = 10^(-6:0), foldid = folds)
ridge_cv <- cv_mlls(x, y, alpha = 0, beta = 10^(-6:0), foldid = folds)
print(mlls_cv)

test <- function(cv) {
  pred <- predict(cv, yeast$x[!train, ], type = "class")
  unlist(ml_metrics(yeast$y[!train, ], pred = pred, measures = c("macro_f1", "micro_f1")))
}
res <- rbind(MLLS = c(alpha = mlls_cv$alpha_best, beta = mlls_cv$beta_best, test(mlls_cv)),
             ridge = c(alpha = 0, beta = ridge_cv$beta_best, test(ridge_cv)))
cat("chosen by 5-fold cross-validation on the", sum(train), "training genes;",
    "measured on the", sum(!train), "test genes:\n")
print(signif(res, 4))

png_file <- "mlls-yeast-cv.png"
grDevices::png(png_file, width = 800, height = 600)
plot(mlls_cv)
invisible(grDevices::dev.off())
cat("macro F1 over alpha and beta written to", normalizePath(png_file), "\n")
