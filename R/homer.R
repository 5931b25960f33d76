#' Hierarchy of multi-label classifiers (HOMER)
#'
#' HOMER (Tsoumakas, Katakis and Vlahavas 2008) splits the labels into `k`
#' groups by balanced k-means, each group into `k` again, down to single
#' labels, and fits at every inner node of this tree a multi-label model of
#' its children's meta-labels (a child's meta-label is relevant when one of
#' its labels is), on the training rows relevant to the node (the root: all
#' rows; a child: the rows where its meta-label is relevant).  A new row goes
#' down the tree into every child its node predicts, and gets the labels of
#' the leaves it reaches.
#'
#' @section Balanced k-means:
#' A node with more than `k` labels clusters its labels, each label being
#' the column of its 0/1 values on the node's training rows, into `k` groups
#' of at most \eqn{\lceil L / k \rceil}{ceiling(L / k)} labels, as in the
#' paper's algorithm: the centres start at `k` labels drawn by
#' `sample.int(L, k)` (R's generator: `set.seed()` reproduces a fit); each of
#' `iterations` rounds empties the groups and takes the labels in order: a
#' label joins the group of the nearest centre (Euclidean; the first among
#' equal), the group is sorted by distance to its centre (ties in the order
#' of joining), and when the group is then too large its farthest label
#' leaves it, that group is closed to that label, and it looks for the
#' nearest of the groups still open to it in the same way.  Each centre then
#' becomes the mean of its group's labels (a group left empty keeps its
#' centre, and is dropped at the end).  A node with at most `k` labels has
#' one child per label.
#'
#' @section Node models, scores and classes:
#' Each inner node is a binary relevance model ([br()], `learner` and
#' `cost`) of its children's meta-labels.  A row goes into a child where the
#' node's score is above the learner's natural cut (1/2 on the probabilities
#' of `"logistic"`, 0 on the decision values of `"ridge"` and `"svm"`).
#' `predict(type = "score")` gives each label the smallest of the scores on
#' its path from the root, so that `type = "class"` (this score above the
#' natural cut, the fit's `cut`) is exactly the labels the top-down walk
#' reaches; thresholds given to `predict()` or stored by [cv_homer()]
#' replace the cut.  A child whose meta-label has no relevant training row
#' has no model below it: its labels get score 0 (logistic) or `-Inf`.
#'
#' @param x,y As in [br()] (an [mlss_data()] or `mldr` object as `x`: its
#'   training rows, `y` left out; for the formula method, a formula
#'   `cbind(l1, l2) ~ .`); `y` without `NA`.
#' @param data,subset,na.action For the formula method, as in [lm()].
#' @param k The number of children of a node (a whole number >= 2; the
#'   paper's default 3).
#' @param iterations The rounds of balanced k-means (default 10).
#' @param learner,cost The node models, as in [br()]: `"logistic"`
#'   (default), `"ridge"` or `"svm"`, and the cost (one number; 1 by default).
#'   The logistic and SVM learners penalise their intercept, so a
#'   constant added to a column of `x` changes their fits (see [br()]); the
#'   ridge learner's do not.
#' @param hierarchy `NULL` (the default: balanced k-means at every node), or
#'   the label tree of an earlier fit, `fit$hierarchy` (a list, named by the
#'   labels of each inner node, of its children), taken instead of clustering
#'   at every node it names.  [cv_homer()] gives each fold the tree
#'   clustered on the fold's training rows, and the refit the one on all
#'   rows, all from one seed.
#' @param ... Passed to [br()] (`tol`, `max_iter`, `loss`, `intercept`); for
#'   the formula method, the arguments of the default method.
#' @return An object of class `c("homer", "ml_fit")`, predicted by
#'   [predict.ml_fit()]: `nodes` (a list of the inner nodes, the root first:
#'   `labels`, the label indices below it, `children`, a list of label index
#'   vectors, `rows`, its number of training rows, `model`, its [br()] fit,
#'   and `child_node`, the index in `nodes` of each child's node or `NA`),
#'   `hierarchy` (the children of every inner node, by its labels), `k`,
#'   `iterations`, `learner`, `cut`, `labels`, `features`, `nobs`, `call`,
#'   and the fields of the contract.
#' @references Tsoumakas G., Katakis I. and Vlahavas I. (2008). Effective and
#'   efficient multilabel classification in domains with large number of
#'   labels. Proceedings of the ECML/PKDD 2008 Workshop on Mining
#'   Multidimensional Data (MMD'08), 30-44.
#' @seealso [cv_homer()], [br()], [rakel()].
#' @aliases print.homer predict.homer
#' @examples
#' d <- mlss::yeast
#' set.seed(1)
#' fit <- homer(d, k = 3)
#' fit
#' head(predict(fit, d))
#' @export
homer <- function(x, ...) UseMethod("homer")

