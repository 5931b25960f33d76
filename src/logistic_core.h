/* L2-regularised logistic regression by a trust-region Newton method with
 * conjugate gradients (Lin, Weng and Keerthi 2008; LIBLINEAR's solver 0):
 *
 *     min_w  0.5 w'w + C sum_i c_i log(1 + exp(-y_i w'x~_i))
 *
 * x~_i are the rows of a lin_rows (bias as an extra, penalised feature),
 * y_i in {-1, +1} (or {0, 1}, read as 0 -> -1), c_i optional instance weights
 * (NULL: all 1).  w (lin_dim entries) holds the starting point on entry (zeros
 * for a cold start) and the solution on exit.  Stops when both
 *   ||grad f(w)|| <= eps * max(min(#pos, #neg), 1) / n * ||grad f(0)||
 * (LIBLINEAR's test, so that a warm start stops at the same accuracy) and a
 * Newton step from w (one that the trust region did not cut) predicts a
 * decrease of f below LOGISTIC_REL_DECREASE * max(1, |f(w)|); the step is then
 * taken.  The second test does not depend on the scale of the features: on a
 * column multiplied by 1e6 the first one alone stops far from the optimum.
 * Uses R_alloc scratch and R_CheckUserInterrupt only.
 */
#ifndef MLSS_LOGISTIC_CORE_H
#define MLSS_LOGISTIC_CORE_H

#include "br_rows.h"

#include "status.h"
#define LOGISTIC_OK MLSS_OK
#define LOGISTIC_MAXITER MLSS_NOT_CONVERGED  /* max_iter Newton steps without convergence */
#define LOGISTIC_STALLED MLSS_STALLED        /* no further decrease possible (numerical limit) */
#define LOGISTIC_NONFINITE MLSS_NONFINITE    /* the objective or its gradient overflows at the
                                                start or along the way: features or cost too large */

#define LOGISTIC_REL_DECREASE 1e-10

/* The losses the trust-region Newton solver minimises: the logistic one above,
 * and the squared hinge C sum_i c_i max(0, 1 - y_i w'x~_i)^2 of the L2-loss
 * linear SVM in the primal (LIBLINEAR's solver 2), with the same stopping rule
 * (the Newton decrease then uses the generalised Hessian, exact on the final
 * active set).  Both are scale-robust where dual coordinate descent is not. */
#define TRON_LOGISTIC 0
#define TRON_SQUARED_HINGE 1

int tron_fit(const lin_rows *D, const double *y, const double *weight, double C, int loss,
             double eps, int max_iter, double *w, int *iter);
double tron_objective(const lin_rows *D, const double *y, const double *weight,
                      double C, int loss, const double *w);
double tron_grad_norm(const lin_rows *D, const double *y, const double *weight,
                      double C, int loss, const double *w);

int logistic_fit(const lin_rows *D, const double *y, const double *weight, double C,
                 double eps, int max_iter, double *w, int *iter);

/* The objective above at w (for the glue and the tests). */
double logistic_objective(const lin_rows *D, const double *y, const double *weight,
                          double C, const double *w);

/* ||grad f(w)||, the gradient of the objective above. */
double logistic_grad_norm(const lin_rows *D, const double *y, const double *weight,
                          double C, const double *w);

#endif
