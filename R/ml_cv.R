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
#' @section What is measured:
#' The measure is that of what `predict()` of the refitted model returns.
#' A measure of label sets (F1, Hamming loss, subset accuracy, ...) cuts the
#' validation scores at per-label thresholds (out-of-fold by default), and
#' the refit carries the out-of-fold thresholds of the chosen point in
#' `$fit$thresholds` (set even for a model that had none), so that
#' `predict(cv, newx, type = "class", thresholds = cv$fit$thresholds)`
#' labels new rows as the folds were labelled.  The package's cv functions
#' of methods whose labels come from a decoder ([cv_cc()], [cv_pcc()],
#' [cv_mlcrf()]) score a measure of label sets on the decoder's label sets
#' instead (`predict(type = "class")` of each fold's model) and give the
#' refit no thresholds.  A ranking measure uses the scores.  `"log_loss"`
#' and `"brier"` (see [ml_metrics()]) need `probabilities = TRUE`: the
#' scores are then taken as per-label probabilities of independent labels.
#'
#' @section Regularisation order:
#' Ties and the one-standard-error point go to the most regularised point.
#' Without `order`, `ml_cv()` infers the direction from the names of the
#' grid: a larger value is the more regularised for `lambda` (and names
#' starting with it), `alpha`, `beta`, `mu`, `penalty`, `ridge`,
#' `shrinkage`, `s`, `smoothing`, `l1`, `l2`, `knn`, `neighbours`, and `k`
#' when `fit` calls [mlknn()] or [iblr()] (more neighbours, smoother); a
#' smaller value for `cost` and `C` (the inverse of a penalty), `max_iter`,
#' `maxit`, `r`, `rank`, `dim`, `ncomp`, and `k` otherwise (fewer
#' directions, as in [cplst()] and [lewl()]).  The first axis orders first.
#' When a name is not known, a message says that the grid's rows are taken
#' as running from the most to the least regularised.  `print()` states the
#' order used.
#'
#' @section Inputs and warnings:
#' `x` may also be a formula with `data` (`ml_cv(cbind(l1, l2) ~ ., data = d,
#' fit = ...)`, features built as the fitting functions' formula methods
#' build them), an [mlss_data()] object (its training rows when it has a
#' split) or an `mldr` object, as for every `cv_*()` function.  Warnings from
#' the fold fits and the refit are collected: each distinct warning is given
#' once with its count, and the non-convergence warnings of the solvers
#' (class `"mlss_not_converged"`) once for the whole run, with the number of
#' fits that did not converge.
#'
#' @section Missing labels:
#' By default `NA` in `y` is an error.  `na_labels = "observed"` passes `y` with
#' its `NA` to `fit` (for a method that learns from the observed entries),
#' `"negative"` passes it with `NA` as `FALSE`.  The folds stratify on the
#' observed positives, and the out-of-fold thresholds and the measure of each
#' fold use the observed entries only, so that a missing label is never
#' scored as a negative.
#'
#' @param x Features: a matrix, data frame or sparse `Matrix`, whose rows
#'   `fit` and `predict` receive; or a formula, an `mlss_data` or an `mldr`
#'   object (see the section Inputs and warnings).
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
#'   `"refuse"` (the default: an error), `"observed"` (pass `y` with its `NA`
#'   to `fit`, for a method that learns from observed entries, such as
#'   `lewl()`; `"keep"`, its old spelling, is deprecated) or `"negative"`
#'   (pass `y` to `fit` with `NA` as `FALSE`).  Either way the
#'   folds stratify on the observed positives, and the out-of-fold thresholds
#'   and the measures of each fold use the observed entries only (see
#'   [ml_metrics()]): a missing label is never scored as a negative.
#' @param order `function(grid)` giving the rows of the grid (a data frame)
#'   from the most to the least regularised: it breaks ties and finds the
#'   one-standard-error point.  By default inferred from the names of the
#'   grid, or the rows as they are (see the section Regularisation order).
#' @param rule `NULL` (the default: label sets by the per-label cuts of the
#'   measure), or a vector of candidate decision rules chosen with the grid
#'   point by the measure on the out-of-fold scores: `"f1"`, `"fixed"`,
#'   `"rcut"`, `"pcut"`, `"mcut"`, `"lcard"`, `"scut"`, each optionally
#'   followed by `"+1"` (at least one label per row); see [cv_eps()],
#'   section Decision rules, and [ml_decide()].
#' @param probabilities Are the scores of `predict` per-label probabilities
#'   (as for [br()] with `learner = "logistic"`, [iblr()], [mlknn()])?  Needed
#'   for `measure = "log_loss"` and `"brier"`.
#' @inheritParams cv_mlls
#' @return An object of class `c("cv_<name>", "ml_cv")` (`name` the class of
#'   the fitted model, or "model"), with the components described in
#'   [cv_mlls()]: `grid`, `cvm`, `cvsd`, `cvfold`, `best`, `best_1se`, `fit`,
#'   `foldid`, and `<hyperparameter>_best`, `<hyperparameter>_1se`,
#'   `order_rule` (the regularisation order, in words), `order` (the grid
#'   rows from the most to the least regularised) and `scored_by`.  The
#'   final model's `thresholds` component is set to the out-of-fold
#'   thresholds (`thresholds = "oof"`).
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
                  na_labels = c("refuse", "observed", "negative"), probabilities = FALSE,
                  rule = NULL, ...) {
  call <- match.call()
  if (inherits(x, "formula")) return(cv_formula(call, parent.frame(), "ml_cv"))
  check_no_dots(...)
  probabilities <- check_flag(probabilities, "probabilities")
  axes_given <- if (is.data.frame(grid)) NULL else grid
  if (is.null(order)) {
    inferred <- infer_grid_order(grid, fit)
    order <- inferred$order
    order_rule <- inferred$rule
  } else {
    if (!is.function(order)) stop_arg("'order' must be a function(grid) giving row numbers")
    order_rule <- "given by 'order'"
  }
  ml_cv_run(x, y, fit, grid, predict = predict, warm_start = warm_start, nfolds = nfolds,
            foldid = foldid, measure = measure, thresholds = match.arg(thresholds),
            select = match.arg(select), keep = keep, parallel = parallel,
            progress = progress, order = order, order_rule = order_rule,
            na_labels = na_labels_arg(na_labels, "ml_cv"),
            probabilities = if (probabilities) "label", rule = rule, call = call,
            fun = "ml_cv")
}

