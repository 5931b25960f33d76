# The formula interface shared by the fitting functions (`cbind(l1, l2) ~ .`,
# the lm idiom): the model frame, the labels, the model matrix without its
# intercept column, and what predict() needs to rebuild it for new data (see
# formula_newx()).  `mcall` is the formula method's match.call(expand.dots =
# FALSE), `env` the frame it was called from.
formula_parts <- function(mcall, na.action, env) {
  mf <- mcall
  names(mf)[names(mf) == "x"] <- "formula"
  keep <- match(c("formula", "data", "subset", "na.action"), names(mf), 0L)
  mf <- mf[c(1L, keep)]
  mf$na.action <- na.action
  mf$drop.unused.levels <- TRUE
  mf[[1L]] <- quote(stats::model.frame)
  mf <- eval(mf, env)
  terms <- attr(mf, "terms")
  y <- stats::model.response(mf)
  if (is.null(y)) stop_arg("the formula has no labels on its left-hand side, e.g. cbind(l1, l2) ~ .")
  if (is.null(dim(y)))
    y <- matrix(y, ncol = 1, dimnames = list(NULL, deparse(stats::formula(terms)[[2L]])))
  xm <- stats::model.matrix(terms, mf)
  list(x = xm[, colnames(xm) != "(Intercept)", drop = FALSE], y = y, terms = terms,
       xlevels = stats::.getXlevels(terms, mf), contrasts = attr(xm, "contrasts"))
}

# A fit from the default method, completed with the formula parts and the call.
formula_finish <- function(fit, parts, call, name) {
  call[[1L]] <- name
  fit$call <- call
  fit$terms <- parts$terms
  fit$xlevels <- parts$xlevels
  fit$contrasts <- parts$contrasts
  fit
}
