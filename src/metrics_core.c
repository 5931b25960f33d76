/* Multi-label evaluation measures.  The conventions are Mulan's (Tsoumakas et
 * al., mulan/evaluation/measure), documented in ?ml_metrics:
 *  - F1, precision, recall of empty sets: 1 when tp + fp + fn = 0; precision 0
 *    when nothing is predicted, recall 0 when nothing is relevant;
 *  - label-based measures average over all labels, example-based ones over
 *    all instances;
 *  - AUC is the Mann-Whitney statistic (a tied positive/negative pair counts
 *    1/2); a label without positives or without negatives has no AUC and is
 *    left out of the macro average (Mulan returns NaN, mldr 0.5);
 *  - rankings break ties in score by label index, the later label ranking
 *    first, as Mulan's stable sort does;
 *  - an instance with no relevant label counts 0 in ranking loss and coverage,
 *    1 in one-error, and is skipped by average precision. */
#include <R.h>
#include <math.h>
#include <string.h>
#include "linalg.h"
#include "metrics_core.h"
#include "thresholds_core.h"  /* LABEL_NA */

int measure_needs_scores(int code)
{
    return code == MEASURE_MACRO_AUC || code == MEASURE_MICRO_AUC ||
           code == MEASURE_RANKING_LOSS || code == MEASURE_AVERAGE_PRECISION ||
           code == MEASURE_COVERAGE || code == MEASURE_ONE_ERROR;
}

static double f_measure(double tp, double fp, double fn)
{
    return (tp + fp + fn == 0) ? 1.0 : 2.0 * tp / (2.0 * tp + fp + fn);
}

/* Stable merge sort of idx[0..k-1] by increasing key[idx[.]]. */
static void stable_order(int k, const double *key, int *idx, int *tmp)
{
    for (int width = 1; width < k; width *= 2) {
        for (int lo = 0; lo < k; lo += 2 * width) {
            int mid = lo + width < k ? lo + width : k;
            int hi = lo + 2 * width < k ? lo + 2 * width : k;
            int a = lo, b = mid, o = lo;
            while (a < mid && b < hi) tmp[o++] = key[idx[b]] < key[idx[a]] ? idx[b++] : idx[a++];
            while (a < mid) tmp[o++] = idx[a++];
            while (b < hi) tmp[o++] = idx[b++];
        }
        memcpy(idx, tmp, sizeof(int) * (size_t) k);
    }
}

/* Mann-Whitney AUC of k scores s (stride apart) against labels y: the rank
 * sum of the positives with mid-ranks for ties.  NaN without positives or
 * without negatives. */
static double auc(int k, const double *s, size_t stride, const int *y, double *key,
                  int *idx, int *tmp)
{
    int npos = 0;
    for (int i = 0; i < k; i++) {
        key[i] = s[i * stride];
        idx[i] = i;
        npos += (y[i * stride] != 0);
    }
    if (npos == 0 || npos == k) return NAN;
    stable_order(k, key, idx, tmp);
    double rank_sum = 0.0;
    for (int a = 0; a < k;) {
        int b = a;
        while (b + 1 < k && key[idx[b + 1]] == key[idx[a]]) b++;
        double mid = (a + b) / 2.0 + 1.0;  /* 1-based mid-rank of the tie group */
        for (int c = a; c <= b; c++)
            if (y[idx[c] * stride]) rank_sum += mid;
        a = b + 1;
    }
    double nneg = k - npos;
    return (rank_sum - npos * (npos + 1.0) / 2.0) / (npos * nneg);
}

/* Measures with missing labels (LABEL_NA in y) use the observed entries only:
 * label-based ones each label's observed rows (a label with none is left out
 * of macro averages), example-based and ranking ones each instance's
 * observed labels (an instance with none is left out), hamming loss and
 * micro measures the observed entries pooled.  With y fully observed these
 * are the usual definitions. */
static double label_based(int code, const ml_eval *e)
{
    int n = e->n, m = e->m;
    double TP = 0, FP = 0, FN = 0, nobs = 0, sum = 0.0;
    int count = 0;
    for (int l = 0; l < m; l++) {
        const int *y = e->y + IDX(0, l, n), *p = e->pred + IDX(0, l, n);
        double tp = 0, fp = 0, fn = 0;
        int seen = 0;
        for (int i = 0; i < n; i++) {
            if (y[i] == LABEL_NA) continue;
            seen++;
            tp += y[i] && p[i];
            fp += !y[i] && p[i];
            fn += y[i] && !p[i];
        }
        TP += tp;
        FP += fp;
        FN += fn;
        nobs += seen;
        if (seen == 0) continue;  /* a label never observed has no F1 */
        sum += f_measure(tp, fp, fn);
        count++;
    }
    if (nobs == 0) return NAN;
    if (code == MEASURE_MICRO_F1) return f_measure(TP, FP, FN);
    if (code == MEASURE_HAMMING_LOSS) return (FP + FN) / nobs;
    return sum / count;  /* macro F1 */
}

