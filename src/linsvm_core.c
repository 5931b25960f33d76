/* Dual coordinate descent for the L2-regularised linear SVM; see linsvm_core.h.
 * The shrinking rule is Hsieh et al. (2008), Algorithm 3, as in LIBLINEAR:
 * a variable at a bound whose gradient points out of the box by more than the
 * previous sweep's extreme projected gradients leaves the active set; when
 * the active set has converged, all variables come back for a final check. */
#define USE_FC_LEN_T
#include <math.h>
#include <string.h>
#include <R.h>
#include <R_ext/Utils.h>
#include <R_ext/Lapack.h>
#ifndef FCONE
#define FCONE
#endif
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

/* The duality gap P(w) - (-f(a)) at dual point alpha and w = sum_i a_i y_i x~_i,
 * and P(w) in *primal: P(w) = 0.5 w'w + sum_i C_i max(0, 1 - y_i w'x~_i)^q and
 * -f(a) = sum_i a_i - 0.5 w'w - 0.5 sum_i D_ii a_i^2.  Both sides are sums of
 * nonnegative terms but -f(a), so the gap is read relative to P(w) (> 0). */
static double gap_at(const lin_rows *D, const double *sign, const double *diag,
                     const double *upper_c, int loss, const double *alpha,
                     const double *w, double *primal)
{
    int p = lin_dim(D);
    double ww = 0.0, loss_sum = 0.0, dual = 0.0;
    for (int j = 0; j < p; j++) ww += w[j] * w[j];
    for (int i = 0; i < D->n; i++) {
        double slack = 1.0 - sign[i] * lin_dot(D, i, w);
        if (slack > 0) loss_sum += upper_c[i] * (loss == LINSVM_HINGE ? slack : slack * slack);
        dual += alpha[i] - 0.5 * diag[i] * alpha[i] * alpha[i];
    }
    *primal = 0.5 * ww + loss_sum;
    return *primal - (dual - 0.5 * ww);
}

double linsvm_relative_gap(const lin_rows *D, const double *y, const double *weight,
                           double C, int loss, const double *alpha, const double *w)
{
    int n = D->n;
    double *sign = (double *) R_alloc((size_t) n, sizeof(double));
    double *diag = (double *) R_alloc((size_t) n, sizeof(double));
    double *upper = (double *) R_alloc((size_t) n, sizeof(double));
    double *cost = (double *) R_alloc((size_t) n, sizeof(double));
    box(y, weight, C, loss, n, sign, diag, upper);
    for (int i = 0; i < n; i++) cost[i] = C * (weight ? weight[i] : 1.0);
    double primal, gap = gap_at(D, sign, diag, cost, loss, alpha, w, &primal);
    return primal > 0 ? gap / primal : gap;
}

/* A Newton step on the current face of the dual (Hsieh et al. 2008 leave
 * dual coordinate descent to itself; it is slow when the rows are nearly
 * parallel, as unscaled features make them): with the variables at a bound
 * held, the free ones F solve (Q_FF + D_FF) delta = -G_F, the step is
 * clipped to the box and scaled by the exact line search of the quadratic
 * dual, so the dual objective never increases.  Once coordinate descent has
 * found the bounds of the optimum, one step reaches it.  Skipped when F has
 * more than LINSVM_FACE_MAX variables or its matrix is not positive definite
 * in double precision, when F has more variables than there are
 * dimensions, or when the step would cost more than `budget` multiply-adds.
 * Returns 1 when a step was taken. */
#define LINSVM_FACE_MAX 2000
#define LINSVM_NEWTON_EVERY 20
static int face_newton_work(const lin_rows *D, const double *sign, const double *diag,
                            const double *upper, double *alpha, double *w, double budget);

static int face_newton(const lin_rows *D, const double *sign, const double *diag,
                       const double *upper, double *alpha, double *w, double budget)
{
    const void *vmax = vmaxget();                     /* its scratch freed on return */
    int taken = face_newton_work(D, sign, diag, upper, alpha, w, budget);
    vmaxset(vmax);
    return taken;
}

