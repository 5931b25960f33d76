/* MLML (Wu et al. 2014): the box-constrained QP over the label matrix, solved
 * by projected gradient.  Plain C on double*, no SEXP. */
#ifndef MLML_CORE_H
#define MLML_CORE_H

#include "status.h"

/* The instance graph: the symmetric normalised adjacency S_X = D^-1/2 W D^-1/2
 * (n x n, zero diagonal) in compressed-column form (also its rows). */
typedef struct {
    int n;
    const int *p, *i;
    const double *x;
} mlml_graph;

enum { MLML_LOSS_LINEAR = 0, MLML_LOSS_SQUARED = 1 };

/* Minimise over Z in [-1, 1]^(n x m)
 *   f(Z) = loss(Z) + beta tr(Z' L_X Z) + gamma tr(Z L_C Z'),
 *   L_X = I - S_X,  L_C = I - S_C (m x m, dense, symmetric),
 *   loss = -<Y, Z> (linear) or 1/2 sum over observed (Z - Y)^2 (squared),
 * Y n x m with +1 / -1 observed and 0 missing.  Monotone accelerated
 * projected gradient (MFISTA with restarts, mlml_core.c) of step `step`.
 * Z holds the start on entry and the solution on exit; trace[0..*iter]
 * the objective at each iterate (non-increasing).  Returns MLSS_OK
 * (converged: no entry moved by more than tol in the last projected-gradient
 * step), MLSS_NOT_CONVERGED (max_iter reached) or MLSS_ERR_ARG (bad
 * arguments): status.h.  work: 8 n m doubles. */
int mlml_solve(int n, int m, const double *Y, int loss, const mlml_graph *SX,
               const double *SC, double beta, double gamma, double step, int max_iter,
               double tol, double *Z, double *trace, int *iter, double *work);

/* The objective at Z; work holds 2 n m doubles. */
double mlml_objective(int n, int m, const double *Y, int loss, const mlml_graph *SX,
                      const double *SC, double beta, double gamma, const double *Z,
                      double *work);

#endif
