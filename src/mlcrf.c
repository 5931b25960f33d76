/* .Call glue for MLCRF learning: unpack the data and the graph, run stage 1
 * (FISTA) or stage 2 (L-BFGS) of mlcrf_core.c from the given start, or
 * evaluate the smooth objective and its gradient (for the tests). */
#include <R.h>
#include <Rinternals.h>
#include <string.h>
#include <time.h>
#include "mlcrf_core.h"
#include "mlss.h"

/* x: native_matrix(); mu, sinv: d; y: n x m double 0/1; from, to: 0-based
 * integer edges; K: 1 or 3; lambda_v: m; lambda_w, eta: scalars; lambda0: the
 * ridge of the node intercepts, and optionally (a second value) that of the
 * intercept of each edge's (1,1) column (by default the edge ridge
 * lambda_w (1 - eta), as everywhere else on the edges). */
static crf_problem crf_unpack(SEXP x, SEXP mu, SEXP sinv, SEXP y, SEXP from, SEXP to,
                              SEXP K, SEXP lambda_v, SEXP lambda0, SEXP lambda_w, SEXP eta,
                              SEXP mode)
{
    crf_problem pr;
    memset(&pr, 0, sizeof(pr));
    pr.X = unpack_matrix(x, "x");
    pr.n = pr.X.nrow;
    pr.d = pr.X.ncol;
    check_targets(y, pr.n);
    pr.m = Rf_ncols(y);
    pr.y = REAL(y);
    if (!Rf_isReal(mu) || XLENGTH(mu) != pr.d || !Rf_isReal(sinv) || XLENGTH(sinv) != pr.d)
        Rf_error("internal: mu and sinv must be double vectors of length %d", pr.d);
    pr.mu = REAL(mu);
    pr.sinv = REAL(sinv);
    if (!Rf_isInteger(from) || !Rf_isInteger(to) || XLENGTH(from) != XLENGTH(to))
        Rf_error("internal: the edges must be two integer vectors of equal length");
    pr.E = (int) XLENGTH(from);
    pr.from = INTEGER(from);
    pr.to = INTEGER(to);
    for (int e = 0; e < pr.E; e++)
        if (pr.from[e] < 0 || pr.to[e] >= pr.m || pr.from[e] >= pr.to[e])
            Rf_error("internal: edge %d is not a pair 0 <= from < to < m", e + 1);
    pr.K = Rf_asInteger(K);
    if (pr.K != 1 && pr.K != 3) Rf_error("internal: K must be 1 or 3");
    if (!Rf_isReal(lambda_v) || XLENGTH(lambda_v) != pr.m)
        Rf_error("internal: lambda_v must be a double vector of length %d", pr.m);
    pr.lambda_v = REAL(lambda_v);
    if (!Rf_isReal(lambda0) || (XLENGTH(lambda0) != 1 && XLENGTH(lambda0) != 2))
        Rf_error("internal: lambda0 must be a double vector of length 1 or 2");
    pr.lambda0 = REAL(lambda0)[0];
    double lw = Rf_asReal(lambda_w), et = Rf_asReal(eta);
    pr.ridge_w = lw * (1.0 - et);
    /* the (1,1) intercepts: their own ridge when given, else the edge ridge */
    pr.ridge_w0 = XLENGTH(lambda0) == 2 ? REAL(lambda0)[1] : pr.ridge_w;
    pr.group_w = lw * et;
    pr.mode = Rf_asInteger(mode);
    if (pr.mode != CRF_AUTO && pr.mode != CRF_PAIRS && pr.mode != CRF_ROWS)
        Rf_error("internal: mode must be 0 (auto), 1 (pairs) or 2 (rows)");
    crf_alloc(&pr);
    return pr;
}

static double *theta_copy(SEXP theta, const crf_problem *pr, SEXP *out)
{
    R_xlen_t len = (R_xlen_t) (pr->d + 1) * crf_ncol(pr);
    if (!Rf_isReal(theta) || XLENGTH(theta) != len)
        Rf_error("internal: theta must be a double vector of length %ld", (long) len);
    *out = Rf_allocMatrix(REALSXP, pr->d + 1, crf_ncol(pr));
    memcpy(REAL(*out), REAL(theta), sizeof(double) * (size_t) len);
    return REAL(*out);
}

/* The smooth objective (pseudo-likelihood / n plus ridge terms) and its
 * gradient at theta, the group term, and the scales of the L-BFGS variables
 * (crf_scales_last()): list(value, gradient, group, scales).
 * mode: 0 the cheaper evaluation, 1 or 2 one of them (mlcrf_core.h). */
