#' Predict with an MLLS fit
#'
#' @param object A fit from [mlls()].
#' @param newx New data with the training columns: a numeric matrix, data frame
#'   or sparse `Matrix` (for a fit from the formula interface, a data frame
#'   with the variables of the formula).  For `kernel = "precomputed"`, the
#'   kernel matrix between the new points (rows) and the training points.
#'   A single row must stay a matrix: `x[i, , drop = FALSE]`.
#' @param type `"score"` for the real-valued scores, `"class"` for a logical
#'   matrix of predicted labels (`score > threshold`).
#' @param thresholds Per-label thresholds for `type = "class"` (one number, or
#'   one per label, matched by name when named); by default those stored in the fit.
#' @param newdata The name base R's `predict()` methods use: the same as
#'   `newx` (give one of them).
#' @param na.action What to do with rows of the new data that have missing
#'   values: by default the `na.action` of a fit from the formula interface,
#'   else [na.fail()] (an error).  [na.exclude()] predicts `NA` for them,
#'   [na.omit()] leaves them out.
#' @param ... Not used: an unknown argument is an error.
#' @return An n_new x m matrix with one column per label.
#' @examples
#' data(yeast, package = "mlss")
#' fit <- mlls(yeast$x[yeast$train, ], yeast$y[yeast$train, ], alpha = 0.1, beta = 0.01)
#' head(predict(fit, yeast$x[!yeast$train, ]))
#' head(predict(fit, yeast$x[!yeast$train, ], type = "class"))
#' predict(fit, yeast$x[1, , drop = FALSE])   # one row
#' @export
predict.mlls <- function(object, newx, type = c("score", "class"),
                         thresholds = object$thresholds, newdata, na.action = NULL, ...) {
  check_no_dots(...)
  type <- match.arg(type)
  arg <- if (missing(newdata)) "newx" else "newdata"
  newx <- newx_or_newdata(newx, newdata)
  if (inherits(newx, "ml_chunks"))  # chunk by chunk (R/mlls_chunked.R)
    return(predict_chunks(object, newx, type, progress = FALSE))
  d <- if (identical(object$method, "kernel"))
    (if (object$kernel$name == "precomputed") object$kernel$n else ncol(object$kernel$x))
  else nrow(object$U)
  rows <- prediction_rows(object, newx, d, na.action, arg)
  score <- mlls_scores(object, rows$x)
  if (type == "class") {
    thresholds <- check_thresholds(thresholds, object$labels)
    score <- score > rep(thresholds, each = nrow(score))
  }
  stats::napredict(rows$na, score)
}

# predict() takes the new data as `newx` (glmnet's name) or `newdata` (base R's).
newx_or_newdata <- function(newx, newdata) {
  if (!missing(newx) && !missing(newdata)) stop_arg("give 'newx' or 'newdata', not both")
  if (!missing(newdata)) return(newdata)
  if (missing(newx)) stop_arg("'newx' is missing: give the data to predict")
  newx
}

# The rows to predict: the features of a formula fit rebuilt from a data
# frame, or the data as given; rows with missing values handled by
# na.action, whose record (attr "na.action" of model.frame()) napredict()
# uses to put NA back in their place.  `d` is the number of columns expected.
prediction_rows <- function(object, newx, d, na.action, arg = "newx") {
  if (is.null(na.action)) na.action <- object$na.action %||% stats::na.fail
  na.action <- match.fun(na.action)
  if (is.null(dim(newx)) && is.atomic(newx) && d > 1)
    stop_arg("'", arg, "' is a vector, not a matrix with the model's ", d, " columns: ",
             "a single row taken from a matrix loses its dimensions; keep them with ",
             "x[i, , drop = FALSE]")
  if (!is.null(object$terms) && is.data.frame(newx)) {
    terms <- stats::delete.response(object$terms)
    mf <- apply_na_action(function(f) stats::model.frame(terms, newx, xlev = object$xlevels,
                                                         na.action = f),
                          na.action, function() !stats::complete.cases(newx[intersect(
                            all.vars(terms), names(newx))]), arg)
    xm <- stats::model.matrix(terms, mf, contrasts.arg = object$contrasts)
    return(list(x = xm[, colnames(xm) != "(Intercept)", drop = FALSE],
                na = attr(mf, "na.action")))
  }
  bad <- if (inherits(newx, "sparseMatrix")) {
    sx <- methods::as(methods::as(newx, "CsparseMatrix"), "TsparseMatrix")
    seq_len(nrow(newx)) %in% (sx@i[is.na(sx@x)] + 1L)
  } else if (is.matrix(newx) || is.data.frame(newx)) {
    !stats::complete.cases(newx)
  } else {
    FALSE
  }
  if (!any(bad)) return(list(x = newx, na = NULL))
  kept <- apply_na_action(function(f) f(data.frame(row = ifelse(bad, NA, 0))), na.action,
                          function() bad, arg)
  na <- attr(kept, "na.action")
  list(x = newx[!bad, , drop = FALSE], na = na)
}

