/* .Call glue shared by the linear baselines (logistic.c, linsvm.c): the rows
 * of the data as the solvers want them. */
#include <R.h>
#include <Rinternals.h>
#include "mlss.h"
#include "br_rows.h"

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
