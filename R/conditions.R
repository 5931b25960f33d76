# Conditions the package signals.  Each kind has a class, so that callers
# (the cross-validation engine, cv_lewl(), a user's tryCatch()) catch them by
# class and never by the wording of the message.
#
#   mlss_not_converged   warning: an iterative solver stopped at its iteration
#                        limit or stalled before its stopping rule held.

# A warning of class "mlss_not_converged"; `...` is pasted into the message.
warn_not_converged_msg <- function(...) {
  cond <- structure(class = c("mlss_not_converged", "warning", "condition"),
                    list(message = paste0(...), call = NULL))
  warning(cond)
}
