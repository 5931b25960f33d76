# Speed of mlcrf() and cv_mlcrf() (issue 25), run from the package root with
# the package installed: Rscript bench/mlcrf_speed.R.  Results in
# bench/mlcrf_speed.md (the "before" figures there were measured with the
# same calls at commit 8c0d0f7, before the working set of stage 1).
#
# Part 1: single fits on yeast's training part (1500 x 103, 14 labels) at
#   three points of the lambda_w path (fixed lambda_v), cold starts.
# Part 2: cv_mlcrf() with its defaults on yeast's training part (2 workers).
# Part 3: mlcrf() with its defaults on yeast's training part, enron (53
#   labels) and cal500 (174), each stopped after MLCRF_SPEED_LIMIT seconds.
# Part 4: cv_mlcrf() with its defaults on the training parts of
#   MLCRF_SPEED_CV_SETS ("emotions"; also "scene", "yeast"), sequential,
#   with the paths' early stop (the default) and without (path_stop = NULL):
#   CPU s, the chosen point, the points scored; and what the rule would skip
#   and choose with other settings, replayed on the whole grid's fold
#   measures (the fits do not depend on the points after them).
# Environment: MLCRF_SPEED_PARTS ("1,2,3"), MLCRF_SPEED_WORKERS (2),
#   MLCRF_SPEED_LIMIT (1800), MLCRF_SPEED_SETS (part 3's data sets,
#   "yeast_train,enron,cal500"), MLCRF_SPEED_SAVE (part 2: an .rds file to
#   keep the cv object's grid, cvfold, cvm, chosen point, skipped points and
#   timings in), MLCRF_SPEED_ARGS (part 2: extra arguments of cv_mlcrf() as
#   R code, e.g. "path_stop = NULL").  Before/after: run it with R_LIBS
#   pointing at an installation of main, then of the branch (copy the script
#   first: Rscript reads its file as it runs).
source(file.path("bench", "common.R"))
parts <- strsplit(Sys.getenv("MLCRF_SPEED_PARTS", "1,2,3"), ",")[[1]]
workers <- as.integer(Sys.getenv("MLCRF_SPEED_WORKERS", "2"))
`%||%` <- function(a, b) if (is.null(a)) b else a
cat("mlcrf speed;", R.version.string, "; BLAS:", extSoftVersion()[["BLAS"]],
    "; cores:", parallel::detectCores(), "; load:", readLines("/proc/loadavg"), "\n")
x <- yeast$x[yeast$train, ]
y <- yeast$y[yeast$train, ]

if ("1" %in% parts) {
  lv <- mlcrf(x, y, edges = "none")$lambda_v
  lmax <- mlss:::mlcrf_lambda_range(as.matrix(x), y, lv, 0.5)$lambda_max
  for (f in c(1, 0.4, 0.16)) {
    t <- system.time(fit <- mlcrf(x, y, lambda_v = lv, lambda_w = f * lmax, eta = 0.5))
    cat(sprintf("yeast fit at lambda_max * %.2f: %d edges, stage-1 iterations %d, %.1f s CPU, %.1f s elapsed\n",
                f, nrow(fit$edges), fit$convergence$stage1$iter, t[["user.self"]], t[["elapsed"]]))
  }
}

