# What a new R user meets (issue 10): names, predict(), labels, data sets,
# ml_compare(), printouts.

small_fit_data <- function(n = 60, d = 4, seed = 7) {
  set.seed(seed)
  x <- matrix(rnorm(n * d), n, d, dimnames = list(NULL, paste0("f", 1:d)))
  y <- cbind(a = x[, 1] + rnorm(n) > 0, b = x[, 2] - x[, 3] + rnorm(n) > 0,
             c = rnorm(n) > 0.5)
  list(x = x, y = y)
}

test_that("ml_metrics matches labels by name and refuses different names", {
  y <- emotions$y[1:100, ]
  set.seed(2)
  pred <- matrix(runif(600) > 0.6, 100, 6, dimnames = dimnames(y))
  score <- matrix(runif(600), 100, 6, dimnames = dimnames(y))
  ref <- ml_metrics(y, score = score, pred = pred)
  # the same predictions with the columns in another order: same values
  expect_equal(ml_metrics(y, score = score[, 6:1], pred = pred[, c(2, 1, 6, 5, 3, 4)]), ref)
  # without names on one side: by position, as before
  expect_equal(ml_metrics(y, score = unname(score), pred = unname(pred)), ref)
  # a hand-computed macro F1 with the columns reordered
  f1 <- mean(vapply(colnames(y), function(l) {
    tp <- sum(y[, l] & pred[, l]); 2 * tp / (sum(y[, l]) + sum(pred[, l]))
  }, 0))
  expect_equal(ml_metrics(y, pred = pred[, 6:1], measures = "macro_f1")$macro_f1, f1)
  bad <- pred
  colnames(bad)[2] <- "happy"
  expect_error(ml_metrics(y, pred = bad), "column names of 'pred' are not the labels of 'y'.*'happy'")
  colnames(score)[1] <- "x"
  expect_error(ml_metrics(y, score = score), "column names of 'score'")
  # the row-count errors name the arguments of ml_metrics
  expect_error(ml_metrics(y, pred = pred[-1, ]), "'y' has 100 rows but 'pred' has 99")
  expect_error(ml_metrics(y, score = unname(score[-1, ])), "'score' must be 100 x 6, like 'y' \\(it is 99 x 6\\)")
})

test_that("predict, coef and summary of fits reject unknown arguments", {
  p <- small_fit_data()
  fit <- mlls(p$x, p$y, alpha = 1, beta = 0.1)
  expect_error(predict(fit, p$x, type = "class", cutoff = 0), "unknown argument\\(s\\): cutoff")
  expect_error(coef(fit, s = "lambda.min"), "unknown argument\\(s\\): s")
  expect_error(summary(fit, foo = 1), "unknown argument\\(s\\): foo")
  md <- mddm(p$x, p$y, k = 2)
  expect_error(predict(md, p$x, type = "class", cutoff = 0), "unknown argument\\(s\\): cutoff")
  expect_error(coef(md, "U", 3), "unknown argument")
  ss <- ssmddm(p$x, p$y, alpha = 1, beta = 0.1, k = 2)
  expect_error(predict(ss, p$x, alpha = 0), "unknown argument\\(s\\): alpha")
})

test_that("a single row as a vector is explained", {
  p <- small_fit_data()
  fit <- mlls(p$x, p$y, alpha = 1, beta = 0.1)
  expect_error(predict(fit, p$x[1, ]), "drop = FALSE")
  expect_equal(predict(fit, p$x[1, , drop = FALSE]), predict(fit, p$x)[1, , drop = FALSE])
  expect_error(predict(mddm(p$x, p$y, k = 2), p$x[2, ]), "drop = FALSE")
  # one feature: a vector is a column, as before
  one <- mlls(p$x[, 1], p$y, alpha = 1, beta = 0.1)
  expect_identical(dim(predict(one, p$x[1:3, 1])), c(3L, 3L))
})

