/* MDDM in the rank-t space of the centred data, and the direct reference.
 *
 * Problem: max tr(P' S2 P) s.t. P' S1 P = I, with the centred data Xc (n x d),
 * a factor R (n x q) of the centred label kernel (HLH = R R'), and
 *
 *   S2 = Xc' R R' Xc,   S1 = mu Xc'Xc + (1 - mu) I.
 *
 * Efficient form.  With the thin SVD Xc = U1 diag(s) V1' (rank t),
 * b = mu s^2 + (1 - mu) and w = b^{-1/2}:
 *
 *   S1 = V1 diag(b) V1' + (1 - mu) V2 V2',   S2 = V1 diag(s) U1'RR'U1 diag(s) V1'
 *
 * so S1^{-1/2} S2 S1^{-1/2} = V1 diag(w) Q Q' diag(w) V1' with Q = diag(s) U1'R
 * = V1'Xc'R (t x q): its non-zero eigenvalues are the squared singular values
 * of C = Q' diag(w) (q x t), its eigenvectors V1 E with E the right singular
 * vectors of C, and the generalised eigenvectors are P = V1 diag(w) E.  The
 * complement V2 of span(V1) only carries zero eigenvalues.  With mu = 1, b = s^2
 * and P = V1 diag(1/s) E is the minimum-norm solution (S1 is then singular
 * when t < d and any V2 component could be added).
 *
 * Direct form (the reference, O(d^3)): S1 = Qs diag(l) Qs' with the eigenvalues
 * l > reltol * max (all of them when mu < 1; range(S1) = span(V1) when mu = 1),
 * W = Qs diag(l^{-1/2}), P = W E with E the eigenvectors of W'S2W.
 */
#include <R.h>
#include <float.h>
#include <math.h>
#include <string.h>
#include "linalg.h"
#include "mddm_core.h"

/* F (t x min(q, t)): P = V1 F for the `rank` informative directions, whose
 * eigenvalues go to values (decreasing).  Eigenvalues at or below ktol times
 * the largest count as zero. */
int mddm_tspace(int t, int q, double mu, const double *s, const double *Q,
                double ktol, int *rank, double *values, double *F)
{
    int k = q < t ? q : t;
    *rank = 0;
    if (k == 0) return MLSS_OK;
    double *w = (double *) R_alloc((size_t) t, sizeof(double));
    double *C = (double *) R_alloc((size_t) q * t, sizeof(double));
    double *sv = (double *) R_alloc((size_t) k, sizeof(double));
    double *VT = (double *) R_alloc((size_t) k * t, sizeof(double));

    for (int i = 0; i < t; i++) w[i] = 1.0 / sqrt(mu * s[i] * s[i] + (1.0 - mu));
    for (int i = 0; i < t; i++)
        for (int l = 0; l < q; l++) C[IDX(l, i, q)] = Q[IDX(i, l, t)] * w[i];
    if (svd_right(q, t, C, sv, VT) != 0) return MLSS_ERR_SVD;
    double top = sv[0] * sv[0];
    while (*rank < k && sv[*rank] * sv[*rank] > ktol * top) {
        values[*rank] = sv[*rank] * sv[*rank];
        (*rank)++;
    }
    for (int c = 0; c < *rank; c++)
        for (int i = 0; i < t; i++) F[IDX(i, c, t)] = w[i] * VT[IDX(c, i, k)];
    return MLSS_OK;
}

/* The generalised eigenproblem on d x d matrices.  G = Xc'Xc (d x d, upper
 * triangle used, destroyed), XtR = Xc'R (d x q).  P (d x min(q, d)) receives
 * the `rank` informative generalised eigenvectors, values their eigenvalues. */
int mddm_direct(int d, int q, double mu, double *G, const double *XtR,
                double reltol, double ktol, int *rank, double *values, double *P)
{
    int t = 0, kmax = q < d ? q : d;
    double *l = (double *) R_alloc((size_t) d, sizeof(double));
    double *W = (double *) R_alloc((size_t) d * d, sizeof(double));
    *rank = 0;

    for (int j = 0; j < d; j++) {  /* S1 = mu G + (1 - mu) I */
        for (int i = 0; i <= j; i++) G[IDX(i, j, d)] *= mu;
        G[IDX(j, j, d)] += 1.0 - mu;
    }
    if (sym_eigen_desc(d, G, reltol, &t, l, W) != 0) return MLSS_ERR_EIGEN;
    if (t == 0) return MLSS_OK;
    for (int c = 0; c < t; c++) {
        double f = 1.0 / sqrt(l[c]);
        for (int i = 0; i < d; i++) W[IDX(i, c, d)] *= f;
    }
    double *S2 = (double *) R_alloc((size_t) d * d, sizeof(double));
    double *S2W = (double *) R_alloc((size_t) d * t, sizeof(double));
    double *M = (double *) R_alloc((size_t) t * t, sizeof(double));
    double *ev = (double *) R_alloc((size_t) t, sizeof(double));
    double *E = (double *) R_alloc((size_t) t * t, sizeof(double));
    gemm('N', 'T', d, d, q, 1.0, XtR, d, XtR, d, 0.0, S2, d);
    gemm('N', 'N', d, t, d, 1.0, S2, d, W, d, 0.0, S2W, d);
    gemm('T', 'N', t, t, d, 1.0, W, d, S2W, d, 0.0, M, t);
    if (sym_eigen_desc(t, M, ktol, rank, ev, E) != 0) return MLSS_ERR_EIGEN;
    if (*rank > kmax) *rank = kmax;
    memcpy(values, ev, sizeof(double) * (size_t) *rank);
    gemm('N', 'N', d, *rank, t, 1.0, W, d, E, t, 0.0, P, d);
    return MLSS_OK;
}

/* The dimension to return: k itself (capped at the rank), or, when share > 0,
 * the smallest k whose eigenvalues reach that share of their sum. */
int mddm_choose_k(int rank, const double *values, int k, double share)
{
    if (share > 0.0) {
        double total = 0.0, cum = 0.0;
        for (int i = 0; i < rank; i++) total += values[i];
        for (int i = 0; i < rank; i++) {
            cum += values[i];
            if (cum >= share * total * (1.0 - 1e-12)) return i + 1;
        }
        return rank;
    }
    return k < rank ? k : rank;
}
