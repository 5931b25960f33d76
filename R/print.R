# Printing pieces shared by the print() and summary() methods of the fits.

# The line of print() that says where the fit's thresholds come from
# (threshold_source() in R/thresholds.R).
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

# The per-label table, its first max_labels rows and a note when there are more.
print_label_table <- function(tab, digits, max_labels) {
  check_number(max_labels, "max_labels", 1, finite = FALSE, what = "a number >= 1")
  show <- seq_len(min(nrow(tab), max_labels))
  print(tab[show, , drop = FALSE], digits = digits)
  if (length(show) < nrow(tab))
    cat("... and ", nrow(tab) - length(show), " more labels (all ", nrow(tab),
        " in $labels of the summary; print(summary(fit), max_labels = Inf) shows them)\n",
        sep = "")
}
