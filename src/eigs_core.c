/* The top eigenpairs of a symmetric operator M known only through products
 * M V (eigs_core.h), by restarted block Krylov subspace iteration with
 * Rayleigh-Ritz:
 *
 *   X (n x b, orthonormal), AX = M X
 *   repeat:
 *     basis V = orth[X, M X, M^2 X, ..., M^depth X]   (n x s, s = b (depth + 1))
 *     T = V' M V (s x s);  T = U diag(theta) U'        (LAPACK dsyevr, top b)
 *     X = V U_b,  AX = (M V) U_b                        (Ritz vectors and their images)
 *     stop when ||AX_i - theta_i X_i|| <= tol |theta_1| for the k wanted pairs
 *
 * M is never formed: the caller's product is the only access to it, and the
 * work besides the products is O(n s^2) per restart.  Of T only the last
 * b columns are new work: projecting M V_j out of V_0..V_j computed
 * [V_0..V_j]' M V_j, T's upper part of block column j, already
 * (rayleigh_ritz()).  Each block of the basis
 * is orthogonalised against the previous ones twice (classical Gram-Schmidt
 * twice is enough), then by a Householder QR, and projected again only when
 * a column lost nearly all its norm (orth_block()); a block that vanishes
 * (the Krylov space is exhausted: M of low rank, or an exact invariant
 * subspace) is replaced by pseudo-random directions, so the basis stays
 * orthonormal.
 * A warm start (the previous call's X for a nearby M) that already meets the
 * test costs b products and one b x b eigenproblem.
 *
 * A history block (the Ritz vectors of the call before the warm start's,
 * for the M before: LEWL's Z-steps along its iterations) joins the warm
 * start in the first Rayleigh-Ritz, whose basis [X, prev] then holds the
 * linear extrapolation of the slowly drifting subspace, X + (X - prev): on a
 * drifting enron fit (bench/lewl_cv_grid_results.md, session 43) it took
 * the warm start's residual from 1.1e-3 to 4e-6, within one cheap step of
 * 1e-6.  So the first restart after it has depth 1; the later ones have the
 * full depth.  The history is an aid only: dropped where it cannot be
 * orthonormalised against X.
 *
 * The residual test is the usual backward-error one: x_i, theta_i are an
 * exact eigenpair of M + E with ||E|| = ||r_i||, and the angle between the
 * wanted subspace and span(x_1..x_k) is at most max ||r_i|| / gap, gap the
 * distance from theta_k to the rest of the spectrum (Davis-Kahan). */
#define USE_FC_LEN_T
#include <R.h>
#include <R_ext/Utils.h>
#include <math.h>
#include <string.h>
#include "linalg.h"
#include "eigs_core.h"

void eigs_fill_noise(int n, int b, double *X, unsigned long long seed)
{
    unsigned long long z = seed;
    size_t nb = (size_t) n * b;
    for (size_t q = 0; q < nb; q++) {
        z += 0x9E3779B97F4A7C15ULL;  /* splitmix64 */
        unsigned long long v = z;
        v = (v ^ (v >> 30)) * 0xBF58476D1CE4E5B9ULL;
        v = (v ^ (v >> 27)) * 0x94D049BB133111EBULL;
        v ^= v >> 31;
        X[q] = (double) (v >> 11) / 9007199254740992.0 - 0.5;  /* [0, 1) - 0.5 */
    }
}

/* Q <- Q - V (V'Q): V n x p orthonormal, Q n x b; tmp p x b. */
static void project_out(int n, int p, const double *V, int b, double *Q, double *tmp)
{
    if (p == 0) return;
    gemm('T', 'N', p, b, n, 1.0, V, n, Q, n, 0.0, tmp, p);
    gemm('N', 'N', n, b, p, -1.0, V, n, tmp, p, 1.0, Q, n);
}