test_that("formula fits predict from newdata, and missing rows follow na.action", {
  p <- small_fit_data()
  df <- data.frame(p$x, p$y)
  fit <- mlls(cbind(a, b, c) ~ f1 + f2 + f3 + f4, data = df, alpha = 1, beta = 0.1)
  ref <- predict(fit, df[1:6, ])
  expect_equal(predict(fit, newdata = df[1:6, ]), ref)
  expect_error(predict(fit, df, newdata = df), "not both")
  expect_error(predict(fit), "'newx' is missing")
  nd <- df[1:6, ]
  nd$f2[3] <- NA
  nd$b[4] <- NA   # a label column: not a variable of the prediction
  expect_error(predict(fit, newdata = nd), "'newdata' contains NA in 1 row\\(s\\) \\(the first is row 3\\)")
  pad <- predict(fit, newdata = nd, na.action = na.exclude)
  expect_identical(dim(pad), c(6L, 3L))
  expect_true(all(is.na(pad[3, ])))
  expect_equal(pad[-3, ], ref[-3, ])
  expect_equal(predict(fit, newdata = nd, na.action = na.omit), ref[-3, ])
  cls <- predict(fit, newdata = nd, type = "class", na.action = "na.exclude")
  expect_true(all(is.na(cls[3, ])))
  # the fit's own na.action is the default
  fx <- mlls(cbind(a, b, c) ~ f1 + f2 + f3 + f4, data = df, alpha = 1, beta = 0.1,
             na.action = na.exclude)
  expect_true(all(is.na(predict(fx, nd)[3, ])))
  # matrices too, and MDDM
  xm <- p$x[1:5, ]
  xm[2, 4] <- NA
  expect_error(predict(mlls(p$x, p$y, alpha = 1, beta = 0.1), xm), "first is row 2")
  md <- mddm(p$x, p$y, k = 2)
  z <- predict(md, xm, na.action = na.exclude)
  expect_true(all(is.na(z[2, ])))
  expect_equal(z[-2, ], predict(md, p$x[c(1, 3:5), ]), ignore_attr = TRUE)
  mdf <- mddm(cbind(a, b, c) ~ ., data = df, k = 2)
  expect_equal(predict(mdf, newdata = df[1:4, ], type = "score"),
               predict(mdf, df[1:4, ], type = "score"))
})

test_that("label columns: factors with two levels and logicals, one rule everywhere", {
  p <- small_fit_data()
  y <- p$y
  df <- data.frame(p$x, a = factor(as.integer(y[, "a"])), b = y[, "b"],
                   c = factor(ifelse(y[, "c"], "yes", "no")))
  ref <- mlls(p$x, y, alpha = 1, beta = 0.1)
  fit <- mlls(cbind(a, b, c) ~ f1 + f2 + f3 + f4, data = df, alpha = 1, beta = 0.1)
  expect_equal(unname(fit$U), unname(ref$U))
  expect_equal(unname(fit$n_pos), unname(colSums(y)))
  one <- mlls(a ~ f1 + f2, data = df, alpha = 0, beta = 0.1)
  expect_equal(unname(one$n_pos), sum(y[, "a"]))
  # the matrix interface and mlss_data read the same data frame the same way
  lab <- df[c("a", "b", "c")]
  expect_equal(unname(mlls(p$x, lab, alpha = 1, beta = 0.1)$U), unname(ref$U))
  expect_identical(as_mlss_data(df, labels = c("a", "b", "c"))$y, y)
  expect_identical(mlss_data(p$x, lab)$y, y)
  # levels "0"/"1" in the other order still mean 1 = positive
  rev01 <- factor(as.integer(y[, "a"]), levels = c("1", "0"))
  expect_identical(mlss:::label_values(rev01, "a"), y[, "a"])
  expect_identical(mlss:::label_values(factor(c("FALSE", "TRUE", NA)), "a"), c(FALSE, TRUE, NA))
  expect_error(mlls(p$x, data.frame(a = factor(rep(c("x", "y", "z"), 20))), alpha = 1, beta = 1),
               "label column 'a' of 'y' is a factor with 3 levels \\{x,y,z\\}")
  expect_error(mlls(p$x, data.frame(a = rep(c("u", "v"), 30)), alpha = 1, beta = 1),
               "label column 'a' of 'y' must have the values 0 and 1")
})