SEXP mlcrf_objective(SEXP x, SEXP mu, SEXP sinv, SEXP y, SEXP from, SEXP to, SEXP K,
                     SEXP lambda_v, SEXP lambda0, SEXP lambda_w, SEXP eta, SEXP theta,
                     SEXP mode)
{
    crf_problem pr = crf_unpack(x, mu, sinv, y, from, to, K, lambda_v, lambda0, lambda_w, eta,
                                mode);
    SEXP th;
    double *t = theta_copy(theta, &pr, &th);
    PROTECT(th);
    SEXP grad = PROTECT(Rf_allocMatrix(REALSXP, pr.d + 1, crf_ncol(&pr)));
    double value = crf_smooth(&pr, t, REAL(grad));
    SEXP scales = PROTECT(Rf_allocMatrix(REALSXP, pr.d + 1, crf_ncol(&pr)));
    crf_scales_last(&pr, REAL(scales));   /* at theta: no second evaluation */
    SEXP val = PROTECT(Rf_ScalarReal(value));
    SEXP group = PROTECT(Rf_ScalarReal(crf_group_penalty(&pr, t)));
    const char *names[] = {"value", "gradient", "group", "scales", ""};
    SEXP out = named_list(names, val, grad, group, scales);
    UNPROTECT(5);
    return out;
}

/* Progress from the core: say(msg), an R function. */
static void r_report(void *ctx, const char *msg)
{
    SEXP s = PROTECT(Rf_mkString(msg));
    SEXP call = PROTECT(Rf_lang2((SEXP) ctx, s));
    Rf_eval(call, R_GlobalEnv);
    UNPROTECT(2);
}

/* One stage from the start theta: stage 1 FISTA (group lasso on the edges),
 * stage 2 L-BFGS (no group term), stage 3 L-BFGS with the group term (on
 * edges that stay non-zero, where it is differentiable).  Returns list(theta, status, iter,
 * objective, modes); modes: the evaluations used on graphs with edges, as the
 * bits 1 << CRF_PAIRS (2) and 1 << CRF_ROWS (4) (for the tests); status 0 converged, 1 maxit reached, 2 L-BFGS error.  say: NULL
 * or an R function of one string, called with a progress line every few
 * seconds. */
SEXP mlcrf_fit(SEXP x, SEXP mu, SEXP sinv, SEXP y, SEXP from, SEXP to, SEXP K,
               SEXP lambda_v, SEXP lambda0, SEXP lambda_w, SEXP eta, SEXP theta,
               SEXP stage, SEXP maxit, SEXP tol, SEXP mode, SEXP say)
{
    crf_problem pr = crf_unpack(x, mu, sinv, y, from, to, K, lambda_v, lambda0, lambda_w, eta,
                                mode);
    SEXP th;
    double *t = theta_copy(theta, &pr, &th);
    PROTECT(th);
    int st = Rf_asInteger(stage), mx = Rf_asInteger(maxit), iter = 0, status, used = 0;
    pr.modes_used = &used;
    double tl = Rf_asReal(tol), obj = 0.0;
    if (mx < 1 || !(tl > 0)) Rf_error("internal: maxit and tol must be positive");
    if (Rf_isFunction(say)) {
        pr.report = r_report;
        pr.report_ctx = (void *) say;
        pr.last_report = time(NULL);
    } else if (say != R_NilValue) {
        Rf_error("internal: say must be NULL or a function");
    }
    if (st == 1) {
        status = crf_fista(&pr, t, mx, tl, &iter, &obj);
    } else if (st == 3) {
        pr.smooth_group = 1;
        status = crf_lbfgs(&pr, t, mx, tl, &iter, &obj);
    } else {
        pr.group_w = 0.0;
        status = crf_lbfgs(&pr, t, mx, tl, &iter, &obj);
    }
    SEXP st_s = PROTECT(Rf_ScalarInteger(status)), iter_s = PROTECT(Rf_ScalarInteger(iter));
    SEXP obj_s = PROTECT(Rf_ScalarReal(obj)), used_s = PROTECT(Rf_ScalarInteger(used));
    const char *names[] = {"theta", "status", "iter", "objective", "modes", ""};
    SEXP out = named_list(names, th, st_s, iter_s, obj_s, used_s);
    UNPROTECT(5);
    return out;
}
