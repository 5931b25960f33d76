#' Label statistics of a multi-label data set (mldr's figures)
#'
#' The statistics with which the mldr package describes a multi-label data
#' set, computed from the label matrix alone: the number of instances and
#' labels, the distinct label sets, label cardinality and density, the
#' imbalance ratios, SCUMBLE and TCS, overall and per label.  The figures
#' are those of mldr 0.4.3 (`summary()` of an `mldr` object, and its
#' `labels` table), to rounding error, with the same conventions on corner
#' cases; mldr itself need not be installed.
#'
#' Definitions (n instances, m labels, \eqn{Y_i} the label set of instance i,
#' \eqn{c_l} the number of instances carrying label l):
#' * label sets: the distinct rows of `y`; single label sets: those carried by
#'   exactly one instance; `max_frequency`: the count of the most common one;
#' * cardinality: the mean of \eqn{|Y_i|}{|Y_i|}; density: cardinality / m;
#' * IRLbl (imbalance ratio per label): \eqn{\max_k c_k / c_l}{max_k c_k / c_l};
#'   as in mldr, a label that no instance carries gets 0 (not `Inf`), and that
#'   0 enters MeanIR;
#' * MeanIR and MaxIR: the mean and the maximum of IRLbl; CVIR: the
#'   coefficient of variation of IRLbl, `sd(IRLbl) / MeanIR` (Charte et al.
#'   2015; mldr does not report MaxIR and CVIR);
#' * SCUMBLE of an instance with at least one label: 1 minus the ratio of the
#'   geometric to the arithmetic mean of the IRLbl of its labels (0 for an
#'   instance without labels); SCUMBLE of the data set: its mean over all
#'   instances, and `scumble_cv` its standard deviation over that mean;
#'   SCUMBLE of a label: the mean SCUMBLE of the instances that carry it (0
#'   for a label nobody carries), its CV the standard deviation over that
#'   mean (`NA` for a label carried at most once, 0 when the mean is 0);
#' * TCS (theoretical complexity score): \eqn{\log(d \cdot m \cdot s)}{log(d * m * s)},
#'   d the number of features, s the number of distinct label sets; `NA`
#'   when d is unknown.  mldr counts the ARFF attributes, so a nominal
#'   feature that [read_mulan()] expands into indicator columns counts once
#'   there: give `features` to reproduce mldr's TCS for such data.
#'
#' The geometric mean is computed on the log scale, where mldr multiplies
#' the ratios (which overflows for instances with hundreds of rare labels);
#' elsewhere the two agree to rounding error.
#'
#' @param y The labels: an n x m logical, 0/1 or -1/+1 matrix or data frame
#'   (no `NA`), or a data set ([mlss_data()] or an `mldr` object), whose rows
#'   are all used (training and test alike, as mldr does).
#' @param features The number of features d, for TCS: by default the number
#'   of columns of a data set's `x` (mldr's `num.inputs` for an `mldr`
#'   object), else `NA`.
#' @param object An `"mlss_data"` object.
#' @param x An `"ml_stats"` object.
#' @param digits Significant digits printed.
#' @param ... Not used.
#' @return An object of class `"ml_stats"`: a list with `instances`,
#'   `features`, `labels`, `labelsets`, `single_labelsets`, `max_frequency`,
#'   `cardinality`, `density`, `mean_ir`, `max_ir`, `cvir`, `scumble`,
#'   `scumble_cv`, `tcs`; `label`, a data frame with one row per label
#'   (`label`, `count`, `freq`, `IRLbl`, `SCUMBLE`, `SCUMBLE.CV`);
#'   `instance_scumble` (one value per instance); and, for the plots
#'   ([plot.ml_stats()]), `cooccurrence` (the m x m matrix of the numbers of
#'   instances carrying both labels, the counts on its diagonal) and
#'   `labels_per_instance` (the table of \eqn{|Y_i|}{|Y_i|}).
#' @references Charte F. and Charte F. D. (2015). Working with multilabel
#'   datasets in R: the mldr package. The R Journal 7(2), 149-162.
#'
#'   Charte F., Rivera A. J., del Jesus M. J. and Herrera F. (2015).
#'   Addressing imbalance in multilabel classification: measures and random
#'   resampling algorithms. Neurocomputing 163, 3-16.
#'
#'   Charte F., Rivera A. J., del Jesus M. J. and Herrera F. (2019). Dealing
#'   with difficult minority labels in imbalanced multilabel data sets.
#'   Neurocomputing 326, 39-53.  (SCUMBLE.)
#' @seealso [plot.ml_stats()] for the plots; [as_mldr()] to hand a data set to mldr.
#' @examples
#' s <- ml_stats(mlss::emotions)
#' s
#' s$label
#' summary(mlss::scene)$scumble
#' ml_stats(cbind(a = c(1, 1, 0, 1), b = c(0, 1, 1, 0)))$mean_ir
#' @export
ml_stats <- function(y, features = NULL) {
  d_features <- NA_real_
  if (inherits(y, "mldr")) {
    d_features <- y$measures$num.inputs
    y <- as_mlss_data(y)$y
  } else if (inherits(y, "mlss_data")) {
    d_features <- ncol(y$x)
    y <- y$y
  }
  if (!is.null(features)) {
    if (!is.numeric(features) || length(features) != 1 || is.na(features) || features < 1)
      stop_arg("'features' must be one positive number (the number of features, for TCS)")
    d_features <- features
  }
  n <- NROW(y)
  y <- as_labels(y, n, "y", na = "keep")
  if (anyNA(y))
    stop_arg("'y' contains NA: the statistics need every label observed; drop the ",
             "rows with missing labels, or treat them as negatives (y[is.na(y)] <- FALSE)")
  m <- ncol(y)
  yn <- y + 0                          # 0/1 doubles
  count <- colSums(yn)
  ir <- max(count) / count
  ir[ir == Inf] <- 0                   # mldr's convention for an empty label
  k <- rowSums(yn)
  # SCUMBLE of each instance: 1 - geometric / arithmetic mean of its labels' IRLbl
  logir <- log(ifelse(count > 0, ir, 1))
  armean <- drop(yn %*% ir) / k
  geomean <- exp(drop(yn %*% logir) / k)
  inst <- ifelse(k > 0, 1 - geomean / armean, 0)
  lab_scumble <- lab_cv <- numeric(m)
  for (l in seq_len(m)) {
    s <- inst[y[, l]]
    lab_scumble[l] <- if (count[l] == 0) 0 else mean(s)
    lab_cv[l] <- if (count[l] <= 1) NA_real_
                 else if (lab_scumble[l] == 0) 0 else stats::sd(s) / lab_scumble[l]
  }
  sets <- table(label_set_keys(y))
  nsets <- length(sets)
  structure(list(
    instances = n, features = d_features, labels = m,
    labelsets = nsets, single_labelsets = sum(sets == 1), max_frequency = max(sets),
    cardinality = mean(k), density = mean(k) / m,
    mean_ir = mean(ir, na.rm = TRUE), max_ir = max(ir, na.rm = TRUE),
    cvir = stats::sd(ir, na.rm = TRUE) / mean(ir, na.rm = TRUE),
    scumble = mean(inst), scumble_cv = stats::sd(inst) / mean(inst),
    tcs = log(d_features * m * nsets),
    label = data.frame(label = colnames(y), count = count, freq = count / n, IRLbl = ir,
                       SCUMBLE = lab_scumble, SCUMBLE.CV = lab_cv,
                       row.names = NULL, stringsAsFactors = FALSE),
    instance_scumble = inst,
    cooccurrence = crossprod(yn),
    labels_per_instance = table(factor(k, levels = 0:max(k, 0)))),
    class = "ml_stats")
}

