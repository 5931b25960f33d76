/* .Call glue for the evaluation measures. */
#include <R.h>
#include <Rinternals.h>
#include "mlss.h"
#include "metrics_core.h"

/* y: n x m logical; score: n x m double or NULL; pred: n x m logical or NULL;
 * codes: 0-based measure codes.  Returns one value per code. */
SEXP ml_metrics_call(SEXP y, SEXP score, SEXP pred, SEXP codes)
{
    int n = Rf_nrows(y), m = Rf_ncols(y);
    if (!Rf_isLogical(y) || !Rf_isInteger(codes) ||
        (!Rf_isNull(score) && (!Rf_isReal(score) || Rf_nrows(score) != n || Rf_ncols(score) != m)) ||
        (!Rf_isNull(pred) && (!Rf_isLogical(pred) || Rf_nrows(pred) != n || Rf_ncols(pred) != m)))
        Rf_error("internal: bad arguments to ml_metrics");
    ml_eval e = {n, m, LOGICAL(y), Rf_isNull(pred) ? NULL : LOGICAL(pred),
                 Rf_isNull(score) ? NULL : REAL(score)};
    R_xlen_t k = XLENGTH(codes);
    SEXP out = PROTECT(Rf_allocVector(REALSXP, k));
    for (R_xlen_t j = 0; j < k; j++) {
        int code = INTEGER(codes)[j];
        if (code < 0 || code >= MEASURE_COUNT) Rf_error("internal: unknown measure code");
        REAL(out)[j] = ml_measure(code, &e);
    }
    UNPROTECT(1);
    return out;
}

/* One measure on every fold at one grid point.  score: n x m out-of-fold
 * scores; y: n x m logical; foldid in 1..nfolds; thresholds: m x nfolds, the
 * labels of fold k being score > thresholds[, k].  Returns the nfolds values. */
SEXP cv_point_measures_call(SEXP score, SEXP y, SEXP foldid, SEXP thresholds, SEXP code)
{
    if (!Rf_isReal(score) || !Rf_isMatrix(score) || !Rf_isLogical(y) ||
        !Rf_isInteger(foldid) || !Rf_isReal(thresholds) || !Rf_isMatrix(thresholds))
        Rf_error("internal: bad arguments to cv_point_measures");
    int n = Rf_nrows(score), m = Rf_ncols(score), nfolds = Rf_ncols(thresholds);
    int cd = Rf_asInteger(code);
    if (Rf_nrows(y) != n || Rf_ncols(y) != m || XLENGTH(foldid) != n ||
        Rf_nrows(thresholds) != m || cd < 0 || cd >= MEASURE_COUNT)
        Rf_error("internal: bad dimensions in cv_point_measures");
    const int *fid = INTEGER(foldid), *yl = LOGICAL(y);
    const double *s = REAL(score);
    int *size = (int *) R_alloc((size_t) nfolds + 1, sizeof(int)), nmax = 0;
    for (int k = 0; k < nfolds; k++) size[k] = 0;
    for (int i = 0; i < n; i++) {
        if (fid[i] < 1 || fid[i] > nfolds) Rf_error("internal: bad fold number");
        size[fid[i] - 1]++;
    }
    for (int k = 0; k < nfolds; k++) nmax = size[k] > nmax ? size[k] : nmax;
    /* one fold's rows at a time: memory of the largest fold, not of all rows */
    int *ysub = (int *) R_alloc((size_t) nmax * m + 1, sizeof(int));
    int *psub = (int *) R_alloc((size_t) nmax * m + 1, sizeof(int));
    int *rows = (int *) R_alloc((size_t) nmax + 1, sizeof(int));
    /* the scores themselves only for the measures that rank them */
    double *ssub = measure_needs_scores(cd) ?
        (double *) R_alloc((size_t) nmax * m + 1, sizeof(double)) : NULL;
    SEXP out = PROTECT(Rf_allocVector(REALSXP, nfolds));
    for (int k = 0; k < nfolds; k++) {
        int nk = 0;
        const double *thr = REAL(thresholds) + (size_t) k * m;
        for (int i = 0; i < n; i++)
            if (fid[i] == k + 1) rows[nk++] = i;
        for (int l = 0; l < m; l++) {
            const double *sl = s + IDX(0, l, n);
            const int *ylab = yl + IDX(0, l, n);
            for (int a = 0; a < nk; a++) {
                int i = rows[a];
                if (ssub) ssub[IDX(a, l, nk)] = sl[i];
                ysub[IDX(a, l, nk)] = ylab[i];
                psub[IDX(a, l, nk)] = sl[i] > thr[l];
            }
        }
        ml_eval e = {nk, m, ysub, psub, ssub};
        REAL(out)[k] = ml_measure(cd, &e);
    }
    UNPROTECT(1);
    return out;
}
