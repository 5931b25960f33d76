/* .Call glue for L2 logistic regression, one binary problem per label. */
#include <R.h>
#include <Rinternals.h>
#include <string.h>
#include "mlss.h"
#include "br_rows.h"
#include "logistic_core.h"

/* spec: see build_rows(); y: n x m double, +-1; cost: m; weight: n or NULL;
 * init: p x m starting weights or NULL.
 * Returns list(W = p x m, iter = m, status = m, objective = m, grad_norm = m). */
SEXP logistic_fit_call(SEXP spec, SEXP y, SEXP cost, SEXP weight, SEXP eps,
                       SEXP max_iter, SEXP init)
{
    lin_rows D = build_rows(spec);
    check_linear_problem(&D, y, weight);
    int n = D.n, p = lin_dim(&D), m = Rf_ncols(y), maxit = Rf_asInteger(max_iter);
    if (!Rf_isReal(cost) || LENGTH(cost) != m) Rf_error("internal: one cost per label");
    if (!Rf_isNull(init) && (!Rf_isReal(init) || Rf_nrows(init) != p || Rf_ncols(init) != m))
        Rf_error("internal: init must be a %d x %d double matrix", p, m);
    const double *wt = Rf_isNull(weight) ? NULL : REAL(weight);

    const char *names[] = {"W", "iter", "status", "objective", "grad_norm", ""};
    SEXP res = PROTECT(Rf_mkNamed(VECSXP, names));
    SEXP W = PROTECT(Rf_allocMatrix(REALSXP, p, m));
    SEXP iters = PROTECT(Rf_allocVector(INTSXP, m));
    SEXP status = PROTECT(Rf_allocVector(INTSXP, m));
    SEXP obj = PROTECT(Rf_allocVector(REALSXP, m));
    SEXP gn = PROTECT(Rf_allocVector(REALSXP, m));
    for (int l = 0; l < m; l++) {
        double *w = REAL(W) + IDX(0, l, p);
        if (Rf_isNull(init)) memset(w, 0, sizeof(double) * (size_t) p);
        else memcpy(w, REAL(init) + IDX(0, l, p), sizeof(double) * (size_t) p);
        const double *yl = REAL(y) + IDX(0, l, n);
        INTEGER(status)[l] = logistic_fit(&D, yl, wt, REAL(cost)[l], Rf_asReal(eps), maxit,
                                          w, INTEGER(iters) + l);
        REAL(obj)[l] = logistic_objective(&D, yl, wt, REAL(cost)[l], w);
        REAL(gn)[l] = logistic_grad_norm(&D, yl, wt, REAL(cost)[l], w);
    }
    SET_VECTOR_ELT(res, 0, W);
    SET_VECTOR_ELT(res, 1, iters);
    SET_VECTOR_ELT(res, 2, status);
    SET_VECTOR_ELT(res, 3, obj);
    SET_VECTOR_ELT(res, 4, gn);
    UNPROTECT(6);
    return res;
}
