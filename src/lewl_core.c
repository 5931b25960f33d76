/* LEWL (lewl-nju2020; methods.md section 4): alternating updates of
 *   f(Yt, Z, D) = ||Yt - Z D||_F^2 + beta tr(Yt' L Yt) - lambda tr(Z' H K H Z)
 * over Z (Z'Z = I), D and the missing entries of Yt.
 *
 * - Z and D together: for fixed Yt, min_D ||Yt - Z D||^2 = ||Yt||^2 -
 *   ||Z'Yt||^2 at D = Z'Yt, so Z maximises tr(Z'(Yt Yt' + lambda HKH) Z): the
 *   top-k eigenvectors, then D = Z'Yt.  This is the exact minimiser over
 *   (Z, D) jointly.  The eigenvectors come from the iterative eigensolver
 *   of eigs_core.c on products with the matrix (O(n^2 b) per product block
 *   with the n x n kernel, O(n (r + c) b) with a Nystrom factor of rank r),
 *   warm-started from the previous iteration's block; for small n from
 *   dsyevr on the formed matrix (top k only).
 * - Yt: each label column y is a quadratic y'(I + beta L)y - 2 y'(ZD) in its
 *   missing entries.  The exact minimiser with the observed entries held
 *   fixed solves A_MM y_M = (ZD)_M - A_MO y_O, A = I + beta L (a different
 *   sub-system per column, so no single factorisation serves them all).  The
 *   paper writes P_Omega^c((I + beta L)^{-1} Z D) instead, which is this
 *   only when the observed rows do not touch the missing ones through L; it
 *   is kept as an option.  Both are solved by conjugate gradients on the
 *   sparse A, warm-started from the current Yt: A is well conditioned
 *   (eigenvalues in [1, 1 + 2 beta max deg]), and CG decreases the quadratic
 *   at every step, so even a truncated solve never increases f. */
#define USE_FC_LEN_T
#include <R.h>
#include <R_ext/BLAS.h>
#include <R_ext/Memory.h>
#ifndef FCONE
#define FCONE
#endif
#include <R_ext/Utils.h>
#include <math.h>
#include <string.h>
#include "linalg.h"
#include "lewl_core.h"
#include "eigs_core.h"

void lewl_graph_degrees(lewl_graph *G)
{
    for (int j = 0; j < G->n; j++) {
        double s = 0.0;
        for (int q = G->p[j]; q < G->p[j + 1]; q++) s += G->w[q];
        G->deg[j] = s;  /* W symmetric: column sums are row sums */
    }
}

void lewl_apply(const lewl_graph *G, double beta, const double *v, double *out)
{
    int n = G->n;
    for (int i = 0; i < n; i++) out[i] = (1.0 + beta * G->deg[i]) * v[i];
    if (beta == 0.0) return;
    for (int j = 0; j < n; j++) {
        double bv = beta * v[j];
        for (int q = G->p[j]; q < G->p[j + 1]; q++) out[G->i[q]] -= G->w[q] * bv;
    }
}

double lewl_smoothness(const lewl_graph *G, int c, const double *Y, double *scratch)
{
    int n = G->n;
    double s = 0.0;
    for (int l = 0; l < c; l++) {
        const double *y = Y + IDX(0, l, n);
        lewl_apply(G, 1.0, y, scratch);  /* (I + L) y */
        for (int i = 0; i < n; i++) s += y[i] * (scratch[i] - y[i]);
    }
    return s;
}

/* Scratch of the masked CG: the free rows' local numbering and their
 * sub-matrix A_FF (compressed columns, off-diagonal -beta w_ij), vectors of
 * the free rows.  Sized for n rows and the nnz(W) entries of the graph. */
typedef struct {
    int *loc, *idx, *lp, *li;
    double *lw, *dg, *y, *r, *z, *p, *Ap;
} cg_work;

static void cg_work_alloc(cg_work *w, int n, int nnz)
{
    w->loc = (int *) R_alloc((size_t) n, sizeof(int));
    w->idx = (int *) R_alloc((size_t) n, sizeof(int));
    w->lp = (int *) R_alloc((size_t) n + 1, sizeof(int));
    w->li = (int *) R_alloc((size_t) (nnz > 0 ? nnz : 1), sizeof(int));
    w->lw = (double *) R_alloc((size_t) (nnz > 0 ? nnz : 1), sizeof(double));
    w->dg = (double *) R_alloc((size_t) n, sizeof(double));
    w->y = (double *) R_alloc((size_t) n, sizeof(double));
    w->r = (double *) R_alloc((size_t) n, sizeof(double));
    w->z = (double *) R_alloc((size_t) n, sizeof(double));
    w->p = (double *) R_alloc((size_t) n, sizeof(double));
    w->Ap = (double *) R_alloc((size_t) n, sizeof(double));
    for (int i = 0; i < n; i++) w->loc[i] = -1;
}

/* Conjugate gradients on A y = b over the free entries of y (free[i] != 0),
 * the others held at their values; y in: the start, out: the solution.
 * The system A_FF y_F = b_F - A_FO y_O on the free rows F alone: its
 * right-hand side from one product with A, then A_FF (the graph's edges
 * between free rows) in local numbering, so that an iteration costs
 * O(|F| + nnz(W_FF)) rather than O(n + nnz(W)); preconditioned by its
 * diagonal 1 + beta deg_i (Jacobi).  Stops when the residual ||b_F - A_F. y||
 * is at most tol ||b_F|| (b's free entries), as plain CG did.  full: n
 * scratch.  Returns the iterations run. */
static int cg_masked(const lewl_graph *G, double beta, const double *b, const int *free_,
                     double *yfull, double tol, int max_iter, cg_work *w, double *full)
{
    int n = G->n, nf = 0, it = 0;
    for (int i = 0; i < n; i++)
        if (free_[i]) {
            w->loc[i] = nf;
            w->idx[nf++] = i;
        }
    if (nf == 0) return 0;
    /* r_F = b_F - (A y)_F; A_FF's off-diagonal entries */
    lewl_apply(G, beta, yfull, full);
    double bnorm = 0.0, rs = 0.0, rz = 0.0;
    int q0 = 0;
    for (int a = 0; a < nf; a++) {
        int j = w->idx[a];
        double bj = b[j], rj = bj - full[j];
        w->y[a] = yfull[j];
        w->r[a] = rj;
        w->dg[a] = 1.0 + beta * G->deg[j];
        bnorm += bj * bj;
        rs += rj * rj;
        w->z[a] = rj / w->dg[a];
        rz += rj * w->z[a];
        w->p[a] = w->z[a];
        w->lp[a] = q0;
        if (beta != 0.0)
            for (int q = G->p[j]; q < G->p[j + 1]; q++) {
                int li = w->loc[G->i[q]];
                if (li >= 0) {
                    w->li[q0] = li;
                    w->lw[q0++] = -beta * G->w[q];
                }
            }
    }
    w->lp[nf] = q0;
    double stop = tol * tol * (bnorm > 0.0 ? bnorm : 1.0);
    while (rs > stop && it < max_iter) {
        /* Ap = A_FF p (A_FF symmetric: column j scattered) */
        for (int a = 0; a < nf; a++) w->Ap[a] = w->dg[a] * w->p[a];
        for (int a = 0; a < nf; a++) {
            double pa = w->p[a];
            for (int q = w->lp[a]; q < w->lp[a + 1]; q++) w->Ap[w->li[q]] += w->lw[q] * pa;
        }
        double pAp = 0.0;
        for (int a = 0; a < nf; a++) pAp += w->p[a] * w->Ap[a];
        if (!(pAp > 0.0)) break;
        double alpha = rz / pAp, rz_new = 0.0;
        rs = 0.0;
        for (int a = 0; a < nf; a++) {
            w->y[a] += alpha * w->p[a];
            w->r[a] -= alpha * w->Ap[a];
            rs += w->r[a] * w->r[a];
            w->z[a] = w->r[a] / w->dg[a];
            rz_new += w->r[a] * w->z[a];
        }
        double ratio = rz_new / rz;
        for (int a = 0; a < nf; a++) w->p[a] = w->z[a] + ratio * w->p[a];
        rz = rz_new;
        it++;
    }
    for (int a = 0; a < nf; a++) {
        yfull[w->idx[a]] = w->y[a];
        w->loc[w->idx[a]] = -1;
    }
    return it;
}

