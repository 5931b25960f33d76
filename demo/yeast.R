# MLLS on the bundled yeast data (Mulan's train/test split) against ridge
# regression, the alpha = 0 special case.  Run with `make demo`, or
# demo("yeast", package = "mlss") once the package is installed.
library(mlss)
data(yeast)
train <- yeast$train
x <- yeast$x[train, ]
y <- yeast$y[train, ]
x_test <- yeast$x[!train, ]
y_test <- yeast$y[!train, ]

f1_scores <- function(pred, truth) {
  tp <- colSums(pred & truth)
  fp <- colSums(pred & !truth)
  fn <- colSums(!pred & truth)
  per_label <- ifelse(2 * tp + fp + fn == 0, 1, 2 * tp / (2 * tp + fp + fn))
  c(macro_f1 = mean(per_label), micro_f1 = 2 * sum(tp) / (2 * sum(tp) + sum(fp) + sum(fn)))
}

alpha <- 1
beta <- 0.1
fit <- mlls(x, y, alpha = alpha, beta = beta)
ridge <- mlls(x, y, alpha = 0, beta = beta)
print(fit)

res <- rbind(MLLS = f1_scores(predict(fit, x_test, type = "class"), y_test),
             ridge = f1_scores(predict(ridge, x_test, type = "class"), y_test))
cat("alpha =", alpha, " beta =", beta, " r =", fit$r, "\n")
cat("test measures on Mulan's yeast test split (", nrow(x_test), " genes):\n", sep = "")
print(round(res, 4))
