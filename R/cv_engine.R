# The cross-validation engine every cv_*() function of the package runs on.
#
# A method describes itself to the engine with a list:
#   name     the class of the result is c("cv_<name>", "ml_cv")
#   grid     a data frame of hyperparameters, one row per grid point, in the
#            order they are evaluated (a warm-start path walks it in order)
#   axes     the named vectors the grid crosses (expand.grid order), so that
#            cvm and cvsd come back as an array over them; NULL for a grid
#            given as a data frame (cvm is then a vector)
#   prepare  function(train) -> the state of the fold whose training rows
#            are `train` (its validation rows being the others, in order):
#            e.g. the fold's decomposition, done once
#   score    function(state, g) -> list(scores = the validation rows' n_va x m
#            scores at grid point g, thresholds = the m thresholds from the
#            training scores (thresholds = "train" only), state = the fold's
#            new state or NULL (a warm start for the next grid point))
#   refit    function(point, thresholds) -> the model on all the data at
#            `point` (a one-row data frame of the grid); `thresholds` a list of
#            the m out-of-fold thresholds at that point and their F1
#            (threshold, f1), or NULL to keep the fit's own
#   order    function(grid) -> the grid rows from the most to the least
#            regularised: it breaks ties and gives the one-standard-error point
#   limits   optional: a list by axis of the range c(low, high) its values may
#            take (default c(0, Inf)), for the word on a point at the grid's
#            edge (grid_edge())
#   parallel_score  TRUE when a grid point is costly enough (a refit) to score
#            the folds in parallel; the folds are always prepared in parallel
#            when parallel = TRUE
#   decoder  optional: function(model, rows) -> the logical n_va x m label
#            sets the method's predict(type = "class") gives the validation
#            rows `rows`, for a method whose labels come from a decoder (a
#            chain's greedy walk, a MAP) rather than from cutting its scores.
#            score() then returns its fold model as `model`.  A measure of
#            label sets is computed on these label sets, a ranking measure on
#            the scores; the refit gets no thresholds (thresholds = NULL).
#   probabilities  optional: "label" when the scores are per-label
#            probabilities (binary relevance with logistic loss, ML-kNN's
#            posteriors), "joint" when the method gives the probability of a
#            whole label vector (then `loglik` is needed, and the scores are
#            the per-label marginals); NULL (the default) when the scores are
#            not probabilities: "log_loss" and "brier" are then refused.
#   loglik   for probabilities = "joint": function(model, rows) -> the log
#            probability of each validation row's observed label vector
#   order_rule  a sentence saying what `order` puts first ("larger k first"),
#            which print() repeats
#   fun      the name of the user's function, for messages
#   path_stop  optional: the early stop of warm-start paths (check_path_stop()),
#            a list of `patience`, `margin` and `path`, the path of each grid
#            row (an integer per row; a path's rows are walked in the grid's
#            order).  After each of a path's points is scored on every fold,
#            the path stops when path_stops() says so, and its remaining
#            points are skipped: their row of cvfold (and cvm, cvsd) is NA,
#            `skipped` lists them.  NULL (the default): every point is scored.
#   paths    optional, without path_stop: the chains of a method's warm
#            starts (an integer per grid row, each chain's rows contiguous),
#            where every point depends only on its fold's prepared state and
#            the state its chain's previous point left.  They are walked as
#            paths that restart and never stop, so that with parallel workers
#            (parallel_score, forked) each fold's fit at each point is a piece
#            of cv_schedule_paths(), with the same result as in sequence.
#
# y may hold missing labels (NA): the out-of-fold thresholds and the per-fold
# measures then use the observed entries only (the C code skips NA_LOGICAL);
# whether a method's fit sees them is the method's business.
#
# Evaluation is grid-point-major: every fold is prepared first, then each grid
# point scores all folds, takes its thresholds and measures, and drops the
# scores, so memory holds one n x m score matrix (plus the fold states), not
# one per grid point.