/* The centring H V = V - 1 mean(V)' of the n x b matrix V, into out. */
static void centre_columns(int n, int b, const double *V, double *out)
{
    for (int j = 0; j < b; j++) {
        const double *v = V + IDX(0, j, n);
        double *o = out + IDX(0, j, n), m = 0.0;
        for (int i = 0; i < n; i++) m += v[i];
        m /= n;
        for (int i = 0; i < n; i++) o[i] = v[i] - m;
    }
}

/* out = H K H V for the n x b matrix V: K (H V) centred again, or with the
 * factor G (centred columns) G (G' V).  scratch: n x b (exact) or r x b. */
static void hkh_times(const lewl_kernel *K, int b, const double *V, double *out,
                      double *scratch)
{
    int n = K->n;
    if (K->r == 0) {
        centre_columns(n, b, V, scratch);
        gemm('N', 'N', n, b, n, 1.0, K->K, n, scratch, n, 0.0, out, n);
        centre_columns(n, b, out, out);
    } else {
        gemm('T', 'N', K->r, b, n, 1.0, K->K, n, V, n, 0.0, scratch, K->r);
        gemm('N', 'N', n, b, K->r, 1.0, K->K, n, scratch, K->r, 0.0, out, n);
        if (K->dg)  /* the diagonal correction: + H diag(dg) H V */
            for (int j = 0; j < b; j++) {
                const double *v = V + IDX(0, j, n);
                double *o = out + IDX(0, j, n), m = 0.0, m2 = 0.0;
                for (int i = 0; i < n; i++) m += v[i];
                m /= n;
                for (int i = 0; i < n; i++) m2 += K->dg[i] * (v[i] - m);
                m2 /= n;
                for (int i = 0; i < n; i++) o[i] += K->dg[i] * (v[i] - m) - m2;
            }
    }
}

/* Anderson mixing (type II, Walker and Ni 2011) of the missing entries x,
 * the state of the alternation (Z and D are functions of Yt): T(x) is one
 * iteration (the Z-step at x, then the recovery step).  With the residuals
 * f_i = T(x_i) - x_i and the differences dF, dG of consecutive f_i and
 * T(x_i) (at most depth of them), x_{t+1} = T(x_t) - dG g, g = argmin ||f_t -
 * dF g|| (normal equations, ridge 1e-10 of their largest diagonal).  Fixed
 * points are those of T (f = 0).  The safeguard is in lewl_run(). */
typedef struct {
    int depth, count, next, have_prev;
    size_t nm;
    size_t *idx;      /* the missing entries (positions in Yt) */
    double *x, *fprev, *tprev, *dF, *dG, *A, *g;
} anderson;

static void anderson_alloc(anderson *a, int depth, size_t nc, const int *missing)
{
    a->depth = depth;
    a->count = a->next = a->have_prev = 0;
    size_t nm = 0;
    for (size_t q = 0; q < nc; q++) nm += missing[q] != 0;
    a->nm = nm;
    a->idx = (size_t *) R_alloc(nm + 1, sizeof(size_t));
    nm = 0;
    for (size_t q = 0; q < nc; q++)
        if (missing[q]) a->idx[nm++] = q;
    a->x = (double *) R_alloc(nm + 1, sizeof(double));
    a->fprev = (double *) R_alloc(nm + 1, sizeof(double));
    a->tprev = (double *) R_alloc(nm + 1, sizeof(double));
    a->dF = (double *) R_alloc((nm + 1) * depth, sizeof(double));
    a->dG = (double *) R_alloc((nm + 1) * depth, sizeof(double));
    a->A = (double *) R_alloc((size_t) depth * (depth + 1), sizeof(double));
    a->g = (double *) R_alloc((size_t) depth, sizeof(double));
}

/* After the recovery step: Yt holds T(x_t) in its missing entries, a->x the
 * x_t it started from.  Records the pair, and writes the mixed x_{t+1} into
 * Yt (returns 1), or leaves T(x_t) there (returns 0: no history yet, or a
 * singular least-squares problem).  a->tprev keeps T(x_t) for the
 * safeguard. */
static int anderson_step(anderson *a, double *Yt)
{
    size_t nm = a->nm;
    double *f = a->x;  /* f_t = T(x_t) - x_t, over x_t in place */
    for (size_t e = 0; e < nm; e++) f[e] = Yt[a->idx[e]] - f[e];
    if (a->have_prev) {
        double *df = a->dF + nm * a->next, *dg = a->dG + nm * a->next;
        for (size_t e = 0; e < nm; e++) {
            double tx = Yt[a->idx[e]];
            df[e] = f[e] - a->fprev[e];
            dg[e] = tx - a->tprev[e];
        }
        a->next = (a->next + 1) % a->depth;
        if (a->count < a->depth) a->count++;
    }
    for (size_t e = 0; e < nm; e++) {
        a->fprev[e] = f[e];
        a->tprev[e] = Yt[a->idx[e]];
    }
    a->have_prev = 1;
    int s = a->count;
    if (s == 0) return 0;
    /* the normal equations dF'dF g = dF'f (the first s columns of dF are
       the history: the ring fills them before it wraps) */
    double *A = a->A, *g = a->g, amax = 0.0;
    int inm = (int) nm;
    gemm('T', 'N', s, s, inm, 1.0, a->dF, inm, a->dF, inm, 0.0, A, s);
    gemm('T', 'N', s, 1, inm, 1.0, a->dF, inm, f, inm, 0.0, g, s);
    for (int i = 0; i < s; i++)
        if (A[i + i * s] > amax) amax = A[i + i * s];
    if (!(amax > 0.0)) return 0;
    for (int i = 0; i < s; i++) A[i + i * s] += 1e-10 * amax;
    if (chol_solve(s, A, 1, g) != 0) return 0;
    for (int i = 0; i < s; i++) {
        const double *dg = a->dG + nm * i;
        double gi = g[i];
        for (size_t e = 0; e < nm; e++) Yt[a->idx[e]] -= gi * dg[e];
    }
    return 1;
}

/* The Z-step's operator M V = Yt (Yt' V) + lambda H K H V (eigs_core.h). */
typedef struct {
    const lewl_kernel *K;
    int c;
    double lambda;
    const double *Yt;
    double *scratch, *small;  /* n x b or r x b; c x b */
} zstep_ctx;

static void zstep_op(void *ctx_, int b, const double *V, double *out)
{
    zstep_ctx *ctx = (zstep_ctx *) ctx_;
    int n = ctx->K->n;
    hkh_times(ctx->K, b, V, out, ctx->scratch);
    size_t nb = (size_t) n * b;
    for (size_t q = 0; q < nb; q++) out[q] *= ctx->lambda;
    if (ctx->c > 0) {
        gemm('T', 'N', ctx->c, b, n, 1.0, ctx->Yt, n, V, n, 0.0, ctx->small, ctx->c);
        gemm('N', 'N', n, b, ctx->c, 1.0, ctx->Yt, n, ctx->small, ctx->c, 1.0, out, n);
    }
}

/* The basis route's operator: M~ W = lambda diag(s) W + F (F' W) for the
 * n x b block W in the eigenbasis of H K H (M~ = V' M V, F = V' Yt). */
typedef struct {
    int n, c;
    double lambda;
    const double *s, *F;
    double *small;  /* c x b */
} basis_ctx;

