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

/* The Gram route squares the range of the data: an eigenvalue of Xc'Xc is
 * known only to about eps * s_1^2, which moves U by about eps * cond with
 * cond = (s_1^2 + n beta) / sqrt(s_k^2 (s_k^2 + n beta)), k = min(n - 1, d):
 * eps * s_1^2 / s_k^2 when s_k^2 >> n beta, and eps s_1^2 / (s_k sqrt(n beta))
 * when ridge damps the direction but still keeps it (a direction at the
 * noise level cannot be resolved at all: cond = Inf).  The direct SVD of Xc
 * gets about eps * sqrt of the regularised condition number.  Past this cond
 * the Gram route is not trusted and a dense X is decomposed directly. */
#define MLLS_GRAM_MAX_COND 1e4

/* Eigendecomposition of a centred Gram matrix (p x p, destroyed) into dec.
 * Eigenvalues at or below tol times the largest in absolute value count as
 * zero (an indefinite kernel keeps only its positive part, and dec->lowest
 * says how negative it was).  all (p) receives every eigenvalue. */
static int decompose_gram(int p, double *gram, double tol, mlls_decomp *dec, double *all)
{
    dec->p = p;
    dec->t = 0;
    dec->lowest = 0.0;
    dec->direct = 0;
    dec->cond = 0.0;
    dec->s = (double *) R_alloc((size_t) p + 1, sizeof(double));
    dec->basis = (double *) R_alloc((size_t) p * p + 1, sizeof(double));
    int info = sym_eigen_range(p, gram, tol, &dec->t, dec->s, dec->basis, all);
    if (info == MLSS_ERR_NOT_FINITE) return MLSS_ERR_NOT_FINITE;
    if (info != 0) return MLSS_ERR_EIGEN;
    if (p > 0) {
        double top = fmax(fabs(all[0]), fabs(all[p - 1]));
        dec->lowest = top > 0.0 ? all[p - 1] / top : 0.0;
    }
    for (int i = 0; i < dec->t; i++) dec->s[i] = sqrt(dec->s[i]);
    return MLSS_OK;
}

/* The condition number the Gram route sees for every beta >= beta_min
 * (see MLLS_GRAM_MAX_COND).  all: the p eigenvalues (decreasing), k: the rank
 * the data can have (min(n - 1, d)). */
static double gram_cond(const double *all, int p, int k, double n, double beta_min)
{
    if (k > p) k = p;
    if (k < 1 || all[0] <= 0.0) return 1.0;
    double top = all[0], low = all[k - 1] > 0.0 ? all[k - 1] : 0.0, nb = n * beta_min;
    if (!R_FINITE(top)) return R_PosInf;
    if (!R_FINITE(nb)) return 1.0;
    return low > 0.0 ? (top + nb) / sqrt(low * (low + nb)) : R_PosInf;
}

/* Thin SVD of a dense centred X (n x d, not modified) into dec, in the primal
 * form (basis V1).  Singular values at or below tol times the largest count
 * as zero. */
static int decompose_svd(const mlss_mat *X, const double *Yc, int m, double tol,
                         mlls_decomp *dec)
{
    int n = X->nrow, d = X->ncol, k = n < d ? n : d;
    double *A = (double *) R_alloc((size_t) n * d + 1, sizeof(double));
    double *UtY = (double *) R_alloc((size_t) k * m + 1, sizeof(double));
    for (size_t i = 0; i < (size_t) n * d; i++) {
        if (!R_FINITE(X->x[i])) return MLSS_ERR_NOT_FINITE;
        A[i] = X->x[i];
    }
    dec->p = d;
    dec->lowest = 0.0;
    dec->direct = 1;
    dec->s = (double *) R_alloc((size_t) k + 1, sizeof(double));
    dec->basis = (double *) R_alloc((size_t) d * k + 1, sizeof(double));
    if (svd_thin_data(n, d, A, Yc, m, dec->s, dec->basis, UtY) != 0) return MLSS_ERR_SVD;
    int t = 0;
    while (t < k && dec->s[t] > tol * dec->s[0]) t++;
    dec->t = t;
    dec->P = (double *) R_alloc((size_t) t * m + 1, sizeof(double));
    for (int l = 0; l < m; l++)
        for (int i = 0; i < t; i++) dec->P[IDX(i, l, t)] = dec->s[i] * UtY[IDX(i, l, k)];
    return MLSS_OK;
}

