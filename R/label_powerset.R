#' Label powerset and pruned sets
#'
#' The label powerset (LP) turns the multi-label problem into one multi-class
#' problem whose classes are the distinct label sets seen in training; a
#' prediction is the label set of the most probable class.  Pruned sets (PS,
#' Read et al. 2008) first drop the rare label sets, so that the classes are
#' fewer and each has enough examples, and give the examples of a dropped set
#' the frequent label sets it contains instead.
#'
#' @section The class model:
#' With a multi-class learner object (`learner = ml_learner_e1071()`, or
#' one's own made with `ml_learner(multiclass = TRUE)`, see [ml_learner()]),
#' the classes are fitted as one multi-class model, whose class
#' probabilities are \eqn{p_k(x)}{p_k(x)} (normalised to sum 1): with
#' [ml_learner_e1071()] this is utiml's label powerset (one libsvm
#' one-vs-one SVM, Platt's pairwise-coupled probabilities; the most
#' probable class is e1071's predicted class).  Any other learner object
#' scores the classes one-vs-rest, one binary model per class, as
#' [br()] does with it (probabilities normalised as below, or the softmax of
#' its scores).
#'
#' Otherwise the classes are scored one-vs-rest by binary relevance ([br()], the
#' package's own C solvers) on the K indicator columns of the label sets:
#' with the default `learner = "logistic"`, K L2-regularised logistic
#' regressions (cost `cost`, intercept), whose probabilities
#' \eqn{q_k(x)} are normalised to class probabilities
#' \eqn{p_k(x) = q_k(x) / \sum_j q_j(x)}{p_k(x) = q_k(x) / sum_j q_j(x)};
#' with `"ridge"` or `"svm"`, the decision values \eqn{f_k(x)} become
#' \eqn{p_k(x) = e^{f_k(x)} / \sum_j e^{f_j(x)}}{p_k(x) = exp(f_k(x)) / sum_j exp(f_j(x))}
#' (a softmax: a ranking, not a calibrated probability).  With a single
#' label set in training, that set is always predicted.  A row whose class
#' probabilities are all 0 (every one underflows, or the learner gives 0 to
#' every class) or not finite gets the classes' training frequencies
#' (`counts / sum(counts)`) instead of 0 / 0.
#'
#' `predict(type = "class")` returns the label set of the class of highest
#' \eqn{p_k(x)} (among equal ones, the class seen most often in training,
#' then the one seen first); `type = "score"` the marginal of each label,
#' \eqn{\sum_{k: l \in S_k} p_k(x)}{sum of p_k(x) over the classes k whose
#' set S_k contains l}, which [ml_decide()] or a threshold turn into label
#' sets of their own (they need not be sets seen in training); `type =
#' "prob"` the probability of given label vectors `y`, one per row, which is
#' \eqn{p_k(x)} for the class whose set is that vector and 0 for a label set
#' that is no class (the class probabilities of row i are those of the
#' classes' sets: `y = fit$sets[rep(k, n), ]`).  Prediction goes through
#' [predict.ml_fit()] (new data, `thresholds`, `na.action`): with thresholds
#' given or stored (cross-validation by [ml_cv()] stores out-of-fold ones),
#' `"class"` cuts the marginals at them instead.
#'
#' @section Pruning (ps()):
#' A label set carried by fewer than `p` training examples is pruned: its
#' examples leave the training data.  Each comes back once for each of its
#' frequent subsets (the non-empty label sets carried by at least `p`
#' examples, as whole sets, that are proper subsets of its own), chosen by
#' `strategy`:
#' * `"A"`: the `b` best subsets, ranked by their number of labels, then by
#'   their count (larger first; then the order of first appearance), as
#'   MEKA's `PSUtils.getTopNSubsets()` ranks them;
#' * `"B"`: every frequent subset with more than `b` labels.
#'
#' An example with no such subset is left out.  `b = 0` with strategy A
#' reintroduces nothing (pure pruning).  The copies carry the example's
#' features unchanged and weigh one each.
#'
#' @param x Features: a numeric matrix, data frame or sparse `Matrix`; or an
#'   [mlss_data()] / `mldr` object (its training rows), `y` left out; or, for
#'   the formula method, a formula `cbind(l1, l2) ~ .`.
#' @param y Labels: an n x m logical, 0/1 or -1/+1 matrix or data frame (no
#'   `NA`).
#' @param learner The binary learner of [br()] that scores each class:
#'   `"logistic"` (default), `"ridge"` or `"svm"`; or a learner object
#'   ([ml_learner()]): a multi-class one fits the classes as one model, any
#'   other scores them one-vs-rest (see *The class model*).
#'   The logistic and SVM learners penalise their intercept, so a
#'   constant added to a column of `x` changes their fits (see [br()]); the
#'   ridge learner's do not.
#' @param cost The learner's cost \eqn{C} (one number; 1 by default); with a
#'   learner object and `cost` left out, the learner's own parameters.
#' @param p `ps()`: label sets carried by fewer than `p` examples are pruned
#'   (a whole number >= 1; 1 prunes nothing, LP).
#' @param b `ps()`: strategy A, the number of subsets reintroduced per
#'   pruned example; strategy B, the size a subset must exceed.
#' @param strategy `ps()`: `"A"` or `"B"`, see *Pruning*.
#' @param data,subset,na.action For the formula method, as in [lm()].
#' @param ... Passed to [br()] (`tol`, `max_iter`, `loss`, `intercept`); for
#'   the formula methods, the arguments of the default method.
#' @return An object of class `c("lp", "ml_fit")` (`c("ps", "lp", "ml_fit")`
#'   for `ps()`), predicted by [predict.ml_fit()]: `sets`,
#'   the K x m logical matrix of the classes' label sets (row names their
#'   keys "0110..."), `counts` (the training examples of each class, after
#'   pruning and reintroduction for PS), `model` (the [br()] fit on the class
#'   indicators), `learner`, `labels`, `features`, `nobs`, `call`, and the
#'   fields of the contract (`types`, `decoder`, `n_features`); PS adds
#'   `p`, `b`, `strategy`, `pruned` (the examples pruned) and `added` (the
#'   copies reintroduced).
#' @references Boutell M. R., Luo J., Shen X. and Brown C. M. (2004).
#'   Learning multi-label scene classification. Pattern Recognition 37(9),
#'   1757-1771.  (The label powerset.)
#'
#'   Read J., Pfahringer B. and Holmes G. (2008). Multi-label classification
#'   using ensembles of pruned sets. Proceedings of the 8th IEEE International
#'   Conference on Data Mining (ICDM 2008), 995-1000.
#' @seealso [predict.ml_fit()], [br()], [rakel()] (label powersets on random
#'   subsets of the labels).
#' @aliases predict.lp
#' @examples
#' d <- mlss::emotions
#' fit <- lp(d)
#' fit
#' head(predict(fit, d))                  # label sets seen in training
#' head(predict(fit, d, type = "score"))  # per-label marginals
#' # the probability of the observed label sets (0 for a set never seen)
#' summary(predict(fit, d, type = "prob"))
#' pfit <- ps(d, p = 3, b = 2)
#' c(classes_lp = nrow(fit$sets), classes_ps = nrow(pfit$sets))
#' # a multi-class learner of one's own: the nearest class centroid, with
#' # probabilities from the distances
#' centroids <- ml_learner("centroids",
#'   fit = function(x, y) {
#'     cls <- if (is.factor(y)) y else factor(y, levels = c(FALSE, TRUE))
#'     list(mu = rowsum(x, cls) / as.vector(table(cls)), multi = is.factor(y))
#'   },
#'   predict = function(model, newx) {
#'     d2 <- sapply(rownames(model$mu), function(k) colSums((t(newx) - model$mu[k, ])^2))
#'     P <- exp(-(d2 - apply(d2, 1, min)))
#'     P <- P / rowSums(P)
#'     if (model$multi) P else P[, "TRUE"]
#'   },
#'   multiclass = TRUE)
#' fitc <- lp(d$x[d$train, ], d$y[d$train, ], learner = centroids)
#' fitc
#' \donttest{
#' if (requireNamespace("e1071", quietly = TRUE))  # utiml's LP: one multi-class SVM
#'   lp(d, learner = ml_learner_e1071())
#' }
#' @export
lp <- function(x, ...) UseMethod("lp")

