# The early stop of a grid's warm-start paths (ml_cv(path_stop = )) and the
# schedule of their pieces over forked workers: how cv_engine_run() walks a
# grid of paths.

# The early stop of paths as a user gives it: NULL or FALSE (every point),
# or a list (or named vector) of `patience`, a whole number >= 1, and
# `margin`, a number >= 0 (Inf: only the patience).  Returned as a list, or
# NULL.
check_path_stop <- function(path_stop, arg = "path_stop") {
  if (is.null(path_stop) || isFALSE(path_stop)) return(NULL)
  ok <- (is.list(path_stop) || is.numeric(path_stop)) && !is.null(names(path_stop)) &&
    all(names(path_stop) %in% c("patience", "margin")) && "patience" %in% names(path_stop)
  p <- if (ok) path_stop[["patience"]]
  mg <- if (ok && "margin" %in% names(path_stop)) path_stop[["margin"]] else Inf
  if (!ok || !is.numeric(p) || length(p) != 1 || is.na(p) || p < 1 || p != round(p) ||
      !is.numeric(mg) || length(mg) != 1 || is.na(mg) || mg < 0)
    stop_arg("'", arg, "' must be NULL (score every grid point) or a list of 'patience', ",
             "a whole number >= 1, and 'margin', a number >= 0 or Inf, e.g. ",
             "list(patience = 2, margin = 3)")
  list(patience = as.integer(p), margin = as.double(mg))
}

# What print() says of the points a path's early stop skipped.
path_stop_message <- function(x) {
  if (!length(x$skipped)) return(NULL)
  paste0(length(x$skipped), " of ", nrow(x$grid), " grid points not scored: their path ",
         "stopped early (path_stop: patience ", x$path_stop$patience, ", margin ",
         format(x$path_stop$margin), " se); see $skipped")
}

# The early stop of a warm-start path.  A path's held-out measure usually
# improves as its penalty falls, reaches its best, then worsens as the fits
# overfit, and the fits at that end cost most (the densest models); a path
# stops once that is seen:
#   * the path's mean measure has not improved for `patience` consecutive
#     points after its best point so far (its first best; a point whose mean
#     is NA never is the best, and counts as not improving once the path has
#     a best), or
#   * it has not improved for one point, and its best so far is worse than
#     the best mean of every point evaluated so far (all paths) by more than
#     `margin` standard errors of that best point (a path far behind another,
#     already rising; margin = Inf: never).
# The mean is over all folds (all folds stop together), so the result does
# not depend on how the folds are run, and the points scored keep their
# values: whenever the best point lies before a path's stop, the best (and
# the chosen) point is the one of the whole grid; the one-standard-error point is
# taken among the points scored.
# cvm, cvsd: the means and se of the grid's points (NA where not scored);
# on_path: the path's points scored so far, in the order walked (the last
# one just scored); done: every point scored so far.  TRUE: stop the path.
path_stops <- function(cvm, cvsd, on_path, done, higher, patience, margin) {
  sgn <- if (higher) 1 else -1
  v <- sgn * cvm[on_path]
  if (all(is.na(v))) return(FALSE)
  v[is.na(v)] <- -Inf
  b <- which.max(v)  # the first of the path's best
  after <- length(on_path) - b
  if (after >= patience) return(TRUE)
  if (after < 1 || !is.finite(margin)) return(FALSE)
  a <- sgn * cvm[done]
  a[is.na(a)] <- -Inf
  top <- done[which.max(a)]
  gap <- sgn * (cvm[top] - cvm[on_path[b]])
  !is.na(cvsd[top]) && gap > margin * cvsd[top]
}

# The early stop replayed on the points scored so far, walking the grid in
# order as the engine does in sequence: `need` is TRUE for a point the walk
# scores, FALSE for one it skips (its path stopped) and NA past the first
# point it needs that is not `complete` yet (its fate depends on that
# point); `finished` when every point is decided.
path_replay <- function(cvm, cvsd, complete, pstop, higher) {
  path <- pstop$path
  ngrid <- length(path)
  stopped <- logical(max(path))
  need <- rep(NA, ngrid)
  scored <- logical(ngrid)
  for (g in seq_len(ngrid)) {
    p <- path[g]
    if (stopped[p]) {
      need[g] <- FALSE
      next
    }
    need[g] <- TRUE
    if (!complete[g]) return(list(need = need, finished = FALSE))
    scored[g] <- TRUE
    stopped[p] <- path_stops(cvm, cvsd, which(path[seq_len(g)] == p), which(scored[seq_len(g)]),
                             higher, pstop$patience, pstop$margin)
  }
  list(need = need, finished = TRUE)
}

