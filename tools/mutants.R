# Mutation testing: does the test suite fail when the code is wrong?
#
# Every mutant of tools/mutants.dcf is one small realistic bug (a flipped
# comparison, an off-by-one, a dropped centring term, a changed tie rule),
# written as a search-and-replace pair on one file.  For each, a copy of the
# package gets that one change, is installed into a temporary library, and the
# test suite runs on it: the mutant is "killed" when a test fails (or the
# package crashes or times out), "survived" when the whole suite passes.  The
# script fails when a mutant survives, when its pattern is not found (or found
# twice) in the current sources, or when the mutated package does not build.
#
#   make mutants                       all mutants, ../shared absent
#   make mutants MUTANTS=a,b           only these (comma-separated names)
#   make mutants SHARED=present        with the datasets of ../shared/data
#   make mutants MUTANTS_CHECK=1       only check that every pattern applies
#
# Environment: MUTANTS, SHARED (absent | present), MUTANTS_CHECK, MUTANTS_FILE
# (another list of mutants, e.g. to try new ones before adding them),
# MUTANTS_TIMEOUT (seconds per suite run, default 600), MUTANTS_KEEP (keep the
# temporary directory), MUTANTS_JOBS (mutants run at the same time, default 1;
# each in its own copy of the library, compiling with make -j1),
# MUTANTS_BASE=skip (do not run the tests on the unmutated package first: for
# re-runs of a list known to pass), MUTANTS_SCOPE (named | full, default
# named: see below), MUTANTS_FROM_END (run only the last k selected entries,
# last first: the newest entries).
#
# What makes a mutant cheap: the unmutated package is built and installed
# once (its objects kept), and each mutant's library is a copy of that
# installed package in which only what the mutated file changes is rebuilt:
#   R/*.R     the package's R code, concatenated as R CMD INSTALL does, into a
#             new lazy-load database (tools:::makeLazyLoading); no compiler,
#             no make, no data or help
#   src/*.c   that file recompiled in a copy of the built src/ (the other
#             objects reused by make's time stamps) and the shared object
#             relinked (R CMD SHLIB, as R CMD INSTALL runs it) and copied in;
#             src/*.h: every object recompiled (make does not know which
#             files include it)
#   other     a full R CMD INSTALL of a copy of the built tree (as before)
# The per-mutant seconds (wall, and CPU of the child processes) and the
# install's share are reported.  MUTANTS_SCOPE=named (the default) runs only
# the mutant's Tests files (the whole suite when it names none): a mutant
# counts as killed only when the tests written for it kill it, which is what
# the list checks, and a survivor costs its own files, not the suite.
# MUTANTS_SCOPE=full runs them first and then the rest of the suite while the
# mutant survives (the first failing file ends the run).  The base check runs
# the same files (named: the union of the selected mutants' Tests).  The copy
# lives under tempdir(), away from ../shared, so by default the tests that
# need ../shared skip; SHARED=present points MLSS_SHARED_DATA (honoured by
# shared_data() in helper-data.R) at it.
#
# A mutant entry (DCF, one blank line between entries):
#   Name:    a short unique name
#   File:    the file to change, relative to the package root
#   Context: optional: a string that occurs once in the file; From is then
#            the first match at or after it (for lines that repeat)
#   From:    the exact text to replace (must occur once, or once after Context)
#   To:      its replacement
#   Tests:   optional: test files to run first (a kill stops the run early;
#            a survivor still runs the whole suite)
#   Why:     the bug it stands for
# Leading blanks of a value are dropped, so a pattern starts at its first
# non-blank character; keep patterns to lines unlikely to be reformatted.
# Every new method or reader adds mutants of its own, and a test that kills
# each (check that it does with MUTANTS=its-name).  A mutant that cannot be
# killed because it changes nothing (an equivalent mutant) does not belong in
# the list.

