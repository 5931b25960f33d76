/* Declarations shared by the .Call glue files and init.c. */
#ifndef MLSS_H
#define MLSS_H

#include <Rinternals.h>
#include "linalg.h"
#include "textparse.h"
#include "status.h"

/* glue.c */
mlss_mat unpack_matrix(SEXP nat, const char *arg);
SEXP sparse_problem_call(SEXP nat, SEXP arg);
SEXP blas_fork_threads_call(SEXP set);
void check_targets(SEXP y, int n);
double target_value(SEXP y, R_xlen_t k);
double *center_columns(SEXP y, int centre, double *mean);
double *centred_targets(SEXP y, int centre, double *mean, label_rows *pos, int *sparse);
double *centre_features(mlss_mat *X, int centre);
SEXP matrix_head(const double *A, int nrow, int cols);
SEXP numeric_copy(const double *a, int len);
SEXP named_list(const char **names, ...);
void mlss_stop(int status, const char *who);

/* thresholds.c: the chance rule's level passed from R, checked */
double chance_level_arg(SEXP level);

/* .Call entry points */
SEXP mlls_fit(SEXP x, SEXP y, SEXP alpha, SEXP beta, SEXP r, SEXP intercept, SEXP dual,
              SEXP tol, SEXP want_fitted);
SEXP mlls_fit_gram(SEXP kernel, SEXP y, SEXP alpha, SEXP beta, SEXP r,
                   SEXP intercept, SEXP tol, SEXP want_fitted);
SEXP f1_thresholds(SEXP score, SEXP y, SEXP level);
SEXP gram_matrix(SEXP x, SEXP centre);
SEXP cv_mlls_prepare_primal(SEXP x, SEXP train, SEXP ytr, SEXP intercept, SEXP tol,
                            SEXP train_out, SEXP beta_min, SEXP level);
SEXP cv_mlls_prepare_gram(SEXP K, SEXP train, SEXP ytr, SEXP intercept, SEXP tol,
                          SEXP train_out, SEXP level);
SEXP cv_mlls_score(SEXP state, SEXP alpha, SEXP beta, SEXP r);
SEXP cv_point_thresholds_call(SEXP score, SEXP y, SEXP foldid, SEXP nfolds, SEXP nthreads,
                              SEXP level);
SEXP cv_point_thresholds_sorted_call(SEXP score, SEXP y, SEXP foldid, SEXP nfolds,
                                     SEXP nthreads, SEXP level);
SEXP ml_metrics_call(SEXP y, SEXP score, SEXP pred, SEXP codes);
SEXP cv_point_measures_call(SEXP score, SEXP y, SEXP foldid, SEXP thresholds, SEXP code);
SEXP mddm_fit(SEXP x, SEXP labels, SEXP mu, SEXP k, SEXP share, SEXP method, SEXP tol);
SEXP mlcrf_objective(SEXP x, SEXP mu, SEXP sinv, SEXP y, SEXP from, SEXP to, SEXP K,
                     SEXP lambda_v, SEXP lambda0, SEXP lambda_w, SEXP eta, SEXP theta,
                     SEXP mode);
SEXP mlcrf_fit(SEXP x, SEXP mu, SEXP sinv, SEXP y, SEXP from, SEXP to, SEXP K,
               SEXP lambda_v, SEXP lambda0, SEXP lambda_w, SEXP eta, SEXP theta,
               SEXP stage, SEXP maxit, SEXP tol, SEXP mode, SEXP say);
SEXP crf_infer(SEXP node, SEXP pair, SEXP from, SEXP to, SEXP mode, SEXP comp_max, SEXP y,
               SEXP damping, SEXP maxit, SEXP tol, SEXP sweeps, SEXP starts, SEXP se_target,
               SEXP what, SEXP loopy, SEXP tempering);

