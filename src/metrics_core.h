/* Multi-label evaluation measures, with Mulan's conventions (see metrics.R). */
#ifndef MLSS_METRICS_CORE_H
#define MLSS_METRICS_CORE_H

/* The measure codes; the order matches measure_names in R/metrics.R. */
enum {
    MEASURE_MACRO_F1, MEASURE_MICRO_F1, MEASURE_MACRO_AUC, MEASURE_MICRO_AUC,
    MEASURE_HAMMING_LOSS, MEASURE_SUBSET_ACCURACY, MEASURE_EXAMPLE_F1,
    MEASURE_EXAMPLE_ACCURACY, MEASURE_EXAMPLE_PRECISION, MEASURE_EXAMPLE_RECALL,
    MEASURE_RANKING_LOSS, MEASURE_AVERAGE_PRECISION, MEASURE_COVERAGE,
    MEASURE_ONE_ERROR, MEASURE_COUNT
};

/* n x m column-major labels (0/1, LABEL_NA when missing: see
 * thresholds_core.h; measures then use the observed entries only), predictions (0/1, NULL when unknown) and
 * scores (NULL when unknown). */
typedef struct {
    int n, m;
    const int *y;
    const int *pred;
    const double *score;
} ml_eval;

int measure_needs_scores(int code);
double ml_measure(int code, const ml_eval *e);

#endif
