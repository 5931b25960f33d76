/* MLLS in the rank-t space of the (centred) data.
 *
 * With the thin decomposition Xc = U1 diag(s) V1' (t = rank) and
 * P = diag(s) U1'Yc = V1'Xc'Yc (t x m), every quantity of the closed form
 * (Ji et al. 2010, Lemma 2.2 and Theorem 2.3) acts on span(V1):
 *
 *   a = s^2/n + beta,  b = a + alpha
 *   D  = sqrt(b / a)             (the scaling of the eigenvectors)
 *   C  = P' diag(1 / sqrt(a b))  (= Y'U1 diag(Dt) of methods.md)
 *   G  = Q factor of diag(D) P2[, 1:r], P2 the right singular vectors of C
 *   Theta' = V1 G
 *   U  = V1 T,  T = (diag(b) - alpha G G')^{-1} P / n  (Woodbury, below)
 *   V  = Theta U = G'T
 *
 * alpha = Inf: U is confined to span(Theta'); D and C lose a common factor.
 * beta = Inf: U = 0 and Theta spans the top eigenvectors of X'YY'X.
 */
#include <R.h>
#include <float.h>
#include <math.h>
#include <string.h>
#include "linalg.h"
#include "mlls_core.h"

/* Eigendecomposition of a centred Gram matrix (p x p, destroyed) into dec. */
static int decompose_gram(int p, double *gram, double tol, mlls_decomp *dec)
{
    dec->p = p;
    dec->s = (double *) R_alloc((size_t) p + 1, sizeof(double));
    dec->basis = (double *) R_alloc((size_t) p * p + 1, sizeof(double));
    if (sym_eigen_desc(p, gram, tol, &dec->t, dec->s, dec->basis) != 0)
        return MLLS_ERR_EIGEN;
    for (int i = 0; i < dec->t; i++) dec->s[i] = sqrt(dec->s[i]);
    return MLLS_OK;
}

/* Primal form (d <= n): eigendecomposition of Xc'Xc (d x d), P = V1'Xc'Yc.
 * X is centred by mu (NULL: X is centred already). */
int mlls_decompose_primal(const mlss_mat *X, const double *mu, const double *Yc, int m,
                          double tol, mlls_decomp *dec)
{
    int d = X->ncol;
    double *gram = (double *) R_alloc((size_t) d * d + 1, sizeof(double));
    double *XtY = (double *) R_alloc((size_t) d * m + 1, sizeof(double));
    gram_cross(X, mu, gram);
    int status = decompose_gram(d, gram, tol, dec);
    if (status != MLLS_OK) return status;
    mat_tprod(X, mu, Yc, m, XtY);
    dec->P = (double *) R_alloc((size_t) dec->t * m + 1, sizeof(double));
    gemm('T', 'N', dec->t, m, d, 1.0, dec->basis, d, XtY, d, 0.0, dec->P, dec->t);
    return MLLS_OK;
}

/* Dual form (d > n, kernels): eigendecomposition of the centred n x n Gram
 * matrix K (destroyed), P = diag(s) U1'Yc. */
int mlls_decompose_dual(int n, double *K, const double *Yc, int m, double tol,
                        mlls_decomp *dec)
{
    int status = decompose_gram(n, K, tol, dec);
    if (status != MLLS_OK) return status;
    int t = dec->t;
    dec->P = (double *) R_alloc((size_t) t * m + 1, sizeof(double));
    gemm('T', 'N', t, m, n, 1.0, dec->basis, n, Yc, n, 0.0, dec->P, t);
    for (int l = 0; l < m; l++)
        for (int i = 0; i < t; i++) dec->P[IDX(i, l, t)] *= dec->s[i];
    return MLLS_OK;
}

/* Theta: G (t x r) from the top right singular vectors of C = P' diag(e)
 * (m x t), by an SVD of C; or, for cross-validation (fast), from a symmetric
 * eigenproblem, cheaper and exact to the square root of the precision for
 * the smallest singular values (the rank cut-off is taken on the squares):
 * with m > t the top eigenvectors of the t x t matrix C'C = diag(e) PPt diag(e)
 * (PPt = P P' formed once per fold); with m <= t the top eigenvectors U_r of
 * the m x m matrix CC' = W'W, W = diag(e) P, give span(G) = span(diag(D) W U_r).
 * Only the top r eigenpairs are computed, and none when r covers the whole
 * rank.  Returns the number of columns that carry information (r capped at
 * rank(C)). */
