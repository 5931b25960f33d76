#' LEWL: label embedding for weak (missing) labels
#'
#' Fits LEWL (Li, Yang and Qiu 2020): a low-dimensional embedding `Z` of the
#' instances that both reconstructs the label matrix (`Yt ~ Z D`) and depends
#' on the features (HSIC with a Gaussian kernel), while the missing labels
#' (`NA` in `y`) are filled in smoothly over a k-nearest-neighbour graph of the
#' instances.  It minimises
#' \deqn{\|\tilde Y - Z D\|_F^2 + \beta\,\mathrm{tr}(\tilde Y' L \tilde Y) -
#'   \lambda\,\mathrm{tr}(K H Z Z' H)}{||Yt - Z D||^2 + beta tr(Yt' L Yt) -
#'   lambda tr(K H Z Z' H)}
#' over `Z` (with `Z'Z = I`), `D` and the missing entries of `Yt`, the observed
#' ones held at their values, by alternating exact updates:
#' * `Z`: the top `k` eigenvectors of `Yt Yt' + lambda H K H`, and `D = Z'Yt`
#'   (jointly the exact minimiser over `Z` and `D`).  The eigenvectors come
#'   from an iterative eigensolver on products with that matrix, which is
#'   never formed (restarted block Krylov iteration with Rayleigh-Ritz, block
#'   `k + 10`, three Krylov blocks per restart), warm-started from the
#'   previous iteration's vectors (from the third iteration on, the
#'   iteration before's join them in the first Rayleigh-Ritz, whose basis
#'   then holds the linear extrapolation of the slowly moving subspace, and
#'   the first restart has one Krylov block); it stops when every one of
#'   the `k` Ritz pairs has a residual `||M z - theta z||` below 1e-10 times
#'   the largest Ritz value (a warning of class `"mlss_not_converged"` if it
#'   does not within 1000 restarts).  Up to n = 1200 rows (where it was
#'   measured faster) and where that block basis would exceed n / 2, the matrix is
#'   formed and reduced by LAPACK `dsyevr` (the `k` largest only).  In
#'   [cv_lewl()], on folds of more than 1200 rows on the exact kernel (up to
#'   the switch of `approx = "auto"`, 2500 rows), `H K H = V diag(s) V'` is
#'   decomposed once per fold for the whole grid (all n pairs by [eigen()]),
#'   and the eigensolver runs on
#'   `V' M V = lambda diag(s) + F F'`, `F = V' Yt`, whose products cost O(n m)
#'   per column instead of O(n^2); then `Z = V Z~` (two n x n x m products
#'   per iteration; V is a second n x n matrix beside K, 50 MB at 2500
#'   rows).  The same subspace, the same test.  Measured
#'   (`bench/lewl_eigbasis_results.md`; enron rows, k = m, reference BLAS):
#'   at n = 1600, 1.39 CPU s per iteration against 1.78 by products with
#'   `H K H` and 1.60 by `dsyevr`, for 6.1 s of decomposition (OpenBLAS, one
#'   thread: 0.146, 0.220 and 0.342, for 0.61 s); at n = 1000 `dsyevr` is
#'   faster (0.36 s against 0.76; OpenBLAS 0.084 against 0.095).  A single
#'   fit takes this route only when forced: one fit of a few iterations does
#'   not repay the decomposition (yeast's 2417 rows: 6-15 iterations, 9-17
#'   CPU s in all, while at 2500 rows the decomposition takes the preparation
#'   from 1.6 to 24.6 CPU s; at 2000 enron rows, 77
#'   iterations, the forced route took 151 CPU s against 255).
#'   `options(mlss.lewl_eigen = "dense")`, `"iterative"` or `"basis"` forces a route;
#' * the missing entries: `recovery = "exact"` (default) solves, label by
#'   label, the quadratic in the missing entries with the observed ones fixed,
#'   \eqn{A_{MM} y_M = (ZD)_M - A_{MO} y_O}{A_MM y_M = (ZD)_M - A_MO y_O} with
#'   \eqn{A = I + \beta L}{A = I + beta L}.  The paper's closed form
#'   \eqn{P_{\Omega^c}((I + \beta L)^{-1} Z D)}{P_Omega^c((I + beta L)^{-1} Z D)}
#'   (`recovery = "paper"`) solves the system on all entries and then resets
#'   the observed ones, which is not the minimiser when observed and missing
#'   neighbours meet in the graph, and can increase the objective.  Both are
#'   solved by conjugate gradients on the sparse `A` (in C), warm-started at
#'   the current matrix: `A` is well conditioned (eigenvalues between 1 and
#'   `1 + 2 beta` times the largest weighted degree), a different sub-system
#'   per label rules out one factorisation for the exact update, and each CG
#'   step lowers the objective.  The CG runs on the free (missing) rows of
#'   each label alone, on the graph's edges among them, preconditioned by the
#'   diagonal of `A` (Jacobi), and stops when the residual is below 1e-10 of
#'   the right-hand side: on 2000 enron-shaped rows at 30\% hidden, 733-778
#'   CG iterations per alternating iteration against 4522-4741 unpreconditioned
#'   (`bench/lewl_scale.R`'s data, `bench/lewl_scale_results.md`).
#'
#' Optionally (`options(mlss.lewl_relax = w)`, `w` in \[1, 2); default 1,
#' the plain step) the exact recovery step is over-relaxed from the second
#' iteration on: the missing entries move to `y + w (y* - y)`, `y*` the
#' step's minimiser.  For a quadratic in the missing entries any `w` in
#' (0, 2) still lowers it, by `1 - (1 - w)^2` of the plain step's decrease,
#' so no update increases the objective, and the fixed points are those of
#' the plain scheme (`y* = y`).  It is not the default because it does not
#' reliably save iterations: at `w = 1.5`, on the first 600 rows with k = m
#' and 30\% / 70\% hidden, emotions took 58 / 94 iterations against 74 /
#' 123 plain and yeast 7 / 14 against 6 / 19, but 1600 enron-shaped rows
#' (`bench/lewl_cv.R`, lambda = 0.1, beta = 1, k = 27) took 136 against 91
#' (`bench/lewl_scale_results.md`).
#' The alternation is a fixed-point iteration `x -> T(x)` on the missing
#' entries (`Z` and `D` are functions of `Yt`) and converges linearly, often
#' slowly (269 iterations at n = 20000 rows).  Optionally (`options(
#' mlss.lewl_accel = d)`, e.g. 10; default 0, the plain alternation) the next
#' point is mixed from the last `d` (Anderson mixing, type II): `T(x_t) - dG g`, `g`
#' the least-squares combination of the differences of the residuals `T(x) -
#' x` that best cancels the current one, `dG` the differences of the `T(x)`.
#' A safeguard keeps the objective non-increasing: after the Z-step at the
#' mixed point its objective (`||Yt||^2 + beta tr(Yt' L Yt)` less the sum of
#' the top `k` eigenvalues, the minimum over `Z` and `D`) must not exceed the
#' objective the plain step had reached; else the plain point is restored,
#' the history dropped and the Z-step redone (`$accel_steps`,
#' `$accel_rejected` count them).  The fixed points are those of the plain
#' scheme.  Measured (`bench/lewl_scale_results.md`): 300 rows of emotions
#' (k = 6, 30\% hidden) at `tol = 1e-12`, 41 iterations against 532; at
#' n = 20000 (enron-shaped, k = 53, the Nystrom factor without its
#' diagonal), 52 iterations and 141 s CPU against 269 and 927 s; with the
#' diagonal (lewl()'s route there, every Z-step projected) 52
#' iterations and 80 s CPU against 210 and 237 s (session s38).  It is
#' not the default, on either route: with the objective's test alone it
#' stops at other points than the plain scheme, and on medical the hidden
#' entries' macro AUC depends on the point by several hundredths.  Issue
#' 23's comparison of the routes (the Nystrom route forced against the
#' exact route forced, which runs the plain scheme; session s38,
#' `bench/lewl_scale_results.md`): the plain Nystrom fits within 0.0015 of
#' the exact route on emotions, yeast and medical at rates 0.3 and 0.7,
#' the mixed ones within 0.0005 on emotions and yeast but by +0.022 and
#' -0.049 in macro AUC on medical (+0.037 and -0.018 from the exact route
#' mixed too; at most 2 steps refused by the safeguard); on medical the
#' exact route's fixed point has macro AUC 0.925 / 0.807 (rates 0.3 / 0.7),
#' its plain fit 0.903 / 0.848 and its mixed fit 0.888 / 0.817: the
#' objective's test stops the plain scheme far from it too.  On enron (rate
#' 0.3) the plain Nystrom fit itself is 0.016 from the exact route in
#' macro AUC, the mixed one 0.007.  With the settled test it is the
#' pairing to use: on emotions (30\% hidden) 34 iterations against the
#' plain scheme's 695.
#' The iterations stop when the objective changes by at most `tol` (relative
#' to `|f|`) between two iterations (the default, `options(mlss.lewl_stop =
#' "objective")`), or after `max_iter` with a warning.  With
#' `options(mlss.lewl_stop = "settled")` they stop at the first iteration where the objective changed by at most `tol`
#' relative to `|f|` since the previous one AND the missing entries have
#' settled: their largest change in the iteration, `dx` (`$steps`), times
#' `rho / (1 - rho)` is at most `sqrt(tol)` (1e-3 at the default), with
#' `rho` the largest contraction `|T(x_s) - T(x_s-1)| / |x_s - x_s-1|` (max
#' norms; `$rates`) of the map seen over the last 5 iterations.  That is an
#' estimate of the largest distance of a returned missing entry from the
#' fixed point the iterations converge to (exact for a map contracting by
#' `rho`), not a guarantee: on 12 small problems (40 rows), plain and
#' Anderson-mixed, at tol 1e-4, 1e-6 and 1e-8, the stopped fits lay within 1.10 `sqrt(tol)` of it
#' (`tests/testthat/test-lewl-stop.R`).  The objective's change alone
#' (`"objective"`, or `"terms"`: relative to the size of the terms
#' `||Yt - Z D||^2 + beta tr(Yt' L Yt) + lambda tr(Z' H K H Z)` instead of `|f|`)
#' tests the square of the step, and stops the slow plain descent far from
#' its fixed point: on emotions (30\% hidden, k = m) at iteration 23, where
#' the largest recovered entry is 0.55 from it, and on medical (30\%) 0.70
#' from it with the hidden-entry macro AUC 0.022 below the fixed point's;
#' the settled test stops the plain scheme on emotions at iteration 695,
#' 9.9e-4 from it, and the Anderson-mixed one (depth 10) at 34
#' (`bench/lewl_stop_rules.R`, `bench/lewl_stop_fits.R`,
#' `bench/lewl_stop_results.md`).  Neither is the default yet: the settled
#' test makes the plain scheme 30 times longer there, the Anderson mixing
#' that makes it affordable is not yet measured on all of issue 23's
#' comparisons, and where the map stops contracting the settled test never
#' stops: on medical's Nystrom route (30\% hidden, depth 10) the largest
#' step stays at 5e-4 with a contraction of 1.000-1.001 from iteration 50
#' on, so the fit runs to `max_iter` (`bench/lewl_stop_diag.R`).
#' `options(mlss.lewl_stop = "settled", mlss.lewl_accel = 10)` turns both on.
#' Then a regression from `x` to `Z` is fitted, new data are scored by
#' `f(x) D`, and labels are predicted where the score exceeds the adaptive
#' threshold: as in the paper, one cut over all the training scores (put in
#' one vector) that maximises F1 on the observed training entries
#' ([f1_thresholds()] on the flattened matrix, i.e. micro F1); or one cut per
#' label (`threshold = "label"`).
#'
#' The graph: each instance is joined to its `knn` nearest neighbours
#' (Euclidean), symmetrised by union as in the paper (`w_ij > 0` when `i` is
#' among the neighbours of `j` or `j` among those of `i`), with heat-kernel
#' weights `exp(-||x_i - x_j||^2 / t)`.
#'
#' @param x Features: a numeric matrix, data frame of numeric columns or
#'   sparse `Matrix`; for the formula method, a formula `cbind(l1, l2) ~ .`.
#' @param y Labels: a logical, 0/1 or -1/+1 matrix or data frame, `NA` where
#'   a label is missing (not observed).  Every label needs an observed
#'   entry; a label without an observed positive (negative) is kept with a
#'   warning, scored about 0 (1) and never (always) predicted, as by the
#'   other methods of the package.
#' @param k Dimension of the embedding, `1 <= k <= n`; default `m`, the
#'   number of labels (`min(m, n)`).  Chosen by measurement
#'   (`bench/lewl_default_k.R`, `bench/lewl_default_k_results.md`; fully
#'   observed training labels, Mulan train/test splits, test macro F1 of
#'   `predict(type = "class")`): `k = m` against the former `ceiling(m / 2)`,
#'   0.634 against 0.611 on emotions, 0.702 against 0.423 on scene, 0.334
#'   against 0.339 on yeast, 0.565 against 0.525 on medical, 0.258 against
#'   0.229 on enron; with 30\% of the training entries hidden it still won on
#'   emotions and scene and moved by at most 0.007 elsewhere.  At `lambda =
#'   0`, `k >= m` makes the reconstruction `Z D` of the labels exact; with
#'   `lambda > 0` the kernel term still shapes `Z`.
#' @param lambda Weight of the HSIC term, >= 0 (default 1).
#' @param beta Weight of the graph smoothness of the labels, >= 0 (default
#'   1); 0 ignores the graph.  The graph term is what holds the missing
#'   entries near their neighbours' labels: with `beta = 0` nothing does, and
#'   the alternation mostly does not converge, the missing entries moving ever
#'   further out of \[0, 1\] while the objective keeps falling, so the fit is
#'   wherever `max_iter` stops it (the warning says so).  Measured
#'   (`bench/lewl_beta0_results.md`; k = m, 30\% hidden, 2000 iterations,
#'   checked at 50, 500, 1000 and 2000): at `beta = 0` the largest missing
#'   entry grew at every check on all five sets (emotions, scene, yeast, medical, enron) at
#'   `lambda = 0.1` (to 2.5-5.0) and on yeast, medical and enron at
#'   `lambda = 10` (to 10-43); at `beta = 1` it stayed at most 1.09, unchanged from
#'   iteration 50 on, on emotions, scene, yeast and medical.  Rows the graph joins only weakly (the
#'   heat-kernel weights of far neighbours are tiny) are held weakly at any
#'   `beta`: on enron at `beta = 1` a few dozen entries drift too (the largest
#'   to 4.6 at `lambda = 0.1` and 32 at `lambda = 10` after 2000 iterations;
#'   at `lambda = 10` their 34 rows are all in the weakest quarter by weighted
#'   degree: long emails, far from every other in word space).
#' @param knn Number of neighbours in the graph (default 10; at most `n - 1`).
#' @param t Heat-kernel width of the graph weights; default the median of the
#'   squared distances between neighbours (so that a typical edge weighs
#'   `exp(-1)`).
#' @param gamma Scale of the Gaussian kernel `K = exp(-gamma ||x - x'||^2)`;
#'   default the median heuristic `1 / median` of the squared distances
#'   between distinct instances.  Also the kernel of `regressor =
#'   "kernel_ridge"`.
#' @param regressor The regression from `x` to `Z`: `"ridge"` (default;
#'   multi-output ridge regression with an intercept, [mlls()] with `alpha =
#'   0`), `"kernel_ridge"` (the same with the Gaussian kernel of `gamma`), or a
#'   function `function(x, z)` returning a predictor `function(newx)` that
#'   gives a `nrow(newx)` x `k` matrix (e.g. a random forest per column, as
#'   in the paper).
#' @param ridge The penalty of the ridge and kernel ridge regressions
#'   (default 0.1).
#' @param threshold `"global"` (default: the paper's single cut) or
#'   `"label"` (one F1-maximising cut per label).
#' @param recovery `"exact"` (default) or `"paper"`, see Details.
#' @param init The value the missing entries start from (default 0.5, the
#'   paper's code for a missing label).
#' @param tol The tolerance of the stopping test (default 1e-6, as in the
#'   paper): the objective's relative change at most `tol`; with
#'   `options(mlss.lewl_stop = "settled")` also the missing entries'
#'   estimated distance from the fixed point at most `sqrt(tol)` (see
#'   Details); 0 runs `max_iter` iterations.
#' @param max_iter Maximum number of iterations (default 500).
#' @param approx The kernel term: `"auto"` (default) uses the n x n kernel
#'   matrix up to n = 2500 rows and its Nystrom factor above; `"exact"` or
#'   `"nystrom"` force one route.  See the section Large data.
#' @param landmarks Number of Nystrom landmarks (rows drawn at random with
#'   R's RNG, so `set.seed()` reproduces the fit); default 500 (at most n).
#' @param data,subset,na.action For the formula method: the data frame, an
#'   optional subset of its rows, and what to do with rows with missing
#'   features (labels may be `NA`: they are the missing labels).
#' @param ... For the formula method, arguments of the default method;
#'   otherwise not used (an unknown argument is an error).
#' @return An object of class `"lewl"`: `Z` (n x k embedding), `D` (k x m
#'   decoder), `completed` (the n x m matrix `Yt` as fitted, unbounded),
#'   `recovered` (the completed training labels: observed entries unchanged,
#'   0/1, the missing ones scored by `Yt` clamped to \[0, 1\]), `missing`
#'   (logical n x m), `objective` (per iteration), `steps` and `rates` (per
#'   iteration: the largest change of a missing entry and the contraction
#'   seen, the settled test's inputs), `accel_steps` and
#'   `accel_rejected` (the Anderson steps taken and refused), `iterations`,
#'   `converged`, `thresholds` (one per label; all equal for the global
#'   cut), the parameters, `labels`, `call`.
#' @section Large data: Up to n = 2500 rows (`approx = "auto"`) the kernel is
#'   the exact n x n matrix; above, K is replaced by its Nystrom approximation
#'   with the exact diagonal, \eqn{K \approx C W^+ C' + \mathrm{diag}(d)}{K ~
#'   C W^+ C' + diag(d)} on `landmarks` rows drawn at random (C the n x r
#'   kernel to the landmarks, W the r x r kernel among them, eigenvalues below
#'   1e-10 of the largest dropped; \eqn{d_i = 1 - (C W^+ C')_{ii}}{d_i = 1 -
#'   (C W^+ C')_ii}, what the factor misses of the kernel's unit diagonal),
#'   held as the centred n x r factor G and d, with \eqn{H K H \approx G G' +
#'   H\,\mathrm{diag}(d)\,H}{H K H ~ G G' + H diag(d) H}: nothing n x n is
#'   formed, in R or in C (the distances are taken to the landmarks in blocks
#'   of rows; the median heuristic for `gamma` uses the pairs among 2000 rows
#'   drawn at random).  Without the diagonal the landmark rows, whose
#'   diagonal the factor reproduces, weigh more in the HSIC term than the
#'   rows far from every landmark: on medical at rate 0.3 with 500 of its 978
#'   rows as landmarks, the hidden entries' macro AUC moved by -0.0127 from
#'   the exact route without it and by -0.0025 with it (by -0.0024 and
#'   +0.0006 with 700 landmarks).  `options(mlss.lewl_nystrom_diag = FALSE)`
#'   drops it; the kernel term is then exactly low rank, `Yt Yt' + lambda G
#'   G' = F F'` with `F = [sqrt(lambda) G, Yt]`, and the Z-step takes the top
#'   eigenvectors from the (r + m) x (r + m) matrix `F'F` (no iteration,
#'   O(n r m) per iteration, G'G once per prepared kernel; at n = 20000, k =
#'   27, 1.9 s CPU per iteration against 19.0 s with the diagonal on the
#'   eigensolver route, `bench/lewl_scale_results.md`).  The kNN graph is sparse on either
#'   route.  Measured (`bench/lewl_nystrom.R`, `bench/lewl_nystrom_results.md`):
#'   hidden-entry average precision and AUC of the Nystrom route against the
#'   exact route forced, on emotions, yeast, medical and enron at rates 0.3
#'   and 0.7.  Per iteration the Z-step costs O(n^2 b) on the exact route and
#'   O(n (r + m) b) on the Nystrom route (`bench/lewl_scale.R`).  With the
#'   diagonal, each Z-step's eigensolver starts from the exact top
#'   eigenvectors of the low-rank part `Yt Yt' + lambda G G'` (from `F'F`, as
#'   without the diagonal): at n = 5000, k = m = 53, 252-441 products per
#'   iteration against 441-630 from the previous iteration's vectors, 7.96
#'   against 10.21 CPU s per iteration, the same objective
#'   (`options(mlss.lewl_eig_warm_gram = FALSE)` for the previous start).
#'   Above 1200 rows a Z-step with the diagonal is first taken by
#'   Rayleigh-Ritz on the span of the low-rank part, `[G, 1, d, Yt]` (r + m +
#'   2 directions; no eigensolver products, O(n r m) per iteration, the span's
#'   orthonormal basis never formed): the top eigenvectors of `M = Yt Yt' +
#'   lambda (G G' + H diag(d) H)` lie in it up to their residuals `M z - theta
#'   z = lambda (I - P) diag(d) z`, P the projection on the span, at most
#'   `lambda max(d)`.  The Z-step keeps these vectors when every residual is
#'   at most 0.005 of the k-th Ritz value, and otherwise takes the
#'   eigensolver's exact eigenvectors, started from them
#'   (`options(mlss.lewl_eigen = "iterative")`: the eigensolver at every
#'   step).  Measured (k = m, lambda = 1, `bench/lewl_scale_results.md`): at
#'   20000 enron-shaped rows every Z-step kept the projection, 2.37 CPU s per
#'   iteration against 29.3 with the eigensolver (the residuals 0.3\% of
#'   theta_k; the mean of the first 3 iterations, the run's fixed part of
#'   3.5 s included: about 1.0 s each after it), and a whole fit with
#'   lewl()'s defaults took 210 iterations, 237 CPU s and 800 MB; at 5000
#'   rows, where the residuals cross the bound and the Z-steps take the
#'   eigensolver (436 products per iteration), 94 iterations and 483 CPU s
#'   (session s38); on yeast (2417 rows, the Nystrom route forced) the same, and
#'   the hidden entries' AP and AUC within 0.0004 of the exact route; on
#'   medical (978 rows), where the residuals are 5\% of theta_k, the
#'   projection forced at every step moved the macro AUC by -0.0080 from the
#'   exact route at rate 0.7 (-0.0007 with the exact eigenvectors): hence the
#'   bound.
#'   `regressor = "kernel_ridge"` still forms the n x n kernel of the
#'   regression.
#' @section Missing labels: `NA` in `y` is a missing label: LEWL learns
#'   from the observed entries and recovers the missing ones (`$recovered`);
#'   the thresholds are chosen on the observed entries.  In the formula
#'   interface `na.action` applies to the features only.
#' @references Li Y., Yang Y. and Qiu H. (2020). Label embedding for weak
#'   label classification. Journal of Nanjing University (Natural Science)
#'   56(4), 549-560.
#' @seealso [cv_lewl()] to choose `lambda`, `beta` and `k`;
#'   [predict.lewl()].
#' @examples
#' data(yeast, package = "mlss")
#' set.seed(1)
#' x <- yeast$x[1:300, ]
#' y <- yeast$y[1:300, ]
#' y[matrix(runif(length(y)) < 0.3, nrow(y))] <- NA   # 30% missing
#' fit <- lewl(x, y, k = 5)
#' fit
#' head(fit$recovered[, 1:5])
#' head(predict(fit, yeast$x[301:310, ], type = "class"))
#' plot(fit)
#' @export
lewl <- function(x, ...) UseMethod("lewl")

