# mlss_data(), as_mlss_data() and as_mldr(): conversions worked out by hand,
# the round trip through mldr, and the argument errors.

test_that("mlss_data() normalises its parts and keeps NA", {
  d <- mlss_data(matrix(c(1L, NA, 3L, 4L), 2), c(1, 0), name = "n")
  expect_identical(d$x, matrix(c(1, NA, 3, 4), 2, dimnames = list(NULL, c("Att1", "Att2"))))
  expect_identical(d$y, cbind(L1 = c(TRUE, FALSE)))
  expect_identical(mlss_data(diag(2), cbind(a = c(-1, 1), b = c(NA, TRUE)))$y,
                   cbind(a = c(FALSE, TRUE), b = c(NA, TRUE)))
  s <- mlss_data(Matrix::Diagonal(3), data.frame(l = factor(c("1", "0", "1"))))
  expect_s4_class(s$x, "dgCMatrix")
  expect_identical(s$y, cbind(l = c(TRUE, FALSE, TRUE)))
  expect_error(mlss_data(letters, TRUE), "'x' must be a numeric matrix, a data frame or a sparse Matrix")
  expect_error(mlss_data(diag(2), c(TRUE, FALSE, TRUE)), "'x' has 2 rows but 'y' has 3")
  expect_error(mlss_data(diag(2), c(2, 1)), "the label 'L1' must be logical, 0/1 or -1/\\+1")
  expect_error(mlss_data(diag(2), c("a", "1")), "the label 'L1' must have the values 0 and 1")
  expect_error(mlss_data(diag(2), matrix(TRUE, 2, 2, dimnames = list(NULL, c("a", "a")))),
               "the label names in 'y' are not unique")
  expect_error(mlss_data(diag(2), c(TRUE, FALSE), train = 1:2), "'train' must be NULL or a logical")
  expect_error(mlss_data(diag(2), c(TRUE, FALSE), name = 1), "'name' must be NULL or a single string")
})

test_that("a data frame: labels by name or position, factors as ARFF nominals", {
  df <- data.frame(h = c(1.5, 0, 2), colour = factor(c("red", "blue", "red"), c("red", "blue")),
                   bit = factor(c("0", "1", "1")), tall = c(0, 1, 0), blue = c(FALSE, TRUE, NA))
  d <- as_mlss_data(df, labels = c("tall", "blue"), name = "df")
  expect_identical(d$x, cbind(h = c(1.5, 0, 2), `colour=red` = c(1, 0, 1),
                              `colour=blue` = c(0, 1, 0), bit = c(0, 1, 1)))
  expect_identical(d$y, cbind(tall = c(FALSE, TRUE, FALSE), blue = c(FALSE, TRUE, NA)))
  expect_identical(as_mlss_data(df, labels = 4:5, name = "df"), d)
  expect_s4_class(as_mlss_data(df, labels = 4:5, sparse = TRUE)$x, "dgCMatrix")
  chr <- data.frame(k = c("b", "a", NA), l = c(1, 0, 1))
  expect_identical(as_mlss_data(chr, labels = "l")$x, cbind(`k=a` = c(0, 1, NA), `k=b` = c(1, 0, NA)))
  expect_error(as_mlss_data(df), "'labels' must name the label columns")
  expect_error(as_mlss_data(df, labels = "nope"), "the label 'nope' is not a column of 'data'")
  expect_error(as_mlss_data(df, labels = 9), "'labels' must be names or positions")
  expect_error(as_mlss_data(df[4:5], labels = 1:2), "'data' has no feature column")
  expect_error(as_mlss_data(data.frame(d = Sys.Date(), l = 1), labels = "l"),
               "the column 'd' is Date, not numeric")
})

test_that("lists and mlss_data pass through; other things are refused", {
  d <- mlss_data(diag(2), c(TRUE, FALSE), name = "n")
  expect_identical(as_mlss_data(d), d)
  expect_identical(as_mlss_data(unclass(d)), d)
  expect_error(as_mlss_data(1:3), "'data' must be a data frame, an mldr object")
})

test_that("as_mldr() and back give the same data", {
  skip_if_not_installed("mldr")
  data(emotions, package = "mlss", envir = environment())
  m <- as_mldr(emotions)
  expect_s3_class(m, "mldr")
  expect_identical(m$name, "emotions")
  expect_identical(rownames(m$labels), colnames(emotions$y))
  expect_equal(m$labels$count, unname(colSums(emotions$y)))
  back <- as_mlss_data(m)
  expect_identical(back$x, emotions$x)
  expect_identical(back$y, emotions$y)
  expect_identical(back$name, "emotions")
  # a sparse x comes back sparse; nominal attributes keep their declared levels
  s <- mlss_data(Matrix::Matrix(diag(4), sparse = TRUE),
                 cbind(a = c(TRUE, FALSE, TRUE, FALSE), b = c(TRUE, TRUE, FALSE, FALSE)))
  expect_identical(as_mlss_data(as_mldr(s, name = "s"))$x, s$x)
  expect_error(as_mldr(mlss_data(diag(2), c(TRUE, FALSE))), "mldr cannot hold a single label")
  f <- text_file(c("@relation nom", "@attribute k {z,a}", "@attribute v numeric",
                   "@attribute w numeric", "@attribute l {0,1}", "@attribute l2 {0,1}", "@data",
                   "a,1,0.5,1,0", "a,2,0,0,1", "z,3,7,1,1"))
  ref <- read_mulan(f, labels = c("l", "l2"))
  m <- mldr::mldr(sub("\\.arff$", "", f), use_xml = FALSE, label_names = c("l", "l2"),
                  force_read_from_file = TRUE)
  expect_identical(as_mlss_data(m)$x, ref$x)
})