#' @rdname lp
#' @export
lp.default <- function(x, y, learner = c("logistic", "ridge", "svm"), cost = 1, ...) {
  call <- match.call()
  call[[1L]] <- quote(lp)
  lc <- lp_learner_cost(learner, cost, !missing(cost))
  learner <- lc$learner
  cost <- lc$cost
  xy <- ml_xy(x, y)
  x <- as_features(xy$x)
  y <- as_labels(xy$y, nrow(x), fun = "lp")
  fit <- lp_fit(x, y, seq_len(nrow(x)), learner, cost, ...)
  fit$call <- call
  new_lp_fit(fit, "lp")
}

#' @rdname lp
#' @export
lp.formula <- formula_method("lp")

# The learner and cost of lp() and ps(): an ml_learner() (validated), with its
# own parameters unless `cost` was given (cost_given: !missing(cost) in the
# caller), or a built-in learner's name with `cost`.
lp_learner_cost <- function(learner, cost, cost_given) {
  if (is_learner(learner))
    return(list(learner = validate_ml_learner(learner), cost = if (cost_given) cost))
  list(learner = match.arg(learner, c("logistic", "ridge", "svm")), cost = cost)
}

#' @rdname lp
#' @export
ps <- function(x, ...) UseMethod("ps")

#' @rdname lp
#' @export
ps.default <- function(x, y, p = 2, b = 2, strategy = c("A", "B"),
                       learner = c("logistic", "ridge", "svm"), cost = 1, ...) {
  call <- match.call()
  call[[1L]] <- quote(ps)
  lc <- lp_learner_cost(learner, cost, !missing(cost))
  learner <- lc$learner
  cost <- lc$cost
  strategy <- match.arg(strategy)
  if (!is.numeric(p) || length(p) != 1 || is.na(p) || p < 1 || p != round(p))
    stop_arg("'p' must be one whole number >= 1 (label sets with fewer examples are pruned)")
  if (!is.numeric(b) || length(b) != 1 || is.na(b) || b < 0 || b != round(b))
    stop_arg("'b' must be one whole number >= 0")
  xy <- ml_xy(x, y)
  x <- as_features(xy$x)
  y <- as_labels(xy$y, nrow(x), fun = "ps")
  rows <- pruned_rows(y, p, b, strategy)
  if (!length(rows$row))
    stop_arg("every label set has fewer than p = ", p, " examples: lower 'p'")
  fit <- lp_fit(x, rows$y, rows$row, learner, cost, ...)
  fit$p <- p
  fit$b <- b
  fit$strategy <- strategy
  fit$pruned <- rows$pruned
  fit$added <- rows$added
  fit$call <- call
  new_lp_fit(fit, c("ps", "lp"))
}