# The engine run of ml_cv() and of the cv_*() functions built on it, with
# what ml_cv() does not let a user say: a decoder (the method's own
# predict(type = "class"), used for measures of label sets), joint
# probabilities (loglik), the rule of the order for print(), the limits of
# an axis beyond which the message "on the edge of the grid" is not given
# (see grid_edge()), and the name of the function for messages.
ml_cv_run <- function(x, y, fit, grid, predict = NULL, warm_start = FALSE, nfolds = 5,
                      foldid = NULL, measure = "macro_f1", thresholds = "oof",
                      select = "best", keep = FALSE, parallel = FALSE,
                      progress = interactive(), order, order_rule,
                      na_labels = "refuse", probabilities = NULL, decoder = FALSE,
                      loglik = NULL, no_prob_hint = NULL, rule = NULL, path_stop = NULL,
                      limits = NULL, call, fun) {
  if (!is.function(fit)) stop_arg("'fit' must be a function(x, y, ...)")
  if (is.null(predict)) predict <- function(object, newx) stats::predict(object, newx, type = "score")
  if (!is.function(predict)) stop_arg("'predict' must be a function(object, newx)")
  warm_start <- check_flag(warm_start, "warm_start")
  opt <- cv_options(measure, thresholds, select, keep, parallel, progress, rule)
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
  # y (with any NA) is the truth the folds are scored on; y_fit what fit() sees
  y <- as_labels(xy$y, nrow(x), na = if (na_labels == "refuse") "refuse" else "keep",
                 fun = fun)
  y_fit <- y
  if (na_labels == "negative" && anyNA(y_fit)) y_fit[is.na(y_fit)] <- FALSE
  foldid <- cv_foldid(y, nfolds, foldid)

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
  keep_model <- decoder || !is.null(loglik)
  spec <- list(
    name = "model", grid = grid, axes = axes, limits = limits, parallel_score = TRUE, fun = fun,
    probabilities = probabilities, no_prob_hint = no_prob_hint, order_rule = order_rule,
    # the method's own labels: predict(type = "class") without thresholds
    decoder = if (decoder) function(model, rows)
      stats::predict(model, x[rows, , drop = FALSE], type = "class"),
    loglik = if (!is.null(loglik)) function(model, rows)
      loglik(model, x[rows, , drop = FALSE], y[rows, , drop = FALSE]),
    prepare = function(train) list(train = train, init = NULL),
    score = function(state, g) {
      tr <- state$train
      model <- fit_at(tr, grid[g, , drop = FALSE], state$init)
      va <- seq_len(nrow(x))[-tr]
      scores <- check_scores(predict(model, x[va, , drop = FALSE]), length(va), g)
      thr <- if (opt$thresholds == "train")
        f1_thresholds(check_scores(predict(model, x[tr, , drop = FALSE]), length(tr), g),
                      y[tr, , drop = FALSE], level = opt$level)$threshold
      list(scores = scores, thresholds = thr, model = if (keep_model) model,
           state = if (warm_start) list(train = tr, init = model))
    },
    refit = function(point, thr = NULL) {
      model <- fit_at(seq_len(nrow(x)), point, NULL)
      # a decoder's labels take no thresholds; any other model carries the
      # out-of-fold ones, which its predict(type = "class") uses
      if (!decoder && !is.null(thr) && is.list(model))
        model <- set_thresholds(model, thr)
      model
    },
    order = order,
    path_stop = path_stop)  # the early stop of paths (R/cv_paths.R), or NULL
  cv <- cv_engine(spec, y, foldid, opt, call)
  class(cv) <- c(paste0("cv_", setdiff(class(cv$fit), "ml_ruled")[1]), "ml_cv")
  if (identical(class(cv)[1], "cv_mlls")) class(cv)[1] <- "cv_model"
  cv
}

