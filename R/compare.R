#' Compare multi-label methods on common folds
#'
#' Fits every method on the training part of each outer fold (or split) and
#' evaluates it on the held-out part with [ml_metrics()], so that methods are
#' compared on the same folds and the same measures, and the comparison can
#' be summarised by paired tests over the folds ([summary.ml_comparison()]),
#' as the papers do.
#'
#' @section Methods:
#' Each element of `methods` is one of
#' * a function `function(x, y)` returning a model;
#' * a call or a one-sided formula in `x` and `y`, e.g.
#'   `quote(mlls(x, y, alpha = 1, beta = 0.1))` or `~ cv_mlls(x, y, nfolds = 3)`,
#'   evaluated with `x` and `y` the training part of the fold (other names
#'   are looked up where `ml_compare()` was called, or in the formula's
#'   environment).
#'
#' The model must answer `predict(model, newx, type = "score")` (for the
#' measures of rankings) and `predict(model, newx, type = "class")` (for
#' those of label sets), as every fit of the package does.  A `cv_*()`
#' specification such as `~ cv_mlls(x, y)` is tuned inside each outer fold,
#' on its training part only (nested cross-validation, as the MLLS and MLCRF
#' papers tune); the grid point it chose is reported in the column `chosen`.
#'
#' A method that fails on a fold (an error) gives `NA` on that fold, with a
#' warning naming the method and the fold; the other methods and folds are
#' kept, and the failures are listed in `attr(result, "failures")`.  When
#' every method fails on every fold, `ml_compare()` stops with the first
#' failure.
#'
#' @section Folds, seeds and parallel folds:
#' The outer parts are, in this order of precedence: `splits` (a list of
#' training rows: repeated random splits, e.g. the MLLS papers' 1000 training
#' pages drawn several times), `foldid`, or `repeats` times `nfolds`
#' stratified folds of [ml_folds()] (drawn from R's generator, so
#' `set.seed()` makes them reproducible).  Then one seed per fold and method
#' is drawn from R's generator, and each method is run on each fold after
#' `set.seed()` with its seed: a method's result on a fold does not depend on
#' the other methods, nor on where it runs.  When the `future.apply` package is
#' installed and a parallel `future::plan()` is set (e.g.
#' `future::plan("multisession", workers = 2)`), the folds run on its
#' workers, with the same results as sequentially.  On workers, a method
#' should use only its arguments and package functions (objects of the
#' calling session are not sent).  Progress: one step per fold, through
#' `progressr` where installed (`progressr::handlers()` chooses the display),
#' else a text bar (sequential runs only).
#'
#' @param x Features: matrix, data frame or sparse `Matrix`; or a data set
#'   (`mlss_data` or `mldr` object) with its labels, `y` then left out: its
#'   training rows when it has a train/test split (see [mlss_data()]).
#' @param y Labels, as for [mlls()]; the methods receive the rows of `y` as
#'   given (a vector stays a vector).
#' @param methods A named list of methods: functions `function(x, y)`, calls
#'   or one-sided formulas (see the section Methods).
#' @param nfolds,foldid The outer folds, as in [cv_mlls()].
#' @param measures Measures to report, see [measure_names()] (those that need
#'   `pred` or `score`, including the variants `macro_f1_pr` and
#'   `ranking_loss_01`).
#' @param progress Show progress over the outer folds?
#' @param na_labels What to do with missing labels (`NA` in `y`), as in
#'   [ml_cv()]: `"refuse"` (an error), `"observed"` (the methods get `y` with
#'   its `NA`; `"keep"`, its old spelling, is deprecated) or `"negative"`
#'   (they get `NA` as `FALSE`).  The folds stratify on
#'   the observed positives and are scored on the observed entries only.
#' @param repeats Repeat the `nfolds` folds this many times, each with new
#'   folds (repeated cross-validation); the folds are then numbered
#'   `1, ..., repeats * nfolds`.
#' @param splits Instead of folds: a list of training rows (integer or
#'   logical vectors), each evaluated on the other rows.
#' @param absent How `macro_f1` counts a label absent from a test fold (no
#'   positive, no prediction): see [ml_metrics()].
#' @return An object of class `"ml_comparison"`: a data frame with one row
#'   per method, fold and measure, and columns `method`, `fold`, `measure`,
#'   `value`, `time` (seconds to fit and predict the method on the fold) and
#'   `chosen` (the hyperparameters a `cv_*()` method chose on the fold, as
#'   text; `NA` for other methods).  `print()` shows the mean and standard
#'   deviation over folds, [summary()][summary.ml_comparison()] adds
#'   standard errors and paired tests, `plot()` draws the measures as panels.
#'   Attributes: `failures` (a data frame of `method`, `fold`, `message`)
#'   and `parts` (the training rows of each fold).
#' @examples
#' data(yeast)
#' set.seed(1)
#' small <- 1:400
#' cmp <- ml_compare(yeast$x[small, ], yeast$y[small, ], nfolds = 3, methods = list(
#'   MLLS = function(x, y) mlls(x, y, alpha = 1, beta = 0.1),
#'   ridge = ~ mlls(x, y, alpha = 0, beta = 0.1),
#'   tuned = ~ cv_mlls(x, y, alpha = c(0, 1), beta = c(0.01, 0.1), nfolds = 2)),
#'   measures = c("macro_f1", "macro_f1_pr", "micro_f1", "ranking_loss"))
#' cmp
#' summary(cmp, reference = "MLLS")
#' plot(cmp)
#' @export
ml_compare <- function(x, y, methods, nfolds = 5, foldid = NULL,
                       measures = c("macro_f1", "micro_f1", "hamming_loss", "average_precision"),
                       repeats = 1, splits = NULL, absent = c("one", "zero", "drop"),
                       progress = interactive(), na_labels = c("refuse", "observed", "negative")) {
  methods <- check_compare_methods(methods, parent.frame())
  xy <- ml_xy(x, y)
  x <- xy$x
  y <- xy$y
  n <- NROW(x)
  na_labels <- na_labels_arg(na_labels, "ml_compare")
  absent <- match.arg(absent)
  # labels (NA kept) are what the folds are scored on; y what the methods see
  labels <- as_labels(y, n, na = if (na_labels == "refuse") "refuse" else "keep",
                      fun = "ml_compare")
  if (na_labels == "negative") y <- replace(labels, is.na(labels), FALSE)
  check_compare_measures(measures)
  progress <- check_flag(progress, "progress")
  parts <- compare_parts(labels, n, nfolds, foldid, repeats, splits)
  nparts <- length(parts)
  # one seed per fold and method, drawn after the folds, from R's generator
  seeds <- matrix(sample.int(.Machine$integer.max, nparts * length(methods)), nparts)
  kind <- RNGkind()
  state <- get(".Random.seed", envir = globalenv())
  on.exit(assign(".Random.seed", state, envir = globalenv()), add = TRUE)
  info <- all_measures()
  needs <- info$needs[match(measures, info$name)]
  run_part <- function(k) {
    tr <- parts[[k]]
    newx <- take_rows(x, !tr)
    truth <- labels[!tr, , drop = FALSE]
    lapply(seq_along(methods), function(j) {
      set.seed(seeds[k, j], kind = kind[1], normal.kind = kind[2], sample.kind = kind[3])
      t0 <- proc.time()[["elapsed"]]
      out <- tryCatch({
        model <- run_method(methods[[j]], take_rows(x, tr), take_rows(y, tr))
        score <- if (any(needs == "score")) stats::predict(model, newx, type = "score")
        pred <- if (any(needs == "pred")) stats::predict(model, newx, type = "class")
        list(values = unlist(ml_metrics(truth, score = score, pred = pred, measures = measures,
                                        absent = absent)),
             chosen = chosen_point(model))
      }, error = function(e) list(error = conditionMessage(e)))
      out$time <- proc.time()[["elapsed"]] - t0
      out
    })
  }
  res <- compare_apply(nparts, run_part, progress)
  rows <- list()
  failures <- list()
  for (k in seq_len(nparts)) for (j in seq_along(methods)) {
    r <- res[[k]][[j]]
    if (!is.null(r$error)) {
      failures[[length(failures) + 1]] <- data.frame(method = names(methods)[j], fold = k,
                                                     message = r$error, stringsAsFactors = FALSE)
      r$values <- rep(NA_real_, length(measures))
    }
    rows[[length(rows) + 1]] <- data.frame(
      method = names(methods)[j], fold = k, measure = measures, value = unname(r$values),
      time = r$time, chosen = if (is.null(r$chosen)) NA_character_ else r$chosen,
      stringsAsFactors = FALSE)
  }
  failures <- if (length(failures)) do.call(rbind, failures) else
    data.frame(method = character(), fold = integer(), message = character())
  # every method failed on every fold: nothing to compare, an error
  if (nrow(failures) == nparts * length(methods))
    stop_arg("every method failed on every fold; method '", failures$method[1],
             "' failed on fold ", failures$fold[1], " of ", nparts, ": ", failures$message[1])
  # one warning per failing method: its first failure, and its other folds
  for (me in unique(failures$method)) {
    f <- failures[failures$method == me, ]
    warning("method '", me, "' failed on fold ", f$fold[1], " of ", nparts, ": ",
            f$message[1], if (nrow(f) > 1) paste0(" (and on fold(s) ",
                                                 paste(f$fold[-1], collapse = ", "), ")"),
            "; its values there are NA", call. = FALSE)
  }
  out <- do.call(rbind, rows)
  rownames(out) <- NULL
  out$method <- factor(out$method, levels = names(methods))
  out$measure <- factor(out$measure, levels = measures)
  structure(out, class = c("ml_comparison", "data.frame"), failures = failures,
            parts = parts)
}

