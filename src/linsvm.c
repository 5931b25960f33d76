/* .Call glue for the L2-regularised linear SVM, one binary problem per label. */
#include <R.h>
#include <Rinternals.h>
#include <string.h>
#include "mlss.h"
#include "br_rows.h"
#include "linsvm_core.h"

/* spec: see build_rows(); y: n x m double, +-1; cost: m; weight: n or NULL;
 * loss: 1 hinge, 2 squared hinge; alpha0: n x m dual start or NULL; w0: p x m
 * primal start or NULL (turned into a dual one; alpha0 wins when both given).
 * Returns list(W = p x m, alpha = n x m, iter = m, status = m, gap = m), gap the
 * relative duality gap at the returned point (see linsvm_relative_gap()). */
SEXP linsvm_fit_call(SEXP spec, SEXP y, SEXP cost, SEXP weight, SEXP loss, SEXP eps,
                     SEXP max_iter, SEXP alpha0, SEXP w0)
{
    lin_rows D = build_rows(spec);
    check_linear_problem(&D, y, weight);
    int n = D.n, p = lin_dim(&D), m = Rf_ncols(y), maxit = Rf_asInteger(max_iter);
    int lss = Rf_asInteger(loss);
    if (lss != LINSVM_HINGE && lss != LINSVM_SQUARED_HINGE) Rf_error("internal: bad loss");
    if (!Rf_isReal(cost) || LENGTH(cost) != m) Rf_error("internal: one cost per label");
    if (!Rf_isNull(alpha0) && (!Rf_isReal(alpha0) || Rf_nrows(alpha0) != n || Rf_ncols(alpha0) != m))
        Rf_error("internal: the dual start must be a %d x %d double matrix", n, m);
    if (!Rf_isNull(w0) && (!Rf_isReal(w0) || Rf_nrows(w0) != p || Rf_ncols(w0) != m))
        Rf_error("internal: the primal start must be a %d x %d double matrix", p, m);
    const double *wt = Rf_isNull(weight) ? NULL : REAL(weight);

    SEXP W = PROTECT(Rf_allocMatrix(REALSXP, p, m));
    SEXP A = PROTECT(Rf_allocMatrix(REALSXP, n, m));
    SEXP iters = PROTECT(Rf_allocVector(INTSXP, m));
    SEXP status = PROTECT(Rf_allocVector(INTSXP, m));
    SEXP gap = PROTECT(Rf_allocVector(REALSXP, m));
    for (int l = 0; l < m; l++) {
        /* the solver's R_alloc scratch (O(n) per label) is released per label */
        const void *vmax = vmaxget();
        const double *yl = REAL(y) + IDX(0, l, n);
        double *a = REAL(A) + IDX(0, l, n), C = REAL(cost)[l];
        if (!Rf_isNull(alpha0))
            memcpy(a, REAL(alpha0) + IDX(0, l, n), sizeof(double) * (size_t) n);
        else if (!Rf_isNull(w0))
            linsvm_dual_from_primal(&D, yl, wt, C, lss, REAL(w0) + IDX(0, l, p), a);
        else
            memset(a, 0, sizeof(double) * (size_t) n);
        INTEGER(status)[l] = linsvm_fit(&D, yl, wt, C, lss, Rf_asReal(eps), maxit,
                                        solver_seed(), a, REAL(W) + IDX(0, l, p),
                                        INTEGER(iters) + l);
        REAL(gap)[l] = linsvm_relative_gap(&D, yl, wt, C, lss, a, REAL(W) + IDX(0, l, p));
        vmaxset(vmax);
    }
    const char *names[] = {"W", "alpha", "iter", "status", "gap", ""};
    SEXP res = named_list(names, W, A, iters, status, gap);
    UNPROTECT(5);
    return res;
}
