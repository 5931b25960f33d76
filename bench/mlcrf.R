# Benchmarks of mlcrf(), run from the package directory (make bench).
#
# Part 1: the MLCRF paper's Tables 2-5 (exact match, log-likelihood loss,
#   micro and macro F1; 10-fold CV) on emotions, yeast and scene (the bundled
#   data sets, training and test parts together) for MLCRF, BR, CC, PCC,
#   ML-kNN and IBLR, with the tuning the paper describes where the package has
#   it.  Folds: ml_folds(y, 10) with set.seed(2014); MLCRF_BENCH_RUN_FOLDS
#   runs only the first k of the 10 (for time; the log-likelihood loss stays
#   the sum over a tenth of the data, as the paper's).  Features standardised
#   with each fold's training mean and sd.
#   * MLCRF: cv_mlcrf() with its defaults on the fold's training part
#     (lambda_v by per-label CV, lambda_w and eta by 5-fold CV of the held-out
#     log-likelihood, then the default pruning: prune = "ebic", the extended
#     BIC, since session 38 and before session 34; MLCRF_chisq the
#     ridge-corrected test per edge, the default in sessions 34-37), exact
#     inference (m <= 14).  MLCRF_cv: the same CV without the pruning
#     (prune = "none"), from the same run (the pruning's candidates are
#     refitted from the CV fit, as cv_mlcrf() does, and all are scored, so
#     that the table applies the rule of the package installed when it is
#     made).
#   * BR, CC, PCC: L2 logistic regressions (LIBLINEAR) with the cost of each
#     link chosen by its own 5-fold CV of the validation log loss on the grid
#     10^(-3:1) (for the chains, link l on the features and the true labels
#     1..l-1; the order is the column order, the paper's Y1 < Y2 < ...).  BR
#     predicts labels at p > 1/2 and p(y | x) as the product of its
#     probabilities; CC by the greedy chain with PCC's p(y | x) (the same
#     model); PCC exact MAP and p(y | x) by the chain rule.
#   * ML-kNN, IBLR: k = 10, Euclidean distance (the paper's settings) on the
#     standardised features rescaled to [0, 1] by their training range (the
#     package's default scale = TRUE, as Weka's distance in Mulan); IBLR's
#     cost 1 (the package's default; not tuned); p(y | x) as the product of
#     the per-label posteriors.
#   Each (data set, fold, method group) is saved to
#   MLCRF_BENCH_OUT/<data>_fold<k>_<group>.rds as it ends, and a rerun skips
#   what is saved (see "Part 1 runs" below; several processes may share the
#   work); MLCRF_BENCH_PARTS = "table" collects what is there into
#   inst/papers/mlcrf_tables.csv beside the paper's figures, with MLCRF's
#   paired differences from PCC on the folds where both ran.
# Part 2: time per fit and per prediction, and how it grows with the number
#   of labels m (exact vs approximate inference) and of instances n.
#
# Environment: MLCRF_BENCH_PARTS ("1,table,2"), MLCRF_BENCH_RUN_FOLDS (10),
#   MLCRF_BENCH_DATA ("emotions,scene,yeast"), MLCRF_BENCH_METHODS
#   ("BR,CC,PCC,MLKNN,IBLR,MLCRF"), MLCRF_BENCH_OUT ("bench/mlcrf_folds"),
#   MLCRF_BENCH_ETA (0.5, part 2 only), MLCRF_BENCH_CV_ETA (a comma list:
#   cv_mlcrf()'s eta grid in part 1; empty: its default).
source(file.path("bench", "common.R"))
`%||%` <- function(a, b) if (is.null(a)) b else a

parts <- strsplit(Sys.getenv("MLCRF_BENCH_PARTS", "1,table,2"), ",")[[1]]
nfolds <- 10
run_folds <- as.integer(Sys.getenv("MLCRF_BENCH_RUN_FOLDS", "10"))
eta <- as.numeric(Sys.getenv("MLCRF_BENCH_ETA", "0.5"))
cv_eta <- Sys.getenv("MLCRF_BENCH_CV_ETA", "")
cv_eta <- if (nzchar(cv_eta)) as.numeric(strsplit(cv_eta, ",")[[1]]) else eval(formals(cv_mlcrf)$eta)
sets <- strsplit(Sys.getenv("MLCRF_BENCH_DATA", "emotions,scene,yeast"), ",")[[1]]
methods <- strsplit(Sys.getenv("MLCRF_BENCH_METHODS", "BR,CC,PCC,MLKNN,IBLR,MLCRF"), ",")[[1]]
out_dir <- Sys.getenv("MLCRF_BENCH_OUT", file.path("bench", "mlcrf_folds"))
default_prune <- eval(formals(cv_mlcrf)$prune)[1]  # the installed package's default pruning
cat("mlcrf benchmark;", R.version.string, "; BLAS:", extSoftVersion()[["BLAS"]],
    "; cores:", parallel::detectCores(), "; load:", readLines("/proc/loadavg"), "\n")