#' @rdname lewl
#' @export
lewl.default <- function(x, y, k = NULL, lambda = 1, beta = 1, knn = 10, t = NULL,
                         gamma = NULL, regressor = c("ridge", "kernel_ridge"),
                         ridge = 0.1, threshold = c("global", "label"),
                         recovery = c("exact", "paper"), init = 0.5, tol = 1e-6,
                         max_iter = 500, approx = c("auto", "exact", "nystrom"),
                         landmarks = NULL, ...) {
  call <- match.call()
  call[[1L]] <- quote(lewl)
  check_no_dots(...)
  threshold <- match.arg(threshold)
  recovery <- match.arg(recovery)
  approx <- match.arg(approx)
  if (inherits(regressor, "ml_learner")) regressor <- learner_regressor(regressor)  # learners.R
  if (!is.function(regressor)) regressor <- match.arg(regressor)
  xy <- ml_xy(x, y)
  x <- as_features(xy$x)
  n <- nrow(x)
  y <- as_labels(xy$y, n, na = "keep", fun = "lewl")
  check_lewl_labels(y)
  m <- ncol(y)
  k <- if (is.null(k)) as.integer(min(m, n)) else check_whole(k, "k", 1, n)
  lambda <- check_nonnegative(lambda, "lambda")
  beta <- check_nonnegative(beta, "beta")
  ridge <- check_nonnegative(ridge, "ridge")
  knn <- check_whole(knn, "knn", 1, n - 1L)
  tol <- check_nonnegative(tol, "tol")
  max_iter <- check_whole(max_iter, "max_iter", 1, .Machine$integer.max)
  if (!is.numeric(init) || length(init) != 1 || !is.finite(init))
    stop_arg("'init' must be a single finite number")

  if (!is.null(landmarks))
    landmarks <- check_whole(landmarks, "landmarks", 1, .Machine$integer.max)
  prep <- lewl_prepare(x, knn, t, gamma, approx, landmarks)
  fit <- lewl_fit_prepared(x, y, prep, k, lambda, beta, regressor, ridge, threshold,
                           recovery, init, tol, max_iter)
  fit$call <- call
  fit
}