/* P = diag(s) U1'Yc from the dual basis U1 (n x t). */
static void dual_P(int n, const double *Yc, int m, mlls_decomp *dec)
{
    int t = dec->t;
    dec->P = (double *) R_alloc((size_t) t * m + 1, sizeof(double));
    gemm('T', 'N', t, m, n, 1.0, dec->basis, n, Yc, n, 0.0, dec->P, t);
    for (int l = 0; l < m; l++)
        for (int i = 0; i < t; i++) dec->P[IDX(i, l, t)] *= dec->s[i];
}

int mlls_decompose_data(const mlss_mat *X, const double *mu, const double *Yc,
                        const label_rows *pos, int m, double tol, double beta_min, int dual,
                        mlls_decomp *dec, int *primal_form)
{
    int n = X->nrow, d = X->ncol, k = (n - 1 < d ? n - 1 : d), p = dual ? n : d;
    double *gram = (double *) R_alloc((size_t) p * p + 1, sizeof(double));
    double *all = (double *) R_alloc((size_t) p + 1, sizeof(double));
    int dense = !X->i && !mu;
    *primal_form = !dual;
    if (!Yc && (!dense || dual)) Yc = label_rows_dense(pos);  /* needed below */
    if (dual) gram_outer(X, mu, gram);
    else gram_cross(X, mu, gram);
    int status = decompose_gram(p, gram, tol, dec, all);
    double cond = status == MLSS_OK ? gram_cond(all, p, k, n, beta_min) : R_PosInf;
    if (dense && (status == MLSS_ERR_NOT_FINITE ||
                  (status == MLSS_OK && !(cond <= MLLS_GRAM_MAX_COND)))) {
        *primal_form = 1;
        status = decompose_svd(X, Yc ? Yc : label_rows_dense(pos), m, tol, dec);
        dec->cond = cond;
        return status;
    }
    dec->cond = cond;
    if (status != MLSS_OK) return status;
    if (dual) {
        dual_P(n, Yc, m, dec);
    } else {
        double *XtY = (double *) R_alloc((size_t) d * m + 1, sizeof(double));
        if (pos && dense)
            mat_tprod_labels(X, pos, XtY);
        else
            mat_tprod(X, mu, Yc, m, XtY);
        dec->P = (double *) R_alloc((size_t) dec->t * m + 1, sizeof(double));
        gemm('T', 'N', dec->t, m, d, 1.0, dec->basis, d, XtY, d, 0.0, dec->P, dec->t);
    }
    return MLSS_OK;
}

/* Primal form (basis V1), for every beta >= 0: see mlls_decompose_data(). */
int mlls_decompose_primal(const mlss_mat *X, const double *mu, const double *Yc, int m,
                          double tol, mlls_decomp *dec)
{
    int primal_form;
    return mlls_decompose_data(X, mu, Yc, NULL, m, tol, 0.0, 0, dec, &primal_form);
}

/* Dual form (kernels, and a sparse X with d > n): eigendecomposition of the
 * centred n x n Gram matrix K (destroyed), P = diag(s) U1'Yc. */
int mlls_decompose_dual(int n, double *K, const double *Yc, int m, double tol,
                        mlls_decomp *dec)
{
    double *all = (double *) R_alloc((size_t) n + 1, sizeof(double));
    int status = decompose_gram(n, K, tol, dec, all);
    if (status != MLSS_OK) return status;
    dual_P(n, Yc, m, dec);
    return MLSS_OK;
}

/* Theta: G (t x r) from the top right singular vectors of C = P' diag(e)
 * (m x t), by an SVD of C; or, for cross-validation (fast), from a symmetric
 * eigenproblem, cheaper and exact to the square root of the precision for
 * the smallest singular values (the rank cut-off is taken on the squares):
 * with m > t the top eigenvectors of the t x t matrix C'C = diag(e) PPt diag(e)
 * (PPt = P P' formed once per fold); with m <= t the top eigenvectors U_r of
 * the m x m matrix CC' = W'W, W = diag(e) P, give span(G) = span(diag(D) W U_r).
 * Only the top r eigenpairs are computed, and none when r covers the whole
 * rank.  raw: G is an orthonormal basis of the top right singular vectors of
 * C themselves, without diag(D) (what cross-validation's T needs, see
 * mlls_tspace_pp()).  Returns the number of columns that carry information
 * (r capped at rank(C)). */
