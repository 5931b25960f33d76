# Loaded first (the "aaa-" of the name; R sources a package's files in
# alphabetical order): the method files call formula_method() when they load.

# The formula method of the fitting function `name`: model_data() turns the
# formula and data into x and y, the default method `<name>.default` fits
# (looked up when called, so that the files may load in any order), and
# with_formula() keeps the formula call and what predict() needs.
formula_method <- function(name) {
  force(name)
  function(x, data, subset, na.action = stats::na.fail, ...) {
    md <- model_data(match.call(expand.dots = FALSE), na.action, parent.frame())
    fit <- get(paste0(name, ".default"), mode = "function")(md$x, md$y, ...)
    with_formula(fit, md, match.call(), as.name(name))
  }
}