test_that("mlss_data and mldr objects go straight into the fitting functions", {
  d <- mlss_data(emotions$x[1:120, 1:8], emotions$y[1:120, ], name = "small")
  ref <- mlls(d$x, d$y, alpha = 1, beta = 0.1)
  fit <- mlls(d, alpha = 1, beta = 0.1)
  expect_equal(fit$U, ref$U)
  expect_error(mlls(d, d$y, alpha = 1, beta = 0.1), "leave 'y' out")
  expect_equal(mddm(d, k = 2)$P, mddm(d$x, d$y, k = 2)$P)
  expect_equal(ssmddm(d, alpha = 1, beta = 0.1, k = 2)$P,
               ssmddm(d$x, d$y, alpha = 1, beta = 0.1, k = 2)$P)
  xy <- mlss:::ml_xy(d)
  expect_identical(xy$x, d$x)
  expect_identical(mlss:::ml_xy(d$x, d$y)$y, d$y)
  skip_if_not_installed("mldr")
  m <- as_mldr(d)
  expect_equal(unname(mlls(m, alpha = 1, beta = 0.1)$U), unname(ref$U))
})

test_that("fitted() and residuals() refuse with an explanation", {
  p <- small_fit_data()
  fit <- mlls(p$x, p$y, alpha = 1, beta = 0.1)
  expect_error(fitted(fit), "does not keep its training data.*predict\\(fit, x\\)")
  expect_error(residuals(fit), "does not keep")
  expect_error(fitted(mddm(p$x, p$y, k = 2)), "does not keep")
  expect_error(resid(ssmddm(p$x, p$y, alpha = 1, beta = 0.1, k = 2)), "does not keep")
})

test_that("print says where the thresholds come from; summary truncates long label tables", {
  p <- small_fit_data()
  fit <- mlls(p$x, p$y, alpha = 1, beta = 0.1)
  expect_output(print(fit), "thresholds chosen on the training scores \\(training macro F1")
  oof <- fit
  oof$threshold_source <- "oof"
  oof$oof_f1 <- c(a = 0.5, b = 0.6, c = 0.7)
  expect_output(print(oof), "out-of-fold scores by cross-validation \\(out-of-fold macro F1 0.6\\)")
  expect_output(print(summary(oof)), "thresholds chosen on the out-of-fold scores; out-of-fold macro F1 0.6")
  expect_identical(summary(oof)$labels$oof_f1, unname(oof$oof_f1))
  expect_null(summary(oof)$labels$train_f1)   # it belongs to other thresholds
  expect_output(print(summary(fit)), "thresholds chosen on the training scores; training macro F1")
  set.seed(4)
  many <- mlls(p$x, matrix(runif(60 * 30) > 0.5, 60, 30), alpha = 1, beta = 0.1, r = 2)
  out <- capture.output(print(summary(many)))
  expect_true(any(grepl("\\.\\.\\. and 10 more labels", out)))
  expect_false(any(grepl("^L21 ", out)))
  expect_true(any(grepl("^L30 ", capture.output(print(summary(many), max_labels = Inf)))))
  expect_identical(nrow(summary(many)$labels), 30L)
  md <- mddm(p$x, matrix(runif(60 * 30) > 0.5, 60, 30), k = 2)
  expect_output(print(summary(md), max_labels = 5), "and 25 more labels")
  expect_output(print(md), "thresholds chosen on the training scores")
})

