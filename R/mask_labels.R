#' Hide a share of the observed labels
#'
#' Turns a share `rate` of the observed entries of a label matrix into
#' missing labels (`NA`), for experiments with methods that learn from
#' incomplete labels ([ml_metrics()] then scores the hidden entries, or the
#' observed ones, as asked).  `mask_labels(y, 0.3)` is the protocol of the
#' LEWL paper (Liu et al. 2020), which hides 30% (and 70%) of the entries of
#' the label matrix at random.
#'
#' Only observed entries are hidden: an `NA` already in `y` stays `NA` and is
#' never counted.  The number hidden is `rate` times the number of observed
#' entries, rounded to the nearest whole number (halves up):
#' * `by = "entry"`: of all the observed entries of `y`, drawn at random
#'   among them all;
#' * `by = "label"`: of each label's (column's) observed entries, so that
#'   every label loses the same share;
#' * `by = "instance"`: of each instance's (row's) observed entries.
#'
#' Positives and negatives are hidden alike (the draw ignores the values).
#'
#' @param y Labels: an n x m logical, 0/1 or -1/+1 matrix or data frame;
#'   may already contain `NA`.
#' @param rate The share of the observed entries to hide, in \[0, 1\].
#' @param by Hide the share of all entries (`"entry"`, the default), of each
#'   label's or of each instance's.
#' @param seed `NULL` to draw from R's generator as it stands, or a number:
#'   the mask is then reproducible, and the state of R's generator (the
#'   user's `.Random.seed`) is restored afterwards, as if nothing had been
#'   drawn.
#' @return A list with `y`, the n x m logical matrix with the hidden entries
#'   (and those missing before) set to `NA`, and `mask`, the n x m logical
#'   matrix that is `TRUE` where an entry was hidden by this call; both have
#'   the label names of `y`.  Also `rate` and `by`.
#' @references Li Y., Yang Y. and Qiu H. (2020). Label embedding for weak
#'   label classification. Journal of Nanjing University (Natural Sciences),
#'   56(4), 549-560.
#' @examples
#' data(yeast)
#' m <- mask_labels(yeast$y, 0.3, seed = 1)
#' mean(m$mask)           # 0.3 of the entries hidden
#' colMeans(is.na(mask_labels(yeast$y, 0.5, by = "label", seed = 1)$y))[1:4]
#' # how well the hidden entries are recovered by some scores s:
#' # ml_metrics(ifelse(m$mask, yeast$y, NA), score = s)
#' @export
mask_labels <- function(y, rate, by = c("entry", "label", "instance"), seed = NULL) {
  by <- match.arg(by)
  y <- as_labels(y, NROW(y), "y", na = "keep")
  if (missing(rate) || !is.numeric(rate) || length(rate) != 1 || is.na(rate) ||
      rate < 0 || rate > 1)
    stop_arg("'rate' must be a single number between 0 and 1")
  if (!is.null(seed)) {
    if (!is.numeric(seed) || length(seed) != 1 || is.na(seed))
      stop_arg("'seed' must be NULL or a single number")
    restore_rng_on_exit()
    set.seed(seed)
  }
  observed <- !is.na(y)
  mask <- matrix(FALSE, nrow(y), ncol(y), dimnames = dimnames(y))
  hide <- function(cells) {  # indices of observed cells; the ones to hide
    k <- floor(rate * length(cells) + 0.5)
    cells[sample.int(length(cells), k)]
  }
  if (by == "entry") {
    mask[hide(which(observed))] <- TRUE
  } else if (by == "label") {
    for (l in seq_len(ncol(y))) mask[hide(which(observed[, l])), l] <- TRUE
  } else {
    for (i in seq_len(nrow(y))) mask[i, hide(which(observed[i, ]))] <- TRUE
  }
  y[mask] <- NA
  list(y = y, mask = mask, rate = rate, by = by)
}

# Put R's generator back as it is now when the caller returns: its
# .Random.seed restored, or removed if there was none.
restore_rng_on_exit <- function(envir = parent.frame()) {
  had <- exists(".Random.seed", envir = globalenv(), inherits = FALSE)
  old <- if (had) get(".Random.seed", envir = globalenv(), inherits = FALSE)
  do.call(on.exit, list(substitute({
    if (HAD) assign(".Random.seed", OLD, envir = globalenv())
    else if (exists(".Random.seed", envir = globalenv(), inherits = FALSE))
      rm(".Random.seed", envir = globalenv())
  }, list(HAD = had, OLD = old)), add = TRUE), envir = envir)
}