#' @rdname homer
#' @export
homer.default <- function(x, y, k = 3, iterations = 10,
                          learner = c("logistic", "ridge", "svm"), cost = 1,
                          hierarchy = NULL, ...) {
  call <- match.call()
  call[[1L]] <- quote(homer)
  learner <- match.arg(learner)
  check_whole(k, "k", 2, what = "one whole number >= 2 (the children of a node)")
  check_whole(iterations, "iterations", 1, what = "one whole number >= 1")
  xy <- ml_xy(x, if (!missing(y)) y)
  x <- as_features(xy$x)
  y <- as_labels(xy$y, nrow(x), fun = "homer")
  if (!is.null(hierarchy) && !is.list(hierarchy))
    stop_arg("'hierarchy' must be the $hierarchy of a homer() fit")
  nodes <- list()
  tree <- list()
  grow <- function(labels, rows) {
    id <- length(nodes) + 1L
    nodes[[id]] <<- list()
    key <- paste(labels, collapse = ",")
    children <- if (length(labels) <= k) as.list(labels) else
      hierarchy[[key]] %||% lapply(balanced_kmeans(y[rows, labels, drop = FALSE], k, iterations),
                                   function(g) labels[g])
    tree[[key]] <<- children
    Z <- vapply(children, function(ch) rowSums(y[rows, ch, drop = FALSE]) > 0,
                logical(length(rows)))
    Z <- matrix(Z, length(rows))
    colnames(Z) <- paste0("g", seq_along(children))
    model <- quiet_constant(br(x[rows, , drop = FALSE], Z, learner = learner, cost = cost, ...))
    child_node <- rep(NA_integer_, length(children))
    for (c in seq_along(children)) {
      if (length(children[[c]]) > 1 && any(Z[, c])) child_node[c] <- grow(children[[c]], rows[Z[, c]])
    }
    nodes[[id]] <<- list(labels = labels, children = children, rows = length(rows),
                         model = model, child_node = child_node)
    id
  }
  grow(seq_len(ncol(y)), seq_len(nrow(x)))
  new_ml_fit(list(nodes = nodes, hierarchy = tree, k = k, iterations = iterations,
                  learner = learner, labels = colnames(y), features = colnames(x),
                  nobs = nrow(x), call = call),
             "homer", cut = stats::setNames(rep(natural_cut(learner), ncol(y)), colnames(y)),
             n_features = ncol(x))
}

#' @rdname homer
#' @export
homer.formula <- function(x, data, subset, na.action = stats::na.fail, ...) {
  md <- model_data(match.call(expand.dots = FALSE), na.action, parent.frame())
  fit <- homer.default(md$x, md$y, ...)
  with_formula(fit, md, match.call(), quote(homer))
}

