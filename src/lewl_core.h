/* LEWL: label embedding for weak (missing) labels (methods.md section 4). */
#ifndef LEWL_CORE_H
#define LEWL_CORE_H

#include <stddef.h>

#include "status.h"
#define LEWL_OK MLSS_OK
#define LEWL_NOT_CONVERGED MLSS_NOT_CONVERGED
#define LEWL_ERR_EIGEN MLSS_ERR_EIGEN

/* The symmetric kNN graph: W in compressed-column form, both triangles,
 * no diagonal; deg[i] = sum_j w_ij.  L = diag(deg) - W. */
typedef struct {
    int n;
    const int *p, *i;
    const double *w;
    double *deg;
} lewl_graph;

/* How the missing entries are updated: the exact minimiser of the objective
 * over them (observed entries held fixed), or the paper's formula
 * P_Omega^c((I + beta L)^{-1} Z D). */
#define LEWL_RECOVER_EXACT 0
#define LEWL_RECOVER_PAPER 1

/* How the Z-step finds the top-k eigenvectors of Yt Yt' + lambda H K H:
 * the dense n x n matrix reduced by LAPACK (dsyevr, top k only), or the
 * iterative eigensolver of eigs_core.h on products with the matrix (never
 * formed); "auto" takes the dense route up to n = LEWL_DENSE_MAX (where
 * dsyevr was measured as fast: 0.70 s against 0.97 s CPU per iteration at
 * n = 1000 on enron rows, 4.9 s against 2.6 s at n = 2000, bench/lewl_scale.R;
 * at k = m, 0.36 s against 0.76 s for the basis route at n = 1000, 1.60 s
 * against 1.39 s at n = 1600, bench/lewl_eigbasis_results.md) and where the
 * iterative basis (b (depth + 1) columns) would exceed n / 2. */
#define LEWL_DENSE_MAX 1200
#define LEWL_EIG_AUTO 0
#define LEWL_EIG_DENSE 1
#define LEWL_EIG_ITERATIVE 2
/* The factor kernel (r > 0) only: the eigenvectors of M = F F', F = [sqrt(lambda) G,
 * Yt], from the (r + c) x (r + c) matrix F'F (no iteration; "auto" takes it). */
#define LEWL_EIG_GRAM 3
/* The factor with its diagonal only: Rayleigh-Ritz on the span of the low-rank
 * part [G, 1, dg, Yt] (zstep_projected; no iteration; "auto" takes it). */
#define LEWL_EIG_PROJECTED 4
/* "auto" takes the projected route above LEWL_DENSE_MAX rows, each Z-step
 * whose Ritz residuals are at most this share of the k-th Ritz value (the backward error of the projection against the eigenvalue scale;
 * after 3 iterations, k = m, lambda = 1: 0.0033 at 20000 enron-shaped rows,
 * 0.0011-0.0014 on yeast, 0.013 at 5000 rows, 0.036-0.039 on enron and
 * 0.050-0.055 on medical, bench/lewl_scale_results.md); the others take
 * the iterative eigensolver, started from the projected vectors. */
#define LEWL_PROJECTED_RESID 0.005
/* The exact kernel with its eigendecomposition H K H = V diag(s) V' (once per
 * prepared kernel, lewl_prepare()): the eigensolver of eigs_core.h on
 * M~ = V' M V = lambda diag(s) + F F', F = V' Yt, whose products cost O(n c)
 * per column instead of O(n^2); Z = V Z~ (basis_op() in lewl_core.c; "auto" takes it
 * whenever the basis is given and the eigensolver's basis fits in n). */
#define LEWL_EIG_BASIS 5

/* The stopping test (lewl_options.stop_rule). */
#define LEWL_STOP_OBJECTIVE 0
#define LEWL_STOP_TERMS 1
#define LEWL_STOP_SETTLED 2
#define LEWL_SETTLED_WINDOW 5

