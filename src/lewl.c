/* .Call glue for LEWL (lewl_core.c): unpack the labels, the kernel matrix and
 * the kNN graph, run the alternating updates, return the parts. */
#include <R.h>
#include <Rinternals.h>
#include <limits.h>
#include <string.h>
#include "lewl_core.h"
#include "mlss.h"

/* y: n x c double (NA where missing); start: n x c, the starting Yt; K: the
 * n x n kernel matrix (factor = FALSE) or an n x r factor G with centred
 * columns, H K H ~ G G' (factor = TRUE), optionally with its r x r G'G as
 * the attribute "GtG" (then not recomputed per fit); graph: native_matrix() of the
 * symmetric n x n weight matrix (dgCMatrix, both triangles); k, lambda, beta,
 * max_iter, tol (the objective's, or c(objective's, entries' xtol)), recovery (0 exact, 1 paper), cg_tol, cg_max; Z0: NULL or an
 * n x k0 warm start of the eigensolver; eig: integer (method 0 auto / 1 dense
 * / 2 iterative / 3 gram / 4 projected / 5 basis, block, depth, max_restart, warm_gram, stop_rule); eig_tol; relax: the over-relaxation
 * of the exact recovery step, in [1, 2); accel: the depth of the Anderson
 * mixing of the missing entries (0: none); basis: NULL or, with the exact
 * kernel, list(V, s), the eigenvectors (n x n) and eigenvalues of H K H.
 * Returns list(Yt, Z, D, values, objective, cg_iter, iter, status,
 * eig_restarts, eig_products, eig_unconverged, eig_dense, accel_steps,
 * accel_rejected, steps: per iteration the largest change of a missing entry, rates: the
 * contraction seen per iteration, lewl_settled()). */
