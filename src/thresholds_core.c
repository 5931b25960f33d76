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
 * that of the predictions the threshold really makes.
 *
 * Two routes give the same doubles.  The sorted route sorts a label's scores
 * and scans them (f1_cut_sorted()); the route by positives (below) looks
 * only at the scores of positives as cut points, and is the one taken when
 * the scores are finite and positives are few. */
#include <R.h>
#include <R_ext/Utils.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "threads.h"
#include "linalg.h"
#include "thresholds_core.h"

/* The chance rule.  A cut is kept only when it beats what scores carrying
 * no information about the label would give: under that null hypothesis the
 * npos positives hold a random npos-subset of the ntot ranks (ties aside), and
 * the scan, taking the best of all its cuts, still finds some F1 (about
 * 2 log(n) / n for one positive, against 2p / (1 + p) for predicting every
 * row).  The cut is kept when the probability that the best F1 of random
 * ranks reaches the observed one is at most `level` (a permutation p-value,
 * computed exactly below); otherwise the label falls back to the majority
 * rule: never predicted (+Inf) when positives are fewer than half of the
 * entries, else always (-Inf).  The exact computation costs about
 * ntot * npos steps; beyond CHANCE_MAX_WORK of them (about 0.1 s) the best
 * F1 of random ranks is close to 2p / (1 + p), and the cut is kept when its
 * F1 is above that.  (The cap was 100 positives: a label of 107 positives
 * among 391 rows took the lenient test on all rows and the exact one on
 * four fifths of them, so that cross-validation measured "never predicted"
 * where the refit predicted it; issue 22.)  level >= 1 keeps every cut (the
 * plain F1 maximum). */
#define CHANCE_MAX_POSITIVES 100
#define CHANCE_MAX_WORK 1e8

/* Does F1 = best on ntot entries with npos positives beat chance at level?
 * The probability that a random ranking has a cut (after t = 1..ntot
 * entries, j of them positive) with 2 j / (t + npos) >= best, by dynamic
 * programming over t on the distribution of j among the paths that have not
 * reached best yet; it stops once best is out of reach (the probability is
 * then final) or the probability exceeds level. */
/* An upper bound of that probability, cheap: the union over the cuts t of
 * the Chernoff-Hoeffding bound of the count j(t), which as a sample without
 * replacement obeys P(j(t) >= a) <= exp(-t KL(a / t, p)) for a / t > p
 * (Hoeffding 1963, section 6).  It stops once above level (useless then).
 * a is rounded down by a hair, which only raises the bound. */
static double chance_bound(int ntot, int npos, double best, double level)
{
    double p = npos / (double) ntot, sum = 0.0;
    for (int t = 1; t <= ntot; t++) {
        double a = ceil(best * (t + npos) / 2.0 - 1e-9);  /* the least j reaching best */
        if (a > npos) break;  /* and for every later t */
        if (a > t) continue;
        double q = a / t;
        if (!(q > p)) return 2.0;
        double kl = q * log(q / p) + (q < 1.0 ? (1.0 - q) * log((1.0 - q) / (1.0 - p)) : 0.0);
        sum += exp(-t * kl);
        if (sum > level) return sum;
    }
    return sum;
}

static int beats_chance(int ntot, int npos, double best, double level)
{
    if (level >= 1.0) return 1;
    if (!(best > 2.0 * npos / (double) (ntot + npos))) return 0;
    if ((double) ntot * npos > CHANCE_MAX_WORK) return 1;
    if (chance_bound(ntot, npos, best, level) <= level) return 1;  /* clearly beats it */
    /* on the stack for few positives, else on the heap (this runs in threads:
     * no R allocation), freed on the one way out below */
    double pr_stack[CHANCE_MAX_POSITIVES + 2] = {0.0};
    double *pr = pr_stack;
    if (npos > CHANCE_MAX_POSITIVES) {
        pr = calloc((size_t) npos + 2, sizeof(double));
        if (!pr) return 1;  /* no memory: the lenient test above */
    }
    int beats = 1;
    pr[0] = 1.0;
    double reached = 0.0;
    for (int t = 0; t < ntot; t++) {  /* from t entries to t + 1 */
        int jmax = t < npos ? t : npos;
        for (int j = jmax; j >= 0; j--) {
            if (pr[j] == 0.0) continue;
            double up = pr[j] * (npos - j) / (double) (ntot - t);
            pr[j] -= up;
            pr[j + 1] += up;
        }
        int top = t + 1 < npos ? t + 1 : npos;
        for (int j = top; j > 0 && 2.0 * j / (double) (t + 1 + npos) >= best; j--) {
            reached += pr[j];
            pr[j] = 0.0;
        }
        if (reached > level) {
            beats = 0;
            break;
        }
        if (2.0 * npos / (double) (t + 1 + npos) < best) break;  /* out of reach */
    }
    if (pr != pr_stack) free(pr);
    return beats;
}