main <- function() {
  root <- normalizePath(".")
  if (!file.exists(file.path(root, "DESCRIPTION"))) stop("run from the package root")
  list_file <- Sys.getenv("MUTANTS_FILE", file.path(root, "tools", "mutants.dcf"))
  spec <- read.dcf(list_file,
                   fields = c("Name", "File", "Context", "From", "To", "Tests", "Why"),
                   keep.white = c("From", "To"))
  mutants <- as.data.frame(spec, stringsAsFactors = FALSE)
  if (anyDuplicated(mutants$Name)) stop("duplicated mutant names: ",
                                        paste(mutants$Name[duplicated(mutants$Name)], collapse = ", "))
  wanted <- strsplit(Sys.getenv("MUTANTS", ""), "[, ]+")[[1]]
  wanted <- wanted[nzchar(wanted)]
  if (length(wanted)) {
    unknown <- setdiff(wanted, mutants$Name)
    if (length(unknown)) stop("unknown mutant(s): ", paste(unknown, collapse = ", "))
    mutants <- mutants[mutants$Name %in% wanted, , drop = FALSE]
  }
  from_end <- as.integer(Sys.getenv("MUTANTS_FROM_END", "0"))
  if (!is.na(from_end) && from_end > 0)
    mutants <- mutants[rev(utils::tail(seq_len(nrow(mutants)), from_end)), , drop = FALSE]
  scope <- match.arg(Sys.getenv("MUTANTS_SCOPE", "named"), c("named", "full"))
  shared <- match.arg(Sys.getenv("SHARED", "absent"), c("absent", "present"))
  timeout <- as.numeric(Sys.getenv("MUTANTS_TIMEOUT", "600"))

  # Every pattern is checked before anything is built.
  texts <- lapply(seq_len(nrow(mutants)), function(i) mutate(root, mutants[i, ]))
  # every named Tests file exists (a misspelt one would run nothing)
  tests_dir <- file.path(root, "tests", "testthat")
  for (i in seq_len(nrow(mutants))) {
    missing_tests <- setdiff(split_tests(mutants$Tests[i]), list.files(tests_dir))
    if (is.list(texts[[i]]) && length(missing_tests))
      texts[[i]] <- paste("test file(s) not found:", paste(missing_tests, collapse = ", "))
  }
  bad <- !vapply(texts, is.list, TRUE)
  for (i in which(bad)) message("ERROR mutant ", mutants$Name[i], ": ", texts[[i]])
  cat(sprintf("%d mutants, %d with a pattern error\n", nrow(mutants), sum(bad)))
  if (nzchar(Sys.getenv("MUTANTS_CHECK"))) quit(status = if (any(bad)) 1 else 0)

  tmp <- tempfile("mlss-mutants-")
  dir.create(tmp)
  if (!nzchar(Sys.getenv("MUTANTS_KEEP"))) on.exit(unlink(tmp, recursive = TRUE), add = TRUE)
  # MAKEFLAGS of the caller (e.g. -j1 on a loaded machine), else -j2
  env <- c(paste0("MAKEFLAGS=", Sys.getenv("MAKEFLAGS", "-j2")),
           paste0("MLSS_SHARED_DATA=", shared_dir(root, shared)))
  start <- Sys.time()

  # The unmutated package, built once: its objects are reused, so a mutant
  # recompiles only the file it changes.  Its suite must pass.
  base <- file.path(tmp, "base")
  copy_package(root, base)
  lib <- file.path(tmp, "lib")
  dir.create(lib)
  if (!install(base, lib, env)) stop("the unmutated package does not install")
  named <- unique(unlist(lapply(mutants$Tests, split_tests)))
  base_only <- if (scope == "named" && all(!is.na(mutants$Tests))) named else NULL
  if (Sys.getenv("MUTANTS_BASE", "run") != "skip") {
    ref <- run_suite(base, lib, env, named, timeout, root, only = base_only)
    if (ref$status != "survived") stop("the suite fails on the unmutated package: ", ref$by)
    cat(sprintf("unmutated package: %s pass (%.0f s), shared data %s\n",
                if (is.null(base_only)) "the suite's tests" else
                  paste(length(base_only), "named test files"), ref$seconds, shared))
  } else cat("unmutated package built; its tests not run (MUTANTS_BASE=skip)\n")

  jobs <- max(1L, as.integer(Sys.getenv("MUTANTS_JOBS", "1")))
  one <- function(i) {
    mu <- mutants[i, ]
    t0 <- Sys.time()
    cpu0 <- child_cpu()
    t_install <- NA_real_
    if (bad[i]) {
      res <- list(status = "ERROR", by = texts[[i]])
    } else {
      dir <- file.path(tmp, paste0("mutant-", i))
      mlib <- file.path(tmp, paste0("lib-", i))
      on.exit(unlink(c(dir, mlib), recursive = TRUE), add = TRUE)
      ok <- install_mutant(mu, texts[[i]]$bytes, base, lib, dir, mlib, env_job)
      t_install <- as.numeric(Sys.time() - t0, units = "secs")
      tests <- split_tests(mu$Tests)
      res <- if (!ok) list(status = "ERROR", by = "does not build") else
        run_suite(if (file.exists(file.path(dir, "tests"))) dir else base, mlib, env_job,
                  tests, timeout, root,
                  only = if (scope == "named" && length(tests)) tests)
    }
    row <- data.frame(mutant = mu$Name, file = mu$File, result = res$status,
                      by = res$by, install = round(t_install, 1),
                      seconds = round(as.numeric(Sys.time() - t0, units = "secs"), 1),
                      cpu = round(child_cpu() - cpu0, 1))
    cat(sprintf("%-28s %-24s %-9s %5.1f s (install %5.1f s, CPU %5.1f s) %s\n", mu$Name,
                mu$File, res$status, row$seconds, row$install, row$cpu, res$by))
    row
  }
  # parallel mutants compile with one make job each
  env_job <- if (jobs > 1) replace(env, 1, "MAKEFLAGS=-j1") else env
  rows <- if (jobs > 1) parallel::mclapply(seq_len(nrow(mutants)), one, mc.cores = jobs,
                                           mc.preschedule = FALSE)
          else lapply(seq_len(nrow(mutants)), one)
  failed <- vapply(rows, inherits, TRUE, "try-error")
  if (any(failed)) stop("a mutant's job failed: ", as.character(rows[failed][[1]]))
  tab <- do.call(rbind, rows)
  if (is.null(tab)) tab <- data.frame(mutant = character(), file = character(),
                                      result = character(), by = character(),
                                      install = numeric(), seconds = numeric(),
                                      cpu = numeric())
  cat("\n| mutant | file | result | by (the first failing test) | s |\n|---|---|---|---|---|\n")
  cat(sprintf("| %s | %s | %s | %s | %d |\n", tab$mutant, tab$file, tab$result, tab$by,
              as.integer(tab$seconds)), sep = "")
  cat(sprintf("\n%d killed, %d survived, %d errors; tests %s; shared data %s; %.1f min\n",
              sum(tab$result == "killed"), sum(tab$result == "survived"),
              sum(tab$result == "ERROR"), scope, shared,
              as.numeric(Sys.time() - start, units = "mins")))
  if (any(tab$result != "killed")) quit(status = 1)
}