# One string per row naming its label set ("0110..."), as mldr keys them.
label_set_keys <- function(y) {
  if (!nrow(y)) return(character())
  do.call(paste0, lapply(seq_len(ncol(y)), function(j) as.integer(y[, j])))
}

#' @rdname ml_stats
#' @export
summary.mlss_data <- function(object, ...) {
  check_no_dots(...)
  ml_stats(object)
}

#' @rdname ml_stats
#' @export
print.ml_stats <- function(x, digits = 4, ...) {
  f <- function(v) format(v, digits = digits)
  cat("Multi-label statistics: ", x$instances, " instances, ", x$labels, " labels",
      if (!is.na(x$features)) paste0(", ", x$features, " features"), "\n", sep = "")
  cat("label sets: ", x$labelsets, " distinct, ", x$single_labelsets,
      " carried by one instance, the most common by ", x$max_frequency, "\n", sep = "")
  cat("cardinality ", f(x$cardinality), ", density ", f(x$density), "\n", sep = "")
  cat("imbalance: MeanIR ", f(x$mean_ir), ", MaxIR ", f(x$max_ir), ", CVIR ", f(x$cvir),
      "\n", sep = "")
  cat("SCUMBLE ", f(x$scumble), " (CV ", f(x$scumble_cv), "), TCS ", f(x$tcs), "\n", sep = "")
  invisible(x)
}