static int mlls_theta(int t, int m, int r, const double *P, const double *PPt, int fast,
                      const double *e, const double *D, double *G, int *status)
{
    int k = m < t ? m : t, rank = 0;
    double *sv = (double *) R_alloc((size_t) k + 1, sizeof(double));
    if (fast && m > t && PPt) {
        /* when r >= t the spectrum alone says whether C has full rank t, and
         * then Theta spans the whole rank-t space: G = I */
        int want = r < t ? r : t;
        double *M = (double *) R_alloc((size_t) t * t + 1, sizeof(double));
        double *vec = (double *) R_alloc((size_t) t * want + 1, sizeof(double));
        for (int j = 0; j < t; j++)
            for (int i = 0; i < t; i++) M[IDX(i, j, t)] = e[i] * PPt[IDX(i, j, t)] * e[j];
        int full = want == t;
        double *Mcopy = NULL;
        if (full) {
            Mcopy = (double *) R_alloc((size_t) t * t + 1, sizeof(double));
            memcpy(Mcopy, M, sizeof(double) * (size_t) t * t);
        }
        if (sym_eigen_top(t, full ? Mcopy : M, want, sv, full ? NULL : vec) != 0) {
            *status = MLLS_ERR_SVD;
            return 0;
        }
        double cut = m * DBL_EPSILON * (want > 0 ? sv[0] : 0.0);  /* on squares */
        while (rank < want && sv[rank] > cut) rank++;
        if (full && rank == t) {
            memset(G, 0, sizeof(double) * (size_t) t * t);
            for (int i = 0; i < t; i++) G[IDX(i, i, t)] = 1.0;
            return t;
        }
        if (full && sym_eigen_top(t, M, want, sv, vec) != 0) {
            *status = MLLS_ERR_SVD;
            return 0;
        }
        if (r > rank) r = rank;
        for (int c = 0; c < r; c++)
            for (int i = 0; i < t; i++) G[IDX(i, c, t)] = D[i] * vec[IDX(i, c, t)];
    } else if (fast) {
        /* m <= t; when r >= m and C has rank m, span(G) = span(diag(D) W) */
        int want = r < m ? r : m;
        double *W = (double *) R_alloc((size_t) t * m + 1, sizeof(double));
        double *M = (double *) R_alloc((size_t) m * m + 1, sizeof(double));
        double *vec = (double *) R_alloc((size_t) m * want + 1, sizeof(double));
        for (int l = 0; l < m; l++)
            for (int i = 0; i < t; i++) W[IDX(i, l, t)] = e[i] * P[IDX(i, l, t)];
        gemm('T', 'N', m, m, t, 1.0, W, t, W, t, 0.0, M, m);
        int full = want == m;
        double *Mcopy = M;
        if (full) {
            Mcopy = (double *) R_alloc((size_t) m * m + 1, sizeof(double));
            memcpy(Mcopy, M, sizeof(double) * (size_t) m * m);
        }
        if (sym_eigen_top(m, Mcopy, want, sv, full ? NULL : vec) != 0) {
            *status = MLLS_ERR_SVD;
            return 0;
        }
        double cut = t * DBL_EPSILON * (want > 0 ? sv[0] : 0.0);  /* on squares */
        while (rank < want && sv[rank] > cut) rank++;
        if (full && rank == m) {
            for (int c = 0; c < m; c++)
                for (int i = 0; i < t; i++) G[IDX(i, c, t)] = D[i] * W[IDX(i, c, t)];
            r = m;
        } else {
            if (full && sym_eigen_top(m, M, want, sv, vec) != 0) {
                *status = MLLS_ERR_SVD;
                return 0;
            }
            if (r > rank) r = rank;
            gemm('N', 'N', t, r, m, 1.0, W, t, vec, m, 0.0, G, t);
            for (int c = 0; c < r; c++)
                for (int i = 0; i < t; i++) G[IDX(i, c, t)] *= D[i];
        }
    } else {
        double *C = (double *) R_alloc((size_t) m * t, sizeof(double));
        double *VT = (double *) R_alloc((size_t) k * t + 1, sizeof(double));
        for (int i = 0; i < t; i++)
            for (int l = 0; l < m; l++) C[IDX(l, i, m)] = P[IDX(i, l, t)] * e[i];
        if (svd_right(m, t, C, sv, VT) != 0) {
            *status = MLLS_ERR_SVD;
            return 0;
        }
        double tol = (m > t ? m : t) * DBL_EPSILON * (k > 0 ? sv[0] : 0.0);
        while (rank < k && sv[rank] > tol) rank++;
        if (r > rank) r = rank;
        for (int c = 0; c < r; c++)
            for (int i = 0; i < t; i++) G[IDX(i, c, t)] = D[i] * VT[IDX(c, i, k)];
    }
    if (qr_orthonormalize(t, r, G) != 0) *status = MLLS_ERR_QR;
    return r;
}

