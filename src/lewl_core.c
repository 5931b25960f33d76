/* LEWL (lewl-nju2020; methods.md section 4): alternating updates of
 *   f(Yt, Z, D) = ||Yt - Z D||_F^2 + beta tr(Yt' L Yt) - lambda tr(Z' H K H Z)
 * over Z (Z'Z = I), D and the missing entries of Yt.
 *
 * - Z and D together: for fixed Yt, min_D ||Yt - Z D||^2 = ||Yt||^2 -
 *   ||Z'Yt||^2 at D = Z'Yt, so Z maximises tr(Z'(Yt Yt' + lambda HKH) Z): the
 *   top-k eigenvectors (dsyevr with an index range), then D = Z'Yt.  This
 *   is the exact minimiser over (Z, D) jointly.
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
#ifndef FCONE
#define FCONE
#endif
#include <R_ext/Utils.h>
#include <math.h>
#include <string.h>
#include "linalg.h"
#include "lewl_core.h"

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

/* Conjugate gradients on A y = b over the free entries of y (free[i] != 0),
 * the others held at their values; y in: the start, out: the solution.
 * r, p, Ap: scratch of length n.  Returns the iterations run. */
static int cg_masked(const lewl_graph *G, double beta, const double *b, const int *free_,
                     double *y, double tol, int max_iter, double *r, double *p, double *Ap)
{
    int n = G->n, nfree = 0, it = 0;
    double bnorm = 0.0, rs = 0.0;
    lewl_apply(G, beta, y, Ap);
    for (int i = 0; i < n; i++) {
        if (free_[i]) {
            nfree++;
            r[i] = b[i] - Ap[i];
            bnorm += b[i] * b[i];
            rs += r[i] * r[i];
        } else {
            r[i] = 0.0;
        }
        p[i] = r[i];
    }
    if (nfree == 0) return 0;
    double stop = tol * tol * (bnorm > 0.0 ? bnorm : 1.0);
    while (rs > stop && it < max_iter) {
        lewl_apply(G, beta, p, Ap);
        double pAp = 0.0;
        for (int i = 0; i < n; i++) if (free_[i]) pAp += p[i] * Ap[i];
        if (!(pAp > 0.0)) break;
        double alpha = rs / pAp, rs_new = 0.0;
        for (int i = 0; i < n; i++) {
            if (!free_[i]) continue;
            y[i] += alpha * p[i];
            r[i] -= alpha * Ap[i];
            rs_new += r[i] * r[i];
        }
        double ratio = rs_new / rs;
        for (int i = 0; i < n; i++) p[i] = free_[i] ? r[i] + ratio * p[i] : 0.0;
        rs = rs_new;
        it++;
    }
    return it;
}

/* lambda tr(Z' H K H Z) with HZ formed explicitly (K is not centred). */
static double hsic_term(int n, int k, double lambda, const double *K, const double *Z,
                        double *HZ, double *KHZ)
{
    for (int j = 0; j < k; j++) {
        const double *z = Z + IDX(0, j, n);
        double m = 0.0;
        for (int i = 0; i < n; i++) m += z[i];
        m /= n;
        for (int i = 0; i < n; i++) HZ[IDX(i, j, n)] = z[i] - m;
    }
    gemm('N', 'N', n, k, n, 1.0, K, n, HZ, n, 0.0, KHZ, n);
    double s = 0.0;
    for (size_t q = 0; q < (size_t) n * k; q++) s += HZ[q] * KHZ[q];
    return lambda * s;
}

int lewl_run(const lewl_options *opt, const lewl_graph *G, const double *Y,
             const int *missing, const double *K, double *Yt, double *Z, double *D,
             double *values, double *objective, int *cg_iter, int *iter)
{
    int n = opt->n, c = opt->c, k = opt->k;
    size_t nn = (size_t) n * n, nc = (size_t) n * c;
    double *M = (double *) R_alloc(nn, sizeof(double));
    double *rowmean = (double *) R_alloc((size_t) n, sizeof(double));
    double *ZD = (double *) R_alloc(nc, sizeof(double));
    double *HZ = (double *) R_alloc((size_t) n * k, sizeof(double));
    double *KHZ = (double *) R_alloc((size_t) n * k, sizeof(double));
    double *r = (double *) R_alloc((size_t) n, sizeof(double));
    double *p = (double *) R_alloc((size_t) n, sizeof(double));
    double *Ap = (double *) R_alloc((size_t) n, sizeof(double));
    int *free_ = (int *) R_alloc(nc, sizeof(int));
    double mall = 0.0;
    for (int j = 0; j < n; j++) {
        double s = 0.0;
        for (int i = 0; i < n; i++) s += K[IDX(i, j, n)];
        rowmean[j] = s / n;  /* K symmetric */
        mall += s;
    }
    mall /= (double) n * n;
    for (size_t q = 0; q < nc; q++)
        free_[q] = opt->recovery == LEWL_RECOVER_PAPER ? 1 : missing[q] != 0;

    int status = LEWL_NOT_CONVERGED;
    *iter = 0;
    for (int it = 0; it < opt->max_iter; it++) {
        R_CheckUserInterrupt();
        /* Z-step: M = lambda H K H + Yt Yt' (upper triangle), top-k eigenvectors */
        for (int j = 0; j < n; j++)
            for (int i = 0; i <= j; i++)
                M[IDX(i, j, n)] = opt->lambda *
                    (K[IDX(i, j, n)] - rowmean[i] - rowmean[j] + mall);
        if (c > 0) {
            double one = 1.0;
            F77_CALL(dsyrk)("U", "N", &n, &c, &one, Yt, &n, &one, M, &n FCONE FCONE);
        }
        if (sym_eigen_top(n, M, k, values, Z) != 0) return LEWL_ERR_EIGEN;
        /* D-step: D = Z' Yt; then ZD */
        gemm('T', 'N', k, c, n, 1.0, Z, n, Yt, n, 0.0, D, k);
        gemm('N', 'N', n, c, k, 1.0, Z, n, D, k, 0.0, ZD, n);
        /* Yt-step, column by column */
        int cgs = 0;
        for (int l = 0; l < c; l++) {
            double *y = Yt + IDX(0, l, n);
            cgs += cg_masked(G, opt->beta, ZD + IDX(0, l, n), free_ + IDX(0, l, n), y,
                             opt->cg_tol, opt->cg_max, r, p, Ap);
            if (opt->recovery == LEWL_RECOVER_PAPER)
                for (int i = 0; i < n; i++)
                    if (!missing[IDX(i, l, n)]) y[i] = Y[IDX(i, l, n)];
        }
        cg_iter[it] = cgs;
        /* the objective after the iteration */
        double fit = 0.0;
        for (size_t q = 0; q < nc; q++) {
            double d = Yt[q] - ZD[q];
            fit += d * d;
        }
        double f = fit + opt->beta * lewl_smoothness(G, c, Yt, r) -
            hsic_term(n, k, opt->lambda, K, Z, HZ, KHZ);
        objective[it] = f;
        *iter = it + 1;
        if (it > 0) {
            double prev = objective[it - 1];
            double scale = fmax(fabs(prev), fabs(f));
            if (fabs(prev - f) <= opt->tol * (scale > 0.0 ? scale : 1.0)) {
                status = LEWL_OK;
                break;
            }
        }
    }
    return status;
}
