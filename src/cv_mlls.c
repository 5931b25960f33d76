/* .Call glue for cross-validated MLLS.  Each fold is decomposed once (the
 * primal d x d form from its rows of x, or the dual form from its block of a
 * Gram or kernel matrix computed once for all folds) into a list, the fold's
 * state, that the R engine keeps; cv_mlls_score() then scores the fold's rows
 * at one (alpha, beta) from that state.  cv_point_thresholds_call() gives the
 * out-of-fold thresholds of one grid point, for every method. */
#include <R.h>
#include <Rinternals.h>
#include <string.h>
#include "linalg.h"
#include "mlls_core.h"
#include "cv_mlls_core.h"
#include "thresholds_core.h"
#include "mlss.h"

/* What a fold keeps besides the validation rows (argument train_out). */
enum { TRAIN_NOTHING = 0, TRAIN_THRESHOLDS = 1, TRAIN_SCORES = 2 };

/* The fold's state: the decomposition's s and P (and P P' when m > t, for
 * the rank-t algebra), the validation rows in the basis, the training rows
 * when train_out asks for them, the label means, and the 0/1 training labels
 * when thresholds come from the training scores, with the chance rule's
 * level they are chosen at. */
static SEXP fold_state(const mlls_decomp *dec, int m, int n_tr, int n_va, const double *Zva,
                       const double *Ztr, const double *ybar, SEXP ytr, int train_out,
                       double level)
{
    int t = dec->t;
    const char *names[] = {"s", "P", "PPt", "Zva", "Ztr", "ybar", "ytr", "n_tr", "level", ""};
    SEXP st = PROTECT(Rf_mkNamed(VECSXP, names));
    SET_VECTOR_ELT(st, 0, numeric_copy(dec->s, t));
    SET_VECTOR_ELT(st, 1, matrix_head(dec->P, t, m));
    if (m > t) {
        SEXP PPt = Rf_allocMatrix(REALSXP, t, t);
        SET_VECTOR_ELT(st, 2, PPt);
        gemm('N', 'T', t, t, m, 1.0, dec->P, t, dec->P, t, 0.0, REAL(PPt), t);
    }
    SET_VECTOR_ELT(st, 3, matrix_head(Zva, n_va, t));
    if (train_out != TRAIN_NOTHING) SET_VECTOR_ELT(st, 4, matrix_head(Ztr, n_tr, t));
    SET_VECTOR_ELT(st, 5, numeric_copy(ybar, m));
    if (train_out == TRAIN_THRESHOLDS) {
        SEXP y01 = Rf_allocMatrix(INTSXP, n_tr, m);
        SET_VECTOR_ELT(st, 6, y01);
        for (R_xlen_t k = 0; k < XLENGTH(ytr); k++)
            INTEGER(y01)[k] = target_value(ytr, k) > 0;
    }
    SET_VECTOR_ELT(st, 7, Rf_ScalarInteger(n_tr));
    SET_VECTOR_ELT(st, 8, Rf_ScalarReal(level));  /* of the training thresholds */
    UNPROTECT(1);
    return st;
}

/* A fold's rows: train holds the sorted 1-based indices of the training
 * rows of n; tr and va get the 0-based training and validation rows, the
 * latter the others in increasing order. */
static void split_rows(int n, SEXP train, int *tr, int *va)
{
    int n_tr = (int) XLENGTH(train);
    char *is_tr = (char *) R_alloc((size_t) n + 1, sizeof(char));
    memset(is_tr, 0, (size_t) n);
    for (int k = 0; k < n_tr; k++) {
        int i = INTEGER(train)[k] - 1;
        if (i < 0 || i >= n || is_tr[i] || (k > 0 && i < tr[k - 1]))
            Rf_error("internal: bad training indices");
        is_tr[i] = 1;
        tr[k] = i;
    }
    for (int i = 0, k = 0; i < n; i++)
        if (!is_tr[i]) va[k++] = i;
}

/* The k rows `rows` of X as a matrix of their own (R_alloc'd): a dense copy,
 * or the CSC entries of those rows, renumbered. */