# The Mulan data sets as bundled in the package (the same instances as the
# ARFF files in ../shared/data/mulan, train and test parts together).
load_set <- function(name) {
  d <- get(name, asNamespace("mlss"))
  d$x <- as.matrix(d$x)
  d
}

# The paper's Tables 2-5 (Naeini et al. 2014, 10-fold CV; log-likelihood
# loss the sum over a test fold), read from ../shared/papers/mlcrf-sdm2014.txt.
paper <- expand.grid(method = c("MLCRF", "BR", "CC", "PCC", "MLKNN", "IBLR"),
                     data = c("emotions", "yeast", "scene"), stringsAsFactors = FALSE)
paper$exact_match <- c(0.371, 0.265, 0.268, 0.317, 0.283, 0.335,
                       0.225, 0.151, 0.193, 0.230, 0.179, 0.204,
                       0.687, 0.541, 0.632, 0.666, 0.629, 0.644)
paper$log_loss <- c(130.4, 153.5, 169.6, 134.9, 151.7, 143.0,
                    923.9, 1500.3, 2303.8, 932.1, 1464.9, 1434.2,
                    252.4, 344.7, 395.0, 258.9, 310.9, 283.9)
paper$micro_f1 <- c(0.697, 0.645, 0.621, 0.664, 0.656, 0.692,
                    0.629, 0.635, 0.628, 0.645, 0.646, 0.661,
                    0.733, 0.696, 0.697, 0.722, 0.736, 0.758)
paper$macro_f1 <- c(0.695, 0.632, 0.620, 0.659, 0.656, 0.690,
                    0.476, 0.457, 0.467, 0.486, 0.478, 0.498,
                    0.746, 0.703, 0.709, 0.729, 0.743, 0.765)

standardise <- function(xtr, xte) {
  mu <- colMeans(xtr)
  s <- sqrt(colMeans(sweep(xtr, 2, mu)^2))
  s[s == 0] <- 1
  list(tr = sweep(sweep(xtr, 2, mu), 2, s, "/"), te = sweep(sweep(xte, 2, mu), 2, s, "/"))
}

# One fold's measures; log_loss as the paper's: the sum over the test fold.
fold_measures <- function(y, pred, prob) {
  r <- ml_metrics(y, pred = pred, prob = pmax(prob, 1e-300),
                  measures = c("subset_accuracy", "log_loss", "micro_f1", "macro_f1",
                               "macro_f1_pr"))
  c(exact_match = r$subset_accuracy, log_loss = r$log_loss * nrow(y),
    micro_f1 = r$micro_f1, macro_f1 = r$macro_f1, macro_f1_pr = r$macro_f1_pr)
}
joint_of_marginals <- function(p, y) apply(ifelse(y, p, 1 - p), 1, prod)

# The cost of each link by its own 5-fold CV of the validation log loss.
link_costs <- function(x, y, chain, grid = 10^(-3:1), nfolds = 5) {
  set.seed(1)
  foldid <- ml_folds(y, nfolds)
  vapply(seq_len(ncol(y)), function(l) {
    xl <- if (chain && l > 1) cbind(x, y[, seq_len(l - 1), drop = FALSE] + 0) else x
    loss <- vapply(grid, function(cost) sum(vapply(seq_len(nfolds), function(k) {
      tr <- foldid != k
      f <- br(xl[tr, , drop = FALSE], y[tr, l, drop = FALSE], learner = "logistic", cost = cost)
      p <- pmin(pmax(predict(f, xl[!tr, , drop = FALSE], type = "score")[, 1], 1e-12), 1 - 1e-12)
      -sum(ifelse(y[!tr, l], log(p), log(1 - p)))
    }, 0)), 0)
    grid[which.min(loss)]
  }, 0)
}

