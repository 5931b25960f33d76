# The early stop of warm-start paths in the cross-validation engine
# (path_stops() in R/cv_paths.R, cv_mlcrf(path_stop =)), against a plain-R
# reading of the rule as ?cv_mlcrf states it: a path stops once its mean
# held-out measure has not improved for `patience` points after its best so
# far, or for one point when its best is more than `margin` standard errors
# worse than the best point scored so far on any path; its later points are
# not scored.

# The rule, read from its words: walk the grid in order; a point of a path
# that has stopped is skipped; else it is scored, and the path's state is
# looked at with the means and standard errors (over all folds) of the
# points scored so far.  Returns the grid rows skipped.
ref_skipped <- function(tab, path, higher, patience, margin) {
  G <- nrow(tab)
  scored <- logical(G)
  stopped <- integer()
  means <- rowMeans(tab)
  ses <- apply(tab, 1, sd) / sqrt(ncol(tab))
  better <- function(a, b) if (higher) a > b else a < b
  first_best <- function(idx) {
    best <- NA
    for (i in idx)
      if (!is.na(means[i]) && (is.na(best) || better(means[i], means[best]))) best <- i
    best
  }
  for (g in seq_len(G)) {
    if (path[g] %in% stopped) next
    scored[g] <- TRUE
    mine <- which(scored & path == path[g])
    best <- first_best(mine)
    if (is.na(best)) next
    since <- sum(mine > best)   # points of the path scored after its best
    top <- first_best(which(scored))
    far <- abs(means[best] - means[top]) > margin * ses[top]
    if (since >= patience || (since >= 1 && far)) stopped <- c(stopped, path[g])
  }
  which(!scored)
}

# A method whose fold measures are given: tab[g, k] is fold k's measure at
# grid point g.  "log_loss": per-label probabilities q of the observed value
# (lower is better, each fold's measure -m log q); "subset_accuracy": a
# decoder that gets the first rows of the fold wrong (higher is better,
# tab in steps of 1 / fold size).  calls$n counts the fold scorings.
# With `prev` (the point before each point on its path, 0 for a path's
# first), the fold's state carries its last point, and a fold whose warm
# start is not its previous point on the path (or, at a path's first point,
# the prepared state) measures 100 worse; `delay`: each scoring sleeps up to
# that many seconds (pieces on workers then finish in a shuffled order), or,
# a grid points x folds matrix, that many seconds.
given_method <- function(tab, y, foldid, measure, path_stop, calls, prev = NULL, delay = 0) {
  m <- ncol(y)
  grid <- data.frame(point = seq_len(nrow(tab)))
  list(name = "given", grid = grid, axes = NULL, fun = "test", parallel_score = TRUE,
       probabilities = if (measure == "log_loss") "label",
       prepare = function(train) list(k = setdiff(unique(foldid), unique(foldid[train]))),
       score = function(state, g) {
         calls$n <- calls$n + 1L
         if (is.matrix(delay)) Sys.sleep(delay[g, state$k]) else
           if (delay > 0) Sys.sleep(stats::runif(1, 0, delay))
         rows <- which(foldid == state$k)
         off <- if (!is.null(prev) && !identical(state$last %||% 0L, prev[g])) 100 else 0
         q <- exp(-(tab[g, state$k] + off) / m)
         s <- if (measure == "log_loss") ifelse(y[rows, ], q, 1 - q) else
           matrix(0.5, length(rows), m)
         list(scores = s, model = list(acc = tab[g, state$k] - off / 100),
              state = if (!is.null(prev)) list(k = state$k, last = g))
       },
       decoder = if (measure != "log_loss") function(model, rows) {
         p <- y[rows, , drop = FALSE]
         bad <- seq_len(round((1 - model$acc) * length(rows)))
         p[bad, 1] <- !p[bad, 1]
         p
       },
       refit = function(point, thr) list(point = point),
       order = function(grid) seq_len(nrow(grid)),
       path_stop = path_stop)
}

