# The base class of every fitted model.  Each fitting function ends with
# new_ml_fit(): its own fields, plus the fields that the shared predict()
# pipeline (R/predict.R) reads, under one name in every method:
#   labels      the label names (the column names of every prediction);
#   thresholds  per-label thresholds for type = "class", or NULL when the
#               method has none of its own (cross-validation may store
#               out-of-fold ones here);
#   call        the call;
#   types       what predict() can return, its default first ("class");
#   decoder     NULL when labels are scores cut at thresholds, else the name
#               of the method's own rule for label vectors ("greedy chain",
#               "MAP"), which ml_decode() applies when no thresholds are set;
#   cut         the method's own cut of its scores when it has no thresholds
#               (0.5 on probabilities), NULL otherwise;
#   n_features  the number of training columns new data must have.
# The class is c(class, "ml_fit"): predict.ml_fit() and the internal generics
# ml_scores() / ml_decode() / ml_newx() dispatch on the method's own class.
new_ml_fit <- function(fields, class, labels = fields$labels,
                       thresholds = fields$thresholds, call = fields$call,
                       types = c("class", "score"), decoder = NULL, cut = NULL,
                       n_features = length(fields$features)) {
  stopifnot(is.list(fields), is.character(class), length(class) >= 1,
            types[1] == "class", all(c("class", "score") %in% types))
  fields$labels <- labels
  fields$thresholds <- thresholds
  fields$call <- call
  fields$types <- types
  fields$decoder <- decoder
  fields$cut <- cut
  fields$n_features <- as.integer(n_features)
  fields <- fields[!vapply(fields, is.null, logical(1))]
  structure(fields, class = unique(c(class, "ml_fit")))
}

# The thresholds type = "class" uses when predict() is given none: the fit's
# own (a classifier inside the fit, for mddm/ssmddm), else NULL (the method's
# decoder, or its cut).
fit_thresholds <- function(object) {
  object$thresholds %||% object$classifier$thresholds
}

# ---- what a method supplies to the pipeline ---------------------------------

# The scores of checked new data `x` (as ml_newx() returns it): an n x m
# matrix for type = "score"; a method with other types ("prob",
# "projection") computes them here too.  `y`: the label vectors of
# type = "prob", checked and in the label order of the fit.  `...`: the
# method's own prediction options (inference, ...).
ml_scores <- function(object, x, type = "score", y = NULL, ...) UseMethod("ml_scores")

ml_scores.default <- function(object, x, type = "score", y = NULL, ...) {
  stop_arg("no scores for an object of class ", class(object)[1], ": a method must ",
           "supply ml_scores() (see R/ml_fit.R)")
}

# The label vectors (a logical n x m matrix) of a method whose labels come
# from its own decoder (chains, MAP) rather than from cut scores.
ml_decode <- function(object, x, ...) UseMethod("ml_decode")

ml_decode.default <- function(object, x, ...) {
  stop_arg("no decoder for an object of class ", class(object)[1])
}

# New data as the method reads it: by default numeric features (dense or
# sparse) with the training columns, matched by name when both sides have
# names.  A method whose new data is something else (mlls' precomputed
# kernel) has its own.
ml_newx <- function(object, x, arg = "newx") UseMethod("ml_newx")

ml_newx.default <- function(object, x, arg = "newx") {
  check_newx_columns(as_features(x, arg), object$features,
                     object$n_features %||% length(object$features), arg)
}

# The error of fitted() and residuals() for a fit that does not keep its
# training data (mlls(), mddm(), ssmddm(), the cross-validated fits).
no_training_data <- function(what) {
  stop_arg(what, "() is not available: the fit does not keep its training data; ",
           "predict(fit, x) gives the scores on the training features x",
           if (what == "residuals") ", and 2 * y - 1 minus them the residuals of the +1/-1 labels")
}
