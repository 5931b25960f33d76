/* Declarations shared by the .Call glue files and init.c. */
#ifndef MLSS_H
#define MLSS_H

#include <Rinternals.h>
#include "linalg.h"

/* glue.c */
mlss_mat unpack_matrix(SEXP nat);
void check_targets(SEXP y, int n);
double *center_columns(SEXP y, int centre, double *mean);
double *centre_features(mlss_mat *X, int centre);
SEXP matrix_head(const double *A, int nrow, int cols);
SEXP numeric_copy(const double *a, int len);
void mlls_stop(int status);

/* .Call entry points */
SEXP mlls_fit(SEXP x, SEXP y, SEXP alpha, SEXP beta, SEXP r, SEXP intercept, SEXP dual,
              SEXP tol);
SEXP mlls_fit_gram(SEXP kernel, SEXP y, SEXP alpha, SEXP beta, SEXP r,
                   SEXP intercept, SEXP tol);
SEXP f1_thresholds(SEXP score, SEXP y);
SEXP gram_matrix(SEXP x, SEXP centre);
SEXP cv_mlls_fold_primal(SEXP xtr, SEXP xva, SEXP ytr, SEXP alpha, SEXP beta, SEXP r,
                         SEXP intercept, SEXP tol, SEXP train_thresholds);
SEXP cv_mlls_fold_gram(SEXP K, SEXP train, SEXP ytr, SEXP alpha, SEXP beta, SEXP r,
                       SEXP intercept, SEXP tol, SEXP train_thresholds);
SEXP cv_oof_thresholds_call(SEXP oof, SEXP y, SEXP foldid, SEXP nfolds);
SEXP ml_metrics_call(SEXP y, SEXP score, SEXP pred, SEXP codes);
SEXP cv_measures_call(SEXP oof, SEXP y, SEXP foldid, SEXP thresholds, SEXP code);
SEXP mddm_fit(SEXP x, SEXP labels, SEXP mu, SEXP k, SEXP share, SEXP method, SEXP tol);

#endif