# The fit on checked inputs and prepared features (lewl_prepare()), shared by
# lewl() and the folds of cv_lewl().
# Z0: a warm start of the first Z-step's eigensolver (cv_lewl(): the previous
# grid point's embedding); it changes the work, not the result.  start: the
# completed matrix to start from (NULL: y with the missing entries at init;
# cv_lewl()'s warm start along the grid), which can change the result.
# eig_tol: the Z-step eigensolver's residual tolerance (cv_lewl()'s fold fits
# use a looser one, lewl_cv_eig_tol).
lewl_fit_prepared <- function(x, y, prep, k, lambda, beta, regressor, ridge, threshold,
                              recovery, init, tol, max_iter, Z0 = NULL, start = NULL,
                              eig_tol = lewl_eig_tol) {
  fit <- lewl_solve(y, prep, k, lambda, beta, recovery, init, tol, max_iter, Z0 = Z0,
                    start = start, eig_tol = eig_tol)
  reg <- lewl_regression(x, fit$Z, regressor, ridge, prep$gamma)
  train <- reg$predict(x) %*% fit$D
  thr <- lewl_thresholds(train, y, threshold)
  new_ml_fit(c(fit, list(regression = reg, thresholds = thr, threshold_type = threshold,
                         k = k, lambda = lambda, beta = beta, knn = prep$knn, t = prep$t,
                         gamma = prep$gamma, approx = prep$route,
                         landmarks = length(prep$landmarks), ridge = ridge,
                         recovery = recovery, tol = tol, max_iter = max_iter,
                         labels = colnames(y), features = colnames(x), nobs = nrow(x),
                         d = ncol(x))),
             "lewl", n_features = ncol(x))
}

