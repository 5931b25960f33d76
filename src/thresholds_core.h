/* Per-label thresholds that maximise F1 (Fan & Lin 2007). */
#ifndef MLSS_THRESHOLDS_CORE_H
#define MLSS_THRESHOLDS_CORE_H

#include <limits.h>

/* A missing label: R's NA_LOGICAL (INT_MIN), which a plain truth test would
 * read as TRUE.  Labels are 0, 1 or LABEL_NA wherever they reach C. */
#define LABEL_NA INT_MIN

/* level: that of the chance rule (thresholds_core.c): a cut whose F1 random
 * scores reach with a probability above it is not kept; 1 keeps every cut.
 * It comes from R (the option mlss.chance_level, default 0.05) as an argument
 * of every .Call that chooses thresholds: there is no level built into C. */

/* Entries whose label is LABEL_NA are left out, as if absent. */
double f1_cut_sorted(int n, const double *s_sorted, const int *order, const int *y,
                     const int *group, int skip_group, double level, double *best_f1);
void sort_decreasing(int n, const double *score, double *buf, int *idx);
double f1_threshold(int n, const double *score, const int *y, double *buf, int *idx,
                    double level, double *best_f1);
/* The out-of-fold thresholds of one grid point, every method's CV shares; the
 * chance rule decides once per label, on all rows, for every fold (see .c). */
void cv_point_thresholds(int n, int m, int nfolds, const double *score, const int *y,
                         const int *foldid, double *thresholds, double *f1_all,
                         int nthreads, double level);
void cv_point_thresholds_sorted(int n, int m, int nfolds, const double *score, const int *y,
                                const int *foldid, double *thresholds, double *f1_all,
                                int nthreads, double level);

#endif