# The switches every cv_*() function shares, checked once.
# Every measure ml_metrics() names is a measure of the engine when it is
# computed from the validation rows alone (all_measures()$cv): those of the C
# table by their code, the variants computed in R (macro_f1_pr,
# ranking_loss_01) by ml_metrics() on each fold (code NA).
cv_options <- function(measure, thresholds, select, keep, parallel, progress, rule = NULL) {
  info <- all_measures()
  ok <- info$name[info$cv]
  if (!is.character(measure) || length(measure) != 1 || is.na(measure))
    stop_arg("'measure' must be one name, one of ", paste(ok, collapse = ", "))
  if (measure %in% info$name && !measure %in% ok)
    stop_arg("'measure' = \"", measure, "\" is reported by ml_metrics() but cannot be ",
             "cross-validated (", info$no_cv[match(measure, info$name)] %||%
               "it is not computed fold by fold", "); use one of ",
             paste(ok, collapse = ", "))
  if (!measure %in% ok)
    stop_arg("unknown measure '", measure, "': 'measure' must be one of ",
             paste(ok, collapse = ", "), " (see measure_names())")
  i <- match(measure, info$name)
  list(measure = measure, code = match(measure, measure_table()$name) - 1L,
       kind = info$needs[i], higher_better = info$higher_better[i],
       thresholds = thresholds, select = select, keep = check_flag(keep, "keep"),
       parallel = check_parallel(parallel), progress = check_flag(progress, "progress"),
       level = chance_level(),  # the chance rule's, for every cut of this run
       rule = rule)  # candidate decision rules (check_rules(), R/threshold_rules.R)
}

# parallel: FALSE, TRUE, or a number of workers.
check_parallel <- function(parallel) {
  if (is.logical(parallel) && length(parallel) == 1 && !is.na(parallel)) return(parallel)
  if (is.numeric(parallel) && length(parallel) == 1 && !is.na(parallel) && parallel >= 1 &&
      parallel == round(parallel))
    return(as.integer(parallel))
  stop_arg("'parallel' must be TRUE, FALSE or a number of workers")
}

cv_engine <- function(method, y, foldid, opt, call) {
  check_measure_fits(method, y, opt)
  # warnings of the fold fits and the refit, collected and said once each
  warnings <- warning_collector()
  cv <- withCallingHandlers(cv_engine_run(method, y, foldid, opt, call),
                            warning = warnings$handler)
  warnings$emit(method$fun %||% paste0("cv_", method$name))
  cv
}