#' @rdname lewl
#' @export
lewl.formula <- function(x, data, subset, na.action = stats::na.fail, ...) {
  md <- model_data(match.call(expand.dots = FALSE), na.action, parent.frame())
  fit <- lewl.default(md$x, md$y, ...)
  with_formula(fit, md, match.call(), quote(lewl))
}

# A label never observed is an error; one without an observed positive (or
# negative) is kept, as by the other methods, with their warning: its scores
# are about 0 (1) and it is never (always) predicted.  Masking a share of a
# rare label's entries easily hides all its positives, and a refusal would
# end the whole fit or cross-validation.
check_lewl_labels <- function(y, warn = TRUE) {
  check_observed_labels(y)
  if (warn) warn_constant_labels(y)
}

# Above this many rows, approx = "auto" replaces the n x n kernel by its
# Nystrom factor (documented in ?lewl).
lewl_exact_max <- 2500L
# The depth of the Anderson mixing of the missing entries (?lewl; 0: none).
lewl_default_accel <- 0L
# The stopping test of the iterations (?lewl; options(mlss.lewl_stop)).
lewl_default_stop <- "objective"
# The default number of Nystrom landmarks (?lewl).
lewl_default_landmarks <- 500L
# The Z-step eigensolver's residual tolerance, relative to the largest Ritz
# value (?lewl; cv_lewl()'s fold fits use lewl_cv_eig_tol).
lewl_eig_tol <- 1e-10

