# Is MLCRF's ridge on each edge's (1,1) intercept (mlcrf_lambda0_w = 1e-3,
# R/mlcrf.R) what cross-validation would choose, and does an eta below 0.5
# help?  (issue 25, session 37; results in bench/mlcrf_ridge_cv.md)
#
# The value 1e-3 was picked looking at yeast fold 1's test part and emotions'
# outer folds, the data the tables then score.  Here it is chosen inside each
# outer training part instead: bench/mlcrf.R's outer folds (ml_folds(y, 10)
# after set.seed(2014) over the whole bundled set, features standardised per
# outer training part, its fold_measures(): log-likelihood loss = the sum over
# the test fold), and on each outer training part cv_mlcrf() with its defaults
# (serial; set.seed(<fold>) before each run, so every run sees the same inner
# folds) for each configuration:
#   v in 1e-4, 1e-3, 1e-2, 1e-1 with the default eta grid c(0.5, 1), and
#   v = 1e-3 with eta = c(0.25, 0.5, 1),
# v being set with assignInNamespace() (the package is not changed; the
# constant is read by mlcrf()'s stages and by the pruning's refits).  Each
# run's best cvm (the inner held-out log loss per row), its choice, and its
# own fit's outer test measures (the pruned fit cv_mlcrf() returns, and the
# unpruned fit_cv) are saved per (data, fold, configuration) to
# RIDGECV_OUT/<data>_fold<k>_<config>.rds; a rerun skips what is saved.  Part
# "table" picks v (and eta) by the inner cvm and prints the comparisons.
#
# Run from the package root, the worktree installed:
#   R_LIBS=/tmp/lib_s37-ridgecv nice -n 19 Rscript bench/mlcrf_ridge_cv.R
# Environment: RIDGECV_PARTS ("1,table"), RIDGECV_DATA ("emotions"),
#   RIDGECV_FOLDS ("1:10", an R expression), RIDGECV_CONFIGS (all; a comma
#   list of the names below), RIDGECV_OUT ("bench/mlcrf_ridge_cv").

# bench/mlcrf.R's load_set(), standardise() and fold_measures(), read from it
# (none of its parts run)
Sys.setenv(MLCRF_BENCH_PARTS = "none")
b <- new.env()
sys.source(file.path("bench", "mlcrf.R"), envir = b)
options(mlss.threads = 1L)  # one core: the machine is shared (CPU seconds are compared)

parts <- strsplit(Sys.getenv("RIDGECV_PARTS", "1,table"), ",")[[1]]
sets <- strsplit(Sys.getenv("RIDGECV_DATA", "emotions"), ",")[[1]]
folds <- eval(parse(text = Sys.getenv("RIDGECV_FOLDS", "1:10")))
out_dir <- Sys.getenv("RIDGECV_OUT", file.path("bench", "mlcrf_ridge_cv"))
configs <- list(list(v = 1e-4, eta = c(0.5, 1)), list(v = 1e-3, eta = c(0.5, 1)),
                list(v = 1e-2, eta = c(0.5, 1)), list(v = 1e-1, eta = c(0.5, 1)),
                list(v = 1e-3, eta = c(0.25, 0.5, 1)), list(v = 1e-3, eta = c(0.1, 0.25, 0.5, 1)))
names(configs) <- c("v1e-4", "v1e-3", "v1e-2", "v1e-1", "v1e-3_eta025", "v1e-3_eta010")
core <- names(configs)[1:5]  # the table's folds are those where these ran
run_configs <- Sys.getenv("RIDGECV_CONFIGS", "")
run_configs <- if (nzchar(run_configs)) strsplit(run_configs, ",")[[1]] else core
default_v <- mlss:::mlcrf_lambda0_w
stopifnot(default_v == 1e-3)

set_ridge <- function(v) {
  assignInNamespace("mlcrf_lambda0_w", v, ns = "mlss")
  stopifnot(identical(mlss:::mlcrf_lambda0_w, v))
}

# The constant takes effect: a small fit's (1,1) intercepts (the first row,
# last column of each edge's weights) move with it.
check_ridge_takes_effect <- function() {
  d <- b$load_set("emotions")
  x <- scale(d$x[1:300, ]); y <- d$y[1:300, ]
  i11 <- function(v) {
    set_ridge(v)
    f <- suppressWarnings(mlcrf(x, y, lambda_v = 0.01, lambda_w = 0.05, eta = 0.5))
    vapply(f$weights, function(w) w[1, ncol(w)], 0)
  }
  a <- i11(1e-4); z <- i11(1e-1)
  set_ridge(default_v)
  cat(sprintf("check: largest |(1,1) intercept| at v = 1e-4: %.3f, at v = 1e-1: %.3f\n",
              max(abs(a)), max(abs(z))))
  stopifnot(max(abs(a)) > 5 * max(abs(z)))
}