static int mlls_theta(int t, int m, int r, const double *P, const double *PPt, int fast,
                      int raw, const double *e, const double *D, double *G, int *status)
{
    int k = m < t ? m : t, rank = 0, orthonormal = 0;
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
            *status = MLSS_ERR_SVD;
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
            *status = MLSS_ERR_SVD;
            return 0;
        }
        if (r > rank) r = rank;
        for (int c = 0; c < r; c++)
            for (int i = 0; i < t; i++)
                G[IDX(i, c, t)] = (raw ? 1.0 : D[i]) * vec[IDX(i, c, t)];
        orthonormal = raw;  /* eigenvectors */
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
            *status = MLSS_ERR_SVD;
            return 0;
        }
        double cut = t * DBL_EPSILON * (want > 0 ? sv[0] : 0.0);  /* on squares */
        while (rank < want && sv[rank] > cut) rank++;
        if (full && rank == m) {
            for (int c = 0; c < m; c++)
                for (int i = 0; i < t; i++)
                    G[IDX(i, c, t)] = (raw ? 1.0 : D[i]) * W[IDX(i, c, t)];
            r = m;
        } else {
            if (full && sym_eigen_top(m, M, want, sv, vec) != 0) {
                *status = MLSS_ERR_SVD;
                return 0;
            }
            if (r > rank) r = rank;
            gemm('N', 'N', t, r, m, 1.0, W, t, vec, m, 0.0, G, t);
            for (int c = 0; c < r && !raw; c++)
                for (int i = 0; i < t; i++) G[IDX(i, c, t)] *= D[i];
        }
    } else {
        double *C = (double *) R_alloc((size_t) m * t, sizeof(double));
        double *VT = (double *) R_alloc((size_t) k * t + 1, sizeof(double));
        for (int i = 0; i < t; i++)
            for (int l = 0; l < m; l++) C[IDX(l, i, m)] = P[IDX(i, l, t)] * e[i];
        if (svd_right(m, t, C, sv, VT) != 0) {
            *status = MLSS_ERR_SVD;
            return 0;
        }
        double tol = (m > t ? m : t) * DBL_EPSILON * (k > 0 ? sv[0] : 0.0);
        while (rank < k && sv[rank] > tol) rank++;
        if (r > rank) r = rank;
        for (int c = 0; c < r; c++)
            for (int i = 0; i < t; i++) G[IDX(i, c, t)] = D[i] * VT[IDX(c, i, k)];
    }
    if (!orthonormal && qr_orthonormalize(t, r, G) != 0) *status = MLSS_ERR_QR;
    return r;
}

int mlls_tspace(int t, int m, int r, double n, const double *s, const double *P,
                double alpha, double beta, double *G, double *T, double *V,
                int *r_used)
{
    return mlls_tspace_pp(t, m, r, n, s, P, NULL, 0, alpha, beta, G, T, V, r_used);
}

