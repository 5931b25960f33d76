# The adapters of R/learners.R against their packages called by hand, label
# by label (each test skips when its package is not installed).

adapter_problem <- function() learner_problem(n = 70, d = 4, m = 3, seed = 4)

test_that("ml_learner_e1071(): br() is e1071::svm() per label", {
  skip_if_not_installed("e1071")
  p <- adapter_problem()
  newx <- p$x[1:8, ] - 0.1
  fit <- br(p$x, p$y, learner = ml_learner_e1071(probability = FALSE, cost = 2))
  ref <- sapply(1:3, function(l) {
    m <- e1071::svm(p$x, factor(p$y[, l]), kernel = "radial", cost = 2, gamma = 1 / 4)
    pr <- predict(m, newx, decision.values = TRUE)
    dv <- attr(pr, "decision.values")[, 1]
    # the sign that says TRUE is the one of e1071's own class prediction
    if (all((dv > 0) == (as.character(pr) == "TRUE"))) dv else -dv
  })
  expect_equal(unname(predict(fit, newx, type = "score")), unname(ref), tolerance = 1e-8)
  # the decision values rank the positives first: the training AUC is high
  s <- predict(fit, p$x, type = "score")[, 1]
  expect_gt(mean(outer(s[p$y[, 1]], s[!p$y[, 1]], ">")), 0.8)
  # Platt's probabilities: in [0, 1], larger where the decision value is
  pf <- br(p$x, p$y, learner = ml_learner_e1071())
  pr <- predict(pf, newx, type = "score")
  expect_true(all(pr >= 0 & pr <= 1))
  expect_gt(stats::cor(pr[, 1], ref[, 1], method = "spearman"), 0.9)
  # regression: eps-SVR
  r <- ml_learner_e1071()$fit(p$x, p$x[, 1] + 1)
  expect_equal(ml_learner_e1071()$predict(r, newx),
               as.numeric(predict(e1071::svm(p$x, p$x[, 1] + 1, gamma = 1 / 4), newx)),
               tolerance = 1e-8)
  # Platt's probabilities come from R's generator
  set.seed(9)
  a <- predict(br(p$x, p$y, learner = ml_learner_e1071()), newx, type = "score")
  set.seed(9)
  expect_equal(predict(br(p$x, p$y, learner = ml_learner_e1071()), newx, type = "score"), a)
})

test_that("ml_learner_kernlab(): br() is kernlab::ksvm() per label", {
  skip_if_not_installed("kernlab")
  p <- adapter_problem()
  newx <- p$x[1:8, ] + 0.1
  fit <- br(p$x, p$y, learner = ml_learner_kernlab(sigma = 0.3, prob.model = FALSE, C = 2))
  ref <- sapply(1:3, function(l) {
    m <- kernlab::ksvm(p$x, factor(p$y[, l], levels = c(FALSE, TRUE)), type = "C-svc",
                       kernel = "rbfdot", kpar = list(sigma = 0.3), C = 2, scaled = FALSE)
    dv <- as.numeric(kernlab::predict(m, newx, type = "decision"))
    # the sign that says TRUE is the one of kernlab's own class prediction
    cls <- as.character(kernlab::predict(m, newx)) == "TRUE"
    if (all((dv > 0) == cls)) dv else -dv
  })
  expect_equal(unname(predict(fit, newx, type = "score")), unname(ref), tolerance = 1e-8)
  s <- predict(fit, p$x, type = "score")[, 1]
  expect_gt(mean(outer(s[p$y[, 1]], s[!p$y[, 1]], ">")), 0.8)
  set.seed(1)
  pf <- br(p$x, p$y, learner = ml_learner_kernlab())
  pr <- predict(pf, newx, type = "score")
  expect_true(all(pr >= 0 & pr <= 1))
})