test_that("ml_compare: vector y, errors that name the method and fold, measures checked first", {
  p <- small_fit_data()
  meth <- list(ridge = function(x, y) mlls(x, y, alpha = 0, beta = 0.1))
  set.seed(1)
  one <- ml_compare(p$x, p$y[, "a"], methods = meth, nfolds = 3, progress = FALSE,
                    measures = "macro_f1")
  set.seed(1)
  mat <- ml_compare(p$x, p$y[, "a", drop = FALSE], methods = meth, nfolds = 3,
                    progress = FALSE, measures = "macro_f1")
  expect_equal(one$value, mat$value)
  bad <- list(ok = meth$ridge, broken = function(x, y) stop("no convergence"))
  expect_warning(ml_compare(p$x, p$y, methods = bad, nfolds = 3, progress = FALSE),
                 "method 'broken' failed on fold 1 of 3: no convergence")
  calls <- 0
  counting <- list(m = function(x, y) { calls <<- calls + 1; meth$ridge(x, y) })
  expect_error(ml_compare(p$x, p$y, methods = counting, measures = "log_loss", progress = FALSE),
               "'log_loss' needs the probabilities")
  expect_identical(calls, 0)
  expect_error(ml_compare(p$x, p$y, methods = meth, measures = "f1"), "unknown measure 'f1'")
  d <- mlss_data(p$x, p$y)
  set.seed(1)
  a <- ml_compare(d, methods = meth, nfolds = 3, progress = FALSE)
  set.seed(1)
  b <- ml_compare(p$x, p$y, methods = meth, nfolds = 3, progress = FALSE)
  expect_equal(a$value, b$value)
})

test_that("the heat map: darkest is best for either direction, readable numbers, a key", {
  z <- matrix(c(0.30, 0.35, 0.40, 0.32, 0.45, 0.38), 3, 2)
  col <- grDevices::hcl.colors(50, "YlOrRd", rev = TRUE)
  pdf(NULL)
  on.exit(dev.off())
  hi <- mlss:::grid_heatmap(z, c(0, 0.1, 1), c(0.01, 1), "alpha", "beta", "macro_f1", TRUE)
  expect_identical(hi$fill[hi$best], col[50])           # the highest value, darkest
  expect_identical(hi$fill[which.min(hi$value)], col[1])
  lo <- mlss:::grid_heatmap(z, c(0, 0.1, 1), c(0.01, 1), "alpha", "beta", "hamming_loss", FALSE)
  expect_identical(which(lo$best), which.min(lo$value))  # the lowest value is best
  expect_identical(lo$fill[lo$best], col[50])           # ... and darkest
  expect_identical(lo$ink[lo$best], "white")            # white numbers on dark cells
  expect_identical(lo$ink[which.max(lo$value)], "black")
  # a given best cell is framed, whatever the values
  given <- mlss:::grid_heatmap(z, 1:3, 1:2, "r", "beta", "macro_f1", TRUE, best = c(1, 1))
  expect_identical(which(given$best), 1L)
  expect_identical(mlss:::measure_label(c("macro_f1", "hamming_loss", "new_one")),
                   c("macro F1", "Hamming loss", "new one"))
  expect_identical(mlss:::grid_labels(c(0, 1e-4, 0.1, 1, Inf)), c("0", "1e-04", "0.1", "1", "Inf"))
})

test_that("heat map and comparison plot draw on small and large devices", {
  p <- random_problem(40, 4, 3, seed = 91)
  cv <- cv_mlls(p$X, p$Y, alpha = 10^(-3:1), beta = 10^seq(-4, 1, length = 20), nfolds = 3,
                measure = "hamming_loss", progress = FALSE)
  set.seed(2)
  cmp <- ml_compare(p$X, p$Y, nfolds = 3, progress = FALSE,
                    measures = c("macro_f1", "hamming_loss", "coverage"),
                    methods = list(first = function(x, y) mlls(x, y, alpha = 1, beta = 0.1),
                                   second = function(x, y) mlls(x, y, alpha = 0, beta = 1)))
  for (size in list(c(504, 360), c(300, 220))) {
    f <- tempfile(fileext = ".png")
    skip_if_not(capabilities("png"))
    png(f, size[1], size[2])
    expect_identical(plot(cv), cv)
    expect_identical(plot(cmp), cmp)
    expect_identical(plot(cmp, scale = "free"), cmp)
    dev.off()
  }
  expect_error(plot(cmp, scale = "log"), "should be one of")
})