# Everything LEWL needs from the features, computed once (and once per fold in
# cv_lewl()): the kernel term (the n x n kernel matrix K with, for the basis
# route of the Z-step (eig_basis), the eigendecomposition of H K H, or its
# Nystrom factor G with H K H ~ G G'), the symmetric kNN weight matrix W, and the
# parameters t and gamma.  The squared distances come from |u|^2 + |v|^2 -
# 2u'v on column-centred (dense) data; the neighbours from knn_search()
# (exact, ties to the lower index), whose distances also give the graph's
# weights.  Above the switch nothing n x n is formed: the distances are taken
# to the landmarks only, in blocks of rows.
lewl_prepare <- function(x, knn, t = NULL, gamma = NULL, approx = "auto",
                         landmarks = NULL,
                         nystrom_diag = getOption("mlss.lewl_nystrom_diag", TRUE),
                         eig_basis = lewl_use_basis(nrow(x))) {
  n <- nrow(x)
  route <- if (approx == "auto") if (n > lewl_exact_max) "nystrom" else "exact" else approx
  if (!inherits(x, "sparseMatrix")) x <- sweep(x, 2, colMeans(x))
  else if (inherits(x, "dgCMatrix")) x <- centre_offset_columns(x)  # offsets cancel in d2
  if (!is.null(gamma)) gamma <- check_nonnegative(gamma, "gamma")
  if (route == "exact") {
    cross <- as.matrix(tcrossprod(x))
    nx <- diag(cross)
    lewl_check_overflow(cross, x)
    d2 <- pmax(outer(nx, nx, "+") - 2 * cross, 0)
    rm(cross)
    diag(d2) <- 0
    if (is.null(gamma)) gamma <- lewl_median_gamma(d2[upper.tri(d2)])
    K <- exp(-gamma * d2)
    rm(d2)
    basis <- if (eig_basis) lewl_hkh_eigen(K)
    G <- NULL
    dg <- NULL
    marks <- NULL
  } else {
    nx <- if (inherits(x, "sparseMatrix")) Matrix::rowSums(x^2) else rowSums(x^2)
    lewl_check_overflow(nx, x)
    if (is.null(gamma)) {
      # the median heuristic on the pairs of (at most) 2000 rows drawn at random
      s <- if (n > 2000) sort(sample.int(n, 2000)) else seq_len(n)
      d2s <- lewl_dist2(x[s, , drop = FALSE], nx[s], x[s, , drop = FALSE], nx[s])
      gamma <- lewl_median_gamma(d2s[upper.tri(d2s)])
      rm(d2s)
    }
    r <- if (is.null(landmarks)) min(n, lewl_default_landmarks) else min(n, landmarks)
    marks <- sort(sample.int(n, r))
    G <- lewl_nystrom(x, nx, marks, gamma)
    dg <- attr(G, "dg")
    attr(G, "dg") <- NULL
    if (!isTRUE(nystrom_diag)) dg <- NULL
    # G'G for the Gram route of the Z-step (the low-rank kernel term), and
    # with the diagonal for the warm start of its eigensolver from the
    # low-rank part (mlss.lewl_eig_warm_gram), once per prepared kernel: a
    # fit, each fold of cv_lewl() across its grid
    attr(G, "GtG") <- crossprod(G)
    K <- NULL
    basis <- NULL
  }
  near <- knn_search(x, knn)
  nb <- near$index
  dist_nb <- as.vector(near$distance)^2
  if (is.null(t)) {
    t <- stats::median(dist_nb)
    if (!(t > 0)) t <- max(mean(dist_nb), 1)
  } else {
    t <- check_nonnegative(t, "t")
    if (t == 0) stop_arg("'t' must be > 0")
  }
  W <- lewl_graph(nb, near$distance^2, t)
  list(K = K, basis = basis, G = G, dg = dg, route = route, landmarks = marks, W = W, t = t,
       gamma = gamma, knn = knn, neighbours = nb)
}

