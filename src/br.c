/* .Call glue shared by the linear baselines (logistic.c, linsvm.c): the rows
 * of the data as the solvers want them, and the regularisation path of binary
 * relevance with warm starts along an increasing cost grid. */
#include <R.h>
#include <Rinternals.h>
#include <string.h>
#include "mlss.h"
#include "br_rows.h"
#include "logistic_core.h"
#include "linsvm_core.h"

/* spec = list(x = native_matrix(x) or NULL, z = n x q double matrix or NULL,
 * xscale, bias), made by linear_spec() in R.  A sparse x (CSC) is turned into
 * CSR, a dense one into row-major order, both in R_alloc memory. */
lin_rows build_rows(SEXP spec)
{
    lin_rows D = {0, 0, 0, NULL, NULL, NULL, 1.0, NULL, 0.0};
    if (!Rf_isNewList(spec) || XLENGTH(spec) != 4) Rf_error("internal: malformed row spec");
    SEXP nat = VECTOR_ELT(spec, 0), z = VECTOR_ELT(spec, 1);
    D.xscale = Rf_asReal(VECTOR_ELT(spec, 2));
    D.bias = Rf_asReal(VECTOR_ELT(spec, 3));
    D.n = -1;
    if (!Rf_isNull(nat)) {
        mlss_mat X = unpack_matrix(nat, "x");
        int n = X.nrow, d = X.ncol;
        D.n = n;
        D.d = d;
        if (X.i) {
            csr_rows R = csc_to_csr(&X);
            D.x = R.val;
            D.ind = R.ind;
            D.ptr = R.ptr;
        } else {
            double *xr = (double *) R_alloc((size_t) n * d, sizeof(double));
            for (int j = 0; j < d; j++)
                for (int i = 0; i < n; i++) xr[(size_t) i * d + j] = X.x[IDX(i, j, n)];
            D.x = xr;
        }
    }
    if (!Rf_isNull(z)) {
        if (!Rf_isReal(z) || !Rf_isMatrix(z)) Rf_error("internal: z must be a double matrix");
        int n = Rf_nrows(z), q = Rf_ncols(z);
        if (D.n >= 0 && n != D.n) Rf_error("internal: x and z differ in rows");
        D.n = n;
        D.q = q;
        double *zr = (double *) R_alloc((size_t) n * q + 1, sizeof(double));
        for (int k = 0; k < q; k++)
            for (int i = 0; i < n; i++) zr[(size_t) i * q + k] = REAL(z)[IDX(i, k, n)];
        D.z = zr;
    }
    if (D.n < 1) Rf_error("internal: no data in the row spec");
    return D;
}

/* The labels (n x m, double +-1), costs and instance weights, checked. */
void check_linear_problem(const lin_rows *D, SEXP y, SEXP weight)
{
    check_targets(y, D->n);
    if (!Rf_isNull(weight) && (!Rf_isReal(weight) || XLENGTH(weight) != D->n))
        Rf_error("internal: the instance weights must be a double vector of length n");
}

/* The seed of the SVM's visiting order: fixed, so that a fit is a function of
 * its data alone, the same in a forked worker (whose R generator mclapply()
 * reseeds from the clock) as in the session, and leaves R's stream alone. */
unsigned int solver_seed(void)
{
    return 2463534242u;
}

/* Binary relevance along an increasing cost grid, each label warm-started
 * from its solution at the previous cost (logistic: the weights; SVM: the
 * dual variables scaled by the ratio of the costs, which keeps them feasible).
 * learner: 1 logistic, 2 SVM (loss 1 hinge, 2 squared hinge).
 * Returns list(W = p x m x K array, iter = m x K, status = m x K). */
SEXP br_path(SEXP spec, SEXP y, SEXP costs, SEXP weight, SEXP learner, SEXP loss,
             SEXP eps, SEXP max_iter)
{
    lin_rows D = build_rows(spec);
    check_linear_problem(&D, y, weight);
    int n = D.n, p = lin_dim(&D), m = Rf_ncols(y), K = LENGTH(costs);
    int which = Rf_asInteger(learner), lss = Rf_asInteger(loss), maxit = Rf_asInteger(max_iter);
    double tol = Rf_asReal(eps);
    const double *wt = Rf_isNull(weight) ? NULL : REAL(weight), *C = REAL(costs);
    if (!Rf_isReal(costs) || K < 1) Rf_error("internal: costs must be doubles");
    for (int k = 0; k < K; k++)
        if (!(C[k] > 0) || (k > 0 && C[k] < C[k - 1]))
            Rf_error("internal: costs must be positive and increasing");

    const char *names[] = {"W", "iter", "status", ""};
    SEXP res = PROTECT(Rf_mkNamed(VECSXP, names));
    SEXP dims = PROTECT(Rf_allocVector(INTSXP, 3));
    INTEGER(dims)[0] = p; INTEGER(dims)[1] = m; INTEGER(dims)[2] = K;
    SEXP W = PROTECT(Rf_allocArray(REALSXP, dims));
    SEXP iters = PROTECT(Rf_allocMatrix(INTSXP, m, K));
    SEXP status = PROTECT(Rf_allocMatrix(INTSXP, m, K));
    double *w = (double *) R_alloc((size_t) p, sizeof(double));
    double *alpha = (double *) R_alloc((size_t) n, sizeof(double));
    for (int l = 0; l < m; l++) {
        const double *yl = REAL(y) + IDX(0, l, n);
        unsigned int seed = solver_seed();
        memset(w, 0, sizeof(double) * (size_t) p);
        memset(alpha, 0, sizeof(double) * (size_t) n);
        for (int k = 0; k < K; k++) {
            int it = 0, st;
            if (which == 1) {
                st = logistic_fit(&D, yl, wt, C[k], tol, maxit, w, &it);
            } else {
                if (k > 0)
                    for (int i = 0; i < n; i++) alpha[i] *= C[k] / C[k - 1];
                st = linsvm_fit(&D, yl, wt, C[k], lss, tol, maxit, seed, alpha, w, &it);
            }
            memcpy(REAL(W) + (size_t) p * (l + (size_t) m * k), w, sizeof(double) * (size_t) p);
            INTEGER(iters)[l + m * k] = it;
            INTEGER(status)[l + m * k] = st;
        }
    }
    SET_VECTOR_ELT(res, 0, W);
    SET_VECTOR_ELT(res, 1, iters);
    SET_VECTOR_ELT(res, 2, status);
    UNPROTECT(5);
    return res;
}