# The eBIC pick of cv_mlcrf()'s default (prune = "ebic") among the candidates.
mlcrf_pick <- function(pl, edges, n, m, d) {
  crit <- mlss:::mlcrf_ebic(pl, edges, n, m, d, 3, eval(formals(cv_mlcrf)$gamma))
  p <- mlss:::mlcrf_ebic_patience  # where cv_mlcrf()'s elimination stops
  for (j in seq_along(crit))
    if (j > p && all(utils::tail(crit[1:j], p) > min(crit[1:j]))) {
      crit <- crit[1:j]
      break
    }
  max(which(crit == min(crit)))  # as cv_mlcrf(): the sparser on a tie
}

# One method group on one fold ("PCC" gives PCC and CC, "MLCRF" gives MLCRF
# and MLCRF_cv): list(res = named measures, info = named details).
run_method <- function(group, s, ytr, yte, k) {
  res <- list(); info <- list()
  timed <- function(expr) {
    t <- system.time(v <- expr)
    list(value = v, elapsed = t[["elapsed"]], cpu = t[["user.self"]] + t[["sys.self"]])
  }
  if (group == "BR") {
    t <- timed({
      cost <- link_costs(s$tr, ytr, chain = FALSE)
      f <- br(s$tr, ytr, learner = "logistic", cost = cost)
      p <- predict(f, s$te, type = "score")
    })
    res$BR <- fold_measures(yte, p > 0.5, joint_of_marginals(p, yte))
    info$BR <- list(seconds = t$elapsed, cpu = t$cpu, cost = cost)
  }
  if (group == "PCC") {
    t <- timed({
      cost <- link_costs(s$tr, ytr, chain = TRUE)
      f <- pcc(s$tr, ytr, cost = cost)
      prob <- predict(f, s$te, type = "prob", y = yte)
      map <- predict(f, s$te, type = "class")
      g <- f
      class(g) <- c("cc", "chain", class(f)[!class(f) %in% c("pcc", "chain")])
      greedy <- predict(g, s$te, type = "class")
    })
    res$PCC <- fold_measures(yte, map, prob)
    res$CC <- fold_measures(yte, greedy, prob)
    info$PCC <- list(seconds = t$elapsed, cpu = t$cpu, cost = cost)
  }
  if (group == "MLKNN") {
    f <- mlknn(s$tr, ytr, k = 10)
    p <- predict(f, s$te, type = "score")
    res$MLKNN <- fold_measures(yte, predict(f, s$te, type = "class"), joint_of_marginals(p, yte))
  }
  if (group == "IBLR") {
    f <- iblr(s$tr, ytr, k = 10)
    p <- predict(f, s$te, type = "score")
    res$IBLR <- fold_measures(yte, predict(f, s$te, type = "class"), joint_of_marginals(p, yte))
  }
  if (group == "MLCRF") {
    set.seed(k)
    t <- timed(cv <- suppressWarnings(cv_mlcrf(s$tr, ytr, eta = cv_eta, prune = "none",
                                               path = FALSE, progress = FALSE)))
    # the eBIC candidates as cv_mlcrf(prune = "ebic") makes them: from the CV
    # fit, the weakest edge dropped at a time, stopping where cv_mlcrf() stops
    # (mlcrf_ebic_patience candidates past the least criterion)
    K <- if (cv$fit$edge_type == "full") 3 else 1
    crit <- function(pl, kept) mlss:::mlcrf_ebic(pl, lengths(kept), nrow(s$tr), ncol(ytr),
                                                 ncol(s$tr), K, eval(formals(cv_mlcrf)$gamma))
    cands <- NULL
    t2 <- timed(cands <- suppressWarnings(mlss:::mlcrf_ebic_candidates(
      cv$fit, s$tr, ytr, 1e-6, 2000, crit, mlss:::mlcrf_ebic_patience)))
    # every candidate's measures, so that the table applies the eBIC rule of
    # the package as installed when it is made (the pick needs only pl, edges)
    cm <- t(vapply(cands$fits, function(f)
      fold_measures(yte, predict(f, s$te), predict(f, s$te, type = "prob", y = yte)),
      numeric(5)))
    res$MLCRF_cv <- cm[1, ]
    res$MLCRF_ebic <- cm[mlcrf_pick(cands$pl, cands$edges, nrow(s$tr), ncol(ytr), ncol(s$tr)), ]
    # prune = "chisq" (the ridge-corrected test per edge, at the default
    # level), as cv_mlcrf() prunes with it, from the same CV fit
    t3 <- timed(pc <- suppressWarnings(mlss:::mlcrf_ebic_prune(
      cv$fit, s$tr, ytr, 1e-6, 2000, eval(formals(cv_mlcrf)$gamma),
      level = eval(formals(cv_mlcrf)$level))))
    res$MLCRF_chisq <- fold_measures(yte, predict(pc$fit, s$te),
                                     predict(pc$fit, s$te, type = "prob", y = yte))
    res$MLCRF <- if (default_prune == "chisq") res$MLCRF_chisq else
      res$MLCRF_ebic
    info$MLCRF <- list(cv_seconds = t$elapsed + t2$elapsed, cv_cpu = t$cpu + t2$cpu,
                       cv_only_cpu = t$cpu, prune_cpu = t2$cpu, chisq_cpu = t3$cpu,
                       chisq_edges = nrow(pc$fit$edges), chisq_level = eval(formals(cv_mlcrf)$level),
                       chisq_penalty = pc$penalty,
                       eta_grid = cv_eta,
                       candidates = data.frame(lambda_w = cv$fit$lambda_w, eta = cv$fit$eta,
                                               edges = cands$edges, pl = cands$pl, cm),
                       n = nrow(s$tr), m = ncol(ytr), d = ncol(s$tr))
  }
  list(res = res, info = info)
}

