/* Inference in a pairwise model over m binary labels, one instance at a time:
 *
 *   log p(y) = sum_l y_l node[l] + sum_e phi_e(y_from[e], y_to[e]) - log Z,
 *
 * with phi_e(0,0) = 0 and phi_e(0,1), phi_e(1,0), phi_e(1,1) in
 * pair[3e], pair[3e+1], pair[3e+2].  Exact inference enumerates the 2^m
 * label vectors in Gray-code order (one label changes per step, so the score
 * is updated in O(degree)); the approximate one runs damped loopy belief
 * propagation or Gibbs sampling with replica exchange for the marginals and
 * iterated conditional modes for the MAP.
 * Plain C: no SEXP, no R errors; the graph is built once per call.
 */
#ifndef MLSS_CRF_INFER_CORE_H
#define MLSS_CRF_INFER_CORE_H

typedef struct {
    int m, E;
    const int *from, *to;
    int *start;   /* m + 1: the edges of label l are adj[start[l] .. start[l+1]-1] */
    int *adj;     /* 2E edge indices */
} crf_graph;

/* start (m + 1) and adj (2E) are the caller's memory. */
void crf_graph_build(crf_graph *g, int m, int E, const int *from, const int *to,
                     int *start, int *adj);
/* The unnormalised log-probability of the label vector y (0/1 ints). */
double crf_score(const crf_graph *g, const double *node, const double *pair, const int *y);
/* Exact: MAP in map (0/1), marginals p(y_l = 1), log Z.  Cost O(m 2^m).
 * Scratch: y (m ints), acc (m doubles). */
void crf_exact(const crf_graph *g, const double *node, const double *pair, int *map,
               double *marg, double *logZ, int *y, double *acc);
/* Loopy BP: msg holds 2E log-ratios (message to `to` in msg[2e], to `from` in
 * msg[2e+1]), updated in parallel with damping; marginals in marg.  Returns
 * the number of sweeps; *delta is the last largest change of a message;
 * *logZ the Bethe approximation of log Z.  Scratch: belief (m). */
int crf_bp(const crf_graph *g, const double *node, const double *pair, double damping,
           int maxit, double tol, int maxprod, double *msg, double *newmsg, double *belief,
           double *marg, double *delta, double *logZ);
/* The same with a choice of schedule: serial = 0 updates all messages in
 * parallel from the previous sweep's (crf_bp); serial = 1 updates them in
 * place, edge by edge (each update sees the messages already updated in the
 * sweep), which settles on many graphs where the parallel schedule
 * oscillates.  newmsg is not used when serial = 1. */
int crf_bp_schedule(const crf_graph *g, const double *node, const double *pair,
                    double damping, int maxit, double tol, int maxprod, int serial,
                    double *msg, double *newmsg, double *belief, double *marg,
                    double *delta, double *logZ);
/* With maxprod = 1, crf_bp runs max-product instead: marg then holds the
 * max-marginal log-ratios (exact on a tree once converged), logZ is NaN. */
/* ICM: sweeps that set each label to its best value given the others, from
 * the start in y, until nothing changes (or maxit sweeps). */
void crf_icm(const crf_graph *g, const double *node, const double *pair, int *y, int maxit);

/* Connected components: comp[l] in 0..nc-1 (numbered in the order of their
 * smallest label); returns nc.  Scratch: parent (m). */
int crf_components(int m, int E, const int *from, const int *to, int *comp, int *parent);
/* Gibbs sampling, plain (R = 1) or with replica exchange (parallel
 * tempering, R > 1): R chains, chain r at inverse temperature beta[r]
 * (beta[0] = 1, decreasing) from the state y + r m (y holds R m 0/1 ints,
 * the final states on return), each sweep one Gibbs sweep per chain, then a
 * proposal to swap the states of each pair of neighbouring temperatures.
 * burn sweeps, then nbatch batches of per sweeps: batch[b m + l] the sum over
 * batch b of p(y_l = 1 | y_-l) of the chain at beta = 1 (Rao-Blackwellised).
 * best: the most probable state any chain visited (*best_score its
 * unnormalised log-probability); accepted[r] (R - 1) the swaps accepted
 * between temperatures r and r + 1.  runif() draws U(0, 1).  Scratch:
 * score (R). */
void crf_gibbs(const crf_graph *g, const double *node, const double *pair, int per, int burn,
               int nbatch, int R, const double *beta, double (*runif)(void), int *y,
               double *score, double *batch, int *best, double *best_score, int *accepted);
/* The marginals (marg, m) of K independent runs of crf_gibbs (batch: K
 * blocks of nbatch m batch sums of per sweeps), the mean over all of them;
 * returns the largest over the labels of the standard error, the larger of
 * the batch-means one (within the runs) and the between-run one (the spread
 * of the K run means: large where the runs sit in different modes, which
 * batch means on one run cannot see). */
double crf_batch_summary(int m, int K, int nbatch, int per, const double *batch, double *marg);

#endif
