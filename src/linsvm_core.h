/* L2-regularised linear SVM by dual coordinate descent with shrinking
 * (Hsieh, Chang, Lin, Keerthi and Sundararajan 2008; LIBLINEAR's solvers 3
 * (hinge, "L1 loss") and 1 (squared hinge, "L2 loss")):
 *
 *     min_w  0.5 w'w + sum_i C_i xi_i(w),   xi_i = max(0, 1 - y_i w'x~_i)^loss
 *
 * with C_i = C * weight_i (weight NULL: all 1), y_i in {-1, +1} (0 read as -1)
 * and x~_i the rows of a lin_rows (bias as an extra, penalised feature).
 * Its dual, with Dii = 0 and U_i = C_i for the hinge, Dii = 1/(2 C_i) and
 * U_i = Inf for the squared hinge:
 *
 *     min_a  0.5 a'(Q + D)a - sum_i a_i,   0 <= a_i <= U_i,  Q_ij = y_i y_j x~_i'x~_j
 *
 * and w = sum_i a_i y_i x~_i.  alpha (n) holds the starting dual point on
 * entry (clipped to the box; zeros for a cold start) and the solution on exit;
 * w (lin_dim) receives the primal solution.  Stops when the largest minus the
 * smallest projected gradient over all instances is <= eps (LIBLINEAR's rule)
 * and the duality gap P(w) - D(a), which bounds P(w) - min P, is at most
 * LINSVM_GAP_TOL * P(w): the first depends on the scale of the features, the
 * second does not.  When the gap is still open after sweeps that cost
 * 1/20 of an interior-point solve (priced from n and p), at a stall, or at
 * max_iter, a primal-dual interior-point method on the dual with w kept as a
 * variable (see linsvm_core.c) takes over and stops at the same relative
 * gap (LINSVM_GAP_TOL times min(1, eps / 0.1)): dual coordinate descent alone
 * is not scale-robust (unscaled
 * features, a column times 1e6: gaps near 1 after 1000 sweeps); *iter then
 * counts the sweeps plus its steps.  Status LINSVM_OK, LINSVM_MAXITER, or
 * LINSVM_STALLED (when the interior-point method failed too or was out of
 * reach: more than 2e7 doubles for its matrices).
 * The visiting order is shuffled with a generator seeded by `seed`.
 * Uses R_alloc scratch and R_CheckUserInterrupt only.
 */
#ifndef MLSS_LINSVM_CORE_H
#define MLSS_LINSVM_CORE_H

#include "br_rows.h"

#define LINSVM_HINGE 1
#define LINSVM_SQUARED_HINGE 2

#include "status.h"
#define LINSVM_OK MLSS_OK
#define LINSVM_MAXITER MLSS_NOT_CONVERGED
#define LINSVM_STALLED MLSS_STALLED /* a full sweep moved nothing while the gap was open */

/* The relative duality gap that, with LIBLINEAR's test, ends a fit. */
#define LINSVM_GAP_TOL 1e-6

int linsvm_fit(const lin_rows *D, const double *y, const double *weight, double C,
               int loss, double eps, int max_iter, unsigned int seed, double *alpha,
               double *w, int *iter);

/* (P(w) - D(alpha)) / P(w) at a dual point alpha and weights w, with D read at
 * u = sum_i a_i y_i x~_i (weak duality: a bound for any pair):
 * the relative distance to the optimal objective that the fit certifies. */
double linsvm_relative_gap(const lin_rows *D, const double *y, const double *weight,
                           double C, int loss, const double *alpha, const double *w);

/* A dual starting point from primal weights w: the optimality conditions
 * a_i = C_i [margin < 1] (hinge) or a_i = 2 C_i max(0, 1 - margin) (squared
 * hinge), margin = y_i w'x~_i.  Exact at the optimum, feasible everywhere. */
void linsvm_dual_from_primal(const lin_rows *D, const double *y, const double *weight,
                             double C, int loss, const double *w, double *alpha);

#endif