run_given <- function(tab, path, measure, path_stop, y, foldid, parallel = FALSE, prev = NULL,
                      delay = 0) {
  calls <- new.env()
  calls$n <- 0L
  if (!is.null(path_stop)) path_stop$path <- path
  method <- given_method(tab, y, foldid, measure, path_stop, calls, prev, delay)
  opt <- cv_options(measure, "oof", "best", FALSE, parallel, FALSE)
  cv <- suppressWarnings(cv_engine(method, y, foldid, opt, quote(test())))
  list(cv = cv, calls = calls$n)
}

given_data <- function(seed) {
  set.seed(seed)
  y <- matrix(runif(100 * 3) < 0.4, 100, 3, dimnames = list(NULL, c("a", "b", "c")))
  list(y = y, foldid = rep(1:5, length.out = 100))
}

# fold measures along paths that fall, turn and rise, with fold noise
given_table <- function(npath, len, higher, seed) {
  set.seed(seed)
  tab <- NULL
  for (p in seq_len(npath)) {
    turn <- sample(2:len, 1)
    curve <- 3 + 0.4 * abs(seq_len(len) - turn) + runif(1, 0, 1.5) * (p > 1) +
      rnorm(len, sd = 0.15)
    tab <- rbind(tab, outer(curve, rnorm(5, sd = 0.3), `+`))
  }
  if (higher) tab <- round(20 * pmin(pmax(1 - tab / 8, 0), 1)) / 20  # accuracies
  tab
}

test_that("the points scored and skipped are those the rule names, the scores unchanged", {
  d <- given_data(1)
  n_skip <- 0
  for (case in 1:24) {
    higher <- case %% 2 == 0
    measure <- if (higher) "subset_accuracy" else "log_loss"
    npath <- 1 + case %% 3
    tab <- given_table(npath, 6, higher, seed = 100 + case)
    path <- rep(seq_len(npath), each = 6)
    rule <- list(patience = 1 + case %% 3, margin = c(3, Inf, 0.5)[1 + (case %/% 3) %% 3])
    full <- run_given(tab, path, measure, NULL, d$y, d$foldid)
    # the table is what the engine measures (the full grid, no stop)
    expect_equal(unname(full$cv$cvfold), unname(tab), tolerance = 1e-10)
    expect_null(full$cv$skipped)
    want <- ref_skipped(full$cv$cvfold, path, higher, rule$patience, rule$margin)
    got <- run_given(tab, path, measure, rule, d$y, d$foldid)
    cv <- got$cv
    expect_identical(cv$skipped, want)
    expect_identical(got$calls, 5L * (nrow(tab) - length(want)))
    scored <- setdiff(seq_len(nrow(tab)), want)
    expect_equal(cv$cvfold[scored, ], full$cv$cvfold[scored, ])
    expect_true(all(is.na(cv$cvfold[want, ])))
    expect_true(all(is.na(as.vector(cv$cvm)[want])))
    expect_equal(cv$path_stop, rule[c("patience", "margin")])
    # the best point is the whole grid's whenever that lies before the stops
    if (!full$cv$best %in% want) expect_identical(cv$best, full$cv$best)
    n_skip <- n_skip + length(want)
  }
  expect_gt(n_skip, 30)  # the cases do stop paths (40 of 264 points)
})

