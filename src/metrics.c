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

/* One measure for every grid point and fold.  oof: n x m x ngrid out-of-fold
 * scores; y: n x m logical; foldid in 1..nfolds; thresholds: m x ngrid x
 * nfolds, the labels of fold k at grid point g being oof > thresholds[, g, k].
 * Returns the ngrid x nfolds matrix of the measure on each fold. */
SEXP cv_measures_call(SEXP oof, SEXP y, SEXP foldid, SEXP thresholds, SEXP code)
{
    SEXP dim = Rf_getAttrib(oof, R_DimSymbol), tdim = Rf_getAttrib(thresholds, R_DimSymbol);
    if (!Rf_isReal(oof) || XLENGTH(dim) != 3 || !Rf_isLogical(y) || !Rf_isInteger(foldid) ||
        !Rf_isReal(thresholds) || XLENGTH(tdim) != 3)
        Rf_error("internal: bad arguments to cv_measures");
    int n = INTEGER(dim)[0], m = INTEGER(dim)[1], ngrid = INTEGER(dim)[2];
    int nfolds = INTEGER(tdim)[2], cd = Rf_asInteger(code);
    if (Rf_nrows(y) != n || Rf_ncols(y) != m || XLENGTH(foldid) != n ||
        INTEGER(tdim)[0] != m || INTEGER(tdim)[1] != ngrid || cd < 0 || cd >= MEASURE_COUNT)
        Rf_error("internal: bad dimensions in cv_measures");
    const int *fid = INTEGER(foldid);
    int *ysub = (int *) R_alloc((size_t) n * m + 1, sizeof(int));
    int *psub = (int *) R_alloc((size_t) n * m + 1, sizeof(int));
    double *ssub = (double *) R_alloc((size_t) n * m + 1, sizeof(double));
    SEXP out = PROTECT(Rf_allocMatrix(REALSXP, ngrid, nfolds));
    for (int k = 0; k < nfolds; k++) {
        int nk = 0;
        for (int i = 0; i < n; i++) nk += fid[i] == k + 1;
        for (int g = 0; g < ngrid; g++) {
            const double *s = REAL(oof) + (size_t) g * n * m;
            const double *thr = REAL(thresholds) + (size_t) k * m * ngrid + (size_t) g * m;
            for (int l = 0; l < m; l++)
                for (int i = 0, a = 0; i < n; i++) {
                    if (fid[i] != k + 1) continue;
                    ssub[IDX(a, l, nk)] = s[IDX(i, l, n)];
                    ysub[IDX(a, l, nk)] = LOGICAL(y)[IDX(i, l, n)];
                    psub[IDX(a, l, nk)] = s[IDX(i, l, n)] > thr[l];
                    a++;
                }
            ml_eval e = {nk, m, ysub, psub, ssub};
            REAL(out)[IDX(g, k, ngrid)] = ml_measure(cd, &e);
        }
    }
    UNPROTECT(1);
    return out;
}
