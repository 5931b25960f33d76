/* .Call glue for MLLS: unpack the data, decompose the centred data (primal
 * d x d or dual n x n Gram matrix), hand the rank-t problem to mlls_tspace()
 * and map its answer back to the feature space. */
#include <R.h>
#include <Rinternals.h>
#include <math.h>
#include <string.h>
#include "linalg.h"
#include "mlls_core.h"
#include "mlss.h"

static void mlls_stop(int status)
{
    switch (status) {
    case MLLS_ERR_SVD: Rf_error("mlls: the SVD of the label cross-product failed");
    case MLLS_ERR_QR: Rf_error("mlls: the QR factorisation of the subspace failed");
    case MLLS_ERR_CHOL: Rf_error("mlls: the r x r system is not positive definite");
    case MLLS_ERR_EIGEN: Rf_error("mlls: the eigendecomposition did not converge");
    default: if (status != 0) Rf_error("mlls: LAPACK error %d", status);
    }
}

/* Copy of the n x m label matrix with its column means removed (when centre). */
static double *center_labels(SEXP y, int centre, double *ybar)
{
    int n = Rf_nrows(y), m = Rf_ncols(y);
    double *Yc = (double *) R_alloc((size_t) n * m + 1, sizeof(double));
    const double *Y = REAL(y);
    for (int l = 0; l < m; l++) {
        double s = 0.0;
        for (int i = 0; i < n; i++) s += Y[IDX(i, l, n)];
        ybar[l] = centre ? s / n : 0.0;
        for (int i = 0; i < n; i++) Yc[IDX(i, l, n)] = Y[IDX(i, l, n)] - ybar[l];
    }
    return Yc;
}

/* Copy the first `cols` columns of a matrix with `nrow` rows into a new R matrix. */
static SEXP matrix_head(const double *A, int nrow, int cols)
{
    SEXP out = PROTECT(Rf_allocMatrix(REALSXP, nrow, cols));
    if ((size_t) nrow * cols > 0)
        memcpy(REAL(out), A, sizeof(double) * (size_t) nrow * cols);
    UNPROTECT(1);
    return out;
}

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
    int t, r;
    double *s, *basis, *G, *T, *V;  /* basis: V1 (primal, d x t) or U1 (dual, n x t) */
} mlls_solution;

/* Decompose the centred Gram matrix (p x p, destroyed) and store s and the
 * basis in sol; returns the rank t. */
static int decompose_gram(int p, double *gram, double tol, mlls_solution *sol)
{
    sol->s = (double *) R_alloc((size_t) p + 1, sizeof(double));
    sol->basis = (double *) R_alloc((size_t) p * p + 1, sizeof(double));
    if (sym_eigen_desc(p, gram, tol, &sol->t, sol->s, sol->basis) != 0)
        mlls_stop(MLLS_ERR_EIGEN);
    for (int i = 0; i < sol->t; i++) sol->s[i] = sqrt(sol->s[i]);
    return sol->t;
}

static void solve_tspace(mlls_solution *sol, int m, int r, int n, const double *P,
                         double alpha, double beta)
{
    int t = sol->t;
    sol->G = (double *) R_alloc((size_t) t * r + 1, sizeof(double));
    sol->T = (double *) R_alloc((size_t) t * m + 1, sizeof(double));
    sol->V = (double *) R_alloc((size_t) r * m + 1, sizeof(double));
    R_CheckUserInterrupt();
    mlls_stop(mlls_tspace(t, m, r, (double) n, sol->s, P, alpha, beta, sol->G,
                          sol->T, sol->V, &sol->r));
}

/* Dual path shared by linear (d > n) and kernel fits: K is the centred n x n
 * Gram matrix.  Fills sol, the dual coefficients A = U1 diag(1/s) T (n x m)
 * and B = U1 diag(1/s) G (n x r), and the centred fitted values. */