cv_engine_run <- function(method, y, foldid, opt, call) {
  n <- nrow(y)
  m <- ncol(y)
  nfolds <- max(foldid)
  grid <- method$grid
  ngrid <- nrow(grid)
  bar <- if (opt$progress) utils::txtProgressBar(0, nfolds + ngrid + 1, style = 3)
  tick <- function() if (!is.null(bar)) utils::setTxtProgressBar(bar, bar$getVal() + 1)
  on.exit(if (!is.null(bar)) close(bar))

  # what a fold gives besides its scores: the decoder's label sets for a
  # measure of label sets, the log-likelihoods of the observed label vectors
  # for log_loss of a joint model
  decode <- opt$kind == "pred" && !is.null(method$decoder)
  joint_ll <- opt$measure == "log_loss" && identical(method$probabilities, "joint")
  rows <- lapply(seq_len(nfolds), function(k) which(foldid == k))
  fold_score <- function(k, g) {
    fold <- method$score(states[[k]], g)
    if (decode) fold$pred <- method$decoder(fold$model, rows[[k]])
    if (joint_ll) fold$loglik <- method$loglik(fold$model, rows[[k]])
    fold$model <- NULL
    fold
  }

  collect <- garbage_collector(n, m)
  states <- fold_apply(seq_len(nfolds), function(k) {
    state <- method$prepare(which(foldid != k))
    collect()
    state
  }, opt$parallel, tick)
  cvfold <- matrix(NA_real_, ngrid, nfolds,
                   dimnames = list(grid_names(grid), paste0("fold", seq_len(nfolds))))
  final_thr <- final_f1 <- matrix(NA_real_, m, ngrid,
                                 dimnames = list(colnames(y), grid_names(grid)))
  oof <- if (opt$keep) array(0, c(n, m, ngrid), list(NULL, colnames(y), grid_names(grid)))
  score <- matrix(0, n, m, dimnames = list(NULL, colnames(y)))
  pred <- if (decode) matrix(0, n, m)
  loglik <- if (joint_ll) numeric(n)
  threads <- mlss_threads()
  parallel_score <- opt$parallel && isTRUE(method$parallel_score)
  train_thr <- matrix(NA_real_, m, nfolds)
  # the cut of the thresholds: the measure's when it uses one, else F1's
  cut_measure <- if (opt$kind == "pred") opt$measure else "macro_f1"
  res <- NULL
  # decision rules chosen with the grid point (R/threshold_rules.R): one row
  # of measures per grid point and rule, the rule the slower axis
  rules <- check_rules(opt$rule, !is.null(method$decoder))
  # the early stop of paths: the mean (and se) of each point scored so far,
  # over its folds (with rules, of the point's best rule)
  pstop <- method$path_stop
  if (is.null(pstop) && !is.null(method$paths))  # chains that no rule stops
    pstop <- list(path = method$paths, restart = TRUE, patience = .Machine$integer.max,
                  margin = Inf)
  skipped <- logical(ngrid)
  if (!is.null(pstop)) {
    stopped <- logical(max(pstop$path))
    point_cvm <- point_cvsd <- rep(NA_real_, ngrid)
  }
  if (!is.null(rules)) {
    if (opt$kind != "pred")
      stop_arg("'rule' chooses how scores become label sets: it needs a measure of label ",
               "sets (F1, Hamming loss, subset accuracy, ...), not '", opt$measure, "'")
    if (!is.null(method$decoder) && opt$thresholds != "oof" && any(rules$base == "f1"))
      stop_arg("rule \"f1\" for a method with a decoder takes its cuts from the out-of-fold ",
               "scores: use thresholds = \"oof\"")
    if (!is.null(method$decoder)) decode <- TRUE  # the "decoder" rule's label sets
    if (decode && is.null(pred)) pred <- matrix(0, n, m)
    rule_fold <- matrix(NA_real_, ngrid * nrow(rules), nfolds)
    scut_thr <- matrix(NA_real_, m, ngrid)
  }
  # one grid point's scores, thresholds and measures from its folds' results
  # (get_fold(k): fold k's result, in fold order); with the early stop, the
  # point's mean and se.  Writes the run's arrays (cvfold, oof, ...).
  use_point <- function(g, get_fold) {
    for (k in seq_len(nfolds)) {
      fold <- get_fold(k)
      score[rows[[k]], ] <<- fold$scores
      if (decode) pred[rows[[k]], ] <<- fold$pred
      if (joint_ll) loglik[rows[[k]]] <<- fold$loglik
      if (opt$thresholds == "train") train_thr[, k] <<- as.double(fold$thresholds)
      fold <- NULL
      collect()
    }
    if (opt$thresholds == "oof") {
      thr <- point_thresholds(score, y, foldid, nfolds, cut_measure, threads, opt$level)
      final_thr[, g] <<- thr[, nfolds + 1L]
      final_f1[, g] <<- thr[, nfolds + 2L]
      thr <- thr[, seq_len(nfolds), drop = FALSE]
    } else {
      thr <- train_thr
    }
    cvfold[g, ] <<- if (opt$kind == "prob") {
      prob_fold_measures(opt$measure, score, y, foldid, nfolds, loglik, method, grid[g, , drop = FALSE])
    } else if (decode) {
      # the decoder's label sets, cut at 1/2 as 0/1 scores
      point_measures(pred, y, foldid, matrix(0.5, m, nfolds), opt)
    } else {
      point_measures(score, y, foldid, thr, opt)
    }
    if (!is.null(rules)) {
      for (r in seq_len(nrow(rules)))
        rule_fold[g + (r - 1L) * ngrid, ] <<- rule_fold_measures(
          rules[r, ], score, y, foldid, nfolds, thr, if (decode) pred, opt)
      if (any(rules$base == "scut")) scut_thr[, g] <<- hamming_thresholds(score, y)$threshold
    }
    if (opt$keep) oof[, , g] <<- score
    if (!is.null(pstop)) {
      rows_g <- if (is.null(rules)) g else g + (seq_len(nrow(rules)) - 1L) * ngrid
      folds_g <- if (is.null(rules)) cvfold[g, , drop = FALSE] else rule_fold[rows_g, , drop = FALSE]
      at <- point_summary(folds_g, opt$higher_better)
      point_cvm[g] <<- at[1]
      point_cvsd[g] <<- at[2]
    }
    invisible()
  }
  # paths that restart (path_stop$restart): each path's first point starts
  # from the folds' prepared states, not from the previous path's last fits,
  # so that the paths are independent; with parallel workers they are then
  # scheduled piece by piece (cv_schedule_paths()), with the same result
  restart <- !is.null(pstop) && isTRUE(pstop$restart)
  first_on_path <- if (restart) !duplicated(pstop$path)
  states0 <- states
  scheduled <- restart && parallel_score && ngrid > 1 &&
    parallel_backend(opt$parallel) == "multicore"
  if (scheduled) {
    run <- cv_schedule_paths(
      ngrid, nfolds, pstop, opt$higher_better, states0, workers(opt$parallel),
      score_fold = function(state, k, g) {
        fold <- method$score(state, g)
        if (decode) fold$pred <- method$decoder(fold$model, rows[[k]])
        if (joint_ll) fold$loglik <- method$loglik(fold$model, rows[[k]])
        fold$model <- NULL
        fold
      },
      use_point = function(g, res) {
        use_point(g, function(k) res[[k]])
        c(point_cvm[g], point_cvsd[g])
      },
      tick = tick)
    skipped <- run$skipped
    # points scored ahead of a stop are dropped: the arrays as the walk in
    # sequence leaves them
    for (g in which(skipped)) {
      cvfold[g, ] <- NA_real_
      final_thr[, g] <- final_f1[, g] <- NA_real_
      point_cvm[g] <- point_cvsd[g] <- NA_real_
      if (opt$keep) oof[, , g] <- NA
      if (!is.null(rules)) {
        rule_fold[g + (seq_len(nrow(rules)) - 1L) * ngrid, ] <- NA_real_
        scut_thr[, g] <- NA_real_
      }
    }
  }
  for (g in seq_len(ngrid)) {
    if (scheduled) break
    if (!is.null(pstop) && stopped[pstop$path[g]]) {
      skipped[g] <- TRUE
      if (opt$keep) oof[, , g] <- NA
      tick()
      next
    }
    if (restart && first_on_path[g]) states <- states0
    # in sequence, one fold's scores at a time are alive besides `score`
    if (parallel_score)
      res <- fold_apply(seq_len(nfolds), function(k) fold_score(k, g), opt$parallel, NULL)
    use_point(g, function(k) {
      fold <- if (parallel_score) res[[k]] else fold_score(k, g)
      if (!is.null(fold$state)) states[[k]] <<- fold$state
      fold
    })
    res <- NULL
    if (!is.null(pstop)) {
      p <- pstop$path[g]
      stopped[p] <- path_stops(point_cvm, point_cvsd, which(pstop$path[seq_len(g)] == p),
                               which(!skipped[seq_len(g)]),
                               opt$higher_better, pstop$patience, pstop$margin)
    }
    tick()
  }

  # free the folds and the scores for the refit, where memory peaks otherwise:
  # collected now, not whenever R next collects, so that the refit does not sit on
  # top of them (one collection per cross-validation; a full collection
  # costs about 0.2 s, so small problems, which gain nothing, skip it)
  rm(states, score, pred)
  if (as.double(n) * m >= 2^20) gc(FALSE)
  if (!is.null(rules))
    return(cv_engine_rules(method, y, foldid, opt, call, rules, rule_fold, final_thr,
                           final_f1, scut_thr, oof, bar, tick, skipped))
  cvm <- rowMeans(cvfold)
  cvsd <- apply(cvfold, 1, stats::sd) / sqrt(nfolds)
  if (all(is.na(cvm)))
    stop_arg("the measure '", opt$measure, "' is undefined on some fold at every grid ",
             "point (e.g. a ranking measure on folds of one instance): use fewer, larger ",
             "folds or another measure")
  order <- method$order(grid)
  best <- best_grid_point(cvm, order, opt$higher_better)
  best_1se <- one_se_point(cvm, cvsd, best, order, opt$higher_better)
  chosen <- if (opt$select == "1se") best_1se else best
  edge <- grid_edge(grid, method$axes, chosen, method$limits)
  if (length(edge)) message(edge_message(edge))
  # a decoder's labels take no thresholds; the others carry the out-of-fold ones
  oof_thr <- opt$thresholds == "oof" && is.null(method$decoder)
  fit <- method$refit(grid[chosen, , drop = FALSE], if (oof_thr)
    list(threshold = final_thr[, chosen], f1 = final_f1[, chosen]))
  tick()
  ties <- sum(cvm == cvm[best], na.rm = TRUE)
  values <- unlist(lapply(names(grid), function(p)
    stats::setNames(list(grid[[p]][best], grid[[p]][best_1se]), paste0(p, c("_best", "_1se")))),
    recursive = FALSE)
  cv <- structure(c(list(grid = grid, axes = method$axes, cvm = shape_grid(cvm, method$axes),
                 cvsd = shape_grid(cvsd, method$axes), cvfold = cvfold, best = best,
                 best_1se = best_1se, select = opt$select, chosen = chosen, ties = ties,
                 measure = opt$measure, higher_better = opt$higher_better,
                 thresholds = opt$thresholds, foldid = foldid, oof = oof, edge = edge,
                 scored_by = if (decode) "decoder" else if (opt$kind == "prob")
                   "probabilities" else if (opt$kind == "score") "scores" else "thresholds",
                 order_rule = method$order_rule %||% "as the method orders its grid",
                 order = order,
                 oof_thresholds = if (oof_thr) final_thr,
                 oof_f1 = if (oof_thr) final_f1,
                 skipped = if (!is.null(method$path_stop)) which(skipped),
                 path_stop = if (!is.null(method$path_stop)) pstop[c("patience", "margin")],
                 fit = fit, refit = method$refit, call = call), values),
            class = c(paste0("cv_", method$name), "ml_cv"))
  # the pieces (fold fits) finished on the workers, those of them dropped
  # (scored ahead of a stop) and those ended unfinished
  if (scheduled) cv$schedule <- run$pieces
  cv
}

