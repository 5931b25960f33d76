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
# Part 5: the steps after the grid on yeast one by one (session s36).
# Part 6: the pruning now and the rule at tol on the structure designs.
# Part 7: the steps after the grid as cv_mlcrf() runs them, each alone (s37).
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

# Parts 5 and 7: the point cv_mlcrf() chooses on yeast's training part
# (lambda_w the third of the default path, eta 0.5, lambda_v as cv_mlcrf()
# chooses it, set.seed(1)) and the fit on all the rows there, timed.
chosen_point_fit <- function(x, y, tol = 1e-6) {
  set.seed(1)
  lv <- mlcrf(x, y, edges = "none", tol = tol, progress = FALSE)$lambda_v
  top <- max(sapply(c(0.5, 1), function(e)
    mlss:::mlcrf_lambda_range(x, y, lv, e, "full", tol, 2000)$lambda_max))
  lw <- top * 10^seq(0, -2, length.out = 6)
  t <- system.time(fit <- mlcrf(x, y, lambda_v = lv, lambda_w = lw[3], eta = 0.5, tol = tol,
                                progress = FALSE))
  list(tol = tol, lv = lv, lw = lw, fit = fit, t = t)
}

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
  c0 <- cpu_seconds()
  stamp <- function(m) {
    t <- proc.time() - t0
    cat(sprintf("  [%7.1f s elapsed, %7.1f s CPU] %s", t[["elapsed"]], cpu_seconds() - c0,
                conditionMessage(m)))
  }
  extra <- eval(parse(text = paste0("list(", Sys.getenv("MLCRF_SPEED_ARGS"), ")")))
  stamps <- list()
  stamp0 <- stamp
  stamp <- function(m) {
    t <- proc.time() - t0
    stamps[[length(stamps) + 1]] <<- c(elapsed = t[["elapsed"]], cpu = cpu_seconds() - c0)
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
  cpu <- proc_cpu(t)
  cat(sprintf("yeast cv_mlcrf() defaults, %d workers: %.1f s elapsed, %.1f s CPU (process and children); load before %s, after %s\n",
              workers, t[["elapsed"]], cpu, load0, readLines("/proc/loadavg")))
  print(cv)
  cat("cvm (held-out log loss per row, NA = not evaluated):\n")
  print(round(cv$cvm, 4))
  cat(sprintf("chosen: lambda_w %.4g, eta %g, cvm %.4f (se %.4f); fold x point fits evaluated: %d of %d\n",
              cv$grid$lambda_w[cv$chosen], cv$grid$eta[cv$chosen], cv$cvm[cv$chosen],
              cv$cvsd[cv$chosen], sum(!is.na(cv$cvfold)), length(cv$cvfold)))
  cat("pruned fit:", nrow(cv$fit$edges), "edges\n")
  cat("edges:", sort(paste(cv$fit$edges$from, cv$fit$edges$to, sep = "~")), "\n")
  if (!is.null(cv$schedule)) {  # the grid's pieces on the workers (session s36)
    cat("pieces on the workers:\n")
    print(round(cv$schedule, 1))
  }
  save_to <- Sys.getenv("MLCRF_SPEED_SAVE")
  if (nzchar(save_to))
    saveRDS(list(grid = cv$grid, cvfold = cv$cvfold, cvm = cv$cvm, cvsd = cv$cvsd,
                 chosen = cv$chosen, skipped = cv$skipped, edges = cv$fit$edges,
                 stamps = stamps, total = t, load = c(load0, readLines("/proc/loadavg")),
                 schedule = cv$schedule, fit = cv$fit, fit_cv = cv$fit_cv, ebic = cv$ebic),
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
                  proc_cpu(t), t[["elapsed"]], cv$grid$lambda_w[cv$chosen], cv$grid$eta[cv$chosen],
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

# Part 5 (session s36): the steps after the grid on yeast's training part,
# one by one, at the point cv_mlcrf() chooses (lambda_w the third of the
# default path, eta 0.5; lambda_v chosen as cv_mlcrf() does, set.seed(1)):
# the fit on all the rows at tol; the null per edge of prune = "chisq" as
# before (its plain reading from mlcrf_edge_blocks(), now in
# tests/testthat/helper-mlcrf-blocks.R) and as now (weighted
# Grams); the pruning with the candidates at tol (the rule before) and at
# fold_tol (now); the path of strengths at tol and at fold_tol.  CPU s of
# this process; the chosen graphs compared.
if ("5" %in% parts) {
  cpu_of <- function(t) sum(t[c("user.self", "sys.self")])
  edge_set <- function(f) sort(paste(f$edges$from, f$edges$to, sep = "~"))
  cf <- chosen_point_fit(x, y)
  tol <- cf$tol; fold_tol <- 100 * tol; lv <- cf$lv; lw <- cf$lw; fit <- cf$fit; t <- cf$t
  cat(sprintf("fit on all the rows at lambda_w %.4f: %.1f s CPU, %d edges\n", lw[3], cpu_of(t),
              nrow(fit$edges)))
  # mlcrf_edge_blocks(): a test helper since session s37
  source(file.path("tests", "testthat", "helper-mlcrf-blocks.R"))
  null_before <- function(fit, x, y) t(vapply(mlcrf_edge_blocks(fit, x, y), function(b) {
    nd <- b$nodes
    ed <- b$edge
    Tn <- solve(b$H[nd, nd] + diag(b$ridge[nd]), b$H[nd, ed])
    S <- b$H[ed, ed] - b$H[ed, nd] %*% Tn
    Gp <- b$G[, ed] - b$G[, nd] %*% Tn
    R <- solve(S + diag(b$ridge[ed]))
    A <- (2 * R - R %*% S %*% R) %*% crossprod(Gp)
    s1 <- sum(diag(A))
    s2 <- sum(A * t(A))
    c(s1, s2 / s1, s1^2 / s2)
  }, numeric(3)))
  t0 <- system.time(n0 <- null_before(fit, x, y))
  t1 <- system.time(n1 <- mlss:::mlcrf_edge_null(fit, x, y))
  cat(sprintf("null per edge (%d edges): before %.1f s CPU, now %.1f s CPU; largest relative difference %.1e\n",
              nrow(n1), cpu_of(t0), cpu_of(t1), max(abs(n1 - n0) / abs(n0))))
  t0 <- system.time(p0 <- mlss:::mlcrf_ebic_prune(fit, x, y, tol, 2000, 0.5, level = 0.001))
  t1 <- system.time(p1 <- mlss:::mlcrf_ebic_prune(fit, x, y, tol, 2000, 0.5, level = 0.001,
                                                  cand_tol = fold_tol))
  cat(sprintf("pruning (chisq): candidates at tol %.1f s CPU (%d candidates, %d edges kept); at fold_tol %.1f s CPU (%d candidates, %d edges kept); same edge set: %s; kept fit's largest |theta difference| %.1e; least criterion %.3f and %.3f\n",
              cpu_of(t0), nrow(p0$ebic), nrow(p0$fit$edges), cpu_of(t1), nrow(p1$ebic),
              nrow(p1$fit$edges), identical(edge_set(p0$fit), edge_set(p1$fit)),
              if (identical(edge_set(p0$fit), edge_set(p1$fit)))
                max(abs(p0$fit$theta - p1$fit$theta)) else NA,
              min(p0$ebic$criterion), min(p1$ebic$criterion)))
  print(cbind(p0$ebic, criterion_fold_tol = c(p1$ebic$criterion,
                                              rep(NA, max(0, nrow(p0$ebic) - nrow(p1$ebic))))
              [seq_len(nrow(p0$ebic))]))
  t0 <- system.time(s0 <- mlss:::mlcrf_strength_path(x, y, lw, 0.5, lv, "full", tol, 2000))
  t1 <- system.time(s1 <- mlss:::mlcrf_strength_path(x, y, lw, 0.5, lv, "full", fold_tol, 2000))
  cat(sprintf("path of strengths (6 points, eta 0.5): at tol %.1f s CPU, at fold_tol %.1f s CPU; largest |difference| %.4f (largest strength %.3f); pairs in the graph per point %s and %s\n",
              cpu_of(t0), cpu_of(t1), max(abs(s0 - s1)), max(s0),
              paste(colSums(s0 > 0), collapse = " "), paste(colSums(s1 > 0), collapse = " ")))
}

# Part 6 (session s36): the pruning of cv_mlcrf() (candidates at fold_tol,
# the kept graph at tol) against the rule at tol (mlcrf_ebic_prune() with
# cand_tol = tol) on the structure designs of bench/mlcrf_structure.R (the
# balanced couplings of bench/mlcrf_structure_endtoend.R), seeds 1001-1002
# of each and star8's 1003: the same fit before pruning, the kept edge sets
# compared.
if ("6" %in% parts) {
  src <- readLines(file.path("bench", "mlcrf_structure.R"))
  a <- grep("^designs <- list\\(", src)
  b <- grep("^edge_set <- function", src)
  eval(parse(text = src[a:b][!grepl("^if \\(|^only <-", src[a:b])]))
  runs <- lapply(designs, function(d) 1001:1002)
  runs$star8 <- c(runs$star8, 1003)
  same <- 0
  for (nm in names(runs)) {
    des <- designs[[nm]]
    des$coupling <- 0.75 * sign(des$coupling)
    des$spin <- TRUE
    for (seed in runs[[nm]]) {
      set.seed(seed)
      dat <- generate(des)
      cv <- suppressWarnings(suppressMessages(cv_mlcrf(dat$x, dat$y, progress = FALSE,
                                                       path = FALSE)))
      old <- suppressWarnings(mlss:::mlcrf_ebic_prune(cv$fit_cv, dat$x, dat$y, 1e-6, 2000, 0.5,
                                                      level = 0.001))
      hit <- identical(edge_set(cv$fit), edge_set(old$fit))
      same <- same + hit
      cat(sprintf("%s seed %d: %s (%d edges; the true graph %s)\n", nm, seed,
                  if (hit) "the same edges" else "DIFFERENT edges", nrow(cv$fit$edges),
                  if (identical(edge_set(cv$fit), truth_set(des))) "exactly" else "missed"))
    }
  }
  cat("same edge set:", same, "of", sum(lengths(runs)), "\n")
}

# Part 7 (session s37): the steps after the grid on yeast's training part as
# cv_mlcrf() runs them now (the fit on all the rows at tol, its pruning with
# the candidates at fold_tol, the path of strengths at fold_tol), each timed
# alone (CPU s of this process), at the point cv_mlcrf() chooses (lambda_w
# the third of the default path, eta 0.5; lambda_v as cv_mlcrf() chooses it,
# set.seed(1)).  The grid's fold fits: bench/mlcrf_fold_path.R with
# MLCRF_PATH_POINTS=4 MLCRF_PATH_TOL=1e-4 (fold_tol).
if ("7" %in% parts) {
  cpu_of <- function(t) sum(t[c("user.self", "sys.self")])
  edge_set <- function(f) sort(paste(f$edges$from, f$edges$to, sep = "~"))
  cf <- chosen_point_fit(x, y)
  tol <- cf$tol; fold_tol <- 100 * tol; lv <- cf$lv; lw <- cf$lw; fit <- cf$fit; t <- cf$t
  cat(sprintf("fit on all the rows at lambda_w %.4f: %.1f s CPU, %d edges, stage-1 iterations %d, stage-2 %d\n",
              lw[3], cpu_of(t), nrow(fit$edges), fit$convergence$stage1$iter,
              fit$convergence$stage2$iter))
  t <- system.time(pr <- mlss:::mlcrf_ebic_prune(fit, x, y, tol, 2000, 0.5, level = 0.001,
                                                 cand_tol = fold_tol))
  cat(sprintf("pruning (chisq): %.1f s CPU, %d candidates, %d edges kept, least criterion %.3f\n",
              cpu_of(t), nrow(pr$ebic), nrow(pr$fit$edges), min(pr$ebic$criterion)))
  cat("kept:", edge_set(pr$fit), "\n")
  t <- system.time(s1 <- mlss:::mlcrf_strength_path(x, y, lw, 0.5, lv, "full", fold_tol, 2000))
  cat(sprintf("path of strengths (6 points, eta 0.5) at fold_tol: %.1f s CPU; pairs in the graph per point %s; load %s\n",
              cpu_of(t), paste(colSums(s1 > 0), collapse = " "), readLines("/proc/loadavg")))
}