test_that("read_mulan warns about {0,1} attributes that look like forgotten labels", {
  f <- text_file(c("@relation toy",
                   "@attribute f1 numeric", "@attribute word7 {0,1}",
                   "@attribute a {0,1}", "@attribute b {0,1}", "@attribute c {0,1}",
                   "@attribute Class3 {0,1}",
                   "@data", "1.5,0,1,0,1,0", "2,1,0,1,1,1"))
  # 'b' lies among the labels: a warning, and it is read as a feature
  expect_warning(d <- read_mulan(f, labels = c("a", "c")),
                 "attribute 'b' with the values \\{0,1\\} looks like a label but 'labels'")
  expect_identical(colnames(d$y), c("a", "c"))
  expect_true("b" %in% colnames(d$x))
  # Class3 is named like the labels Class1, Class2 (but for its digits)
  g <- text_file(c("@relation toy", "@attribute f1 numeric", "@attribute word7 {0,1}",
                   "@attribute Class1 {0,1}", "@attribute Class2 {0,1}",
                   "@attribute Class3 {0,1}", "@data", "1,0,1,0,1"))
  xml <- text_file(c('<labels xmlns="http://mulan.sourceforge.net/labels">',
                     '<label name="Class1"></label>', '<label name="Class2"></label>',
                     "</labels>"), ext = ".xml")
  expect_warning(read_mulan(g, xml = xml), "'Class3' with the values \\{0,1\\}.*does not name it")
  # a complete list, or {0,1} features unlike the labels (word7): silent
  expect_no_warning(read_mulan(g, labels = c("Class1", "Class2", "Class3")))
  expect_no_warning(read_mulan(f, labels = c("a", "b", "c", "Class3")))
  # print() lists the labels
  expect_output(print(read_mulan(g, labels = 3)), "labels: Class1, Class2, Class3")
})

test_that("write_mulan then read_mulan keeps the name and the train/test split", {
  d <- mlss_data(emotions$x[1:30, 1:5], emotions$y[1:30, ],
                 train = rep(c(TRUE, FALSE, TRUE), c(12, 10, 8)), name = "small emotions")
  f <- tempfile(fileext = ".arff")
  write_mulan(d, f)
  back <- read_mulan(f, xml = sub("arff$", "xml", f))
  expect_identical(back$train, d$train)
  expect_identical(back$name, "small emotions")
  expect_equal(back$x, d$x)
  expect_identical(back$y, d$y)
  expect_identical(read_mulan(f, labels = 6, name = "other")$name, "other")
  # compressed, and read_meka
  gz <- tempfile(fileext = ".arff.gz")
  write_mulan(d, gz, xml = NULL, meka = TRUE)
  expect_identical(read_meka(gz)$train, d$train)
  # no split, no name: nothing recorded, the file name is the name
  plain <- tempfile("plain", fileext = ".arff")
  write_mulan(list(x = d$x, y = d$y), plain, xml = NULL)
  expect_false(any(grepl("^% mlss", readLines(plain, 3))))
  back <- read_mulan(plain, labels = 6)
  expect_null(back$train)
  expect_identical(back$name, sub("\\.arff$", "", basename(plain)))
  # a record that does not match the rows is ignored with a warning
  lines <- readLines(f)
  lines[grepl("^% mlss-train", lines)] <- "% mlss-train: T5 F5"
  writeLines(lines, f)
  expect_warning(r <- read_mulan(f, labels = 6), "does not match the 30 rows")
  expect_null(r$train)
})

test_that("print of a data set without a name has no empty quotes", {
  d <- as_mlss_data(data.frame(h = c(1, 2, 3), t = c(0, 1, 1)), labels = "t")
  expect_output(print(d), "^Multi-label data: 3 instances")
  expect_output(print(mlss::emotions), "Multi-label data 'emotions': 593 instances")
  long <- mlss:::label_list(paste0("label_number_", 1:50), width = 60)
  expect_lte(nchar(long), 60)
  expect_match(long, "\\(and [0-9]+ more\\)$")
})