# The mean over folds and its standard error of one grid point: its row of
# measures by fold, or (decision rules) one row per rule, the best taken.
point_summary <- function(folds, higher) {
  m <- rowMeans(folds)
  se <- apply(folds, 1, stats::sd) / sqrt(ncol(folds))
  if (all(is.na(m))) return(c(NA_real_, NA_real_))
  i <- which.max(if (higher) m else -m)
  c(m[i], se[i])
}

# The measure of each fold at one grid point: fold k's rows of `score` cut
# at thr[, k] (a measure of label sets) or ranked (a ranking measure); in C
# for the measures of its table, else by ml_metrics() on the fold's rows.
point_measures <- function(score, y, foldid, thr, opt) {
  if (!is.na(opt$code))
    return(.Call(C_cv_point_measures_call, score, y, foldid, thr, opt$code))
  vapply(seq_len(ncol(thr)), function(k) {
    r <- foldid == k
    s <- score[r, , drop = FALSE]
    yk <- y[r, , drop = FALSE]
    # NaN where the measure is undefined on the fold, as the C table gives it
    value <- suppressWarnings(if (opt$kind == "pred") {
      ml_metrics(yk, pred = s > rep(thr[, k], each = nrow(s)), measures = opt$measure)
    } else {
      ml_metrics(yk, score = s, measures = opt$measure)
    })
    as.double(value[[1]])
  }, 0)
}

