/* MLLS, shared-subspace multi-label least squares, in the rank-t space of X.
 * The equations are those of methods.md, section 1 ("Efficient algorithm"). */
#ifndef MLSS_MLLS_CORE_H
#define MLSS_MLLS_CORE_H

#include "linalg.h"

/* Status codes returned to the glue (0 is success, > 0 is a LAPACK info). */
#define MLLS_OK 0
#define MLLS_ERR_SVD -1
#define MLLS_ERR_QR -2
#define MLLS_ERR_CHOL -3
#define MLLS_ERR_EIGEN -4

/* The decomposition of the centred data, Xc = U1 diag(s) V1', that every
 * (alpha, beta) shares: s, the basis (V1, d x t, in the primal form; U1,
 * n x t, in the dual form) and P = diag(s) U1'Yc = V1'Xc'Yc (t x m). */
typedef struct {
    int t, p;       /* rank, rows of the basis */
    double *s;      /* t */
    double *basis;  /* p x t */
    double *P;      /* t x m */
} mlls_decomp;

int mlls_decompose_primal(const mlss_mat *X, const double *mu, const double *Yc, int m,
                          double tol, mlls_decomp *dec);
int mlls_decompose_dual(int n, double *K, const double *Yc, int m, double tol,
                        mlls_decomp *dec);
int mlls_tspace(int t, int m, int r, double n, const double *s, const double *P,
                double alpha, double beta, double *G, double *T, double *V,
                int *r_used);
/* The same for cross-validation when fast: Theta from a symmetric
 * eigenproblem instead of an SVD (see mlls_theta), with PPt = P P' (t x t)
 * precomputed when m > t; V may be NULL when it is not wanted. */
int mlls_tspace_pp(int t, int m, int r, double n, const double *s, const double *P,
                   const double *PPt, int fast, double alpha, double beta, double *G,
                   double *T, double *V, int *r_used);

#endif
