# Conditions the package signals.  Each kind has a class, so that callers
# (the cross-validation engine, cv_lewl(), a user's tryCatch()) catch them by
# class and never by the wording of the message.
#
#   mlss_not_converged   warning: an iterative solver stopped at its iteration
#                        limit or stalled before its stopping rule held.
#   mlss_deprecated      warning (also of class "deprecatedWarning", as base
#                        R's .Deprecated() gives): an old spelling of an
#                        argument or of a value, accepted for one release;
#                        given once per session and spelling.

# A warning of class "mlss_not_converged"; `...` is pasted into the message.
warn_not_converged_msg <- function(...) {
  cond <- structure(class = c("mlss_not_converged", "warning", "condition"),
                    list(message = paste0(...), call = NULL))
  warning(cond)
}

# The old spellings already warned about in this session (warn_deprecated()).
deprecated_seen <- new.env(parent = emptyenv())

# A warning of class "mlss_deprecated", once per session for each `old` of each `fun`: `fun`
# accepts `old` (an argument or a value, as the user wrote it, e.g.
# 'na_labels = "keep"') for one release; `new` is what to write instead.
# Returns TRUE when it warned.
warn_deprecated <- function(old, new, fun) {
  key <- paste0(fun, ": ", old)
  if (isTRUE(deprecated_seen[[key]])) return(invisible(FALSE))
  assign(key, TRUE, envir = deprecated_seen)
  cond <- structure(class = c("mlss_deprecated", "deprecatedWarning", "warning", "condition"),
                    list(message = paste0(fun, "(): ", old, " is deprecated; write ", new,
                                          " (the old spelling is accepted until the next ",
                                          "release)"),
                         call = NULL))
  warning(cond)
  invisible(TRUE)
}