int mlls_tspace_pp(int t, int m, int r, double n, const double *s_in, const double *P_in,
                   const double *PPt, int fast, double alpha, double beta, double *G,
                   double *T, double *V, int *r_used)
{
    int status = MLSS_OK;
    /* Scale invariance: with (s, P, alpha, beta) divided by (c, c, c^2, c^2),
     * Theta is unchanged and T, V are multiplied by c.  A power of two c near
     * max(s_1 / sqrt(n), sqrt(beta)) keeps every a_i = s_i^2/n + beta below
     * about 2, so that nothing overflows for huge data or beta, or underflows
     * for tiny data; the answer is scaled back at the end (exactly). */
    double c = 1.0, big = t > 0 ? s_in[0] / sqrt(n) : 0.0;
    if (R_FINITE(beta) && sqrt(beta) > big) big = sqrt(beta);
    if (big > 0.0 && R_FINITE(big)) {
        int ex;
        frexp(big, &ex);
        c = ldexp(1.0, ex);
    }
    double *s = (double *) R_alloc((size_t) t + 1, sizeof(double));
    double *P = (double *) R_alloc((size_t) t * m + 1, sizeof(double));
    for (int i = 0; i < t; i++) s[i] = s_in[i] / c;
    for (size_t i = 0; i < (size_t) t * m; i++) P[i] = P_in[i] / c;
    alpha = alpha / c / c;
    beta = beta / c / c;

    int alpha_inf = !R_FINITE(alpha), beta_inf = !R_FINITE(beta);
    double *a = (double *) R_alloc((size_t) t + 1, sizeof(double));
    double *e = (double *) R_alloc((size_t) t + 1, sizeof(double));
    double *D = (double *) R_alloc((size_t) t + 1, sizeof(double));
    double emax = 0.0, dmax = 0.0;

    /* e and D matter only up to a common factor (the singular vectors of C,
     * the Q factor of diag(D) P2): two square roots, not the root of a
     * product that can overflow, then divided by their largest entries. */
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
            e[i] = (1.0 / sqrt(a[i])) * (1.0 / sqrt(b));
            D[i] = sqrt(b) / sqrt(a[i]);
        }
        if (e[i] > emax) emax = e[i];
        if (D[i] > dmax) dmax = D[i];
    }
    for (int i = 0; i < t; i++) {
        if (R_FINITE(emax) && emax > 0.0) e[i] /= emax;
        if (R_FINITE(dmax) && dmax > 0.0) D[i] /= dmax;
    }
    /* Cross-validation (fast, no V wanted) needs T alone, which depends on
     * Theta only through the projector onto its span (below); at alpha = 0
     * (ridge) not at all, and Theta's eigenproblem is skipped. */
    int raw = fast && !V;
    if (alpha == 0.0 && raw)
        r = r < t ? r : t;
    else
        r = mlls_theta(t, m, r, P, PPt, fast, raw, e, D, G, &status);
    *r_used = r;
    if (status != MLSS_OK) return status;

    size_t tm = (size_t) t * m;
    double *W = (double *) R_alloc((size_t) r * m + 1, sizeof(double));
    double *S = raw ? NULL  /* the r x r system, which cross-validation's route has not */
                    : (double *) R_alloc((size_t) r * r + 1, sizeof(double));
    double *Gs = (double *) R_alloc((size_t) t * r + 1, sizeof(double));

    if (beta_inf || (alpha_inf && r == 0)) {
        memset(T, 0, sizeof(double) * tm);
    } else if (r == t) {
        /* Theta spans the whole rank-t space (GG' = I): both forms below
         * reduce to ridge regression, T = diag(1/a) P / n, whatever alpha. */
        for (int l = 0; l < m; l++)
            for (int i = 0; i < t; i++) T[IDX(i, l, t)] = P[IDX(i, l, t)] / (n * a[i]);
    } else if (raw) {
        /* With G0 (t x r) the orthonormal top right singular vectors of C,
         * G = diag(D) G0 R^-1 for some R, and D^2 a / b is constant, so
         * (diag(b) - alpha G G')^-1 P / n = diag(1/b) P / n + diag(h) G0 G0' diag(h) P,
         * h = sqrt(alpha / (n a b)); at alpha = Inf, G (G'diag(a)G)^-1 G'P / n
         * = diag(h) G0 G0' diag(h) P with h = 1 / sqrt(n a).  Two products of
         * r t m, without Theta's QR factor or the Woodbury system. */
        for (int l = 0; l < m; l++)
            for (int i = 0; i < t; i++)
                T[IDX(i, l, t)] = alpha_inf ? 0.0 : P[IDX(i, l, t)] / (n * (a[i] + alpha));
        if (alpha > 0 && r > 0) {  /* at alpha = 0, G was not computed */
            double *Ght = (double *) R_alloc((size_t) r * t + 1, sizeof(double));
            for (int i = 0; i < t; i++) {
                double h = alpha_inf ? 1.0 / sqrt(n * a[i])
                                     : sqrt(alpha / n) / sqrt(a[i]) / sqrt(a[i] + alpha);
                for (int c = 0; c < r; c++) {
                    Gs[IDX(i, c, t)] = h * G[IDX(i, c, t)];
                    Ght[IDX(c, i, r)] = Gs[IDX(i, c, t)];  /* the 'N' form is faster */
                }
            }
            gemm('N', 'N', r, m, t, 1.0, Ght, r, P, t, 0.0, W, r);
            gemm('N', 'N', t, m, r, 1.0, Gs, t, W, r, 1.0, T, t);
        }
    } else if (alpha_inf) {
        /* U = Theta'V with V the ridge fit on Theta X: T = G (G'diag(a)G)^{-1} G'P/n */
        for (int c = 0; c < r; c++)
            for (int i = 0; i < t; i++) Gs[IDX(i, c, t)] = a[i] * G[IDX(i, c, t)];
        gemm('T', 'N', r, r, t, 1.0, G, t, Gs, t, 0.0, S, r);
        gemm('T', 'N', r, m, t, 1.0 / n, G, t, P, t, 0.0, W, r);
        if (chol_solve(r, S, m, W) != 0) return MLSS_ERR_CHOL;
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
            if (chol_solve(r, S, m, W) != 0) return MLSS_ERR_CHOL;
            for (int c = 0; c < r; c++)
                for (int i = 0; i < t; i++)
                    Gs[IDX(i, c, t)] = alpha * G[IDX(i, c, t)] / (a[i] + alpha);
            gemm('N', 'N', t, m, r, 1.0, Gs, t, W, r, 1.0, T, t);
        }
    }
    for (size_t i = 0; i < (size_t) t * m; i++) T[i] /= c;
    if (V) gemm('T', 'N', r, m, t, 1.0, G, t, T, t, 0.0, V, r);  /* NULL: not wanted */
    return MLSS_OK;
}
