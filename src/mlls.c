/* .Call glue for MLLS: unpack the data, decompose the centred data (a dense
 * X directly by a thin SVD; a sparse X through its d x d or n x n Gram
 * matrix; a kernel matrix by its eigendecomposition), hand the rank-t problem
 * to mlls_tspace() and map its answer back to the feature space. */
#include <R.h>
#include <Rinternals.h>
#include <string.h>
#include "linalg.h"
#include "mlls_core.h"
#include "mlss.h"

/* out (p x k) = basis (p x t) diag(f) A (t x k), f = NULL for the identity. */
static void basis_times(int p, int t, int k, const double *basis, const double *f,
                        const double *A, double *out)
{
    double *FA = (double *) R_alloc((size_t) t * k + 1, sizeof(double));
    for (int c = 0; c < k; c++)
        for (int i = 0; i < t; i++)
            FA[IDX(i, c, t)] = (f ? f[i] : 1.0) * A[IDX(i, c, t)];
    gemm('N', 'N', p, k, t, 1.0, basis, p, FA, t, 0.0, out, p);
}

typedef struct {
    mlls_decomp dec;
    int r;
    double *G, *T, *V;  /* Theta' = basis G (primal), U = basis T, V = G'T */
} mlls_solution;

static void solve_tspace(mlls_solution *sol, int m, int r, int n, double alpha,
                         double beta)
{
    int t = sol->dec.t;
    sol->G = (double *) R_alloc((size_t) t * r + 1, sizeof(double));
    sol->T = (double *) R_alloc((size_t) t * m + 1, sizeof(double));
    sol->V = (double *) R_alloc((size_t) r * m + 1, sizeof(double));
    R_CheckUserInterrupt();
    mlss_stop(mlls_tspace(t, m, r, (double) n, sol->dec.s, sol->dec.P, alpha, beta,
                          sol->G, sol->T, sol->V, &sol->r), "mlls");
}

/* Dual path shared by linear (sparse, d > n) and kernel fits: sol->dec holds
 * the eigendecomposition of the centred n x n Gram matrix.  Fills the rest of
 * sol, the dual coefficients A = U1 diag(1/s) T (n x m) and B = U1 diag(1/s) G
 * (n x r), and the centred fitted values unless fitted is NULL. */
static void fit_dual(int n, int m, int r, double alpha, double beta, mlls_solution *sol,
                     double **A, double **B, double *fitted)
{
    solve_tspace(sol, m, r, n, alpha, beta);
    int t = sol->dec.t;
    double *sinv = (double *) R_alloc((size_t) t + 1, sizeof(double));
    for (int i = 0; i < t; i++) sinv[i] = 1.0 / sol->dec.s[i];
    *A = (double *) R_alloc((size_t) n * m + 1, sizeof(double));
    *B = (double *) R_alloc((size_t) n * sol->r + 1, sizeof(double));
    basis_times(n, t, m, sol->dec.basis, sinv, sol->T, *A);
    basis_times(n, t, sol->r, sol->dec.basis, sinv, sol->G, *B);
    if (fitted) basis_times(n, t, m, sol->dec.basis, sol->dec.s, sol->T, fitted);  /* U1 diag(s) T */
}

static SEXP result_list(SEXP coef, SEXP theta, const mlls_solution *sol, int m,
                        SEXP fitted, SEXP ycenter)
{
    const char *names[] = {"coef", "theta", "V", "fitted", "s", "r", "y_center",
                           "lowest", "direct", "cond", ""};
    SEXP res = PROTECT(Rf_mkNamed(VECSXP, names));
    SET_VECTOR_ELT(res, 0, coef);
    SET_VECTOR_ELT(res, 1, theta);
    SET_VECTOR_ELT(res, 2, matrix_head(sol->V, sol->r, m));
    SET_VECTOR_ELT(res, 3, fitted);
    SET_VECTOR_ELT(res, 4, numeric_copy(sol->dec.s, sol->dec.t));
    SET_VECTOR_ELT(res, 5, Rf_ScalarInteger(sol->r));
    SET_VECTOR_ELT(res, 6, ycenter);
    SET_VECTOR_ELT(res, 7, Rf_ScalarReal(sol->dec.lowest));
    SET_VECTOR_ELT(res, 8, Rf_ScalarLogical(sol->dec.direct));
    SET_VECTOR_ELT(res, 9, Rf_ScalarReal(sol->dec.cond));
    UNPROTECT(1);
    return res;
}

