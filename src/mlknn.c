/* .Call glue for ML-kNN (mlknn_core.h) on neighbour lists from knn_search. */
#include <R.h>
#include <Rinternals.h>
#include "mlss.h"
#include "knn_core.h"
#include "mlknn_core.h"

/* The 0-based copy of a 1-based n x k neighbour matrix into rows 1..n_train. */
static int *neighbours0(SEXP nbr, int n_train)
{
    if (!Rf_isInteger(nbr) || !Rf_isMatrix(nbr)) Rf_error("internal: nbr must be an integer matrix");
    R_xlen_t len = XLENGTH(nbr);
    const int *b = INTEGER(nbr);
    int *out = (int *) R_alloc((size_t) len + 1, sizeof(int));
    for (R_xlen_t t = 0; t < len; t++) {
        if (b[t] == NA_INTEGER || b[t] < 1 || b[t] > n_train)
            Rf_error("internal: neighbour index out of range");
        out[t] = b[t] - 1;
    }
    return out;
}

static const int *labels01(SEXP y)
{
    if (!Rf_isLogical(y) || !Rf_isMatrix(y)) Rf_error("internal: y must be a logical matrix");
    const int *yy = LOGICAL(y);
    for (R_xlen_t t = 0; t < XLENGTH(y); t++)
        if (yy[t] == NA_LOGICAL) Rf_error("internal: y has NA");
    return yy;
}

/* nbr: n x k integer (1-based rows of y); y: n x m logical.
 * Returns the n x m integer matrix of neighbour label counts. */
SEXP knn_label_counts_call(SEXP nbr, SEXP y)
{
    const int *yy = labels01(y);
    int nt = Rf_nrows(y), m = Rf_ncols(y);
    int *nb0 = neighbours0(nbr, nt);
    int n = Rf_nrows(nbr), k = Rf_ncols(nbr);
    SEXP C = PROTECT(Rf_allocMatrix(INTSXP, n, m));
    knn_label_counts(n, k, nb0, nt, m, yy, INTEGER(C));
    UNPROTECT(1);
    return C;
}

/* nbr: the n x k leave-self-out neighbours of the training rows; y: n x m
 * logical; s > 0.  Returns list(prior = m, cond1 = (k+1) x m, cond0). */
SEXP mlknn_fit_call(SEXP nbr, SEXP y, SEXP s)
{
    const int *yy = labels01(y);
    int n = Rf_nrows(y), m = Rf_ncols(y);
    int *nb0 = neighbours0(nbr, n);
    if (Rf_nrows(nbr) != n) Rf_error("internal: one neighbour list per training row");
    int k = Rf_ncols(nbr);
    double sm = Rf_asReal(s);
    if (!(sm > 0)) Rf_error("internal: s must be positive");
    int *C = (int *) R_alloc((size_t) n * m + 1, sizeof(int));
    knn_label_counts(n, k, nb0, n, m, yy, C);

    const char *names[] = {"prior", "cond1", "cond0", ""};
    SEXP res = PROTECT(Rf_mkNamed(VECSXP, names));
    SEXP prior = PROTECT(Rf_allocVector(REALSXP, m));
    SEXP c1 = PROTECT(Rf_allocMatrix(REALSXP, k + 1, m));
    SEXP c0 = PROTECT(Rf_allocMatrix(REALSXP, k + 1, m));
    mlknn_tables(n, m, k, sm, C, yy, REAL(prior), REAL(c1), REAL(c0));
    SET_VECTOR_ELT(res, 0, prior);
    SET_VECTOR_ELT(res, 1, c1);
    SET_VECTOR_ELT(res, 2, c0);
    UNPROTECT(4);
    return res;
}

/* nbr: nq x k neighbours (1-based rows of the training labels y); the tables
 * of mlknn_fit_call().  Returns the nq x m posteriors. */
SEXP mlknn_score_call(SEXP nbr, SEXP y, SEXP prior, SEXP cond1, SEXP cond0)
{
    const int *yy = labels01(y);
    int nt = Rf_nrows(y), m = Rf_ncols(y);
    int *nb0 = neighbours0(nbr, nt);
    int nq = Rf_nrows(nbr), k = Rf_ncols(nbr);
    if (!Rf_isReal(prior) || XLENGTH(prior) != m || !Rf_isReal(cond1) || !Rf_isReal(cond0) ||
        Rf_nrows(cond1) != k + 1 || Rf_ncols(cond1) != m || Rf_nrows(cond0) != k + 1 ||
        Rf_ncols(cond0) != m)
        Rf_error("internal: the ML-kNN tables do not match k and the labels");
    int *C = (int *) R_alloc((size_t) nq * m + 1, sizeof(int));
    knn_label_counts(nq, k, nb0, nt, m, yy, C);
    SEXP score = PROTECT(Rf_allocMatrix(REALSXP, nq, m));
    mlknn_posterior(nq, m, k, C, REAL(prior), REAL(cond1), REAL(cond0), REAL(score));
    UNPROTECT(1);
    return score;
}
