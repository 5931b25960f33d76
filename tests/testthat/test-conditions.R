# Non-convergence is one classed warning ("mlss_not_converged") in every
# iterative solver, so that callers catch it by class, not by message text.

# The classes of every warning `expr` signals (muffled).
warning_classes <- function(expr) {
  out <- list()
  withCallingHandlers(expr, warning = function(w) {
    out[[length(out) + 1L]] <<- class(w)
    invokeRestart("muffleWarning")
  })
  out
}

test_that("every iterative solver warns of non-convergence with one class", {
  set.seed(3)
  n <- 40
  x <- matrix(rnorm(n * 4), n, 4, dimnames = list(NULL, paste0("f", 1:4)))
  y <- matrix(runif(n * 3) < 0.4, n, 3, dimnames = list(NULL, paste0("L", 1:3)))
  ymiss <- y
  ymiss[sample(length(y), 20)] <- NA
  runs <- list(
    svm = quote(br(x, y, learner = "svm", cost = 100, tol = 1e-12, max_iter = 2)),
    logistic = quote(br(x, y, learner = "logistic", tol = 1e-14, max_iter = 1)),
    lewl = quote(lewl(x, ymiss, max_iter = 1, tol = 0)),
    mlml = quote(mlml(x, ymiss, max_iter = 1, tol = 0)),
    aso = quote(aso_svm(x, y, alpha = 1, r = 1, max_iter = 1, tol = 1e-300)),
    mlcrf = quote(mlcrf(x, y, lambda_v = 1e-3, lambda_w = 1e-3, max_iter = 1)))
  for (nm in names(runs)) {
    cls <- warning_classes(eval(runs[[nm]]))
    expect_true(length(cls) > 0, label = paste(nm, "warns"))
    expect_true(all(vapply(cls, function(k) "mlss_not_converged" %in% k, TRUE)),
                label = paste(nm, "warns with class mlss_not_converged only"))
  }
  # a handler for the class catches it
  caught <- 0L
  withCallingHandlers(lewl(x, ymiss, max_iter = 1, tol = 0),
                      mlss_not_converged = function(w) {
                        caught <<- caught + 1L
                        invokeRestart("muffleWarning")
                      })
  expect_identical(caught, 1L)
  # cross-validation: the fold fits' warnings come back once, with their count
  cls <- list()
  msgs <- character()
  withCallingHandlers(
    cv_lewl(x, ymiss, lambda = 1, beta = 1, k = 2, nfolds = 2, max_iter = 1, tol = 0,
            progress = FALSE),
    warning = function(w) {
      cls[[length(cls) + 1L]] <<- class(w)
      msgs <<- c(msgs, conditionMessage(w))
      invokeRestart("muffleWarning")
    })
  hit <- vapply(cls, function(k) "mlss_not_converged" %in% k, TRUE)
  expect_identical(sum(hit), 1L)
  expect_match(msgs[hit], "\\(3 fits in this cv_lewl\\(\\) did not converge")
})

test_that("na_labels = \"keep\" is the deprecated spelling of \"observed\": one classed warning per session", {
  rm(list = ls(mlss:::deprecated_seen), envir = mlss:::deprecated_seen)
  set.seed(5)
  n <- 30
  x <- matrix(rnorm(n * 3), n, 3)
  y <- matrix(runif(n * 2) < 0.5, n, 2)
  y[c(1, 12), 1] <- NA
  foldid <- rep(1:3, 10)
  fit <- function(x, y, w) structure(list(w = w), class = "toy")
  pred <- function(object, newx) newx[, 1:2] * object$w
  new <- ml_cv(x, y, fit, list(w = c(1, 2)), predict = pred, foldid = foldid,
               progress = FALSE, na_labels = "observed")
  expect_warning(old <- ml_cv(x, y, fit, list(w = c(1, 2)), predict = pred, foldid = foldid,
                              progress = FALSE, na_labels = "keep"),
                 class = "mlss_deprecated")
  expect_equal(old$cvm, new$cvm)
  # once per session and function: the second use is silent
  expect_warning(suppressMessages(ml_cv(x, y, fit, list(w = 1), predict = pred,
                                        foldid = foldid, progress = FALSE,
                                        na_labels = "keep")), NA)
  m <- list(br = function(x, y) br(x, y, na_labels = "observed"))
  values <- function(cmp) cmp[, c("method", "fold", "measure", "value")]  # not the times
  expect_warning(old <- ml_compare(x, y, m, foldid = foldid, progress = FALSE, na_labels = "keep"),
                 class = "mlss_deprecated")
  expect_equal(values(old),
               values(ml_compare(x, y, m, foldid = foldid, progress = FALSE,
                                 na_labels = "observed")))
  w <- tryCatch(mlss:::warn_deprecated("old = 1", "new = 1", "f"), warning = identity)
  expect_s3_class(w, c("mlss_deprecated", "deprecatedWarning"))
  expect_match(conditionMessage(w), "^f\\(\\): old = 1 is deprecated; write new = 1")
})
