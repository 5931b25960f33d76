/* L2-regularised logistic regression by a trust-region Newton method with
 * conjugate gradients (Lin, Weng and Keerthi 2008; LIBLINEAR's solver 0):
 *
 *     min_w  0.5 w'w + C sum_i c_i log(1 + exp(-y_i w'x~_i))
 *
 * x~_i are the rows of a lin_rows (bias as an extra, penalised feature),
 * y_i in {-1, +1} (or {0, 1}, read as 0 -> -1), c_i optional instance weights
 * (NULL: all 1).  w (lin_dim entries) holds the starting point on entry (zeros
 * for a cold start) and the solution on exit.  Stops when
 * ||grad f(w)|| <= eps * max(min(#pos, #neg), 1) / n * ||grad f(0)||, as
 * LIBLINEAR does, so that a warm start stops at the same accuracy.
 * Uses R_alloc scratch and R_CheckUserInterrupt only.
 */
#ifndef MLSS_LOGISTIC_CORE_H
#define MLSS_LOGISTIC_CORE_H

#include "br_rows.h"

#define LOGISTIC_OK 0
#define LOGISTIC_MAXITER 1    /* max_iter Newton steps without convergence */
#define LOGISTIC_STALLED 2    /* no further decrease possible (numerical limit) */

int logistic_fit(const lin_rows *D, const double *y, const double *weight, double C,
                 double eps, int max_iter, double *w, int *iter);

/* The objective above at w (for the glue and the tests). */
double logistic_objective(const lin_rows *D, const double *y, const double *weight,
                          double C, const double *w);

#endif