/* Orthonormalise the block Q (n x b) against V (n x p, orthonormal) and
 * within itself: classical Gram-Schmidt twice, then a Householder QR,
 * Q_in = Q R.  After the second pass column j lies in span(V) only to about
 * eps nrm_j, nrm_j its norm after the first pass; the QR divides it by
 * |R_jj|, so that part grows to about eps nrm_j / |R_jj|.  So one QR is
 * enough while every |R_jj| >= ORTH_KEEP nrm_j, and while no column kept
 * less than ORTH_LOST (a few thousand eps) of its norm in the first pass:
 * such a column is mostly that pass's rounding (the Krylov space exhausted,
 * M of low rank or an exact invariant subspace), and several of them,
 * nearly dependent, compound their parts in span(V) through the QR beyond
 * that bound (8e-12 of a unit column, from -(I - v v') at n = 100 with a
 * block of 50, test-eigs.R).  A well-converged Ritz pair's residual can fall
 * below it too; its block then takes the second attempt, which cost nothing
 * measurable on a 1600-row LEWL fit (36.99 against 37.67 CPU s at tol
 * 1e-10, bench/lewl_cv_eigtol.R's fit).  A column that lost more (in either
 * pass, or to the block's other columns) was replaced by the QR with a
 * direction of its own, which may lie in span(V): the QR's output is
 * orthogonalised again the same way, and a block that fails twice is
 * replaced by pseudo-random directions.  The first pass's coefficients
 * V'Q_in go to the p x b matrix C (leading dimension ldc; C may be NULL).
 * P (n x b), nrm (b): scratch.  Returns 0, or LAPACK's info (negated when
 * positive). */
#define ORTH_KEEP 0.01
#define ORTH_LOST 1e-12
static double col_norm(int n, const double *Q, int j)
{
    return sqrt(vec_dot(n, Q + IDX(0, j, n), Q + IDX(0, j, n)));
}

static int orth_block(int n, int p, const double *V, int b, double *Q, double *C, int ldc,
                      double *P, double *nrm, double *tmp, unsigned long long *seed)
{
    if (p == 0) {  /* nothing to be orthogonal to: the QR alone */
        int info = qr_orthonormalize(n, b, Q);
        return info > 0 ? -info : info;
    }
    for (int attempt = 0; attempt < 4; attempt++) {
        for (int j = 0; j < b; j++)  /* the norms before the first pass */
            nrm[j] = col_norm(n, Q, j);
        project_out(n, p, V, b, Q, tmp);
        if (attempt == 0 && C)
            for (int j = 0; j < b; j++)
                memcpy(C + IDX(0, j, ldc), tmp + IDX(0, j, p), sizeof(double) * (size_t) p);
        int lost = 0;
        for (int j = 0; j < b; j++) {
            double a = col_norm(n, Q, j);
            if (!(a > ORTH_LOST * nrm[j])) lost = 1;
            nrm[j] = a;
        }
        project_out(n, p, V, b, Q, tmp);
        memcpy(P, Q, sizeof(double) * (size_t) n * b);
        int info = qr_orthonormalize(n, b, Q);
        if (info != 0) return info > 0 ? -info : info;
        int kept = !lost;
        for (int j = 0; j < b && kept; j++)  /* R_jj = q_j' p_j */
            if (!(fabs(vec_dot(n, Q + IDX(0, j, n), P + IDX(0, j, n))) >= ORTH_KEEP * nrm[j] &&
                  nrm[j] > 0.0))
                kept = 0;
        if (kept) return 0;
        if (attempt % 2 == 1) eigs_fill_noise(n, b, Q, (*seed)++);
    }
    return MLSS_ERR_EIGEN;  /* span(V) is (numerically) the whole space */
}

/* Rayleigh-Ritz over the orthonormal basis V (n x s) with AV = M V: the top
 * b Ritz pairs, X = V U, AX = AV U, values decreasing.  T (s x s) holds on
 * entry T = V'AV above and on the diagonal blocks of its first `last`
 * columns: the first projections of orth_block(), which took V_0..V_j' AV_j
 * when it orthogonalised AV_j; the columns from `last` on are taken here,
 * the rest by the symmetry of M.  U: s x b. */
static int rayleigh_ritz(int n, int s, int last, const double *V, const double *AV, int b,
                         double *X, double *AX, double *values, double *T, double *U)
{
    gemm('T', 'N', s, s - last, n, 1.0, V, n, AV + IDX(0, last, n), n, 0.0,
         T + IDX(0, last, s), s);
    for (int j = 0; j < s; j++)
        for (int i = 0; i < j; i++) {
            /* within a diagonal block both triangles were computed */
            double m = i / b == j / b ? 0.5 * (T[IDX(i, j, s)] + T[IDX(j, i, s)])
                : T[IDX(i, j, s)];
            T[IDX(i, j, s)] = m;
            T[IDX(j, i, s)] = m;
        }
    int info = sym_eigen_top(s, T, b, values, U);
    if (info != 0) return info > 0 ? -info : info;
    gemm('N', 'N', n, b, s, 1.0, V, n, U, s, 0.0, X, n);
    gemm('N', 'N', n, b, s, 1.0, AV, n, U, s, 0.0, AX, n);
    return 0;
}

