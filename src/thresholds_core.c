/* The threshold of one label that maximises F1 on (score, y).
 *
 * Predictions are "score > threshold".  Cut points lie half-way between
 * consecutive distinct sorted scores, so a tie is never split.  Among cut
 * points with equal F1 the highest threshold (fewest predicted positives)
 * wins.  A label without positives gets +Inf (never predicted, F1 = 1 as
 * nothing is predicted and nothing is missed); one without negatives -Inf.
 * Cutting below every score gives -Inf (always predicted). */
#include <R.h>
#include <R_ext/Utils.h>
#include <string.h>
#include "thresholds_core.h"

double f1_threshold(int n, const double *score, const int *y, double *buf, int *idx,
                    double *best_f1)
{
    int npos = 0, tp = 0, best_k = 0;
    for (int i = 0; i < n; i++) npos += (y[i] != 0);
    *best_f1 = 1.0;
    if (npos == 0) return R_PosInf;
    if (npos == n) return R_NegInf;
    memcpy(buf, score, sizeof(double) * (size_t) n);
    for (int i = 0; i < n; i++) idx[i] = i;
    revsort(buf, idx, n);  /* decreasing scores */
    double best = -1.0;
    for (int k = 1; k <= n; k++) {
        tp += (y[idx[k - 1]] != 0);
        if (k < n && buf[k - 1] == buf[k]) continue;
        double f1 = 2.0 * tp / (double) (k + npos);
        if (f1 > best) {
            best = f1;
            best_k = k;
        }
    }
    *best_f1 = best;
    if (best_k == n) return R_NegInf;
    return buf[best_k - 1] / 2.0 + buf[best_k] / 2.0;
}
