/* .Call glue for the trust-region Newton solver, one binary problem per label:
 * L2 logistic regression, and the L2-loss linear SVM in the primal. */
#include <R.h>
#include <Rinternals.h>
#include <string.h>
#include "mlss.h"
#include "br_rows.h"
#include "logistic_core.h"

/* spec: see build_rows(); y: n x m double, +-1; cost: m; weight: n or NULL;
 * init: p x m starting weights or NULL.
 * Returns list(W = p x m, iter = m, status = m, objective = m, grad_norm = m). */
static SEXP tron_fit_call(SEXP spec, SEXP y, SEXP cost, SEXP weight, SEXP eps,
                          SEXP max_iter, SEXP init, int loss)
{
    lin_rows D = build_rows(spec);
    check_linear_problem(&D, y, weight);
    int n = D.n, p = lin_dim(&D), m = Rf_ncols(y), maxit = Rf_asInteger(max_iter);
    if (!Rf_isReal(cost) || LENGTH(cost) != m) Rf_error("internal: one cost per label");
    if (!Rf_isNull(init) && (!Rf_isReal(init) || Rf_nrows(init) != p || Rf_ncols(init) != m))
        Rf_error("internal: init must be a %d x %d double matrix", p, m);
    const double *wt = Rf_isNull(weight) ? NULL : REAL(weight);

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
        INTEGER(status)[l] = tron_fit(&D, yl, wt, REAL(cost)[l], loss, Rf_asReal(eps),
                                      maxit, w, INTEGER(iters) + l);
        REAL(obj)[l] = tron_objective(&D, yl, wt, REAL(cost)[l], loss, w);
        REAL(gn)[l] = tron_grad_norm(&D, yl, wt, REAL(cost)[l], loss, w);
    }
    const char *names[] = {"W", "iter", "status", "objective", "grad_norm", ""};
    SEXP res = named_list(names, W, iters, status, obj, gn);
    UNPROTECT(5);
    return res;
}

SEXP logistic_fit_call(SEXP spec, SEXP y, SEXP cost, SEXP weight, SEXP eps,
                       SEXP max_iter, SEXP init)
{
    return tron_fit_call(spec, y, cost, weight, eps, max_iter, init, TRON_LOGISTIC);
}

/* The same arguments and result for the squared hinge in the primal. */
SEXP l2svm_primal_fit_call(SEXP spec, SEXP y, SEXP cost, SEXP weight, SEXP eps,
                           SEXP max_iter, SEXP init)
{
    return tron_fit_call(spec, y, cost, weight, eps, max_iter, init, TRON_SQUARED_HINGE);
}
