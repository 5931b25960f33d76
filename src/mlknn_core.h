/* ML-kNN (Zhang and Zhou 2007, Pattern Recognition 40(7), Fig. 2).
 *
 * With C_i(l) the number of the k neighbours of training instance i (itself
 * left out) that have label l, and s the smoothing:
 *   prior     P(H1_l)         = (s + #{i: y_il = 1}) / (2 s + n)
 *   cond1[j]  P(E_j^l | H1_l) = (s + c_l[j])  / (s (k + 1) + sum_p c_l[p])
 *   cond0[j]  P(E_j^l | H0_l) = (s + c'_l[j]) / (s (k + 1) + sum_p c'_l[p])
 * where c_l[j] (c'_l[j]) counts the training instances with (without) label
 * l whose C_i(l) = j, j = 0..k.  A query with count j gets the posterior
 *   P(H1_l | E_j^l) = P(H1) cond1[j] / (P(H1) cond1[j] + P(H0) cond0[j]).
 * Nothing here knows about SEXPs.
 */
#ifndef MLSS_MLKNN_CORE_H
#define MLSS_MLKNN_CORE_H

/* C: n x m neighbour counts of the training rows (leave-self-out); y: n x m
 * 0/1.  Outputs prior (m), cond1 and cond0 ((k + 1) x m). */
void mlknn_tables(int n, int m, int k, double s, const int *C, const int *y,
                  double *prior, double *cond1, double *cond0);

/* Cq: nq x m neighbour counts of query rows; score: nq x m posteriors. */
void mlknn_posterior(int nq, int m, int k, const int *Cq, const double *prior,
                     const double *cond1, const double *cond0, double *score);

#endif