# The mutated bytes of one file: list(bytes), or an error message.
mutate <- function(root, mu) {
  if (anyNA(unlist(mu[c("Name", "File", "From", "To")])))
    return("Name, File, From and To are required")
  path <- file.path(root, mu$File)
  if (!file.exists(path)) return(paste("file not found:", mu$File))
  bytes <- readBin(path, "raw", file.size(path))
  text <- rawToChar(bytes)
  if (identical(mu$From, mu$To)) return("From and To are the same")
  from <- 1L
  if (!is.na(mu$Context)) {
    at <- fixed_matches(text, mu$Context)
    if (length(at) != 1)
      return(sprintf("context '%s' %s in %s", mu$Context,
                     if (length(at)) "found more than once" else "not found", mu$File))
    from <- at
  }
  at <- fixed_matches(text, mu$From)
  at <- at[at >= from]
  if (!length(at)) return(sprintf("pattern not found in %s: '%s'", mu$File, mu$From))
  if (is.na(mu$Context) && length(at) > 1)
    return(sprintf("pattern found %d times in %s (add a Context): '%s'", length(at),
                   mu$File, mu$From))
  at <- at[1]  # byte positions throughout
  after <- at + nchar(mu$From, "bytes")
  list(bytes = c(bytes[seq_len(at - 1)], charToRaw(mu$To),
                 if (after <= length(bytes)) bytes[after:length(bytes)]))
}

