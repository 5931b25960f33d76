/* The alpha x beta grid of one fold, and thresholds from out-of-fold scores. */
#include <R.h>
#include <R_ext/Utils.h>
#include <string.h>
#include "linalg.h"
#include "mlls_core.h"
#include "cv_mlls_core.h"
#include "thresholds_core.h"

/* For every grid point g, the validation scores Zva T + ybar (n_va x m, slice
 * g of val_scores) and, when the fold has Ztr, the training scores Ztr T + ybar:
 * kept in f->train_scores when it is set (methods that put a second stage on
 * the MLLS scores), and turned into the per-label thresholds that maximise F1
 * (column g of the m x ngrid matrix thresholds) when f->ytr is set.
 * r_used: the subspace dimension after capping. */
int cv_fold_grid(const cv_fold *f, int ngrid, const double *alpha, const double *beta,
                 int r, double *val_scores, double *thresholds, int *r_used)
{
    int t = f->t, m = f->m, n_va = f->n_va, n_tr = f->n_tr;
    double *G = (double *) R_alloc((size_t) t * r + 1, sizeof(double));
    double *T = (double *) R_alloc((size_t) t * m + 1, sizeof(double));
    double *V = (double *) R_alloc((size_t) r * m + 1, sizeof(double));
    double *train = NULL, *buf = NULL;
    int *idx = NULL;
    if (f->Ztr && !f->train_scores)
        train = (double *) R_alloc((size_t) n_tr * m + 1, sizeof(double));
    if (f->ytr) {
        buf = (double *) R_alloc((size_t) n_tr + 1, sizeof(double));
        idx = (int *) R_alloc((size_t) n_tr + 1, sizeof(int));
    }
    *r_used = r;
    for (int g = 0; g < ngrid; g++) {
        R_CheckUserInterrupt();
        int status = mlls_tspace(t, m, r, (double) n_tr, f->s, f->P, alpha[g], beta[g],
                                 G, T, V, r_used);
        if (status != 0) return status;
        double *vs = val_scores + (size_t) g * n_va * m;
        for (int l = 0; l < m; l++)
            for (int i = 0; i < n_va; i++) vs[IDX(i, l, n_va)] = f->ybar[l];
        gemm('N', 'N', n_va, m, t, 1.0, f->Zva, n_va, T, t, 1.0, vs, n_va);
        if (!f->Ztr) continue;
        if (f->train_scores) train = f->train_scores + (size_t) g * n_tr * m;
        for (int l = 0; l < m; l++)
            for (int i = 0; i < n_tr; i++) train[IDX(i, l, n_tr)] = f->ybar[l];
        gemm('N', 'N', n_tr, m, t, 1.0, f->Ztr, n_tr, T, t, 1.0, train, n_tr);
        if (!f->ytr) continue;
        for (int l = 0; l < m; l++) {
            double f1;
            thresholds[IDX(l, g, m)] = f1_threshold(n_tr, train + IDX(0, l, n_tr),
                                                    f->ytr + IDX(0, l, n_tr), buf, idx, &f1);
        }
    }
    return 0;
}

/* oof: n x m x ngrid out-of-fold scores; foldid in 1..nfolds.  For every grid
 * point, label and fold, the F1-maximising threshold on the out-of-fold scores
 * of the other folds (m x ngrid x nfolds).  Each (grid point, label) is
 * sorted once and scanned once per fold. */
void cv_oof_thresholds(int n, int m, int ngrid, int nfolds, const double *oof,
                       const int *y, const int *foldid, double *thresholds)
{
    double *buf = (double *) R_alloc((size_t) n + 1, sizeof(double));
    int *idx = (int *) R_alloc((size_t) n + 1, sizeof(int));
    for (int g = 0; g < ngrid; g++) {
        R_CheckUserInterrupt();
        for (int l = 0; l < m; l++) {
            sort_decreasing(n, oof + (size_t) g * n * m + IDX(0, l, n), buf, idx);
            for (int k = 0; k < nfolds; k++) {
                double f1;
                thresholds[(size_t) k * m * ngrid + IDX(l, g, m)] =
                    f1_cut_sorted(n, buf, idx, y + IDX(0, l, n), foldid, k + 1, &f1);
            }
        }
    }
}