# An LP or PS fit as an ml_fit: its class labels come from its decoder (the
# label set of the most probable class), its scores are the label marginals,
# and "prob" is the probability of given label vectors.
new_lp_fit <- function(fit, class) {
  new_ml_fit(fit, class, types = c("class", "score", "prob"), decoder = "most probable set",
             n_features = fit$n_features)
}

#' @rdname lp
#' @export
ps.formula <- formula_method("ps")

# The training rows of PS: every example whose label set has >= p examples,
# then, for each pruned one, copies with its chosen frequent subsets.
# Returns list(row = indices into x, y = their label sets, pruned, added).
pruned_rows <- function(y, p, b, strategy) {
  keys <- label_set_keys(y)
  count <- table(keys)
  keep <- as.vector(count[keys]) >= p
  frequent <- unique(keys[keep])
  fy <- y[match(frequent, keys), , drop = FALSE]
  fsize <- rowSums(fy)
  fcount <- as.vector(count[frequent])
  row <- which(keep)
  lab <- y[keep, , drop = FALSE]
  added <- 0L
  for (i in which(!keep)) {
    # frequent, non-empty, proper subsets of the example's set
    sub <- which(fsize > 0 & fsize < sum(y[i, ]) &
                 colSums(t(fy) & !y[i, ]) == 0)
    if (!length(sub)) next
    if (strategy == "A") {
      sub <- sub[order(-fsize[sub], -fcount[sub], sub)]
      sub <- utils::head(sub, b)
    } else {
      sub <- sub[fsize[sub] > b]
    }
    if (!length(sub)) next
    row <- c(row, rep(i, length(sub)))
    lab <- rbind(lab, fy[sub, , drop = FALSE])
    added <- added + length(sub)
  }
  list(row = row, y = lab, pruned = sum(!keep), added = added)
}