/* The cut, or the majority rule when it does not beat chance (see above);
 * *best_f1 becomes the F1 of what is returned.  ninf: entries scoring -Inf,
 * which "always" cannot predict: with any, the fallback is "never". */
static double chance_rule(int ntot, int npos, int ninf, double level, double threshold,
                          double *best_f1)
{
    if (beats_chance(ntot, npos, *best_f1, level)) return threshold;
    if (2 * npos >= ntot && ninf == 0) {
        *best_f1 = 2.0 * npos / (double) (ntot + npos);
        return R_NegInf;
    }
    *best_f1 = 0.0;
    return R_PosInf;
}

/* The scan behind both entry points.  s_sorted holds the n scores in
 * decreasing order and order[k] the original index of s_sorted[k]; y and
 * group are in the original indexing.  Entries whose group equals skip_group
 * are left out (group = NULL: none), which gives the threshold chosen on the
 * other cross-validation folds; so are entries whose label is missing
 * (LABEL_NA): the cut is chosen on the observed entries only. */
double f1_cut_sorted(int n, const double *s_sorted, const int *order, const int *y,
                     const int *group, int skip_group, double level, double *best_f1)
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
    return chance_rule(ntot, npos, ninf, level, threshold, best_f1);
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

/* The bits of a double as an unsigned key whose order is the reverse of the
 * numbers' order (NaN aside), so that an ascending radix sort of the keys
 * sorts the numbers in decreasing order. */
static inline uint64_t decreasing_key(double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    u = (u >> 63) ? ~u : (u | ((uint64_t) 1 << 63));  /* increasing key */
    return ~u;
}

/* Scores into buf in decreasing order, idx[k] the original index of buf[k]:
 * an LSD radix sort on 11-bit digits (no calls into R, so threads may run it;
 * the order of equal scores is irrelevant to the F1 scan).  keys, keys2 and
 * idx2 are scratch of n entries. */
#define RADIX_BITS 11
#define RADIX_SIZE (1 << RADIX_BITS)
static void radix_sort_decreasing(int n, const double *score, double *buf, int *idx,
                                  uint64_t *keys, uint64_t *keys2, int *idx2)
{
    size_t count[RADIX_SIZE];
    for (int i = 0; i < n; i++) {
        keys[i] = decreasing_key(score[i]);
        idx[i] = i;
    }
    for (int shift = 0; shift < 64; shift += RADIX_BITS) {
        memset(count, 0, sizeof count);
        for (int i = 0; i < n; i++) count[(keys[i] >> shift) & (RADIX_SIZE - 1)]++;
        if (n > 0 && count[(keys[0] >> shift) & (RADIX_SIZE - 1)] == (size_t) n) continue;
        size_t pos = 0;
        for (int b = 0; b < RADIX_SIZE; b++) {
            size_t c = count[b];
            count[b] = pos;
            pos += c;
        }
        for (int i = 0; i < n; i++) {
            size_t dst = count[(keys[i] >> shift) & (RADIX_SIZE - 1)]++;
            keys2[dst] = keys[i];
            idx2[dst] = idx[i];
        }
        memcpy(keys, keys2, sizeof(uint64_t) * (size_t) n);
        memcpy(idx, idx2, sizeof(int) * (size_t) n);
    }
    for (int k = 0; k < n; k++) buf[k] = score[idx[k]];
}

/* The route by positives.  The best cut lies just below a score held by a
 * positive: a cut that lowers the one above it past negatives only keeps tp
 * and adds predictions, so its F1 is no higher and the strict ">" of the scan
 * from the top never takes it; the very first cut, if it has tp = 0, scores
 * F1 = 0, below any cut with tp > 0 and below "everything predicted".  So the
 * candidates are the q distinct scores of positives, v[0] > ... > v[q-1],
 * and of the negatives only counts and maxima between consecutive v's
 * matter: bucket b holds the scores below exactly b of the v's.  Counts and
 * maxima are kept per group (fold), which gives every leave-one-group-out
 * subset in O(q).  The threshold is computed from the same two doubles as in
 * the sorted scan, so the results are bitwise the same. */