# The regularisation order of a grid a user writes, from the names of its
# hyperparameters: for each axis, which end is the more regularised.
#   larger is more regularised: lambda*, alpha, beta, mu, penalty, ridge,
#     shrinkage, s (smoothing), knn and neighbours (more neighbours, smoother),
#     and k when `fit` calls mlknn() or iblr() (k neighbours);
#   smaller is more regularised: cost, C (the inverse of a penalty), max_iter
#     and maxit (early stopping), r, rank, dim, ncomp and k elsewhere (fewer
#     directions).
# Axes it does not know make it take the grid's rows as given, from the most
# to the least regularised, and say so.
infer_grid_order <- function(grid, fit) {
  g <- if (is.data.frame(grid)) grid else if (is.list(grid) && length(grid) &&
    !is.null(names(grid))) do.call(expand.grid, c(grid, stringsAsFactors = FALSE)) else
      return(list(order = function(grid) seq_len(nrow(grid)), rule = "the grid's order"))
  body <- if (is.function(fit)) paste(deparse(fit), collapse = " ") else ""
  knn <- grepl("mlknn\\(|iblr\\(", body)
  dir <- vapply(names(g), function(p) grid_axis_direction(p, knn), 0)
  numeric_axes <- vapply(g, is.numeric, NA)
  if (anyNA(dir) || !all(numeric_axes)) {
    unknown <- names(g)[is.na(dir) | !numeric_axes]
    message("ml_cv(): the regularisation direction of ", paste0("'", unknown, "'", collapse = ", "),
            " is not known: the grid's rows are taken as running from the most to the ",
            "least regularised (give 'order' to say otherwise)")
    return(list(order = function(grid) seq_len(nrow(grid)),
                rule = "the grid's rows, taken as from the most to the least regularised"))
  }
  vary <- names(g)[vapply(g, function(v) length(unique(v)) > 1, NA)]
  rule <- if (!length(vary)) "the grid's order (one point)" else
    paste(paste0(ifelse(dir[vary] > 0, "larger ", "smaller "), vary), collapse = ", then ")
  list(order = function(grid) {
    keys <- lapply(names(dir), function(p) -dir[[p]] * grid[[p]])
    do.call(order, unname(keys))
  }, rule = paste(rule, "first (inferred from the names)"))
}

# +1 when a larger value regularises more, -1 when a smaller one does, NA
# when the name says nothing.
grid_axis_direction <- function(name, knn) {
  p <- tolower(name)
  if (p %in% c("cost", "c", "max_iter", "maxit", "r", "rank", "dim", "ncomp", "nu_inv")) return(-1)
  if (p %in% c("knn", "neighbours", "neighbors")) return(1)
  if (p == "k") return(if (knn) 1 else -1)
  if (grepl("^lambda", p) || p %in% c("alpha", "beta", "mu", "penalty", "ridge", "shrinkage",
                                        "s", "smoothing", "l1", "l2"))
    return(1)
  NA_real_
}

# "beta = 0.1, alpha = 1": a grid point (one row of the grid) for a message.
grid_point_label <- function(point) {
  paste0(names(point), " = ", vapply(point, function(v) format(v[[1]]), ""), collapse = ", ")
}

# The formula interface of every cv_*() function and ml_cv():
# cv_br(cbind(l1, l2) ~ ., data = d, ...) is cv_br(<features>, <labels>, ...)
# with the features built as the fitting functions' formula methods build
# them (model_data()), and the fit (and any refit) keeps what predict()
# needs to rebuild them from a data frame.  `call` is the cv function's
# match.call(), whose `x` is the formula; a data frame given second (as `y`)
# is taken as `data`.
cv_formula <- function(call, env, name) {
  args <- as.list(call)[-1L]
  if (is.null(args$data) && !is.null(args$y)) names(args)[names(args) == "y"] <- "data"
  mcall <- as.call(c(list(as.name(name)), args))
  na.action <- if (!is.null(args$na.action)) eval(args$na.action, env) else stats::na.fail
  md <- model_data(mcall, na.action, env)
  rest <- args[!names(args) %in% c("x", "y", "data", "subset", "na.action")]
  rest <- lapply(rest, eval, env)
  cv <- do.call(get(name, envir = asNamespace("mlss")), c(list(md$x, md$y), rest))
  with_parts <- function(fit) structure(c(unclass(fit), md$formula_parts), class = class(fit))
  cv$fit <- with_parts(cv$fit)
  refit <- cv$refit
  cv$refit <- function(point, thr = NULL) with_parts(refit(point, thr))
  cv$call <- call
  cv
}
