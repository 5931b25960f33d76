# A toolbox cv_*() on a small problem pr (x, y): the cost grid c(0.1, 1) on
# the three folds rep_len(1:3, n), the engine's messages muted; the method's
# other arguments in ...
toolbox_cv <- function(cv_fun, pr, ...)
  suppressMessages(cv_fun(pr$x, pr$y, cost = c(0.1, 1), foldid = rep_len(1:3, nrow(pr$x)), ...))