static void add_to_columns(SEXP fitted, int n, int m, const double *v)
{
    if (Rf_isNull(fitted)) return;
    double *A = REAL(fitted);
    for (int l = 0; l < m; l++)
        for (int i = 0; i < n; i++) A[IDX(i, l, n)] += v[l];
}

/* A second centring pass over the dense centred copy X->x (n x d, owned by
 * centre_features()): the first pass leaves a constant error of up to
 * n * eps * |mean| in each column, large when a column has a big offset
 * relative to its spread; the means of the centred columns remove it.  mu
 * takes the correction, so that it stays the mean of the data. */
static void recentre_dense(mlss_mat *X, double *mu)
{
    int n = X->nrow, d = X->ncol;
    double *Xc = (double *) X->x;  /* the R_alloc'd copy, not the user's data */
    for (int j = 0; j < d; j++) {
        double s = 0.0, *col = Xc + IDX(0, j, n);
        for (int i = 0; i < n; i++) s += col[i];
        s /= n;
        for (int i = 0; i < n; i++) col[i] -= s;
        mu[j] += s;
    }
}

/* Theta' (d x r) <- its Q factor and V <- Theta U: the dual back-map
 * Theta' = Xc'U1 diag(1/s) G loses orthonormality in proportion to
 * s_max / s_min; U = Xc'A keeps its accuracy, and V must be Theta U exactly. */
static void orthonormalize_theta(int d, int m, int r, double *theta, const double *U,
                                 double *V)
{
    if (r == 0) return;
    if (qr_orthonormalize(d, r, theta) != 0) mlss_stop(MLSS_ERR_QR, "mlls");
    gemm('T', 'N', r, m, d, 1.0, theta, d, U, d, 0.0, V, r);
}

/* The n x m fitted values, or NULL when not wanted (cross-validation's refit
 * takes its thresholds from out-of-fold scores: no n x m training scores). */
static SEXP fitted_values(SEXP want, int n, int m)
{
    return Rf_asLogical(want) ? Rf_allocMatrix(REALSXP, n, m) : R_NilValue;
}

static double *fitted_ptr(SEXP fitted)
{
    return Rf_isNull(fitted) ? NULL : REAL(fitted);
}

/* Linear MLLS.  x: a list from native_matrix() (dense n x d, or the slots of a
 * dgCMatrix); y: n x m targets (logical labels, coded +1/-1, or real).  The centred data go
 * through their d x d (primal) or n x n (dual) Gram matrix, a sparse x
 * centred implicitly; a dense x for which that would lose accuracy at this
 * beta is decomposed directly (thin SVD by QR when d <= n, LQ when d > n).
 * Returns list(coef = U (d x m), theta = Theta' (d x r), V, fitted (NULL
 * unless want_fitted), s, r, y_center, lowest). */