# Whether lewl_prepare() decomposes H K H for the Z-step's basis route: when
# the prepared kernel serves several fits (`shared`: each fold of cv_lewl()
# across its grid; one fit of a few iterations does not repay the
# decomposition: yeast's 2417 rows take 6-15 iterations, 9-17 CPU s in all,
# while at 2500 rows it takes the preparation from 1.6 to 24.6 CPU s), above
# the rows where dsyevr on the formed matrix is faster (n = 1200,
# LEWL_DENSE_MAX of lewl_core.h; bench/lewl_eigbasis_results.md) and up to
# the exact/Nystrom switch (no
# second n x n matrix above it, even with the exact kernel forced); or forced.
lewl_use_basis <- function(n, shared = FALSE, method = getOption("mlss.lewl_eigen", "auto")) {
  identical(method, "basis") ||
    (identical(method, "auto") && shared && n > 1200L && n <= lewl_exact_max)
}

# The eigendecomposition H K H = V diag(s) V' (all n pairs) for the Z-step's
# basis route (?lewl), once per prepared kernel: list(V, s).
lewl_hkh_eigen <- function(K) {
  e <- eigen(centre_kernel(K), symmetric = TRUE)
  list(V = e$vectors, s = e$values)
}

# squared norms beyond ~1e308 (values beyond ~1e150) make d2 Inf - Inf
lewl_check_overflow <- function(cross, x) {
  if (!all(is.finite(cross)))
    stop_arg("the squared distances of 'x' overflow (its largest absolute value after ",
             "centring is ", format(max_abs(x), digits = 3), "): rescale 'x' (for example ",
             "divide it by a power of 10)")
}