SEXP lewl_fit(SEXP y, SEXP start, SEXP K, SEXP factor, SEXP graph, SEXP k, SEXP lambda,
              SEXP beta, SEXP max_iter, SEXP tol, SEXP recovery, SEXP cg_tol, SEXP cg_max,
              SEXP Z0, SEXP eig, SEXP eig_tol, SEXP relax, SEXP accel, SEXP basis)
{
    int n = Rf_nrows(y), c = Rf_ncols(y);
    check_targets(y, n);
    check_targets(start, n);
    if (Rf_ncols(start) != c) Rf_error("internal: start must be %d x %d", n, c);
    /* factor: FALSE, TRUE, or the factor's diagonal correction (n doubles) */
    int has_dg = Rf_isReal(factor) && XLENGTH(factor) == n;
    int is_factor = has_dg || Rf_asLogical(factor) == TRUE;
    if (!Rf_isReal(K) || !Rf_isMatrix(K) || Rf_nrows(K) != n ||
        (!is_factor && Rf_ncols(K) != n) || (is_factor && Rf_ncols(K) < 1))
        Rf_error("internal: K must be a %d x %d double matrix (or %d x r with factor)",
                 n, n, n);
    /* the factor's G'G, when lewl_prepare() computed it (attribute "GtG") */
    SEXP gtg = is_factor ? Rf_getAttrib(K, Rf_install("GtG")) : R_NilValue;
    if (!Rf_isNull(gtg) && (!Rf_isReal(gtg) || XLENGTH(gtg) !=
                            (R_xlen_t) Rf_ncols(K) * Rf_ncols(K)))
        Rf_error("internal: the attribute GtG of K must be %d x %d doubles",
                 Rf_ncols(K), Rf_ncols(K));
    /* the exact kernel's eigendecomposition H K H = V diag(s) V', when
       lewl_prepare() computed it: list(V, s) */
    if (!Rf_isNull(basis) &&
        (is_factor || !Rf_isNewList(basis) || XLENGTH(basis) != 2 ||
         !Rf_isReal(VECTOR_ELT(basis, 0)) || !Rf_isReal(VECTOR_ELT(basis, 1)) ||
         XLENGTH(VECTOR_ELT(basis, 0)) != (R_xlen_t) n * n ||
         XLENGTH(VECTOR_ELT(basis, 1)) != n))
        Rf_error("internal: basis must be NULL or list(V, s) (%d x %d, %d doubles) with "
                 "the exact kernel", n, n, n);
    lewl_kernel ker = {n, is_factor ? Rf_ncols(K) : 0, REAL(K),
                       has_dg ? REAL(factor) : NULL,
                       Rf_isNull(gtg) ? NULL : REAL(gtg),
                       Rf_isNull(basis) ? NULL : REAL(VECTOR_ELT(basis, 0)),
                       Rf_isNull(basis) ? NULL : REAL(VECTOR_ELT(basis, 1))};
    if (!Rf_isNull(Z0) && (!Rf_isReal(Z0) || !Rf_isMatrix(Z0) || Rf_nrows(Z0) != n))
        Rf_error("internal: Z0 must be NULL or a double matrix with %d rows", n);
    if (!Rf_isInteger(eig) || XLENGTH(eig) != 6)
        Rf_error("internal: eig must be 6 integers");
    mlss_mat W = unpack_matrix(graph, "graph");
    if (W.nrow != n || W.ncol != n || !W.i) Rf_error("internal: graph must be sparse n x n");
    lewl_options opt = {n, c, Rf_asInteger(k), Rf_asReal(lambda), Rf_asReal(beta),
                        Rf_asInteger(max_iter), Rf_asInteger(recovery),
                        Rf_asInteger(cg_max), Rf_asReal(tol), Rf_asReal(cg_tol),
                        INTEGER(eig)[0], INTEGER(eig)[1], INTEGER(eig)[2],
                        INTEGER(eig)[3], Rf_asReal(eig_tol), Rf_asReal(relax),
                        Rf_asInteger(accel), INTEGER(eig)[4], INTEGER(eig)[5],
                        XLENGTH(tol) > 1 ? REAL(tol)[1] : 0.0};
    if (opt.eig_method < 0 || opt.eig_method > LEWL_EIG_BASIS || opt.eig_block < 1 ||
        opt.eig_depth < 1 || opt.eig_max_restart < 0 || !(opt.eig_tol >= 0.0) ||
        !(opt.relax >= 1.0 && opt.relax < 2.0) || opt.accel < 0 || opt.accel > 50 ||
        opt.stop_rule < LEWL_STOP_OBJECTIVE || opt.stop_rule > LEWL_STOP_SETTLED ||
        !Rf_isReal(tol) || !(opt.xtol >= 0.0))
        Rf_error("lewl: invalid eigensolver settings");
    if (opt.k < 1 || opt.k > n || !(opt.lambda >= 0.0) || !(opt.beta >= 0.0) ||
        opt.max_iter < 1 || opt.cg_max < 0 || !(opt.tol >= 0.0) || !(opt.cg_tol >= 0.0) ||
        (opt.recovery != LEWL_RECOVER_EXACT && opt.recovery != LEWL_RECOVER_PAPER))
        Rf_error("lewl: invalid k, lambda, beta, max_iter, tol or recovery");
    lewl_graph G = {n, W.p, W.i, W.x, (double *) R_alloc((size_t) n, sizeof(double))};
    lewl_graph_degrees(&G);

    size_t nc = (size_t) n * c;
    int *missing = (int *) R_alloc(nc + 1, sizeof(int));
    const double *yv = REAL(y);
    for (size_t q = 0; q < nc; q++) missing[q] = ISNAN(yv[q]);

    const char *names[] = {"Yt", "Z", "D", "values", "objective", "cg_iter", "iter",
                           "status", "eig_restarts", "eig_products", "eig_unconverged",
                           "eig_dense", "accel_steps", "accel_rejected", "steps", "rates", ""};
    SEXP res = PROTECT(Rf_mkNamed(VECSXP, names));
    SEXP Yt = PROTECT(Rf_duplicate(start));
    SEXP Z = PROTECT(Rf_allocMatrix(REALSXP, n, opt.k));
    SEXP D = PROTECT(Rf_allocMatrix(REALSXP, opt.k, c));
    SEXP values = PROTECT(Rf_allocVector(REALSXP, opt.k));
    double *obj = (double *) R_alloc((size_t) opt.max_iter, sizeof(double));
    int *cgi = (int *) R_alloc((size_t) opt.max_iter, sizeof(int));
    lewl_eig_trace tr = {(int *) R_alloc((size_t) opt.max_iter, sizeof(int)),
                         (int *) R_alloc((size_t) opt.max_iter, sizeof(int)),
                         (double *) R_alloc((size_t) opt.max_iter, sizeof(double)),
                         (double *) R_alloc((size_t) opt.max_iter, sizeof(double)),
                         0, 0, 0, 0};
    int iter = 0;
    int status = lewl_run(&opt, &G, yv, missing, &ker,
                          Rf_isNull(Z0) ? NULL : REAL(Z0),
                          Rf_isNull(Z0) ? 0 : Rf_ncols(Z0), REAL(Yt), REAL(Z), REAL(D),
                          REAL(values), obj, cgi, &tr, &iter);
    if (MLSS_FAILED(status)) mlss_stop(status, "lewl");
    SEXP objective = PROTECT(Rf_allocVector(REALSXP, iter));
    SEXP cg_iter = PROTECT(Rf_allocVector(INTSXP, iter));
    SEXP eig_restarts = PROTECT(Rf_allocVector(INTSXP, iter));
    SEXP eig_products = PROTECT(Rf_allocVector(INTSXP, iter));
    SEXP steps = PROTECT(Rf_allocVector(REALSXP, iter));
    SEXP rates = PROTECT(Rf_allocVector(REALSXP, iter));
    if (iter > 0) {
        memcpy(REAL(objective), obj, sizeof(double) * (size_t) iter);
        memcpy(INTEGER(cg_iter), cgi, sizeof(int) * (size_t) iter);
        memcpy(INTEGER(eig_restarts), tr.restarts, sizeof(int) * (size_t) iter);
        memcpy(INTEGER(eig_products), tr.products, sizeof(int) * (size_t) iter);
        memcpy(REAL(steps), tr.steps, sizeof(double) * (size_t) iter);
        memcpy(REAL(rates), tr.rates, sizeof(double) * (size_t) iter);
    }
    SET_VECTOR_ELT(res, 0, Yt);
    SET_VECTOR_ELT(res, 1, Z);
    SET_VECTOR_ELT(res, 2, D);
    SET_VECTOR_ELT(res, 3, values);
    SET_VECTOR_ELT(res, 4, objective);
    SET_VECTOR_ELT(res, 5, cg_iter);
    SET_VECTOR_ELT(res, 6, Rf_ScalarInteger(iter));
    SET_VECTOR_ELT(res, 7, Rf_ScalarInteger(status));
    SET_VECTOR_ELT(res, 8, eig_restarts);
    SET_VECTOR_ELT(res, 9, eig_products);
    SET_VECTOR_ELT(res, 10, Rf_ScalarInteger(tr.unconverged));
    SET_VECTOR_ELT(res, 11, Rf_ScalarLogical(tr.dense));
    SET_VECTOR_ELT(res, 12, Rf_ScalarInteger(tr.accel_steps));
    SET_VECTOR_ELT(res, 13, Rf_ScalarInteger(tr.accel_rejected));
    SET_VECTOR_ELT(res, 14, steps);
    SET_VECTOR_ELT(res, 15, rates);
    UNPROTECT(11);
    return res;
}