fixed_matches <- function(text, pattern) {
  at <- gregexpr(pattern, text, fixed = TRUE, useBytes = TRUE)[[1]]
  as.integer(at[at > 0])
}

split_tests <- function(s) if (is.na(s)) character() else strsplit(trimws(s), "[, ]+")[[1]]

shared_dir <- function(root, shared) {
  if (shared == "absent") return("")
  dir <- Sys.getenv("MLSS_SHARED_DATA", "")
  here <- root
  while (!nzchar(dir) && dirname(here) != here) {
    if (dir.exists(file.path(here, "shared", "data"))) dir <- file.path(here, "shared", "data")
    here <- dirname(here)
  }
  if (!nzchar(dir)) stop("SHARED=present but no ../shared/data was found")
  dir
}

# What installing and testing needs; no built objects of the worktree.
# vignettes/: test-papers-tables.R checks the figures of their prose (and
# skips without them, which would let a mutant of those figures live).
copy_package <- function(root, dest) {
  dir.create(dest)
  keep <- intersect(c("DESCRIPTION", "NAMESPACE", "R", "src", "tests", "data", "inst",
                      "vignettes"),
                    list.files(root))
  system2("cp", c("-a", shQuote(file.path(root, keep)), shQuote(dest)))
  unlink(Sys.glob(file.path(dest, "src", c("*.o", "*.so", "*.dll"))))
  # the xz compression of the datasets took most of an install's time
  desc <- file.path(dest, "DESCRIPTION")
  writeLines(sub("^LazyDataCompression:.*$", "LazyDataCompression: none", readLines(desc)), desc)
}

install <- function(pkg, lib, env) {
  out <- system2(file.path(R.home("bin"), "R"),
                 c("CMD", "INSTALL", "--no-docs", "--no-multiarch", "--no-byte-compile",
                   "--no-test-load", "--no-staged-install",
                   paste0("--library=", shQuote(lib)), shQuote(pkg)),
                 stdout = TRUE, stderr = TRUE, env = env)
  status <- attr(out, "status")
  ok <- is.null(status) || status == 0
  if (!ok) message(paste(utils::tail(out, 20), collapse = "\n"))
  ok
}

# CPU seconds of the finished child processes of this one
child_cpu <- function() {
  pt <- proc.time()
  sum(pt[c("user.child", "sys.child")], na.rm = TRUE)
}

