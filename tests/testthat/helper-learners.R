# Learners of the kind a user writes (the documented way, ?ml_learner), and
# small problems for the tests of the base-learner interface.

# Least squares on 0/1 (a score) or on a numeric response (a regression).
lm_learner <- function()
  ml_learner("lm",
    fit = function(x, y) stats::lm.fit(cbind(1, x), as.numeric(y))$coefficients,
    predict = function(model, newx) drop(cbind(1, newx) %*% model),
    type = "score", regression = TRUE)

# Logistic regression (probabilities): glm.fit() when shrink = 0, else the
# log-likelihood with a ridge term `shrink` on the weights, by optim() (a
# parameter for cv_br() to tune).
glm_learner <- function()
  ml_learner("glm",
    fit = function(x, y, shrink = 0) {
      if (shrink == 0)
        return(suppressWarnings(stats::glm.fit(cbind(1, x), y,
                                               family = stats::binomial()))$coefficients)
      # penalised: optim on the ridge-penalised log-likelihood
      Z <- cbind(1, x)
      s <- 2 * y - 1
      f <- function(w) shrink * sum(w[-1]^2) + sum(log1p(exp(-s * drop(Z %*% w))))
      stats::optim(numeric(ncol(Z)), f, method = "BFGS")$par
    },
    predict = function(model, newx) stats::plogis(drop(cbind(1, newx) %*% model)),
    params = list(shrink = 0))

# Nearest centroid: a score larger for TRUE.
centroid_learner <- function()
  ml_learner("centroid",
    fit = function(x, y) list(pos = colMeans(x[y, , drop = FALSE]),
                              neg = colMeans(x[!y, , drop = FALSE])),
    predict = function(model, newx)
      sqrt(colSums((t(newx) - model$neg)^2)) - sqrt(colSums((t(newx) - model$pos)^2)),
    type = "score")

learner_problem <- function(n = 60, d = 4, m = 3, seed = 1) {
  set.seed(seed)
  x <- matrix(stats::rnorm(n * d), n, d, dimnames = list(NULL, paste0("f", seq_len(d))))
  B <- matrix(stats::rnorm(d * m), d, m)
  y <- (x %*% B + matrix(stats::rnorm(n * m, sd = 0.7), n, m)) > 0
  colnames(y) <- paste0("l", seq_len(m))
  list(x = x, y = y)
}

# glm.fit's logistic regression by hand.
glm_ref <- function(x, y)
  suppressWarnings(stats::glm.fit(cbind(1, x), y, family = stats::binomial()))$coefficients
glm_ref_prob <- function(w, x) stats::plogis(drop(cbind(1, x) %*% w))
