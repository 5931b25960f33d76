/* Dual coordinate descent for the L2-regularised linear SVM; see linsvm_core.h.
 * The shrinking rule is Hsieh et al. (2008), Algorithm 3, as in LIBLINEAR:
 * a variable at a bound whose gradient points out of the box by more than the
 * previous sweep's extreme projected gradients leaves the active set; when
 * the active set has converged, all variables come back for a final check. */
#include <math.h>
#include <string.h>
#include <R.h>
#include <R_ext/Utils.h>
#include "linsvm_core.h"

/* xorshift32: the order of the coordinates, reproducible from the seed */
static unsigned int next_random(unsigned int *state)
{
    unsigned int x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *state = x;
}

static void box(const double *y, const double *weight, double C, int loss, int n,
                double *sign, double *diag, double *upper)
{
    for (int i = 0; i < n; i++) {
        double Ci = C * (weight ? weight[i] : 1.0);
        sign[i] = y[i] > 0 ? 1.0 : -1.0;
        diag[i] = loss == LINSVM_HINGE ? 0.0 : 0.5 / Ci;
        upper[i] = loss == LINSVM_HINGE ? Ci : HUGE_VAL;
    }
}

void linsvm_dual_from_primal(const lin_rows *D, const double *y, const double *weight,
                             double C, int loss, const double *w, double *alpha)
{
    for (int i = 0; i < D->n; i++) {
        double Ci = C * (weight ? weight[i] : 1.0);
        double margin = (y[i] > 0 ? 1.0 : -1.0) * lin_dot(D, i, w);
        if (loss == LINSVM_HINGE)
            alpha[i] = margin < 1.0 ? Ci : 0.0;
        else
            alpha[i] = margin < 1.0 ? 2.0 * Ci * (1.0 - margin) : 0.0;
    }
}

int linsvm_fit(const lin_rows *D, const double *y, const double *weight, double C,
               int loss, double eps, int max_iter, unsigned int seed, double *alpha,
               double *w, int *iter)
{
    int n = D->n, p = lin_dim(D), active = n, k = 0, status = LINSVM_MAXITER;
    double *sign = (double *) R_alloc((size_t) n, sizeof(double));
    double *diag = (double *) R_alloc((size_t) n, sizeof(double));
    double *upper = (double *) R_alloc((size_t) n, sizeof(double));
    double *QD = (double *) R_alloc((size_t) n, sizeof(double));
    int *index = (int *) R_alloc((size_t) n, sizeof(int));
    unsigned int state = seed ? seed : 2463534242u;
    box(y, weight, C, loss, n, sign, diag, upper);

    memset(w, 0, sizeof(double) * (size_t) p);
    for (int i = 0; i < n; i++) {
        if (!(alpha[i] > 0)) alpha[i] = 0.0;          /* also catches NaN */
        if (alpha[i] > upper[i]) alpha[i] = upper[i];
        if (alpha[i] > 0) lin_axpy(D, i, alpha[i] * sign[i], w);
        QD[i] = diag[i] + lin_sqnorm(D, i);
        index[i] = i;
    }

    double PGmax_old = HUGE_VAL, PGmin_old = -HUGE_VAL;
    while (k < max_iter) {
        double PGmax_new = -HUGE_VAL, PGmin_new = HUGE_VAL;
        for (int s = 0; s < active; s++) {            /* shuffle the active set */
            int j = s + (int) (next_random(&state) % (unsigned int) (active - s));
            int tmp = index[s]; index[s] = index[j]; index[j] = tmp;
        }
        for (int s = 0; s < active; s++) {
            int i = index[s];
            if (QD[i] <= 0) continue;                 /* an empty row without bias */
            double G = sign[i] * lin_dot(D, i, w) - 1.0 + alpha[i] * diag[i], PG = 0.0;
            if (alpha[i] == 0.0) {
                if (G > PGmax_old) {                  /* shrink: stays at 0 */
                    active--;
                    index[s] = index[active]; index[active] = i;
                    s--;
                    continue;
                }
                if (G < 0) PG = G;
            } else if (alpha[i] == upper[i]) {
                if (G < PGmin_old) {                  /* shrink: stays at C */
                    active--;
                    index[s] = index[active]; index[active] = i;
                    s--;
                    continue;
                }
                if (G > 0) PG = G;
            } else {
                PG = G;
            }
            if (PG > PGmax_new) PGmax_new = PG;
            if (PG < PGmin_new) PGmin_new = PG;
            if (fabs(PG) > 1e-12) {
                double old = alpha[i];
                alpha[i] = fmin(fmax(old - G / QD[i], 0.0), upper[i]);
                lin_axpy(D, i, (alpha[i] - old) * sign[i], w);
            }
        }
        k++;
        if (k % 10 == 0) R_CheckUserInterrupt();
        if (PGmax_new - PGmin_new <= eps) {
            if (active == n) { status = LINSVM_OK; break; }
            active = n;                               /* unshrink and check all */
            PGmax_old = HUGE_VAL;
            PGmin_old = -HUGE_VAL;
            continue;
        }
        PGmax_old = PGmax_new <= 0 ? HUGE_VAL : PGmax_new;
        PGmin_old = PGmin_new >= 0 ? -HUGE_VAL : PGmin_new;
    }
    *iter = k;
    return status;
}
