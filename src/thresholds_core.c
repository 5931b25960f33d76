/* The threshold of one label that maximises F1 on (score, y).
 *
 * Predictions are "score > threshold".  Cut points lie half-way between
 * consecutive distinct sorted scores, so a tie is never split.  Among cut
 * points with equal F1 the highest threshold (fewest predicted positives)
 * wins.  A label without positives gets +Inf (never predicted, F1 = 1 as
 * nothing is predicted and nothing is missed); one without negatives -Inf.
 * Cutting below every score gives -Inf (always predicted).
 *
 * Infinite scores: a cut next to +Inf, or between two adjacent doubles whose
 * midpoint rounds to the upper one, is the lower score itself (the midpoint
 * would not separate them); a score of -Inf is never above a threshold, so
 * "always predicted" is not on offer when one is present, and each F1 is
 * that of the predictions the threshold really makes. */
#include <R.h>
#include <R_ext/Utils.h>
#include "thresholds_core.h"

/* The scan behind both entry points.  s_sorted holds the n scores in
 * decreasing order and order[k] the original index of s_sorted[k]; y and
 * group are in the original indexing.  Entries whose group equals skip_group
 * are left out (group = NULL: none), which gives the threshold chosen on the
 * other cross-validation folds; so are entries whose label is missing
 * (LABEL_NA): the cut is chosen on the observed entries only. */
double f1_cut_sorted(int n, const double *s_sorted, const int *order, const int *y,
                     const int *group, int skip_group, double *best_f1)
{
    int npos = 0, ntot = 0, tp = 0, count = 0;
    for (int k = 0; k < n; k++) {
        int i = order[k];
        if ((group && group[i] == skip_group) || y[i] == LABEL_NA) continue;
        ntot++;
        npos += (y[i] != 0);
    }
    int ninf = 0;  /* scores of -Inf (the last in the sorted order) */
    for (int k = n - 1; k >= 0 && s_sorted[k] == R_NegInf; k--)
        if (!(group && group[order[k]] == skip_group) && y[order[k]] != LABEL_NA) ninf++;
    *best_f1 = 1.0;
    if (npos == 0) return R_PosInf;
    if (npos == ntot) {
        *best_f1 = 2.0 * (ntot - ninf) / (double) (ntot - ninf + npos);
        return R_NegInf;
    }
    double best = -1.0, threshold = R_NegInf, prev = 0.0;
    for (int k = 0; k < n; k++) {
        int i = order[k];
        if ((group && group[i] == skip_group) || y[i] == LABEL_NA) continue;
        if (count > 0 && s_sorted[k] != prev) {  /* cut between prev and this score */
            double f1 = 2.0 * tp / (double) (count + npos);
            if (f1 > best) {
                best = f1;
                threshold = prev / 2.0 + s_sorted[k] / 2.0;
                if (!(threshold < prev)) threshold = s_sorted[k];
            }
        }
        count++;
        tp += (y[i] != 0);
        prev = s_sorted[k];
    }
    double f1_all = 2.0 * tp / (double) (ntot + npos);  /* everything predicted */
    if (ninf == 0 && f1_all > best) {
        best = f1_all;
        threshold = R_NegInf;
    }
    *best_f1 = best;
    return threshold;
}

/* Sort the n scores into buf in decreasing order, with idx[k] the original
 * index of buf[k] (R's quicksort on the negated scores). */
void sort_decreasing(int n, const double *score, double *buf, int *idx)
{
    for (int i = 0; i < n; i++) {
        buf[i] = -score[i];
        idx[i] = i;
    }
    if (n > 1) R_qsort_I(buf, idx, 1, n);
    for (int i = 0; i < n; i++) buf[i] = -buf[i];
}

/* buf (n doubles) and idx (n ints) are scratch. */
double f1_threshold(int n, const double *score, const int *y, double *buf, int *idx,
                    double *best_f1)
{
    sort_decreasing(n, score, buf, idx);
    return f1_cut_sorted(n, buf, idx, y, NULL, 0, best_f1);
}
