/* .Call glue for the exact kNN search (knn_core.h). */
#include <R.h>
#include <Rinternals.h>
#include "mlss.h"
#include "knn_core.h"

/* x, newx: native_matrix() lists (newx NULL: x against itself, each row left
 * out of its own list); k; block (<= 0: automatic); nthreads.
 * Returns list(index = nq x k integer, 1-based; distance = nq x k double). */
SEXP knn_search_call(SEXP x, SEXP newx, SEXP k, SEXP block, SEXP nthreads)
{
    mlss_mat X = unpack_matrix(x, "x"), Q = X;
    int self = Rf_isNull(newx);
    if (!self) Q = unpack_matrix(newx, "newx");
    int nq = self ? X.nrow : Q.nrow, kk = Rf_asInteger(k);
    if (!self && (Q.ncol != X.ncol || (Q.i == NULL) != (X.i == NULL)))
        Rf_error("internal: x and newx must have the same columns and storage");
    if (kk == NA_INTEGER || kk < 1 || kk > X.nrow - self)
        Rf_error("internal: k must be in 1..%d", X.nrow - self);

    const char *names[] = {"index", "distance", ""};
    SEXP res = PROTECT(Rf_mkNamed(VECSXP, names));
    SEXP index = PROTECT(Rf_allocMatrix(INTSXP, nq, kk));
    SEXP dist = PROTECT(Rf_allocMatrix(REALSXP, nq, kk));
    int status = knn_search_core(&X, self ? NULL : &Q, kk, Rf_asInteger(block),
                                 Rf_asInteger(nthreads), INTEGER(index), REAL(dist));
    mlss_stop(status, "knn search");
    int *ix = INTEGER(index);
    for (R_xlen_t t = 0; t < XLENGTH(index); t++) ix[t] += 1;
    SET_VECTOR_ELT(res, 0, index);
    SET_VECTOR_ELT(res, 1, dist);
    UNPROTECT(3);
    return res;
}
