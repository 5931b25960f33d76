/* Classifier chains (Read et al. 2009/2011) and probabilistic classifier
 * chains (Dembczynski, Cheng and Huellermeier 2010) on L2 logistic regression.
 *
 * Labels are taken in chain order 0 .. m-1.  The model of position k is
 *
 *     p(y_k = 1 | x, y_<k) = sigma(a_k(x) + sum_{j<k} g_jk y_j),
 *     a_k(x) = w_k'x + b_k,   y_j in {0, 1},
 *
 * fitted by logistic_fit() on the rows (x_i, y_i0 .. y_i,k-1, 1) with the true
 * previous labels.  Prediction works on the x parts a (one row of m values,
 * in chain order, computed outside) and G (m x m, column-major, G[j + m k] =
 * g_jk, only j < k read):
 *   CC greedy:    y_k = [a_k + sum_j g_jk y_j > 0] along the chain;
 *   PCC exact:    depth-first walk of the 2^m chain tree (each node extends
 *                 its parent's prefix), marginals from the prefix masses;
 *                 for the MAP alone, branch and bound (a prefix whose log
 *                 probability is already <= the best complete vector's
 *                 cannot lead to a better one: log probabilities only fall);
 *   PCC beam:     the `width` most probable prefixes kept at each depth;
 *   PCC sample:   ancestral sampling with uniforms from a caller's function.
 * Plain C: no SEXP; scratch is the caller's.
 */
#ifndef MLSS_CHAINS_CORE_H
#define MLSS_CHAINS_CORE_H

#include "br_rows.h"

/* Fit every position of the chain.  X: the x part of the rows (q = 0; bias
 * its constant feature, 0 for none).  y: n x m, +-1, column-major, chain
 * order.  cost: m.  W: (d + m + 1) x m, column-major, in/out: on entry the
 * starting point (zeros for a cold start), on exit the solution; column k
 * holds the x weights (d), the chain weights g_jk (m rows, zero for j >= k)
 * and the bias weight (zero when bias == 0).  zbuf: n * m doubles, wbuf:
 * d + m + 1 doubles of scratch.  iter, status: m (logistic_fit()'s codes).
 * grad_norm: m, or NULL: the norm of each position's logistic gradient at
 * its returned weights (logistic_grad_norm()). */
void chain_fit(const lin_rows *X, int m, const double *y, const double *cost, double eps,
               int max_iter, double *W, int *iter, int *status, double *grad_norm,
               double *zbuf, double *wbuf);

/* log p(y | x) of the 0/1 vector y (chain order). */
double chain_logprob(const double *a, const double *G, int m, const int *y);

/* CC: the greedy vector y and the conditional probabilities p along it. */
void chain_greedy(const double *a, const double *G, int m, int *y, double *p);

/* PCC exact.  With marg != NULL, the marginals p(y_k = 1 | x) by full
 * enumeration, else the MAP alone by branch and bound.  map: m ints; *logp
 * its log probability.  Scratch: y (m ints).  Returns the nodes visited. */
double chain_exact(const double *a, const double *G, int m, int *map, double *marg,
                   double *logp, int *y);

/* PCC beam search of width B.  marg (may be NULL): at each depth the mass of
 * the candidates with y_k = 1 over the mass of all candidates (exact when
 * nothing is pruned).  Ties between candidates go either way.  Scratch:
 * ybuf (2 B m ints), lp (3 B doubles), idx (2 B ints). */
void chain_beam(const double *a, const double *G, int m, int B, int *map, double *marg,
                double *logp, int *ybuf, double *lp, int *idx);

/* PCC ancestral sampling of S vectors: the best sampled vector in map (*logp
 * its log probability) and, in marg, the mean over the samples of
 * p(y_k = 1 | x, sampled y_<k) (Rao-Blackwellised marginals).  unif() gives
 * uniforms on (0, 1).  Scratch: y (m ints). */
void chain_sample(const double *a, const double *G, int m, int S, double (*unif)(void),
                  int *map, double *marg, double *logp, int *y);

#endif