static int face_newton_work(const lin_rows *D, const double *sign, const double *diag,
                            const double *upper, double *alpha, double *w, double budget)
{
    int n = D->n, p = lin_dim(D), f = 0;
    for (int i = 0; i < n; i++) if (alpha[i] > 0 && alpha[i] < upper[i]) f++;
    /* its cost, forming and factoring the face's matrix, in multiply-adds */
    double per_row = D->ind ? (double) D->ptr[n] / (n > 0 ? n : 1) : (double) D->d;
    per_row += D->q + 1;
    if ((double) f * f * per_row + (double) f * f * f / 3.0 + (double) f * p > budget) return 0;
    /* more free variables than dimensions: not the optimum's face, whose free
     * variables sit on the margin (y_i w'x~_i = 1, generically at most p of
     * them), and a singular system */
    if (f == 0 || f > LINSVM_FACE_MAX || f > p) return 0;
    int *F = (int *) R_alloc((size_t) f, sizeof(int));
    double *H = (double *) R_alloc((size_t) f * f, sizeof(double));
    double *rhs = (double *) R_alloc((size_t) f, sizeof(double));
    double *row = (double *) R_alloc((size_t) p, sizeof(double));
    double *u = (double *) R_alloc((size_t) p, sizeof(double));
    double *dlt = (double *) R_alloc((size_t) f, sizeof(double));
    f = 0;
    for (int i = 0; i < n; i++) if (alpha[i] > 0 && alpha[i] < upper[i]) F[f++] = i;
    double hmax = 0.0;
    for (int b = 0; b < f; b++) {
        int j = F[b];
        memset(row, 0, sizeof(double) * (size_t) p);
        lin_axpy(D, j, sign[j], row);
        for (int a = b; a < f; a++) {
            double q = sign[F[a]] * lin_dot(D, F[a], row);
            H[a + (size_t) f * b] = H[b + (size_t) f * a] = q;
        }
        H[b + (size_t) f * b] += diag[j];
        if (H[b + (size_t) f * b] > hmax) hmax = H[b + (size_t) f * b];
        rhs[b] = -(sign[j] * lin_dot(D, j, w) - 1.0 + alpha[j] * diag[j]);
    }
    for (int b = 0; b < f; b++) H[b + (size_t) f * b] += 1e-12 * hmax;
    int info = 0, one = 1;
    F77_CALL(dpotrf)("L", &f, H, &f, &info FCONE);
    if (info != 0) return 0;
    F77_CALL(dpotrs)("L", &f, &one, H, &f, rhs, &f, &info FCONE);
    if (info != 0) return 0;
    /* d = clip(alpha + delta) - alpha on F; gd = G'd, dHd = d'(Q + D)d */
    double gd = 0.0, dHd = 0.0;
    memset(u, 0, sizeof(double) * (size_t) p);
    for (int b = 0; b < f; b++) {
        int j = F[b];
        double target = fmin(fmax(alpha[j] + rhs[b], 0.0), upper[j]);
        dlt[b] = target - alpha[j];
        if (!R_FINITE(dlt[b])) return 0;
        gd += (sign[j] * lin_dot(D, j, w) - 1.0 + alpha[j] * diag[j]) * dlt[b];
        dHd += diag[j] * dlt[b] * dlt[b];
        if (dlt[b] != 0.0) lin_axpy(D, j, dlt[b] * sign[j], u);
    }
    for (int k = 0; k < p; k++) dHd += u[k] * u[k];
    if (!(gd < 0) || !(dHd > 0)) return 0;
    double t = fmin(1.0, -gd / dHd);
    for (int b = 0; b < f; b++) {
        int j = F[b];
        alpha[j] = fmin(fmax(alpha[j] + t * dlt[b], 0.0), upper[j]);
    }
    for (int k = 0; k < p; k++) w[k] += t * u[k];
    return 1;
}

int linsvm_fit(const lin_rows *D, const double *y, const double *weight, double C,
               int loss, double eps, int max_iter, unsigned int seed, double *alpha,
               double *w, int *iter)
{
    int n = D->n, p = lin_dim(D), active = n, k = 0, status = LINSVM_MAXITER;
    double *sign = (double *) R_alloc((size_t) n, sizeof(double));
    double *diag = (double *) R_alloc((size_t) n, sizeof(double));
    double *upper = (double *) R_alloc((size_t) n, sizeof(double));
    double *cost = (double *) R_alloc((size_t) n, sizeof(double));
    double *QD = (double *) R_alloc((size_t) n, sizeof(double));
    int *index = (int *) R_alloc((size_t) n, sizeof(int));
    unsigned int state = seed ? seed : 2463534242u;
    double eps_now = eps;
    box(y, weight, C, loss, n, sign, diag, upper);
    for (int i = 0; i < n; i++) cost[i] = C * (weight ? weight[i] : 1.0);
    /* the multiply-adds of one sweep */
    double work = (D->ind ? (double) D->ptr[n] : (double) n * D->d) + (double) n * (D->q + 1);

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
        int moved = 0;
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
                if (alpha[i] != old) moved = 1;
            }
        }
        k++;
        if (k % 10 == 0) R_CheckUserInterrupt();
        /* periodic steps cost at most 5 times the sweeps between them */
        if (k % LINSVM_NEWTON_EVERY == 0 &&
            face_newton(D, sign, diag, upper, alpha, w, 5.0 * LINSVM_NEWTON_EVERY * work)) {
            active = n;                               /* the bounds may change: check all */
            PGmax_old = HUGE_VAL;
            PGmin_old = -HUGE_VAL;
            continue;
        }
        if (PGmax_new - PGmin_new <= eps_now) {
            if (active == n) {
                /* LIBLINEAR's test holds on all instances: stop when the duality
                 * gap, an upper bound on P(w) - min P, is also below
                 * LINSVM_GAP_TOL of P(w) (the spread of the projected gradients
                 * depends on the scale of the features; the relative gap does
                 * not).  Otherwise tighten the spread and go on; a sweep that
                 * moved nothing cannot close the gap: a stall. */
                double primal, gap = gap_at(D, sign, diag, cost, loss, alpha, w, &primal);
                if (!(primal > 0) || gap <= LINSVM_GAP_TOL * primal) { status = LINSVM_OK; break; }
                /* a step costing at most half the work done so far (or the
                 * periodic budget) */
                double budget = fmax(5.0 * LINSVM_NEWTON_EVERY, 0.5 * k) * work;
                if (face_newton(D, sign, diag, upper, alpha, w, budget)) moved = 1;
                if (!moved) { status = LINSVM_STALLED; break; }
                double spread = PGmax_new - PGmin_new;
                eps_now = 0.1 * (spread < eps_now ? spread : eps_now);
            }
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
