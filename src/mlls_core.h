/* MLLS, shared-subspace multi-label least squares, in the rank-t space of X.
 * The equations are those of methods.md, section 1 ("Efficient algorithm"). */
#ifndef MLSS_MLLS_CORE_H
#define MLSS_MLLS_CORE_H

#include "linalg.h"

/* The functions below return the codes of status.h (through linalg.h). */

/* The decomposition of the centred data, Xc = U1 diag(s) V1', that every
 * (alpha, beta) shares: s, the basis (V1, d x t, in the primal form; U1,
 * n x t, in the dual form) and P = diag(s) U1'Yc = V1'Xc'Yc (t x m).
 * The primal form of a dense X is the thin SVD of Xc itself (accurate to
 * eps * s_max); the dual form and a sparse X go through the Gram matrix
 * (eigenvalues accurate to eps * s_max^2).  `lowest` is the smallest
 * eigenvalue of the Gram (or kernel) matrix over the largest in absolute
 * value: clearly negative for a kernel that is not positive semi-definite
 * (0 for the SVD route). */
typedef struct {
    int t, p;       /* rank, rows of the basis */
    double *s;      /* t */
    double *basis;  /* p x t */
    double *P;      /* t x m */
    double lowest;  /* see above */
    int direct;     /* 1: the thin SVD of a dense Xc; 0: a Gram matrix */
    double cond;    /* (s_1^2 + n b) / sqrt(s_k^2 (s_k^2 + n b)), b = beta_min, from
                     * the Gram route of mlls_decompose_data(), k = min(n - 1, d):
                     * eps * cond estimates its error in U; 0 if unknown */
} mlls_decomp;

/* The decomposition of the data X (centred, or centred implicitly by mu when
 * sparse) for penalties beta >= beta_min: through the Gram matrix (n x n when
 * dual, else d x d); a dense X whose Gram route would lose accuracy (see
 * MLLS_GRAM_MAX_COND in mlls_core.c) is decomposed directly by a thin SVD,
 * in the primal form.  *primal_form says which form dec has.  pos (or NULL):
 * the positive rows of 0/1 labels whose targets Yc are, for X'Yc on a dense X;
 * Yc may then be NULL, and is made from pos if a route needs it. */
int mlls_decompose_data(const mlss_mat *X, const double *mu, const double *Yc,
                        const label_rows *pos, int m, double tol, double beta_min, int dual,
                        mlls_decomp *dec, int *primal_form);
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
