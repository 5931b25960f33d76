# Files for the reader tests: small ones written on the spot, and the
# datasets of ../shared/data when the package sources sit beside them.

# A file holding these lines (written as bytes: no encoding, no newline added
# unless asked).
text_file <- function(lines, ext = ".arff", eol = "\n", final_eol = TRUE) {
  f <- tempfile(fileext = ext)
  txt <- paste(lines, collapse = eol)
  if (final_eol) txt <- paste0(txt, eol)
  writeBin(charToRaw(enc2utf8(txt)), f)
  f
}

# A path below ../shared/data (searched upwards from the test directory, or
# MLSS_SHARED_DATA), or a skip when it is absent.
shared_data <- function(...) {
  dir <- Sys.getenv("MLSS_SHARED_DATA", "")
  if (!nzchar(dir)) {
    here <- normalizePath(getwd())
    repeat {
      if (dir.exists(file.path(here, "shared", "data"))) {
        dir <- file.path(here, "shared", "data")
        break
      }
      if (dirname(here) == here) break
      here <- dirname(here)
    }
  }
  path <- file.path(dir, ...)
  if (!nzchar(dir) || !file.exists(path)) testthat::skip("../shared/data is not available")
  path
}

# The error message of an expression.
error_of <- function(expr) tryCatch({ expr; NA_character_ }, error = conditionMessage)
