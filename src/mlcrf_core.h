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

#include <time.h>
#include "linalg.h"

#define MLCRF_OK MLSS_OK                     /* status.h, through linalg.h */
#define MLCRF_NOT_CONVERGED MLSS_NOT_CONVERGED  /* maxit reached */
#define MLCRF_ERR_LBFGS MLSS_STALLED          /* lbfgsb()'s line search failed */

/* A progress report: a line of text to the caller (the glue passes it to R). */
typedef void (*crf_report_fn)(void *ctx, const char *msg);

typedef struct {
    mlss_mat X;              /* n x d features */
    const double *mu;        /* d column means (implicit centring) */
    const double *sinv;      /* d inverse column scales */
    const double *y;         /* n x m labels, 0/1 */
    int n, d, m, E, K;
    const int *from, *to;    /* E edges, 0-based, from < to */
    const double *lambda_v;  /* m ridge penalties on the node slopes */
    double lambda0;          /* tiny ridge on the node intercepts */
    double ridge_w;          /* lambda_w (1 - eta): ridge on each edge's slopes */
    double ridge_w0;         /* ridge on the intercept of each edge's (1,1)
                              * column (its last); ridge_w on the others */
    double group_w;          /* lambda_w eta: group lasso on each edge */
    int smooth_group;        /* crf_lbfgs() with the group term in the objective
                              * (differentiable where no w_e is 0) */
    double *B, *P, *G;       /* scratch: d x q (or d x m), n x q (or n x m), n x m */
    /* How the pseudo-likelihood is evaluated (crf_alloc() chooses, unless
     * mode is set before): CRF_PAIRS forms the n x K potentials of every edge
     * (two products of the design with q = m + E K columns); CRF_ROWS never
     * forms them: the log-odds of label a in row i take, from edge (a, b),
     * a term that does not depend on y_b (folded into a's node vector) plus
     * x_i'Delta_e when y_ib = 1, so the edge part costs, per row, its
     * non-zero features times the degrees of its positive labels (labels are
     * mostly negative), and the same for the gradient. */
    int mode;
    /* The mode the caller asked for (CRF_AUTO, or one of the two), kept by
     * crf_alloc() so that crf_lbfgs() asks the same of the problems of the
     * connected components; and, when not NULL, the modes evaluated on a
     * graph with edges, or-ed in as bits (1 << CRF_PAIRS, 1 << CRF_ROWS). */
    int mode_req;
    int *modes_used;
    /* CRF_ROWS only: the rows of X (values xc_ij sinv_j), the constant part
     * cvec = (1, -mu sinv) of every standardised row, the positive labels of
     * each row, and per label b its neighbours in the graph (nb_lab, with the
     * edge nb_edge) from nb_ptr[b] to nb_ptr[b + 1] - 1 (the slots of b);
     * slot_a[e], slot_b[e]: the slot of b among a's neighbours and of a among
     * b's.  D and M: (d + 1) values per slot, stored per label b as a
     * (deg_b x (d + 1)) block from (d + 1) nb_ptr[b]. */
    const int *rptr, *rind;
    double *rval, *cvec;
    int *ypos_ptr, *ypos;
    int *nb_ptr, *nb_lab, *slot_a, *slot_b;
    double *D, *M, *off, *rsum, *Vn, *acc, *rrow;
    /* progress: report() (when not NULL) at most every CRF_REPORT_SECONDS */
    crf_report_fn report;
    void *report_ctx;
    time_t last_report;
} crf_problem;

#define CRF_REPORT_SECONDS 5.0

#define CRF_AUTO 0
#define CRF_PAIRS 1
#define CRF_ROWS 2

/* Scratch for a problem with the current E and K (R_alloc); chooses the mode
 * (the cheaper by a count of multiply-adds) unless pr->mode is set. */
void crf_alloc(crf_problem *pr);
int crf_ncol(const crf_problem *pr);
/* Length of the buffer of crf_potentials(): n q (CRF_PAIRS) or n m (CRF_ROWS). */
size_t crf_plen(const crf_problem *pr);
/* Negative log pseudo-likelihood / n plus the smooth part of the penalty
 * (node ridge, edge ridge); its gradient in grad when grad != NULL. */
double crf_smooth(crf_problem *pr, const double *theta, double *grad);
/* The potentials [1, Xs] theta (n x q) into P (one product with the design);
 * in CRF_ROWS mode the n x m log-odds of the conditionals instead.  Both are
 * linear in theta. */
void crf_potentials(crf_problem *pr, const double *theta, double *P);
/* crf_smooth() with the potentials of theta given (Pin, crf_plen() values;
 * it may be pr->P, which the gradient overwrites). */
double crf_smooth_at(crf_problem *pr, const double *theta, const double *Pin, double *grad);
/* The group lasso term lambda_w eta sum_e ||w_e||. */
double crf_group_penalty(const crf_problem *pr, const double *theta);
/* Stage 1: FISTA with backtracking and restarts, block soft-thresholding of
 * each edge.  theta: start in, solution out. */
int crf_fista(crf_problem *pr, double *theta, int maxit, double tol, int *iter,
              double *objective);
/* The scales of crf_lbfgs()'s variables (len (d + 1) q): the square roots
 * of the Hessian diagonal of crf_smooth(), each column's loss part taken
 * from its intercept (mlcrf_core.c), at the point of the last crf_smooth()
 * or crf_smooth_at() (from the conditionals it left in pr->G, which it
 * overwrites). */
void crf_scales_last(crf_problem *pr, double *s);
/* Stage 2: the smooth problem (group term dropped) by L-BFGS (lbfgsb()); with
 * smooth_group set, the stage-1 objective on edges that stay non-zero. */
int crf_lbfgs(crf_problem *pr, double *theta, int maxit, double tol, int *iter,
              double *objective);

#endif
