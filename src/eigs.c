/* .Call glue for the block Krylov eigensolver (eigs_core.c) on a formed
 * symmetric matrix: the solver's own tests (orthonormality after many
 * restarts, low rank, invariant-subspace starts) against eigen() in R. */
#include <R.h>
#include <Rinternals.h>
#include "eigs_core.h"
#include "linalg.h"
#include "mlss.h"

typedef struct {
    int n;
    const double *M;
} dense_ctx;

static void dense_op(void *ctx_, int b, const double *V, double *out)
{
    dense_ctx *ctx = (dense_ctx *) ctx_;
    gemm('N', 'N', ctx->n, b, ctx->n, 1.0, ctx->M, ctx->n, V, ctx->n, 0.0, out, ctx->n);
}

/* M: n x n symmetric double; X: n x b, the start; opt: integer (k, depth,
 * max_restart); tol; prev: NULL or an n x kp double matrix, the history
 * block (eigs_core.h).  Returns list(X, values, resid, restarts, products,
 * status): the Ritz vectors, b values, k relative residuals, the counts and
 * EIGS_OK (0) or EIGS_NOT_CONVERGED; a failure is an error. */
SEXP eigs_dense_call(SEXP M, SEXP X, SEXP opt, SEXP tol, SEXP prev)
{
    int n = Rf_nrows(M);
    if (!Rf_isReal(M) || !Rf_isMatrix(M) || Rf_ncols(M) != n)
        Rf_error("internal: M must be a square double matrix");
    if (!Rf_isReal(X) || !Rf_isMatrix(X) || Rf_nrows(X) != n)
        Rf_error("internal: X must be a double matrix with %d rows", n);
    if (!Rf_isInteger(opt) || XLENGTH(opt) != 3) Rf_error("internal: opt must be 3 integers");
    if (!Rf_isNull(prev) && (!Rf_isReal(prev) || !Rf_isMatrix(prev) || Rf_nrows(prev) != n))
        Rf_error("internal: prev must be NULL or a double matrix with %d rows", n);
    eigs_options eo = {n, INTEGER(opt)[0], Rf_ncols(X), INTEGER(opt)[1], INTEGER(opt)[2],
                       Rf_asReal(tol)};
    if (eo.max_restart < 0 || !(eo.tol >= 0.0)) Rf_error("eigs: invalid max_restart or tol");
    SEXP Xo = PROTECT(Rf_duplicate(X));
    SEXP values = PROTECT(Rf_allocVector(REALSXP, eo.b));
    SEXP resid = PROTECT(Rf_allocVector(REALSXP, eo.k > 0 ? eo.k : 0));
    dense_ctx ctx = {n, REAL(M)};
    int restarts = 0, products = 0;
    int status = eigs_top(&eo, dense_op, &ctx, REAL(Xo), Rf_isNull(prev) ? NULL : REAL(prev),
                          Rf_isNull(prev) ? 0 : Rf_ncols(prev), REAL(values), REAL(resid),
                          &restarts, &products);
    if (MLSS_FAILED(status)) mlss_stop(status, "eigs");
    const char *names[] = {"X", "values", "resid", "restarts", "products", "status", ""};
    SEXP res = PROTECT(Rf_mkNamed(VECSXP, names));
    SET_VECTOR_ELT(res, 0, Xo);
    SET_VECTOR_ELT(res, 1, values);
    SET_VECTOR_ELT(res, 2, resid);
    SET_VECTOR_ELT(res, 3, Rf_ScalarInteger(restarts));
    SET_VECTOR_ELT(res, 4, Rf_ScalarInteger(products));
    SET_VECTOR_ELT(res, 5, Rf_ScalarInteger(status));
    UNPROTECT(4);
    return res;
}
