# The fitted-model contract where methods meet: label vectors matched by name
# in predict(type = "prob"), thresholds matched by name, a user's NA scores in
# ml_cv(), and the regularisation order of every cv_*() function.

test_that("predict(type = \"prob\") matches y by column name (mlcrf, pcc)", {
  e <- mlss::emotions
  x <- e$x[1:150, 1:6]
  y <- e$y[1:150, ]
  newx <- e$x[151:170, 1:6]
  ny <- e$y[151:170, ]
  fits <- list(mlcrf = mlcrf(x, y, lambda_v = 0.05, lambda_w = 0.05), pcc = pcc(x, y))
  for (nm in names(fits)) {
    fit <- fits[[nm]]
    p <- predict(fit, newx, type = "prob", y = ny)
    # another column order, as a matrix and as a data frame: the same vectors
    expect_equal(predict(fit, newx, type = "prob", y = ny[, rev(colnames(ny))]), p,
                 info = nm)
    expect_equal(predict(fit, newx, type = "prob",
                         y = as.data.frame(ny[, c(3, 1, 2, 6, 5, 4)] + 0)), p, info = nm)
    # unnamed: by position, as before
    expect_equal(predict(fit, newx, type = "prob", y = unname(ny)), p, info = nm)
    # the reversed vectors read by position are other vectors (the old, silent answer)
    expect_false(isTRUE(all.equal(predict(fit, newx, type = "prob",
                                          y = unname(ny[, rev(colnames(ny))])), p)))
    expect_error(predict(fit, newx, type = "prob", y = ny[, -2]),
                 "no column for the label\\(s\\) 'happy-pleased'", info = nm)
    expect_error(predict(fit, newx, type = "prob", y = cbind(ny, extra = TRUE)),
                 "'extra' that are not labels", info = nm)
    expect_error(predict(fit, newx, type = "prob", y = unname(ny[, 1:5])),
                 "'y' has 5 columns but the model has 6 labels", info = nm)
  }
})

test_that("named thresholds are matched by name; unknown or missing names are errors", {
  p <- random_problem(40, 4, 3, seed = 8)
  y <- p$Y
  colnames(y) <- c("a", "b", "c")
  fit <- mlls(p$X, y, alpha = 1, beta = 0.1)
  s <- predict(fit, p$X, type = "score")
  thr <- c(a = 0.1, b = 0.5, c = 0.9)
  # the cut, written out: a label is predicted where its score is above its threshold
  ref <- s > rep(thr, each = nrow(s))
  expect_equal(unname(predict(fit, p$X, type = "class", thresholds = thr)), unname(ref))
  expect_equal(predict(fit, p$X, type = "class", thresholds = rev(thr)),
               predict(fit, p$X, type = "class", thresholds = thr))
  expect_equal(unname(predict(fit, p$X, type = "class", thresholds = unname(thr))),
               unname(ref))
  expect_error(predict(fit, p$X, type = "class", thresholds = c(a = 0.1, b = 0.5, z = 0.9)),
               "'thresholds' names 'z', not label")
  expect_error(predict(fit, p$X, type = "class", thresholds = c(a = 0.1, b = 0.5, a = 0.9)),
               "names the label\\(s\\) 'a' more than once")
  expect_error(predict(fit, p$X, type = "class", thresholds = c(a = 0.1)),
               "no value for the label\\(s\\) 'b', 'c'")
  # the same rule in the other methods that take thresholds
  fb <- br(p$X, y)
  expect_error(predict(fb, p$X, type = "class", thresholds = c(x = 0, y = 0, z = 0)),
               "'thresholds' names 'x', 'y', 'z'")
  fk <- mlknn(p$X, y, k = 3)
  expect_equal(predict(fk, p$X, thresholds = rev(thr)), predict(fk, p$X, thresholds = thr))
})

test_that("ml_cv() refuses NA scores from a user's predict, naming the grid point and label", {
  p <- random_problem(60, 3, 3, seed = 3)
  y <- p$Y
  colnames(y) <- c("a", "b", "c")
  fit <- function(x, y, beta) mlls(x, y, alpha = 0, beta = beta)
  holes <- function(object, newx) {
    s <- predict(object, newx, type = "score")
    if (object$beta == 1) s[1, "b"] <- NA
    s
  }
  expect_error(ml_cv(p$X, y, fit, grid = list(beta = c(0.1, 1)), predict = holes,
                     nfolds = 3, progress = FALSE),
               "returned NA for 1 score\\(s\\) at the grid point beta = 1, label\\(s\\) 'b'")
  ok <- ml_cv(p$X, y, fit, grid = list(beta = c(0.1, 1)), nfolds = 3, progress = FALSE)
  expect_true(all(is.finite(ok$cvm)))
})