# A measure of probabilities ("log_loss", "brier") asks for a method whose
# scores are probabilities; the joint log-likelihood of a vector with missing
# entries is refused (predict(type = "prob") gives whole vectors only).
check_measure_fits <- function(method, y, opt) {
  if (opt$kind != "prob") return(invisible())
  fun <- method$fun %||% paste0("cv_", method$name)
  if (is.null(method$probabilities))
    stop_arg("'measure' = \"", opt$measure, "\" needs probabilities, and the scores of ",
             fun, "() are not probabilities",
             if (!is.null(method$no_prob_hint)) paste0(" (", method$no_prob_hint, ")"),
             ": choose a measure of label sets or of rankings, or a method that gives ",
             "probabilities (cv_br(learner = \"logistic\"), cv_mlknn(), cv_pcc(), cv_mlcrf())")
  if (identical(method$probabilities, "joint") && opt$measure == "log_loss" && anyNA(y))
    stop_arg("'measure' = \"log_loss\" with missing labels needs the probability of each ",
             "row's observed entries (the sum over the completions of its label vector), ",
             "which ", fun, "() does not compute: fill or drop the missing labels, or use ",
             "another measure (e.g. \"brier\", on the observed entries)")
  invisible()
}

# The measure of probabilities on each fold: the mean negative log-likelihood
# of the rows' observed label vectors (joint: given as loglik; per label: the
# product of the observed entries' probabilities), or the Brier score of the
# observed entries.
prob_fold_measures <- function(measure, score, y, foldid, nfolds, loglik, method, point) {
  if (any(score < 0 | score > 1))
    stop_arg("the scores at the grid point ", grid_point_label(point), " are not ",
             "probabilities (some are outside [0, 1]): '", measure, "' needs probabilities")
  vapply(seq_len(nfolds), function(k) {
    r <- foldid == k
    yk <- y[r, , drop = FALSE]
    pk <- score[r, , drop = FALSE]
    if (measure == "brier") return(brier_score(yk, pk))
    ll <- if (identical(method$probabilities, "joint")) loglik[r] else label_loglik(yk, pk)
    keep <- rowSums(!is.na(yk)) > 0
    -mean(ll[keep])
  }, 0)
}