if ("2" %in% parts) {
  # CPU = user + system of this process and its children (forked workers)
  load0 <- readLines("/proc/loadavg")
  set.seed(1)
  # cv_mlcrf()'s own steps (lambda_v, the grid, the pruning, the path) with
  # the elapsed and CPU seconds (process and children) when each begins;
  # the engine's progress bar is not printed
  t0 <- proc.time()
  stamp <- function(m) {
    t <- proc.time() - t0
    cat(sprintf("  [%7.1f s elapsed, %7.1f s CPU] %s", t[["elapsed"]],
                sum(t[c("user.self", "sys.self", "user.child", "sys.child")], na.rm = TRUE),
                conditionMessage(m)))
  }
  extra <- eval(parse(text = paste0("list(", Sys.getenv("MLCRF_SPEED_ARGS"), ")")))
  stamps <- list()
  stamp0 <- stamp
  stamp <- function(m) {
    t <- proc.time() - t0
    stamps[[length(stamps) + 1]] <<- c(elapsed = t[["elapsed"]],
      cpu = sum(t[c("user.self", "sys.self", "user.child", "sys.child")], na.rm = TRUE))
    names(stamps)[length(stamps)] <<- trimws(conditionMessage(m))
    stamp0(m)
  }
  t <- system.time(cv <- withCallingHandlers(
    do.call(cv_mlcrf, c(list(x, y, parallel = if (workers > 1) workers else FALSE,
                             progress = TRUE), extra)),
    message = function(m) {
      if (startsWith(conditionMessage(m), "cv_mlcrf")) stamp(m)
      invokeRestart("muffleMessage")
    }))
  cpu <- sum(t[c("user.self", "sys.self", "user.child", "sys.child")], na.rm = TRUE)
  cat(sprintf("yeast cv_mlcrf() defaults, %d workers: %.1f s elapsed, %.1f s CPU (process and children); load before %s, after %s\n",
              workers, t[["elapsed"]], cpu, load0, readLines("/proc/loadavg")))
  print(cv)
  cat("cvm (held-out log loss per row, NA = not evaluated):\n")
  print(round(cv$cvm, 4))
  cat(sprintf("chosen: lambda_w %.4g, eta %g, cvm %.4f (se %.4f); fold x point fits evaluated: %d of %d\n",
              cv$grid$lambda_w[cv$chosen], cv$grid$eta[cv$chosen], cv$cvm[cv$chosen],
              cv$cvsd[cv$chosen], sum(!is.na(cv$cvfold)), length(cv$cvfold)))
  cat("pruned fit:", nrow(cv$fit$edges), "edges\n")
  save_to <- Sys.getenv("MLCRF_SPEED_SAVE")
  if (nzchar(save_to))
    saveRDS(list(grid = cv$grid, cvfold = cv$cvfold, cvm = cv$cvm, cvsd = cv$cvsd,
                 chosen = cv$chosen, skipped = cv$skipped, edges = cv$fit$edges,
                 stamps = stamps, total = t, load = c(load0, readLines("/proc/loadavg"))),
            save_to)
}

if ("3" %in% parts) {
  # mlcrf() with its defaults (lambda_v by CV, the default lambda_w); the same
  # folds for lambda_v in every run (set.seed(1)); each fit stopped after
  # MLCRF_SPEED_LIMIT seconds (elapsed).  Run with the package of main and
  # with this branch's, CPU and elapsed printed with the load average.
  limit <- as.numeric(Sys.getenv("MLCRF_SPEED_LIMIT", "1800"))
  sets <- list(yeast_train = list(x = x, y = y))
  for (name in c("enron", "cal500"))
    sets[[name]] <- read_mulan(shared_data("mulan", name, paste0(name, ".arff")),
                               shared_data("mulan", name, paste0(name, ".xml")))
  only <- strsplit(Sys.getenv("MLCRF_SPEED_SETS", "yeast_train,enron,cal500"), ",")[[1]]
  for (name in intersect(names(sets), only)) {
    d <- sets[[name]]
    load0 <- readLines("/proc/loadavg")
    set.seed(1)
    t0 <- proc.time()
    fit <- tryCatch({
      setTimeLimit(elapsed = limit, transient = TRUE)
      on.exit(setTimeLimit(elapsed = Inf), add = TRUE)
      mlcrf(d$x, d$y, progress = FALSE)
    }, error = function(e) conditionMessage(e))
    setTimeLimit(elapsed = Inf)
    t <- proc.time() - t0
    cpu <- t[["user.self"]] + t[["sys.self"]]
    if (is.character(fit)) {
      cat(sprintf("%s (%d x %d, %d labels): mlcrf() defaults STOPPED after %.1f s elapsed (%.1f s CPU): %s; load %s\n",
                  name, nrow(d$x), ncol(d$x), ncol(d$y), t[["elapsed"]], cpu, fit, load0))
      next
    }
    cat(sprintf("%s (%d x %d, %d labels): mlcrf() defaults %.1f s CPU, %.1f s elapsed, %d edges, lambda_w %.4g, stage-1 iterations %d (%d rounds), stage-2 %d; load before %s, after %s\n",
                name, nrow(d$x), ncol(d$x), ncol(d$y), cpu, t[["elapsed"]], nrow(fit$edges),
                fit$lambda_w, fit$convergence$stage1$iter,
                fit$convergence$stage1$rounds %||% NA_integer_, fit$convergence$stage2$iter,
                load0, readLines("/proc/loadavg")))
  }
}

