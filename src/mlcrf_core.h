/* MLCRF: the pairwise conditional random field of mlcrf-sdm2014 (methods.md
 * section 3), learned by penalised pseudo-likelihood.
 *
 * Parameters: one (d + 1) x q matrix theta, column-major, row 0 the intercept
 * and rows 1..d the standardised features (x_j - mu_j) * sinv_j.  Columns:
 * 0..m-1 the node vectors v_l, then K columns per edge e = (from[e], to[e]),
 * from < to: K = 3 for the full table (configurations (0,1), (1,0), (1,1) of
 * (y_from, y_to); (0,0) is fixed at 0), K = 1 for the Ising edge ((1,1) only).
 * Nothing here knows about SEXPs; functions return status codes.
 */
#ifndef MLSS_MLCRF_CORE_H
#define MLSS_MLCRF_CORE_H

#include "linalg.h"

#define MLCRF_OK MLSS_OK                     /* status.h, through linalg.h */
#define MLCRF_NOT_CONVERGED MLSS_NOT_CONVERGED  /* maxit reached */
#define MLCRF_ERR_LBFGS MLSS_STALLED          /* lbfgsb()'s line search failed */

typedef struct {
    mlss_mat X;              /* n x d features */
    const double *mu;        /* d column means (implicit centring) */
    const double *sinv;      /* d inverse column scales */
    const double *y;         /* n x m labels, 0/1 */
    int n, d, m, E, K;
    const int *from, *to;    /* E edges, 0-based, from < to */
    const double *lambda_v;  /* m ridge penalties on the node slopes */
    double lambda0;          /* tiny ridge on the node intercepts */
    double ridge_w;          /* lambda_w (1 - eta): ridge on each edge */
    double group_w;          /* lambda_w eta: group lasso on each edge */
    double *B, *P, *G;       /* scratch: d x q, n x q, n x m */
} crf_problem;

/* Scratch for a problem with the current E and K (R_alloc). */
void crf_alloc(crf_problem *pr);
int crf_ncol(const crf_problem *pr);
/* Negative log pseudo-likelihood / n plus the smooth part of the penalty
 * (node ridge, edge ridge); its gradient in grad when grad != NULL. */
double crf_smooth(crf_problem *pr, const double *theta, double *grad);
/* The potentials [1, Xs] theta (n x q) into P (one product with the design). */
void crf_potentials(crf_problem *pr, const double *theta, double *P);
/* crf_smooth() with the potentials of theta given (Pin, n x q; it may be
 * pr->P, which the gradient overwrites). */
double crf_smooth_at(crf_problem *pr, const double *theta, const double *Pin, double *grad);
/* The group lasso term lambda_w eta sum_e ||w_e||. */
double crf_group_penalty(const crf_problem *pr, const double *theta);
/* Stage 1: FISTA with backtracking and restarts, block soft-thresholding of
 * each edge.  theta: start in, solution out. */
int crf_fista(crf_problem *pr, double *theta, int maxit, double tol, int *iter,
              double *objective);
/* Stage 2: the smooth problem (group term dropped) by L-BFGS (lbfgsb()). */
int crf_lbfgs(crf_problem *pr, double *theta, int maxit, double tol, int *iter,
              double *objective);

#endif
