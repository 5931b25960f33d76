/* MLCRF learning: pseudo-likelihood, its gradient, FISTA (stage 1) and
 * L-BFGS (stage 2).  See mlcrf_core.h for the layout of the parameters. */
#include <R.h>
#include <R_ext/Applic.h>
#include <R_ext/Utils.h>
#include <float.h>
#include <math.h>
#include <string.h>
#include "mlcrf_core.h"

int crf_ncol(const crf_problem *pr) { return pr->m + pr->E * pr->K; }

void crf_alloc(crf_problem *pr)
{
    size_t q = (size_t) crf_ncol(pr);
    pr->B = (double *) R_alloc((size_t) pr->d * q + 1, sizeof(double));
    pr->P = (double *) R_alloc((size_t) pr->n * q + 1, sizeof(double));
    pr->G = (double *) R_alloc((size_t) pr->n * pr->m + 1, sizeof(double));
}

/* log(1 + exp(z)) without overflow */
static double log1pexp(double z)
{
    return z > 0 ? z + log1p(exp(-z)) : log1p(exp(z));
}

void crf_potentials(crf_problem *pr, const double *theta, double *P)
{
    int n = pr->n, d = pr->d, q = crf_ncol(pr), p = d + 1;
    double *B = pr->B;
    for (int c = 0; c < q; c++)
        for (int j = 0; j < d; j++) B[IDX(j, c, d)] = theta[IDX(j + 1, c, p)] * pr->sinv[j];
    mat_prod(&pr->X, pr->mu, B, q, P);
    for (int c = 0; c < q; c++) {
        double b0 = theta[IDX(0, c, p)];
        for (int i = 0; i < n; i++) P[IDX(i, c, n)] += b0;
    }
}

double crf_smooth(crf_problem *pr, const double *theta, double *grad)
{
    crf_potentials(pr, theta, pr->P);
    return crf_smooth_at(pr, theta, pr->P, grad);
}

double crf_smooth_at(crf_problem *pr, const double *theta, const double *Pin, double *grad)
{
    int n = pr->n, d = pr->d, m = pr->m, E = pr->E, K = pr->K, q = crf_ncol(pr);
    int p = d + 1;
    const double *y = pr->y;
    double *B = pr->B, *P = pr->P, *G = pr->G;

    /* the log-odds of each conditional p(y_l | y_-l, x), from the
     * potentials Pin = [1, Xs] theta (n x q) */
    memcpy(G, Pin, sizeof(double) * (size_t) n * m);
    for (int e = 0; e < E; e++) {
        int a = pr->from[e], b = pr->to[e];
        const double *pc = Pin + IDX(0, m + e * K, n);
        for (int i = 0; i < n; i++) {
            double ya = y[IDX(i, a, n)], yb = y[IDX(i, b, n)];
            if (K == 3) {
                double c01 = pc[i], c10 = pc[i + n], c11 = pc[i + 2 * (size_t) n];
                G[IDX(i, a, n)] += yb > 0.5 ? c11 - c01 : c10;
                G[IDX(i, b, n)] += ya > 0.5 ? c11 - c10 : c01;
            } else {
                G[IDX(i, a, n)] += yb * pc[i];
                G[IDX(i, b, n)] += ya * pc[i];
            }
        }
    }
    double loss = 0.0;
    for (size_t k = 0; k < (size_t) n * m; k++) {
        double z = G[k];
        loss += log1pexp(z) - y[k] * z;
        G[k] = 1.0 / (1.0 + exp(-z)) - y[k];   /* d loss / d log-odds */
    }
    double value = loss / n;
    /* the smooth part of the penalty */
    for (int l = 0; l < m; l++) {
        double s = 0.0;
        for (int j = 1; j < p; j++) s += theta[IDX(j, l, p)] * theta[IDX(j, l, p)];
        value += pr->lambda_v[l] * s + pr->lambda0 * theta[IDX(0, l, p)] * theta[IDX(0, l, p)];
    }
    double sw = 0.0;
    for (size_t k = (size_t) p * m; k < (size_t) p * q; k++) sw += theta[k] * theta[k];
    value += pr->ridge_w * sw;
    if (!grad) return value;

    /* derivatives of the loss with respect to the potentials, into P (Pin
     * is not read after this point, so it may be P itself) */
    memcpy(P, G, sizeof(double) * (size_t) n * m);
    for (int e = 0; e < E; e++) {
        int a = pr->from[e], b = pr->to[e];
        double *pc = P + IDX(0, m + e * K, n);
        for (int i = 0; i < n; i++) {
            double ya = y[IDX(i, a, n)], yb = y[IDX(i, b, n)];
            double ga = G[IDX(i, a, n)], gb = G[IDX(i, b, n)];
            if (K == 3) {
                pc[i] = -ga * yb + gb * (1.0 - ya);              /* (0,1) */
                pc[i + n] = ga * (1.0 - yb) - gb * ya;           /* (1,0) */
                pc[i + 2 * (size_t) n] = ga * yb + gb * ya;      /* (1,1) */
            } else {
                pc[i] = ga * yb + gb * ya;
            }
        }
    }
    mat_tprod(&pr->X, pr->mu, P, q, B);
    for (int c = 0; c < q; c++) {
        double s = 0.0;
        for (int i = 0; i < n; i++) s += P[IDX(i, c, n)];
        grad[IDX(0, c, p)] = s / n;
        for (int j = 0; j < d; j++) grad[IDX(j + 1, c, p)] = B[IDX(j, c, d)] * pr->sinv[j] / n;
    }
    for (int l = 0; l < m; l++) {
        grad[IDX(0, l, p)] += 2.0 * pr->lambda0 * theta[IDX(0, l, p)];
        for (int j = 1; j < p; j++) grad[IDX(j, l, p)] += 2.0 * pr->lambda_v[l] * theta[IDX(j, l, p)];
    }
    for (size_t k = (size_t) p * m; k < (size_t) p * q; k++) grad[k] += 2.0 * pr->ridge_w * theta[k];
    return value;
}

