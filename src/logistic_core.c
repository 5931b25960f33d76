/* Trust-region Newton (TRON) for L2 logistic regression; see logistic_core.h.
 * The trust-region updates and the truncated conjugate gradient follow
 * Lin, Weng and Keerthi (2008), Algorithms 1 and 2, with LIBLINEAR's constants. */
#include <math.h>
#include <string.h>
#include <R.h>
#include <R_ext/Utils.h>
#include "logistic_core.h"

typedef struct {
    const lin_rows *D;
    const double *y;     /* +-1 */
    double *c;           /* C times the instance weights */
    double *z;           /* n: x~_i'w at the current point */
    double *Dd;          /* n: c_i sigma_i (1 - sigma_i), the Hessian's weights */
    int n, p;
} lr_problem;

static double dot(int p, const double *a, const double *b)
{
    double s = 0.0;
    for (int j = 0; j < p; j++) s += a[j] * b[j];
    return s;
}

static double nrm2(int p, const double *a)
{
    return sqrt(dot(p, a, a));
}

/* log(1 + exp(-t)) without overflow */
static double log1pexp_neg(double t)
{
    return t >= 0 ? log1p(exp(-t)) : -t + log1p(exp(t));
}

/* f(w); leaves z = X~w in the problem for grad() */
static double lr_fun(lr_problem *P, const double *w)
{
    double f = 0.5 * dot(P->p, w, w);
    for (int i = 0; i < P->n; i++) {
        P->z[i] = lin_dot(P->D, i, w);
        f += P->c[i] * log1pexp_neg(P->y[i] * P->z[i]);
    }
    return f;
}

/* gradient at the point of the last lr_fun() call; also the Hessian weights */
static void lr_grad(lr_problem *P, const double *w, double *g)
{
    memcpy(g, w, sizeof(double) * (size_t) P->p);
    for (int i = 0; i < P->n; i++) {
        double s = 1.0 / (1.0 + exp(-P->y[i] * P->z[i]));   /* sigma(y_i z_i) */
        P->Dd[i] = P->c[i] * s * (1.0 - s);
        lin_axpy(P->D, i, P->c[i] * (s - 1.0) * P->y[i], g);
    }
}

/* Hs = s + X~' diag(Dd) X~ s, in one pass over the rows */
static void lr_hv(lr_problem *P, const double *s, double *Hs)
{
    memcpy(Hs, s, sizeof(double) * (size_t) P->p);
    for (int i = 0; i < P->n; i++) {
        if (P->Dd[i] == 0.0) continue;
        lin_axpy(P->D, i, P->Dd[i] * lin_dot(P->D, i, s), Hs);
    }
}

/* Truncated CG for min g's + 0.5 s'Hs within ||s|| <= delta (Steihaug).
 * Leaves the step in s and the residual -(g + Hs) in r. */
static int trcg(lr_problem *P, double delta, const double *g, double *s, double *r,
                double *d, double *Hd)
{
    int p = P->p, cg_iter = 0;
    const double eps_cg = 0.1;
    for (int j = 0; j < p; j++) { s[j] = 0.0; r[j] = -g[j]; d[j] = r[j]; }
    double cgtol = eps_cg * nrm2(p, g), rTr = dot(p, r, r);
    while (sqrt(rTr) > cgtol) {
        cg_iter++;
        lr_hv(P, d, Hd);
        double dHd = dot(p, d, Hd);
        if (!(dHd > 0)) break;
        double alpha = rTr / dHd;
        for (int j = 0; j < p; j++) s[j] += alpha * d[j];
        if (nrm2(p, s) > delta) {
            /* back to the previous iterate, then to the boundary along d */
            for (int j = 0; j < p; j++) s[j] -= alpha * d[j];
            double std = dot(p, s, d), sts = dot(p, s, s), dtd = dot(p, d, d);
            double dsq = delta * delta, rad = sqrt(std * std + dtd * (dsq - sts));
            alpha = std >= 0 ? (dsq - sts) / (std + rad) : (rad - std) / dtd;
            for (int j = 0; j < p; j++) { s[j] += alpha * d[j]; r[j] -= alpha * Hd[j]; }
            break;
        }
        for (int j = 0; j < p; j++) r[j] -= alpha * Hd[j];
        double rnew = dot(p, r, r), beta = rnew / rTr;
        for (int j = 0; j < p; j++) d[j] = r[j] + beta * d[j];
        rTr = rnew;
    }
    return cg_iter;
}