static mlss_mat gather_rows(const mlss_mat *X, const int *rows, int k)
{
    int n = X->nrow, d = X->ncol;
    mlss_mat S = {k, d, NULL, NULL, NULL};
    if (!X->i) {
        double *A = (double *) R_alloc((size_t) k * d + 1, sizeof(double));
        for (int j = 0; j < d; j++)
            for (int a = 0; a < k; a++) A[IDX(a, j, k)] = X->x[IDX(rows[a], j, n)];
        S.x = A;
        return S;
    }
    int *map = (int *) R_alloc((size_t) n + 1, sizeof(int)), nnz = 0;
    for (int i = 0; i < n; i++) map[i] = -1;
    for (int a = 0; a < k; a++) map[rows[a]] = a;
    for (int e = 0; e < X->p[d]; e++) nnz += map[X->i[e]] >= 0;
    double *x = (double *) R_alloc((size_t) nnz + 1, sizeof(double));
    int *i = (int *) R_alloc((size_t) nnz + 1, sizeof(int));
    int *p = (int *) R_alloc((size_t) d + 1, sizeof(int)), e2 = 0;
    for (int j = 0; j < d; j++) {  /* rows stay sorted: rows[] is increasing */
        p[j] = e2;
        for (int e = X->p[j]; e < X->p[j + 1]; e++)
            if (map[X->i[e]] >= 0) {
                x[e2] = X->x[e];
                i[e2++] = map[X->i[e]];
            }
    }
    p[d] = e2;
    S.x = x;
    S.i = i;
    S.p = p;
    return S;
}

/* Z (k x t) = (X[rows, ] - 1 mu') V for a dense X (mu NULL: no centring),
 * a block of rows at a time, so that the rows are never all copied. */
static void project_rows(const mlss_mat *X, const int *rows, int k, const double *mu,
                         const double *V, int t, double *Z)
{
    enum { BLOCK = 256 };
    int n = X->nrow, d = X->ncol;
    double *B = (double *) R_alloc((size_t) BLOCK * d + 1, sizeof(double));
    double *BV = (double *) R_alloc((size_t) BLOCK * t + 1, sizeof(double));
    double *mv = (double *) R_alloc((size_t) t + 1, sizeof(double));
    for (int c = 0; c < t; c++) {  /* mu'V, as mat_prod() takes it */
        double s = 0.0;
        for (int j = 0; mu && j < d; j++) s += mu[j] * V[IDX(j, c, d)];
        mv[c] = s;
    }
    for (int a0 = 0; a0 < k; a0 += BLOCK) {
        int nb = k - a0 < BLOCK ? k - a0 : BLOCK;
        for (int j = 0; j < d; j++)
            for (int a = 0; a < nb; a++) B[IDX(a, j, nb)] = X->x[IDX(rows[a0 + a], j, n)];
        gemm('N', 'N', nb, t, d, 1.0, B, nb, V, d, 0.0, BV, nb);
        for (int c = 0; c < t; c++)
            for (int a = 0; a < nb; a++) Z[IDX(a0 + a, c, k)] = BV[IDX(a, c, nb)] - mv[c];
    }
}

/* Primal form: x is all the data (a list from native_matrix()), train the
 * sorted 1-based indices of the fold's training rows (the validation rows
 * are the others, in increasing order), ytr the n_tr x m training targets
 * (logical labels, or +1/-1); train_out: 0, 1 (thresholds on the training
 * scores, at the chance rule's level `level`) or 2 (the training scores themselves); beta_min the smallest beta
 * of the grid, which decides whether the Gram matrix is accurate enough
 * (mlls_decompose_data()).  The rows are gathered here: a dense fold's
 * training rows once, centred in place, and its validation rows only block
 * by block. */