test_that("as_mldr() says when mldr is missing", {
  msg <- "as_mldr\\(\\) needs the package 'mldr'"
  if (!requireNamespace("mldr", quietly = TRUE)) {
    expect_error(as_mldr(mlss_data(diag(2), c(TRUE, FALSE))), msg)
  } else {
    # mldr is installed: hide it in a fresh R that sees only the libraries of
    # mlss and Matrix and R's own (skipped when mldr sits beside them)
    lib <- unique(dirname(find.package(c("mlss", "Matrix"))))
    skip_if(any(file.exists(file.path(lib, "mldr"))), "mldr is installed beside mlss")
    code <- sprintf(paste0(".libPaths(c(%s, .Library), include.site = FALSE); ",
                           "if (requireNamespace('mldr', quietly = TRUE)) cat('visible') else ",
                           "tryCatch(mlss::as_mldr(mlss::mlss_data(diag(2), c(TRUE, FALSE))), ",
                           "error = function(e) cat(conditionMessage(e)))"),
                    paste(deparse(lib), collapse = ""))
    out <- system2(file.path(R.home("bin"), "Rscript"), c("--vanilla", "-e", shQuote(code)),
                   stdout = TRUE, stderr = TRUE,
                   env = c("R_LIBS=", "R_LIBS_USER=NULL", "R_LIBS_SITE=NULL"))
    skip_if(identical(out, "visible"), "mldr cannot be hidden")
    expect_match(paste(out, collapse = " "), msg)
  }
})

test_that("a data set's train/test split: fits learn from its training rows, predict() scores its test rows", {
  e <- mlss::emotions
  tr <- rep(c(TRUE, FALSE, TRUE), c(50, 40, 30))
  d <- mlss_data(e$x[1:120, 1:8], e$y[1:120, ], train = tr, name = "small")
  xtr <- d$x[tr, ]
  ytr <- d$y[tr, ]
  xte <- d$x[!tr, ]
  # said once per session, naming the rows
  assign("told", FALSE, envir = mlss:::split_state)
  expect_message(fit <- mlls(d, alpha = 1, beta = 0.1),
                 "Fitting on the 80 training rows of 'small'.*its 40 test rows")
  expect_silent(mlls(d, alpha = 1, beta = 0.1))
  ref <- mlls(xtr, ytr, alpha = 1, beta = 0.1)
  expect_equal(fit$U, ref$U)
  expect_identical(fit$nobs, 80L)
  expect_equal(predict(fit, d), predict(ref, xte))
  expect_equal(predict(fit, d, type = "class"), predict(ref, xte, type = "class"))
  # every method that takes a data set, through the one conversion
  same <- function(a, b, ...) expect_equal(predict(a, d, ...), predict(b, xte, ...))
  same(mddm(d, k = 2), mddm(xtr, ytr, k = 2))
  same(ssmddm(d, alpha = 1, beta = 0.1, k = 2), ssmddm(xtr, ytr, alpha = 1, beta = 0.1, k = 2))
  same(br(d), br(xtr, ytr))
  same(mlknn(d, k = 5), mlknn(xtr, ytr, k = 5), type = "score")
  same(iblr(d, k = 5), iblr(xtr, ytr, k = 5), type = "score")
  same(cplst(d, k = 2), cplst(xtr, ytr, k = 2))
  same(lewl(d, k = 2), lewl(xtr, ytr, k = 2))
  same(mlml(d), mlml(xtr, ytr))
  # cross-validation folds over the training rows only
  fid <- rep(1:3, length.out = 80)
  a <- cv_mlls(d, alpha = c(0, 1), beta = c(0.1, 1), foldid = fid, progress = FALSE)
  b <- cv_mlls(xtr, ytr, alpha = c(0, 1), beta = c(0.1, 1), foldid = fid, progress = FALSE)
  expect_equal(a$cvm, b$cvm)
  expect_length(a$foldid, 80)
  expect_equal(predict(a, d), predict(b, xte))
  expect_equal(cv_br(d, foldid = fid, progress = FALSE)$cvm,
               cv_br(xtr, ytr, foldid = fid, progress = FALSE)$cvm)
  fitfun <- function(x, y, beta) mlls(x, y, alpha = 0, beta = beta)
  expect_equal(ml_cv(d, fit = fitfun, grid = list(beta = c(0.1, 1)), foldid = fid,
                     progress = FALSE)$cvm,
               ml_cv(xtr, ytr, fitfun, grid = list(beta = c(0.1, 1)), foldid = fid,
                     progress = FALSE)$cvm)
  meth <- list(ridge = function(x, y) mlls(x, y, alpha = 0, beta = 1))
  set.seed(3)
  cmp_d <- ml_compare(d, methods = meth, nfolds = 3, progress = FALSE)
  set.seed(3)
  cmp_m <- ml_compare(xtr, ytr, methods = meth, nfolds = 3, progress = FALSE)
  expect_equal(cmp_d$value, cmp_m$value)
  # type = "prob" of a data set: the labels of its test rows
  fp <- pcc(xtr, ytr)
  expect_equal(predict(fp, d, type = "prob"), predict(fp, xte, type = "prob", y = d$y[!tr, ]))
  # no split: every row, both ways; a split without test rows cannot be predicted
  whole <- d
  whole$train <- NULL
  expect_equal(mlls(whole, alpha = 1, beta = 0.1)$U,
               mlls(d$x, d$y, alpha = 1, beta = 0.1)$U)
  expect_identical(nrow(predict(fit, whole)), 120L)
  all_train <- d
  all_train$train <- rep(TRUE, 120)
  expect_error(predict(fit, all_train), "'newx' is a data set whose train/test split has no test rows")
})
