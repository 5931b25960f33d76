/* One grid point of cross-validated MLLS on a decomposed fold. */
#include <R.h>
#include "linalg.h"
#include "mlls_core.h"
#include "cv_mlls_core.h"
#include "thresholds_core.h"

/* At (alpha, beta): the validation scores Zva T + ybar (n_va x m) and, when
 * the fold has Ztr, the training scores Ztr T + ybar (n_tr x m, into
 * train_scores, which must then be given), turned into the per-label
 * thresholds that maximise the training F1 when thresholds and f->ytr are
 * given, at the chance rule's level.  r_used: the subspace dimension after
 * capping. */
int cv_fold_point(const cv_fold *f, double alpha, double beta, int r, double *val_scores,
                  double *train_scores, double *thresholds, double level, int *r_used)
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
                                     f->ytr + IDX(0, l, n_tr), buf, idx, level, &f1);
    }
    return 0;
}