static void basis_op(void *ctx_, int b, const double *W, double *out)
{
    basis_ctx *ctx = (basis_ctx *) ctx_;
    int n = ctx->n;
    for (int j = 0; j < b; j++)
        for (int i = 0; i < n; i++)
            out[IDX(i, j, n)] = ctx->lambda * ctx->s[i] * W[IDX(i, j, n)];
    if (ctx->c > 0) {
        gemm('T', 'N', ctx->c, b, n, 1.0, ctx->F, n, W, n, 0.0, ctx->small, ctx->c);
        gemm('N', 'N', n, b, ctx->c, 1.0, ctx->F, n, ctx->small, ctx->c, 1.0, out, n);
    }
}

/* The dense route: M = lambda H K H + Yt Yt' formed (upper triangle) and
 * reduced by dsyevr (top k).  M: n x n scratch. */
static int zstep_dense(const lewl_options *opt, const lewl_kernel *ker, const double *Yt,
                       const double *rowmean, double mall, double *M, double *values,
                       double *Z)
{
    int n = opt->n, c = opt->c;
    double one = 1.0;
    const double *K = ker->K;
    if (ker->r == 0) {
        for (int j = 0; j < n; j++)
            for (int i = 0; i <= j; i++)
                M[IDX(i, j, n)] = opt->lambda *
                    (K[IDX(i, j, n)] - rowmean[i] - rowmean[j] + mall);
    } else {
        int r = ker->r;
        double zero = 0.0;
        F77_CALL(dsyrk)("U", "N", &n, &r, &opt->lambda, K, &n, &zero, M, &n
                        FCONE FCONE);
        if (ker->dg) {  /* + lambda H diag(dg) H */
            double sd = 0.0;
            for (int i = 0; i < n; i++) sd += ker->dg[i];
            sd /= (double) n * n;
            for (int j = 0; j < n; j++)
                for (int i = 0; i <= j; i++)
                    M[IDX(i, j, n)] += opt->lambda *
                        ((i == j ? ker->dg[i] : 0.0) - (ker->dg[i] + ker->dg[j]) / n + sd);
        }
    }
    if (c > 0)
        F77_CALL(dsyrk)("U", "N", &n, &c, &one, Yt, &n, &one, M, &n FCONE FCONE);
    return sym_eigen_top(n, M, opt->k, values, Z);
}

/* The Gram route of the factor kernel (H K H ~ G G', G n x r): M = F F' with
 * F = [sqrt(lambda) G, Yt] (n x p, p = r + c) has its eigenvectors of
 * non-zero eigenvalue in range(F): with F'F = U diag(theta) U' (p x p; the
 * block lambda G'G is fixed, GtG, so a step costs G'Yt and Yt'Yt, O(n r c)),
 * z_j = F u_j / sqrt(theta_j) exactly.  Returns 1 (the caller falls back to
 * the iterative eigensolver) when theta_k <= 1e-10 theta_1, where that
 * division loses the vectors' orthogonality; 0 done, < 0 LAPACK failure.
 * S: p x p scratch, U: p x k. */
static int zstep_gram(const lewl_options *opt, const lewl_kernel *ker, const double *GtG,
                      const double *Yt, double *S, double *U, double *values, double *Z)
{
    int n = opt->n, c = opt->c, k = opt->k, r = ker->r, p = r + c;
    double sl = sqrt(opt->lambda);
    for (int j = 0; j < r; j++)
        for (int i = 0; i < r; i++) S[IDX(i, j, p)] = opt->lambda * GtG[IDX(i, j, r)];
    if (c > 0) {
        gemm('T', 'N', r, c, n, sl, ker->K, n, Yt, n, 0.0, S + IDX(0, r, p), p);
        gemm('T', 'N', c, c, n, 1.0, Yt, n, Yt, n, 0.0, S + IDX(r, r, p), p);
        for (int j = 0; j < c; j++)
            for (int i = 0; i < r; i++) S[IDX(r + j, i, p)] = S[IDX(i, r + j, p)];
    }
    if (k > p) return 1;
    int info = sym_eigen_top(p, S, k, values, U);
    if (info != 0) return info > 0 ? -info : info;
    if (!(values[k - 1] > 1e-10 * values[0])) return 1;
    for (int j = 0; j < k; j++) {
        double s = 1.0 / sqrt(values[j]);
        for (int i = 0; i < r; i++) U[IDX(i, j, p)] *= sl * s;
        for (int i = r; i < p; i++) U[IDX(i, j, p)] *= s;
    }
    gemm('N', 'N', n, k, r, 1.0, ker->K, n, U, p, 0.0, Z, n);
    if (c > 0) gemm('N', 'N', n, k, c, 1.0, Yt, n, U + r, p, 1.0, Z, n);
    return 0;
}

/* The projected route of the factor with its diagonal (H K H ~ G G' + H
 * diag(dg) H): Rayleigh-Ritz of M = Yt Yt' + lambda (G G' + H diag(dg) H) on
 * span(B), B = [G, 1, dg, Yt], the span of M's low-rank part (M = diag(lambda
 * dg) + B S B' for some S).  An eigenvector z of eigenvalue theta is (theta I
 * - lambda diag(dg))^{-1} B S B' z: its part outside span(B) is
 * lambda (I - P_B) diag(dg) z / theta, of the order lambda max(dg) / theta
 * (dg <= 1; 1 / 355 at the 27th eigenvalue of 20000 enron-shaped rows), so
 * this is an approximation of the Z-step (lewl_run() keeps it only where
 * those residuals are small), the price of no eigensolver products: per
 * iteration the missing entries' part of G'[Yt, dg Yt] and Z = B X, O(n r
 * c), against 252-630 products of O(n (r + c)) each.  The orthonormal basis [V, Q2] of
 * span(B) is never formed: V = G Vc from G'G (once per run, proj_fixed),
 * Q2 = (I - V V') [1, dg, Yt] C2 from its Gram matrix; the Ritz vectors are
 * orthonormalised at the end (Z (Z'Z)^{-1/2}), against the rounding of
 * these small Gram matrices. */
typedef struct {
    int rv;              /* columns of V = G Vc (G'G's eigenvalues above 1e-10 of the top) */
    double *Vc;          /* r x rv: O diag(sigma)^{-1} */
    double *AVV;         /* rv x rv: lambda V'(G G' + diag(dg)) V (V is centred) */
    double *VDV;         /* rv x rv: V' diag(dg) V */
    double *Vd, *Vd2;    /* rv: V'dg, V'dg^2 */
    double s1, s2, s3;   /* sums of dg, dg^2, dg^3 */
    /* G'[Yt, dg Yt] = G'[Y0, dg Y0] + the missing entries' part, Y0 the
       observed entries (fixed over the run) with 0 where missing: GY0 (r x
       2c) once; per iteration a pass over the rows of G' (Gt, r x n) with a
       missing entry, in the missing entries' row lists mp, mi */
    double *Gt, *GY0;
    int *mp, *mi;
} proj_fixed;