# The mutant's library `mlib`: a copy of the unmutated installed package in
# `lib`, with what the mutated file (its bytes) changes rebuilt (see the
# header); `dir` is the mutant's scratch tree.  TRUE when it built.
install_mutant <- function(mu, bytes, base, lib, dir, mlib, env) {
  file <- mu$File
  route <- if (grepl("^R/[^/]+\\.[RrSsq]$", file)) "R" else
    if (grepl("^src/[^/]+\\.[ch]$", file)) "C" else "full"
  dir.create(dir)
  dir.create(mlib)
  if (route == "full") {
    # a copy of the built tree (objects and their times kept)
    unlink(dir, recursive = TRUE)
    system2("cp", c("-a", shQuote(base), shQuote(dir)))
    writeBin(bytes, file.path(dir, file))
    return(install(dir, mlib, env))
  }
  system2("cp", c("-a", shQuote(file.path(lib, "mlss")), shQuote(mlib)))
  if (route == "R") {
    # the R sources with the mutated file, concatenated and lazy-loaded as
    # R CMD INSTALL does (no byte-compilation, as in install())
    system2("cp", c("-a", shQuote(file.path(base, c("DESCRIPTION", "R"))), shQuote(dir)))
    writeBin(bytes, file.path(dir, file))
    inst <- file.path(mlib, "mlss")
    unlink(file.path(inst, "R", c("mlss.rdb", "mlss.rdx")))
    code <- sprintf(paste0("invisible(tools:::.install_package_code_files(%s, %s)); ",
                           "tools:::makeLazyLoading(\"mlss\", %s)"),
                    deparse(dir), deparse(inst), deparse(mlib))
    out <- system2(file.path(R.home("bin"), "Rscript"), c("--vanilla", "-e", shQuote(code)),
                   stdout = TRUE, stderr = TRUE,
                   env = c(env, paste0("R_LIBS=", mlib), "R_COMPILE_PKGS=0"))
  } else {
    # the built src/ with the mutated file newer than its object: make
    # recompiles it alone (a header: everything) and relinks
    system2("cp", c("-a", shQuote(file.path(base, "src")), shQuote(dir)))
    writeBin(bytes, file.path(dir, file))
    if (grepl("\\.h$", file)) unlink(Sys.glob(file.path(dir, "src", "*.o")))
    srcs <- basename(Sys.glob(file.path(dir, "src", "*.c")))
    out <- system2("sh", c("-c", shQuote(paste(
      "cd", shQuote(file.path(dir, "src")), "&&", shQuote(file.path(R.home("bin"), "R")),
      "CMD SHLIB -o mlss.so", paste(srcs, collapse = " ")))),
      stdout = TRUE, stderr = TRUE, env = env)
    if (is.null(attr(out, "status")))
      file.copy(file.path(dir, "src", "mlss.so"), file.path(mlib, "mlss", "libs", "mlss.so"),
                overwrite = TRUE)
  }
  status <- attr(out, "status")
  ok <- is.null(status) || status == 0
  if (!ok) message(paste(utils::tail(out, 20), collapse = "\n"))
  ok
}

# The tests in a fresh R process, file by file, the `first` files first; it
# stops at the first file with a failing test.  `only`: run just these files
# (a directory of links to tests/testthat without the other test files).
# Returns the status and the first failing test ("file: test").
run_suite <- function(pkg, lib, env, first, timeout, root, only = NULL) {
  out <- tempfile(fileext = ".txt")
  t0 <- Sys.time()
  tdir <- file.path(pkg, "tests", "testthat")
  if (length(only)) {
    sub <- tempfile("tests-")
    dir.create(sub)
    on.exit(unlink(sub, recursive = TRUE), add = TRUE)
    keep <- list.files(tdir, all.files = TRUE, no.. = TRUE)
    keep <- keep[!grepl("^test.*\\.[rR]$", keep) | keep %in% only]
    file.symlink(file.path(tdir, keep), file.path(sub, keep))
    tdir <- sub
  }
  status <- system2("timeout", c(timeout, file.path(R.home("bin"), "Rscript"), "--vanilla",
                                 shQuote(file.path(root, "tools", "mutants-suite.R")),
                                 shQuote(tdir), shQuote(out), first),
                    stdout = FALSE, stderr = FALSE,
                    env = c(env, paste0("R_LIBS=", lib), "NOT_CRAN=true"))
  seconds <- as.numeric(Sys.time() - t0, units = "secs")
  by <- if (file.exists(out)) paste(readLines(out, warn = FALSE), collapse = " ") else ""
  if (status == 124) return(list(status = "killed", by = "timeout", seconds = seconds))
  if (status == 0) return(list(status = "survived", by = "", seconds = seconds))
  if (!nzchar(by)) by <- sprintf("crash (exit status %d)", status)
  list(status = "killed", by = by, seconds = seconds)
}

main()