# Part 1 runs task by task, a task being (data set, fold, method group), each
# saved to MLCRF_BENCH_OUT/<data>_fold<k>_<group>.rds as it ends; a rerun
# skips the tasks whose file exists, so the run resumes where it stopped.
# Several processes may run at once: each claims a task by creating
# <file>.lock (a directory, created atomically, holding the claimant's pid; a
# lock whose pid is gone is stale and taken over).  Order: every task of a
# data set before the next set (MLCRF_BENCH_DATA's order); within a set, fold
# by fold, PCC and MLCRF first (their paired comparison is the point), then
# the other baselines of the fold.
task_list <- function() {
  groups <- intersect(c("PCC", "MLCRF", "BR", "MLKNN", "IBLR"),
                      c(methods, if ("CC" %in% methods) "PCC"))
  tl <- NULL
  for (name in sets) {
    g <- expand.grid(group = groups, fold = seq_len(run_folds), stringsAsFactors = FALSE)
    tl <- rbind(tl, data.frame(data = name, fold = g$fold, group = g$group))
  }
  tl
}
task_file <- function(name, k, group) file.path(out_dir, sprintf("%s_fold%02d_%s.rds", name, k, group))
claim <- function(file) {
  lock <- paste0(file, ".lock")
  if (!dir.create(lock, showWarnings = FALSE)) {
    pid <- suppressWarnings(as.integer(readLines(file.path(lock, "pid"), warn = FALSE)))
    if (length(pid) == 1 && !is.na(pid) && file.exists(file.path("/proc", pid))) return(FALSE)
    unlink(lock, recursive = TRUE)  # stale
    if (!dir.create(lock, showWarnings = FALSE)) return(FALSE)
  }
  writeLines(as.character(Sys.getpid()), file.path(lock, "pid"))
  TRUE
}

if ("1" %in% parts) {
  dir.create(out_dir, showWarnings = FALSE, recursive = TRUE)
  tl <- task_list()
  cache <- list()
  for (i in seq_len(nrow(tl))) {
    name <- tl$data[i]; k <- tl$fold[i]; group <- tl$group[i]
    file <- task_file(name, k, group)
    if (file.exists(file) || !claim(file)) next
    if (file.exists(file)) {  # finished between the check and the claim
      unlink(paste0(file, ".lock"), recursive = TRUE)
      next
    }
    if (is.null(cache[[name]])) {
      d <- load_set(name)
      set.seed(2014)
      cache[[name]] <- list(d = d, foldid = ml_folds(d$y, nfolds))
    }
    d <- cache[[name]]$d; foldid <- cache[[name]]$foldid
    tr <- foldid != k
    s <- standardise(d$x[tr, ], d$x[!tr, ])
    t0 <- proc.time()
    r <- run_method(group, s, d$y[tr, ], d$y[!tr, ], k)
    t1 <- proc.time() - t0
    r$n_test <- sum(!tr); r$date <- format(Sys.time(), tz = "UTC")
    r$elapsed <- t1[["elapsed"]]; r$cpu <- sum(t1[c(1, 2)])
    r$load <- readLines("/proc/loadavg")
    saveRDS(r, file)
    unlink(paste0(file, ".lock"), recursive = TRUE)
    cat(sprintf("[%s] %s fold %d %s: %.0f s elapsed, %.1f s CPU (load %s)\n",
                format(Sys.time(), "%H:%M:%S", tz = "UTC"), name, k, group,
                t1[["elapsed"]], r$cpu, sub(" .*", "", r$load)))
    print(round(do.call(rbind, r$res), 3))
    if (group == "MLCRF")
      cat(sprintf("  cv_mlcrf(prune = \"none\") %.1f s CPU, eBIC candidates %.1f s CPU; edges %s\n",
                  r$info$MLCRF$cv_only_cpu, r$info$MLCRF$prune_cpu,
                  paste(r$info$MLCRF$candidates$edges, collapse = " ")))
    flush.console()
  }
}

