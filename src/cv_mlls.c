/* .Call glue for cross-validated MLLS.  Each fold is decomposed once (the
 * primal d x d form from its rows of x, or the dual form from its block of a
 * Gram or kernel matrix computed once for all folds); cv_fold_grid() then
 * scores the fold's validation rows at every (alpha, beta). */
#include <R.h>
#include <Rinternals.h>
#include <string.h>
#include "linalg.h"
#include "mlls_core.h"
#include "cv_mlls_core.h"
#include "mlss.h"

/* The n x m labels as 0/1 ints: targets are +1/-1. */
static int *labels_01(SEXP y)
{
    R_xlen_t len = XLENGTH(y);
    int *out = (int *) R_alloc((size_t) len + 1, sizeof(int));
    for (R_xlen_t k = 0; k < len; k++) out[k] = REAL(y)[k] > 0;
    return out;
}

static void check_grid(SEXP alpha, SEXP beta, SEXP r)
{
    if (!Rf_isReal(alpha) || !Rf_isReal(beta) || XLENGTH(alpha) != XLENGTH(beta) ||
        XLENGTH(alpha) < 1 || Rf_asInteger(r) < 1)
        Rf_error("internal: alpha and beta must be double vectors of one length, r >= 1");
}

/* What a fold returns besides the validation scores (argument train_out). */
enum { TRAIN_NOTHING = 0, TRAIN_THRESHOLDS = 1, TRAIN_SCORES = 2 };

/* Run the grid on a decomposed fold and return list(scores = n_va x m x ngrid,
 * thresholds = m x ngrid or NULL, train_scores = n_tr x m x ngrid or NULL, r,
 * rank). */
static SEXP run_grid(cv_fold *f, SEXP alpha, SEXP beta, int r, int train_out)
{
    int ngrid = (int) XLENGTH(alpha), r_used = 0;
    const char *names[] = {"scores", "thresholds", "train_scores", "r", "rank", ""};
    SEXP res = PROTECT(Rf_mkNamed(VECSXP, names));
    SEXP scores = Rf_alloc3DArray(REALSXP, f->n_va, f->m, ngrid);
    SET_VECTOR_ELT(res, 0, scores);
    double *thr = NULL;
    if (train_out == TRAIN_THRESHOLDS) {
        SEXP th = Rf_allocMatrix(REALSXP, f->m, ngrid);
        SET_VECTOR_ELT(res, 1, th);
        thr = REAL(th);
    } else if (train_out == TRAIN_SCORES) {
        SEXP ts = Rf_alloc3DArray(REALSXP, f->n_tr, f->m, ngrid);
        SET_VECTOR_ELT(res, 2, ts);
        f->train_scores = REAL(ts);
        f->ytr = NULL;
    }
    mlls_stop(cv_fold_grid(f, ngrid, REAL(alpha), REAL(beta), r, REAL(scores), thr,
                           &r_used));
    SET_VECTOR_ELT(res, 3, Rf_ScalarInteger(r_used));
    SET_VECTOR_ELT(res, 4, Rf_ScalarInteger(f->t));
    UNPROTECT(1);
    return res;
}

/* Primal form: xtr, xva are the training and validation rows (lists from
 * native_matrix()), ytr the n_tr x m training targets (+1/-1 for labels);
 * train_out: 0, 1 (per-label thresholds on the training scores) or 2 (the
 * training scores themselves). */
