/* .Call glue for inference in a pairwise CRF over binary labels, instance by
 * instance (crf_infer_core.c): exact enumeration, or loopy BP for the
 * marginals and ICM for the MAP. */
#include <R.h>
#include <Rinternals.h>
#include <string.h>
#include "crf_infer_core.h"
#include "mlss.h"

#define CRF_EXACT_MAX 30   /* a hard guard; the R side documents the cut-off */

/* node: n x m log-potentials of y_l = 1; pair: n x 3E potentials of the
 * configurations (0,1), (1,0), (1,1) of each edge; from, to: 0-based edges;
 * exact: TRUE/FALSE; y: NULL or an n x m 0/1 double matrix of the label
 * vectors whose log-probability is wanted; damping, maxit, tol: loopy BP.
 * Returns list(marginal, map, logZ, logp, bp_iter, bp_delta). */
SEXP crf_infer(SEXP node, SEXP pair, SEXP from, SEXP to, SEXP exact, SEXP y,
               SEXP damping, SEXP maxit, SEXP tol)
{
    if (!Rf_isReal(node) || !Rf_isMatrix(node)) Rf_error("internal: node must be a double matrix");
    int n = Rf_nrows(node), m = Rf_ncols(node);
    if (!Rf_isInteger(from) || !Rf_isInteger(to) || XLENGTH(from) != XLENGTH(to))
        Rf_error("internal: the edges must be two integer vectors of equal length");
    int E = (int) XLENGTH(from);
    const int *fr = INTEGER(from), *tt = INTEGER(to);
    for (int e = 0; e < E; e++)
        if (fr[e] < 0 || tt[e] >= m || fr[e] >= tt[e]) Rf_error("internal: bad edge %d", e + 1);
    if (!Rf_isReal(pair) || !Rf_isMatrix(pair) || Rf_nrows(pair) != n || Rf_ncols(pair) != 3 * E)
        Rf_error("internal: pair must be a double %d x %d matrix", n, 3 * E);
    int ex = Rf_asLogical(exact);
    if (ex && m > CRF_EXACT_MAX) Rf_error("internal: exact inference with m = %d labels", m);
    const double *Y = NULL;
    if (!Rf_isNull(y)) {
        if (!Rf_isReal(y) || Rf_nrows(y) != n || Rf_ncols(y) != m)
            Rf_error("internal: y must be a double %d x %d matrix", n, m);
        Y = REAL(y);
    }
    double damp = Rf_asReal(damping), tl = Rf_asReal(tol);
    int mx = Rf_asInteger(maxit);

    SEXP marg = PROTECT(Rf_allocMatrix(REALSXP, n, m));
    SEXP map = PROTECT(Rf_allocMatrix(INTSXP, n, m));
    SEXP logZ = PROTECT(Rf_allocVector(REALSXP, n));
    SEXP logp = PROTECT(Y ? Rf_allocVector(REALSXP, n) : R_NilValue);
    SEXP bpit = PROTECT(Rf_allocVector(INTSXP, ex ? 0 : n));
    SEXP bpdel = PROTECT(Rf_allocVector(REALSXP, ex ? 0 : n));

    crf_graph g;
    int *start = (int *) R_alloc((size_t) m + 1, sizeof(int));
    int *adj = (int *) R_alloc(2 * (size_t) E + 1, sizeof(int));
    crf_graph_build(&g, m, E, fr, tt, start, adj);
    double *nd = (double *) R_alloc((size_t) m, sizeof(double));
    double *pr = (double *) R_alloc(3 * (size_t) E + 1, sizeof(double));
    double *mg = (double *) R_alloc((size_t) m, sizeof(double));
    double *acc = (double *) R_alloc((size_t) m, sizeof(double));
    double *msg = (double *) R_alloc(2 * (size_t) E + 1, sizeof(double));
    double *msg2 = (double *) R_alloc(2 * (size_t) E + 1, sizeof(double));
    int *yv = (int *) R_alloc((size_t) m, sizeof(int));
    int *mp = (int *) R_alloc((size_t) m, sizeof(int));
    int *y2 = (int *) R_alloc((size_t) m, sizeof(int));
    const double *N = REAL(node), *PP = REAL(pair);

    for (int i = 0; i < n; i++) {
        if (ex ? m >= 12 || i % 64 == 0 : i % 64 == 0) R_CheckUserInterrupt();
        for (int l = 0; l < m; l++) nd[l] = N[IDX(i, l, n)];
        for (int k = 0; k < 3 * E; k++) pr[k] = PP[IDX(i, k, n)];
        double lz;
        if (ex) {
            crf_exact(&g, nd, pr, mp, mg, &lz, yv, acc);
        } else {
            double delta;
            INTEGER(bpit)[i] = crf_bp(&g, nd, pr, damp, mx, tl, msg, msg2, acc, mg, &delta, &lz);
            REAL(bpdel)[i] = delta;
            /* ICM from the independent solution and from the rounded marginals;
             * the better of the two */
            for (int l = 0; l < m; l++) { mp[l] = nd[l] > 0; y2[l] = mg[l] > 0.5; }
            crf_icm(&g, nd, pr, mp, 100);
            crf_icm(&g, nd, pr, y2, 100);
            if (crf_score(&g, nd, pr, y2) > crf_score(&g, nd, pr, mp))
                memcpy(mp, y2, sizeof(int) * (size_t) m);
        }
        for (int l = 0; l < m; l++) {
            REAL(marg)[IDX(i, l, n)] = mg[l];
            INTEGER(map)[IDX(i, l, n)] = mp[l];
        }
        REAL(logZ)[i] = lz;
        if (Y) {
            for (int l = 0; l < m; l++) yv[l] = Y[IDX(i, l, n)] > 0.5;
            REAL(logp)[i] = crf_score(&g, nd, pr, yv) - lz;
        }
    }
    SEXP out = PROTECT(Rf_allocVector(VECSXP, 6));
    SET_VECTOR_ELT(out, 0, marg);
    SET_VECTOR_ELT(out, 1, map);
    SET_VECTOR_ELT(out, 2, logZ);
    SET_VECTOR_ELT(out, 3, logp);
    SET_VECTOR_ELT(out, 4, bpit);
    SET_VECTOR_ELT(out, 5, bpdel);
    const char *names[] = {"marginal", "map", "logZ", "logp", "bp_iter", "bp_delta"};
    SEXP nms = PROTECT(Rf_allocVector(STRSXP, 6));
    for (int k = 0; k < 6; k++) SET_STRING_ELT(nms, k, Rf_mkChar(names[k]));
    Rf_setAttrib(out, R_NamesSymbol, nms);
    UNPROTECT(8);
    return out;
}