int mlls_tspace(int t, int m, int r, double n, const double *s, const double *P,
                double alpha, double beta, double *G, double *T, double *V,
                int *r_used)
{
    return mlls_tspace_pp(t, m, r, n, s, P, NULL, 0, alpha, beta, G, T, V, r_used);
}

int mlls_tspace_pp(int t, int m, int r, double n, const double *s, const double *P,
                   const double *PPt, int fast, double alpha, double beta, double *G,
                   double *T, double *V, int *r_used)
{
    int status = MLLS_OK;
    int alpha_inf = !R_FINITE(alpha), beta_inf = !R_FINITE(beta);
    double *a = (double *) R_alloc((size_t) t + 1, sizeof(double));
    double *e = (double *) R_alloc((size_t) t + 1, sizeof(double));
    double *D = (double *) R_alloc((size_t) t + 1, sizeof(double));

    for (int i = 0; i < t; i++) {
        a[i] = s[i] * s[i] / n + beta;
        double b = a[i] + alpha;
        if (beta_inf) {
            e[i] = 1.0;
            D[i] = 1.0;
        } else if (alpha_inf) {
            e[i] = 1.0 / sqrt(a[i]);
            D[i] = e[i];
        } else {
            e[i] = 1.0 / sqrt(a[i] * b);
            D[i] = sqrt(b / a[i]);
        }
    }
    r = mlls_theta(t, m, r, P, PPt, fast, e, D, G, &status);
    *r_used = r;
    if (status != MLLS_OK) return status;

    size_t tm = (size_t) t * m;
    double *W = (double *) R_alloc((size_t) r * m + 1, sizeof(double));
    double *S = (double *) R_alloc((size_t) r * r + 1, sizeof(double));
    double *Gs = (double *) R_alloc((size_t) t * r + 1, sizeof(double));

    if (beta_inf || (alpha_inf && r == 0)) {
        memset(T, 0, sizeof(double) * tm);
    } else if (r == t) {
        /* Theta spans the whole rank-t space (GG' = I): both forms below
         * reduce to ridge regression, T = diag(1/a) P / n, whatever alpha. */
        for (int l = 0; l < m; l++)
            for (int i = 0; i < t; i++) T[IDX(i, l, t)] = P[IDX(i, l, t)] / (n * a[i]);
    } else if (alpha_inf) {
        /* U = Theta'V with V the ridge fit on Theta X: T = G (G'diag(a)G)^{-1} G'P/n */
        for (int c = 0; c < r; c++)
            for (int i = 0; i < t; i++) Gs[IDX(i, c, t)] = a[i] * G[IDX(i, c, t)];
        gemm('T', 'N', r, r, t, 1.0, G, t, Gs, t, 0.0, S, r);
        gemm('T', 'N', r, m, t, 1.0 / n, G, t, P, t, 0.0, W, r);
        if (chol_solve(r, S, m, W) != 0) return MLLS_ERR_CHOL;
        gemm('N', 'N', t, m, r, 1.0, G, t, W, r, 0.0, T, t);
    } else {
        /* (L - alpha GG')^{-1} = L^{-1} + alpha L^{-1}G S^{-1} G'L^{-1} with
         * S = I - alpha G'L^{-1}G = G' diag(a / b) G, written without the
         * cancellation of the first form (G'G = I). */
        for (int l = 0; l < m; l++)
            for (int i = 0; i < t; i++)
                T[IDX(i, l, t)] = P[IDX(i, l, t)] / (n * (a[i] + alpha));
        if (alpha > 0 && r > 0) {
            for (int c = 0; c < r; c++)
                for (int i = 0; i < t; i++)
                    Gs[IDX(i, c, t)] = G[IDX(i, c, t)] * a[i] / (a[i] + alpha);
            gemm('T', 'N', r, r, t, 1.0, G, t, Gs, t, 0.0, S, r);
            gemm('T', 'N', r, m, t, 1.0, G, t, T, t, 0.0, W, r);
            if (chol_solve(r, S, m, W) != 0) return MLLS_ERR_CHOL;
            for (int c = 0; c < r; c++)
                for (int i = 0; i < t; i++)
                    Gs[IDX(i, c, t)] = alpha * G[IDX(i, c, t)] / (a[i] + alpha);
            gemm('N', 'N', t, m, r, 1.0, Gs, t, W, r, 1.0, T, t);
        }
    }
    if (V) gemm('T', 'N', r, m, t, 1.0, G, t, T, t, 0.0, V, r);  /* NULL: not wanted */
    return MLLS_OK;
}