# The methods checked: each a function, a call or a one-sided formula; calls
# are kept with the environment to evaluate them in.
check_compare_methods <- function(methods, env) {
  ok <- function(m) is.function(m) || is.call(m) ||
    (inherits(m, "formula") && length(m) == 2L)
  if (missing(methods) || !is.list(methods) || !length(methods) || is.null(names(methods)) ||
      any(names(methods) == "") || !all(vapply(methods, ok, logical(1))))
    stop_arg("'methods' must be a named list of functions function(x, y), calls or ",
             "one-sided formulas in x and y (e.g. ~ cv_mlls(x, y))")
  if (anyDuplicated(names(methods))) stop_arg("'methods' names a method twice")
  lapply(methods, function(m) {
    if (is.function(m)) return(m)
    if (inherits(m, "formula")) return(list(expr = m[[2L]], env = environment(m) %||% env))
    list(expr = m, env = env)
  })
}

run_method <- function(m, x, y) {
  if (is.function(m)) return(m(x, y))
  eval(m$expr, list(x = x, y = y), m$env)
}

# The grid point a cv_*() result chose, as text ("alpha=0.01, beta=1"); NA
# for other models.
chosen_point <- function(model) {
  if (!inherits(model, "ml_cv") || is.null(model$grid) || is.null(model$chosen))
    return(NA_character_)
  g <- model$grid[model$chosen, , drop = FALSE]
  paste0(names(g), "=", vapply(g, function(v) format(v[[1]], digits = 4), ""), collapse = ", ")
}

