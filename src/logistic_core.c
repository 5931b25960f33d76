/* Trust-region Newton (TRON) for L2 logistic regression and, with the same
 * iterations, the L2-loss (squared hinge) linear SVM in the primal
 * (LIBLINEAR's solver 2, whose generalised Hessian I + 2C X~_I'X~_I, I the
 * rows inside the margin, takes the place of the logistic one); see
 * logistic_core.h.
 * The trust-region updates and the truncated conjugate gradient follow
 * Lin, Weng and Keerthi (2008), Algorithms 1 and 2, with LIBLINEAR's constants;
 * the conjugate gradients are preconditioned by diag(H) and the trust region
 * measured in that norm, as in LIBLINEAR >= 2.20 (Hsia, Chiang and Lin 2018). */
#include <math.h>
#include <string.h>
#include <R.h>
#include <R_ext/Utils.h>
#include "linalg.h"
#include "logistic_core.h"

typedef struct {
    const lin_rows *D;
    const double *y;     /* +-1 */
    double *c;           /* C times the instance weights */
    double *z;           /* n: x~_i'w at the current point */
    double *Dd;          /* n: the Hessian's weights: c_i sigma_i (1 - sigma_i)
                            (logistic), 2 c_i inside the margin, else 0 (L2-SVM) */
    int n, p, loss;      /* loss: TRON_LOGISTIC or TRON_SQUARED_HINGE */
} lr_problem;

/* ||a||, scaled so that entries near 1e155 do not overflow when squared */
static double nrm2(int p, const double *a)
{
    double m = 0.0, s = 0.0;
    for (int j = 0; j < p; j++) m = fmax(m, fabs(a[j]));
    if (m == 0.0 || !isfinite(m)) return m;
    for (int j = 0; j < p; j++) { double t = a[j] / m; s += t * t; }
    return m * sqrt(s);
}

/* log(1 + exp(-t)) without overflow */
static double log1pexp_neg(double t)
{
    return t >= 0 ? log1p(exp(-t)) : -t + log1p(exp(t));
}

/* f(w); leaves z = X~w in the problem for grad() */
static double lr_fun(lr_problem *P, const double *w)
{
    double f = 0.5 * vec_dot(P->p, w, w);
    for (int i = 0; i < P->n; i++) {
        P->z[i] = lin_dot(P->D, i, w);
        if (P->loss == TRON_LOGISTIC) {
            f += P->c[i] * log1pexp_neg(P->y[i] * P->z[i]);
        } else {
            double t = 1.0 - P->y[i] * P->z[i];
            if (t > 0) f += P->c[i] * t * t;
        }
    }
    return f;
}