# Part "repick": MLCRF fold files of an earlier run (made before the
# default pruning became prune = "chisq", s34) get MLCRF_chisq, computed
# after the fact: the CV fit is rebuilt from the file (set.seed(<fold>) and
# lambda_v as cv_mlcrf() chooses it first, then mlcrf() at the recorded
# lambda_w and eta; its edge count is checked against the recorded one) and
# pruned by cv_mlcrf()'s default test.  The file is saved back.
if ("repick" %in% parts) {
  fs <- list.files(out_dir, pattern = "_fold[0-9]+_MLCRF[.]rds$", full.names = TRUE)
  for (f in fs) {
    r <- readRDS(f)
    if (!is.null(r$res$MLCRF_chisq)) next
    name <- sub("_fold.*", "", basename(f))
    k <- as.integer(sub(".*_fold([0-9]+)_.*", "\\1", basename(f)))
    if (!name %in% sets) next
    d <- load_set(name)
    set.seed(2014)
    foldid <- ml_folds(d$y, nfolds)
    tr <- foldid != k
    s <- standardise(d$x[tr, ], d$x[!tr, ])
    ytr <- d$y[tr, ]; yte <- d$y[!tr, ]
    i <- r$info$MLCRF
    t <- system.time({
      set.seed(k)
      lv <- suppressWarnings(mlcrf(s$tr, ytr, edges = "none", tol = 1e-6, max_iter = 2000,
                                   progress = FALSE)$lambda_v)
      fit <- suppressWarnings(mlcrf(s$tr, ytr, lambda_v = lv, lambda_w = i$candidates$lambda_w[1],
                                    eta = i$candidates$eta[1], tol = 1e-6, max_iter = 2000))
      pc <- suppressWarnings(mlss:::mlcrf_ebic_prune(
        fit, s$tr, ytr, 1e-6, 2000, eval(formals(cv_mlcrf)$gamma),
        level = eval(formals(cv_mlcrf)$level)))
    })
    if (nrow(fit$edges) != i$candidates$edges[1]) {
      cat(basename(f), ": the rebuilt CV fit has", nrow(fit$edges), "edges, the file",
          i$candidates$edges[1], "; skipped\n")
      next
    }
    r$res$MLCRF_chisq <- fold_measures(yte, predict(pc$fit, s$te),
                                       predict(pc$fit, s$te, type = "prob", y = yte))
    r$info$MLCRF$chisq_edges <- nrow(pc$fit$edges)
    r$info$MLCRF$chisq_level <- eval(formals(cv_mlcrf)$level)
    r$info$MLCRF$chisq_penalty <- pc$penalty
    r$info$MLCRF$chisq_cpu <- t[["user.self"]] + t[["sys.self"]]
    r$info$MLCRF$chisq_repicked <- TRUE
    saveRDS(r, f)
    cat(sprintf("%s: chisq keeps %d of %d edges; exact %.3f, log loss %.2f (%.1f s CPU)\n",
                basename(f), nrow(pc$fit$edges), nrow(fit$edges), r$res$MLCRF_chisq[["exact_match"]],
                r$res$MLCRF_chisq[["log_loss"]], r$info$MLCRF$chisq_cpu))
  }
}

