# Binary relevance in mlss against scikit-learn's LIBLINEAR (LinearSVC,
# LogisticRegression(solver = "liblinear")) on the same splits, at the same
# costs and solver tolerances, with the same thresholds.
#
# Data: yeast and scene (their Mulan train/test splits) and the Yahoo arts and
# health collections with the papers' protocol (1000 training pages, the rest
# for testing; bench/common.R).  The splits are exported from R (Matrix Market
# files) and python3 runs in the same script through system2().
#
# Both sides fit the same models: the L2-regularised SVM (squared hinge and
# hinge) or logistic regression, one per label, with the bias as a penalised
# feature of value 1 (sklearn's intercept_scaling = 1), at LIBLINEAR's
# default tolerances (0.1 for the SVM, 0.01 for logistic regression) and at
# scikit-learn's (1e-4); at most 1000 iterations on both sides.  Time is
# fit-only: mlss's solver call for all labels (mlss:::br_fit, which includes
# turning the data into rows once) against the sum of sklearn's fit() calls
# per label; the median of `reps` runs each.  Scores on both sides are turned
# into labels the same way, in R: per-label F1-maximising thresholds on the
# training scores (f1_thresholds), applied to the test scores.  Macro F1 is
# on the test part.
#
# Run: make bench, or R_LIBS=lib Rscript bench/baselines.R (needs python3
# with scikit-learn: apt-get install python3-sklearn).  The machine is shared:
# read the time ratios, not the absolute times.
source(file.path("bench", "common.R"))

python <- Sys.getenv("MLSS_PYTHON", if (file.exists("/usr/bin/python3")) "/usr/bin/python3" else "python3")
reps <- as.integer(Sys.getenv("MLSS_BENCH_REPS", "3"))
costs <- as.numeric(strsplit(Sys.getenv("MLSS_BENCH_COSTS", "0.1,1"), ",")[[1]])
which_data <- strsplit(Sys.getenv("MLSS_BENCH_DATA", "yeast,scene,arts,health"), ",")[[1]]
# Solver tolerances: LIBLINEAR's defaults (-e 0.1 for the dual SVM, 0.01 for
# logistic regression) and scikit-learn's (tol = 1e-4 for both).
tolerances <- list(liblinear = c(svm = 0.1, logistic = 0.01), sklearn = c(svm = 1e-4, logistic = 1e-4))
which_tol <- strsplit(Sys.getenv("MLSS_BENCH_TOLS", "liblinear,sklearn"), ",")[[1]]

learners <- list(
  svm_l2 = list(learner = "svm", loss = "squared_hinge"),
  svm_l1 = list(learner = "svm", loss = "hinge"),
  logistic = list(learner = "logistic", loss = "squared_hinge"))

py_script <- '
import sys, time, json
import numpy as np
import scipy.io, scipy.sparse
from sklearn.svm import LinearSVC
from sklearn.linear_model import LogisticRegression
import warnings
warnings.filterwarnings("ignore")
d = sys.argv[1]
cfg = json.load(open(d + "/config.json"))
def load(name):
    X = scipy.io.mmread(d + "/" + name + ".mtx").tocsr()
    if cfg["dense"]:
        X = np.ascontiguousarray(X.toarray())
    return X
Xtr, Xte = load("xtrain"), load("xtest")
Y = np.loadtxt(d + "/ytrain.csv", delimiter=",", ndmin=2).astype(int)
out = []
for job in cfg["jobs"]:
    best = None
    for rep in range(cfg["reps"]):
        total = 0.0
        Str = np.zeros((Xtr.shape[0], Y.shape[1]))
        Ste = np.zeros((Xte.shape[0], Y.shape[1]))
        for l in range(Y.shape[1]):
            if job["learner"] == "svm":
                m = LinearSVC(C=job["cost"], loss=job["loss"], tol=job["tol"], dual=True,
                              fit_intercept=True, intercept_scaling=1, max_iter=1000,
                              random_state=rep)
            else:
                m = LogisticRegression(C=job["cost"], solver="liblinear", tol=job["tol"],
                                       fit_intercept=True, intercept_scaling=1, max_iter=1000)
            t0 = time.perf_counter()
            m.fit(Xtr, Y[:, l])
            total += time.perf_counter() - t0
            if job["learner"] == "svm":
                Str[:, l], Ste[:, l] = m.decision_function(Xtr), m.decision_function(Xte)
            else:
                Str[:, l], Ste[:, l] = m.predict_proba(Xtr)[:, 1], m.predict_proba(Xte)[:, 1]
        best = total if best is None else min(best, total)
        times = job.setdefault("times", [])
        times.append(total)
    np.savetxt(d + "/" + job["id"] + "_train.csv", Str, delimiter=",")
    np.savetxt(d + "/" + job["id"] + "_test.csv", Ste, delimiter=",")
    out.append({"id": job["id"], "time": float(np.median(job["times"]))})
