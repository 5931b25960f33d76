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

int mlml_solve(int n, int m, const double *Y, int loss, const mlml_graph *SX,
               const double *SC, double beta, double gamma, double step, int max_iter,
               double tol, double *Z, double *trace, int *iter, double *work)
{
    if (n < 1 || m < 1 || SX->n != n || !(step > 0.0) || max_iter < 0 || beta < 0.0 ||
        gamma < 0.0)
        return MLSS_ERR_ARG;
    size_t nm = (size_t) n * m;
    double *P = work, *Q = work + nm;
    int status = MLSS_NOT_CONVERGED;
    double delta = 0.0;   /* the largest move of an entry in the last step */
    *iter = 0;
    for (int it = 0;; it++) {
        trace[it] = products(n, m, Y, loss, SX, SC, beta, gamma, Z, P, Q);
        *iter = it;
        if (it > 0 && delta <= tol) {
            status = MLSS_OK;
            break;
        }
        if (it == max_iter) break;
        delta = 0.0;
        /* grad = loss' + 2 beta (Z - S_X Z) + 2 gamma (Z - Z S_C); a step, then
           the projection onto the box */
        for (size_t t = 0; t < nm; t++) {
            double g = 2.0 * beta * (Z[t] - P[t]) + 2.0 * gamma * (Z[t] - Q[t]);
            if (loss == MLML_LOSS_LINEAR) g -= Y[t];
            else if (Y[t] != 0.0) g += Z[t] - Y[t];
            double z = Z[t] - step * g;
            z = z > 1.0 ? 1.0 : (z < -1.0 ? -1.0 : z);
            delta = fmax(delta, fabs(z - Z[t]));
            Z[t] = z;
        }
        R_CheckUserInterrupt();
    }
    return status;
}