SEXP cv_mlls_fold_primal(SEXP xtr, SEXP xva, SEXP ytr, SEXP alpha, SEXP beta, SEXP r,
                         SEXP intercept, SEXP tol, SEXP train_out)
{
    mlss_mat Xtr = unpack_matrix(xtr), Xva = unpack_matrix(xva);
    int n_tr = Xtr.nrow, n_va = Xva.nrow, m = Rf_ncols(ytr);
    if (Xva.ncol != Xtr.ncol) Rf_error("internal: training and validation columns differ");
    check_targets(ytr, n_tr);
    check_grid(alpha, beta, r);

    double *ybar = (double *) R_alloc((size_t) m + 1, sizeof(double));
    double *Yc = center_columns(ytr, Rf_asLogical(intercept), ybar);
    double *mu = centre_features(&Xtr, Rf_asLogical(intercept));
    mlls_decomp dec;
    mlls_stop(mlls_decompose_primal(&Xtr, Xtr.i ? mu : NULL, Yc, m, Rf_asReal(tol), &dec));

    cv_fold f = {dec.t, m, n_tr, n_va, dec.s, dec.P, NULL, NULL, ybar, NULL, NULL};
    double *Zva = (double *) R_alloc((size_t) n_va * dec.t + 1, sizeof(double));
    mat_prod(&Xva, mu, dec.basis, dec.t, Zva);  /* (Xva - 1 mu') V1 */
    f.Zva = Zva;
    int mode = Rf_asInteger(train_out);
    if (mode != TRAIN_NOTHING) {
        double *Ztr = (double *) R_alloc((size_t) n_tr * dec.t + 1, sizeof(double));
        mat_prod(&Xtr, Xtr.i ? mu : NULL, dec.basis, dec.t, Ztr);
        f.Ztr = Ztr;
        f.ytr = labels_01(ytr);
    }
    return run_grid(&f, alpha, beta, Rf_asInteger(r), mode);
}

/* Dual form: K is the n x n Gram (or kernel) matrix of all the data, train the
 * sorted 1-based indices of the training rows; the validation rows are the
 * others, in increasing order.  Centring by the training part happens here. */
SEXP cv_mlls_fold_gram(SEXP K, SEXP train, SEXP ytr, SEXP alpha, SEXP beta, SEXP r,
                       SEXP intercept, SEXP tol, SEXP train_out)
{
    int n = Rf_nrows(K), n_tr = (int) XLENGTH(train), m = Rf_ncols(ytr);
    int n_va = n - n_tr, centre = Rf_asLogical(intercept);
    if (!Rf_isReal(K) || Rf_ncols(K) != n || !Rf_isInteger(train) || n_tr < 1 || n_va < 1)
        Rf_error("internal: K must be a square double matrix and train proper indices");
    check_targets(ytr, n_tr);
    check_grid(alpha, beta, r);
    const double *Kf = REAL(K);
    int *tr = (int *) R_alloc((size_t) n_tr, sizeof(int));
    int *va = (int *) R_alloc((size_t) n_va, sizeof(int));
    char *is_tr = (char *) R_alloc((size_t) n, sizeof(char));
    memset(is_tr, 0, (size_t) n);
    for (int k = 0; k < n_tr; k++) {
        int i = INTEGER(train)[k] - 1;
        if (i < 0 || i >= n || is_tr[i]) Rf_error("internal: bad training indices");
        is_tr[i] = 1;
        tr[k] = i;
    }
    for (int i = 0, k = 0; i < n; i++)
        if (!is_tr[i]) va[k++] = i;

    double *Ktr = (double *) R_alloc((size_t) n_tr * n_tr, sizeof(double));
    double *Kva = (double *) R_alloc((size_t) n_va * n_tr, sizeof(double));
    for (int b = 0; b < n_tr; b++) {
        for (int a = 0; a < n_tr; a++) Ktr[IDX(a, b, n_tr)] = Kf[IDX(tr[a], tr[b], n)];
        for (int a = 0; a < n_va; a++) Kva[IDX(a, b, n_va)] = Kf[IDX(va[a], tr[b], n)];
    }
    if (centre) {  /* k~(x, x_j) = k(x, x_j) - mean_j' k(x, x_j') - kbar_j + kbar */
        double *kbar = (double *) R_alloc((size_t) n_tr, sizeof(double));
        double *rowm = (double *) R_alloc((size_t) n_va + 1, sizeof(double));
        double all = 0.0;
        memset(rowm, 0, sizeof(double) * (size_t) n_va);
        for (int b = 0; b < n_tr; b++) {
            double s = 0.0;
            for (int a = 0; a < n_tr; a++) s += Ktr[IDX(a, b, n_tr)];
            kbar[b] = s / n_tr;
            all += kbar[b];
            for (int a = 0; a < n_va; a++) rowm[a] += Kva[IDX(a, b, n_va)];
        }
        all /= n_tr;
        for (int b = 0; b < n_tr; b++)
            for (int a = 0; a < n_va; a++)
                Kva[IDX(a, b, n_va)] += all - rowm[a] / n_tr - kbar[b];
        center_gram(n_tr, Ktr);
    }

    double *ybar = (double *) R_alloc((size_t) m + 1, sizeof(double));
    double *Yc = center_columns(ytr, centre, ybar);
    mlls_decomp dec;
    mlls_stop(mlls_decompose_dual(n_tr, Ktr, Yc, m, Rf_asReal(tol), &dec));
    int t = dec.t;

    cv_fold f = {t, m, n_tr, n_va, dec.s, dec.P, NULL, NULL, ybar, NULL, NULL};
    double *Zva = (double *) R_alloc((size_t) n_va * t + 1, sizeof(double));
    gemm('N', 'N', n_va, t, n_tr, 1.0, Kva, n_va, dec.basis, n_tr, 0.0, Zva, n_va);
    for (int c = 0; c < t; c++)  /* Xva_c V1 = K~va U1 diag(1/s) */
        for (int a = 0; a < n_va; a++) Zva[IDX(a, c, n_va)] /= dec.s[c];
    f.Zva = Zva;
    int mode = Rf_asInteger(train_out);
    if (mode != TRAIN_NOTHING) {
        double *Ztr = (double *) R_alloc((size_t) n_tr * t + 1, sizeof(double));
        for (int c = 0; c < t; c++)  /* Xtr_c V1 = U1 diag(s) */
            for (int a = 0; a < n_tr; a++)
                Ztr[IDX(a, c, n_tr)] = dec.basis[IDX(a, c, n_tr)] * dec.s[c];
        f.Ztr = Ztr;
        f.ytr = labels_01(ytr);
    }
    return run_grid(&f, alpha, beta, Rf_asInteger(r), mode);
}