# For every cv_*() the one-standard-error point is at least as regularised as
# the best point.  The order each method's grid is read in is written here,
# from what each hyperparameter does (not from the package's own order):
# the first of `rank` is the most regularised.
test_that("every cv_*() puts its one-standard-error point on the regularised side", {
  d <- mlss::yeast
  x <- d$x[1:300, ]
  y <- d$y[1:300, ]
  xs <- x[1:150, 1:10]
  ys <- y[1:150, c(1, 3, 4)]
  fid <- rep(1:3, length.out = 300)
  cases <- list(
    cv_cplst = list(cv = function() cv_cplst(x, y, k = 3, lambda = 10^(-2:2), foldid = fid,
                                            progress = FALSE),
                    rank = function(g) order(g$k, -g$lambda)),   # fewer directions, more ridge
    cv_mlls = list(cv = function() cv_mlls(x, y, alpha = c(0, 1), beta = 10^(-3:1),
                                          foldid = fid, progress = FALSE),
                   rank = function(g) order(-g$beta, -g$alpha)),
    cv_br = list(cv = function() cv_br(x, y, learner = "ridge", cost = 10^(-3:1),
                                      foldid = fid, progress = FALSE),
                 rank = function(g) order(g$cost)),              # small cost, strong penalty
    cv_ssmddm = list(cv = function() cv_ssmddm(x, y, alpha = c(0, 1), beta = 10^(-2:1), k = 5,
                                              foldid = fid, progress = FALSE),
                     rank = function(g) order(-g$beta, -g$alpha)),
    cv_mlknn = list(cv = function() cv_mlknn(x, y, k = c(3, 10, 30), foldid = fid,
                                            progress = FALSE),
                    rank = function(g) order(-g$k)),             # more neighbours, smoother
    cv_cc = list(cv = function() cv_cc(xs, ys, cost = 10^(-2:1), foldid = fid[1:150],
                                      progress = FALSE),
                 rank = function(g) order(g$cost)),
    cv_pcc = list(cv = function() cv_pcc(xs, ys, cost = 10^(-2:1), foldid = fid[1:150],
                                        progress = FALSE),
                  rank = function(g) order(g$cost)),
    cv_lewl = list(cv = function() cv_lewl(xs, ys, lambda = c(0.1, 10), beta = c(0, 10),
                                          k = 2, foldid = fid[1:150], progress = FALSE),
                   rank = function(g) order(-g$beta, -g$lambda, g$k)),
    cv_mlcrf = list(cv = function() cv_mlcrf(xs, ys, lambda_w = c(0.3, 0.03), eta = c(0.5, 1),
                                            lambda_v = 0.05, foldid = fid[1:150],
                                            progress = FALSE),
                    rank = function(g) order(-g$lambda_w, -g$eta)),
    cv_lp = list(cv = function() cv_lp(xs, ys, cost = 10^(-2:1), foldid = fid[1:150],
                                      progress = FALSE),
                 rank = function(g) order(g$cost)),
    cv_rakel = list(cv = function() cv_rakel(xs, ys, cost = 10^(-2:1), k = 2, m = 3,
                                            foldid = fid[1:150], progress = FALSE),
                    rank = function(g) order(g$cost)),
    cv_eps = list(cv = function() cv_eps(xs, ys, cost = c(0.1, 1), n_models = 2, p = 1,
                                        foldid = fid[1:150], progress = FALSE),
                  rank = function(g) order(g$cost)),
    cv_clr = list(cv = function() cv_clr(xs, ys, cost = 10^(-2:1), foldid = fid[1:150],
                                        progress = FALSE),
                  rank = function(g) order(g$cost)),
    cv_homer = list(cv = function() cv_homer(xs, ys, cost = c(0.1, 1), k = 2,
                                            foldid = fid[1:150], progress = FALSE),
                    rank = function(g) order(g$cost)),
    cv_brplus = list(cv = function() cv_brplus(xs, ys, cost = c(0.1, 1), inner_folds = 2,
                                              foldid = fid[1:150], progress = FALSE),
                     rank = function(g) order(g$cost)),
    cv_dbr = list(cv = function() cv_dbr(xs, ys, cost = 10^(-2:1), foldid = fid[1:150],
                                        progress = FALSE),
                  rank = function(g) order(g$cost)),
    # a grid the user writes, no 'order': inferred from the names
    ml_cv_cost = list(cv = function() ml_cv(x, y, function(x, y, cost) br(x, y, cost = cost),
                                            grid = list(cost = c(10, 0.001, 1, 0.1)),
                                            foldid = fid, progress = FALSE),
                      rank = function(g) order(g$cost)),
    ml_cv_lambda = list(cv = function() ml_cv(x, y, function(x, y, lambda) cplst(x, y, k = 3,
                                                                                 lambda = lambda),
                                              grid = list(lambda = 10^(-2:2)), foldid = fid,
                                              progress = FALSE),
                        rank = function(g) order(-g$lambda))
  )
  # every cv_*() of the package is in the list
  expect_true(all(grep("^cv_", getNamespaceExports("mlss"), value = TRUE) %in% names(cases)))
  for (nm in names(cases)) {
    cv <- suppressWarnings(cases[[nm]]$cv())
    # the order is declared and print() states it
    expect_match(paste(capture.output(print(cv)), collapse = "\n"),
                 "regularisation order \\(ties and the 1se point\\): (larger|smaller) ",
                 label = nm)
    rank <- cases[[nm]]$rank(cv$grid)
    pos <- match(c(cv$best, cv$best_1se), rank)
    expect_lte(pos[2], pos[1], label = paste(nm, "rank of the 1-SE point"))
    # cv.glmnet's rule in plain R: the best mean (ties to the most regularised),
    # then the most regularised point within one standard error of it; a
    # measure where lower is better (cv_mlcrf()'s log_loss) turned round
    cvm <- as.vector(cv$cvm) * if (isFALSE(cv$higher_better)) -1 else 1
    cvsd <- as.vector(cv$cvsd)
    best <- rank[which.max(cvm[rank])]
    one_se <- rank[cvm[rank] >= cvm[best] - cvsd[best]][1]
    expect_identical(c(cv$best, cv$best_1se), c(best, one_se), label = nm)
  }
  # the case of the contract issue: yeast, 300 rows, k = 3 (lambda_1se was 1 below
  # the best 10); on these folds the best is 1 and the 1-SE point 10
  cv <- cv_cplst(x, y, k = 3, lambda = 10^(-2:2), foldid = fid, progress = FALSE)
  expect_gte(cv$lambda_1se, cv$lambda_best)
  expect_gt(cv$lambda_1se, 1)
})