if ("table" %in% parts) {
  files <- list.files(out_dir, pattern = "_fold[0-9]+_[A-Z]+[.]rds$", full.names = TRUE)
  rows <- list()
  for (name in c("emotions", "yeast", "scene")) {
    fs <- grep(paste0("/", name, "_fold"), files, value = TRUE)
    if (!length(fs)) next
    # one list(res, info) per fold, from the fold's method groups' files
    fold_of <- sub(".*_fold([0-9]+)_.*", "\\1", fs)
    rs <- lapply(split(fs, fold_of), function(ff) {
      parts <- lapply(ff, readRDS)
      r <- list(res = do.call(c, lapply(parts, `[[`, "res")),
                info = do.call(c, lapply(parts, `[[`, "info")))
      i <- r$info$MLCRF
      if (!is.null(i)) {  # the pick of the defaults as installed now
        cm <- as.matrix(i$candidates[, names(r$res$MLCRF_cv)])
        k <- mlcrf_pick(i$candidates$pl, i$candidates$edges, i$n, i$m, i$d)
        r$res$MLCRF_ebic <- cm[k, ]
        r$info$MLCRF$lambda_w <- i$candidates$lambda_w[1]
        r$info$MLCRF$eta <- i$candidates$eta[1]
        if (default_prune == "chisq") {
          if (is.null(r$res$MLCRF_chisq) ||
              !identical(i$chisq_level, eval(formals(cv_mlcrf)$level)))
            stop("a fold of ", name, " has no pick of the default prune = \"chisq\" at this ",
                 "level: run MLCRF_BENCH_PARTS=repick first")
          r$res$MLCRF <- r$res$MLCRF_chisq
          r$info$MLCRF$edges <- i$chisq_edges
        } else {
          r$res$MLCRF <- r$res$MLCRF_ebic
          r$info$MLCRF$edges <- i$candidates$edges[k]
        }
      }
      r
    })
    # (the default's own rule is the MLCRF row: not repeated)
    for (method in setdiff(c("MLCRF", "MLCRF_cv", "MLCRF_ebic", "MLCRF_chisq", "BR", "CC", "PCC",
                             "MLKNN", "IBLR"), paste0("MLCRF_", default_prune))) {
      have <- Filter(Negate(is.null), lapply(rs, function(r) r$res[[method]]))
      if (!length(have)) next
      M <- do.call(rbind, have)
      for (measure in colnames(M)) {
        pv <- paper[paper$data == name & paper$method == method, measure]
        note <- switch(method,
          MLCRF = paste0("cv_mlcrf() defaults: lambda_w, eta by held-out log-likelihood (eta grid ",
                         paste(eval(formals(cv_mlcrf)$eta), collapse = ", "), "), then pruning by ",
                         if (default_prune == "chisq")
                           paste0("a ridge-corrected test per edge (prune = \"chisq\", level ",
                                  eval(formals(cv_mlcrf)$level), ")")
                         else paste0("the extended BIC (prune = \"ebic\", gamma ",
                                     eval(formals(cv_mlcrf)$gamma), ")")),
          MLCRF_ebic = "cv_mlcrf(prune = \"ebic\"): pruned by the extended BIC (the default before s34 and since s38)",
          MLCRF_chisq = "cv_mlcrf(prune = \"chisq\"): pruned by a ridge-corrected test per edge (the default in s34-s37)",
          MLCRF_cv = "cv_mlcrf(prune = \"none\"): lambda_w, eta by held-out log-likelihood",
          BR = "logistic, cost per label by 5-fold CV of the log loss",
          CC = "logistic chain (column order), cost per link by 5-fold CV of the log loss",
          PCC = "logistic chain (column order), cost per link by 5-fold CV of the log loss, exact inference",
          MLKNN = "k = 10", IBLR = "k = 10, cost 1 (not tuned)")
        if (measure == "log_loss") note <- paste0(note, "; sum over a test fold (a tenth of the data)")
        if (measure == "macro_f1_pr") note <- paste0(note, "; F1 of macro precision and macro recall")
        rows[[length(rows) + 1]] <- data.frame(
          data = name, method = method, measure = measure, ours = signif(mean(M[, measure]), 4),
          paper = if (length(pv) == 1) pv else NA, folds = nrow(M), note = note)
      }
      if (nrow(M) > 1)  # how much one fold's loss varies
        rows[[length(rows) + 1]] <- data.frame(
          data = name, method = method, measure = "log_loss_sd",
          ours = signif(sd(M[, "log_loss"]), 4), paper = NA, folds = nrow(M),
          note = "standard deviation over the folds of the log-likelihood loss of a test fold")
    }
    # the MLCRF fits chosen: edges, eta (the grid each fold ran: eta_grid, or
    # 0.5, 1 before it was recorded) and the CPU seconds of cv_mlcrf() with
    # its eBIC candidates, per fold
    fits <- Filter(Negate(is.null), lapply(rs, function(r) r$info$MLCRF))
    if (length(fits)) {
      v <- sapply(fits, function(i) c(edges = i$edges, eta = i$eta, cv_cpu_s = i$cv_cpu,
                                      eta_min = i$eta == min(i$eta_grid %||% c(0.5, 1))))
      grids <- unique(vapply(fits, function(i) paste(i$eta_grid %||% c(0.5, 1), collapse = ", "), ""))
      rows[[length(rows) + 1]] <- data.frame(
        data = name, method = "MLCRF",
        measure = c("edges", "eta", "eta_at_min", "eta_grid_min", "cv_cpu_s"),  # (names read by the vignette)
        ours = signif(c(mean(v["edges", ]), mean(v["eta", ]), sum(v["eta_min", ]),
                        min(sapply(fits, function(i) min(i$eta_grid %||% c(0.5, 1)))),
                        mean(v["cv_cpu_s", ])), 4),
        paper = NA, folds = ncol(v),
        note = c("mean over the folds of the edges of the chosen (pruned) graph",
                 paste0("mean over the folds of the chosen eta (cv_mlcrf()'s grid: ",
                        paste(grids, collapse = "; "), ")"),
                 "folds where the chosen eta is the grid's smallest (cv_mlcrf() says the best may lie beyond)",
                 "the smallest eta of the grids run",
                 "mean over the folds of the CPU seconds of cv_mlcrf() and its eBIC candidates (one thread, loaded machine)"))
    }
    # MLCRF against PCC on the same folds (the folds where both ran): the
    # mean of the per-fold differences and its standard error over the folds
    for (method in c("MLCRF", "MLCRF_cv")) {
      both <- Filter(function(r) !is.null(r$res[[method]]) && !is.null(r$res$PCC), rs)
      if (!length(both)) next
      for (measure in c("log_loss", "exact_match")) {
        dv <- vapply(both, function(r) r$res[[method]][[measure]] - r$res$PCC[[measure]], 0)
        pv <- paper[paper$data == name & paper$method == "MLCRF", measure] -
          paper[paper$data == name & paper$method == "PCC", measure]
        what <- if (measure == "log_loss") "log-likelihood loss (sum over a test fold)" else "exact match"
        rows[[length(rows) + 1]] <- data.frame(
          data = name, method = method, measure = paste0(measure, c("_minus_PCC", "_minus_PCC_se")),
          ours = signif(c(mean(dv), if (length(dv) > 1) sd(dv) / sqrt(length(dv)) else NA), 4),
          paper = c(signif(pv, 4), NA), folds = length(dv),
          note = paste0(c("mean over the folds where both ran of ", "standard error over the folds of "),
                        method, "'s ", what, " minus PCC's on the same fold"))
      }
    }
  }
  tab <- do.call(rbind, rows)
  print(tab[, 1:6], row.names = FALSE)
  seeds <- "folds by ml_folds() after set.seed(2014), cv_mlcrf() after set.seed(<fold>), link CV after set.seed(1)"
  dates <- unique(substr(unlist(lapply(files, function(f) readRDS(f)$date)), 1, 10))
  csv <- file.path("inst", "papers", "mlcrf_tables.csv")
  dir.create(dirname(csv), showWarnings = FALSE, recursive = TRUE)
  ran <- vapply(split(tab$folds, paste(tab$data, tab$method)), max, 0)
  ran <- paste(names(ran), ran, collapse = ", ")
  writeLines(sprintf("# made by bench/mlcrf.R on %s, %s (%d cores, shared, loaded), seeds: %s; folds run (of the 10) per data set and method: %s",
                     paste(dates, collapse = ", "), Sys.info()[["nodename"]],
                     parallel::detectCores(), seeds, ran), csv)
  suppressWarnings(utils::write.table(tab, csv, sep = ",", row.names = FALSE, append = TRUE,
                                      qmethod = "double"))
  # the MLCRF fits: edges, penalties, time of cv_mlcrf() per fold
  for (f in files) {
    i <- readRDS(f)$info$MLCRF
    if (is.null(i)) next
    k <- mlcrf_pick(i$candidates$pl, i$candidates$edges, i$n, i$m, i$d)
    cat(sprintf("%s: eBIC candidates' edges %s (the CV fit's first), picked %d; cv_mlcrf %.0f s elapsed, %.0f s CPU\n",
                basename(f), paste(i$candidates$edges, collapse = " "), i$candidates$edges[k],
                i$cv_seconds, i$cv_cpu))
  }
}

