# The fitted-model contract, checked for every method of the registry
# (R/registry.R): inputs (dense, sparse, formula, a data set with a split),
# every predict() type, label names on every output, columns matched by name,
# the one default type, print, summary, saveRDS/readRDS, ml_metrics(),
# ml_compare(), missing labels, and the base class "ml_fit".

registry <- mlss:::ml_registry()

contract_data <- function() {
  set.seed(20)
  n <- 50
  x <- matrix(rnorm(n * 4), n, 4, dimnames = list(NULL, paste0("f", 1:4)))
  x[abs(x) < 0.4] <- 0   # a sparse copy keeps some zeros
  # labels that depend on the features, so every label has both values
  y <- cbind(a = x[, 1] + rnorm(n, sd = 0.5) > 0, b = x[, 2] - x[, 3] > 0,
             c = x[, 4] + 0.5 * x[, 1] > 0.2)
  list(x = x[1:40, ], y = y[1:40, ], newx = x[41:50, ], newy = y[41:50, ])
}
D <- contract_data()
quiet <- function(expr) suppressMessages(suppressWarnings(expr))

predict_type <- function(fit, newx, type, newy = D$newy) {
  if (type == "prob") predict(fit, newx, type = "prob", y = newy)
  else predict(fit, newx, type = type)
}

test_that("every exported fitting function is in the registry", {
  exports <- getNamespaceExports("mlss")
  fitting <- exports[vapply(exports, function(f)
    exists(paste0(f, ".formula"), envir = asNamespace("mlss"), inherits = FALSE), NA)]
  fitting <- setdiff(fitting, grep("^cv_", fitting, value = TRUE))
  expect_gt(length(fitting), 10)
  expect_setequal(names(registry), fitting)
  # the cv_*() function an entry names exists and is exported
  cvs <- unlist(lapply(registry, `[[`, "cv"))
  expect_true(all(cvs %in% exports))
})