# The grid of independent paths (path_stop$restart) on `nworkers` forked
# workers, piece by piece: a piece is one fold's fit at one point, and a
# worker takes the next piece as soon as it is free, so that the five folds
# of a point do not leave a worker idle while the other fits the last one.
# A piece is ready when the fold's previous point on the path is done (its
# warm start).  Pieces are taken in this order: those the walk in sequence
# certainly scores (path_replay()'s `need`, and the first two points of
# every path, which the rule never skips), in the grid's order; then,
# ahead of the decision, the next point of a path that the rule has not
# stopped on what is known (its own points; the margin against the points
# known to be needed), at most one point ahead of its last complete one,
# the least far ahead first.
# Work on points the walk then skips is dropped (their pieces killed if
# still running), so the points scored, their values and the skipped ones
# are those of the walk in sequence.  score_fold(state, k, g): fold k's
# result at point g from its state; use_point(g, results): measures point g
# from its folds' results, returning its mean and se.  Each piece runs
# under its own seed, drawn here.  Returns `skipped` (logical by point).
cv_schedule_paths <- function(ngrid, nfolds, pstop, higher, states0, nworkers, score_fold,
                              use_point, tick) {
  path <- pstop$path
  prev <- pos <- integer(ngrid)  # the point before on the path (0: none), the place on it
  for (p in unique(path)) {
    r <- which(path == p)
    prev[r] <- c(0L, r[-length(r)])
    pos[r] <- seq_along(r)
  }
  followed <- seq_len(ngrid) %in% prev  # a point after it on its path
  status <- matrix(0L, ngrid, nfolds)  # 0 waiting, 1 running, 2 done
  results <- vector("list", ngrid)     # the fold results of a point not complete yet
  after <- vector("list", ngrid)       # after[[g]][[k]]: fold k's state after point g
  cvm <- cvsd <- rep(NA_real_, ngrid)
  complete <- logical(ngrid)
  seeds <- matrix(sample.int(.Machine$integer.max, ngrid * nfolds), ngrid, nfolds)
  jobs <- list()
  what <- list()
  ended <- 0L  # pieces ended unfinished
  cpu <- matrix(0, ngrid, nfolds)  # the CPU seconds of each finished piece
  on.exit(if (length(jobs)) {  # pieces no longer needed (or an error): end them
    for (j in jobs) tools::pskill(j$pid)
    suppressWarnings(parallel::mccollect(jobs, wait = TRUE))
  })
  # a path that the rule stops on what is known: its complete points from
  # its start, the margin against the points the walk is known to score
  known_stop <- function(p, need) {
    on <- which(path == p)
    on <- on[seq_len(match(FALSE, complete[on], nomatch = length(on) + 1L) - 1L)]
    sure <- which(need %in% TRUE & complete)
    for (i in seq_along(on)) {
      done <- sort(unique(c(sure[sure < on[i]], on[seq_len(i)])))
      if (path_stops(cvm, cvsd, on[seq_len(i)], done, higher, pstop$patience, pstop$margin))
        return(TRUE)
    }
    FALSE
  }
  next_piece <- function(need) {
    ready <- status == 0L & (prev == 0L | status[pmax(prev, 1L), , drop = FALSE] == 2L)
    ready[need %in% FALSE, ] <- FALSE
    sure <- need %in% TRUE | (is.na(need) & pos <= 2L)
    pick <- which(ready & sure, arr.ind = TRUE)
    if (!nrow(pick)) {
      # how far ahead of its path's complete points (from the start) a point is
      depth <- pos - vapply(path, function(p) sum(cumprod(complete[path == p])), 0)
      ahead <- vapply(seq_len(ngrid), function(g)
        is.na(need[g]) && any(ready[g, ]) && depth[g] <= 2 && !known_stop(path[g], need), NA)
      pick <- which(ready & ahead, arr.ind = TRUE)
      if (!nrow(pick)) return(NULL)
      # the least far ahead first (the least likely to be dropped)
      pick <- pick[order(depth[pick[, 1]], pos[pick[, 1]], pick[, 1], pick[, 2]), , drop = FALSE]
    } else {
      pick <- pick[order(pick[, 1], pick[, 2]), , drop = FALSE]
    }
    pick[1, ]
  }
  repeat {
    d <- path_replay(cvm, cvsd, complete, pstop, higher)
    if (d$finished) break
    # pieces of points the walk skips: ended
    for (id in names(what)) if (d$need[what[[id]][1]] %in% FALSE) {
      tools::pskill(jobs[[id]]$pid)
      suppressWarnings(parallel::mccollect(jobs[id], wait = TRUE))
      ended <- ended + 1L
      status[what[[id]][1], what[[id]][2]] <- 0L
      jobs[[id]] <- what[[id]] <- NULL
    }
    while (length(jobs) < nworkers && !is.null(gk <- next_piece(d$need))) {
      g <- gk[[1]]
      k <- gk[[2]]
      state <- if (prev[g] == 0L) states0[[k]] else after[[prev[g]]][[k]]
      seed <- seeds[g, k]
      job <- parallel::mcparallel({
        fork_worker_blas()
        set.seed(seed)
        t0 <- proc.time()
        res <- score_fold(state, k, g)
        res$state <- state_changes(res$state, states0[[k]])
        res$cpu <- sum((proc.time() - t0)[c("user.self", "sys.self")])
        res
      }, mc.set.seed = FALSE)
      id <- as.character(job$pid)
      jobs[[id]] <- job
      what[[id]] <- c(g, k)
      status[g, k] <- 1L
    }
    if (!length(jobs)) stop("cv: internal error, no piece of the grid to run", call. = FALSE)
    got <- parallel::mccollect(jobs, wait = FALSE, timeout = 1)
    for (id in names(got)) {
      res <- got[[id]]
      g <- what[[id]][1]
      k <- what[[id]][2]
      jobs[[id]] <- what[[id]] <- NULL
      if (inherits(res, "try-error")) stop(attr(res, "condition"))
      if (is.null(res)) stop("cv: a worker ended without a result (fold ", k, ")", call. = FALSE)
      status[g, k] <- 2L
      cpu[g, k] <- res$cpu
      res$cpu <- NULL
      if (is.null(after[[g]])) after[[g]] <- vector("list", nfolds)
      before <- if (prev[g] == 0L) states0[[k]] else after[[prev[g]]][[k]]
      # a fold's state after g is needed by the next point on g's path only:
      # kept until that point's piece for the fold is done, so that the
      # states of a whole grid of models are not held to the end
      if (followed[g])
        after[[g]][k] <- list(state_restore(res$state, states0[[k]]) %||% before)
      if (prev[g] > 0L) after[[prev[g]]][k] <- list(NULL)
      res$state <- NULL
      if (is.null(results[[g]])) results[[g]] <- vector("list", nfolds)
      results[[g]][k] <- list(res)
      if (all(status[g, ] == 2L)) {
        at <- use_point(g, results[[g]])
        results[g] <- list(NULL)
        cvm[g] <- at[1]
        cvsd[g] <- at[2]
        complete[g] <- TRUE
        tick()
      }
    }
  }
  for (g in which(!d$need)) tick()
  list(skipped = !d$need,
       pieces = c(fitted = sum(status == 2L), dropped = sum(status[!d$need, ] == 2L),
                  ended = ended + length(jobs), cpu = sum(cpu),
                  cpu_dropped = sum(cpu[!d$need, ]), cpu_largest = max(cpu)))
}

# A fold's new state as a piece's worker sends it back: the fields it
# shares with the fold's prepared state (the same objects, as the fork left
# them: the training rows, LEWL's kernel and its eigenvectors, 40 MB at 1600
# rows) are left out and named, and state_restore() takes them from the
# parent's own prepared state, so that no piece serialises the fold's
# preparation back.
state_changes <- function(state, base) {
  nm <- names(state)
  if (!is.list(state) || !is.list(base) || is.null(nm) || anyDuplicated(nm) ||
      any(nm == ""))
    return(state)
  shared <- nm[vapply(nm, function(f) f %in% names(base) &&
                        identical(state[[f]], base[[f]]), NA)]
  if (!length(shared)) return(state)
  structure(list(changed = state[setdiff(nm, shared)], shared = shared, fields = nm),
            class = "mlss_state_changes")
}

state_restore <- function(state, base) {
  if (!inherits(state, "mlss_state_changes")) return(state)
  c(state$changed, base[state$shared])[state$fields]
}