# The label tree homer() grows on labels y (n x m), without its models: the
# children of every inner node (by its labels, as in fit$hierarchy), from the
# same draws, in the same order, as a homer() fit on these rows.
homer_hierarchy <- function(y, k, iterations) {
  tree <- list()
  grow <- function(labels, rows) {
    if (length(labels) <= k) return(invisible())
    children <- lapply(balanced_kmeans(y[rows, labels, drop = FALSE], k, iterations),
                       function(g) labels[g])
    tree[[paste(labels, collapse = ",")]] <<- children
    for (ch in children) {
      relevant <- rowSums(y[rows, ch, drop = FALSE]) > 0
      if (length(ch) > 1 && any(relevant)) grow(ch, rows[relevant])
    }
  }
  grow(seq_len(ncol(y)), seq_len(nrow(y)))
  tree
}

# The tree of homer_hierarchy() on labels y drawn from `seed` (R's generator
# left as it was): the same rows give the same tree at every call, whatever
# the state of the generator or the worker (cv_homer()).
homer_seeded_tree <- function(y, k, seed) {
  restore_rng_on_exit()
  set.seed(seed)
  homer_hierarchy(as_labels(y, NROW(y), fun = "cv_homer"), k, 10)
}

# Balanced k-means of the columns of Y (n x L, 0/1), L > k: a list of at
# most k groups of column indices, each of at most ceiling(L / k).
balanced_kmeans <- function(Y, k, iterations) {
  Y <- Y + 0
  L <- ncol(Y)
  cap <- ceiling(L / k)
  centres <- Y[, sample.int(L, k), drop = FALSE]
  groups <- vector("list", k)
  for (it in seq_len(iterations)) {
    dist <- sqrt(pmax(outer(colSums(Y^2), colSums(centres^2), `+`) -
                        2 * crossprod(Y, centres), 0))
    groups <- rep(list(integer()), k)
    for (l in seq_len(L)) {
      v <- l
      repeat {
        j <- which.min(dist[v, ])
        g <- c(groups[[j]], v)
        g <- g[order(dist[g, j])]             # stable: ties in the order of joining
        if (length(g) > cap) {
          out <- g[length(g)]
          groups[[j]] <- g[-length(g)]
          dist[out, j] <- Inf
          v <- out
        } else {
          groups[[j]] <- g
          break
        }
      }
    }
    for (j in seq_len(k))
      if (length(groups[[j]])) centres[, j] <- rowMeans(Y[, groups[[j]], drop = FALSE])
  }
  groups[lengths(groups) > 0]
}

# Each label's smallest node score on its path from the root.
ml_scores.homer <- function(object, x, type = "score", y = NULL, ...) {
  check_no_options(list(...))
  n <- nrow(x)
  floor_score <- if (object$learner == "logistic") 0 else -Inf
  out <- matrix(floor_score, n, length(object$labels))
  walk <- function(id, above) {
    node <- object$nodes[[id]]
    s <- ml_scores(node$model, x)
    for (c in seq_along(node$children)) {
      sc <- pmin(above, s[, c])
      if (length(node$children[[c]]) == 1) out[, node$children[[c]]] <<- sc
      else if (!is.na(node$child_node[c])) walk(node$child_node[c], sc)
    }
  }
  walk(1L, rep(Inf, n))
  out
}

#' @export
print.homer <- function(x, ...) {
  cat("\nCall:  ", paste(deparse(x$call), sep = "\n", collapse = "\n"), "\n\n", sep = "")
  depth <- function(id) {
    ch <- x$nodes[[id]]$child_node
    1 + max(0, vapply(ch[!is.na(ch)], depth, 0))
  }
  cat("HOMER: ", length(x$nodes), " inner nodes (k = ", x$k, ", depth ", depth(1L), "), ",
      x$learner, " models, on ", x$nobs, " instances, ", length(x$features), " features, ",
      length(x$labels), " labels\n", sep = "")
  cat("root groups: ", paste(vapply(x$nodes[[1]]$children, function(g)
    paste0("{", paste(x$labels[g], collapse = ", "), "}"), ""), collapse = " "), "\n\n",
    sep = "")
  invisible(x)
}