SEXP cv_mlls_prepare_primal(SEXP x, SEXP train, SEXP ytr, SEXP intercept, SEXP tol,
                            SEXP train_out, SEXP beta_min, SEXP level)
{
    double lv = chance_level_arg(level);
    mlss_mat X = unpack_matrix(x, "x");
    int n = X.nrow, d = X.ncol, n_tr = (int) XLENGTH(train), n_va = n - n_tr;
    int m = Rf_ncols(ytr), mode = Rf_asInteger(train_out), centre = Rf_asLogical(intercept);
    if (!Rf_isInteger(train) || n_tr < 1 || n_va < 1)
        Rf_error("internal: bad training indices");
    check_targets(ytr, n_tr);
    int *tr = (int *) R_alloc((size_t) n_tr, sizeof(int));
    int *va = (int *) R_alloc((size_t) n_va, sizeof(int));
    split_rows(n, train, tr, va);

    double *ybar = (double *) R_alloc((size_t) m + 1, sizeof(double));
    label_rows pos;
    int sparse_labels;
    double *Yc = centred_targets(ytr, centre, ybar, &pos, &sparse_labels);
    mlss_mat Xtr = gather_rows(&X, tr, n_tr);
    double *mu = NULL;
    if (centre) {  /* a sparse fold is centred implicitly, a dense one in place */
        mu = (double *) R_alloc((size_t) d + 1, sizeof(double));
        mat_col_means(&Xtr, mu);
        double *A = (double *) Xtr.x;  /* gather_rows()'s copy */
        for (int j = 0; j < d && !Xtr.i; j++)
            for (int i = 0; i < n_tr; i++) A[IDX(i, j, n_tr)] -= mu[j];
    }
    mlls_decomp dec;
    int primal_form = 1;
    mlss_stop(mlls_decompose_data(&Xtr, Xtr.i ? mu : NULL, Yc, sparse_labels ? &pos : NULL,
                                  m, Rf_asReal(tol), Rf_asReal(beta_min), 0, &dec,
                                  &primal_form), "cv_mlls");
    if (!primal_form) Rf_error("internal: a primal fold came back in the dual form");

    double *Zva = (double *) R_alloc((size_t) n_va * dec.t + 1, sizeof(double));
    if (X.i) {
        mlss_mat Xva = gather_rows(&X, va, n_va);
        mat_prod(&Xva, mu, dec.basis, dec.t, Zva);  /* (Xva - 1 mu') V1 */
    } else {
        project_rows(&X, va, n_va, mu, dec.basis, dec.t, Zva);
    }
    double *Ztr = NULL;
    if (mode != TRAIN_NOTHING) {
        Ztr = (double *) R_alloc((size_t) n_tr * dec.t + 1, sizeof(double));
        mat_prod(&Xtr, Xtr.i ? mu : NULL, dec.basis, dec.t, Ztr);
    }
    return fold_state(&dec, m, n_tr, n_va, Zva, Ztr, ybar, ytr, mode, lv);
}

/* Dual form: K is the n x n Gram (or kernel) matrix of all the data, train the
 * sorted 1-based indices of the training rows; the validation rows are the
 * others, in increasing order.  Centring by the training part happens here. */
SEXP cv_mlls_prepare_gram(SEXP K, SEXP train, SEXP ytr, SEXP intercept, SEXP tol,
                          SEXP train_out, SEXP level)
{
    double lv = chance_level_arg(level);
    int n = Rf_nrows(K), n_tr = (int) XLENGTH(train), m = Rf_ncols(ytr);
    int n_va = n - n_tr, centre = Rf_asLogical(intercept), mode = Rf_asInteger(train_out);
    if (!Rf_isReal(K) || Rf_ncols(K) != n || !Rf_isInteger(train) || n_tr < 1 || n_va < 1)
        Rf_error("internal: K must be a square double matrix and train proper indices");
    check_targets(ytr, n_tr);
    const double *Kf = REAL(K);
    int *tr = (int *) R_alloc((size_t) n_tr, sizeof(int));
    int *va = (int *) R_alloc((size_t) n_va, sizeof(int));
    split_rows(n, train, tr, va);

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
    mlss_stop(mlls_decompose_dual(n_tr, Ktr, Yc, m, Rf_asReal(tol), &dec), "cv_mlls");
    int t = dec.t;

    double *Zva = (double *) R_alloc((size_t) n_va * t + 1, sizeof(double));
    gemm('N', 'N', n_va, t, n_tr, 1.0, Kva, n_va, dec.basis, n_tr, 0.0, Zva, n_va);
    for (int c = 0; c < t; c++)  /* Xva_c V1 = K~va U1 diag(1/s) */
        for (int a = 0; a < n_va; a++) Zva[IDX(a, c, n_va)] /= dec.s[c];
    double *Ztr = NULL;
    if (mode != TRAIN_NOTHING) {
        Ztr = (double *) R_alloc((size_t) n_tr * t + 1, sizeof(double));
        for (int c = 0; c < t; c++)  /* Xtr_c V1 = U1 diag(s) */
            for (int a = 0; a < n_tr; a++)
                Ztr[IDX(a, c, n_tr)] = dec.basis[IDX(a, c, n_tr)] * dec.s[c];
    }
    return fold_state(&dec, m, n_tr, n_va, Zva, Ztr, ybar, ytr, mode, lv);
}