/* Linear baselines (br.c, logistic.c, linsvm.c) */
#include "br_rows.h"
lin_rows build_rows(SEXP spec);
void check_linear_problem(const lin_rows *D, SEXP y, SEXP weight);
unsigned int solver_seed(void);
SEXP logistic_fit_call(SEXP spec, SEXP y, SEXP cost, SEXP weight, SEXP eps,
                       SEXP max_iter, SEXP init);
SEXP l2svm_primal_fit_call(SEXP spec, SEXP y, SEXP cost, SEXP weight, SEXP eps,
                           SEXP max_iter, SEXP init);
SEXP linsvm_fit_call(SEXP spec, SEXP y, SEXP cost, SEXP weight, SEXP loss, SEXP eps,
                     SEXP max_iter, SEXP alpha0, SEXP w0);
SEXP mddm_choose_k_call(SEXP values, SEXP k, SEXP share);
SEXP lewl_fit(SEXP y, SEXP start, SEXP K, SEXP factor, SEXP graph, SEXP k, SEXP lambda,
              SEXP beta, SEXP max_iter, SEXP tol, SEXP recovery, SEXP cg_tol, SEXP cg_max,
              SEXP Z0, SEXP eig, SEXP eig_tol, SEXP relax, SEXP accel, SEXP basis);
SEXP mlml_fit_call(SEXP y, SEXP graph, SEXP SC, SEXP beta, SEXP gamma, SEXP loss,
                   SEXP step, SEXP max_iter, SEXP tol, SEXP z0);

/* The block Krylov eigensolver on a formed matrix (eigs.c) */
SEXP eigs_dense_call(SEXP M, SEXP X, SEXP opt, SEXP tol, SEXP prev);

/* knn.c */
SEXP knn_search_call(SEXP x, SEXP newx, SEXP k, SEXP block, SEXP nthreads);

/* mlknn.c */
SEXP knn_label_counts_call(SEXP nbr, SEXP y);
SEXP mlknn_fit_call(SEXP nbr, SEXP y, SEXP s);
SEXP mlknn_score_call(SEXP nbr, SEXP y, SEXP prior, SEXP cond1, SEXP cond0);

/* Classifier chains (chains.c) */
SEXP chains_fit(SEXP spec, SEXP y, SEXP cost, SEXP eps, SEXP max_iter, SEXP init);
SEXP chains_infer(SEXP A, SEXP G, SEXP method, SEXP width, SEXP samples, SEXP marginals);
SEXP chains_logprob(SEXP A, SEXP G, SEXP y);

/* Readers and writers of multi-label files (arff.c, libsvm.c, rows.c). */
const char *raw_bytes(SEXP raw, size_t *len);
SEXP status_list(const parse_status *st);
SEXP rows_result(const row_store *rs, int d, SEXP sparse, SEXP max_density);
SEXP rows_guard(void);
row_store *rows_of(SEXP guard);
void rows_release(SEXP guard);
SEXP arff_header_info(SEXP bytes);
SEXP arff_read_rows(SEXP bytes, SEXP role, SEXP target, SEXP values, SEXP omitted,
                    SEXP ncol, SEXP sparse, SEXP max_density);
SEXP arff_format_rows(SEXP x, SEXP y);
SEXP libsvm_read_rows(SEXP bytes, SEXP first_index, SEXP ncol, SEXP sparse,
                      SEXP max_density);

/* the RBF C-SVC (rbfsvm.c) */
SEXP rbfsvm_train_call(SEXP K, SEXP xt, SEXP gamma, SEXP cls, SEXP nclass, SEXP cost,
                       SEXP eps, SEXP max_iter, SEXP probability);
SEXP rbfsvm_predict_call(SEXP Kte, SEXP start, SEXP sv, SEXP coef, SEXP rho, SEXP probA,
                         SEXP probB, SEXP nclass);
SEXP rbfsvm_sigmoid_call(SEXP dec, SEXP y);
SEXP rbfsvm_coupling_call(SEXP r);

#endif
