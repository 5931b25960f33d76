# HOMER against a plain-R reading of Tsoumakas, Katakis and Vlahavas (2008):
# balanced k-means of the labels (the same initial centres from R's
# generator), the node models on the rows of their meta-labels, and the
# top-down walk, row by row.

# The paper's balanced k-means, transcribed: distances of every label to
# every centre, labels in order, a too-large cluster gives up its farthest.
bkm_reference <- function(Y, k, iterations) {
  Y <- Y + 0
  L <- ncol(Y)
  cap <- ceiling(L / k)
  centre <- Y[, sample(L, k), drop = FALSE]
  for (it in seq_len(iterations)) {
    d <- matrix(0, L, k)
    for (l in 1:L) for (j in 1:k) d[l, j] <- sqrt(sum((Y[, l] - centre[, j])^2))
    members <- replicate(k, list(label = integer(), dist = numeric()), simplify = FALSE)
    for (l in 1:L) {
      cand <- l
      repeat {
        j <- which.min(d[cand, ])
        lab <- c(members[[j]]$label, cand)
        dis <- c(members[[j]]$dist, d[cand, j])
        o <- order(dis)
        lab <- lab[o]
        dis <- dis[o]
        if (length(lab) <= cap) {
          members[[j]] <- list(label = lab, dist = dis)
          break
        }
        cand <- lab[length(lab)]
        members[[j]] <- list(label = lab[-length(lab)], dist = dis[-length(dis)])
        d[cand, j] <- Inf
      }
    }
    for (j in 1:k) if (length(members[[j]]$label))
      centre[, j] <- rowMeans(Y[, members[[j]]$label, drop = FALSE])
  }
  g <- lapply(members, `[[`, "label")
  g[lengths(g) > 0]
}

# The paper's label tree from bkm_reference(): the children of every inner
# node (more than k labels) on the rows where some of its labels are
# relevant, depth first, named by the node's labels as homer()'s hierarchy.
ref_tree <- function(y, k, iterations) {
  tree <- list()
  node <- function(labels, rows) {
    if (length(labels) <= k) return(NULL)
    ch <- lapply(bkm_reference(y[rows, labels, drop = FALSE], k, iterations),
                 function(g) labels[g])
    tree[[paste(labels, collapse = ",")]] <<- ch
    for (c in ch) {
      rel <- rows[rowSums(y[rows, c, drop = FALSE]) > 0]
      if (length(c) > 1 && length(rel)) node(c, rel)
    }
  }
  node(seq_len(ncol(y)), seq_len(nrow(y)))
  tree
}

homer_problem <- function(seed, n = 80, m = 7) {
  set.seed(seed)
  x <- matrix(rnorm(n * 4), n, 4, dimnames = list(NULL, paste0("f", 1:4)))
  base <- x %*% matrix(rnorm(4 * 3), 4, 3) + matrix(rnorm(n * 3, sd = 0.5), n, 3) > 0
  # labels in noisy groups of the three base labels
  y <- base[, rep(1:3, length.out = m)]
  flip <- matrix(runif(n * m) < 0.1, n, m)
  y <- xor(y, flip)
  colnames(y) <- paste0("l", 1:m)
  list(x = x, y = y, newx = matrix(rnorm(15 * 4), 15, 4, dimnames = list(NULL, colnames(x))))
}

test_that("balanced k-means gives the paper's partition on the same draws", {
  pr <- homer_problem(1)
  for (k in 2:3) {
    set.seed(30 + k)
    got <- mlss:::balanced_kmeans(pr$y, k, 10)
    set.seed(30 + k)
    ref <- bkm_reference(pr$y, k, 10)
    expect_identical(got, lapply(ref, as.integer))
    expect_true(all(lengths(got) <= ceiling(7 / k)))
    expect_setequal(unlist(got), 1:7)
  }
  # labels that are copies of three base labels fall into those groups
  y <- (matrix(runif(80 * 3), 80, 3) < 0.5)[, c(1, 2, 3, 1, 2, 3)]
  set.seed(2)
  g <- mlss:::balanced_kmeans(y[, 1:6], 3, 10)
  expect_setequal(lapply(g, sort), list(c(1L, 4L), c(2L, 5L), c(3L, 6L)))
})