SEXP mlls_fit(SEXP x, SEXP y, SEXP alpha, SEXP beta, SEXP r, SEXP intercept, SEXP dual,
              SEXP tol, SEXP want_fitted)
{
    mlss_mat X = unpack_matrix(x, "x");
    int n = X.nrow, d = X.ncol, m = Rf_ncols(y), rr = Rf_asInteger(r);
    int centre = Rf_asLogical(intercept);
    double a = Rf_asReal(alpha), b = Rf_asReal(beta), reltol = Rf_asReal(tol);
    check_targets(y, n);
    if (rr < 0 || ISNAN(a) || ISNAN(b) || ISNAN(reltol))
        Rf_error("mlls: invalid r, alpha, beta or tol");

    SEXP ycenter = PROTECT(Rf_allocVector(REALSXP, m));
    label_rows pos;
    int sparse_labels;
    double *Yc = centred_targets(y, centre, REAL(ycenter), &pos, &sparse_labels);
    double *means = centre_features(&X, centre);
    if (means && !X.i) recentre_dense(&X, means);
    const double *mu = X.i ? means : NULL;  /* implicit centring of a sparse x */

    mlls_solution sol;
    SEXP coef = PROTECT(Rf_allocMatrix(REALSXP, d, m));
    SEXP fitted = PROTECT(fitted_values(want_fitted, n, m));
    SEXP theta;
    int primal_form;
    mlss_stop(mlls_decompose_data(&X, mu, Yc, sparse_labels ? &pos : NULL, m, reltol, b,
                                  Rf_asLogical(dual), &sol.dec, &primal_form), "mlls");
    if (!primal_form) {
        double *A, *B;
        fit_dual(n, m, rr, a, b, &sol, &A, &B, fitted_ptr(fitted));
        mat_tprod(&X, mu, A, m, REAL(coef));  /* U = Xc'A */
        theta = PROTECT(Rf_allocMatrix(REALSXP, d, sol.r));
        mat_tprod(&X, mu, B, sol.r, REAL(theta));
        orthonormalize_theta(d, m, sol.r, REAL(theta), REAL(coef), sol.V);
    } else {
        solve_tspace(&sol, m, rr, n, a, b);
        basis_times(d, sol.dec.t, m, sol.dec.basis, NULL, sol.T, REAL(coef));
        theta = PROTECT(Rf_allocMatrix(REALSXP, d, sol.r));
        basis_times(d, sol.dec.t, sol.r, sol.dec.basis, NULL, sol.G, REAL(theta));
        if (!Rf_isNull(fitted)) mat_prod(&X, mu, REAL(coef), m, REAL(fitted));
    }
    add_to_columns(fitted, n, m, REAL(ycenter));
    SEXP res = result_list(coef, theta, &sol, m, fitted, ycenter);
    UNPROTECT(4);
    return res;
}

/* Kernel MLLS on a precomputed n x n kernel matrix (centred here when
 * intercept).  Returns list(coef = A (n x m), theta = B (n x r), V, fitted
 * (NULL unless want_fitted), s, r, y_center): scores of new points are
 * k~(x, X) A + y_center. */
SEXP mlls_fit_gram(SEXP kernel, SEXP y, SEXP alpha, SEXP beta, SEXP r,
                   SEXP intercept, SEXP tol, SEXP want_fitted)
{
    int n = Rf_nrows(kernel), m = Rf_ncols(y), rr = Rf_asInteger(r);
    int centre = Rf_asLogical(intercept);
    double a = Rf_asReal(alpha), b = Rf_asReal(beta), reltol = Rf_asReal(tol);
    if (!Rf_isReal(kernel) || Rf_ncols(kernel) != n)
        Rf_error("mlls: the kernel must be a square double matrix");
    check_targets(y, n);
    if (rr < 0 || ISNAN(a) || ISNAN(b) || ISNAN(reltol))
        Rf_error("mlls: invalid r, alpha, beta or tol");

    SEXP ycenter = PROTECT(Rf_allocVector(REALSXP, m));
    double *Yc = center_columns(y, centre, REAL(ycenter));
    double *K = (double *) R_alloc((size_t) n * n + 1, sizeof(double)), *A, *B;
    memcpy(K, REAL(kernel), sizeof(double) * (size_t) n * n);
    if (centre) center_gram(n, K);

    mlls_solution sol;
    SEXP fitted = PROTECT(fitted_values(want_fitted, n, m));
    mlss_stop(mlls_decompose_dual(n, K, Yc, m, reltol, &sol.dec), "mlls");
    fit_dual(n, m, rr, a, b, &sol, &A, &B, fitted_ptr(fitted));
    add_to_columns(fitted, n, m, REAL(ycenter));
    SEXP coef = PROTECT(matrix_head(A, n, m));
    SEXP theta = PROTECT(matrix_head(B, n, sol.r));
    SEXP res = result_list(coef, theta, &sol, m, fitted, ycenter);
    UNPROTECT(4);
    return res;
}