# The training rows (logical) of each outer part.
compare_parts <- function(labels, n, nfolds, foldid, repeats, splits) {
  if (!is.null(splits)) {
    if (!is.list(splits) || !length(splits))
      stop_arg("'splits' must be a list of training rows (integer or logical vectors)")
    return(lapply(seq_along(splits), function(k) {
      s <- splits[[k]]
      tr <- if (is.logical(s) && length(s) == n && !anyNA(s)) s else {
        if (!is.numeric(s) || anyNA(s) || any(s < 1 | s > n | s != round(s)))
          stop_arg("'splits[[", k, "]]' must hold training rows: whole numbers in 1..", n,
                   " or a logical vector of length ", n)
        seq_len(n) %in% s
      }
      if (all(tr) || !any(tr))
        stop_arg("'splits[[", k, "]]' must leave rows both to train on and to test on")
      tr
    }))
  }
  if (!is.numeric(repeats) || length(repeats) != 1 || is.na(repeats) || repeats < 1 ||
      repeats != round(repeats))
    stop_arg("'repeats' must be a whole number >= 1")
  if (!is.null(foldid) && repeats > 1)
    stop_arg("'repeats' > 1 draws new folds each time; it cannot go with 'foldid'")
  parts <- list()
  for (r in seq_len(repeats)) {
    f <- cv_foldid(labels, nfolds, foldid)
    parts <- c(parts, lapply(seq_len(max(f)), function(k) f != k))
  }
  parts
}

