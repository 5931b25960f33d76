/* .Call glue for MLML's projected gradient (mlml_core.c). */
#include <R.h>
#include <Rinternals.h>
#include <string.h>
#include "mlss.h"
#include "mlml_core.h"

/* y: n x m double (+1, -1, 0 = missing); graph: list(p, i, x) of the n x n
 * normalised instance adjacency (dgCMatrix slots); SC: m x m; z0: n x m start.
 * Returns list(Z, objective = the trace, iter, status). */
SEXP mlml_fit_call(SEXP y, SEXP graph, SEXP SC, SEXP beta, SEXP gamma, SEXP loss,
                   SEXP step, SEXP max_iter, SEXP tol, SEXP z0)
{
    check_targets(y, Rf_nrows(y));
    int n = Rf_nrows(y), m = Rf_ncols(y), maxit = Rf_asInteger(max_iter);
    if (!Rf_isNewList(graph) || XLENGTH(graph) != 3) Rf_error("internal: graph must be list(p, i, x)");
    SEXP gp = VECTOR_ELT(graph, 0), gi = VECTOR_ELT(graph, 1), gx = VECTOR_ELT(graph, 2);
    if (!Rf_isInteger(gp) || XLENGTH(gp) != (R_xlen_t) n + 1 || !Rf_isInteger(gi) ||
        !Rf_isReal(gx) || XLENGTH(gi) != XLENGTH(gx) || INTEGER(gp)[0] != 0 ||
        INTEGER(gp)[n] != XLENGTH(gi))
        Rf_error("internal: malformed instance graph");
    for (R_xlen_t k = 0; k < XLENGTH(gi); k++)
        if (INTEGER(gi)[k] < 0 || INTEGER(gi)[k] >= n) Rf_error("internal: graph index out of range");
    if (!Rf_isReal(SC) || !Rf_isMatrix(SC) || Rf_nrows(SC) != m || Rf_ncols(SC) != m)
        Rf_error("internal: the label graph must be a %d x %d double matrix", m, m);
    if (!Rf_isReal(z0) || !Rf_isMatrix(z0) || Rf_nrows(z0) != n || Rf_ncols(z0) != m)
        Rf_error("internal: the start must be a %d x %d double matrix", n, m);
    if (maxit < 0 || maxit == NA_INTEGER) Rf_error("internal: max_iter must be >= 0");
    mlml_graph S = {n, INTEGER(gp), INTEGER(gi), REAL(gx)};

    const char *names[] = {"Z", "objective", "iter", "status", ""};
    SEXP res = PROTECT(Rf_mkNamed(VECSXP, names));
    SEXP Z = PROTECT(Rf_allocMatrix(REALSXP, n, m));
    memcpy(REAL(Z), REAL(z0), sizeof(double) * (size_t) n * m);
    double *trace = (double *) R_alloc((size_t) maxit + 1, sizeof(double));
    double *work = (double *) R_alloc(8 * (size_t) n * m, sizeof(double));
    int iter = 0;
    int status = mlml_solve(n, m, REAL(y), Rf_asInteger(loss), &S, REAL(SC), Rf_asReal(beta),
                            Rf_asReal(gamma), Rf_asReal(step), maxit, Rf_asReal(tol), REAL(Z),
                            trace, &iter, work);
    if (MLSS_FAILED(status)) mlss_stop(status, "mlml");
    SET_VECTOR_ELT(res, 0, Z);
    SET_VECTOR_ELT(res, 1, numeric_copy(trace, iter + 1));
    SET_VECTOR_ELT(res, 2, Rf_ScalarInteger(iter));
    SET_VECTOR_ELT(res, 3, Rf_ScalarInteger(status));
    UNPROTECT(2);
    return res;
}