# One configuration on one outer fold: cv_mlcrf() on the training part, its
# choice, and its fits' outer test measures.
run_config <- function(cfg, s, ytr, yte, k) {
  set_ridge(cfg$v)
  on.exit(set_ridge(default_v))
  warns <- character()
  set.seed(k)
  t0 <- proc.time()
  cv <- withCallingHandlers(cv_mlcrf(s$tr, ytr, eta = cfg$eta, progress = FALSE),
                            warning = function(w) {
                              warns <<- c(warns, conditionMessage(w))
                              invokeRestart("muffleWarning")
                            },
                            message = function(w) {  # the grid-edge note
                              warns <<- c(warns, trimws(conditionMessage(w)))
                              invokeRestart("muffleMessage")
                            })
  t1 <- proc.time() - t0
  score <- function(f) b$fold_measures(yte, predict(f, s$te),
                                       predict(f, s$te, type = "prob", y = yte))
  list(v = cfg$v, eta_grid = cfg$eta, cvm = cv$cvm[cv$best], cvsd = cv$cvsd[cv$best],
       lambda_w = cv$lambda_w_best, eta = cv$eta_best,
       edges_cv = nrow(cv$fit_cv$edges), edges = nrow(cv$fit$edges),
       test = score(cv$fit), test_cv = score(cv$fit_cv),
       grid = data.frame(cv$grid, cvm = as.vector(cv$cvm), cvsd = as.vector(cv$cvsd)),
       warnings = unique(warns), cpu = sum(t1[c(1, 2, 4, 5)], na.rm = TRUE),
       elapsed = t1[["elapsed"]], load = readLines("/proc/loadavg"),
       date = format(Sys.time(), tz = "UTC"))
}

task_file <- function(name, k, cfg) file.path(out_dir, sprintf("%s_fold%02d_%s.rds", name, k, cfg))

if ("1" %in% parts) {
  check_ridge_takes_effect()
  dir.create(out_dir, showWarnings = FALSE, recursive = TRUE)
  for (name in sets) {
    d <- b$load_set(name)
    set.seed(2014)
    foldid <- ml_folds(d$y, 10)
    for (k in folds) for (cn in run_configs) {
      file <- task_file(name, k, cn)
      if (file.exists(file)) next
      tr <- foldid != k
      s <- b$standardise(d$x[tr, ], d$x[!tr, ])
      r <- run_config(configs[[cn]], s, d$y[tr, ], d$y[!tr, ], k)
      saveRDS(r, file)
      cat(sprintf("[%s] %s fold %d %s: cvm %.4f at lambda_w %.4g eta %g; edges %d -> %d; test loss %.2f (unpruned %.2f), exact %.3f; %.1f CPU s (load %s)%s\n",
                  format(Sys.time(), "%H:%M:%S", tz = "UTC"), name, k, cn, r$cvm, r$lambda_w,
                  r$eta, r$edges_cv, r$edges, r$test[["log_loss"]], r$test_cv[["log_loss"]],
                  r$test[["exact_match"]], r$cpu, sub(" .*", "", r$load),
                  if (length(r$warnings)) paste0("; said: ", paste(r$warnings, collapse = " | ")) else ""))
      flush.console()
    }
  }
}