test_that("a path is not stopped before `patience` points without improvement", {
  d <- given_data(2)
  # one path, lower is better: a dip at point 3, one rise, then the best at 5;
  # with patience 2 the path goes on past the rise and finds point 5, while
  # stopping after one point without improvement would miss it
  curve <- c(5, 4, 3, 3.4, 2.5, 2.9, 3.3, 3.6)
  tab <- outer(curve, c(-0.1, 0, 0.05, 0.1, -0.05), `+`)
  path <- rep(1L, 8)
  full <- run_given(tab, path, "log_loss", NULL, d$y, d$foldid)
  got <- run_given(tab, path, "log_loss", list(patience = 2, margin = Inf), d$y, d$foldid)
  expect_identical(full$cv$best, 5L)
  expect_identical(got$cv$best, 5L)
  expect_identical(got$cv$skipped, 8L)  # 6 and 7 worse than 5: stop after 7
  # the same for a measure where larger is better
  acc <- round(20 * (1 - tab / 8)) / 20
  got <- run_given(acc, path, "subset_accuracy", list(patience = 2, margin = Inf), d$y,
                   d$foldid)
  expect_identical(got$cv$best, 5L)
  expect_identical(got$cv$skipped, 8L)
  # and patience 1 does stop at the rise (the rule as stated, not the truth)
  got <- run_given(tab, path, "log_loss", list(patience = 1, margin = Inf), d$y, d$foldid)
  expect_identical(got$cv$skipped, 5:8)
})

test_that("the mean over folds decides, not one fold", {
  d <- given_data(3)
  # fold 1 rises from point 2 on while the mean keeps falling to point 5
  tab <- cbind(c(5, 3, 4, 5, 6, 7), matrix(c(5, 4, 3, 2, 1, 2), 6, 4))
  got <- run_given(tab, rep(1L, 6), "log_loss", list(patience = 2, margin = Inf), d$y,
                   d$foldid)
  expect_identical(got$cv$best, 5L)
  expect_identical(got$cv$skipped, integer())
  expect_identical(ref_skipped(got$cv$cvfold, rep(1L, 6), FALSE, 2, Inf), integer())
})

test_that("a path far behind the best so far stops at its first rise (margin)", {
  d <- given_data(4)
  # path 1 reaches 2; path 2 falls to 4 (far behind), rises once, then would
  # reach 1.5 at its end: with margin 3 it stops at the rise, with margin = Inf
  # it goes on (two points of patience) and finds the better point
  p1 <- c(5, 3, 2, 2.5, 3, 3.5)
  p2 <- c(5, 4, 4.3, 1.5, 1.6, 1.7)
  tab <- outer(c(p1, p2), c(-0.1, 0, 0.05, 0.1, -0.05), `+`)
  path <- rep(1:2, each = 6)
  far <- run_given(tab, path, "log_loss", list(patience = 2, margin = 3), d$y, d$foldid)
  expect_identical(far$cv$skipped, c(6L, 10:12))
  expect_identical(far$cv$best, 3L)
  inf <- run_given(tab, path, "log_loss", list(patience = 2, margin = Inf), d$y, d$foldid)
  expect_identical(inf$cv$skipped, 6L)
  expect_identical(inf$cv$best, 10L)
})

test_that("print(), as.data.frame(), summary() and plot() show the skipped points", {
  d <- given_data(5)
  tab <- outer(c(5, 3, 2, 2.5, 3, 3.5, 5, 4, 4.5, 5, 6, 7), c(-0.1, 0, 0.05, 0.1, -0.05), `+`)
  got <- run_given(tab, rep(1:2, each = 6), "log_loss", list(patience = 2, margin = 3),
                   d$y, d$foldid)
  cv <- got$cv
  expect_identical(cv$skipped, c(6L, 10:12))
  expect_output(print(cv), "4 of 12 grid points not scored")
  df <- as.data.frame(cv)
  expect_true(all(is.na(df$mean[cv$skipped])))
  expect_false(anyNA(df$mean[-cv$skipped]))
  expect_output(print(summary(cv)), "ten best")
  pdf(NULL)
  on.exit(dev.off())
  expect_silent(plot(cv))
  expect_error(check_path_stop(list(patience = 0)), "patience")
  expect_error(check_path_stop(list(margin = 1)), "path_stop")
  expect_error(check_path_stop(c(patience = 2, margin = -1)), "margin")
  expect_identical(check_path_stop(c(patience = 2)), list(patience = 2L, margin = Inf))
  expect_null(check_path_stop(FALSE))
})