# Warnings of one kind from one call, said once with their count: those of
# class "mlss_not_converged" form one kind (their messages differ by solver
# and iteration count), any other warning is a kind by its message.
warning_collector <- function() {
  seen <- list()
  count <- integer()
  handler <- function(w) {
    key <- if (inherits(w, "mlss_not_converged")) "\001mlss_not_converged" else conditionMessage(w)
    if (is.null(seen[[key]])) {
      seen[[key]] <<- w
      count[key] <<- 0L
    }
    count[key] <<- count[key] + 1L
    invokeRestart("muffleWarning")
  }
  emit <- function(fun) {
    for (key in names(seen)) {
      w <- seen[[key]]
      n <- count[[key]]
      if (inherits(w, "mlss_not_converged") && n > 1) {
        w$message <- paste0(conditionMessage(w), " (", n, " fits in this ", fun,
                            "() did not converge; the first is quoted)")
      } else if (n > 1) {
        w$message <- paste0(conditionMessage(w), " (", n, " times)")
      }
      w$call <- NULL
      warning(w)
    }
  }
  list(handler = handler, emit = emit)
}

# A fold's preparation and each fold's scores leave garbage (copies of the
# fold's rows, the scores once stored, the C code's temporaries) that R
# collects only when its heap fills, so that several folds' garbage piles up
# before it does.  With a large score matrix (n m >= 2^20), a collection of
# the young generation, which holds little else and is cheap, after each of
# them keeps the peak near one fold's; small problems skip it.
garbage_collector <- function(n, m) {
  if (as.double(n) * m < 2^20) return(function() NULL)
  function() invisible(gc(FALSE, full = FALSE))
}

# The best mean over the grid; among equal means the most regularised point.
# A point whose measure is undefined on some fold never wins.
best_grid_point <- function(cvm, order, higher) {
  score <- if (higher) cvm else -cvm
  score[is.na(score)] <- -Inf
  order[which.max(score[order])]
}

# The most regularised point whose mean is within one standard error of the
# best one (cv.glmnet's lambda.1se).
one_se_point <- function(cvm, cvsd, best, order, higher) {
  bound <- if (higher) cvm[best] - cvsd[best] else cvm[best] + cvsd[best]
  ok <- !is.na(cvm) & (if (higher) cvm >= bound else cvm <= bound)
  ok[best] <- TRUE
  order[ok[order]][1]
}

# cvm and cvsd as an array over the crossed hyperparameters, or as a vector
# named by the grid points when the grid has one axis or none (a data frame).
shape_grid <- function(v, axes) {
  if (length(axes) < 2) {
    names(v) <- if (length(axes) == 1) format_grid(axes[[1]])
    return(v)
  }
  array(v, unname(lengths(axes)), dimnames = lapply(axes, format_grid))
}

format_grid <- function(v) vapply(v, format, "", digits = 3)

grid_names <- function(grid) {
  parts <- Map(function(name, v) paste0(name, "=", format_grid(v)), names(grid), grid)
  do.call(paste, c(unname(parts), sep = ","))
}

# A grid of values: a vector of numbers >= 0, sorted, without duplicates.
check_grid <- function(v, arg) {
  if (!is.numeric(v) || !length(v) || anyNA(v) || any(v < 0))
    stop_arg("'", arg, "' must be a vector of numbers >= 0")
  sort(unique(as.numeric(v)))
}

cv_foldid <- function(y, nfolds, foldid) {
  foldid <- if (is.null(foldid)) ml_folds(y, nfolds) else check_foldid(foldid, nrow(y))
  warn_sparse_labels(y, foldid)
  foldid
}

