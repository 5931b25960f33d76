#' Predict with any fitted multi-label model
#'
#' Every fitting function of the package ([mlls()], [mddm()], [ssmddm()],
#' [cplst()], [br()], [cca_ridge()], [cca_svm()], [aso_svm()], [cc()],
#' [pcc()], [mlcrf()], [mlknn()], [iblr()], [mlml()], [lewl()]) returns an
#' object that also has class `"ml_fit"`, and they all predict through this
#' one pipeline: it reads the new data, matches its columns, handles missing
#' values, applies thresholds and names the output; each method supplies only
#' its scores and, for chains and MLCRF, its decoder of label vectors.
#' [predict.pcc()], [predict.mlcrf()], [predict.mddm()] and [predict.mlml()]
#' document the arguments that only they take.
#'
#' @section The default type:
#' `type = "class"` is the default of every method: `predict()` of a
#' classifier returns what it classifies, the label sets (a logical matrix),
#' ready for [ml_metrics()]'s `pred` and for measures on label sets (F1,
#' Hamming loss, subset accuracy).  `type = "score"` gives the real-valued
#' scores that rank and threshold (a probability where the model has one), for
#' ranking measures (`score` in [ml_metrics()]) and for thresholds of your
#' own.  (Before mlss 0.1.0 the default was `"score"` for [mlls()], [br()]
#' and its relatives, [lewl()], [mlml()], and `"projection"` for [mddm()].)
#'
#' @section How "class" is decided:
#' With `thresholds` given, a label is predicted where its score is above its
#' threshold.  Without, the thresholds stored in the fit (`fit$thresholds`:
#' tuned for F1 on the training scores by most methods, or chosen on
#' out-of-fold scores when the fit comes from cross-validation); a fit with
#' none uses its method's own rule: 1/2 on the probabilities of [mlknn()] and
#' [iblr()], the greedy walk of [cc()], the most probable label vector (MAP)
#' of [pcc()] and [mlcrf()].
#'
#' @param object A fitted model.
#' @param newx New data with the training columns: a numeric matrix, data
#'   frame or sparse `Matrix` (for a fit from the formula interface, a data
#'   frame with the variables of the formula), or a data set (`mlss_data`,
#'   `mldr`) whose test rows are predicted when it has a train/test split.
#'   Columns are matched by name when both the training and the new data have
#'   column names (an error names the missing ones), by position otherwise.  A
#'   single row must stay a matrix: `x[i, , drop = FALSE]`.
#' @param type `"class"` (the default): a logical n x m matrix of predicted
#'   labels; `"score"`: the n x m scores; `"prob"` (models of label vectors:
#'   [pcc()], [mlcrf()]): the probability of given label vectors `y`;
#'   `"projection"` ([mddm()], [ssmddm()]): the projected data.
#' @param thresholds For `type = "class"`: one number, or one per label
#'   (matched by name when named); by default the fit's (see How "class" is
#'   decided).
#' @param newdata The name base R's `predict()` methods use: the same as
#'   `newx` (give one of them).
#' @param na.action What to do with rows of the new data that have missing
#'   values: by default the `na.action` of a fit from the formula interface,
#'   else [na.fail()] (an error).  [na.exclude()] predicts `NA` for them,
#'   [na.omit()] leaves them out.
#' @param y For `type = "prob"`: the label vectors, one per row of `newx`,
#'   matched to the labels by column name when named (an unnamed `y` must have
#'   one column per label, in the fit's order).  Left out when `newx` is a data
#'   set with a train/test split: the labels of its test rows.
#' @param ... Options of the method's prediction (for example `inference` of
#'   [predict.pcc()]); anything else is an error.
#' @return A matrix with one column per label, named by the labels (for
#'   `"projection"`, one column per direction), or a vector for `"prob"`.
#' @seealso [predict.pcc()], [predict.mlcrf()], [predict.mddm()],
#'   [predict.mlml()], [ml_metrics()].
#' @aliases predict.mlls predict.br predict.lewl predict.mlknn predict.iblr
#' @examples
#' data(yeast, package = "mlss")
#' fit <- mlls(yeast$x[yeast$train, ], yeast$y[yeast$train, ], alpha = 0.1, beta = 0.01)
#' head(predict(fit, yeast$x[!yeast$train, ]))                  # label sets
#' head(predict(fit, yeast$x[!yeast$train, ], type = "score"))  # scores
#' predict(fit, yeast$x[1, , drop = FALSE])                      # one row
#' @export
predict.ml_fit <- function(object, newx, type = NULL, thresholds = NULL, newdata,
                           na.action = NULL, y = NULL, ...) {
  types <- object$types %||% c("class", "score")
  type <- if (is.null(type)) types[1] else match.arg(type, types)
  arg <- if (missing(newdata)) "newx" else "newdata"
  newx <- newx_or_newdata(newx, newdata)
  if (inherits(newx, "ml_chunks"))  # a source in chunks: chunk by chunk (R/mlls_chunked.R)
    return(predict_chunks(object, newx, type, progress = FALSE))
  if (type != "prob" && !is.null(y)) stop_arg("'y' is only used with type = \"prob\"")
  if (type != "class" && !is.null(thresholds))
    stop_arg("'thresholds' is only used with type = \"class\"")
  data <- newx
  rows <- prediction_rows(object, newx, object$n_features, na.action, arg)
  x <- ml_newx(object, rows$x, arg)
  if (type == "prob") {
    n_all <- nrow(x) + length(rows$na)
    y <- prob_labels(y, data, object$labels, n_all)
    if (!is.null(rows$na)) y <- y[-as.integer(rows$na), , drop = FALSE]
    if (anyNA(y))
      stop_arg("'y' contains NA: type = \"prob\" gives the probability of whole label ",
               "vectors, and that of a vector with missing entries (a marginal) is not ",
               "computed")
  }
  thr <- if (type == "class") thresholds %||% fit_thresholds(object)
  out <- if (type == "class" && is.null(thr) && !is.null(object$decoder)) {
    ml_decode(object, x, ...)
  } else {
    ml_scores(object, x, type = if (type == "class") "score" else type, y = y, ...)
  }
  if (type == "class" && !is.logical(out))
    out <- classify_scores(out, thr %||% object$cut, object$labels)
  name_output(out, type, rownames(x), object$labels, rows$na)
}

