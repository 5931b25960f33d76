/* Registration of the native routines: nothing else lives here. */
#include <R.h>
#include <Rinternals.h>
#include <R_ext/Rdynload.h>
#include <stdlib.h>
#include "mlss.h"
#include "threads.h"

#define CALLDEF(name, n) {#name, (DL_FUNC) &name, n}

static const R_CallMethodDef CallEntries[] = {
    CALLDEF(mlls_fit, 9),
    CALLDEF(mlls_fit_gram, 8),
    CALLDEF(f1_thresholds, 3),
    CALLDEF(gram_matrix, 2),
    CALLDEF(cv_mlls_prepare_primal, 8),
    CALLDEF(cv_mlls_prepare_gram, 7),
    CALLDEF(cv_mlls_score, 4),
    CALLDEF(cv_point_thresholds_call, 6),
    CALLDEF(cv_point_thresholds_sorted_call, 6),
    CALLDEF(ml_metrics_call, 4),
    CALLDEF(cv_point_measures_call, 5),
    CALLDEF(arff_header_info, 1),
    CALLDEF(arff_read_rows, 8),
    CALLDEF(arff_format_rows, 2),
    CALLDEF(libsvm_read_rows, 5),
    CALLDEF(mddm_fit, 7),
    CALLDEF(logistic_fit_call, 7),
    CALLDEF(l2svm_primal_fit_call, 7),
    CALLDEF(linsvm_fit_call, 9),
    CALLDEF(mlcrf_objective, 13),
    CALLDEF(mlcrf_fit, 17),
    CALLDEF(crf_infer, 16),
    CALLDEF(mddm_choose_k_call, 3),
    CALLDEF(lewl_fit, 19),
    CALLDEF(eigs_dense_call, 5),
    CALLDEF(knn_search_call, 5),
    CALLDEF(knn_label_counts_call, 2),
    CALLDEF(mlml_fit_call, 10),
    CALLDEF(chains_fit, 6),
    CALLDEF(chains_infer, 6),
    CALLDEF(chains_logprob, 3),
    CALLDEF(mlknn_fit_call, 3),
    CALLDEF(mlknn_score_call, 5),
    CALLDEF(sparse_problem_call, 2),
    CALLDEF(blas_fork_threads_call, 1),
    CALLDEF(rbfsvm_train_call, 9),
    CALLDEF(rbfsvm_predict_call, 8),
    CALLDEF(rbfsvm_sigmoid_call, 2),
    CALLDEF(rbfsvm_coupling_call, 1),
    {NULL, NULL, 0}
};

void R_init_mlss(DllInfo *dll)
{
    R_registerRoutines(dll, NULL, CallEntries, NULL, NULL);
    R_useDynamicSymbols(dll, FALSE);
    R_forceSymbols(dll, TRUE);
    mlss_threads_init();
}