lewl_median_gamma <- function(d2) {
  med <- stats::median(d2)
  if (!(med > 0)) stop_arg("the rows of 'x' are (nearly) all identical: give 'gamma'")
  1 / med
}

# Squared distances between the rows of a and of b (norms na, nb), dense.
lewl_dist2 <- function(a, na, b, nb) {
  cross <- as.matrix(tcrossprod(a, b))
  d2 <- pmax(outer(na, nb, "+") - 2 * cross, 0)
  dimnames(d2) <- NULL
  d2
}

# The Nystrom factor of the Gaussian kernel on the landmark rows `marks`:
# K ~ C W^+ C' with C = K(x, landmarks) (n x r, in blocks of rows) and W =
# K(landmarks, landmarks) = U diag(s) U'; F = C U s^(-1/2) over the
# eigenvalues above 1e-10 s_max, and G = H F (centred columns), so that
# H K H ~ G G'.  Memory: a few n x r matrices.
lewl_nystrom <- function(x, nx, marks, gamma) {
  xl <- x[marks, , drop = FALSE]
  Wl <- exp(-gamma * lewl_dist2(xl, nx[marks], xl, nx[marks]))
  diag(Wl) <- 1
  e <- eigen(Wl, symmetric = TRUE)
  keep <- e$values > 1e-10 * e$values[1]
  P <- e$vectors[, keep, drop = FALSE] * rep(1 / sqrt(e$values[keep]), each = nrow(Wl))
  n <- nrow(x)
  G <- matrix(0, n, ncol(P))
  step <- max(1L, as.integer(4e6 %/% length(marks)))
  for (s in seq(1L, n, by = step)) {
    rows <- s:min(n, s + step - 1L)
    Cb <- exp(-gamma * lewl_dist2(x[rows, , drop = FALSE], nx[rows], xl, nx[marks]))
    Cb[cbind(match(marks, rows), seq_along(marks))[marks %in% rows, , drop = FALSE]] <- 1
    G[rows, ] <- Cb %*% P
  }
  # the diagonal the factor misses (K_ii = 1): 1 - |F_i|^2 >= 0
  dg <- pmax(1 - rowSums(G^2), 0)
  G <- sweep(G, 2, colMeans(G))
  attr(G, "dg") <- dg
  G
}

# The symmetric weight matrix: an edge where either end is among the other's
# neighbours (union), weight exp(-d2 / t) with d2 the squared distance
# (nb2: n x knn, aligned with nb); a dgCMatrix with both triangles.  An edge
# found from both ends is kept once.
lewl_graph <- function(nb, nb2, t) {
  n <- nrow(nb)
  i <- rep(seq_len(n), ncol(nb))
  j <- as.vector(nb)
  lo <- pmin(i, j)
  hi <- pmax(i, j)
  once <- !duplicated(lo + (hi - 1) * as.double(n))
  w <- exp(-as.vector(nb2)[once] / t)
  W <- Matrix::sparseMatrix(i = c(lo[once], hi[once]), j = c(hi[once], lo[once]),
                            x = c(w, w), dims = c(n, n))
  methods::as(W, "generalMatrix")
}