# Labels with fewer positives than it takes to have one in every training part
# (observed positives: a missing label is not one).
warn_sparse_labels <- function(y, foldid) {
  if (anyNA(y)) y[is.na(y)] <- FALSE
  folds_with <- colSums(rowsum(y * 1, foldid) > 0)
  thin <- colnames(y)[folds_with < 2 & colSums(y) > 0]
  if (length(thin))
    warning("label(s) ", paste0("'", thin, "'", collapse = ", "), " have positives in ",
            "only one fold: that fold's training part has none", call. = FALSE)
}

# The number of threads of the package's own C loops (not the BLAS's): the
# option, at most the cores (more cannot help, and libgomp ends the session
# when it cannot create them).  The C side (src/threads.c) caps again and
# runs one thread in a forked worker.
mlss_threads <- function() {
  n <- getOption("mlss.threads", 2L)
  if (!is.numeric(n) || length(n) != 1 || is.na(n) || n < 1)
    stop_arg("option 'mlss.threads' must be a number >= 1")
  cores <- parallel::detectCores()
  if (!is.na(cores) && cores >= 1) n <- min(n, cores)
  as.integer(min(n, .Machine$integer.max))
}

# A forked worker's BLAS: OpenBLAS, when it is R's BLAS, on one thread, as
# the package's own loops there (src/threads.h).  cv_lewl()'s default grid
# on 2000 enron rows with parallel = 2 took 225.5 s elapsed with two
# OpenBLAS threads in each worker, 142-144 s with one (bench/lewl_cv_grid.R).
# Returns OpenBLAS's thread count, NA where another BLAS is R's;
# blas_threads() only reads it.
fork_worker_blas <- function() .Call(C_blas_fork_threads_call, TRUE)
blas_threads <- function() .Call(C_blas_fork_threads_call, FALSE)

# lapply() over the folds, in parallel when asked: through future.apply when
# it is installed and the user has set a future::plan() other than
# sequential, else forked processes of parallel::mclapply() (not on
# Windows, where it runs sequentially with a message).  parallel may be a
# number of workers for mclapply().  tick() is called once per fold.
fold_apply <- function(folds, fun, parallel, tick) {
  if (isFALSE(parallel) || length(folds) < 2) {
    return(lapply(folds, function(k) {
      res <- fun(k)
      if (!is.null(tick)) tick()
      res
    }))
  }
  backend <- parallel_backend(parallel)
  res <- switch(backend,
                future = {
                  # a future worker does not see the session's options: the
                  # chance rule's level of the fits' own thresholds goes along
                  level <- chance_level()
                  future.apply::future_lapply(folds, function(k) {
                    old <- options(mlss.chance_level = level)
                    on.exit(options(old))
                    fun(k)
                  }, future.seed = TRUE)
                },
                multicore = {
                  # mclapply() reseeds its workers from the clock under R's
                  # default RNG: each fold gets a seed drawn here instead, so
                  # that set.seed() reproduces the result whatever the RNG kind
                  # and the number of workers
                  seeds <- sample.int(.Machine$integer.max, length(folds))
                  parallel::mclapply(seq_along(folds), function(t) {
                    fork_worker_blas()
                    set.seed(seeds[t])
                    fun(folds[t])
                  }, mc.cores = workers(parallel), mc.set.seed = FALSE)
                },
                sequential = lapply(folds, fun))
  failed <- vapply(res, inherits, NA, "try-error")
  if (any(failed)) stop(attr(res[[which(failed)[1]]], "condition"))
  if (!is.null(tick)) for (k in folds) tick()
  res
}

workers <- function(parallel) if (is.numeric(parallel)) parallel else getOption("mc.cores", 2L)

parallel_backend <- function(parallel) {
  if (isTRUE(parallel) && requireNamespace("future.apply", quietly = TRUE) &&
      !inherits(future::plan(), "sequential"))
    return("future")
  if (.Platform$OS.type == "windows") {
    message("parallel folds need a future::plan() on Windows (install future.apply); ",
            "running sequentially")
    return("sequential")
  }
  "multicore"
}