# na.action applied by `frame(na.action)`; na.fail's terse "missing values in
# object" becomes a message that says which rows and what to do.
apply_na_action <- function(frame, na.action, bad_rows, arg) {
  tryCatch(frame(na.action), error = function(e) {
    bad <- which(bad_rows())
    if (!length(bad)) stop(e)
    stop_arg("'", arg, "' contains NA in ", length(bad), " row(s) (the first is row ",
             bad[1], "): remove them, or predict with na.action = na.exclude (NA in ",
             "their place) or na.omit (left out)")
  })
}

mlls_scores <- function(object, newx) {
  if (identical(object$method, "kernel")) {
    kern <- object$kernel
    if (kern$name == "precomputed") {
      Knew <- check_kernel_matrix(newx, kern$n, "newx")
    } else {
      newx <- check_newx_columns(as_features(newx, "newx"), object$features,
                                 ncol(kern$x))
      Knew <- do.call(kernel_matrix, c(list(newx, kern$x, kernel = kern$name), kern$par))
    }
    if (kern$centered)
      Knew <- Knew - rowMeans(Knew) - rep(kern$center$col, each = nrow(Knew)) + kern$center$all
    score <- Knew %*% object$A
  } else {
    newx <- check_newx_columns(as_features(newx, "newx"), object$features, nrow(object$U))
    score <- as.matrix(newx %*% object$U)
  }
  score <- score + rep(object$intercept, each = nrow(score))
  dimnames(score) <- list(rownames(newx), object$labels)
  score
}

check_thresholds <- function(thresholds, labels) {
  if (!is.numeric(thresholds) || anyNA(thresholds) ||
      !length(thresholds) %in% c(1L, length(labels)))
    stop_arg("'thresholds' must be one number or one per label (", length(labels), ")")
  # named: matched by name (check_label_names() in input.R); by position only unnamed
  if (!is.null(names(thresholds))) return(check_label_names(thresholds, labels))
  if (length(thresholds) == 1) thresholds <- rep(thresholds, length(labels))
  thresholds
}

#' @export
print.mlls <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat("\nCall:  ", paste(deparse(x$call), sep = "\n", collapse = "\n"), "\n\n", sep = "")
  d <- if (is.null(x$U)) "kernel" else paste(nrow(x$U), "features")
  cat("MLLS on ", x$nobs, " instances, ", d, ", ", length(x$labels), " labels\n", sep = "")
  cat("shared subspace r = ", x$r, ", alpha = ", format(x$alpha, digits = digits),
      ", beta = ", format(x$beta, digits = digits), "\n", sep = "")
  how <- switch(x$method,
                primal = "the d x d cross-product matrix",
                dual = "the n x n Gram matrix",
                kernel = paste0("the n x n ", x$kernel$name, " kernel matrix"))
  if (identical(x$decomposition, "svd")) how <- "a thin SVD of the centred data"
  cat("solved through ", how, " (rank ", x$rank, ")\n", sep = "")
  cat(threshold_note(x, digits), "\n\n", sep = "")
  invisible(x)
}

# Where the per-label thresholds of a fit come from: `threshold_source`
# ("train" or "oof") when the fit says, else "oof" when it carries the
# out-of-fold F1 (cross-validation put the thresholds there), else "train".
threshold_source <- function(fit) {
  fit$threshold_source %||% if (!is.null(fit$oof_f1)) "oof" else "train"
}

threshold_note <- function(fit, digits) {
  if (threshold_source(fit) == "none")  # a fit from chunks without its threshold pass
    return("no thresholds chosen (every threshold 0)")
  if (threshold_source(fit) == "oof") {
    paste0("per-label thresholds chosen on out-of-fold scores by cross-validation",
           if (!is.null(fit$oof_f1))
             paste0(" (out-of-fold macro F1 ", format(mean(fit$oof_f1), digits = digits), ")"))
  } else {
    paste0("per-label thresholds chosen on the training scores (training macro F1 ",
           format(mean(fit$train_f1), digits = digits), ")")
  }
}

#' Fitted values and residuals are not kept
#'
#' Fits from [mlls()], [mddm()] and [ssmddm()] do not keep their training data
#' (a large or sparse `x` would be copied into every fit), so `fitted()` and
#' `residuals()` stop with an explanation instead of returning `NULL`:
#' `predict(fit, x)` gives the training scores.
#'
#' @param object A fit.
#' @param ... Not used.
#' @return Nothing: an error.
#' @name fitted.mlls
#' @export
fitted.mlls <- function(object, ...) no_training_data("fitted")

#' @rdname fitted.mlls
#' @export
residuals.mlls <- function(object, ...) no_training_data("residuals")

#' @rdname fitted.mlls
#' @export
fitted.mddm <- function(object, ...) no_training_data("fitted")

#' @rdname fitted.mlls
#' @export
residuals.mddm <- function(object, ...) no_training_data("residuals")