/* A label with more than n / MAX_POSITIVE_SHARE positives takes the sorted
 * route: measured on 6000 rows, this route is 1.2 to 1.4 times as fast as
 * sorting at 20% positives and breaks even near 30% (bench/thresholds.R). */
#define MAX_POSITIVE_SHARE 5

/* Scratch of the route for one label.  Groups are 0..ngroups-1 (group 0 is
 * never left out); the count tables pos and neg have a row per bucket
 * b = 0..q and a column per group, then one for the totals. */
typedef struct {
    int maxpos, ngroups;  /* at most maxpos positives (else the sorted route) */
    double *dbl;          /* work_doubles(maxpos, ngroups) */
    int *ints;            /* work_ints(maxpos, ngroups) */
    int q;                /* what follows is laid out in dbl and ints for q */
    double *v;            /* q: the distinct scores of positives, decreasing,
                           * then two -Inf (for bucket_of()) */
    double *gmax;         /* (q + 1) x ngroups: the top negative score (-Inf: none) */
    double *max1, *max2;  /* q + 1: the top of gmax's row, and the top outside top_group */
    int *top_group;       /* q + 1: the group of max1 */
    int *pos, *neg;       /* (q + 1) x (ngroups + 1) */
    double *below;        /* q: scratch of f1_cut_positives() */
    int ncell, *start;    /* the index over v (bucket_of()): ncell + 2 */
    double scale;         /* of the index; 0: none */
} f1_work;

static size_t work_doubles(int maxpos, int ngroups)
{
    return 2 * (size_t) maxpos + 2 + ((size_t) maxpos + 1) * ((size_t) ngroups + 2);
}

static size_t work_ints(int maxpos, int ngroups)
{
    return ((size_t) maxpos + 1) * (2 * (size_t) ngroups + 5);
}

/* The positives' scores come first in dbl; the rest overlays them past q. */
static void work_layout(f1_work *w, int q)
{
    size_t ng = (size_t) w->ngroups, rows = (size_t) q + 1;
    w->q = q;
    w->v = w->dbl;
    w->gmax = w->v + q + 2;
    w->max1 = w->gmax + rows * ng;
    w->max2 = w->max1 + rows;
    w->below = w->max2 + rows;
    w->top_group = w->ints;
    w->pos = w->top_group + rows;
    w->neg = w->pos + rows * (ng + 1);
    w->start = w->neg + rows * (ng + 1);
    w->ncell = 2 * q;
}

/* Sift x[i] down the min-heap x[0..n-1]. */
static void sift_down(double *x, int n, int i)
{
    double t = x[i];
    for (;;) {
        int c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && x[c + 1] < x[c]) c++;
        if (!(x[c] < t)) break;
        x[i] = x[c];
        i = c;
    }
    x[i] = t;
}

/* x[0..n-1] into decreasing order by heapsort, the minimum going to the end
 * (threads cannot call R's sorts; qsort() costs a call per comparison). */
static void sort_doubles_decreasing(double *x, int n)
{
    for (int i = n / 2 - 1; i >= 0; i--) sift_down(x, n, i);
    for (int end = n - 1; end > 0; end--) {
        double t = x[0];
        x[0] = x[end];
        x[end] = t;
        sift_down(x, end, 0);
    }
}

/* How many of the len decreasing values v are above s (binary search without
 * branches on the data, so that searches of successive scores overlap). */
static inline int count_above(const double *v, int len, double s)
{
    const double *base = v;
    while (len > 1) {
        int half = len / 2;
        base = (base[half - 1] > s) ? base + half : base;
        len -= half;
    }
    return (int) (base - v) + (len == 1 && base[0] > s);
}

/* The cell of a score x in [v[q-1], v[0]] from d = v[0] - x: ncell cells of
 * equal width.  Rounding is monotone, so the cell never increases with x. */
static inline int cell_of(double d, double scale, int ncell)
{
    int c = (int) (d * scale);
    return c < ncell ? c : ncell;
}