# Scores to label sets: a label where its score is above its threshold.
classify_scores <- function(score, thresholds, labels) {
  keep <- attributes(score)[c("inference")]
  thresholds <- check_thresholds(thresholds, labels)
  out <- score > rep(thresholds, each = nrow(score))
  attr(out, "inference") <- keep$inference
  out
}

# The label names (and row names) on every output, NA back in the place of
# the rows na.action excluded; the method's "inference" record kept.
name_output <- function(out, type, rownames, labels, na) {
  info <- attr(out, "inference")
  if (is.matrix(out)) {
    if (type != "projection") colnames(out) <- labels
    rownames(out) <- rownames
  } else {
    names(out) <- rownames
  }
  if (!is.null(na)) out <- stats::napredict(na, out)
  if (!is.null(info)) attr(out, "inference") <- info
  out
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
  if (inherits(newx, c("mlss_data", "mldr"))) newx <- data_rows(newx, "test", arg)$x
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

check_thresholds <- function(thresholds, labels) {
  if (!is.numeric(thresholds) || anyNA(thresholds) ||
      !length(thresholds) %in% c(1L, length(labels)))
    stop_arg("'thresholds' must be one number or one per label (", length(labels), ")")
  # named: matched by name (check_label_names() in input.R); by position only unnamed
  if (!is.null(names(thresholds))) return(check_label_names(thresholds, labels))
  if (length(thresholds) == 1) thresholds <- rep(thresholds, length(labels))
  thresholds
}

# A method's prediction options that it does not know: an error naming them.
check_no_options <- function(opts) {
  if (length(opts)) {
    nm <- names(opts)
    if (is.null(nm)) nm <- rep("", length(opts))
    nm[nm == ""] <- "(unnamed)"
    stop_arg("unknown argument(s): ", paste(nm, collapse = ", "))
  }
}