no_training_data <- function(what) {
  stop_arg(what, "() is not available: the fit does not keep its training data; ",
           "predict(fit, x) gives the scores on the training features x",
           if (what == "residuals") ", and 2 * y - 1 minus them the residuals of the +1/-1 labels")
}

#' Summarise an MLLS fit
#'
#' One row per label: the number of positive training examples, the intercept,
#' the threshold, the F1 it reaches on the scores it was chosen on (training
#' F1 `train_f1`, or out-of-fold F1 `oof_f1` when cross-validation chose the
#' thresholds), and the share of the label's
#' weight vector that lies in the shared subspace (\eqn{\|\Theta' v_l\| / \|u_l\|}{||Theta'v_l|| / ||u_l||},
#' linear fits only).
#'
#' @param object A fit from [mlls()].
#' @param x A `summary.mlls` object.
#' @param digits Significant digits to print.
#' @param max_labels How many labels to print (the first ones); the whole
#'   table is in the `labels` component.
#' @param ... Not used.
#' @return An object of class `summary.mlls`, a list with the fit's settings
#'   and the per-label table `labels`.
#' @export
summary.mlls <- function(object, ...) {
  check_no_dots(...)
  tab <- data.frame(positives = object$n_pos, intercept = object$intercept,
                    threshold = object$thresholds, train_f1 = object$train_f1,
                    row.names = object$labels)
  # the training F1 belongs to the thresholds tuned on the training scores:
  # with out-of-fold thresholds, their out-of-fold F1 replaces it
  if (threshold_source(object) == "oof") {
    tab$train_f1 <- NULL
    if (!is.null(object$oof_f1)) tab$oof_f1 <- object$oof_f1
  }
  if (!is.null(object$U)) {
    shared <- sqrt(colSums((t(object$Theta) %*% object$V)^2))
    tab$shared <- ifelse(colSums(object$U^2) > 0, shared / sqrt(colSums(object$U^2)), NA)
  }
  structure(list(call = object$call, nobs = object$nobs, r = object$r,
                 alpha = object$alpha, beta = object$beta, method = object$method,
                 rank = object$rank, labels = tab,
                 threshold_source = threshold_source(object)),
            class = "summary.mlls")
}

#' @rdname summary.mlls
#' @export
print.summary.mlls <- function(x, digits = max(3L, getOption("digits") - 3L),
                               max_labels = 20L, ...) {
  cat("\nCall:  ", paste(deparse(x$call), sep = "\n", collapse = "\n"), "\n\n", sep = "")
  cat("MLLS, ", x$method, " solution of rank ", x$rank, "; r = ", x$r,
      ", alpha = ", format(x$alpha, digits = digits), ", beta = ",
      format(x$beta, digits = digits), "\n\n", sep = "")
  print_label_table(x$labels, digits, max_labels)
  f1 <- if (!is.null(x$labels$train_f1)) c(training = mean(x$labels$train_f1))
        else if (!is.null(x$labels$oof_f1)) c("out-of-fold" = mean(x$labels$oof_f1))
  cat("\nthresholds chosen on the ",
      if (identical(x$threshold_source, "oof")) "out-of-fold" else "training", " scores",
      if (length(f1)) paste0("; ", names(f1), " macro F1 ", format(f1, digits = digits)),
      "\n", sep = "")
  invisible(x)
}

# The per-label table, its first max_labels rows and a note when there are more.
print_label_table <- function(tab, digits, max_labels) {
  if (!is.numeric(max_labels) || length(max_labels) != 1 || is.na(max_labels) || max_labels < 1)
    stop_arg("'max_labels' must be a number >= 1")
  show <- seq_len(min(nrow(tab), max_labels))
  print(tab[show, , drop = FALSE], digits = digits)
  if (length(show) < nrow(tab))
    cat("... and ", nrow(tab) - length(show), " more labels (all ", nrow(tab),
        " in $labels of the summary; print(summary(fit), max_labels = Inf) shows them)\n",
        sep = "")
}

#' Coefficients of an MLLS fit
#'
#' @param object A fit from [mlls()].
#' @param type `"U"` (the default): the (d + 1) x m weights of the scores,
#'   intercept first, as `coef()` of a multivariate `lm`; `"W"`: the weights
#'   outside the subspace; `"V"`: the r x m weights in the subspace; `"Theta"`:
#'   the r x d basis of the subspace.
#' @param ... Not used.
#' @return A matrix.
#' @export
coef.mlls <- function(object, type = c("U", "W", "V", "Theta"), ...) {
  check_no_dots(...)
  type <- match.arg(type)
  if (type != "V" && is.null(object$U))
    stop_arg("a kernel fit has no weights in the input space; its dual ",
             "coefficients are in $A and $B")
  switch(type,
         U = rbind("(Intercept)" = object$intercept, object$U),
         W = object$W, V = object$V, Theta = object$Theta)
}