/* The n x n Gram matrix of x (a native_matrix() list), centred by the column
 * means of x when centre: the input of cv_mlls_fold_gram() for linear MLLS. */
SEXP gram_matrix(SEXP x, SEXP centre)
{
    mlss_mat X = unpack_matrix(x);
    double *mu = centre_features(&X, Rf_asLogical(centre));
    SEXP K = PROTECT(Rf_allocMatrix(REALSXP, X.nrow, X.nrow));
    gram_outer(&X, X.i ? mu : NULL, REAL(K));
    UNPROTECT(1);
    return K;
}

/* oof: n x m x ngrid out-of-fold scores; y: n x m logical; foldid in 1..nfolds.
 * Returns the m x ngrid x nfolds thresholds chosen on the other folds. */
SEXP cv_oof_thresholds_call(SEXP oof, SEXP y, SEXP foldid, SEXP nfolds)
{
    SEXP dim = Rf_getAttrib(oof, R_DimSymbol);
    int nf = Rf_asInteger(nfolds);
    if (!Rf_isReal(oof) || XLENGTH(dim) != 3 || !Rf_isLogical(y) || !Rf_isInteger(foldid))
        Rf_error("internal: bad arguments to cv_oof_thresholds");
    int n = INTEGER(dim)[0], m = INTEGER(dim)[1], ngrid = INTEGER(dim)[2];
    if (Rf_nrows(y) != n || Rf_ncols(y) != m || XLENGTH(foldid) != n || nf < 1)
        Rf_error("internal: bad dimensions in cv_oof_thresholds");
    SEXP thr = PROTECT(Rf_alloc3DArray(REALSXP, m, ngrid, nf));
    cv_oof_thresholds(n, m, ngrid, nf, REAL(oof), LOGICAL(y), INTEGER(foldid), REAL(thr));
    UNPROTECT(1);
    return thr;
}