int eigs_top(const eigs_options *opt, eigs_op op, void *ctx, double *X, const double *prev,
             int kp, double *values, double *resid, int *restarts, int *products)
{
    int n = opt->n, k = opt->k, b = opt->b, depth = opt->depth;
    *restarts = 0;
    *products = 0;
    if (k < 1 || b < k || b > n || depth < 1) return MLSS_ERR_ARG;
    if ((double) b * (depth + 1) > n) depth = n / b - 1;
    if (depth < 1) return MLSS_ERR_ARG;
    int s = b * (depth + 1);
    const void *vmax = vmaxget();
    double *V = (double *) R_alloc((size_t) n * s, sizeof(double));
    double *AV = (double *) R_alloc((size_t) n * s, sizeof(double));
    double *AX = (double *) R_alloc((size_t) n * b, sizeof(double));
    double *T = (double *) R_alloc((size_t) s * s, sizeof(double));
    double *U = (double *) R_alloc((size_t) s * b, sizeof(double));
    double *tmp = (double *) R_alloc((size_t) s * b, sizeof(double));
    double *w = (double *) R_alloc((size_t) s, sizeof(double));
    double *P = (double *) R_alloc((size_t) n * b, sizeof(double));
    double *nrm = (double *) R_alloc((size_t) b, sizeof(double));
    unsigned long long seed = 20201u;
    memset(w, 0, sizeof(double) * (size_t) s);

    /* the history block: at most b columns (the scratch of orth_block()),
       so that the first basis [X, prev] fits in s >= 2 b */
    if (!prev || kp < 0) kp = 0;
    if (kp > b) kp = b;
    int status = 0;
    memcpy(V, X, sizeof(double) * (size_t) n * b);
    status = orth_block(n, 0, NULL, b, V, NULL, 0, P, nrm, tmp, &seed);
    if (status == 0 && kp > 0) {
        memcpy(V + IDX(0, b, n), prev, sizeof(double) * (size_t) n * kp);
        /* an aid only: dropped where it cannot be orthonormalised */
        if (orth_block(n, b, V, kp, V + IDX(0, b, n), NULL, 0, P, nrm, tmp, &seed) != 0)
            kp = 0;
    }
    int cur = b + kp;
    if (status == 0) {  /* the caller's product takes at most b columns */
        op(ctx, b, V, AV);
        if (kp > 0) op(ctx, kp, V + IDX(0, b, n), AV + IDX(0, b, n));
        *products += cur;
    }
    for (int r = 0; status == 0; r++) {
        const void *vloop = vmaxget();
        /* the first basis's T is all new */
        status = rayleigh_ritz(n, cur, r == 0 ? 0 : cur - b, V, AV, b, X, AX, w, T, U);
        vmaxset(vloop);
        if (status != 0) break;
        /* the residuals of the k wanted pairs, relative to the largest |theta| */
        double scale = fmax(fabs(w[0]), fabs(w[b - 1]));
        int done = 1;
        for (int j = 0; j < k; j++) {
            double s2 = 0.0;
            const double *x = X + IDX(0, j, n), *ax = AX + IDX(0, j, n);
            for (int i = 0; i < n; i++) {
                double d = ax[i] - w[j] * x[i];
                s2 += d * d;
            }
            double rel = scale > 0.0 ? sqrt(s2) / scale : 0.0;
            if (resid) resid[j] = rel;
            if (!(rel <= opt->tol)) done = 0;
        }
        *restarts = r;
        if (done) break;
        if (r == opt->max_restart) {
            status = EIGS_NOT_CONVERGED;
            break;
        }
        R_CheckUserInterrupt();
        /* the next basis: [X, M X, ..., M^d X], orthonormalised (d = 1 after
           a history block, then depth) */
        int d = r == 0 && kp > 0 ? 1 : depth;
        cur = b * (d + 1);
        memcpy(V, X, sizeof(double) * (size_t) n * b);
        memcpy(AV, AX, sizeof(double) * (size_t) n * b);
        for (int j = 1; j <= d && status == 0; j++) {
            double *Q = V + IDX(0, j * b, n);
            memcpy(Q, AV + IDX(0, (j - 1) * b, n), sizeof(double) * (size_t) n * b);
            status = orth_block(n, j * b, V, b, Q, T + IDX(0, (j - 1) * b, cur), cur, P,
                                nrm, tmp, &seed);
            vmaxset(vloop);
            if (status != 0) break;
            op(ctx, b, Q, AV + IDX(0, j * b, n));
            *products += b;
        }
    }
    memcpy(values, w, sizeof(double) * (size_t) b);
    vmaxset(vmax);
    return status;
}
