/* Projected gradient for the MLML quadratic programme (see mlml_core.h and
 * ?mlml for the objective and what was reconstructed from the paper). */
#include <R.h>
#include <R_ext/Utils.h>
#include <math.h>
#include <string.h>
#include "linalg.h"
#include "mlml_core.h"

/* P = S_X Z (n x m), the sparse symmetric graph applied column by column. */
static void graph_times(const mlml_graph *S, int m, const double *Z, double *P)
{
    int n = S->n;
    memset(P, 0, sizeof(double) * (size_t) n * m);
    for (int l = 0; l < m; l++) {
        const double *z = Z + IDX(0, l, n);
        double *pl = P + IDX(0, l, n);
        for (int j = 0; j < n; j++) {
            double zj = z[j];
            if (zj == 0.0) continue;
            for (int k = S->p[j]; k < S->p[j + 1]; k++) pl[S->i[k]] += S->x[k] * zj;
        }
    }
}

/* The products at Z: P = S_X Z, Q = Z S_C; returns f(Z). */
static double products(int n, int m, const double *Y, int loss, const mlml_graph *SX,
                       const double *SC, double beta, double gamma, const double *Z,
                       double *P, double *Q)
{
    graph_times(SX, m, Z, P);
    gemm('N', 'N', n, m, m, 1.0, Z, n, SC, m, 0.0, Q, n);
    double fit = 0.0, smooth_x = 0.0, smooth_c = 0.0;
    size_t nm = (size_t) n * m;
    for (size_t t = 0; t < nm; t++) {
        if (loss == MLML_LOSS_LINEAR) fit -= Y[t] * Z[t];
        else if (Y[t] != 0.0) fit += 0.5 * (Z[t] - Y[t]) * (Z[t] - Y[t]);
        smooth_x += Z[t] * (Z[t] - P[t]);
        smooth_c += Z[t] * (Z[t] - Q[t]);
    }
    return fit + beta * smooth_x + gamma * smooth_c;
}

double mlml_objective(int n, int m, const double *Y, int loss, const mlml_graph *SX,
                      const double *SC, double beta, double gamma, const double *Z,
                      double *work)
{
    return products(n, m, Y, loss, SX, SC, beta, gamma, Z, work, work + (size_t) n * m);
}

/* Monotone accelerated projected gradient (Beck and Teboulle's MFISTA, with
 * a restart of the momentum when a step does not decrease f):
 *   z_k = P(y_k - step grad f(y_k)),  x_k = z_k if f(z_k) <= f(x_{k-1}), else x_{k-1},
 *   accepted: y_{k+1} = x_k + ((t_k - 1) / t_{k+1}) (x_k - x_{k-1}),
 *             t_{k+1} = (1 + sqrt(1 + 4 t_k^2)) / 2;
 *   rejected: y_{k+1} = x_k, t_{k+1} = 1 (the next step is a plain
 *             projected-gradient step from x_k, which decreases f);
 * and t_k restarts at 1 (no momentum) when the step opposes the momentum,
 * (y_k - z_k)'(z_k - x_{k-1}) > 0 (O'Donoghue and Candes' gradient restart,
 * which keeps the linear rate of the plain method where f is strongly convex
 * and does not rely on f's values, which rounding blurs near the optimum);
 * y_1 = x_0, t_1 = 1.  f(x_k) never increases (a plain step, y_k = x_{k-1},
 * is always taken: it decreases f but for rounding, and refusing it would
 * repeat it forever), and the first iterate is the plain step from the
 * start.  The products S_X Z and Z S_C are linear in Z,
 * so those at y come from those at z_k and x_{k-1}: one product per step, as
 * plain projected gradient.  The stopping test: no entry of z_k moves from
 * y_k by more than tol (the projected-gradient step from y_k; at y_k =
 * x_{k-1} the plain method's test; a step rejected by rounding alone at the
 * optimum still stops, with x_k = x_{k-1}).  work: 8 n m doubles. */
int mlml_solve(int n, int m, const double *Y, int loss, const mlml_graph *SX,
               const double *SC, double beta, double gamma, double step, int max_iter,
               double tol, double *Z, double *trace, int *iter, double *work)
{
    if (n < 1 || m < 1 || SX->n != n || !(step > 0.0) || max_iter < 0 || beta < 0.0 ||
        gamma < 0.0)
        return MLSS_ERR_ARG;
    size_t nm = (size_t) n * m, sz = sizeof(double) * nm;
    /* x = Z (the iterate) and its products Px = S_X x, Qx = x S_C; the
       extrapolated point y (Py, Qy); the trial point z (Pz, Qz) */
    double *x = Z, *Px = work, *Qx = work + nm, *y = work + 2 * nm, *Py = work + 3 * nm,
        *Qy = work + 4 * nm, *z = work + 5 * nm, *Pz = work + 6 * nm, *Qz = work + 7 * nm;
    int status = MLSS_NOT_CONVERGED;
    double fx = products(n, m, Y, loss, SX, SC, beta, gamma, x, Px, Qx), t = 1.0;
    int plain = 1;  /* y = x: the next step is a plain projected-gradient step */
    trace[0] = fx;
    *iter = 0;
    memcpy(y, x, sz);
    memcpy(Py, Px, sz);
    memcpy(Qy, Qx, sz);
    for (int it = 1; it <= max_iter; it++) {
        /* z = P(y - step grad f(y)), grad = loss' + 2 beta (y - S_X y) +
           2 gamma (y - y S_C) */
        double delta = 0.0, dot = 0.0;
        for (size_t q = 0; q < nm; q++) {
            double g = 2.0 * beta * (y[q] - Py[q]) + 2.0 * gamma * (y[q] - Qy[q]);
            if (loss == MLML_LOSS_LINEAR) g -= Y[q];
            else if (Y[q] != 0.0) g += y[q] - Y[q];
            double v = y[q] - step * g;
            v = v > 1.0 ? 1.0 : (v < -1.0 ? -1.0 : v);
            delta = fmax(delta, fabs(v - y[q]));
            dot += (y[q] - v) * (v - x[q]);
            z[q] = v;
        }
        double fz = products(n, m, Y, loss, SX, SC, beta, gamma, z, Pz, Qz);
        /* a plain step with step <= 1 / L decreases f: a rise is rounding */
        int accept = plain || fz <= fx;
        if (accept) {
            /* the gradient restart: momentum that the step works against */
            if (dot > 0.0) t = 1.0;
            double tn = 0.5 * (1.0 + sqrt(1.0 + 4.0 * t * t)), a = (t - 1.0) / tn;
            for (size_t q = 0; q < nm; q++) {  /* x[q], Px[q], Qx[q]: x_{k-1} until set */
                y[q] = z[q] + a * (z[q] - x[q]);
                Py[q] = Pz[q] + a * (Pz[q] - Px[q]);
                Qy[q] = Qz[q] + a * (Qz[q] - Qx[q]);
                x[q] = z[q];
                Px[q] = Pz[q];
                Qx[q] = Qz[q];
            }
            fx = fz;
            t = tn;
            plain = a == 0.0;
        } else {
            memcpy(y, x, sz);
            memcpy(Py, Px, sz);
            memcpy(Qy, Qx, sz);
            t = 1.0;
            plain = 1;
        }
        trace[it] = fx;
        *iter = it;
        if (delta <= tol) {
            status = MLSS_OK;
            break;
        }
        R_CheckUserInterrupt();
    }
    return status;
}