test_that("cv_mlcrf() stops its paths by default as the rule says, the chosen point kept", {
  # a small problem where both eta paths turn: the default path_stop against
  # the whole grid (path_stop = NULL), the same folds
  x <- mlss::emotions$x[1:200, 1:12]
  y <- mlss::emotions$y[1:200, 1:4]
  run <- function(...) {
    set.seed(3)
    suppressMessages(cv_mlcrf(x, y, lambda_v = 0.05, nlambda = 6, nfolds = 3,
                              progress = FALSE, path = FALSE, prune = "none", ...))
  }
  full <- run(path_stop = NULL)
  st <- run()
  expect_null(full$skipped)
  path <- rep(1:2, each = 6)  # eta 0.5, then eta 1, lambda_w decreasing
  want <- ref_skipped(full$cvfold, path, FALSE, 2, 3)
  expect_identical(st$skipped, want)
  expect_gte(length(want), 3L)
  scored <- setdiff(1:12, want)
  expect_equal(st$cvfold[scored, ], full$cvfold[scored, ], tolerance = 1e-12)
  expect_false(full$chosen %in% want)
  expect_identical(st$chosen, full$chosen)
  expect_identical(st$best_1se, full$best_1se)
  expect_equal(st$fit$theta, full$fit$theta)
  expect_output(print(st), paste(length(want), "of 12 grid points not scored"))
  expect_error(cv_mlcrf(x, y, path_stop = list(patience = 1.5)), "'path_stop'")
})

test_that("independent paths on two workers, piece by piece, score what the walk in sequence does", {
  # path_stop$restart: each path starts from the prepared fold states; with
  # parallel = 2 the engine runs (fold, point) pieces as workers free up,
  # ahead of the rule's decision, and drops what the rule skips.  Reference:
  # ref_skipped() on the whole grid, and the run in sequence (the fold
  # measures are the table's only when every warm start is the fold's
  # previous point on the same path)
  skip_on_os("windows")
  d <- given_data(2)
  for (case in c(2, 5, 7, 9, 10, 13, 15, 22)) {
    higher <- case %% 2 == 0
    measure <- if (higher) "subset_accuracy" else "log_loss"
    npath <- 1 + case %% 3
    tab <- given_table(npath, 6, higher, seed = 100 + case)
    path <- rep(seq_len(npath), each = 6)
    prev <- ifelse(seq_along(path) %% 6 == 1, 0L, seq_along(path) - 1L)
    rule <- list(patience = 1 + case %% 3, margin = c(3, Inf, 0.5)[1 + (case %/% 3) %% 3],
                 restart = TRUE)
    full <- run_given(tab, path, measure, NULL, d$y, d$foldid)
    want <- ref_skipped(full$cv$cvfold, path, higher, rule$patience, rule$margin)
    one <- run_given(tab, path, measure, rule, d$y, d$foldid, prev = prev)$cv
    two <- run_given(tab, path, measure, rule, d$y, d$foldid, parallel = 2L, prev = prev,
                     delay = 0.01)$cv
    expect_identical(one$skipped, want)
    expect_identical(two$skipped, want)
    scored <- setdiff(seq_len(nrow(tab)), want)
    expect_equal(unname(one$cvfold[scored, ]), unname(tab[scored, ]), tolerance = 1e-10)
    for (part in c("cvfold", "cvm", "cvsd", "best", "best_1se", "chosen", "oof_thresholds"))
      expect_identical(two[[part]], one[[part]], info = paste(case, part))
  }
})

