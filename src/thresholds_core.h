/* Per-label thresholds that maximise F1 (Fan & Lin 2007). */
#ifndef MLSS_THRESHOLDS_CORE_H
#define MLSS_THRESHOLDS_CORE_H

double f1_cut_sorted(int n, const double *s_sorted, const int *order, const int *y,
                     const int *group, int skip_group, double *best_f1);
void sort_decreasing(int n, const double *score, double *buf, int *idx);
double f1_threshold(int n, const double *score, const int *y, double *buf, int *idx,
                    double *best_f1);

#endif