/* One (alpha, beta) on a fold's state: list(scores = n_va x m validation
 * scores, thresholds = m training-F1 thresholds or NULL, train_scores =
 * n_tr x m or NULL, r = the subspace dimension after capping). */
SEXP cv_mlls_score(SEXP state, SEXP alpha, SEXP beta, SEXP r)
{
    if (!Rf_isNewList(state) || XLENGTH(state) != 9 || !Rf_isReal(VECTOR_ELT(state, 8)) ||
        !Rf_isReal(alpha) || !Rf_isReal(beta) || Rf_asInteger(r) < 1)
        Rf_error("internal: bad arguments to cv_mlls_score");
    SEXP s = VECTOR_ELT(state, 0), P = VECTOR_ELT(state, 1), PPt = VECTOR_ELT(state, 2),
         Zva = VECTOR_ELT(state, 3), Ztr = VECTOR_ELT(state, 4), ybar = VECTOR_ELT(state, 5),
         ytr = VECTOR_ELT(state, 6);
    int t = (int) XLENGTH(s), m = Rf_ncols(P), r_used = 0;
    cv_fold f = {t, m, Rf_asInteger(VECTOR_ELT(state, 7)), Rf_nrows(Zva), REAL(s), REAL(P),
                 Rf_isNull(PPt) ? NULL : REAL(PPt), REAL(Zva),
                 Rf_isNull(Ztr) ? NULL : REAL(Ztr), REAL(ybar),
                 Rf_isNull(ytr) ? NULL : INTEGER(ytr)};
    const char *names[] = {"scores", "thresholds", "train_scores", "r", ""};
    SEXP res = PROTECT(Rf_mkNamed(VECSXP, names));
    SEXP scores = Rf_allocMatrix(REALSXP, f.n_va, m);
    SET_VECTOR_ELT(res, 0, scores);
    double *thr = NULL, *train = NULL;
    if (f.ytr) {
        SEXP th = Rf_allocVector(REALSXP, m);
        SET_VECTOR_ELT(res, 1, th);
        thr = REAL(th);
    }
    if (f.Ztr) {
        SEXP ts = Rf_allocMatrix(REALSXP, f.n_tr, m);
        SET_VECTOR_ELT(res, 2, ts);
        train = REAL(ts);
    }
    mlss_stop(cv_fold_point(&f, Rf_asReal(alpha), Rf_asReal(beta), Rf_asInteger(r),
                            REAL(scores), train, thr,
                            REAL(VECTOR_ELT(state, 8))[0], &r_used), "cv_mlls");
    SET_VECTOR_ELT(res, 3, Rf_ScalarInteger(r_used));
    UNPROTECT(1);
    return res;
}

/* The n x n Gram matrix of x (a native_matrix() list), centred by the column
 * means of x when centre: the input of cv_mlls_prepare_gram() for linear MLLS. */
SEXP gram_matrix(SEXP x, SEXP centre)
{
    mlss_mat X = unpack_matrix(x, "x");
    double *mu = centre_features(&X, Rf_asLogical(centre));
    SEXP K = PROTECT(Rf_allocMatrix(REALSXP, X.nrow, X.nrow));
    gram_outer(&X, X.i ? mu : NULL, REAL(K));
    UNPROTECT(1);
    return K;
}