static double edge_norm(const crf_problem *pr, const double *theta, int e)
{
    size_t len = (size_t) (pr->d + 1) * pr->K;
    const double *w = theta + (size_t) (pr->d + 1) * (pr->m + (size_t) e * pr->K);
    double s = 0.0;
    for (size_t k = 0; k < len; k++) s += w[k] * w[k];
    return sqrt(s);
}

double crf_group_penalty(const crf_problem *pr, const double *theta)
{
    double s = 0.0;
    for (int e = 0; e < pr->E; e++) s += edge_norm(pr, theta, e);
    return pr->group_w * s;
}

/* The proximal step of t * group_w * sum_e ||w_e||: block soft-thresholding. */
static void group_prox(const crf_problem *pr, double *theta, double t)
{
    size_t len = (size_t) (pr->d + 1) * pr->K;
    for (int e = 0; e < pr->E; e++) {
        double nrm = edge_norm(pr, theta, e), thr = t * pr->group_w;
        double *w = theta + (size_t) (pr->d + 1) * (pr->m + (size_t) e * pr->K);
        double f = nrm > thr ? 1.0 - thr / nrm : 0.0;
        for (size_t k = 0; k < len; k++) w[k] *= f;
    }
}

/* FISTA (Beck and Teboulle 2009) with backtracking on the step 1/L and the
 * function-value restart of O'Donoghue and Candes (2015): when a step would
 * increase the objective, the momentum is dropped and a plain proximal
 * gradient step is taken from the last iterate, so the objective decreases
 * monotonically.  Stops when the proximal-gradient residual L |y - z| (the
 * optimality condition of the composite problem) is below tol everywhere. */
