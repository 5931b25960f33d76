/* .Call glue for MDDM: unpack the data, centre it, decompose it (primal d x d
 * or dual n x n Gram matrix; or the direct d x d generalised eigenproblem),
 * hand the small problem to mddm_core.c and map the projection back to the
 * features. */
#include <R.h>
#include <Rinternals.h>
#include <float.h>
#include <math.h>
#include <string.h>
#include "linalg.h"
#include "mddm_core.h"
#include "mlss.h"

#define MDDM_PRIMAL 0
#define MDDM_DUAL 1
#define MDDM_DIRECT 2

static void mddm_stop(int status)
{
    switch (status) {
    case MDDM_ERR_SVD: Rf_error("mddm: the SVD of the label cross-product failed");
    case MDDM_ERR_EIGEN: Rf_error("mddm: the eigendecomposition did not converge");
    default: if (status != 0) Rf_error("mddm: LAPACK error %d", status);
    }
}

/* The efficient path: P (d x kmax) = V1 F from the thin SVD of Xc through the
 * d x d (primal) or n x n (dual) Gram matrix; s gets the t singular values. */
static void mddm_efficient(mlss_mat *X, const double *cm, const double *R, int q,
                           int dual, double mu, double reltol, double ktol, int *t,
                           double *s, int *rank, double *values, double **F,
                           double **basis)
{
    int n = X->nrow, d = X->ncol, p = dual ? n : d;
    double *gram = (double *) R_alloc((size_t) p * p + 1, sizeof(double));
    *basis = (double *) R_alloc((size_t) p * p + 1, sizeof(double));
    if (dual) gram_outer(X, cm, gram); else gram_cross(X, cm, gram);
    if (gram_singular(p, gram, reltol, t, s, *basis) != 0) mddm_stop(MDDM_ERR_EIGEN);
    R_CheckUserInterrupt();

    double *Q = (double *) R_alloc((size_t) *t * q + 1, sizeof(double));
    if (dual) {  /* Q = diag(s) U1'R */
        gemm('T', 'N', *t, q, n, 1.0, *basis, n, R, n, 0.0, Q, *t);
        for (int l = 0; l < q; l++)
            for (int i = 0; i < *t; i++) Q[IDX(i, l, *t)] *= s[i];
    } else {     /* Q = V1'Xc'R */
        double *XtR = (double *) R_alloc((size_t) d * q + 1, sizeof(double));
        mat_tprod(X, cm, R, q, XtR);
        gemm('T', 'N', *t, q, d, 1.0, *basis, d, XtR, d, 0.0, Q, *t);
    }
    *F = (double *) R_alloc((size_t) *t * q + 1, sizeof(double));
    mddm_stop(mddm_tspace(*t, q, mu, s, Q, ktol, rank, values, *F));
}

/* MDDM.  x: dense n x d matrix, or the @x slot of a dgCMatrix with xi (@i)
 * and xp (@p); dim = c(n, d); labels: n x q factor R of the centred label
 * kernel (HLH = RR'); k: the dimension wanted, or share > 0: the share of the
 * eigenvalues to reach; method: 0 primal, 1 dual, 2 direct.
 * Returns list(P (d x k), values (the rank non-zero eigenvalues), s (singular
 * values of the centred data; NULL for the direct path), center (d)). */
SEXP mddm_fit(SEXP x, SEXP xi, SEXP xp, SEXP dim, SEXP labels, SEXP mu, SEXP k,
              SEXP share, SEXP method, SEXP tol)
{
    mlss_mat X = unpack_matrix(x, xi, xp, dim);
    int n = X.nrow, d = X.ncol, q = Rf_ncols(labels), kk = Rf_asInteger(k);
    int how = Rf_asInteger(method);
    double m = Rf_asReal(mu), sh = Rf_asReal(share), reltol = Rf_asReal(tol);
    double ktol = sqrt(DBL_EPSILON);
    if (!Rf_isReal(labels) || Rf_nrows(labels) != n)
        Rf_error("mddm: labels must be a double matrix with %d rows", n);
    if (!(m >= 0.0 && m <= 1.0) || kk < 1 || !(sh >= 0.0 && sh < 1.0) ||
        how < MDDM_PRIMAL || how > MDDM_DIRECT)
        Rf_error("mddm: invalid mu, k, share or method");
    const double *R = REAL(labels);

    SEXP center = PROTECT(Rf_allocVector(REALSXP, d));
    const double *cm = center_columns(&X, REAL(center));
    int kmax = q < d ? q : d, t = 0, rank = 0;
    double *values = (double *) R_alloc((size_t) q + 1, sizeof(double));
    double *s = NULL, *F = NULL, *basis = NULL, *Pd = NULL;

    if (how == MDDM_DIRECT) {
        double *G = (double *) R_alloc((size_t) d * d + 1, sizeof(double));
        double *XtR = (double *) R_alloc((size_t) d * q + 1, sizeof(double));
        Pd = (double *) R_alloc((size_t) d * kmax + 1, sizeof(double));
        gram_cross(&X, cm, G);
        mat_tprod(&X, cm, R, q, XtR);
        R_CheckUserInterrupt();
        mddm_stop(mddm_direct(d, q, m, G, XtR, reltol, ktol, &rank, values, Pd));
    } else {
        s = (double *) R_alloc((size_t) (how == MDDM_DUAL ? n : d) + 1, sizeof(double));
        mddm_efficient(&X, cm, R, q, how == MDDM_DUAL, m, reltol, ktol, &t, s, &rank,
                       values, &F, &basis);
    }

    int kuse = mddm_choose_k(rank, values, kk, sh);
    SEXP P = PROTECT(Rf_allocMatrix(REALSXP, d, kuse));
    if (how == MDDM_DIRECT) {
        if (kuse > 0) memcpy(REAL(P), Pd, sizeof(double) * (size_t) d * kuse);
    } else if (how == MDDM_PRIMAL) {  /* P = V1 F */
        gemm('N', 'N', d, kuse, t, 1.0, basis, d, F, t, 0.0, REAL(P), d);
    } else {                          /* P = Xc' U1 diag(1/s) F */
        double *B = (double *) R_alloc((size_t) n * kuse + 1, sizeof(double));
        for (int c = 0; c < kuse; c++)
            for (int i = 0; i < t; i++) F[IDX(i, c, t)] /= s[i];
        gemm('N', 'N', n, kuse, t, 1.0, basis, n, F, t, 0.0, B, n);
        mat_tprod(&X, cm, B, kuse, REAL(P));
    }

    const char *names[] = {"P", "values", "s", "center", ""};
    SEXP res = PROTECT(Rf_mkNamed(VECSXP, names));
    SET_VECTOR_ELT(res, 0, P);
    SEXP vals = Rf_allocVector(REALSXP, rank);
    SET_VECTOR_ELT(res, 1, vals);
    if (rank > 0) memcpy(REAL(vals), values, sizeof(double) * rank);
    if (s) {
        SEXP sv = Rf_allocVector(REALSXP, t);
        SET_VECTOR_ELT(res, 2, sv);
        if (t > 0) memcpy(REAL(sv), s, sizeof(double) * t);
    }
    SET_VECTOR_ELT(res, 3, center);
    UNPROTECT(3);
    return res;
}
