/* One grid point of cross-validated MLLS on a decomposed fold, and the
 * out-of-fold thresholds of one grid point. */
#include <R.h>
#include <stdint.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include "linalg.h"
#include "mlls_core.h"
#include "cv_mlls_core.h"
#include "thresholds_core.h"

/* At (alpha, beta): the validation scores Zva T + ybar (n_va x m) and, when
 * the fold has Ztr, the training scores Ztr T + ybar (n_tr x m, into
 * train_scores, which must then be given), turned into the per-label
 * thresholds that maximise the training F1 when thresholds and f->ytr are
 * given.  r_used: the subspace dimension after capping. */
int cv_fold_point(const cv_fold *f, double alpha, double beta, int r, double *val_scores,
                  double *train_scores, double *thresholds, int *r_used)
{
    int t = f->t, m = f->m, n_va = f->n_va, n_tr = f->n_tr;
    if (r > t) r = t;  /* Theta cannot have more directions than the data */
    double *G = (double *) R_alloc((size_t) t * r + 1, sizeof(double));
    double *T = (double *) R_alloc((size_t) t * m + 1, sizeof(double));
    int status = mlls_tspace_pp(t, m, r, (double) n_tr, f->s, f->P, f->PPt, 1, alpha, beta,
                                G, T, NULL, r_used);
    if (status != 0) return status;
    for (int l = 0; l < m; l++)
        for (int i = 0; i < n_va; i++) val_scores[IDX(i, l, n_va)] = f->ybar[l];
    gemm('N', 'N', n_va, m, t, 1.0, f->Zva, n_va, T, t, 1.0, val_scores, n_va);
    if (!f->Ztr) return 0;
    for (int l = 0; l < m; l++)
        for (int i = 0; i < n_tr; i++) train_scores[IDX(i, l, n_tr)] = f->ybar[l];
    gemm('N', 'N', n_tr, m, t, 1.0, f->Ztr, n_tr, T, t, 1.0, train_scores, n_tr);
    if (!f->ytr || !thresholds) return 0;
    double *buf = (double *) R_alloc((size_t) n_tr + 1, sizeof(double));
    int *idx = (int *) R_alloc((size_t) n_tr + 1, sizeof(int));
    for (int l = 0; l < m; l++) {
        double f1;
        thresholds[l] = f1_threshold(n_tr, train_scores + IDX(0, l, n_tr),
                                     f->ytr + IDX(0, l, n_tr), buf, idx, &f1);
    }
    return 0;
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

/* score: n x m out-of-fold scores of one grid point; foldid in 1..nfolds.
 * thresholds (m x (nfolds + 1)): column k < nfolds the F1-maximising
 * threshold of each label on the scores of the folds other than k + 1, the
 * last column the one on all of them (for the final model), whose F1 goes to
 * f1_all (m).  Each label is sorted once; labels run in parallel on nthreads
 * threads. */
void cv_point_thresholds(int n, int m, int nfolds, const double *score, const int *y,
                         const int *foldid, double *thresholds, double *f1_all,
                         int nthreads)
{
    int nt = nthreads > 0 ? nthreads : 1;
    size_t per = (size_t) n + 1;
    double *buf = (double *) R_alloc(per * nt, sizeof(double));
    int *idx = (int *) R_alloc(per * nt * 2, sizeof(int));
    uint64_t *keys = (uint64_t *) R_alloc(per * nt * 2, sizeof(uint64_t));
#ifdef _OPENMP
#pragma omp parallel for num_threads(nt) schedule(dynamic, 8)
#endif
    for (int l = 0; l < m; l++) {
        int me = 0;
#ifdef _OPENMP
        me = omp_get_thread_num();
#endif
        double *b = buf + per * me;
        int *ix = idx + per * 2 * me;
        uint64_t *k1 = keys + per * 2 * me;
        radix_sort_decreasing(n, score + IDX(0, l, n), b, ix, k1, k1 + per, ix + per);
        for (int k = 0; k <= nfolds; k++) {
            double f1;
            thresholds[IDX(l, k, m)] =
                f1_cut_sorted(n, b, ix, y + IDX(0, l, n), foldid, k + 1, &f1);
            if (k == nfolds) f1_all[l] = f1;
        }
    }
}