/* Yt: the starting point (its observed entries stay fixed); missing: n x c. */
static int proj_prepare(const lewl_options *opt, const lewl_kernel *ker, const double *GtG,
                        const double *Yt, const int *missing, proj_fixed *pf)
{
    int n = opt->n, r = ker->r, t = 0;
    const double *G = ker->K, *dg = ker->dg;
    double *A = (double *) R_alloc((size_t) r * r, sizeof(double));
    double *ev = (double *) R_alloc((size_t) r, sizeof(double));
    double *O = (double *) R_alloc((size_t) r * r, sizeof(double));
    memcpy(A, GtG, sizeof(double) * (size_t) r * r);
    int info = sym_eigen_desc(r, A, 1e-10, &t, ev, O);
    if (info != 0) return info > 0 ? -info : info;
    pf->rv = t;
    pf->Vc = O;  /* its first t columns, scaled */
    for (int j = 0; j < t; j++)
        for (int i = 0; i < r; i++) O[IDX(i, j, r)] /= sqrt(ev[j]);
    /* G' diag(dg) G by dsyrk on sqrt(dg) G, in blocks of rows; G'dg, G'dg^2 */
    double *GtDG = (double *) R_alloc((size_t) r * r, sizeof(double));
    double *gd = (double *) R_alloc((size_t) r * 2, sizeof(double));
    memset(GtDG, 0, sizeof(double) * (size_t) r * r);
    memset(gd, 0, sizeof(double) * (size_t) r * 2);
    int blk = 2048;
    double *Sb = (double *) R_alloc((size_t) blk * r, sizeof(double));
    double one = 1.0;
    pf->s1 = pf->s2 = pf->s3 = 0.0;
    for (int i0 = 0; i0 < n; i0 += blk) {
        int nb = n - i0 < blk ? n - i0 : blk;
        for (int j = 0; j < r; j++)
            for (int i = 0; i < nb; i++) {
                double g = G[IDX(i0 + i, j, n)], d = dg[i0 + i];
                Sb[IDX(i, j, nb)] = sqrt(d) * g;
                gd[j] += d * g;
                gd[r + j] += d * d * g;
            }
        F77_CALL(dsyrk)("U", "T", &r, &nb, &one, Sb, &nb, &one, GtDG, &r FCONE FCONE);
    }
    symmetrize_upper(r, GtDG);
    for (int i = 0; i < n; i++) {
        double d = dg[i];
        pf->s1 += d;
        pf->s2 += d * d;
        pf->s3 += d * d * d;
    }
    /* VDV = Vc' GtDG Vc; AVV = lambda (diag(sigma^2) + VDV); V'dg, V'dg^2 */
    double *tmp = (double *) R_alloc((size_t) r * t, sizeof(double));
    pf->VDV = (double *) R_alloc((size_t) t * t, sizeof(double));
    pf->AVV = (double *) R_alloc((size_t) t * t, sizeof(double));
    pf->Vd = (double *) R_alloc((size_t) t * 2, sizeof(double));
    pf->Vd2 = pf->Vd + t;
    gemm('N', 'N', r, t, r, 1.0, GtDG, r, O, r, 0.0, tmp, r);
    gemm('T', 'N', t, t, r, 1.0, O, r, tmp, r, 0.0, pf->VDV, t);
    for (size_t q = 0; q < (size_t) t * t; q++) pf->AVV[q] = opt->lambda * pf->VDV[q];
    for (int j = 0; j < t; j++) pf->AVV[IDX(j, j, t)] += opt->lambda * ev[j];
    gemm('T', 'N', t, 2, r, 1.0, O, r, gd, r, 0.0, pf->Vd, t);
    int c = opt->c;
    if (c > 0) {
        double *Y0 = (double *) R_alloc((size_t) n * 2 * c, sizeof(double));
        pf->GY0 = (double *) R_alloc((size_t) r * 2 * c, sizeof(double));
        pf->mp = (int *) R_alloc((size_t) n + 1, sizeof(int));
        size_t nm = 0;
        for (int l = 0; l < c; l++)
            for (int i = 0; i < n; i++) {
                double y = missing[IDX(i, l, n)] ? 0.0 : Yt[IDX(i, l, n)];
                Y0[IDX(i, l, n)] = y;
                Y0[IDX(i, c + l, n)] = dg[i] * y;
                nm += missing[IDX(i, l, n)] != 0;
            }
        gemm('T', 'N', r, 2 * c, n, 1.0, G, n, Y0, n, 0.0, pf->GY0, r);
        pf->mi = (int *) R_alloc(nm + 1, sizeof(int));
        size_t q = 0;
        for (int i = 0; i < n; i++) {
            pf->mp[i] = (int) q;
            for (int l = 0; l < c; l++)
                if (missing[IDX(i, l, n)]) pf->mi[q++] = l;
        }
        pf->mp[n] = (int) q;
        pf->Gt = (double *) R_alloc((size_t) r * n, sizeof(double));
        for (int j = 0; j < r; j++)
            for (int i = 0; i < n; i++) pf->Gt[IDX(j, i, r)] = G[IDX(i, j, n)];
    }
    return 0;
}

/* The projected Z-step (see proj_fixed).  Returns 0 done, 1 when span(B)
 * holds fewer than k directions (the caller falls back to the eigensolver),
 * < 0 a LAPACK failure.  *resid: the largest residual ||M z - theta z|| of
 * the k Ritz pairs over theta_k; each residual is lambda ||(I - P_B)
 * diag(dg) z|| (M z - theta z is orthogonal to span(B), and M's low-rank
 * part maps into it), from ||dg z||^2 - ||S' diag(dg) z||^2 with S'diag(dg)S
 * at hand.  R_alloc scratch: O(n c + (r + c)^2). */