typedef struct {
    int n, c, k;
    double lambda, beta;
    int max_iter, recovery, cg_max;
    double tol, cg_tol;
    int eig_method, eig_block, eig_depth, eig_max_restart;  /* eig_block: b >= k */
    double eig_tol;  /* relative residual of each Ritz pair (eigs_core.h) */
    double relax;    /* over-relaxation of the exact recovery step, in [1, 2) */
    int accel;       /* Anderson mixing of the missing entries: history depth, 0 = off */
    int eig_warm_gram; /* factor with its diagonal: warm-start each Z-step's eigensolver
                          with the exact eigenvectors of the low-rank part (the Gram
                          route without the diagonal) in its first k columns */
    int stop_rule;     /* LEWL_STOP_*: the objective's change relative to |f|, or to
                          the size of the objective's terms, or relative to |f| and
                          the missing entries settled (lewl_settled(), xtol) */
    double xtol;       /* LEWL_STOP_SETTLED: the bound on the entries' estimated
                          distance from the fixed point */
} lewl_options;

/* The kernel term: r == 0, K is the n x n kernel matrix (not centred);
 * r > 0, K is an n x r factor G with centred columns, H K H ~ G G'
 * (Nystrom), optionally with the exact diagonal (dg). */
typedef struct {
    int n, r;
    const double *K;
    const double *dg;  /* r > 0: NULL, or the diagonal correction, H K H ~ G G' + H diag(dg) H */
    const double *GtG; /* r > 0: NULL, or G'G (r x r), computed once per prepared kernel */
    const double *V, *s; /* r == 0: NULL, or the eigenvectors (n x n) and eigenvalues (n)
                            of H K H, computed once per prepared kernel */
} lewl_kernel;

/* What the Z-steps of a run did: per iteration, the eigensolver's restarts
 * and products (columns), and the number of Z-steps whose eigensolver
 * stopped at eig_max_restart. */
typedef struct {
    int *restarts, *products;
    double *steps;  /* per iteration: the largest change of a missing entry */
    double *rates;  /* per iteration: |T(x_t) - T(x_t-1)| / |x_t - x_t-1| (lewl_settled()) */
    int unconverged, dense;
    int accel_steps, accel_rejected;  /* Anderson steps taken, and refused by the safeguard */
} lewl_eig_trace;

void lewl_graph_degrees(lewl_graph *G);
/* The entries' part of the LEWL_STOP_SETTLED test at iteration it (steps:
 * the largest change of a missing entry per iteration, rates: the
 * contraction seen per iteration); 1: settled. */
int lewl_settled(const double *steps, const double *rates, int it, double xtol);
/* out = (I + beta L) v */
void lewl_apply(const lewl_graph *G, double beta, const double *v, double *out);
/* tr(Y' L Y) for the n x c matrix Y. */
double lewl_smoothness(const lewl_graph *G, int c, const double *Y, double *scratch);

/* The alternating updates.  Y: n x c observed labels (any value where
 * missing); missing: n x c, non-zero where missing; K: the kernel term (read
 * only); Z0 (n x k0, or NULL): a warm start of the first Z-step's
 * eigensolver (e.g. the embedding of a nearby grid point); Yt: n x c, in: the starting point (Y with
 * the missing entries filled), out: the completed matrix; Z (n x k), D (k x c)
 * out; objective: max_iter values (the objective after each iteration);
 * cg_iter: the CG iterations of each recovery step.  Returns LEWL_OK,
 * LEWL_NOT_CONVERGED or LEWL_ERR_EIGEN; *iter = iterations run. */
int lewl_run(const lewl_options *opt, const lewl_graph *G, const double *Y,
             const int *missing, const lewl_kernel *K, const double *Z0, int k0,
             double *Yt, double *Z, double *D, double *values, double *objective,
             int *cg_iter, lewl_eig_trace *trace, int *iter);

#endif