/* The index over v: start[c] = #{i : cell(v[i]) < c}.  A score in cell c is
 * below every v[i] of an earlier cell and not below any of a later one, so
 * its bucket lies in start[c]..start[c + 1]: a search among a few values
 * instead of all q.  None (scale 0) when q < 2 or the range overflows. */
static void index_build(f1_work *w)
{
    const double *v = w->v;
    int q = w->q;
    w->scale = 0.0;
    if (q < 2) return;
    double range = v[0] - v[q - 1], scale = w->ncell / range;
    if (!isfinite(range) || !isfinite(scale)) return;
    w->scale = scale;
    for (int c = 0, i = 0; c <= w->ncell + 1; c++) {
        while (i < q && cell_of(v[0] - v[i], scale, w->ncell) < c) i++;
        w->start[c] = i;
    }
}

/* The bucket of s: how many of the v's are above it. */
static inline int bucket_of(const f1_work *w, double s)
{
    const double *v = w->v;
    if (!(s < v[0])) return 0;
    if (s < v[w->q - 1]) return w->q;
    int lo = 0, hi = w->q;
    if (w->scale > 0.0) {
        int c = cell_of(v[0] - s, w->scale, w->ncell);
        lo = w->start[c];
        hi = w->start[c + 1];
    }
    if (hi - lo <= 2)  /* the common case, without branches: v[hi..] are below s */
        return lo + (v[lo] > s) + (v[lo + 1] > s);
    return lo + count_above(v + lo, hi - lo, s);
}

/* Fill w with the label (score, y) of n entries, group[i] its groups (NULL:
 * all in group 0; numbers outside 1..ngroups-1 count as group 0).  Returns 1,
 * for the sorted route, when an observed score is not finite (-Inf changes
 * the "everything predicted" rule, NaN the order) or the label has more than
 * maxpos positives; else 0. */
static int f1_positives_prepare(int n, const double *score, const int *y, const int *group,
                                f1_work *w)
{
    double *v = w->dbl;
    int p = 0;
    for (int i = 0; i < n; i++) {
        if (y[i] == LABEL_NA) continue;
        if (!isfinite(score[i])) return 1;
        if (y[i] != 0) {
            if (p == w->maxpos) return 1;
            v[p++] = score[i];
        }
    }
    sort_doubles_decreasing(v, p);
    int q = 0;
    for (int j = 0; j < p; j++)
        if (q == 0 || v[j] != v[q - 1]) v[q++] = v[j];
    work_layout(w, q);
    v[q] = v[q + 1] = R_NegInf;
    int ng = w->ngroups, nc = ng + 1;
    size_t rows = (size_t) q + 1;
    memset(w->pos, 0, sizeof(int) * rows * nc * 2);  /* pos, then neg */
    if (q == 0) return 0;  /* every subset without positives: +Inf */
    for (size_t k = 0; k < rows * ng; k++) w->gmax[k] = R_NegInf;
    index_build(w);
    for (int i = 0; i < n; i++) {
        if (y[i] == LABEL_NA) continue;
        double s = score[i];
        int b = bucket_of(w, s);  /* for a positive, v[b] == s */
        int g = group ? group[i] : 0;
        if (g < 1 || g >= ng) g = 0;
        if (y[i] != 0) {
            w->pos[(size_t) b * nc + g]++;
        } else {
            w->neg[(size_t) b * nc + g]++;
            double *top = w->gmax + (size_t) b * ng + g;
            *top = s > *top ? s : *top;
        }
    }
    /* per bucket the totals, and the top two maxima of different groups: the
     * top with any one group left out */
    for (size_t b = 0; b < rows; b++) {
        int *pr = w->pos + b * nc, *nr = w->neg + b * nc;
        const double *gm = w->gmax + b * ng;
        double m1 = R_NegInf, m2 = R_NegInf;
        int top = -1;
        for (int g = 0; g < ng; g++) {
            pr[ng] += pr[g];
            nr[ng] += nr[g];
            if (gm[g] > m1) {
                m2 = m1;
                m1 = gm[g];
                top = g;
            } else if (gm[g] > m2) {
                m2 = gm[g];
            }
        }
        w->max1[b] = m1;
        w->max2[b] = m2;
        w->top_group[b] = top;
    }
    return 0;
}

/* Row b of a count table in the subset that leaves group skip out (0: none). */
static inline int in_subset(const int *table, int b, int nc, int skip)
{
    const int *row = table + (size_t) b * nc;
    return row[nc - 1] - (skip > 0 ? row[skip] : 0);
}