static int zstep_projected(const lewl_options *opt, const lewl_kernel *ker,
                           const proj_fixed *pf, const double *Yt, double *values,
                           double *Z, double *resid)
{
    int n = opt->n, c = opt->c, k = opt->k, r = ker->r, rv = pf->rv, c2 = c + 2;
    const double *G = ker->K, *dg = ker->dg;
    double lam = opt->lambda, zero = 0.0, one = 1.0;  /* (dsyrk's scalars) */
    /* R = [1, dg, Yt] (never formed) and R' R, R' diag(dg) R; G'[Yt, dg Yt];
       YD = diag(dg) Yt */
    double *YD = (double *) R_alloc((size_t) n * (c > 0 ? c : 1), sizeof(double));
    double *GY = (double *) R_alloc((size_t) r * 2 * (c > 0 ? c : 1), sizeof(double));
    double *YY = (double *) R_alloc((size_t) (c > 0 ? c : 1) * 2 * (c > 0 ? c : 1),
                                    sizeof(double));
    double *RR = (double *) R_alloc((size_t) c2 * c2, sizeof(double));
    double *RDR = (double *) R_alloc((size_t) c2 * c2, sizeof(double));
    RR[IDX(0, 0, c2)] = n;
    RR[IDX(0, 1, c2)] = RR[IDX(1, 0, c2)] = RDR[IDX(0, 0, c2)] = pf->s1;
    RR[IDX(1, 1, c2)] = RDR[IDX(0, 1, c2)] = RDR[IDX(1, 0, c2)] = pf->s2;
    RDR[IDX(1, 1, c2)] = pf->s3;
    if (c > 0) {
        for (int l = 0; l < c; l++) {
            const double *y = Yt + IDX(0, l, n);
            double *yd = YD + IDX(0, l, n), a = 0.0, b = 0.0, e = 0.0;
            for (int i = 0; i < n; i++) {
                yd[i] = dg[i] * y[i];
                a += y[i];
                b += yd[i];
                e += dg[i] * yd[i];
            }
            RR[IDX(0, 2 + l, c2)] = RR[IDX(2 + l, 0, c2)] = a;    /* 1'y */
            RR[IDX(1, 2 + l, c2)] = RR[IDX(2 + l, 1, c2)] = b;    /* dg'y */
            RDR[IDX(0, 2 + l, c2)] = RDR[IDX(2 + l, 0, c2)] = b;
            RDR[IDX(1, 2 + l, c2)] = RDR[IDX(2 + l, 1, c2)] = e;  /* (dg^2)'y */
        }
        memcpy(GY, pf->GY0, sizeof(double) * (size_t) r * 2 * c);
        for (int i = 0; i < n; i++) {
            const double *g = pf->Gt + IDX(0, i, r);
            for (int q = pf->mp[i]; q < pf->mp[i + 1]; q++) {
                int l = pf->mi[q];
                double v = Yt[IDX(i, l, n)], vd = dg[i] * v;
                double *a1 = GY + IDX(0, l, r), *a2 = GY + IDX(0, c + l, r);
                for (int j = 0; j < r; j++) {
                    a1[j] += v * g[j];
                    a2[j] += vd * g[j];
                }
            }
        }
        /* Yt'Yt and Yt' diag(dg) Yt, their upper triangles only (half the
           flops of the full products, 5% of an iteration at 20000 rows) */
        F77_CALL(dsyrk)("U", "T", &c, &n, &one, Yt, &n, &zero, YY, &c FCONE FCONE);
        for (int j = 0; j < c; j++)
            gemm('T', 'N', j + 1, 1, n, 1.0, Yt, n, YD + IDX(0, j, n), n, 0.0,
                 YY + IDX(0, c + j, c), c);
        for (int j = 0; j < c; j++)
            for (int i = 0; i <= j; i++) {
                RR[IDX(2 + i, 2 + j, c2)] = RR[IDX(2 + j, 2 + i, c2)] = YY[IDX(i, j, c)];
                RDR[IDX(2 + i, 2 + j, c2)] = RDR[IDX(2 + j, 2 + i, c2)] =
                    YY[IDX(i, c + j, c)];
            }
    }
    /* V'R = [0, V'dg, Vc'G'Yt], V'DR = [V'dg, V'dg^2, Vc'G'(dg Yt)] (rv x c2) */
    double *VR = (double *) R_alloc((size_t) rv * c2, sizeof(double));
    double *VDR = (double *) R_alloc((size_t) rv * c2, sizeof(double));
    for (int i = 0; i < rv; i++) {
        VR[IDX(i, 0, rv)] = 0.0;
        VR[IDX(i, 1, rv)] = VDR[IDX(i, 0, rv)] = pf->Vd[i];
        VDR[IDX(i, 1, rv)] = pf->Vd2[i];
    }
    if (c > 0) {
        gemm('T', 'N', rv, c, r, 1.0, pf->Vc, r, GY, r, 0.0, VR + IDX(0, 2, rv), rv);
        gemm('T', 'N', rv, c, r, 1.0, pf->Vc, r, GY + IDX(0, c, r), r, 0.0,
             VDR + IDX(0, 2, rv), rv);
    }
    /* R_perp = (I - V V') R: its Gram matrix N = R'R - (V'R)'(V'R), and
       C2 = E diag(ev)^{-1/2} over ev above 1e-10 of the top: Q2 = R_perp C2 */
    double *N = (double *) R_alloc((size_t) c2 * c2, sizeof(double));
    memcpy(N, RR, sizeof(double) * (size_t) c2 * c2);
    gemm('T', 'N', c2, c2, rv, -1.0, VR, rv, VR, rv, 1.0, N, c2);
    double *ev = (double *) R_alloc((size_t) c2, sizeof(double));
    double *C2 = (double *) R_alloc((size_t) c2 * c2, sizeof(double));
    int t2 = 0;
    int info = sym_eigen_desc(c2, N, 1e-10, &t2, ev, C2);
    if (info != 0) return info > 0 ? -info : info;
    for (int j = 0; j < t2; j++)
        for (int i = 0; i < c2; i++) C2[IDX(i, j, c2)] /= sqrt(ev[j]);
    int t = rv + t2;
    if (t < k) return 1;
    /* VDV (V'R): the V part of R_perp under diag(dg) */
    double *VDVR = (double *) R_alloc((size_t) rv * c2, sizeof(double));
    gemm('N', 'N', rv, c2, rv, 1.0, pf->VDV, rv, VR, rv, 0.0, VDVR, rv);
    /* R_perp' diag(dg) R_perp = R'DR - (V'R)'(V'DR) - (V'DR)'(V'R) + (V'R)' VDV (V'R) */
    double *PDP = (double *) R_alloc((size_t) c2 * c2, sizeof(double));
    memcpy(PDP, RDR, sizeof(double) * (size_t) c2 * c2);
    gemm('T', 'N', c2, c2, rv, -1.0, VR, rv, VDR, rv, 1.0, PDP, c2);
    gemm('T', 'N', c2, c2, rv, -1.0, VDR, rv, VR, rv, 1.0, PDP, c2);
    gemm('T', 'N', c2, c2, rv, 1.0, VR, rv, VDVR, rv, 1.0, PDP, c2);
    /* V' diag(dg) R_perp = V'DR - VDV (V'R) */
    double *VDP = (double *) R_alloc((size_t) rv * c2, sizeof(double));
    for (size_t q = 0; q < (size_t) rv * c2; q++) VDP[q] = VDR[q] - VDVR[q];
    /* 1'Q2, dg'Q2 (rows of R_perp' 1 = R'1 as V'1 = 0, and R'dg - (V'R)'V'dg) */
    double *u1 = (double *) R_alloc((size_t) c2, sizeof(double));
    double *ud = (double *) R_alloc((size_t) c2, sizeof(double));
    for (int j = 0; j < c2; j++) {
        double a = RR[IDX(0, j, c2)], b = RR[IDX(1, j, c2)];
        for (int i = 0; i < rv; i++) b -= VR[IDX(i, j, rv)] * pf->Vd[i];
        u1[j] = a;
        ud[j] = b;
    }
    double *q1 = (double *) R_alloc((size_t) t2 + 1, sizeof(double));
    double *qd = (double *) R_alloc((size_t) t2 + 1, sizeof(double));
    for (int j = 0; j < t2; j++) {
        double a = 0.0, b = 0.0;
        for (int i = 0; i < c2; i++) {
            a += u1[i] * C2[IDX(i, j, c2)];
            b += ud[i] * C2[IDX(i, j, c2)];
        }
        q1[j] = a;
        qd[j] = b;
    }
    /* S'Yt: V'Yt (the columns 2.. of V'R), Q2'Yt = C2'(R'Yt - (V'R)'(V'Yt)) */
    double *SY = (double *) R_alloc((size_t) t * (c > 0 ? c : 1), sizeof(double));
    if (c > 0) {
        double *RY = (double *) R_alloc((size_t) c2 * c, sizeof(double));
        for (int j = 0; j < c; j++)
            for (int i = 0; i < c2; i++) RY[IDX(i, j, c2)] = RR[IDX(i, 2 + j, c2)];
        gemm('T', 'N', c2, c, rv, -1.0, VR, rv, VR + IDX(0, 2, rv), rv, 1.0, RY, c2);
        for (int j = 0; j < c; j++)
            memcpy(SY + IDX(0, j, t), VR + IDX(0, 2 + j, rv), sizeof(double) * rv);
        double *Q2Y = (double *) R_alloc((size_t) (t2 > 0 ? t2 : 1) * c, sizeof(double));
        if (t2 > 0) gemm('T', 'N', t2, c, c2, 1.0, C2, c2, RY, c2, 0.0, Q2Y, t2);
        for (int j = 0; j < c; j++)
            for (int i = 0; i < t2; i++) SY[IDX(rv + i, j, t)] = Q2Y[IDX(i, j, t2)];
    }
    /* T = S' M S, S = [V, Q2]: (S'Yt)(S'Yt)' + lambda [[Sigma^2 + VDV, V'DHQ2],
       [., Q2'HDHQ2]] (V'G G' Q2 = 0, H V = V, H Q2 = Q2 - 1 (1'Q2) / n) */
    double *T = (double *) R_alloc((size_t) t * t, sizeof(double));
    double *SDS = (double *) R_alloc((size_t) t * t, sizeof(double));  /* S' diag(dg) S */
    memset(T, 0, sizeof(double) * (size_t) t * t);
    for (int j = 0; j < rv; j++)
        memcpy(SDS + IDX(0, j, t), pf->VDV + IDX(0, j, rv), sizeof(double) * rv);
    for (int j = 0; j < rv; j++)
        memcpy(T + IDX(0, j, t), pf->AVV + IDX(0, j, rv), sizeof(double) * rv);
    if (t2 > 0) {
        double *A12 = (double *) R_alloc((size_t) rv * t2, sizeof(double));
        gemm('N', 'N', rv, t2, c2, 1.0, VDP, rv, C2, c2, 0.0, A12, rv);
        double *PC = (double *) R_alloc((size_t) c2 * t2, sizeof(double));
        double *A22 = (double *) R_alloc((size_t) t2 * t2, sizeof(double));
        gemm('N', 'N', c2, t2, c2, 1.0, PDP, c2, C2, c2, 0.0, PC, c2);
        gemm('T', 'N', t2, t2, c2, 1.0, C2, c2, PC, c2, 0.0, A22, t2);
        for (int j = 0; j < t2; j++) {
            for (int i = 0; i < rv; i++)
                SDS[IDX(i, rv + j, t)] = SDS[IDX(rv + j, i, t)] = A12[IDX(i, j, rv)];
            for (int i = 0; i < t2; i++) SDS[IDX(rv + i, rv + j, t)] = A22[IDX(i, j, t2)];
            for (int i = 0; i < rv; i++) {
                double v = lam * (A12[IDX(i, j, rv)] - pf->Vd[i] * q1[j] / n);
                T[IDX(i, rv + j, t)] = v;
                T[IDX(rv + j, i, t)] = v;
            }
            for (int i = 0; i < t2; i++)
                T[IDX(rv + i, rv + j, t)] = lam *
                    (A22[IDX(i, j, t2)] - (qd[i] * q1[j] + q1[i] * qd[j]) / n +
                     pf->s1 * q1[i] * q1[j] / ((double) n * n));
        }
    }
    if (c > 0) gemm('N', 'T', t, t, c, 1.0, SY, t, SY, t, 1.0, T, t);
    double *U = (double *) R_alloc((size_t) t * k, sizeof(double));
    info = sym_eigen_top(t, T, k, values, U);
    if (info != 0) return info > 0 ? -info : info;
    double *SDU = (double *) R_alloc((size_t) t * k, sizeof(double));
    gemm('N', 'N', t, k, t, 1.0, SDS, t, U, t, 0.0, SDU, t);
    /* Z = V U_V + Q2 U_2 = G Vc (U_V - (V'R) X2) + R X2, X2 = C2 U_2 */
    double *X2 = (double *) R_alloc((size_t) c2 * k, sizeof(double));
    double *XV = (double *) R_alloc((size_t) rv * k, sizeof(double));
    double *XG = (double *) R_alloc((size_t) r * k, sizeof(double));
    memset(X2, 0, sizeof(double) * (size_t) c2 * k);
    for (int j = 0; j < k; j++)
        memcpy(XV + IDX(0, j, rv), U + IDX(0, j, t), sizeof(double) * rv);
    if (t2 > 0) {
        gemm('N', 'N', c2, k, t2, 1.0, C2, c2, U + rv, t, 0.0, X2, c2);
        gemm('N', 'N', rv, k, c2, -1.0, VR, rv, X2, c2, 1.0, XV, rv);
    }
    gemm('N', 'N', r, k, rv, 1.0, pf->Vc, r, XV, rv, 0.0, XG, r);
    gemm('N', 'N', n, k, r, 1.0, G, n, XG, r, 0.0, Z, n);
    for (int j = 0; j < k; j++) {
        double a = X2[IDX(0, j, c2)], b = X2[IDX(1, j, c2)];
        double *z = Z + IDX(0, j, n);
        for (int i = 0; i < n; i++) z[i] += a + b * dg[i];
    }
    if (c > 0) gemm('N', 'N', n, k, c, 1.0, Yt, n, X2 + 2, c2, 1.0, Z, n);
    double rmax = 0.0;
    for (int j = 0; j < k; j++) {
        const double *z = Z + IDX(0, j, n), *a = SDU + IDX(0, j, t);
        double dz = 0.0, sz = 0.0;
        for (int i = 0; i < n; i++) dz += dg[i] * dg[i] * z[i] * z[i];
        for (int i = 0; i < t; i++) sz += a[i] * a[i];
        double rj = lam * sqrt(fmax(dz - sz, 0.0));
        if (rj > rmax) rmax = rj;
    }
    *resid = values[k - 1] > 0.0 ? rmax / values[k - 1] : R_PosInf;
    /* Z (Z'Z)^{-1/2}: orthonormal to rounding (Z'Z = I in exact arithmetic);
       Z'Z's upper triangle, all sym_eigen_desc() reads */
    double *ZZ = (double *) R_alloc((size_t) k * k, sizeof(double));
    double *E = (double *) R_alloc((size_t) k * k, sizeof(double));
    double *ew = (double *) R_alloc((size_t) k, sizeof(double));
    F77_CALL(dsyrk)("U", "T", &k, &n, &one, Z, &n, &zero, ZZ, &k FCONE FCONE);
    int tk = 0;
    info = sym_eigen_desc(k, ZZ, 1e-8, &tk, ew, E);
    if (info != 0) return info > 0 ? -info : info;
    if (tk < k) return 1;
    double *W = (double *) R_alloc((size_t) k * k, sizeof(double));
    for (int j = 0; j < k; j++)
        for (int i = 0; i < k; i++) {
            double s = 0.0;
            for (int l = 0; l < k; l++)
                s += E[IDX(i, l, k)] * E[IDX(j, l, k)] / sqrt(ew[l]);
            W[IDX(i, j, k)] = s;
        }
    double *Zc = (double *) R_alloc((size_t) n * k, sizeof(double));
    memcpy(Zc, Z, sizeof(double) * (size_t) n * k);
    gemm('N', 'N', n, k, k, 1.0, Zc, n, W, k, 0.0, Z, n);
    return 0;
}