static double example_based(int code, const ml_eval *e)
{
    int n = e->n, m = e->m, count = 0;
    double sum = 0.0;
    for (int i = 0; i < n; i++) {
        double tp = 0, fp = 0, fn = 0;
        int seen = 0;
        for (int l = 0; l < m; l++) {
            int y = e->y[IDX(i, l, n)], p = e->pred[IDX(i, l, n)];
            if (y == LABEL_NA) continue;
            seen++;
            tp += y && p;
            fp += !y && p;
            fn += y && !p;
        }
        if (seen == 0) continue;  /* an instance with no observed label */
        count++;
        int empty = (tp + fp + fn == 0);
        switch (code) {
        case MEASURE_SUBSET_ACCURACY: sum += (fp + fn == 0); break;
        case MEASURE_EXAMPLE_F1: sum += f_measure(tp, fp, fn); break;
        case MEASURE_EXAMPLE_ACCURACY: sum += empty ? 1.0 : tp / (tp + fp + fn); break;
        case MEASURE_EXAMPLE_PRECISION: sum += empty ? 1.0 : (tp + fp == 0 ? 0.0 : tp / (tp + fp)); break;
        case MEASURE_EXAMPLE_RECALL: sum += empty ? 1.0 : (tp + fn == 0 ? 0.0 : tp / (tp + fn)); break;
        }
    }
    return count ? sum / count : NAN;
}

/* Ranking loss, average precision, coverage and one-error: each instance's
 * observed labels ranked by decreasing score, ties as Mulan breaks them. */
static double ranking_based(int code, const ml_eval *e)
{
    int n = e->n, m = e->m, count = 0;
    double sum = 0.0;
    double *key = (double *) R_alloc((size_t) m, sizeof(double));
    int *idx = (int *) R_alloc((size_t) m, sizeof(int));
    int *tmp = (int *) R_alloc((size_t) m, sizeof(int));
    int *rel = (int *) R_alloc((size_t) m, sizeof(int));
    for (int i = 0; i < n; i++) {
        int nrel = 0, mo = 0;  /* mo: the observed labels, in label order */
        for (int l = 0; l < m; l++) {
            int y = e->y[IDX(i, l, n)];
            if (y == LABEL_NA) continue;
            key[mo] = e->score[IDX(i, l, n)];
            rel[mo] = y != 0;
            idx[mo] = mo;
            nrel += y != 0;
            mo++;
        }
        if (mo == 0) continue;
        /* increasing scores, stable: the best-ranked label is idx[mo - 1] */
        stable_order(mo, key, idx, tmp);
        double value = 0.0;
        int irrelevant_above = 0, relevant_above = 0, skip = 0;
        switch (code) {
        case MEASURE_RANKING_LOSS:
            if (nrel == 0 || nrel == mo) break;
            for (int k = mo - 1; k >= 0; k--) {
                if (rel[idx[k]]) value += irrelevant_above;
                else irrelevant_above++;
            }
            value /= (double) nrel * (mo - nrel);
            break;
        case MEASURE_AVERAGE_PRECISION:
            if (nrel == 0) {
                skip = 1;
                break;
            }
            for (int k = mo - 1; k >= 0; k--)
                if (rel[idx[k]]) value += ++relevant_above / (double) (mo - k);
            value /= nrel;
            break;
        case MEASURE_COVERAGE:
            for (int k = 0; k < mo; k++)  /* the worst-ranked relevant label */
                if (rel[idx[k]]) {
                    value = mo - k - 1;
                    break;
                }
            break;
        case MEASURE_ONE_ERROR:
            value = rel[idx[mo - 1]] ? 0.0 : 1.0;
            break;
        }
        if (!skip) {
            sum += value;
            count++;
        }
    }
    return count ? sum / count : NAN;
}

/* The observed entries of k labels y (stride apart) and their scores s,
 * packed into ys and ss; returns how many. */
static int observed(int k, const double *s, const int *y, size_t stride, double *ss, int *ys)
{
    int o = 0;
    for (int i = 0; i < k; i++) {
        int v = y[i * stride];
        if (v == LABEL_NA) continue;
        ss[o] = s[i * stride];
        ys[o++] = v != 0;
    }
    return o;
}

static double auc_based(int code, const ml_eval *e)
{
    int n = e->n, m = e->m;
    size_t k = code == MEASURE_MICRO_AUC ? (size_t) n * m : (size_t) n;
    double *key = (double *) R_alloc(k, sizeof(double)), *ss = (double *) R_alloc(k, sizeof(double));
    int *idx = (int *) R_alloc(k, sizeof(int)), *tmp = (int *) R_alloc(k, sizeof(int));
    int *ys = (int *) R_alloc(k, sizeof(int));
    if (code == MEASURE_MICRO_AUC) {
        int o = observed((int) k, e->score, e->y, 1, ss, ys);
        return auc(o, ss, 1, ys, key, idx, tmp);
    }
    double sum = 0.0;
    int count = 0;
    for (int l = 0; l < m; l++) {
        int o = observed(n, e->score + IDX(0, l, n), e->y + IDX(0, l, n), 1, ss, ys);
        double a = auc(o, ss, 1, ys, key, idx, tmp);
        if (!ISNAN(a)) {
            sum += a;
            count++;
        }
    }
    return count ? sum / count : NAN;
}

/* The value of one measure; NaN when the inputs it needs are missing or it
 * is undefined on these data. */
double ml_measure(int code, const ml_eval *e)
{
    if (e->n == 0 || e->m == 0) return NAN;
    if (measure_needs_scores(code) ? !e->score : !e->pred) return NAN;
    switch (code) {
    case MEASURE_MACRO_F1:
    case MEASURE_MICRO_F1:
    case MEASURE_HAMMING_LOSS:
        return label_based(code, e);
    case MEASURE_SUBSET_ACCURACY:
    case MEASURE_EXAMPLE_F1:
    case MEASURE_EXAMPLE_ACCURACY:
    case MEASURE_EXAMPLE_PRECISION:
    case MEASURE_EXAMPLE_RECALL:
        return example_based(code, e);
    case MEASURE_MACRO_AUC:
    case MEASURE_MICRO_AUC:
        return auc_based(code, e);
    default:
        return ranking_based(code, e);
    }
}