/* The cut f1_cut_sorted() chooses on the entries of w outside group skip
 * (0: all), from the candidates v[i]: the same F1 formula, best = -1 start,
 * strict ">", threshold between v[i] and the top score under it. */
static double f1_cut_positives(f1_work *w, int skip, double level, double *best_f1)
{
    int q = w->q, nc = w->ngroups + 1;
    const double *v = w->v;
    int npos = 0, nobs = 0;
    for (int b = 0; b <= q; b++) {
        npos += in_subset(w->pos, b, nc, skip);
        nobs += in_subset(w->neg, b, nc, skip);
    }
    nobs += npos;
    *best_f1 = 1.0;
    if (npos == 0) return R_PosInf;  /* nothing to find, nothing predicted */
    if (npos == nobs) {
        *best_f1 = 2.0 * nobs / (double) (nobs + npos);
        return R_NegInf;
    }
    /* below[i], the top score under v[i] (-Inf: none): the top negative of
     * bucket i + 1 if any (it is >= v[i + 1]), else v[i + 1] if a positive
     * holds it, else below[i + 1] */
    double next = R_NegInf;
    for (int i = q - 1; i >= 0; i--) {
        int b = i + 1;
        double top = (skip > 0 && w->top_group[b] == skip) ? w->max2[b] : w->max1[b];
        if (top != R_NegInf) next = top;
        else if (b < q && in_subset(w->pos, b, nc, skip) > 0) next = v[b];
        w->below[i] = next;
    }
    double best = -1.0, threshold = R_NegInf;
    int tp = 0, count = 0;  /* positives, and entries, scoring >= v[i] */
    for (int i = 0; i < q; i++) {
        int np = in_subset(w->pos, i, nc, skip);
        tp += np;
        count += np + in_subset(w->neg, i, nc, skip);
        if (np == 0 || w->below[i] == R_NegInf) continue;  /* no such cut here */
        double f1 = 2.0 * tp / (double) (count + npos);
        if (f1 > best) {
            best = f1;
            threshold = v[i] / 2.0 + w->below[i] / 2.0;
            if (!(threshold < v[i])) threshold = w->below[i];
        }
    }
    double f1_all = 2.0 * tp / (double) (nobs + npos);  /* no -Inf score here */
    if (f1_all > best) {
        best = f1_all;
        threshold = R_NegInf;
    }
    *best_f1 = best;
    return chance_rule(nobs, npos, 0, level, threshold, best_f1);
}

/* buf (n + 1 doubles) and idx (n + 1 ints) are scratch; the route by
 * positives works in them, so for small n it allows fewer positives. */
double f1_threshold(int n, const double *score, const int *y, double *buf, int *idx,
                    double level, double *best_f1)
{
    int maxpos = n / MAX_POSITIVE_SHARE;
    while (maxpos > 0 && (work_doubles(maxpos, 1) > (size_t) n + 1 ||
                          work_ints(maxpos, 1) > (size_t) n + 1))
        maxpos--;  /* small n only */
    f1_work w = {.maxpos = maxpos, .ngroups = 1, .dbl = buf, .ints = idx};
    if (maxpos > 0 && f1_positives_prepare(n, score, y, NULL, &w) == 0)
        return f1_cut_positives(&w, 0, level, best_f1);
    sort_decreasing(n, score, buf, idx);
    return f1_cut_sorted(n, buf, idx, y, NULL, 0, level, best_f1);
}