int crf_fista(crf_problem *pr, double *theta, int maxit, double tol, int *iter,
              double *objective)
{
    size_t len = (size_t) (pr->d + 1) * crf_ncol(pr);
    size_t plen = (size_t) pr->n * crf_ncol(pr);
    double *x = theta;
    double *yk = (double *) R_alloc(len, sizeof(double));
    double *z = (double *) R_alloc(len, sizeof(double));
    double *g = (double *) R_alloc(len, sizeof(double));
    /* the potentials of x, z and yk: they are affine in theta, so those of
     * the extrapolated point yk = z + mom (z - x) are the same combination
     * of those of z and x, both computed exactly; one product with the
     * design per iteration is saved (two remain: X B at z, X'P for the
     * gradient at yk) */
    double *Px = (double *) R_alloc(plen, sizeof(double));
    double *Pz = (double *) R_alloc(plen, sizeof(double));
    double *Py = (double *) R_alloc(plen, sizeof(double));
    memcpy(yk, x, len * sizeof(double));
    double L = 1.0, t = 1.0;
    crf_potentials(pr, x, Px);
    memcpy(Py, Px, plen * sizeof(double));
    double Fx = crf_smooth_at(pr, x, Px, NULL) + crf_group_penalty(pr, x);
    int status = MLCRF_NOT_CONVERGED, it;
    for (it = 1; it <= maxit; it++) {
        if (it % 10 == 0) R_CheckUserInterrupt();
        double gy = crf_smooth_at(pr, yk, Py, g), gz;
        for (;;) {
            for (size_t k = 0; k < len; k++) z[k] = yk[k] - g[k] / L;
            group_prox(pr, z, 1.0 / L);
            crf_potentials(pr, z, Pz);
            gz = crf_smooth_at(pr, z, Pz, NULL);
            double lin = 0.0, sq = 0.0;
            for (size_t k = 0; k < len; k++) {
                double dk = z[k] - yk[k];
                lin += g[k] * dk;
                sq += dk * dk;
            }
            if (gz <= gy + lin + 0.5 * L * sq + 1e-12 * fabs(gy) || L > 1e12) break;
            L *= 2.0;
        }
        double Fz = gz + crf_group_penalty(pr, z);
        if (Fz > Fx && t > 1.0) {           /* restart from x without momentum */
            memcpy(yk, x, len * sizeof(double));
            memcpy(Py, Px, plen * sizeof(double));
            t = 1.0;
            continue;
        }
        /* the proximal-gradient residual L (yk - z): zero exactly at a
         * minimiser, in the units of the gradient */
        double resid = 0.0;
        for (size_t k = 0; k < len; k++) resid = fmax(resid, fabs(z[k] - yk[k]));
        resid *= L;
        double tn = 0.5 * (1.0 + sqrt(1.0 + 4.0 * t * t)), mom = (t - 1.0) / tn;
        for (size_t k = 0; k < len; k++) {
            yk[k] = z[k] + mom * (z[k] - x[k]);
            x[k] = z[k];
        }
        for (size_t k = 0; k < plen; k++) Py[k] = Pz[k] + mom * (Pz[k] - Px[k]);
        double *sw = Px; Px = Pz; Pz = sw;   /* x = z: its potentials */
        t = tn;
        Fx = Fz;
        if (resid <= tol) {
            status = MLCRF_OK;
            break;
        }
        L *= 0.9;   /* let the step grow again where the curvature allows */
    }
    *iter = it > maxit ? maxit : it;
    *objective = Fx;
    return status;
}

/* lbfgsb() asks for the value and the gradient separately: both come from
 * one evaluation, cached with the point it was made at. */
typedef struct {
    crf_problem *pr;
    size_t len;
    double *xc, *gc, fc;
    int have;
} lbfgs_cache;

static void cache_eval(int n, const double *par, lbfgs_cache *c)
{
    if (c->have && memcmp(par, c->xc, (size_t) n * sizeof(double)) == 0) return;
    memcpy(c->xc, par, (size_t) n * sizeof(double));
    c->fc = crf_smooth(c->pr, par, c->gc);
    c->have = 1;
}

static double lb_fn(int n, double *par, void *ex)
{
    lbfgs_cache *c = (lbfgs_cache *) ex;
    cache_eval(n, par, c);
    return c->fc;
}

static void lb_gr(int n, double *par, double *gr, void *ex)
{
    lbfgs_cache *c = (lbfgs_cache *) ex;
    cache_eval(n, par, c);
    memcpy(gr, c->gc, (size_t) n * sizeof(double));
}

int crf_lbfgs(crf_problem *pr, double *theta, int maxit, double tol, int *iter,
              double *objective)
{
    size_t len = (size_t) (pr->d + 1) * crf_ncol(pr);
    lbfgs_cache c = {pr, len, NULL, NULL, 0.0, 0};
    c.xc = (double *) R_alloc(len, sizeof(double));
    c.gc = (double *) R_alloc(len, sizeof(double));
    double *lo = (double *) R_alloc(len, sizeof(double));
    double *up = (double *) R_alloc(len, sizeof(double));
    int *nbd = (int *) R_alloc(len, sizeof(int));
    for (size_t k = 0; k < len; k++) { lo[k] = 0.0; up[k] = 0.0; nbd[k] = 0; }
    double fmin;
    int fail = 0, fncount = 0, grcount = 0;
    char msg[60];
    /* factr in units of the machine epsilon: relative decrease tol^2 */
    double factr = fmax(tol * tol / DBL_EPSILON, 10.0);
    lbfgsb((int) len, 10, theta, lo, up, nbd, &fmin, lb_fn, lb_gr, &fail, &c, factr,
           tol * 1e-2, &fncount, &grcount, maxit, msg, 0, 10);
    *iter = grcount;
    *objective = fmin;
    if (fail == 1) return MLCRF_NOT_CONVERGED;
    if (fail == 51 || fail == 52) {
        /* a warning or an abnormal end of the line search, which happens when
         * the objective no longer changes in floating point: accept the point
         * when its gradient is small */
        double gmax = 0.0;
        crf_smooth(pr, theta, c.gc);
        for (size_t k = 0; k < len; k++) gmax = fmax(gmax, fabs(c.gc[k]));
        return gmax <= sqrt(tol) ? MLCRF_OK : MLCRF_ERR_LBFGS;
    }
    if (fail != 0) return MLCRF_ERR_LBFGS;
    return MLCRF_OK;
}