static void fit_dual(int n, int m, int r, double *K, const double *Yc, double alpha,
                     double beta, double tol, mlls_solution *sol, double **A,
                     double **B, double *fitted)
{
    int t = decompose_gram(n, K, tol, sol);
    double *P = (double *) R_alloc((size_t) t * m + 1, sizeof(double));
    gemm('T', 'N', t, m, n, 1.0, sol->basis, n, Yc, n, 0.0, P, t);
    for (int l = 0; l < m; l++)
        for (int i = 0; i < t; i++) P[IDX(i, l, t)] *= sol->s[i];
    solve_tspace(sol, m, r, n, P, alpha, beta);

    double *sinv = (double *) R_alloc((size_t) t + 1, sizeof(double));
    for (int i = 0; i < t; i++) sinv[i] = 1.0 / sol->s[i];
    *A = (double *) R_alloc((size_t) n * m + 1, sizeof(double));
    *B = (double *) R_alloc((size_t) n * sol->r + 1, sizeof(double));
    basis_times(n, t, m, sol->basis, sinv, sol->T, *A);
    basis_times(n, t, sol->r, sol->basis, sinv, sol->G, *B);
    basis_times(n, t, m, sol->basis, sol->s, sol->T, fitted);  /* Xc U = U1 diag(s) T */
}

static SEXP result_list(SEXP coef, SEXP basis_r, const mlls_solution *sol, int m,
                        SEXP fitted, SEXP ycenter)
{
    const char *names[] = {"coef", "theta", "V", "fitted", "s", "r", "y_center", ""};
    SEXP res = PROTECT(Rf_mkNamed(VECSXP, names));
    SET_VECTOR_ELT(res, 0, coef);
    SET_VECTOR_ELT(res, 1, basis_r);
    SET_VECTOR_ELT(res, 2, matrix_head(sol->V, sol->r, m));
    SET_VECTOR_ELT(res, 3, fitted);
    SEXP s = Rf_allocVector(REALSXP, sol->t);
    SET_VECTOR_ELT(res, 4, s);
    if (sol->t > 0) memcpy(REAL(s), sol->s, sizeof(double) * sol->t);
    SET_VECTOR_ELT(res, 5, Rf_ScalarInteger(sol->r));
    SET_VECTOR_ELT(res, 6, ycenter);
    UNPROTECT(1);
    return res;
}

/* Linear MLLS.  x: dense n x d matrix, or the @x slot of a dgCMatrix with xi
 * (@i) and xp (@p); dim = c(n, d); y: n x m matrix of +1/-1.
 * Returns list(coef = U (d x m), theta = Theta' (d x r), V, fitted, s, r, y_center). */