json.dump(out, open(d + "/times.json", "w"))
'

macro_f1 <- function(train_score, test_score, ytrain, ytest) {
  th <- f1_thresholds(train_score, ytrain)$threshold
  pred <- test_score > rep(th, each = nrow(test_score))
  ml_metrics(ytest, pred = pred, measures = "macro_f1")$macro_f1
}

data_cache <- new.env()
load_data <- function(name) {
  if (is.null(data_cache[[name]])) data_cache[[name]] <- read_data(name)
  data_cache[[name]]
}
read_data <- function(name) {
  if (name %in% c("yeast", "scene")) {
    e <- new.env()
    utils::data(list = name, package = "mlss", envir = e)
    return(e[[name]])
  }
  load_yahoo(name)
}

bench_one <- function(name) {
  d <- load_data(name)
  tr <- d$train
  x <- d$x
  dense <- !inherits(x, "sparseMatrix")
  xtr <- x[tr, , drop = FALSE]
  xte <- x[!tr, , drop = FALSE]
  ytr <- d$y[tr, , drop = FALSE]
  yte <- d$y[!tr, , drop = FALSE]
  keep <- colSums(ytr) > 0 & colSums(!ytr) > 0   # labels both sides can fit
  ytr <- ytr[, keep, drop = FALSE]
  yte <- yte[, keep, drop = FALSE]
  dir <- tempfile("mlss-bench-")
  dir.create(dir)
  on.exit(unlink(dir, recursive = TRUE))
  Matrix::writeMM(methods::as(xtr, "CsparseMatrix"), file.path(dir, "xtrain.mtx"))
  Matrix::writeMM(methods::as(xte, "CsparseMatrix"), file.path(dir, "xtest.mtx"))
  utils::write.table(ytr * 1L, file.path(dir, "ytrain.csv"), sep = ",", row.names = FALSE,
                     col.names = FALSE)
  jobs <- list()
  for (tn in which_tol) for (ln in names(learners)) for (C in costs)
    jobs[[length(jobs) + 1]] <- c(list(id = sprintf("%s_%s_%g", tn, ln, C), cost = C,
                                       tol = tolerances[[tn]][[learners[[ln]]$learner]],
                                       tol_name = tn, learner_name = ln), learners[[ln]])
  writeLines(jsonlite_like(list(dense = dense, reps = reps, jobs = jobs)),
             file.path(dir, "config.json"))
  script <- file.path(dir, "run.py")
  writeLines(py_script, script)
  status <- system2(python, c(script, dir))
  if (status != 0) stop("python3 failed")
  py_times <- read_times(file.path(dir, "times.json"))
  rows <- list()
  for (job in jobs) {
    t_r <- elapsed(fit <- mlss:::br_fit(xtr, ytr, job$learner, rep(job$cost, ncol(ytr)),
                                        job$loss, TRUE, job$tol, 1000L), reps)
    s_tr <- mlss:::linear_scores(xtr, fit$W, fit$intercept, fit$link)
    s_te <- mlss:::linear_scores(xte, fit$W, fit$intercept, fit$link)
    f_r <- macro_f1(s_tr, s_te, ytr, yte)
    p_tr <- as.matrix(utils::read.csv(file.path(dir, paste0(job$id, "_train.csv")), header = FALSE))
    p_te <- as.matrix(utils::read.csv(file.path(dir, paste0(job$id, "_test.csv")), header = FALSE))
    f_p <- macro_f1(p_tr, p_te, ytr, yte)
    t_p <- py_times[[job$id]]
    rows[[length(rows) + 1]] <- data.frame(
      data = name, n_train = sum(tr), d = ncol(x), m = ncol(ytr), learner = job$learner_name,
      tol = job$tol_name, cost = job$cost, f1_mlss = round(f_r, 4), f1_sklearn = round(f_p, 4),
      f1_diff = round(f_r - f_p, 4), fit_mlss_s = round(t_r, 3), fit_sklearn_s = round(t_p, 3),
      time_ratio = round(t_r / t_p, 2), not_converged = sum(fit$status == 1L))
    print(rows[[length(rows)]], row.names = FALSE)
  }
  do.call(rbind, rows)
}