test_that("points scored ahead of the rule and then skipped are dropped", {
  # path 1 high until its best at its end, its last fold slow; path 2 fast,
  # best at its second point, rising after: in sequence the margin stops
  # path 2 after its third point (its best 3.9 behind path 1's), but while
  # path 1 is still high, path 2 runs ahead (to its fifth point, where the
  # patience stops it) on the worker left free by path 1's slow fold; those
  # points are dropped
  skip_on_os("windows")
  d <- given_data(3)
  set.seed(4)
  tab <- outer(c(6, 5.9, 5.8, 5.7, 5.6, 1, 5, 4.9, 5.1, 5.2, 5.3, 5.4), rnorm(5, sd = 0.2), `+`)
  path <- rep(1:2, each = 6)
  prev <- ifelse(seq_along(path) %% 6 == 1, 0L, seq_along(path) - 1L)
  rule <- list(patience = 3, margin = 0.5, restart = TRUE)
  want <- ref_skipped(tab, path, FALSE, 3, 0.5)
  expect_identical(want, 10:12)
  one <- run_given(tab, path, "log_loss", rule, d$y, d$foldid, prev = prev)$cv
  two <- run_given(tab, path, "log_loss", rule, d$y, d$foldid, parallel = 2L, prev = prev,
                   delay = cbind(matrix(0.02, 12, 4), rep(c(1.2, 0), each = 6)))$cv
  # ran ahead, then dropped: a matter of timing, which an instrumented build
  # (ASan, a fork several times slower) can upset; the results below are not
  if (!grepl("asan", Sys.getenv("LD_PRELOAD")))
    expect_gt(two$schedule[["dropped"]], 0)
  expect_identical(two$skipped, want)
  for (part in c("cvfold", "cvm", "cvsd", "best", "chosen", "oof_thresholds"))
    expect_identical(two[[part]], one[[part]], info = part)
})

test_that("cv_mlcrf() gives the same result in sequence and on two workers", {
  # the grid's pieces, the pruning and the path of strengths on workers
  skip_on_os("windows")
  x <- mlss::emotions$x[1:200, 1:12]
  y <- mlss::emotions$y[1:200, 1:4]
  run <- function(parallel) {
    set.seed(3)
    foldid <- rep(1:3, length.out = 200)
    suppressMessages(cv_mlcrf(x, y, lambda_v = 0.05, nlambda = 6, foldid = foldid,
                              progress = FALSE, parallel = parallel, level = 0.05))
  }
  one <- run(FALSE)
  two <- run(2L)
  expect_gte(length(one$skipped), 3L)
  expect_gte(nrow(one$fit_cv$edges), 2L)
  for (part in c("cvfold", "cvm", "cvsd", "skipped", "best", "best_1se", "chosen", "ebic",
                 "path"))
    expect_identical(two[[part]], one[[part]], info = part)
  expect_identical(two$fit$edges, one$fit$edges)
  expect_identical(two$fit$theta, one$fit$theta)
  expect_identical(two$fit_cv$theta, one$fit_cv$theta)
})

# What a piece's worker sends back of a fold's state: the fields it shares
# with the fold's prepared state (the same objects) are named, not sent,
# and put back from the parent's prepared state (session 42).
test_that("state_changes() leaves out the prepared state's own fields, state_restore() puts them back", {
  base <- list(train = 1:10, prep = list(K = diag(3)))
  state <- base
  state$Z <- matrix(1, 3, 2)
  ch <- mlss:::state_changes(state, base)
  expect_s3_class(ch, "mlss_state_changes")
  expect_identical(ch$shared, c("train", "prep"))
  expect_identical(names(ch$changed), "Z")
  expect_identical(mlss:::state_restore(ch, base), state)
  # a changed field is sent; nothing shared, no list or no names: as it is
  state$train <- 2:11
  expect_identical(mlss:::state_changes(state, base)$shared, "prep")
  expect_identical(mlss:::state_restore(mlss:::state_changes(state, base), base), state)
  expect_identical(mlss:::state_changes(list(Z = 1), base), list(Z = 1))
  expect_null(mlss:::state_changes(NULL, base))
  expect_identical(mlss:::state_restore(list(a = 1), base), list(a = 1))
  expect_identical(mlss:::state_changes(list(1, 2), base), list(1, 2))
})
