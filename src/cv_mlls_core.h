/* Cross-validation of MLLS over an (alpha, beta) grid: one decomposition per
 * fold, then only rank-t algebra per grid point (methods.md, section 1). */
#ifndef MLSS_CV_MLLS_CORE_H
#define MLSS_CV_MLLS_CORE_H

/* What the grid needs of one fold's decomposition Xc = U1 diag(s) V1'. */
typedef struct {
    int t, m, n_tr, n_va;
    const double *s;     /* t singular values of the centred training part */
    const double *P;     /* t x m: diag(s) U1'Yc */
    const double *Zva;   /* n_va x t: the validation rows in the basis, Xva_c V1 */
    const double *Ztr;   /* n_tr x t: the training rows, U1 diag(s); NULL if unused */
    const double *ybar;  /* m label means of the training part (0 without intercept) */
    const int *ytr;      /* n_tr x m training labels (0/1), for thresholds; or NULL */
    double *train_scores; /* out: n_tr x m x ngrid training scores; or NULL */
} cv_fold;

int cv_fold_grid(const cv_fold *f, int ngrid, const double *alpha, const double *beta,
                 int r, double *val_scores, double *thresholds, int *r_used);

void cv_oof_thresholds(int n, int m, int ngrid, int nfolds, const double *oof,
                       const int *y, const int *foldid, double *thresholds);

#endif
