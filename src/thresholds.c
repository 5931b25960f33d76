/* .Call glue: per-label F1-maximising thresholds of an n x m score matrix. */
#include <R.h>
#include <Rinternals.h>
#include "linalg.h"
#include "mlss.h"
#include "thresholds_core.h"

/* The chance rule's level as R passes it (chance_level() in thresholds.R,
 * the option mlss.chance_level, validated there): one number in [0, 1]. */
double chance_level_arg(SEXP level)
{
    if (!Rf_isReal(level) || XLENGTH(level) != 1) Rf_error("internal: bad chance level");
    double lv = REAL(level)[0];
    if (ISNAN(lv) || lv < 0 || lv > 1) Rf_error("internal: bad chance level");
    return lv;
}

/* score: n x m double; y: n x m logical; level: the chance rule's level (1:
 * the plain F1 maximum).  Returns list(threshold, f1). */
SEXP f1_thresholds(SEXP score, SEXP y, SEXP level)
{
    double lv = chance_level_arg(level);
    int n = Rf_nrows(score), m = Rf_ncols(score);
    if (!Rf_isReal(score) || !Rf_isLogical(y) || Rf_nrows(y) != n || Rf_ncols(y) != m)
        Rf_error("internal: score must be double and y logical, of the same dimensions");
    const char *names[] = {"threshold", "f1", ""};
    SEXP res = PROTECT(Rf_mkNamed(VECSXP, names));
    SEXP thr = Rf_allocVector(REALSXP, m);
    SET_VECTOR_ELT(res, 0, thr);
    SEXP f1 = Rf_allocVector(REALSXP, m);
    SET_VECTOR_ELT(res, 1, f1);
    double *buf = (double *) R_alloc((size_t) n + 1, sizeof(double));
    int *idx = (int *) R_alloc((size_t) n + 1, sizeof(int));
    for (int l = 0; l < m; l++)
        REAL(thr)[l] = f1_threshold(n, REAL(score) + IDX(0, l, n),
                                    LOGICAL(y) + IDX(0, l, n), buf, idx, lv,
                                    REAL(f1) + l);
    UNPROTECT(1);
    return res;
}

/* The two routes of the out-of-fold thresholds of thresholds_core.c. */
typedef void (*point_route)(int n, int m, int nfolds, const double *score, const int *y,
                            const int *foldid, double *thr, double *f1, int nthreads,
                            double level);

/* score: n x m out-of-fold scores of one grid point; y: n x m logical;
 * foldid in 1..nfolds; level: the chance rule's.  Returns the m x (nfolds + 2)
 * matrix of the thresholds chosen on the folds other than k (column k), the
 * one on all folds, and the F1 of that one (last column). */
static SEXP point_thresholds(SEXP score, SEXP y, SEXP foldid, SEXP nfolds, SEXP nthreads,
                             SEXP level, point_route route)
{
    double lv = chance_level_arg(level);
    int nf = Rf_asInteger(nfolds);
    if (!Rf_isReal(score) || !Rf_isMatrix(score) || !Rf_isLogical(y) ||
        !Rf_isInteger(foldid) || nf < 1)
        Rf_error("internal: bad arguments to the out-of-fold thresholds");
    int n = Rf_nrows(score), m = Rf_ncols(score);
    if (Rf_nrows(y) != n || Rf_ncols(y) != m || XLENGTH(foldid) != n)
        Rf_error("internal: bad dimensions in the out-of-fold thresholds");
    SEXP thr = PROTECT(Rf_allocMatrix(REALSXP, m, nf + 2));
    route(n, m, nf, REAL(score), LOGICAL(y), INTEGER(foldid), REAL(thr),
          REAL(thr) + (size_t) m * (nf + 1), Rf_asInteger(nthreads), lv);
    UNPROTECT(1);
    return thr;
}

/* The engine's route (the fast one where it applies). */
SEXP cv_point_thresholds_call(SEXP score, SEXP y, SEXP foldid, SEXP nfolds, SEXP nthreads,
                              SEXP level)
{
    return point_thresholds(score, y, foldid, nfolds, nthreads, level, cv_point_thresholds);
}

/* The sorted route only: the reference the tests and bench/thresholds.R
 * compare the fast route with. */
SEXP cv_point_thresholds_sorted_call(SEXP score, SEXP y, SEXP foldid, SEXP nfolds,
                                     SEXP nthreads, SEXP level)
{
    return point_thresholds(score, y, foldid, nfolds, nthreads, level,
                            cv_point_thresholds_sorted);
}