# The alternating updates (C), on prepared features.  Z0: a warm start of
# the first Z-step's eigensolver (n x k0), start: of Yt (n x m, the observed
# entries are reset to y).  The eigensolver's settings (internal): eig_method
# "auto" (the dense LAPACK route only where the iterative basis would exceed
# n / 2; on a Nystrom factor the Gram route, or with its diagonal above 1200
# rows the projected one; on the exact kernel with prep$basis the basis
# route, lewl_core.h), "dense", "iterative", "gram", "projected" or "basis";
# its block size k + eig_extra, Krylov depth,
# restarts and residual tolerance (eigs_core.h).
lewl_solve <- function(y, prep, k, lambda, beta, recovery, init, tol, max_iter,
                       cg_tol = 1e-10, cg_max = 1000L, Z0 = NULL, start = NULL,
                       eig_method = getOption("mlss.lewl_eigen", "auto"),
                       eig_extra = 10L, eig_depth = 3L, eig_max_restart = 1000L,
                       eig_tol = lewl_eig_tol, relax = getOption("mlss.lewl_relax", 1),
                       accel = getOption("mlss.lewl_accel", lewl_default_accel),
                       eig_warm_gram = getOption("mlss.lewl_eig_warm_gram", TRUE),
                       stop = getOption("mlss.lewl_stop", if (isTRUE(getOption(
                         "mlss.lewl_stop_terms", FALSE))) "terms" else lewl_default_stop),
                       xtol = sqrt(tol)) {
  if (!is.character(stop) || length(stop) != 1 ||
      !stop %in% c("objective", "terms", "settled"))
    stop_arg("options(mlss.lewl_stop) must be \"settled\", \"objective\" or \"terms\" ",
             "(the stopping test of the iterations, see ?lewl)")
  if (!is.numeric(relax) || length(relax) != 1 || !(relax >= 1 && relax < 2))
    stop_arg("options(mlss.lewl_relax) must be one number in [1, 2) (the over-relaxation ",
             "of the recovery step; 1, the default, is none)")
  if (!is.numeric(accel) || length(accel) != 1 || !(accel >= 0 && accel <= 50) ||
      accel != round(accel))
    stop_arg("options(mlss.lewl_accel) must be one whole number in [0, 50] (the depth of ",
             "the Anderson mixing of the missing entries; 0 is none)")
  ynum <- y + 0  # logical -> double, NA kept
  storage.mode(ynum) <- "double"
  miss <- is.na(y)
  if (is.null(start)) {
    start <- ynum
    start[miss] <- init
  } else {
    start <- unname(start)
    storage.mode(start) <- "double"
    start[!miss] <- ynum[!miss]
  }
  factor <- !is.null(prep$G)
  eig <- c(match(eig_method, c("auto", "dense", "iterative", "gram", "projected",
                               "basis")) - 1L,
           as.integer(k + eig_extra), as.integer(eig_depth), as.integer(eig_max_restart),
           as.integer(isTRUE(eig_warm_gram)),
           match(stop, c("objective", "terms", "settled")) - 1L)
  if (!is.null(Z0)) {
    Z0 <- unname(Z0)
    storage.mode(Z0) <- "double"
  }
  res <- .Call(C_lewl_fit, ynum, start, if (factor) prep$G else prep$K,
               if (factor && !is.null(prep$dg)) as.double(prep$dg) else factor,
               native_matrix(prep$W), as.integer(k), as.double(lambda), as.double(beta),
               as.integer(max_iter), as.double(c(tol, xtol)),
               match(recovery, c("exact", "paper")) - 1L, as.double(cg_tol),
               as.integer(cg_max), Z0, eig, as.double(eig_tol), as.double(relax),
               as.integer(accel), if (!factor) prep$basis)
  if (res$eig_unconverged > 0L)
    warn_not_converged_msg("lewl: the eigensolver of the Z-step stopped at ",
                           eig_max_restart, " restarts before its residuals fell below ",
                           format(eig_tol), " in ", res$eig_unconverged, " of ",
                           res$iter, " iterations")
  converged <- res$status == 0L
  if (!converged)
    warn_not_converged_msg("lewl: the objective did not converge in ", max_iter,
                           " iterations (relative change above tol = ", format(tol), "); ",
                           if (beta == 0 && any(miss))
                             paste0("at beta = 0 nothing ties the missing entries to their ",
                                    "neighbours and they often drift without settling, so ",
                                    "'max_iter' decides the fit: use beta > 0 (see ?lewl)")
                           else "raise 'max_iter'")
  # one sign per embedding direction (largest entry positive), D to match
  s <- apply(res$Z, 2, function(z) if (z[which.max(abs(z))] < 0) -1 else 1)
  Z <- res$Z * rep(s, each = nrow(res$Z))
  D <- res$D * s
  dimnames(Z) <- list(rownames(y), paste0("Z", seq_len(k)))
  dimnames(D) <- list(colnames(Z), colnames(y))
  Yt <- res$Yt
  dimnames(Yt) <- dimnames(y)
  recovered <- ynum
  recovered[miss] <- pmin(pmax(Yt[miss], 0), 1)
  list(Z = Z, D = D, completed = Yt, recovered = recovered, missing = miss,
       values = res$values, objective = res$objective, cg_iterations = res$cg_iter,
       eig_products = res$eig_products, steps = res$steps, rates = res$rates,
       accel_steps = res$accel_steps,
       accel_rejected = res$accel_rejected, iterations = res$iter, converged = converged)
}

# The regression from x to Z: a list(predict = function(newx), type, model).
# The predictors are made by user_predictor() and ridge_predictor(), whose
# frames hold only what prediction needs: a closure made here would keep this
# frame, x and Z, and through the unforced promises of its arguments the
# caller's frame with the n x n kernel (117 MB in saveRDS() at n = 4000).
lewl_regression <- function(x, Z, regressor, ridge, gamma) {
  if (is.function(regressor)) {
    f <- regressor(x, Z)
    if (!is.function(f))
      stop_arg("'regressor' must return a function(newx) (the predictor)")
    return(list(predict = user_predictor(f, ncol(Z)), type = "user", model = f))
  }
  kernel <- if (regressor == "kernel_ridge") "rbf"
  model <- mlls_solve(x, Z, alpha = 0, beta = ridge, r = 1L, intercept = TRUE,
                      kernel = kernel, gamma = gamma)
  model$labels <- colnames(Z)
  model$res <- NULL
  list(predict = ridge_predictor(model), type = regressor, model = model)
}

ridge_predictor <- function(model) {
  force(model)
  function(newx) mlls_scores(model, newx)
}

user_predictor <- function(f, k) {
  force(f)
  force(k)
  function(newx) {
    out <- as.matrix(f(newx))
    if (!is.numeric(out) || nrow(out) != nrow(newx) || ncol(out) != k)
      stop_arg("the predictor returned by 'regressor' must give a ", nrow(newx), " x ",
               k, " numeric matrix")
    out
  }
}

# The adaptive threshold: the cut maximising F1 of the training scores on the
# observed training entries, over all of them at once ("global", the paper's
# one-dimensional vector) or label by label.
lewl_thresholds <- function(score, y, threshold) {
  obs <- !is.na(y)
  thr <- if (threshold == "global") {
    rep(f1_thresholds(score[obs], y[obs])$threshold, ncol(y))
  } else {
    vapply(seq_len(ncol(y)), function(j)
      unname(f1_thresholds(score[obs[, j], j], y[obs[, j], j])$threshold), 0)
  }
  stats::setNames(unname(thr), colnames(y))
}