/* The entries' part of the stopping test (LEWL_STOP_SETTLED): the largest
 * change of a missing entry in iteration it, dx = steps[it] = |T(x) - x|,
 * times rho / (1 - rho), is at most xtol; rho is the largest of rates[s] =
 * |T(x_s) - T(x_s-1)| / |x_s - x_s-1| over the last LEWL_SETTLED_WINDOW
 * iterations (max norms), the contraction of the map T seen there (for the
 * plain scheme the ratio of consecutive steps).  If T contracts by rho, the
 * returned T(x) lies within rho dx / (1 - rho) of the fixed point x*
 * (|x - x*| <= dx / (1 - rho)).  A ratio >= 1 never passes; dx = 0 (an
 * exact fixed point) always does. */
int lewl_settled(const double *steps, const double *rates, int it, double xtol)
{
    double dx = steps[it], rho = 0.0;
    if (!(dx > 0.0)) return 1;
    if (it < 1) return 0;
    int s0 = it - LEWL_SETTLED_WINDOW + 1;
    if (s0 < 1) s0 = 1;
    for (int s = s0; s <= it; s++)
        if (!(rates[s] <= rho)) rho = rates[s];  /* NaN: fails below */
    if (!(rho < 1.0)) return 0;
    return dx * rho <= xtol * (1.0 - rho);
}

