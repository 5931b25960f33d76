# The registry of the package's methods: one entry per exported fitting
# function, read by the contract test (tests/testthat/test-registry-contract.R),
# which fits every method on dense, sparse and formula input and checks what
# the fitted-model contract promises (R/ml_fit.R, R/predict.R).  A new method
# adds its entry here; the test fails for an exported fitting function that
# has none.
#
# Each entry:
#   fit        function(x, ...) fitting the method on small data (x a matrix,
#              a formula with `data = `, or a data set holding the labels);
#              settings chosen to be fast, not good;
#   cv         the name of its cv_*() function, or NULL (ml_cv() tunes it);
#   types      what predict() returns (type = ), the default first;
#   sparse     does it take a sparse x without densifying?
#   na_labels  the arguments under which it learns from y with NA (list() when
#              it does by default), or NULL when it refuses missing labels;
#   transductive  does the prediction of a row depend on the other new rows
#              (mlml() solves again on all of them)?
#   zero_prob  can type = "prob" be 0 (LP and PS give a label vector that is
#              none of their classes probability 0)?
ml_registry <- function() {
  entry <- function(fit, cv = NULL, types = c("class", "score"), sparse = TRUE,
                    na_labels = list(na_labels = "negative"), transductive = FALSE,
                    zero_prob = FALSE)
    list(fit = fit, cv = cv, types = types, sparse = sparse, na_labels = na_labels,
         transductive = transductive, zero_prob = zero_prob)
  list(
    mlls = entry(function(x, ...) mlls(x, ..., alpha = 1, beta = 0.1), cv = "cv_mlls"),
    mddm = entry(function(x, ...) mddm(x, ..., k = 2),
                 types = c("class", "score", "projection")),
    ssmddm = entry(function(x, ...) ssmddm(x, ..., alpha = 1, beta = 0.1, k = 2, r = 1),
                   cv = "cv_ssmddm", types = c("class", "score", "projection")),
    cplst = entry(function(x, ...) cplst(x, ..., k = 2), cv = "cv_cplst", na_labels = list()),
    br = entry(function(x, ...) br(x, ...), cv = "cv_br",
               na_labels = list(na_labels = "observed")),
    cca_ridge = entry(function(x, ...) cca_ridge(x, ..., lambda = 0.1)),
    cca_svm = entry(function(x, ...) cca_svm(x, ..., lambda = 0.1)),
    aso_svm = entry(function(x, ...) aso_svm(x, ..., alpha = 1, r = 1, tol = 1e-8)),
    cc = entry(function(x, ...) cc(x, ...), cv = "cv_cc", na_labels = NULL),
    pcc = entry(function(x, ...) pcc(x, ...), cv = "cv_pcc",
                types = c("class", "score", "prob"), na_labels = NULL),
    mlcrf = entry(function(x, ...) mlcrf(x, ..., lambda_v = 0.05, lambda_w = 0.05),
                  cv = "cv_mlcrf", types = c("class", "score", "prob")),
    mlknn = entry(function(x, ...) mlknn(x, ..., k = 5), cv = "cv_mlknn", na_labels = NULL),
    iblr = entry(function(x, ...) iblr(x, ..., k = 5), na_labels = NULL),
    mlml = entry(function(x, ...) mlml(x, ..., knn = 5), na_labels = list(),
                 transductive = TRUE),
    lewl = entry(function(x, ...) lewl(x, ..., k = 2, knn = 5), cv = "cv_lewl",
                 na_labels = list()),
    # the toolbox (issue 26): LP and PS decode the most probable label set,
    # RAkEL, ECC and EBR cut averaged votes at 0.5
    lp = entry(function(x, ...) lp(x, ...), cv = "cv_lp",
               types = c("class", "score", "prob"), na_labels = NULL, zero_prob = TRUE),
    ps = entry(function(x, ...) ps(x, ..., p = 2, b = 1), types = c("class", "score", "prob"),
               na_labels = NULL, zero_prob = TRUE),
    rakel = entry(function(x, ...) rakel(x, ..., k = 2), cv = "cv_rakel", na_labels = NULL),
    ecc = entry(function(x, ...) ecc(x, ..., n_models = 3), na_labels = NULL),
    ebr = entry(function(x, ...) ebr(x, ..., n_models = 3), na_labels = NULL),
    # issue 26, the second part: EPS averages votes cut at 0.5; CLR, HOMER,
    # BR+ and DBR cut their scores at the learner's natural cut
    eps = entry(function(x, ...) eps(x, ..., n_models = 3, p = 1), cv = "cv_eps",
                na_labels = NULL),
    clr = entry(function(x, ...) clr(x, ...), cv = "cv_clr", na_labels = NULL),
    homer = entry(function(x, ...) homer(x, ..., k = 2), cv = "cv_homer", na_labels = NULL),
    brplus = entry(function(x, ...) brplus(x, ..., inner_folds = 2), cv = "cv_brplus",
                   na_labels = NULL),
    dbr = entry(function(x, ...) dbr(x, ...), cv = "cv_dbr", na_labels = NULL)
  )
}