# fun(k) for k in 1..n: on the workers of a parallel future::plan() when
# future.apply is installed, else in this session; progress one step per k.
compare_apply <- function(n, fun, progress) {
  use_future <- requireNamespace("future.apply", quietly = TRUE) &&
    !inherits(future::plan(), "sequential")
  prog <- progress && requireNamespace("progressr", quietly = TRUE)
  if (use_future) {
    run <- function(p) future.apply::future_lapply(seq_len(n), function(k) {
      r <- fun(k)
      if (!is.null(p)) p()
      r
    }, future.seed = TRUE, future.packages = "mlss")
    return(if (prog) progressr::with_progress(run(progressr::progressor(n))) else run(NULL))
  }
  bar <- if (progress && !prog) utils::txtProgressBar(0, n, style = 3)
  body <- function(p) lapply(seq_len(n), function(k) {
    r <- fun(k)
    if (!is.null(p)) p()
    if (!is.null(bar)) utils::setTxtProgressBar(bar, k)
    r
  })
  res <- if (prog) progressr::with_progress(body(progressr::progressor(n))) else body(NULL)
  if (!is.null(bar)) close(bar)
  res
}

# Rows i of a matrix, data frame, sparse Matrix or vector (one label or one
# feature), keeping its kind.
take_rows <- function(v, i) if (is.null(dim(v))) v[i] else v[i, , drop = FALSE]

# Measures a comparison can compute from the methods' scores and label sets.
check_compare_measures <- function(measures) {
  info <- all_measures()
  if (!is.character(measures) || !length(measures) || anyNA(measures))
    stop_arg("'measures' must be names of measures, see measure_names()")
  bad <- setdiff(measures, info$name)
  if (length(bad))
    stop_arg("unknown measure '", bad[1], "'; the measures are ",
             paste(info$name[info$needs != "prob"], collapse = ", "))
  prob <- measures[info$needs[match(measures, info$name)] == "prob"]
  if (length(prob))
    stop_arg("measure '", prob[1], "' needs the probabilities of the true label vectors, ",
             "which ml_compare() does not get from a method (it asks for scores and ",
             "label sets); compute it with ml_metrics(y, prob = ...)")
  if (anyDuplicated(measures)) stop_arg("'measures' names a measure twice")
}

comparison_summary <- function(x) {
  x <- as.data.frame(unclass(x))
  x <- x[!is.na(x$value), , drop = FALSE]
  stats::aggregate(value ~ method + measure, data = x,
                   FUN = function(v) c(mean = mean(v), sd = stats::sd(v), n = length(v)))
}

#' @export
print.ml_comparison <- function(x, digits = 3, ...) {
  s <- comparison_summary(x)
  cell <- sprintf("%.*f (%.*f)", digits, s$value[, "mean"], digits, s$value[, "sd"])
  tab <- tapply(cell, list(s$method, s$measure), identity)
  cat("Mean (sd) over", length(unique(x$fold)), "folds\n")
  print(noquote(tab))
  f <- attr(x, "failures")
  if (!is.null(f) && nrow(f))
    cat("Failed (NA, left out):", paste0(f$method, " on fold ", f$fold, collapse = "; "), "\n")
  invisible(x)
}

