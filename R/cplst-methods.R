#' @export
print.cplst <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat("\nCall:  ", paste(deparse(x$call), sep = "\n", collapse = "\n"), "\n\n", sep = "")
  cat("CPLST (conditional principal label space transformation) on ", x$nobs,
      " instances, ", nrow(x$W), " features, ", length(x$labels), " labels\n", sep = "")
  share <- sum(x$eigenvalues[seq_len(x$k)]) / sum(pmax(x$eigenvalues, 0))
  cat(x$k, " label directions (", format(100 * share, digits = digits),
      "% of tr(Yc'HYc)), ridge lambda = ", format(x$lambda, digits = digits), "\n", sep = "")
  if (x$n_missing)
    cat(x$n_missing, " missing label(s) taken as negatives\n", sep = "")
  cat("training macro F1 ", format(mean(x$train_f1), digits = digits),
      " with per-label thresholds tuned on the training scores\n\n", sep = "")
  invisible(x)
}