/* gradient at the point of the last lr_fun() call; also the Hessian weights */
static void lr_grad(lr_problem *P, const double *w, double *g)
{
    memcpy(g, w, sizeof(double) * (size_t) P->p);
    for (int i = 0; i < P->n; i++) {
        if (P->loss == TRON_LOGISTIC) {
            double s = 1.0 / (1.0 + exp(-P->y[i] * P->z[i]));   /* sigma(y_i z_i) */
            P->Dd[i] = P->c[i] * s * (1.0 - s);
            lin_axpy(P->D, i, P->c[i] * (s - 1.0) * P->y[i], g);
        } else {
            double t = 1.0 - P->y[i] * P->z[i];   /* d/dw c t^2 = -2 c t y x~ */
            P->Dd[i] = t > 0 ? 2.0 * P->c[i] : 0.0;
            if (t > 0) lin_axpy(P->D, i, -2.0 * P->c[i] * t * P->y[i], g);
        }
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

/* M = diag(H) at the point of the last lr_grad() call: 1 + sum_i Dd_i x~_ij^2,
 * the Jacobi preconditioner of the conjugate gradients. */
static void lr_diag(lr_problem *P, double *M)
{
    const lin_rows *D = P->D;
    int d = D->d, q = D->q;
    for (int j = 0; j < P->p; j++) M[j] = 1.0;
    for (int i = 0; i < P->n; i++) {
        double a = P->Dd[i];
        if (a == 0.0) continue;
        if (d > 0) {
            double ax = a * D->xscale * D->xscale;
            if (D->ind) {
                for (int k = D->ptr[i]; k < D->ptr[i + 1]; k++)
                    M[D->ind[k]] += ax * D->x[k] * D->x[k];
            } else {
                const double *xi = D->x + (size_t) i * d;
                for (int j = 0; j < d; j++) M[j] += ax * xi[j] * xi[j];
            }
        }
        if (q > 0) {
            const double *zi = D->z + (size_t) i * q;
            for (int k = 0; k < q; k++) M[d + k] += a * zi[k] * zi[k];
        }
        if (D->bias != 0.0) M[d + q] += a * D->bias * D->bias;
    }
}

/* u'diag(M)v */
static double dotm(int p, const double *u, const double *M, const double *v)
{
    double s = 0.0;
    for (int j = 0; j < p; j++) s += u[j] * M[j] * v[j];
    return s;
}

/* Preconditioned truncated CG for min g's + 0.5 s'Hs within ||s||_M <= delta
 * (Steihaug; LIBLINEAR's trpcg with the full Jacobi preconditioner M, which
 * makes the steps and their test indifferent to the scale of each column).
 * Leaves the step in s and the residual -(g + Hs) in r; sets *boundary to 1
 * when the step was cut at the trust region, 2 when the iterations ran out
 * before the residual test (neither is a Newton step).  At most max(p, 5)
 * iterations, which exact arithmetic never needs: rounding on a badly
 * conditioned Hessian could otherwise loop for ever. */
static int trcg(lr_problem *P, double delta, const double *g, const double *M, double *s,
                double *r, double *d, double *Hd, double *zv, int *boundary)
{
    int p = P->p, cg_iter = 0, max_cg = p > 5 ? p : 5;
    const double eps_cg = 0.1;
    *boundary = 0;
    for (int j = 0; j < p; j++) {
        s[j] = 0.0; r[j] = -g[j]; zv[j] = r[j] / M[j]; d[j] = zv[j];
    }
    double zTr = vec_dot(p, zv, r), cgtol = eps_cg * sqrt(zTr);
    while (sqrt(zTr) > cgtol && cg_iter < max_cg) {
        cg_iter++;
        lr_hv(P, d, Hd);
        double dHd = vec_dot(p, d, Hd);
        if (!(dHd > 0)) break;
        double alpha = zTr / dHd;
        for (int j = 0; j < p; j++) s[j] += alpha * d[j];
        if (sqrt(dotm(p, s, M, s)) > delta) {
            /* back to the previous iterate, then to the boundary along d */
            for (int j = 0; j < p; j++) s[j] -= alpha * d[j];
            double std = dotm(p, s, M, d), sts = dotm(p, s, M, s), dtd = dotm(p, d, M, d);
            double dsq = delta * delta, rad = sqrt(std * std + dtd * (dsq - sts));
            alpha = std >= 0 ? (dsq - sts) / (std + rad) : (rad - std) / dtd;
            for (int j = 0; j < p; j++) { s[j] += alpha * d[j]; r[j] -= alpha * Hd[j]; }
            *boundary = 1;
            break;
        }
        for (int j = 0; j < p; j++) { r[j] -= alpha * Hd[j]; zv[j] = r[j] / M[j]; }
        double znew = vec_dot(p, zv, r), beta = znew / zTr;
        for (int j = 0; j < p; j++) d[j] = zv[j] + beta * d[j];
        zTr = znew;
    }
    if (!*boundary && cg_iter >= max_cg && sqrt(zTr) > cgtol) *boundary = 2;   /* capped */
    return cg_iter;
}

static void lr_setup(lr_problem *P, const lin_rows *D, const double *y,
                     const double *weight, double C, int loss)
{
    P->D = D;
    P->loss = loss;
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

double tron_objective(const lin_rows *D, const double *y, const double *weight,
                      double C, int loss, const double *w)
{
    lr_problem P;
    lr_setup(&P, D, y, weight, C, loss);
    return lr_fun(&P, w);
}

double tron_grad_norm(const lin_rows *D, const double *y, const double *weight,
                      double C, int loss, const double *w)
{
    lr_problem P;
    lr_setup(&P, D, y, weight, C, loss);
    double *g = (double *) R_alloc((size_t) P.p + 1, sizeof(double));
    lr_fun(&P, w);
    lr_grad(&P, w, g);
    return nrm2(P.p, g);
}

int tron_fit(const lin_rows *D, const double *y, const double *weight, double C, int loss,
             double eps, int max_iter, double *w, int *iter)
{
    const double eta0 = 1e-4, eta1 = 0.25, eta2 = 0.75;
    const double sigma1 = 0.25, sigma2 = 0.5, sigma3 = 4.0;
    lr_problem P;
    lr_setup(&P, D, y, weight, C, loss);
    int n = P.n, p = P.p, status = LOGISTIC_MAXITER;
    double *g = (double *) R_alloc((size_t) p, sizeof(double));
    double *s = (double *) R_alloc((size_t) p, sizeof(double));
    double *r = (double *) R_alloc((size_t) p, sizeof(double));
    double *d = (double *) R_alloc((size_t) p, sizeof(double));
    double *Hd = (double *) R_alloc((size_t) p, sizeof(double));
    double *w_new = (double *) R_alloc((size_t) p, sizeof(double));
    double *M = (double *) R_alloc((size_t) p, sizeof(double));
    double *zv = (double *) R_alloc((size_t) p, sizeof(double));

    /* LIBLINEAR's gradient test, relative to the gradient at w = 0 */
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
    double gnorm = nrm2(p, g);
    lr_diag(&P, M);
    for (int j = 0; j < p; j++) zv[j] = g[j] / sqrt(M[j]);
    double delta = nrm2(p, zv);   /* ||g|| in the norm M^-1 */
    *iter = 0;
    /* Inf compared with Inf would pass every test below with w untouched */
    if (!isfinite(f) || !isfinite(gnorm0) || !isfinite(gnorm) || !isfinite(delta) ||
        !isfinite(nrm2(p, M)))
        return LOGISTIC_NONFINITE;
    int k = 1;
    while (k <= max_iter) {
        R_CheckUserInterrupt();
        int boundary;
        trcg(&P, delta, g, M, s, r, d, Hd, zv, &boundary);
        for (int j = 0; j < p; j++) w_new[j] = w[j] + s[j];
        double gs = vec_dot(p, g, s);
        double prered = -0.5 * (gs - vec_dot(p, s, r));
        if (!isfinite(prered)) { status = LOGISTIC_NONFINITE; break; }
        /* Converged: the gradient test, and a Newton step (inside the trust
         * region) that promises a relative decrease below LOGISTIC_REL_DECREASE.
         * The second test is invariant to the scale of the features, which
         * the first one, dominated by the largest column, is not. */
        if (gnorm <= eps_rel * gnorm0 && !boundary &&
            prered <= LOGISTIC_REL_DECREASE * fmax(1.0, fabs(f))) {
            double fnew = lr_fun(&P, w_new);   /* take the step when it helps */
            if (fnew < f) memcpy(w, w_new, sizeof(double) * (size_t) p);
            status = LOGISTIC_OK;
            break;
        }
        double fnew = lr_fun(&P, w_new);
        if (!isfinite(fnew)) fnew = INFINITY;   /* an overflowing step is rejected */
        double actred = f - fnew, snorm = sqrt(dotm(p, s, M, s));
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
            lr_diag(&P, M);
            if (!isfinite(gnorm) || !isfinite(nrm2(p, M))) { status = LOGISTIC_NONFINITE; break; }
        }   /* a rejected step leaves g and the Hessian weights of w in place */
        if ((actred <= 0 && prered <= 0) ||
            (fabs(actred) <= 1e-12 * fabs(f) && fabs(prered) <= 1e-12 * fabs(f)) ||
            !(delta > 0)) {
            /* No decrease left in double precision: converged if a step inside
             * the trust region promised none either (the gradient test asked
             * for more than the rounding of the gradient allows, or, on a badly
             * conditioned Hessian, the conjugate gradients ran out before a
             * full Newton step), stalled otherwise. */
            status = boundary != 1 && prered <= LOGISTIC_REL_DECREASE * fmax(1.0, fabs(f))
                ? LOGISTIC_OK : LOGISTIC_STALLED;
            break;
        }
    }
    *iter = k - 1;
    return status;
}

int logistic_fit(const lin_rows *D, const double *y, const double *weight, double C,
                 double eps, int max_iter, double *w, int *iter)
{
    return tron_fit(D, y, weight, C, TRON_LOGISTIC, eps, max_iter, w, iter);
}

double logistic_objective(const lin_rows *D, const double *y, const double *weight,
                          double C, const double *w)
{
    return tron_objective(D, y, weight, C, TRON_LOGISTIC, w);
}

double logistic_grad_norm(const lin_rows *D, const double *y, const double *weight,
                          double C, const double *w)
{
    return tron_grad_norm(D, y, weight, C, TRON_LOGISTIC, w);
}