if ("2" %in% parts) {
  d <- load_set("yeast")
  set.seed(1)
  cat("\nPart 2a: yeast, the first m labels, n = 1500 training / 500 test instances,",
      "lambda_v = 0.01, default lambda_w, eta =", eta, "\n")
  idx <- sample.int(nrow(d$x), 2000)
  xtr <- d$x[idx[1:1500], ]; xte <- d$x[idx[1501:2000], ]
  tab <- NULL
  for (m in c(4, 6, 8, 10, 12, 14)) {
    ytr <- d$y[idx[1:1500], 1:m]
    fit <- NULL
    tf <- elapsed(fit <- suppressWarnings(mlcrf(xtr, ytr, lambda_v = 0.01, eta = eta)))
    te <- elapsed(pe <- predict(fit, xte, type = "score", inference = "exact"))
    ta <- elapsed(pa <- suppressWarnings(predict(fit, xte, type = "score",
                                                 inference = "approximate")))
    tab <- rbind(tab, data.frame(m = m, edges = nrow(fit$edges), fit_s = tf,
                                 stage1_iter = fit$convergence$stage1$iter,
                                 stage2_iter = fit$convergence$stage2$iter,
                                 exact_ms_per_500 = 1000 * te, approx_ms_per_500 = 1000 * ta,
                                 max_marginal_diff = max(abs(pe - pa))))
  }
  print(format(tab, digits = 3), row.names = FALSE)

  cat("\nPart 2b: inference alone on random potentials (100 instances, each pair",
      "linked with probability 0.3, edge potentials N(0, 0.5^2)): exact vs loopy BP + ICM\n")
  infer <- get("C_crf_infer", asNamespace("mlss"))
  tab <- NULL
  for (m in c(8, 10, 12, 14, 16, 18, 20)) {
    set.seed(m)
    pairs <- which(upper.tri(diag(m)), arr.ind = TRUE)
    pairs <- pairs[order(pairs[, 1]), , drop = FALSE]
    pairs <- pairs[runif(nrow(pairs)) < 0.3, , drop = FALSE]
    n <- 100
    node <- matrix(rnorm(n * m), n)
    pair <- matrix(rnorm(n * 3 * nrow(pairs), sd = 0.5), n)
    te <- elapsed(ex <- .Call(infer, node, pair, pairs[, 1] - 1L, pairs[, 2] - 1L, TRUE,
                              NULL, 0.5, 500L, 1e-8))
    ta <- elapsed(ap <- .Call(infer, node, pair, pairs[, 1] - 1L, pairs[, 2] - 1L, FALSE,
                              NULL, 0.5, 500L, 1e-8))
    tab <- rbind(tab, data.frame(m = m, edges = nrow(pairs), exact_ms = 1000 * te,
                                 approx_ms = 1000 * ta, ratio = te / max(ta, 1e-6),
                                 max_marginal_diff = max(abs(ex$marginal - ap$marginal)),
                                 map_agree = mean(rowSums(ex$map != ap$map) == 0)))
  }
  print(format(tab, digits = 3), row.names = FALSE)

  cat("\nPart 2c: yeast, all 14 labels, fit time against n (lambda_v = 0.01, default",
      "lambda_w, eta =", eta, ")\n")
  tab <- NULL
  for (n in c(300, 600, 1200, 2417)) {
    set.seed(n)
    rows <- sample.int(nrow(d$x), n)
    fit <- NULL
    tf <- elapsed(fit <- suppressWarnings(mlcrf(d$x[rows, ], d$y[rows, ], lambda_v = 0.01,
                                                eta = eta)))
    tab <- rbind(tab, data.frame(n = n, edges = nrow(fit$edges), fit_s = tf,
                                 stage1_iter = fit$convergence$stage1$iter,
                                 stage2_iter = fit$convergence$stage2$iter))
  }
  print(format(tab, digits = 3), row.names = FALSE)
}