# Part "table": per data set, over the outer folds where the five core
# configurations ran, the inner pick and the outer measures (the eta grid
# c(0.1, 0.25, 0.5, 1), run after the others, on the folds where it ran).
if ("table" %in% parts) {
  mean_se <- function(z) sprintf("%.3f (se %.3f)", mean(z), sd(z) / sqrt(length(z)))
  ridge <- c("v1e-4", "v1e-3", "v1e-2", "v1e-1")
  for (name in sets) {
    ks <- Filter(function(k) all(file.exists(task_file(name, k, core))), 1:10)
    if (!length(ks)) next
    R <- lapply(ks, function(k) {
      cns <- names(configs)[file.exists(task_file(name, k, names(configs)))]
      setNames(lapply(cns, function(cn) readRDS(task_file(name, k, cn))), cns)
    })
    cat(sprintf("\n== %s: %d outer folds (%s)\n", name, length(ks), paste(ks, collapse = " ")))
    per_fold <- do.call(rbind, lapply(seq_along(ks), function(i) do.call(rbind, lapply(names(R[[i]]), function(cn) {
      r <- R[[i]][[cn]]
      data.frame(fold = ks[i], config = cn, cvm = round(r$cvm, 4), cvsd = round(r$cvsd, 4),
                 lambda_w = signif(r$lambda_w, 3), eta = r$eta, edges_cv = r$edges_cv,
                 edges = r$edges, test_loss = round(r$test[["log_loss"]], 2),
                 unpruned = round(r$test_cv[["log_loss"]], 2),
                 exact = round(r$test[["exact_match"]], 3), cpu = round(r$cpu, 1),
                 load1 = sub(" .*", "", r$load))
    }))))
    print(per_fold, row.names = FALSE)
    # the pick of v (default eta grid) by the inner cvm; the joint pick of
    # (v, eta grid) over the five core runs; the best v in hindsight (by the
    # outer test loss: not a method, the spread the choice can make)
    m <- function(i, cn, what = "log_loss", which = "test") R[[i]][[cn]][[which]][[what]]
    pick <- function(i, cns) cns[which.min(vapply(cns, function(cn) R[[i]][[cn]]$cvm, 0))]
    picked_v <- vapply(seq_along(ks), pick, "", cns = ridge)
    picked_all <- vapply(seq_along(ks), pick, "", cns = core)
    oracle <- vapply(seq_along(ks), function(i) ridge[which.min(vapply(ridge, function(cn) m(i, cn), 0))], "")
    cat("\ninner pick of v (eta grid 0.5, 1):", picked_v, "\n")
    print(table(factor(picked_v, ridge)))
    cat("joint pick over the five core runs:", picked_all, "\n")
    cat("best v by the outer test loss (hindsight):", oracle, "\n")
    for (which in c("test", "test_cv")) for (what in c("log_loss", "exact_match")) {
      v_of <- function(cns) vapply(seq_along(ks), function(i) m(i, cns[i], what, which), 0)
      fixed <- v_of(rep("v1e-3", length(ks)))
      cat(sprintf("\n%s, %s fit: fixed 1e-3 mean %s\n", what,
                  if (which == "test") "pruned (cv$fit)" else "unpruned (cv$fit_cv)", mean_se(fixed)))
      cat(sprintf("  %-28s mean %s, minus fixed 1e-3 %s\n",
                  c("CV-chosen v (eta 0.5, 1)", "joint pick (5 runs)", "best v in hindsight"),
                  c(mean_se(v_of(picked_v)), mean_se(v_of(picked_all)), mean_se(v_of(oracle))),
                  c(mean_se(v_of(picked_v) - fixed), mean_se(v_of(picked_all) - fixed),
                    mean_se(v_of(oracle) - fixed))), sep = "")
      for (cn in names(configs)) {
        have <- vapply(R, function(r) !is.null(r[[cn]]), NA)
        if (!any(have)) next
        z <- v_of(rep(cn, length(ks))[have])
        cat(sprintf("  %-28s mean %s, minus fixed 1e-3 %s (%d folds)\n", cn, mean_se(z),
                    mean_se(z - fixed[have]), sum(have)))
      }
    }
    # against bench/mlcrf.R's PCC on the same outer folds (its stored fold
    # files, where present)
    pcc <- file.path("bench", "mlcrf_folds", sprintf("%s_fold%02d_PCC.rds", name, ks))
    if (all(file.exists(pcc))) {
      P <- lapply(pcc, function(f) readRDS(f)$res$PCC)
      for (what in c("log_loss", "exact_match")) {
        pv <- vapply(P, function(r) r[[what]], 0)
        cat(sprintf("\n%s minus bench/mlcrf.R's PCC (mean %s) on the same folds:\n", what, mean_se(pv)))
        for (cn in c(core, "v1e-3_eta010")) {
          have <- vapply(R, function(r) !is.null(r[[cn]]), NA)
          if (any(have))
            cat(sprintf("  %-13s %s (%d folds)\n", cn,
                        mean_se(vapply(R[have], function(r) r[[cn]]$test[[what]], 0) - pv[have]), sum(have)))
        }
      }
    }
    ran <- Filter(function(cn) all(vapply(R, function(r) !is.null(r[[cn]]), NA)), names(configs))
    cvm <- sapply(ran, function(cn) vapply(seq_along(ks), function(i) R[[i]][[cn]]$cvm, 0))
    cat("\ninner best cvm (log loss per row), mean over the folds, and minus v1e-3's:\n")
    print(round(rbind(mean = colMeans(cvm), minus_1e3 = colMeans(cvm - cvm[, "v1e-3"])), 4))
    for (cn in c("v1e-3_eta025", "v1e-3_eta010")) {
      have <- vapply(R, function(r) !is.null(r[[cn]]), NA)
      if (any(have))
        cat("eta chosen by", cn, "(folds", ks[have], "):",
            vapply(R[have], function(r) r[[cn]]$eta, 0), "\n")
    }
    cat("CPU s per cv_mlcrf() run, mean per configuration:\n")
    cpu <- lapply(names(configs), function(cn) unlist(lapply(R, function(r) r[[cn]]$cpu)))
    print(round(vapply(Filter(length, setNames(cpu, names(configs))), mean, 0), 1))
  }
}