# The end of a run with decision rules: the grid crossed with the rules (the
# rule the last axis), the best and 1se points over both (in the method's
# order of the grid, the rules in the order given within a grid point), the
# refit at the chosen point predicting by the chosen rule (rule_fit()), and
# a refit function that does the same at any point of the crossed grid.
cv_engine_rules <- function(method, y, foldid, opt, call, rules, cvfold, final_thr,
                            final_f1, scut_thr, oof, bar, tick, skipped) {
  grid <- method$grid
  ngrid <- nrow(grid)
  nfolds <- max(foldid)
  R <- nrow(rules)
  grid_all <- grid[rep(seq_len(ngrid), R), , drop = FALSE]
  grid_all$rule <- rep(rules$label, each = ngrid)
  rownames(grid_all) <- NULL
  axes <- if (!is.null(method$axes)) c(method$axes, list(rule = rules$label))
  dimnames(cvfold) <- list(grid_names(grid_all), paste0("fold", seq_len(nfolds)))
  cvm <- rowMeans(cvfold)
  cvsd <- apply(cvfold, 1, stats::sd) / sqrt(nfolds)
  if (all(is.na(cvm)))
    stop_arg("the measure '", opt$measure, "' is undefined on some fold at every grid ",
             "point: use fewer, larger folds or another measure")
  order <- as.vector(t(outer(method$order(grid), (seq_len(R) - 1L) * ngrid, `+`)))
  best <- best_grid_point(cvm, order, opt$higher_better)
  best_1se <- one_se_point(cvm, cvsd, best, order, opt$higher_better)
  chosen <- if (opt$select == "1se") best_1se else best
  g_of <- function(i) (i - 1L) %% ngrid + 1L
  edge <- grid_edge(grid, method$axes, g_of(chosen), method$limits)
  if (length(edge)) message(edge_message(edge))
  oof_thr <- opt$thresholds == "oof" && is.null(method$decoder)
  decoder <- !is.null(method$decoder)
  refit_at <- function(point, thr = NULL) {
    key <- do.call(paste, point[names(grid)])
    g <- match(key, do.call(paste, grid))
    rule <- rules[match(point$rule, rules$label), ]
    if (is.na(rule$base)) stop_arg("'rule' must be one of the rules cross-validated")
    if (is.na(g) && rule$base %in% c("scut", "f1") && (decoder || rule$base == "scut"))
      stop_arg("rule \"", rule$base, "\" learns its cuts on the out-of-fold scores, which ",
               "exist at the grid points only")
    fit <- method$refit(point[, names(grid), drop = FALSE], if (!decoder) thr)
    rule_fit(fit, rule, y, if (!is.na(g) && opt$thresholds == "oof") final_thr[, g],
             if (!is.na(g)) scut_thr[, g], decoder)
  }
  gc_ <- g_of(chosen)
  fit <- refit_at(grid_all[chosen, , drop = FALSE], if (oof_thr)
    list(threshold = final_thr[, gc_], f1 = final_f1[, gc_]))
  tick()
  ties <- sum(cvm == cvm[best], na.rm = TRUE)
  values <- unlist(lapply(names(grid_all), function(p)
    stats::setNames(list(grid_all[[p]][best], grid_all[[p]][best_1se]),
                    paste0(p, c("_best", "_1se")))), recursive = FALSE)
  cols <- rep(seq_len(ngrid), R)
  structure(c(list(grid = grid_all, axes = axes, cvm = shape_grid(cvm, axes),
                   cvsd = shape_grid(cvsd, axes), cvfold = cvfold, best = best,
                   best_1se = best_1se, select = opt$select, chosen = chosen, ties = ties,
                   measure = opt$measure, higher_better = opt$higher_better,
                   thresholds = opt$thresholds, foldid = foldid, oof = oof, edge = edge,
                   scored_by = "rules", rules = rules$label,
                   order_rule = paste0(method$order_rule %||% "as the method orders its grid",
                                       "; then the rules in the order given"),
                   order = order,
                   oof_thresholds = if (oof_thr) final_thr[, cols, drop = FALSE],
                   oof_f1 = if (oof_thr) final_f1[, cols, drop = FALSE],
                   skipped = if (!is.null(method$path_stop)) which(rep(skipped, R)),
                   path_stop = if (!is.null(method$path_stop))
                     method$path_stop[c("patience", "margin")],
                   fit = fit, refit = refit_at, call = call), values),
            class = c(paste0("cv_", method$name), "ml_cv"))
}