test_that("ml_learner_ranger(): br() is ranger::ranger() per label, seeded from R", {
  skip_if_not_installed("ranger")
  p <- adapter_problem()
  newx <- p$x[1:8, ]
  set.seed(7)
  fit <- br(p$x, p$y, learner = ml_learner_ranger(num.trees = 50, mtry = 2))
  set.seed(7)
  ref <- sapply(1:3, function(l) {
    seed <- sample.int(.Machine$integer.max, 1L)
    m <- ranger::ranger(x = p$x, y = factor(p$y[, l], levels = c(FALSE, TRUE)),
                        probability = TRUE, num.trees = 50, mtry = 2, seed = seed,
                        num.threads = 1)
    predict(m, data = newx, seed = 1L)$predictions[, "TRUE"]
  })
  expect_equal(unname(predict(fit, newx, type = "score")), unname(ref))
  # the positives of the training rows get the larger probabilities
  s <- predict(fit, p$x, type = "score")[, 2]
  expect_gt(mean(s[p$y[, 2]]), mean(s[!p$y[, 2]]))
  # as LEWL's regressor: a regression forest per column of the embedding
  set.seed(3)
  a <- lewl(p$x, p$y, k = 2, regressor = ml_learner_ranger(num.trees = 30))
  set.seed(3)
  b <- lewl(p$x, p$y, k = 2, regressor = function(x, z) {
    ms <- lapply(seq_len(ncol(z)), function(j) ranger::ranger(
      x = x, y = z[, j], num.trees = 30, num.threads = 1,
      seed = sample.int(.Machine$integer.max, 1L)))
    function(newx) sapply(ms, function(m) predict(m, data = newx, seed = 1L)$predictions)
  })
  expect_equal(predict(a, newx, type = "score"), predict(b, newx, type = "score"),
               ignore_attr = TRUE)
})

test_that("ml_learner_glmnet(): br() is glmnet::glmnet() per label, sparse too", {
  skip_if_not_installed("glmnet")
  p <- adapter_problem()
  newx <- p$x[1:8, ]
  fit <- br(p$x, p$y, learner = ml_learner_glmnet(alpha = 0.5, lambda = 0.02))
  ref <- sapply(1:3, function(l) {
    m <- glmnet::glmnet(p$x, factor(p$y[, l]), family = "binomial", alpha = 0.5,
                        lambda = 0.02)
    as.numeric(predict(m, newx, type = "response", s = 0.02))
  })
  expect_equal(unname(predict(fit, newx, type = "score")), unname(ref), tolerance = 1e-10)
  xs <- Matrix::Matrix(p$x * (abs(p$x) > 0.4), sparse = TRUE)
  fs <- br(xs, p$y, learner = ml_learner_glmnet(lambda = 0.02))
  fd <- br(as.matrix(xs), p$y, learner = ml_learner_glmnet(lambda = 0.02))
  expect_equal(predict(fs, xs, type = "score"), predict(fd, as.matrix(xs), type = "score"),
               tolerance = 1e-6, ignore_attr = TRUE)
})

test_that("an adapter whose package is missing says to install it", {
  expect_error(mlss:::need_package("surely.not.a.package", "x"), "install.packages")
})

test_that("cv_br() tunes a forest's mtry on the engine, folds in parallel", {
  skip_if_not_installed("ranger")
  p <- adapter_problem()
  foldid <- rep(1:3, length.out = 70)
  l <- ml_learner_ranger(num.trees = 30)
  set.seed(1)
  cv <- cv_br(p$x, p$y, learner = l, params = list(mtry = c(1, 3)), foldid = foldid)
  expect_equal(nrow(cv$grid), 2L)
  expect_equal(cv$fit$learner$params$mtry, cv$grid$mtry[cv$best])
  expect_equal(cv$fit$learner$params$num.trees, 30)
})

test_that("update() of an adapter rederives its type; e1071 takes a sparse x as dense", {
  skip_if_not_installed("e1071")
  l <- update(ml_learner_e1071(), probability = FALSE)
  expect_identical(l$type, "score")
  expect_identical(update(l, probability = TRUE)$type, "prob")
  set.seed(3)
  x <- matrix(rnorm(120), 40, 3)
  y <- matrix(runif(80) < 0.5, 40, 2)
  dense <- br(x, y, learner = ml_learner_e1071(probability = FALSE))
  sparse <- br(Matrix::Matrix(x, sparse = TRUE), y, learner = ml_learner_e1071(probability = FALSE))
  expect_equal(predict(sparse, x, type = "score"), predict(dense, x, type = "score"))
  skip_if_not_installed("kernlab")
  expect_identical(update(ml_learner_kernlab(), prob.model = FALSE)$type, "score")
})