/* cv_point_thresholds(), by_positives = 0 for the sorted route throughout. */
static void point_thresholds(int n, int m, int nfolds, const double *score, const int *y,
                             const int *foldid, double *thresholds, double *f1_all,
                             int nthreads, double level, int by_positives)
{
    int nt = mlss_thread_count(nthreads);  /* capped; 1 in a forked worker */
    size_t per = (size_t) n + 1;
    double *buf = (double *) R_alloc(per * nt, sizeof(double));
    int *idx = (int *) R_alloc(per * nt * 2, sizeof(int));
    uint64_t *keys = (uint64_t *) R_alloc(per * nt * 2, sizeof(uint64_t));
    /* Groups 1..nfolds + 1, as f1_cut_sorted() leaves out group k + 1 for
     * column k.  The tables grow with the groups: many folds allow fewer
     * positives, so that they stay within about 6 n numbers. */
    int ngroups = nfolds + 2;
    int maxpos = n / MAX_POSITIVE_SHARE, cap = (int) (2.0 * n / ngroups);
    if (maxpos > cap) maxpos = cap;
    if (!by_positives) maxpos = 0;
    size_t nd = work_doubles(maxpos, ngroups), ni = work_ints(maxpos, ngroups);
    double *wdbl = (double *) R_alloc(nd * nt, sizeof(double));
    int *wint = (int *) R_alloc(ni * nt, sizeof(int));
#ifdef _OPENMP
#pragma omp parallel for num_threads(nt) schedule(dynamic, 8)
#endif
    for (int l = 0; l < m; l++) {
        int me = mlss_thread_num();
        const double *sl = score + IDX(0, l, n);
        const int *yl = y + IDX(0, l, n);
        f1_work w = {.maxpos = maxpos, .ngroups = ngroups, .dbl = wdbl + nd * me,
                     .ints = wint + ni * me};
        int sorted = !by_positives || f1_positives_prepare(n, sl, yl, foldid, &w);
        double *b = buf + per * me;
        int *ix = idx + per * 2 * me;
        uint64_t *k1 = keys + per * 2 * me;
        if (sorted) radix_sort_decreasing(n, sl, b, ix, k1, k1 + per, ix + per);
        /* The chance rule decides once, on all rows (the last column, the
         * refit's cut): where it rejects the plain F1 maximum of all rows,
         * every fold takes the same fallback (the majority rule of all rows);
         * where it keeps it, every fold takes its own plain maximum (level 1).
         * Decided per fold instead, a label near the rule's boundary could be
         * "never predicted" in the folds (which the cross-validated measure
         * counts) and predicted by the refit, or the reverse (issue 22). */
        double f1, plain_f1;
        double cut = sorted ? f1_cut_sorted(n, b, ix, yl, foldid, nfolds + 1, level, &f1)
                            : f1_cut_positives(&w, nfolds + 1, level, &f1);
        int fallback = 0;
        if (level < 1.0) {
            int npos = 0, ntot = 0;
            for (int i = 0; i < n; i++) {
                if (yl[i] == LABEL_NA) continue;
                ntot++;
                npos += (yl[i] != 0);
            }
            if (npos > 0 && npos < ntot) {  /* else no rule: the scan's own answer */
                if (sorted) f1_cut_sorted(n, b, ix, yl, foldid, nfolds + 1, 1.0, &plain_f1);
                else f1_cut_positives(&w, nfolds + 1, 1.0, &plain_f1);
                fallback = !beats_chance(ntot, npos, plain_f1, level);
            }
        }
        thresholds[IDX(l, nfolds, m)] = cut;
        f1_all[l] = f1;
        for (int k = 0; k < nfolds; k++) {
            double fk;
            thresholds[IDX(l, k, m)] = fallback ? cut
                : sorted ? f1_cut_sorted(n, b, ix, yl, foldid, k + 1, 1.0, &fk)
                         : f1_cut_positives(&w, k + 1, 1.0, &fk);
        }
    }
}

/* score: n x m out-of-fold scores of one grid point; foldid in 1..nfolds.
 * thresholds (m x (nfolds + 1)): column k < nfolds the F1-maximising
 * threshold of each label on the scores of the folds other than k + 1, the
 * last column the one on all of them (for the final model), whose F1 goes to
 * f1_all (m).  The chance rule is applied once per label, on all rows: a
 * label it sends to the majority rule gets that fallback in every column,
 * else every fold column is the plain maximum on its rows.  Each label is prepared (or sorted) once; labels run in
 * parallel on nthreads threads. */
void cv_point_thresholds(int n, int m, int nfolds, const double *score, const int *y,
                         const int *foldid, double *thresholds, double *f1_all,
                         int nthreads, double level)
{
    point_thresholds(n, m, nfolds, score, y, foldid, thresholds, f1_all, nthreads, level, 1);
}

/* The same by the sorted route only: the reference for tests and benchmarks. */
void cv_point_thresholds_sorted(int n, int m, int nfolds, const double *score, const int *y,
                                const int *foldid, double *thresholds, double *f1_all,
                                int nthreads, double level)
{
    point_thresholds(n, m, nfolds, score, y, foldid, thresholds, f1_all, nthreads, level, 0);
}