#' Summarise a comparison: means, standard errors and paired tests
#'
#' For each method and measure: the mean over folds, its standard error
#' (\eqn{sd / \sqrt{k}}{sd / sqrt(k)} over the \eqn{k} folds where the method
#' ran), and a paired test of the method against the reference method on the
#' folds where both ran: the paired t-test (`t.test(paired = TRUE)`, as the
#' MLCRF paper, Pakdaman Naeini et al. 2014) or the Wilcoxon signed-rank
#' test (`wilcox.test(paired = TRUE)`, as the MLLS paper, Ji et al. 2010),
#' with R's defaults (two-sided; the Wilcoxon test exact for fewer than 50
#' folds without ties).  A method significantly better than the reference at
#' `level` is marked with a dagger, significantly worse with a bullet,
#' better or worse read from the measure's direction ([measure_names()]).
#' Folds are not independent (their training parts overlap), so the tests
#' are, as in the papers, a guide rather than exact.
#'
#' @param object A result of [ml_compare()].
#' @param reference The method the others are tested against (a name; the
#'   first method by default).
#' @param test `"t"` (paired t-test) or `"wilcoxon"` (signed-rank test).
#' @param level The significance level of the marks.
#' @param ... Not used.
#' @return A data frame of class `"summary.ml_comparison"` with one row per
#'   method and measure: `method`, `measure`, `n` (folds), `mean`, `se`,
#'   `diff` (mean paired difference, method minus reference), `p_value`
#'   (`NA` for the reference, and when every difference is 0) and `mark`
#'   (`"better"`, `"worse"` or `""`).  `print()` shows the table of
#'   `mean (se)` with the marks.
#' @examples
#' data(yeast)
#' set.seed(1)
#' cmp <- ml_compare(yeast$x[1:300, ], yeast$y[1:300, ], nfolds = 5, methods = list(
#'   MLLS = ~ mlls(x, y, alpha = 1, beta = 0.1), ridge = ~ mlls(x, y, alpha = 0, beta = 0.1)),
#'   measures = c("macro_f1", "hamming_loss"))
#' summary(cmp)
#' summary(cmp, reference = "ridge", test = "wilcoxon")
#' @export
summary.ml_comparison <- function(object, reference = NULL, test = c("t", "wilcoxon"),
                                  level = 0.05, ...) {
  test <- match.arg(test)
  methods <- levels(object$method)
  if (is.null(reference)) reference <- methods[1]
  if (!is.character(reference) || length(reference) != 1 || !reference %in% methods)
    stop_arg("'reference' must be one of the methods: ", paste(methods, collapse = ", "))
  if (!is.numeric(level) || length(level) != 1 || is.na(level) || level <= 0 || level >= 1)
    stop_arg("'level' must be a number in (0, 1)")
  info <- all_measures()
  d <- as.data.frame(unclass(object))
  rows <- list()
  for (ms in levels(object$measure)) {
    higher <- info$higher_better[match(ms, info$name)]
    ref <- d[d$measure == ms & d$method == reference, ]
    for (me in methods) {
      v <- d[d$measure == ms & d$method == me, ]
      ok <- v$value[!is.na(v$value)]
      p <- NA_real_
      dif <- NA_real_
      if (me != reference) {
        both <- merge(v[, c("fold", "value")], ref[, c("fold", "value")], by = "fold")
        both <- both[!is.na(both$value.x) & !is.na(both$value.y), ]
        if (nrow(both) >= 2) {
          dif <- mean(both$value.x - both$value.y)
          if (any(both$value.x != both$value.y))
            p <- tryCatch(if (test == "t")
              stats::t.test(both$value.x, both$value.y, paired = TRUE)$p.value else
              suppressWarnings(stats::wilcox.test(both$value.x, both$value.y,
                                                  paired = TRUE)$p.value),
              error = function(e) NA_real_)
        }
      }
      mark <- if (!is.na(p) && p < level) {
        if ((dif > 0) == higher) "better" else "worse"
      } else ""
      rows[[length(rows) + 1]] <- data.frame(
        method = me, measure = ms, n = length(ok), mean = if (length(ok)) mean(ok) else NA_real_,
        se = if (length(ok) > 1) stats::sd(ok) / sqrt(length(ok)) else NA_real_,
        diff = dif, p_value = p, mark = mark, stringsAsFactors = FALSE)
    }
  }
  out <- do.call(rbind, rows)
  out$method <- factor(out$method, levels = methods)
  out$measure <- factor(out$measure, levels = levels(object$measure))
  structure(out, class = c("summary.ml_comparison", "data.frame"), reference = reference,
            test = test, level = level, folds = length(unique(object$fold)))
}

