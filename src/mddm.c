/* .Call glue for MDDM: unpack the data, centre it, decompose it (primal d x d
 * or dual n x n Gram matrix; or the direct d x d generalised eigenproblem),
 * hand the small problem to mddm_core.c and map the projection back to the
 * features. */
#include <R.h>
#include <Rinternals.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <string.h>
#include "linalg.h"
#include "mddm_core.h"
#include "mlls_core.h"
#include "mlss.h"

#define MDDM_PRIMAL 0
#define MDDM_DUAL 1
#define MDDM_DIRECT 2

/* The efficient path: the thin SVD of Xc through the d x d (primal) or n x n
 * (dual) Gram matrix, shared with MLLS (mlls_decompose_*: the label factor R
 * plays the part of the centred labels, so dec->P is Q = V1'Xc'R), then the
 * t x q problem; P = V1 F in the primal form. */
static void mddm_efficient(mlss_mat *X, const double *mu_x, const double *R, int q,
                           int dual, double mu, double reltol, double ktol,
                           mlls_decomp *dec, int *rank, double *values, double **F)
{
    int n = X->nrow, status;
    if (dual) {
        double *K = (double *) R_alloc((size_t) n * n + 1, sizeof(double));
        gram_outer(X, mu_x, K);
        status = mlls_decompose_dual(n, K, R, q, reltol, dec);
    } else {
        status = mlls_decompose_primal(X, mu_x, R, q, reltol, dec);
    }
    mlss_stop(status, "mddm");
    R_CheckUserInterrupt();
    *F = (double *) R_alloc((size_t) dec->t * q + 1, sizeof(double));
    mlss_stop(mddm_tspace(dec->t, q, mu, dec->s, dec->P, ktol, rank, values, *F), "mddm");
}

/* MDDM.  x: native_matrix() of the data (dense n x d, or the slots of a
 * dgCMatrix); labels: n x q factor R of the centred label
 * kernel (HLH = RR'); k: the dimension wanted, or share > 0: the share of the
 * eigenvalues to reach; method: 0 primal, 1 dual, 2 direct.
 * Returns list(P (d x k), values (the rank non-zero eigenvalues), s (singular
 * values of the centred data; NULL for the direct path), center (d)). */
SEXP mddm_fit(SEXP x, SEXP labels, SEXP mu, SEXP k, SEXP share, SEXP method, SEXP tol)
{
    mlss_mat X = unpack_matrix(x, "x");
    int n = X.nrow, d = X.ncol, q = Rf_ncols(labels), kk = Rf_asInteger(k);
    int how = Rf_asInteger(method);
    double m = Rf_asReal(mu), sh = Rf_asReal(share), reltol = Rf_asReal(tol);
    double ktol = sqrt(DBL_EPSILON);
    check_targets(labels, n);
    if (!(m >= 0.0 && m <= 1.0) || kk < 1 || !(sh >= 0.0 && sh < 1.0) ||
        how < MDDM_PRIMAL || how > MDDM_DIRECT)
        Rf_error("mddm: invalid mu, k, share or method");
    const double *R = REAL(labels);

    double *means = centre_features(&X, 1);
    const double *cm = X.i ? means : NULL;  /* implicit centring of a sparse x */
    int kmax = q < d ? q : d, rank = 0;
    double *values = (double *) R_alloc((size_t) q + 1, sizeof(double));
    double *F = NULL, *Pd = NULL;
    mlls_decomp dec = {0, 0, NULL, NULL, NULL};

    if (how == MDDM_DIRECT) {
        double *G = (double *) R_alloc((size_t) d * d + 1, sizeof(double));
        double *XtR = (double *) R_alloc((size_t) d * q + 1, sizeof(double));
        Pd = (double *) R_alloc((size_t) d * kmax + 1, sizeof(double));
        gram_cross(&X, cm, G);
        mat_tprod(&X, cm, R, q, XtR);
        R_CheckUserInterrupt();
        mlss_stop(mddm_direct(d, q, m, G, XtR, reltol, ktol, &rank, values, Pd), "mddm");
    } else {
        mddm_efficient(&X, cm, R, q, how == MDDM_DUAL, m, reltol, ktol, &dec, &rank,
                       values, &F);
    }
    int t = dec.t;

    int kuse = mddm_choose_k(rank, values, kk, sh);
    SEXP P = PROTECT(Rf_allocMatrix(REALSXP, d, kuse));
    if (how == MDDM_DIRECT) {
        if (kuse > 0) memcpy(REAL(P), Pd, sizeof(double) * (size_t) d * kuse);
    } else if (how == MDDM_PRIMAL) {  /* P = V1 F */
        gemm('N', 'N', d, kuse, t, 1.0, dec.basis, d, F, t, 0.0, REAL(P), d);
    } else {                          /* P = Xc' U1 diag(1/s) F */
        double *B = (double *) R_alloc((size_t) n * kuse + 1, sizeof(double));
        for (int c = 0; c < kuse; c++)
            for (int i = 0; i < t; i++) F[IDX(i, c, t)] /= dec.s[i];
        gemm('N', 'N', n, kuse, t, 1.0, dec.basis, n, F, t, 0.0, B, n);
        mat_tprod(&X, cm, B, kuse, REAL(P));
    }

    const char *names[] = {"P", "values", "s", "center", ""};
    SEXP res = PROTECT(Rf_mkNamed(VECSXP, names));
    SET_VECTOR_ELT(res, 0, P);
    SET_VECTOR_ELT(res, 1, numeric_copy(values, rank));
    if (how != MDDM_DIRECT) SET_VECTOR_ELT(res, 2, numeric_copy(dec.s, t));
    SET_VECTOR_ELT(res, 3, numeric_copy(means, d));
    UNPROTECT(2);
    return res;
}

/* The dimension mddm_fit() keeps, from decreasing eigenvalues: k (capped at
 * their number) or, when share > 0, the smallest k reaching that share of
 * their sum.  ssmddm() chooses its number of targets with it. */
SEXP mddm_choose_k_call(SEXP values, SEXP k, SEXP share)
{
    if (!Rf_isReal(values) || XLENGTH(values) > INT_MAX) Rf_error("internal: values must be double");
    return Rf_ScalarInteger(mddm_choose_k((int) XLENGTH(values), REAL(values), Rf_asInteger(k),
                                          Rf_asReal(share)));
}
