/* .Call glue: per-label F1-maximising thresholds of an n x m score matrix. */
#include <R.h>
#include <Rinternals.h>
#include "linalg.h"
#include "mlss.h"
#include "thresholds_core.h"

/* score: n x m double; y: n x m logical.  Returns list(threshold, f1). */
SEXP f1_thresholds(SEXP score, SEXP y)
{
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
                                    LOGICAL(y) + IDX(0, l, n), buf, idx, REAL(f1) + l);
    UNPROTECT(1);
    return res;
}