static void lr_setup(lr_problem *P, const lin_rows *D, const double *y,
                     const double *weight, double C)
{
    P->D = D;
    P->n = D->n;
    P->p = lin_dim(D);
    double *yy = (double *) R_alloc((size_t) P->n + 1, sizeof(double));
    P->c = (double *) R_alloc((size_t) P->n + 1, sizeof(double));
    P->z = (double *) R_alloc((size_t) P->n + 1, sizeof(double));
    P->Dd = (double *) R_alloc((size_t) P->n + 1, sizeof(double));
    for (int i = 0; i < P->n; i++) {
        yy[i] = y[i] > 0 ? 1.0 : -1.0;
        P->c[i] = C * (weight ? weight[i] : 1.0);
    }
    P->y = yy;
}

double logistic_objective(const lin_rows *D, const double *y, const double *weight,
                          double C, const double *w)
{
    lr_problem P;
    lr_setup(&P, D, y, weight, C);
    return lr_fun(&P, w);
}

int logistic_fit(const lin_rows *D, const double *y, const double *weight, double C,
                 double eps, int max_iter, double *w, int *iter)
{
    const double eta0 = 1e-4, eta1 = 0.25, eta2 = 0.75;
    const double sigma1 = 0.25, sigma2 = 0.5, sigma3 = 4.0;
    lr_problem P;
    lr_setup(&P, D, y, weight, C);
    int n = P.n, p = P.p, status = LOGISTIC_MAXITER;
    double *g = (double *) R_alloc((size_t) p, sizeof(double));
    double *s = (double *) R_alloc((size_t) p, sizeof(double));
    double *r = (double *) R_alloc((size_t) p, sizeof(double));
    double *d = (double *) R_alloc((size_t) p, sizeof(double));
    double *Hd = (double *) R_alloc((size_t) p, sizeof(double));
    double *w_new = (double *) R_alloc((size_t) p, sizeof(double));

    /* LIBLINEAR's stopping rule, relative to the gradient at w = 0 */
    int pos = 0;
    for (int i = 0; i < n; i++) pos += P.y[i] > 0;
    int fewer = pos < n - pos ? pos : n - pos;
    double eps_rel = eps * (fewer > 1 ? fewer : 1) / n;
    memset(w_new, 0, sizeof(double) * (size_t) p);
    lr_fun(&P, w_new);
    lr_grad(&P, w_new, g);
    double gnorm0 = nrm2(p, g);

    double f = lr_fun(&P, w);
    lr_grad(&P, w, g);
    double gnorm = nrm2(p, g), delta = gnorm;
    *iter = 0;
    if (gnorm <= eps_rel * gnorm0) return LOGISTIC_OK;
    int k = 1;
    while (k <= max_iter) {
        R_CheckUserInterrupt();
        trcg(&P, delta, g, s, r, d, Hd);
        for (int j = 0; j < p; j++) w_new[j] = w[j] + s[j];
        double gs = dot(p, g, s);
        double prered = -0.5 * (gs - dot(p, s, r));
        double fnew = lr_fun(&P, w_new);
        double actred = f - fnew, snorm = nrm2(p, s);
        if (k == 1 && snorm < delta) delta = snorm;
        double alpha = fnew - f - gs <= 0 ? sigma3
            : fmax(sigma1, -0.5 * (gs / (fnew - f - gs)));
        if (actred < eta0 * prered)
            delta = fmin(fmax(alpha, sigma1) * snorm, sigma2 * delta);
        else if (actred < eta1 * prered)
            delta = fmax(sigma1 * delta, fmin(alpha * snorm, sigma2 * delta));
        else if (actred < eta2 * prered)
            delta = fmax(sigma1 * delta, fmin(alpha * snorm, sigma3 * delta));
        else
            delta = fmax(delta, fmin(alpha * snorm, sigma3 * delta));

        if (actred > eta0 * prered) {   /* accept the step */
            k++;
            memcpy(w, w_new, sizeof(double) * (size_t) p);
            f = fnew;
            lr_grad(&P, w, g);
            gnorm = nrm2(p, g);
            if (gnorm <= eps_rel * gnorm0) { status = LOGISTIC_OK; break; }
        }   /* a rejected step leaves g and the Hessian weights of w in place */
        if ((actred <= 0 && prered <= 0) ||
            (fabs(actred) <= 1e-12 * fabs(f) && fabs(prered) <= 1e-12 * fabs(f))) {
            status = LOGISTIC_STALLED;
            break;
        }
    }
    *iter = k - 1;
    return status;
}