int lewl_run(const lewl_options *opt, const lewl_graph *G, const double *Y,
             const int *missing, const lewl_kernel *K, const double *Z0, int k0,
             double *Yt, double *Z, double *D, double *values, double *objective,
             int *cg_iter, lewl_eig_trace *trace, int *iter)
{
    int n = opt->n, c = opt->c, k = opt->k, b = opt->eig_block;
    size_t nc = (size_t) n * c;
    if (b < k) b = k;
    if (b > n) b = n;
    int depth = opt->eig_depth < 1 ? 1 : opt->eig_depth;
    /* the factor kernel: the Gram route (zstep_gram), unless another is
       forced; its rare fallback is the iterative (or, where that basis
       exceeds n, the dense) route */
    int gram = K->r > 0 && !K->dg &&
        (opt->eig_method == LEWL_EIG_AUTO || opt->eig_method == LEWL_EIG_GRAM);
    /* with its diagonal: the projected route (zstep_projected), unless
       another is forced; its fallback as the Gram route's */
    int projected = K->r > 0 && K->dg && (opt->eig_method == LEWL_EIG_PROJECTED ||
        (opt->eig_method == LEWL_EIG_AUTO && n > LEWL_DENSE_MAX));
    /* the exact kernel with its eigendecomposition: the basis route
       (basis_op), unless another is forced or the eigensolver's basis
       exceeds n (then the dense route) */
    int basis = K->r == 0 && K->V && (double) b * (depth + 1) <= n &&
        (opt->eig_method == LEWL_EIG_AUTO || opt->eig_method == LEWL_EIG_BASIS);
    int dense = opt->eig_method == LEWL_EIG_DENSE ||
        (opt->eig_method == LEWL_EIG_AUTO && !gram && !projected && !basis &&
         (n <= LEWL_DENSE_MAX || 2.0 * b * (depth + 1) > n)) ||
        (double) b * (depth + 1) > n;
    trace->dense = dense && !gram && !projected;
    const double *GtG = NULL;
    double *S = NULL, *U = NULL;
    /* the factor with its diagonal: the low-rank part's exact eigenvectors
       as the eigensolver's warm start (opt->eig_warm_gram) */
    int warm_gram = K->r > 0 && K->dg && opt->eig_warm_gram && k <= K->r + c;
    if (gram || warm_gram || projected) {
        int rr = K->r, pp = K->r + c;
        if (K->GtG) {
            GtG = K->GtG;
        } else {
            double *g = (double *) R_alloc((size_t) rr * rr, sizeof(double));
            gemm('T', 'N', rr, rr, n, 1.0, K->K, n, K->K, n, 0.0, g, rr);
            GtG = g;
        }
        S = (double *) R_alloc((size_t) pp * pp, sizeof(double));
        U = (double *) R_alloc((size_t) pp * k, sizeof(double));
    }
    proj_fixed pf = {0};
    if (projected) {
        int info = proj_prepare(opt, K, GtG, Yt, missing, &pf);
        if (info != 0) return LEWL_ERR_EIGEN;
    }
    trace->unconverged = 0;
    double *ZD = (double *) R_alloc(nc, sizeof(double));
    int wk = b > k ? b : k, rs = K->r == 0 ? n : K->r;
    double *scratch = (double *) R_alloc((size_t) rs * wk, sizeof(double));
    double *small = (double *) R_alloc((size_t) (c > 0 ? c : 1) * wk, sizeof(double));
    double *r = (double *) R_alloc((size_t) n, sizeof(double));
    double *yold = (double *) R_alloc((size_t) n, sizeof(double));
    /* the missing entries of x and T(x) at the previous iteration */
    double *xprev = (double *) R_alloc(nc + 1, sizeof(double));
    double *tprev = (double *) R_alloc(nc + 1, sizeof(double));
    memcpy(xprev, Yt, sizeof(double) * nc);
    memcpy(tprev, Yt, sizeof(double) * nc);
    cg_work cgw;
    cg_work_alloc(&cgw, n, G->p[n]);
    int *free_ = (int *) R_alloc(nc, sizeof(int));
    double *M = NULL, *rowmean = NULL, mall = 0.0, *X = NULL, *w = NULL, *hist = NULL;
    /* the eigensolver's calls in a row on its own warm starts (X left as the
       last call returned it): from the third on, the output of the call
       before the last (hist, two slots by the call's parity) is the history
       block of eigs_top() */
    int zcalls = 0;
    if (dense) {
        M = (double *) R_alloc((size_t) n * n, sizeof(double));
        if (K->r == 0) {
            rowmean = (double *) R_alloc((size_t) n, sizeof(double));
            for (int j = 0; j < n; j++) {
                double s = 0.0;
                for (int i = 0; i < n; i++) s += K->K[IDX(i, j, n)];
                rowmean[j] = s / n;  /* K symmetric */
                mall += s;
            }
            mall /= (double) n * n;
        }
    } else {
        /* the eigensolver's block: the warm start Z0, then the labels, then
           fixed pseudo-random directions */
        X = (double *) R_alloc((size_t) n * b, sizeof(double));
        w = (double *) R_alloc((size_t) b, sizeof(double));
        hist = (double *) R_alloc((size_t) 2 * n * k, sizeof(double));
        eigs_fill_noise(n, b, X, 2020u);
        int j0 = 0;
        if (Z0)
            for (; j0 < k0 && j0 < b; j0++)
                memcpy(X + IDX(0, j0, n), Z0 + IDX(0, j0, n), sizeof(double) * n);
        for (int l = 0; l < c && j0 + l < b; l++) {
            double *x = X + IDX(0, j0 + l, n);
            for (int i = 0; i < n; i++) x[i] = Yt[IDX(i, l, n)] + 0.01 * x[i];
        }
        if (basis) {  /* the block in the eigenbasis: V' X */
            memcpy(scratch, X, sizeof(double) * (size_t) n * b);
            gemm('T', 'N', n, b, n, 1.0, K->V, n, scratch, n, 0.0, X, n);
        }
    }
    zstep_ctx ctx = {K, c, opt->lambda, Yt, scratch, small};
    double *F = basis ? (double *) R_alloc((size_t) n * (c > 0 ? c : 1), sizeof(double))
        : NULL;
    basis_ctx bctx = {n, c, opt->lambda, K->s, F, small};
    eigs_options eopt = {n, k, b, depth, opt->eig_max_restart, opt->eig_tol};
    for (size_t q = 0; q < nc; q++)
        free_[q] = opt->recovery == LEWL_RECOVER_PAPER ? 1 : missing[q] != 0;

    int status = LEWL_NOT_CONVERGED;
    *iter = 0;
    anderson aa;
    int accel = opt->accel > 0 && c > 0;
    if (accel) anderson_alloc(&aa, opt->accel, nc, missing);
    if (accel && aa.nm == 0) accel = 0;
    trace->accel_steps = trace->accel_rejected = 0;
    int pending = 0;     /* Yt holds an Anderson step not yet checked */
    double fsafe = 0.0;  /* the objective the plain scheme had reached before it */
    for (int it = 0; it < opt->max_iter; it++) {
        R_CheckUserInterrupt();
        trace->restarts[it] = 0;
        trace->products[it] = 0;
        for (;;) {
            /* Z-step: the top-k eigenvectors of M = lambda H K H + Yt Yt' */
            const void *vmax = vmaxget();
            double presid = 0.0;
            int gs = gram ? zstep_gram(opt, K, GtG, Yt, S, U, values, Z)
                : projected ? zstep_projected(opt, K, &pf, Yt, values, Z, &presid) : 1;
            /* "auto" keeps a projected Z-step only where its Ritz residuals
               are at most LEWL_PROJECTED_RESID of theta_k; else this Z-step
               takes the eigensolver's exact eigenvectors, started from the
               projected ones */
            int from_projected = gs == 0 && projected &&
                opt->eig_method == LEWL_EIG_AUTO && !(presid <= LEWL_PROJECTED_RESID);
            if (from_projected) {
                if (!dense) memcpy(X, Z, sizeof(double) * (size_t) n * k);
                zcalls = 0;
                gs = 1;
            }
            if (gs < 0) return LEWL_ERR_EIGEN;
            if (gs == 0) {
                if (!dense) memcpy(X, Z, sizeof(double) * (size_t) n * k);  /* a warm fallback */
                zcalls = 0;
            } else if (dense) {
                if (zstep_dense(opt, K, Yt, rowmean, mall, M, values, Z) != 0)
                    return LEWL_ERR_EIGEN;
            } else {
                /* every Z-step to eig_tol: an inexact one (a looser tolerance
                   while the objective still moves) would still never increase f
                   (Rayleigh-Ritz over a basis holding the previous Z), but the
                   alternating updates converge slowly, so the path's deviations
                   add up: measured, 0.008 in the recovered entries of medical */
                int rst = 0, prd = 0;
                if (warm_gram && !from_projected) {
                    /* Z and values as scratch; on failure the previous X */
                    lewl_kernel lowrank = *K;
                    lowrank.dg = NULL;
                    if (zstep_gram(opt, &lowrank, GtG, Yt, S, U, values, Z) == 0) {
                        memcpy(X, Z, sizeof(double) * (size_t) n * k);
                        zcalls = 0;
                    }
                }
                /* the basis route: F = V' Yt, the eigenvectors Z~ of M~ in
                   the eigenbasis (X stays there, the next warm start), Z = V Z~ */
                if (basis && c > 0)
                    gemm('T', 'N', n, c, n, 1.0, K->V, n, Yt, n, 0.0, F, n);
                double *slot = hist + (size_t) n * k * (zcalls % 2);
                const double *prev = zcalls >= 2 ? slot : NULL;
                int est = basis ? eigs_top(&eopt, basis_op, &bctx, X, prev, k, w, NULL, &rst,
                                           &prd)
                    : eigs_top(&eopt, zstep_op, &ctx, X, prev, k, w, NULL, &rst, &prd);
                if (est < 0) return LEWL_ERR_EIGEN;
                memcpy(slot, X, sizeof(double) * (size_t) n * k);
                zcalls++;
                if (est == EIGS_NOT_CONVERGED) trace->unconverged++;
                trace->restarts[it] += rst;
                trace->products[it] += prd;
                if (basis)
                    gemm('N', 'N', n, k, n, 1.0, K->V, n, X, n, 0.0, Z, n);
                else
                    memcpy(Z, X, sizeof(double) * (size_t) n * k);
                memcpy(values, w, sizeof(double) * (size_t) k);
            }
            vmaxset(vmax);
            if (!pending) break;
            /* the safeguard of an Anderson step x: its objective after the
               Z-step, g(x) = ||Yt||^2 + beta tr(Yt' L Yt) - sum of the top k
               eigenvalues (= min over Z, D at this Yt), must not exceed the
               plain scheme's objective f(T(x_prev), Z_prev, D_prev), which
               the plain step's own Z-step could only have lowered; else the
               plain point T(x_prev) is restored, the history dropped and the
               Z-step redone.  So the objectives stay non-increasing. */
            pending = 0;
            double g = 0.0;
            for (size_t q = 0; q < nc; q++) g += Yt[q] * Yt[q];
            g += opt->beta * lewl_smoothness(G, c, Yt, r);
            for (int j = 0; j < k; j++) g -= values[j];
            if (g <= fsafe + 1e-12 * fabs(fsafe)) break;
            trace->accel_rejected++;
            for (size_t e = 0; e < aa.nm; e++) Yt[aa.idx[e]] = aa.tprev[e];
            aa.count = aa.next = 0;
        }
        /* D-step: D = Z' Yt; then ZD */
        gemm('T', 'N', k, c, n, 1.0, Z, n, Yt, n, 0.0, D, k);
        gemm('N', 'N', n, c, k, 1.0, Z, n, D, k, 0.0, ZD, n);
        /* lambda tr(Z' H K H Z) = tr(Z' M Z) - ||Z' Yt||^2: the sum of the
           top k eigenvalues (Ritz values: z'Mz exactly) less ||D||^2, with
           no product with the kernel */
        double hsic = 0.0;
        for (int j = 0; j < k; j++) hsic += values[j];
        for (size_t q = 0; q < (size_t) k * c; q++) hsic -= D[q] * D[q];
        if (accel)
            for (size_t e = 0; e < aa.nm; e++) aa.x[e] = Yt[aa.idx[e]];
        /* Yt-step, column by column; the exact step over-relaxed from the
           second iteration on: y_old + omega (y* - y_old), omega in [1, 2),
           still lowers the quadratic in the missing entries (by the factor
           1 - (1 - omega)^2 of the exact step's decrease), and has the same
           fixed points (y* = y_old) */
        int cgs = 0;
        double dx = 0.0, dt = 0.0, dxx = 0.0;
        double omega = (opt->recovery == LEWL_RECOVER_EXACT && it > 0) ? opt->relax : 1.0;
        for (int l = 0; l < c; l++) {
            double *y = Yt + IDX(0, l, n);
            memcpy(yold, y, sizeof(double) * (size_t) n);
            cgs += cg_masked(G, opt->beta, ZD + IDX(0, l, n), free_ + IDX(0, l, n), y,
                             opt->cg_tol, opt->cg_max, &cgw, r);
            if (opt->recovery == LEWL_RECOVER_PAPER)
                for (int i = 0; i < n; i++)
                    if (!missing[IDX(i, l, n)]) y[i] = Y[IDX(i, l, n)];
            if (omega != 1.0)
                for (int i = 0; i < n; i++) y[i] = yold[i] + omega * (y[i] - yold[i]);
            /* the largest change of a missing entry, the step T(x) - x; and
               the largest changes of T(x) and of x since the last iteration */
            const int *ml = missing + IDX(0, l, n);
            double *xp = xprev + IDX(0, l, n), *tp = tprev + IDX(0, l, n);
            for (int i = 0; i < n; i++)
                if (ml[i]) {
                    double a = fabs(y[i] - yold[i]);
                    if (a > dx) dx = a;
                    a = fabs(y[i] - tp[i]);
                    if (a > dt) dt = a;
                    a = fabs(yold[i] - xp[i]);
                    if (a > dxx) dxx = a;
                    xp[i] = yold[i];
                    tp[i] = y[i];
                }
        }
        trace->steps[it] = dx;
        /* the contraction of T seen in this iteration, |T(x_t) - T(x_t-1)| /
           |x_t - x_t-1| (the ratio of consecutive steps for the plain
           scheme, where x_t = T(x_t-1)) */
        trace->rates[it] = it == 0 ? 0.0 : dxx > 0.0 ? dt / dxx : dt > 0.0 ? R_PosInf : 0.0;
        cg_iter[it] = cgs;
        /* the objective after the iteration */
        double fit = 0.0;
        for (size_t q = 0; q < nc; q++) {
            double d = Yt[q] - ZD[q];
            fit += d * d;
        }
        double smooth = opt->beta * lewl_smoothness(G, c, Yt, r);  /* beta tr(Yt' L Yt) */
        double f = fit + smooth - hsic;
        objective[it] = f;
        *iter = it + 1;
        if (it > 0) {
            /* relative to |f|, or (opt->stop_terms) to the size of the
               objective's terms (each >= 0 up to rounding): |f| alone is
               near 0 where the HSIC term cancels the others (large lambda),
               which makes the test far stricter there */
            double prev = objective[it - 1];
            double scale = fmax(fabs(prev), fabs(f));
            if (opt->stop_rule == LEWL_STOP_TERMS)
                scale = fmax(scale, fit + fabs(smooth) + fabs(hsic));
            if (fabs(prev - f) <= opt->tol * (scale > 0.0 ? scale : 1.0) &&
                (opt->stop_rule != LEWL_STOP_SETTLED ||
                 lewl_settled(trace->steps, trace->rates, it, opt->xtol))) {
                status = LEWL_OK;
                break;
            }
        }
        /* the next point: T(x_t) (plain), or the Anderson step from it */
        if (accel && it + 1 < opt->max_iter && anderson_step(&aa, Yt)) {
            trace->accel_steps++;
            pending = 1;
            fsafe = f;
        }
    }
    /* a last Anderson step still pending is never returned: the loop ends on
       a recovery step, Yt = T(x) with its Z and D */
    return status;
}