# LP on rows `row` of x with label sets y (one row each): the classes and
# one multi-class fit (a multi-class learner object) or one br() fit on their
# indicators.  `norm`: how lp_class_prob() makes class probabilities of the
# model's output ("prob": normalised, "softmax": of scores).
lp_fit <- function(x, y, row, learner, cost, ...) {
  keys <- label_set_keys(y)
  tab <- table(keys)
  first <- unique(keys)                       # order of first appearance
  cnt <- as.vector(tab[first])
  classes <- first[order(-cnt, seq_along(first))]
  sets <- y[match(classes, keys), , drop = FALSE]
  rownames(sets) <- classes
  K <- length(classes)
  model <- NULL
  obj <- is_learner(learner)
  multi <- obj && isTRUE(learner$multiclass)
  norm <- if (multi || (obj && learner$type == "prob") || identical(learner, "logistic"))
    "prob" else "softmax"
  if (K > 1 && multi) {
    if (!is.null(cost)) learner <- stats::update(learner, cost = cost)
    check_no_options(list(...))
    model <- learner_fit_multi(learner, x[row, , drop = FALSE], factor(keys, levels = classes))
  } else if (K > 1) {
    Z <- outer(keys, classes, `==`)
    colnames(Z) <- paste0("set", seq_len(K))
    model <- if (obj && is.null(cost)) br(x[row, , drop = FALSE], Z, learner = learner, ...)
             else br(x[row, , drop = FALSE], Z, learner = learner, cost = cost, ...)
  }
  list(sets = sets, counts = stats::setNames(as.vector(tab[classes]), classes),
       model = model, learner = learner, multiclass = multi, norm = norm,
       labels = colnames(y), features = colnames(x), nobs = nrow(x), n_features = ncol(x))
}

# The pipeline (predict.ml_fit() in R/predict.R) asks for the marginals
# (type = "score"), the probability of given label vectors (type = "prob")
# or the decoder's label sets (type = "class" without thresholds).
ml_scores.lp <- function(object, x, type = "score", y = NULL, ...) {
  check_no_options(list(...))
  P <- lp_class_prob(object, x)
  if (type == "prob") return(lp_vector_prob(object, P, y))
  P %*% (object$sets + 0)
}

ml_decode.lp <- function(object, x, ...) {
  check_no_options(list(...))
  P <- lp_class_prob(object, x)
  object$sets[max.col(P, ties.method = "first"), , drop = FALSE]
}

# p(y_i | x_i): the probability of the class whose label set is y_i, 0 for a
# label set that is no class.
lp_vector_prob <- function(object, P, y) {
  k <- match(label_set_keys(y), rownames(object$sets))
  out <- numeric(nrow(P))
  seen <- !is.na(k)
  out[seen] <- P[cbind(which(seen), k[seen])]
  out
}

# The n x K class probabilities of checked new data x.  A row whose
# probabilities sum to 0 (all underflow, or a class model that gives every
# class 0) or are not finite gets the training frequencies of the classes.
lp_class_prob <- function(object, x) {
  K <- nrow(object$sets)
  if (is.null(object$model))
    return(matrix(1, nrow(x), 1, dimnames = list(rownames(x), rownames(object$sets))))
  q <- if (isTRUE(object$multiclass))
    learner_predict_multi(object$learner, object$model, x,
                          object$model_classes %||% rownames(object$sets))
  else ml_scores(object$model, x)
  norm <- object$norm %||% if (identical(object$learner, "logistic")) "prob" else "softmax"
  if (norm == "prob") {
    s <- rowSums(q)
    P <- q / s
  } else {
    e <- exp(q - apply(q, 1, max))
    s <- rowSums(e)
    P <- e / s
  }
  bad <- !is.finite(s) | s <= 0 | !is.finite(rowSums(P))
  if (any(bad)) {
    prior <- object$counts / sum(object$counts)
    P[bad, ] <- rep(prior, each = sum(bad))
  }
  dimnames(P) <- list(rownames(x), rownames(object$sets))
  P
}

#' @export
print.lp <- function(x, ...) {
  cat("\nCall:  ", paste(deparse(x$call), sep = "\n", collapse = "\n"), "\n\n", sep = "")
  what <- if (inherits(x, "ps")) "Pruned sets" else "Label powerset"
  how <- if (is_learner(x$learner)) {
    if (isTRUE(x$multiclass)) paste0("fitted as one multi-class model by learner '",
                                    x$learner$name, "'")
    else paste0("scored one-vs-rest by learner '", x$learner$name, "'")
  } else paste0("scored one-vs-rest by ", c(logistic = "logistic regression",
                                            ridge = "ridge regression",
                                            svm = "a linear SVM")[[x$learner]])
  cat(what, ": ", nrow(x$sets), " label sets as classes, ", how, ", on ", x$nobs,
      " instances, ", length(x$features), " features, ", length(x$labels), " labels\n",
      sep = "")
  if (inherits(x, "ps"))
    cat("pruned: label sets with fewer than ", x$p, " examples (", x$pruned,
        " examples); ", x$added, " copies with frequent subsets (strategy ", x$strategy,
        ", b = ", x$b, ")\n", sep = "")
  cat("\n")
  invisible(x)
}
