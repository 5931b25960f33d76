/* Cross-validation of MLLS: one decomposition per fold, then per grid point
 * only rank-t algebra and the scoring of the fold's rows (methods.md,
 * section 1). */
#ifndef MLSS_CV_MLLS_CORE_H
#define MLSS_CV_MLLS_CORE_H

/* What a grid point needs of one fold's decomposition Xc = U1 diag(s) V1'. */
typedef struct {
    int t, m, n_tr, n_va;
    const double *s;     /* t singular values of the centred training part */
    const double *P;     /* t x m: diag(s) U1'Yc */
    const double *PPt;   /* t x t: P P', for the rank-t algebra when m > t; or NULL */
    const double *Zva;   /* n_va x t: the validation rows in the basis, Xva_c V1 */
    const double *Ztr;   /* n_tr x t: the training rows, U1 diag(s); NULL if unused */
    const double *ybar;  /* m label means of the training part (0 without intercept) */
    const int *ytr;      /* n_tr x m training labels (0/1), for thresholds; or NULL */
} cv_fold;

int cv_fold_point(const cv_fold *f, double alpha, double beta, int r, double *val_scores,
                  double *train_scores, double *thresholds, double level, int *r_used);

#endif
