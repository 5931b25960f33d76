# MLML's step: one projected-gradient step from Z = Y with the documented
# step 1 / L, L = 4 beta + 2 gamma lambda_max(L_C) (+ 1 for the squared loss),
# against plain R (helper-mlbaselines.R's graphs and gradient).  A step from
# a looser bound still converges to the same QP solution, so only the
# iterates show it.

test_that("the first iterate is one projected-gradient step of length 1 / L", {
  d <- mlb_data(n = 30, d = 3, m = 4, seed = 71)
  y <- d$Y
  set.seed(72)
  y[matrix(runif(120) < 0.3, 30)] <- NA
  g <- ref_mlml_graphs(d$X, y, 5)
  Ys <- ifelse(is.na(y), 0, ifelse(y, 1, -1))
  for (loss in c("linear", "squared")) for (bg in list(c(0.7, 0.4), c(0.2, 2))) {
    beta <- bg[1]; gamma <- bg[2]
    L <- 4 * beta + 2 * gamma * max(eigen(g$LC, symmetric = TRUE)$values) +
      (loss == "squared")
    ref <- pmin(pmax(Ys - ref_mlml_gradient(Ys, Ys, g, beta, gamma, loss) / L, -1), 1)
    fit <- suppressWarnings(mlml(d$X, y, beta = beta, gamma = gamma, knn = 5, loss = loss,
                                 max_iter = 1))
    expect_equal(unname(fit$recovered), unname(ref), tolerance = 1e-10,
                 label = paste(loss, beta, gamma))
    # the step moved the missing entries (the comparison is not trivially Z = Y)
    expect_gt(max(abs(fit$recovered[is.na(y)])), 1e-3)
  }
})
