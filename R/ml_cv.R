#' Cross-validate any multi-label method over a grid of hyperparameters
#'
#' The package's cross-validation engine, open to any fitting function: the
#' folds of [ml_folds()], out-of-fold thresholds, the measures of
#' [ml_metrics()], the best and one-standard-error points, a refit on all the
#' data, and the same result, `print()`, `plot()`, `predict()` and
#' `as.data.frame()` as [cv_mlls()].  Methods with a faster way through the
#' grid have their own `cv_*()` function on the same engine ([cv_mlls()] and
#' [cv_ssmddm()] decompose each fold once); this one refits the model at every
#' grid point of every fold.
#'
#' The grid is evaluated one point at a time over all folds, so that memory
#' holds one n x m matrix of out-of-fold scores.  With `warm_start = TRUE`
#' each fold's previous model at the preceding grid point is passed to `fit`
#' as `init`, so that an iterative solver can start from it: list the grid
#' along the path the solver likes (e.g. decreasing penalties).
#'
#' @section Missing labels:
#' By default `NA` in `y` is an error.  `na_labels = "keep"` passes `y` with
#' its `NA` to `fit` (for a method that learns from the observed entries),
#' `"negative"` passes it with `NA` as `FALSE`.  The folds stratify on the
#' observed positives, and the out-of-fold thresholds and the measure of each
#' fold use the observed entries only, so that a missing label is never
#' scored as a negative.
#'
#' @param x Features: a matrix, data frame or sparse `Matrix`, whose rows
#'   `fit` and `predict` receive.
#' @param y Labels, as for [mlls()].
#' @param fit `function(x, y, ...)` returning a model; the hyperparameters of
#'   a grid point come as named arguments (and `init`, see above).
#' @param grid A named list of vectors, every combination of which is a grid
#'   point, or a data frame with one grid point per row.
#' @param predict `function(object, newx)` returning the n x m matrix of
#'   scores (higher means more likely; `NA` is an error naming the grid
#'   point and the labels).  By default `predict(object, newx, type = "score")`.
#' @param warm_start Pass each fold's previous model to `fit` as `init`?
#' @param na_labels What to do with missing labels (`NA` in `y`):
#'   `"refuse"` (the default: an error), `"keep"` (pass `y` with its `NA` to
#'   `fit`, for a method that learns from observed entries, such as `lewl()`)
#'   or `"negative"` (pass `y` to `fit` with `NA` as `FALSE`).  Either way the
#'   folds stratify on the observed positives, and the out-of-fold thresholds
#'   and the measures of each fold use the observed entries only (see
#'   [ml_metrics()]): a missing label is never scored as a negative.
#' @param order `function(grid)` giving the rows of the grid (a data frame)
#'   from the most to the least regularised: it breaks ties and finds the
#'   one-standard-error point.  By default the rows as they are.
#' @inheritParams cv_mlls
#' @return An object of class `c("cv_<name>", "ml_cv")` (`name` the class of
#'   the fitted model, or "model"), with the components described in
#'   [cv_mlls()]: `grid`, `cvm`, `cvsd`, `cvfold`, `best`, `best_1se`, `fit`,
#'   `foldid`, and `<hyperparameter>_best`, `<hyperparameter>_1se`.  The final
#'   model's `thresholds` component, when it has one, is replaced by the
#'   out-of-fold thresholds (`thresholds = "oof"`).
#' @examples
#' x <- mlss::yeast$x[1:300, ]
#' y <- mlss::yeast$y[1:300, ]
#' set.seed(1)
#' cv <- ml_cv(x, y, fit = function(x, y, beta) mlls(x, y, alpha = 0, beta = beta),
#'             grid = list(beta = 10^(-3:1)), nfolds = 3)
#' cv
#' @export
ml_cv <- function(x, y, fit, grid, predict = NULL, warm_start = FALSE, nfolds = 5,
                  foldid = NULL, measure = "macro_f1", thresholds = c("oof", "train"),
                  select = c("best", "1se"), keep = FALSE, parallel = FALSE,
                  progress = interactive(), order = NULL,
                  na_labels = c("refuse", "keep", "negative"), ...) {
  call <- match.call()
  check_no_dots(...)
  if (!is.function(fit)) stop_arg("'fit' must be a function(x, y, ...)")
  if (is.null(predict)) predict <- function(object, newx) stats::predict(object, newx, type = "score")
  if (!is.function(predict)) stop_arg("'predict' must be a function(object, newx)")
  warm_start <- check_flag(warm_start, "warm_start")
  opt <- cv_options(measure, match.arg(thresholds), match.arg(select), keep, parallel,
                    progress)
  axes <- NULL
  if (is.data.frame(grid)) {
    if (!nrow(grid) || is.null(names(grid)) || any(names(grid) == ""))
      stop_arg("'grid' must have named columns and at least one row")
  } else {
    if (!is.list(grid) || !length(grid) || is.null(names(grid)) || any(names(grid) == "") ||
        any(lengths(grid) == 0))
      stop_arg("'grid' must be a named list of vectors or a data frame")
    axes <- grid
    grid <- do.call(expand.grid, c(grid, stringsAsFactors = FALSE))
  }
  xy <- ml_xy(x, y)
  x <- as_features(xy$x)
  na_labels <- match.arg(na_labels)
  # y (with any NA) is the truth the folds are scored on; y_fit what fit() sees
  y <- as_labels(xy$y, nrow(x), na = if (na_labels == "refuse") "refuse" else "keep",
                 fun = "ml_cv")
  y_fit <- y
  if (na_labels == "negative" && anyNA(y_fit)) y_fit[is.na(y_fit)] <- FALSE
  foldid <- cv_foldid(y, nfolds, foldid)
  if (is.null(order)) order <- function(grid) seq_len(nrow(grid))

  fit_at <- function(rows, point, init) {
    args <- c(list(x[rows, , drop = FALSE], y_fit[rows, , drop = FALSE]), as.list(point))
    if (warm_start) args["init"] <- list(init)
    do.call(fit, args)
  }
  check_scores <- function(s, n, g) {
    if (!is.matrix(s) || !is.numeric(s) || nrow(s) != n || ncol(s) != ncol(y))
      stop_arg("'predict' must return a numeric matrix with one row per row of 'newx' ",
               "and one column per label")
    # an NA score would drop out of the thresholds and measures without a word
    if (anyNA(s)) {
      bad <- which(colSums(is.na(s)) > 0)
      stop_arg("'predict' returned NA for ", sum(is.na(s)), " score(s) at the grid point ",
               grid_point_label(grid[g, , drop = FALSE]), ", label(s) ",
               label_names(colnames(y)[bad]), ": it must give a score for every row ",
               "and label")
    }
    s
  }
  spec <- list(
    name = "model", grid = grid, axes = axes, parallel_score = TRUE,
    prepare = function(train) list(train = train, init = NULL),
    score = function(state, g) {
      tr <- state$train
      model <- fit_at(tr, grid[g, , drop = FALSE], state$init)
      va <- seq_len(nrow(x))[-tr]
      scores <- check_scores(predict(model, x[va, , drop = FALSE]), length(va), g)
      thr <- if (opt$thresholds == "train")
        f1_thresholds(check_scores(predict(model, x[tr, , drop = FALSE]), length(tr), g),
                      y[tr, , drop = FALSE], level = opt$level)$threshold
      list(scores = scores, thresholds = thr,
           state = if (warm_start) list(train = tr, init = model))
    },
    refit = function(point, thr) {
      model <- fit_at(seq_len(nrow(x)), point, NULL)
      if (!is.null(thr) && is.list(model) && !is.null(model$thresholds))
        model <- set_thresholds(model, thr)
      model
    },
    order = order)
  cv <- cv_engine(spec, y, foldid, opt, call)
  class(cv) <- c(paste0("cv_", class(cv$fit)[1]), "ml_cv")
  if (identical(class(cv)[1], "cv_mlls")) class(cv)[1] <- "cv_model"
  cv
}

# "beta = 0.1, alpha = 1": a grid point (one row of the grid) for a message.
grid_point_label <- function(point) {
  paste0(names(point), " = ", vapply(point, function(v) format(v[[1]]), ""), collapse = ", ")
}