# The cost path as cv_br(warm_start = TRUE) walks it, through the public API:
# br() at every cost of a grid in increasing order, each fit warm-started from
# the previous one (init = the previous fit: its weights and, for the SVM, its
# dual variables scaled by the ratio of the costs), then predict(type =
# "score") on the test part; against cold br() fits at each cost.  Both sides
# include what br() does besides the solver (checks, training thresholds), so
# the ratio is that of a user's warm path to cold fits, at LIBLINEAR's
# tolerances.  (It replaced an internal path function, mlss:::br_path_scores(),
# removed in issue 22: br(init = ) does the same warm start.)
path_timing <- function(name, grid = 10^seq(-2, 2, by = 0.5)) {
  d <- load_data(name)
  tr <- d$train
  ytr <- d$y[tr, , drop = FALSE]
  ytr <- ytr[, colSums(ytr) > 0 & colSums(!ytr) > 0, drop = FALSE]
  xtr <- d$x[tr, , drop = FALSE]
  xte <- d$x[!tr, , drop = FALSE]
  out <- list()
  for (ln in c("svm_l2", "logistic")) {
    a <- learners[[ln]]
    tol <- tolerances$liblinear[[a$learner]]
    unconverged <- 0L
    fit_at <- function(C, init) withCallingHandlers(
      br(xtr, ytr, learner = a$learner, loss = a$loss, cost = C, tol = tol, init = init),
      mlss_not_converged = function(w) {
        unconverged <<- unconverged + 1L
        invokeRestart("muffleWarning")
      })
    t_warm <- elapsed({
      fit <- NULL
      for (C in sort(grid)) {
        fit <- fit_at(C, fit)
        predict(fit, xte, type = "score")
      }
    }, reps)
    t_cold <- elapsed(for (C in grid) predict(fit_at(C, NULL), xte, type = "score"), reps)
    out[[ln]] <- data.frame(data = name, learner = ln, grid = length(grid),
                            warm_path_s = round(t_warm, 3), cold_fits_s = round(t_cold, 3),
                            warm_over_cold = round(t_warm / t_cold, 2),
                            not_converged_warnings = unconverged)
  }
  do.call(rbind, out)
}

# Minimal JSON writer/reader for the config and the times (no jsonlite needed).
jsonlite_like <- function(v) {
  if (is.list(v)) {
    if (!is.null(names(v)))
      return(paste0("{", paste0('"', names(v), '": ', vapply(v, jsonlite_like, ""), collapse = ", "), "}"))
    return(paste0("[", paste(vapply(v, jsonlite_like, ""), collapse = ", "), "]"))
  }
  if (is.logical(v)) return(if (v) "true" else "false")
  if (is.character(v)) return(paste0('"', v, '"'))
  format(v, digits = 15)
}
read_times <- function(file) {
  txt <- paste(readLines(file, warn = FALSE), collapse = "")
  ids <- regmatches(txt, gregexpr('"id": "[^"]*"', txt))[[1]]
  ids <- sub('"id": "([^"]*)"', "\\1", ids)
  tm <- as.numeric(sub('"time": ', "", regmatches(txt, gregexpr('"time": [0-9.eE+-]+', txt))[[1]]))
  stats::setNames(as.list(tm), ids)
}

cat("Binary relevance: mlss against scikit-learn (LIBLINEAR), same splits, costs, tolerances\n")
cat("python:", python, "; reps:", reps, "; loaded machine (2 cores shared): compare ratios\n\n")
res <- do.call(rbind, lapply(which_data, bench_one))
cat("\nSummary (time_ratio = mlss fit time / sklearn fit time; f1_diff = mlss - sklearn)\n")
print(res, row.names = FALSE)
for (tn in unique(res$tol)) {
  r <- res[res$tol == tn, ]
  cat("tolerances", tn, ": largest |f1_diff|", max(abs(r$f1_diff)), "; time ratio median",
      stats::median(r$time_ratio), ", worst", max(r$time_ratio), "\n")
}
cat("\nThe cost path (grid 10^(-2, -1.5, ..., 2)) with warm starts against cold fits\n")
print(do.call(rbind, lapply(which_data, path_timing)), row.names = FALSE)