for (name in names(registry)) local({
  e <- registry[[name]]
  test_that(paste0(name, ": fits dense input into an ml_fit that predicts every type"), {
    set.seed(1)
    fit <- quiet(e$fit(D$x, D$y))
    expect_s3_class(fit, "ml_fit")
    expect_identical(class(fit)[length(class(fit))], "ml_fit")
    expect_identical(fit$labels, colnames(D$y))
    expect_identical(fit$types, e$types)
    expect_false(is.null(fit$call))
    # the one default type
    expect_identical(quiet(predict(fit, D$newx)), quiet(predict(fit, D$newx, type = "class")))
    for (type in e$types) {
      p <- quiet(predict_type(fit, D$newx, type))
      if (type == "prob") {
        expect_length(p, nrow(D$newx))
        # (a method whose classes are the label sets seen in training, LP and
        # PS, gives any other label vector probability 0: entry zero_prob)
        expect_true(all((if (isTRUE(e$zero_prob)) p >= 0 else p > 0) & p <= 1), info = name)
        # y matched by name: another column order is the same vectors
        expect_equal(quiet(predict_type(fit, D$newx, type, D$newy[, 3:1])), p, info = name)
        expect_error(predict(fit, D$newx, type = "prob", y = unname(D$newy[, 1:2])),
                     "'y' has 2 columns but the model has 3 labels")
        # a row na.exclude leaves out is left out of y too
        holed <- D$newx
        holed[4, 2] <- NA
        pe <- quiet(predict(fit, holed, type = "prob", y = D$newy, na.action = na.exclude))
        expect_true(is.na(pe[4]))
        expect_equal(pe[-4], p[-4], ignore_attr = TRUE, info = name)
      } else {
        expect_identical(nrow(p), nrow(D$newx), info = paste(name, type))
        if (type != "projection") expect_identical(colnames(p), fit$labels, info = paste(name, type))
        if (type == "class") expect_type(p, "logical")
        if (type == "score") expect_type(p, "double")
      }
      # columns matched by name: reversed columns, the same predictions
      expect_identical(quiet(predict_type(fit, D$newx[, 4:1], type)), p,
                       info = paste(name, type))
      # one row stays one row (and, unless the method is transductive, gets
      # its prediction among the others)
      if (e$transductive) next
      one <- quiet(if (type == "prob")
        predict(fit, D$newx[2, , drop = FALSE], type = "prob", y = D$newy[2, , drop = FALSE])
        else predict(fit, D$newx[2, , drop = FALSE], type = type))
      expect_equal(unname(if (is.matrix(one)) one[1, ] else one[1]),
                   unname(if (is.matrix(p)) p[2, ] else p[2]), tolerance = 1e-10,
                   info = paste(name, type, "one row"))
    }
    expect_error(predict(fit, D$newx[, -2]), "no column for the feature\\(s\\) 'f2'")
    expect_error(predict(fit, D$newx, type = "nonsense"), "should be one of")
    # thresholds: a label where its score is above its threshold
    s <- quiet(predict(fit, D$newx, type = "score"))
    thr <- c(a = 0.3, b = 0.5, c = 0.7)
    expect_equal(quiet(predict(fit, D$newx, type = "class", thresholds = thr)),
                 s > rep(thr, each = nrow(s)), ignore_attr = TRUE)
    # thresholds stored in the fit (cross-validation stores out-of-fold ones)
    # are what type = "class" uses, for every method
    stored <- fit
    stored$thresholds <- thr[3:1]
    expect_equal(quiet(predict(stored, D$newx)), s > rep(thr, each = nrow(s)),
                 ignore_attr = TRUE, info = name)
    if (!is.null(fit$thresholds))
      expect_equal(quiet(predict(fit, D$newx)), s > rep(fit$thresholds, each = nrow(s)),
                   ignore_attr = TRUE, info = name)
    # print, summary, saveRDS/readRDS
    out <- capture.output(res <- print(fit))
    expect_identical(res, fit)
    expect_gt(length(out), 1)
    expect_no_error(capture.output(print(summary(fit))))
    f <- tempfile(fileext = ".rds")
    saveRDS(fit, f)
    back <- readRDS(f)
    unlink(f)
    expect_identical(quiet(predict(back, D$newx, type = "score")), s)
    expect_identical(quiet(predict(back, D$newx)), quiet(predict(fit, D$newx)))
    # the measures take what predict() returns
    m <- ml_metrics(D$newy, score = s, pred = quiet(predict(fit, D$newx)),
                    measures = c("macro_f1", "average_precision"))
    expect_true(all(is.finite(unlist(m))))
  })

  test_that(paste0(name, ": sparse, formula and data-set input give the dense predictions"), {
    set.seed(1)
    fit <- quiet(e$fit(D$x, D$y))
    s <- quiet(predict(fit, D$newx, type = "score"))
    if (e$sparse) {
      sx <- methods::as(D$x, "CsparseMatrix")
      set.seed(1)
      sfit <- quiet(e$fit(sx, D$y))
      expect_s3_class(sfit, "ml_fit")
      ss <- quiet(predict(sfit, methods::as(D$newx, "CsparseMatrix"), type = "score"))
      expect_equal(ss, s, tolerance = 1e-6, info = name)
    }
    df <- data.frame(D$x, D$y + 0)
    set.seed(1)
    ffit <- quiet(e$fit(cbind(a, b, c) ~ f1 + f2 + f3 + f4, data = df))
    expect_s3_class(ffit, "ml_fit")
    nd <- data.frame(D$newx)
    expect_equal(unname(quiet(predict(ffit, newdata = nd[, 4:1], type = "score"))),
                 unname(s), tolerance = 1e-6, info = name)
    expect_identical(colnames(quiet(predict(ffit, nd))), colnames(D$y))
    # a data set with a train/test split: fitted on its training rows,
    # predict() on the data set scores its test rows
    d <- mlss_data(rbind(D$x, D$newx), rbind(D$y, D$newy),
                   train = rep(c(TRUE, FALSE), c(nrow(D$x), nrow(D$newx))))
    set.seed(1)
    dfit <- quiet(e$fit(d))
    expect_equal(unname(quiet(predict(dfit, d, type = "score"))), unname(s),
                 tolerance = 1e-6, info = name)
    # an mldr data set (no split: every row)
    if (requireNamespace("mldr", quietly = TRUE)) {
      set.seed(1)
      mfit <- quiet(e$fit(as_mldr(mlss_data(D$x, D$y))))
      expect_equal(unname(quiet(predict(mfit, D$newx, type = "score"))), unname(s),
                   tolerance = 1e-6, info = name)
    }
  })

  test_that(paste0(name, ": missing labels, and ml_compare()"), {
    y <- D$y
    y[c(3, 7), 2] <- NA
    if (is.null(e$na_labels)) {
      expect_error(quiet(e$fit(D$x, y)), "contains NA")
    } else {
      set.seed(1)
      fit <- quiet(do.call(e$fit, c(list(D$x, y), e$na_labels)))
      expect_s3_class(fit, "ml_fit")
      expect_identical(dim(quiet(predict(fit, D$newx))), dim(D$newy))
    }
    cmp <- quiet(ml_compare(D$x, D$y, methods = stats::setNames(list(function(x, y)
      e$fit(x, y)), name), nfolds = 2, measures = "macro_f1", progress = FALSE))
    expect_s3_class(cmp, "ml_comparison")
    expect_true(all(is.finite(cmp$value)))
  })
})