SEXP mlls_fit(SEXP x, SEXP xi, SEXP xp, SEXP dim, SEXP y, SEXP alpha, SEXP beta,
              SEXP r, SEXP intercept, SEXP dual, SEXP tol)
{
    mlss_mat X = unpack_matrix(x, xi, xp, dim);
    int n = X.nrow, d = X.ncol, m = Rf_ncols(y), rr = Rf_asInteger(r);
    int centre = Rf_asLogical(intercept), use_dual = Rf_asLogical(dual);
    double a = Rf_asReal(alpha), b = Rf_asReal(beta), reltol = Rf_asReal(tol);
    if (!Rf_isReal(y) || Rf_nrows(y) != n) Rf_error("mlls: y must be a double matrix with %d rows", n);
    if (rr < 0 || ISNAN(a) || ISNAN(b)) Rf_error("mlls: invalid r, alpha or beta");

    SEXP ycenter = PROTECT(Rf_allocVector(REALSXP, m));
    double *Yc = center_labels(y, centre, REAL(ycenter));
    double *mu = NULL;
    if (centre) {
        mu = (double *) R_alloc((size_t) d + 1, sizeof(double));
        mat_col_means(&X, mu);
        if (!X.i) {  /* a dense matrix is centred explicitly, for accuracy */
            double *Xc = (double *) R_alloc((size_t) n * d + 1, sizeof(double));
            for (int j = 0; j < d; j++)
                for (int i = 0; i < n; i++) Xc[IDX(i, j, n)] = X.x[IDX(i, j, n)] - mu[j];
            X.x = Xc;
            mu = NULL;
        }
    }

    mlls_solution sol;
    SEXP coef = PROTECT(Rf_allocMatrix(REALSXP, d, m));
    SEXP fitted = PROTECT(Rf_allocMatrix(REALSXP, n, m));
    SEXP theta;
    if (use_dual) {
        double *K = (double *) R_alloc((size_t) n * n + 1, sizeof(double)), *A, *B;
        gram_outer(&X, mu, K);
        fit_dual(n, m, rr, K, Yc, a, b, reltol, &sol, &A, &B, REAL(fitted));
        mat_tprod(&X, mu, A, m, REAL(coef));  /* U = Xc'A */
        theta = PROTECT(Rf_allocMatrix(REALSXP, d, sol.r));
        mat_tprod(&X, mu, B, sol.r, REAL(theta));
    } else {
        double *Gm = (double *) R_alloc((size_t) d * d + 1, sizeof(double));
        double *XtY = (double *) R_alloc((size_t) d * m + 1, sizeof(double));
        gram_cross(&X, mu, Gm);
        int t = decompose_gram(d, Gm, reltol, &sol);
        mat_tprod(&X, mu, Yc, m, XtY);
        double *P = (double *) R_alloc((size_t) t * m + 1, sizeof(double));
        gemm('T', 'N', t, m, d, 1.0, sol.basis, d, XtY, d, 0.0, P, t);  /* V1'Xc'Yc */
        solve_tspace(&sol, m, rr, n, P, a, b);
        basis_times(d, t, m, sol.basis, NULL, sol.T, REAL(coef));
        theta = PROTECT(Rf_allocMatrix(REALSXP, d, sol.r));
        basis_times(d, t, sol.r, sol.basis, NULL, sol.G, REAL(theta));
        mat_prod(&X, mu, REAL(coef), m, REAL(fitted));
    }
    double *f = REAL(fitted);
    for (int l = 0; l < m; l++)
        for (int i = 0; i < n; i++) f[IDX(i, l, n)] += REAL(ycenter)[l];
    SEXP res = result_list(coef, theta, &sol, m, fitted, ycenter);
    UNPROTECT(4);
    return res;
}

/* Kernel MLLS on a precomputed n x n kernel matrix (centred here when
 * intercept).  Returns list(coef = A (n x m), theta = B (n x r), V, fitted, s,
 * r, y_center): scores of new points are k~(x, X) A + y_center. */
SEXP mlls_fit_gram(SEXP kernel, SEXP y, SEXP alpha, SEXP beta, SEXP r,
                   SEXP intercept, SEXP tol)
{
    int n = Rf_nrows(kernel), m = Rf_ncols(y), rr = Rf_asInteger(r);
    int centre = Rf_asLogical(intercept);
    double a = Rf_asReal(alpha), b = Rf_asReal(beta), reltol = Rf_asReal(tol);
    if (!Rf_isReal(kernel) || Rf_ncols(kernel) != n)
        Rf_error("mlls: the kernel must be a square double matrix");
    if (!Rf_isReal(y) || Rf_nrows(y) != n) Rf_error("mlls: y must be a double matrix with %d rows", n);
    if (rr < 0 || ISNAN(a) || ISNAN(b)) Rf_error("mlls: invalid r, alpha or beta");

    SEXP ycenter = PROTECT(Rf_allocVector(REALSXP, m));
    double *Yc = center_labels(y, centre, REAL(ycenter));
    double *K = (double *) R_alloc((size_t) n * n + 1, sizeof(double)), *A, *B;
    memcpy(K, REAL(kernel), sizeof(double) * (size_t) n * n);
    if (centre) center_gram(n, K);

    mlls_solution sol;
    SEXP fitted = PROTECT(Rf_allocMatrix(REALSXP, n, m));
    fit_dual(n, m, rr, K, Yc, a, b, reltol, &sol, &A, &B, REAL(fitted));
    double *f = REAL(fitted);
    for (int l = 0; l < m; l++)
        for (int i = 0; i < n; i++) f[IDX(i, l, n)] += REAL(ycenter)[l];
    SEXP coef = PROTECT(matrix_head(A, n, m));
    SEXP theta = PROTECT(matrix_head(B, n, sol.r));
    SEXP res = result_list(coef, theta, &sol, m, fitted, ycenter);
    UNPROTECT(4);
    return res;
}
