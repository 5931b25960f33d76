/* ML-kNN's prior, likelihood tables and posteriors; see mlknn_core.h. */
#include <R.h>
#include "linalg.h"
#include "mlknn_core.h"

void mlknn_tables(int n, int m, int k, double s, const int *C, const int *y,
                  double *prior, double *cond1, double *cond0)
{
    int K = k + 1;
    for (int l = 0; l < m; l++) {
        double *c1 = cond1 + IDX(0, l, K), *c0 = cond0 + IDX(0, l, K);
        for (int j = 0; j < K; j++) c1[j] = c0[j] = 0.0;
        int npos = 0;
        for (int i = 0; i < n; i++) {
            int j = C[IDX(i, l, n)];
            if (y[IDX(i, l, n)]) { c1[j] += 1.0; npos++; }
            else c0[j] += 1.0;
        }
        prior[l] = (s + npos) / (2.0 * s + n);
        /* sum_p c_l[p] is the number of positives, sum_p c'_l[p] of negatives */
        double d1 = s * K + npos, d0 = s * K + (n - npos);
        for (int j = 0; j < K; j++) {
            c1[j] = (s + c1[j]) / d1;
            c0[j] = (s + c0[j]) / d0;
        }
    }
}

void mlknn_posterior(int nq, int m, int k, const int *Cq, const double *prior,
                     const double *cond1, const double *cond0, double *score)
{
    int K = k + 1;
    for (int l = 0; l < m; l++)
        for (int i = 0; i < nq; i++) {
            int j = Cq[IDX(i, l, nq)];
            double a = prior[l] * cond1[IDX(j, l, K)];
            double b = (1.0 - prior[l]) * cond0[IDX(j, l, K)];
            score[IDX(i, l, nq)] = a / (a + b);
        }
}