test_that("HOMER's labels are those of the top-down walk with node models on their rows", {
  pr <- homer_problem(2)
  set.seed(9)
  fit <- homer(pr$x, pr$y, k = 2)
  # the root partition: balanced k-means on all rows, the same first draw
  set.seed(9)
  expect_identical(lapply(fit$nodes[[1]]$children, as.integer),
                   lapply(bkm_reference(pr$y, 2, 10), as.integer))
  # each node refitted here from its labels alone, and the walk row by row
  n_new <- nrow(pr$newx)
  pred <- matrix(FALSE, n_new, 7)
  score <- matrix(0, n_new, 7)
  walk <- function(id, i, above) {
    node <- fit$nodes[[id]]
    rows <- which(rowSums(pr$y[, node$labels, drop = FALSE]) > 0)
    if (id == 1) rows <- seq_len(nrow(pr$y))
    Z <- sapply(node$children, function(ch) rowSums(pr$y[rows, ch, drop = FALSE]) > 0)
    f <- suppressWarnings(br(pr$x[rows, ], matrix(Z, length(rows)), learner = "logistic"))
    expect_identical(node$rows, length(rows))
    s <- predict(f, pr$newx[i, , drop = FALSE], type = "score")[1, ]
    for (c in seq_along(node$children)) {
      ch <- node$children[[c]]
      if (length(ch) == 1) {
        pred[i, ch] <<- above && s[c] > 0.5
        score[i, ch] <<- min(sc_above[[length(sc_above)]], s[c])
      } else if (!is.na(node$child_node[c])) {
        sc_above[[length(sc_above) + 1]] <<- min(sc_above[[length(sc_above)]], s[c])
        walk(node$child_node[c], i, above && s[c] > 0.5)
        sc_above[[length(sc_above)]] <<- NULL
      }
    }
  }
  for (i in seq_len(n_new)) {
    sc_above <- list(Inf)
    walk(1L, i, TRUE)
  }
  expect_identical(unname(predict(fit, pr$newx)), pred)
  expect_equal(unname(predict(fit, pr$newx, type = "score")), score, tolerance = 1e-12)
  expect_true(any(pred) && !all(pred))
  expect_gt(length(fit$nodes), 1)
  expect_output(print(fit), "HOMER")
  expect_error(homer(pr$x, pr$y, k = 1), "'k'")
})

test_that("cv_homer cross-validates the cost on the engine", {
  pr <- homer_problem(3, n = 60, m = 4)
  set.seed(1)
  cv <- toolbox_cv(cv_homer, pr, k = 2)
  expect_s3_class(cv, "cv_homer")
  expect_s3_class(cv$fit, "homer")
})

test_that("homer(hierarchy = ) takes a tree instead of clustering", {
  pr <- homer_problem(5, n = 80, m = 7)
  set.seed(1)
  f1 <- homer(pr$x, pr$y, k = 2)
  set.seed(99)
  f2 <- homer(pr$x, pr$y, k = 2, hierarchy = f1$hierarchy)
  expect_identical(lapply(f2$nodes, `[[`, "children"), lapply(f1$nodes, `[[`, "children"))
  expect_identical(predict(f2, pr$x, type = "score"), predict(f1, pr$x, type = "score"))
  # the tree without the models is the draw of a fit on the same rows
  set.seed(4)
  h <- mlss:::homer_hierarchy(pr$y, 2, 10)
  set.seed(4)
  f3 <- homer(pr$x, pr$y, k = 2)
  expect_identical(f3$hierarchy[names(h)], h)
  expect_true(all(lengths(strsplit(setdiff(names(f3$hierarchy), names(h)), ",")) <= 2))
  expect_true(length(h) >= 2)
  expect_error(homer(pr$x, pr$y, k = 2, hierarchy = "a"), "'hierarchy'")
})

test_that("cv_homer clusters each fold's tree on its training rows, the refit's on all", {
  pr <- homer_problem(6, n = 90, m = 7)
  foldid <- rep_len(1:3, 90)
  # the reference: every tree from the one seed cv_homer() draws first, on
  # the rows of that fit; balanced k-means written out below (plain R)
  tree_on <- function(rows, seed) {
    set.seed(seed)
    ref_tree(pr$y[rows, , drop = FALSE], 2, 10)
  }
  set.seed(2)
  seed <- sample.int(.Machine$integer.max, 1L)
  h_all <- tree_on(seq_len(90), seed)
  h_fold <- lapply(1:3, function(k) tree_on(which(foldid != k), seed))
  # the case must tell the two apart: some fold's tree differs from all rows'
  expect_false(all(vapply(h_fold, identical, logical(1), h_all)))
  set.seed(2)
  cv <- suppressMessages(cv_homer(pr$x, pr$y, cost = c(0.1, 1), k = 2, foldid = foldid,
                                  keep = TRUE))
  expect_identical(cv$fit$hierarchy[names(h_all)], h_all)
  inner <- names(cv$fit$hierarchy)[lengths(strsplit(names(cv$fit$hierarchy), ",")) > 2]
  expect_setequal(inner, names(h_all))
  # each fold's scores: a homer() fit on its training rows with its own tree
  for (g in 1:2) for (k in 1:3) {
    tr <- foldid != k
    f <- homer(pr$x[tr, ], pr$y[tr, ], k = 2, cost = cv$grid$cost[g], hierarchy = h_fold[[k]])
    expect_equal(cv$oof[!tr, , g], unname(predict(f, pr$x[!tr, ], type = "score")),
                 tolerance = 1e-10, ignore_attr = TRUE)
  }
  # the session's generator moved by the one draw only
  set.seed(2)
  invisible(sample.int(.Machine$integer.max, 1L))
  after <- runif(1)
  set.seed(2)
  cv2 <- suppressMessages(cv_homer(pr$x, pr$y, cost = 0.1, k = 2, foldid = foldid))
  expect_identical(runif(1), after)
})