#' @export
print.summary.ml_comparison <- function(x, digits = 3, ...) {
  sym <- c(better = "\u2020", worse = "\u2022")
  m <- ifelse(x$mark == "", " ", sym[match(x$mark, names(sym))])
  cell <- sprintf("%.*f (%.*f)%s", digits, x$mean, digits, x$se, m)
  tab <- tapply(cell, list(x$method, x$measure), identity)
  cat("Mean (standard error) over", attr(x, "folds"), "folds; ",
      if (attr(x, "test") == "t") "paired t-test" else "Wilcoxon signed-rank test",
      "against", attr(x, "reference"), "at level", attr(x, "level"), "\n")
  print(noquote(tab))
  cat(sym[["better"]], "significantly better than", attr(x, "reference"), "; ",
      sym[["worse"]], "significantly worse\n")
  invisible(x)
}

#' Plot a comparison of methods
#'
#' One panel per measure: each method's mean over folds, with an interval
#' over the folds.  Methods are listed from top to bottom in the order of
#' `print()`; each panel says whether higher or lower is better.
#'
#' @param x A result of [ml_compare()].
#' @param col Colour of the points.
#' @param interval The bars: `"ci"` the 95% t-interval of the mean over
#'   folds (mean \eqn{\pm t_{0.975, k-1}}{+/- t(0.975, k - 1)} standard errors),
#'   `"se"` one standard error, `"sd"` one standard deviation of the folds.
#' @param scale `"shared"`: the panels of all the measures that lie between 0
#'   and 1 have the same horizontal scale (each centred on its own values), so
#'   that a difference looks as large in every panel; the others (coverage)
#'   have their own.  `"free"`: each panel fits its own values.
#' @param ... Graphical parameters passed to [graphics::plot.default()].
#' @return `x`, invisibly.
#' @export
plot.ml_comparison <- function(x, col = "steelblue4", scale = c("shared", "free"),
                               interval = c("ci", "se", "sd"), ...) {
  scale <- match.arg(scale)
  interval <- match.arg(interval)
  s <- comparison_summary(x)
  # the half-width of the bars, in the column "sd" that the drawing reads
  k_fold <- s$value[, "n"]
  half <- switch(interval, sd = s$value[, "sd"], se = s$value[, "sd"] / sqrt(k_fold),
                 ci = s$value[, "sd"] / sqrt(k_fold) *
                   stats::qt(0.975, pmax(k_fold - 1, 1)))
  s$value[, "sd"] <- half
  measures <- levels(droplevels(s$measure))
  methods <- levels(s$method)
  k <- length(measures)
  nm <- length(methods)
  info <- all_measures()
  higher <- info$higher_better[match(measures, info$name)]
  higher[is.na(higher)] <- TRUE
  mu_all <- s$value[, "mean"]
  sd_all <- ifelse(is.na(s$value[, "sd"]), 0, s$value[, "sd"])
  unit <- tapply(mu_all >= 0 & mu_all <= 1, s$measure, all)[measures] &
    !measures %in% c("coverage", "log_loss")
  # "shared": the panels of measures in [0, 1] all span the widest of their
  # ranges, each centred on its own values, so that a difference of 0.01 is
  # as long in every panel
  span <- vapply(measures, function(m) {
    j <- s$measure == m
    diff(range(c(mu_all[j] - sd_all[j], mu_all[j] + sd_all[j]), na.rm = TRUE))
  }, 0)
  common <- if (any(unit)) max(span[unit]) else 0
  width <- max(graphics::strwidth(methods, units = "inches", cex = 1.1))
  op <- graphics::par(mfrow = c(1, k), oma = c(2, width / graphics::par("csi") + 1.2, 0, 0),
                      mar = c(2.5, 0.8, 4.4, 0.8))
  on.exit(graphics::par(op))
  for (i in seq_len(k)) {
    si <- s[s$measure == measures[i], ]
    mu <- si$value[, "mean"]
    sdv <- ifelse(is.na(si$value[, "sd"]), 0, si$value[, "sd"])
    pos <- nm + 1L - match(si$method, methods)   # the first method on top
    lim <- range(mu - sdv, mu + sdv, na.rm = TRUE)
    if (scale == "shared" && unit[i]) lim <- mean(lim) + c(-0.5, 0.5) * common
    args <- utils::modifyList(list(x = mu, y = pos, xlim = lim, ylim = c(0.5, nm + 0.5),
                                   type = "n", xaxt = "n", yaxt = "n", xlab = "", ylab = "",
                                   main = ""), list(...))
    do.call(graphics::plot, args)
    # ticks away from the panel's edges, so that neighbours' labels never meet
    usr <- graphics::par("usr")[1:2]
    at <- pretty(usr, 4)
    at <- at[at >= usr[1] + 0.06 * diff(usr) & at <= usr[2] - 0.06 * diff(usr)]
    graphics::axis(1, at = at)
    if (i == 1) text_size <- panel_text_size(measures)
    graphics::title(main = text_size$titles[i], line = 2, cex.main = text_size$main)
    graphics::mtext(if (higher[i]) "higher is better" else "lower is better", side = 3,
                    line = 0.6, cex = text_size$note, font = if (higher[i]) 1 else 2)
    graphics::abline(h = seq_len(nm), col = "grey90")
    graphics::segments(mu - sdv, pos, mu + sdv, pos, col = col, lwd = 2)
    graphics::points(mu, pos, pch = 19, col = col, cex = 1.3)
    if (i == 1)
      graphics::axis(2, at = rev(seq_len(nm)), labels = methods, las = 1, outer = FALSE,
                     cex.axis = 1.1, lwd = 0, lwd.ticks = 1)
  }
  graphics::par(mfrow = c(1, 1))
  note <- paste0("mean and ", switch(interval, ci = "95% interval", se = "one standard error",
                                     sd = "one sd"), " over ", length(unique(x$fold)), " folds",
                 if (scale == "shared" && sum(unit) > 1) "; measures in [0, 1] on one scale")
  fit <- graphics::par("din")[1] / graphics::strwidth(note, "inches")
  graphics::mtext(note, side = 1, outer = TRUE, line = 0.6, cex = min(0.9, 0.8 * fit))
  invisible(x)
}

# Panel titles and notes of the comparison plot, one size for all panels: at
# most R's default, smaller (a long title on two lines) when a panel is too
# narrow.  strwidth() measures relative to par("cex"), as cex.main is; the
# cex of mtext() is absolute.
panel_text_size <- function(measures) {
  pin <- graphics::par("pin")[1]
  titles <- capitalise(compare_label(measures))
  widest <- function(s) max(graphics::strwidth(unlist(strsplit(s, "\n")), "inches", font = 2))
  fit <- pin / vapply(titles, widest, 0)
  long <- fit < 1.1 & grepl(" ", titles)
  titles[long] <- sub(" ", "\n", titles[long])
  fit <- pin / vapply(titles, widest, 0)
  note <- pin / graphics::strwidth("higher is better", "inches", font = 2)
  list(titles = titles, main = min(1.2, 0.95 * fit),
       note = graphics::par("cex") * min(1, 0.95 * note))
}

# Panel titles: those of measure_label(), and the papers' variants.
compare_label <- function(measures) {
  extra <- c(macro_f1_pr = "macro F1 (P, R)", ranking_loss_01 = "ranking loss (0/1)")
  ifelse(measures %in% names(extra), extra[measures], measure_label(measures))
}