# The early stop replayed on a whole grid's fold measures (cvfold, rows in
# the order walked, `path` per row): the points it skips, by the engine's
# own path_stops().
replay_stop <- function(cvfold, path, higher, patience, margin) {
  G <- nrow(cvfold)
  cvm <- cvsd <- rep(NA_real_, G)
  skipped <- logical(G)
  stopped <- logical(max(path))
  for (g in seq_len(G)) {
    if (stopped[path[g]]) {
      skipped[g] <- TRUE
      next
    }
    cvm[g] <- mean(cvfold[g, ])
    cvsd[g] <- sd(cvfold[g, ]) / sqrt(ncol(cvfold))
    stopped[path[g]] <- mlss:::path_stops(cvm, cvsd, which(path[seq_len(g)] == path[g]),
                                          which(!skipped[seq_len(g)]), higher, patience,
                                          margin)
  }
  which(skipped)
}

if ("4" %in% parts) {
  cpu_of <- function(t) sum(t[c("user.self", "sys.self", "user.child", "sys.child")], na.rm = TRUE)
  sets <- strsplit(Sys.getenv("MLCRF_SPEED_CV_SETS", "emotions"), ",")[[1]]
  for (name in sets) {
    d <- getExportedValue("mlss", name)
    xs <- d$x[d$train, ]
    ys <- d$y[d$train, ]
    runs <- list()
    for (mode in c("stop", "full")) {
      load0 <- readLines("/proc/loadavg")
      set.seed(1)
      args <- list(xs, ys, progress = FALSE)
      if (mode == "full") args["path_stop"] <- list(NULL)
      t <- system.time(cv <- suppressMessages(do.call(cv_mlcrf, args)))
      runs[[mode]] <- cv
      cat(sprintf("%s (%d x %d, %d labels) cv_mlcrf() defaults, %s: %.1f s CPU, %.1f s elapsed; chosen lambda_w %.4g eta %g, cvm %.4f (se %.4f); %d of %d points scored; %d edges after pruning; load before %s, after %s\n",
                  name, nrow(xs), ncol(xs), ncol(ys),
                  if (mode == "stop") "path_stop default" else "path_stop = NULL",
                  cpu_of(t), t[["elapsed"]], cv$grid$lambda_w[cv$chosen], cv$grid$eta[cv$chosen],
                  cv$cvm[cv$chosen], cv$cvsd[cv$chosen], sum(!is.na(cv$cvfold[, 1])),
                  nrow(cv$cvfold), nrow(cv$fit$edges), load0, readLines("/proc/loadavg")))
    }
    full <- runs$full
    print(cbind(full$grid, full = round(as.vector(full$cvm), 4),
                se = round(as.vector(full$cvsd), 4),
                stop = round(as.vector(runs$stop$cvm), 4)))
    path <- match(full$grid$eta, sort(unique(full$grid$eta)))
    for (p in 1:3) for (mg in c(1, 3, Inf)) {
      sk <- replay_stop(full$cvfold, path, full$higher_better, p, mg)
      cvm <- as.vector(full$cvm)
      cvm[sk] <- NA
      best <- mlss:::best_grid_point(cvm, full$order, full$higher_better)
      cat(sprintf("  replay patience %d margin %s: skips %s; best %d (whole grid %d)\n",
                  p, format(mg), paste(sk, collapse = " "), best, full$best))
    }
  }
}
