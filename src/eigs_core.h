/* The top eigenpairs of a symmetric operator known only through products
 * (block Krylov subspace iteration with Rayleigh-Ritz, restarted).
 * Plain C on double*, no SEXP. */
#ifndef EIGS_CORE_H
#define EIGS_CORE_H

#include "status.h"
#define EIGS_OK MLSS_OK
#define EIGS_NOT_CONVERGED MLSS_NOT_CONVERGED
/* negative: LAPACK's info of the small eigenproblem or of a QR, or a failure
   of status.h */

/* out = M V for the n x b matrix V (column-major, leading dimension n), b at
 * most eigs_options.b. */
typedef void (*eigs_op)(void *ctx, int b, const double *V, double *out);

typedef struct {
    int n;            /* order of M */
    int k;            /* eigenpairs wanted (their residuals decide convergence) */
    int b;            /* block size, k <= b <= n (b - k: oversampling) */
    int depth;        /* Krylov blocks per restart: basis [X, MX, ..., M^depth X] */
    int max_restart;  /* restarts before giving up */
    double tol;       /* ||M x_i - theta_i x_i|| <= tol * |theta_1|, i = 1..k */
} eigs_options;

/* X: n x b, in: the start (need not be orthonormal; a warm start from the
 * previous call's X), out: the Ritz vectors, orthonormal, by decreasing Ritz
 * value; prev (may be NULL): n x kp, a history block joining X in the first
 * Rayleigh-Ritz (the call before the previous one's first kp Ritz vectors;
 * eigs_core.c; at most b columns are used); values: b Ritz values,
 * decreasing; resid (may be NULL): the k
 * relative residuals at exit; *restarts, *products: counts (products in
 * columns).  Returns EIGS_OK, EIGS_NOT_CONVERGED or a negative LAPACK code.
 * Scratch from R_alloc: 4 n s + 2 s^2 doubles, s = b (depth + 1). */
int eigs_top(const eigs_options *opt, eigs_op op, void *ctx, double *X, const double *prev,
             int kp, double *values, double *resid, int *restarts, int *products);

/* Fill the n x b matrix X with a fixed pseudo-random sequence in (-0.5, 0.5)
 * (splitmix64 from seed): reproducible starts that do not draw on R's RNG. */
void eigs_fill_noise(int n, int b, double *X, unsigned long long seed);

#endif
