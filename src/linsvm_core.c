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
#include <R_ext/BLAS.h>
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

static double gap_pair(const lin_rows *D, const double *sign, const double *diag,
                       const double *cost, int loss, const double *alpha,
                       const double *w, double *u, double *primal);

double linsvm_relative_gap(const lin_rows *D, const double *y, const double *weight,
                           double C, int loss, const double *alpha, const double *w)
{
    int n = D->n;
    double *sign = (double *) R_alloc((size_t) n, sizeof(double));
    double *diag = (double *) R_alloc((size_t) n, sizeof(double));
    double *upper = (double *) R_alloc((size_t) n, sizeof(double));
    double *cost = (double *) R_alloc((size_t) n, sizeof(double));
    box(y, weight, C, loss, n, sign, diag, upper);
    double *u = (double *) R_alloc((size_t) lin_dim(D), sizeof(double));
    for (int i = 0; i < n; i++) cost[i] = C * (weight ? weight[i] : 1.0);
    /* D read at V'a, not at w: a certificate for any pair (w, a) */
    double primal, gap = gap_pair(D, sign, diag, cost, loss, alpha, w, u, &primal);
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

/* ---- the interior-point method ---------------------------------------------
 *
 * Dual coordinate descent converges linearly at a rate set by the condition
 * of Q = V V' (V_i = y_i x~_i), which unscaled features ruin (emotions as it
 * comes, a column times 1e6: gaps near 1 after 1000 sweeps).  Rescaling the
 * features inside a dual solver does not help: with x~ -> S x~ and the
 * penalty 0.5 v'S^{-2}v that keeps the problem the same (w = S^{-1}v), the
 * dual matrix is V S S^{-2} S V' = Q again.  What does help is to keep w as
 * a variable of its own:
 *
 *     min_{w,a} 0.5 w'w + 0.5 a'Dq a - 1'a   s.t.  w = V'a,  0 <= a <= U
 *
 * (the dual with Dq = 0, U = C for the hinge, Dq = 1/(2C), U = Inf for the
 * squared hinge), solved by a primal-dual interior-point method (Mehrotra's
 * predictor-corrector) with multipliers w for w = V'a (the KKT conditions
 * make them equal), z >= 0 for a >= 0 and v >= 0 for a <= U.  Each step
 * solves, with H = (Dq + z/a + v/(U - a))^{-1},
 *
 *     (I + V'HV) dw = -r1 + V'H r2,   da = H (r2 - V dw)
 *
 * (r1 = w - V'a, r2 the dual right-hand side) when p < n: w, and the
 * margins V w that decide the hinge, come from a p x p system whose Cholesky
 * factorisation is insensitive to the symmetric diagonal scaling that a
 * column's scale brings (it is equilibrated too, which keeps the pivots
 * comparable; a mutant without it was not distinguishable), so they are
 * accurate at any column scale -- computed as V'a they would inherit a's
 * rounding times the largest column.  When p >= n
 * it solves (Q + H^{-1}) da = r2 + V r1, dw = V'da - r1 with Q formed once.
 * Every solve is refined once.  The iterates are strictly inside the box,
 * so each gives the certificate P(w) - D(a) >= P(w) - min P with
 * D(a) = 1'a - 0.5||V'a||^2 - 0.5 a'Dq a: the method stops when it is below
 * `gap_tol` of P(w).  Returns 1 then (alpha, w the solution), 0 when it
 * failed (a factorisation, no progress, LINSVM_IPM_MAX steps): alpha and w
 * are then untouched.  *steps receives the steps taken. */
#define LINSVM_IPM_MAX 100
#define LINSVM_IPM_STEPS_EST 30.0     /* steps assumed when pricing the method */
#define LINSVM_IPM_MEM 2e7            /* most doubles of its dense matrices */
#define LINSVM_IPM_RATIO 20.0         /* switch once the sweeps cost 1/20 of it */

/* Its cost in multiply-adds (HUGE_VAL when its matrices would not fit), and
 * the route: *woodbury 1 for the p x p form. */
static double ipm_cost(const lin_rows *D, int *woodbury)
{
    double n = D->n, p = lin_dim(D);
    double per_row = (D->ind ? (double) D->ptr[D->n] / (n > 0 ? n : 1) : (double) D->d) + D->q + 1;
    double cw = n * p <= LINSVM_IPM_MEM && p * p <= LINSVM_IPM_MEM ?
        LINSVM_IPM_STEPS_EST * (n * p * p + p * p * p / 3.0 + 12.0 * n * p) : HUGE_VAL;
    double cn = n * n <= LINSVM_IPM_MEM ?
        n * n * per_row + LINSVM_IPM_STEPS_EST * (n * n * n / 3.0 + 4.0 * n * n + 4.0 * n * per_row)
        : HUGE_VAL;
    *woodbury = p < n && cw < HUGE_VAL;
    return *woodbury ? cw : cn;
}

typedef struct {
    const lin_rows *D;
    const double *sign;
    int n, p, woodbury;
    double *V;          /* n x p column-major (p x p route) */
    double *Vs;         /* its rows scaled by sqrt(H) */
    double *Q;          /* n x n, lower triangle (n x n route) */
    double *F;          /* the factor: p x p or n x n */
    double *eq;         /* its equilibration */
    double *H;          /* (Dq + G)^{-1}, n */
    double *tp, *tp2, *tn; /* scratch */
} ipm_sys;

/* out = V x (n) */
static void ipm_vx(ipm_sys *S, const double *x, double *out)
{
    int n = S->n, p = S->p, one = 1;
    double d1 = 1.0, d0 = 0.0;
    if (S->V) F77_CALL(dgemv)("N", &n, &p, &d1, S->V, &n, x, &one, &d0, out, &one FCONE);
    else for (int i = 0; i < n; i++) out[i] = S->sign[i] * lin_dot(S->D, i, x);
}

/* out = V'x (p) */
static void ipm_vtx(ipm_sys *S, const double *x, double *out)
{
    int n = S->n, p = S->p, one = 1;
    double d1 = 1.0, d0 = 0.0;
    if (S->V) {
        F77_CALL(dgemv)("T", &n, &p, &d1, S->V, &n, x, &one, &d0, out, &one FCONE);
    } else {
        memset(out, 0, sizeof(double) * (size_t) p);
        for (int i = 0; i < n; i++) if (x[i] != 0.0) lin_axpy(S->D, i, x[i] * S->sign[i], out);
    }
}

/* factor I + V'HV (p x p) or Q + H^{-1} (n x n); 0 when not positive definite */
static int ipm_factor(ipm_sys *S)
{
    int n = S->n, p = S->p, info = 0;
    if (S->woodbury) {
        double d1 = 1.0, d0 = 0.0;
        for (int j = 0; j < p; j++)
            for (int i = 0; i < n; i++)
                S->Vs[i + (size_t) n * j] = S->V[i + (size_t) n * j] * sqrt(S->H[i]);
        F77_CALL(dsyrk)("L", "T", &p, &n, &d1, S->Vs, &n, &d0, S->F, &p FCONE FCONE);
        for (int j = 0; j < p; j++) S->F[j + (size_t) p * j] += 1.0;
        for (int j = 0; j < p; j++) S->eq[j] = 1.0 / sqrt(S->F[j + (size_t) p * j]);
        for (int j = 0; j < p; j++)
            for (int i = j; i < p; i++) S->F[i + (size_t) p * j] *= S->eq[i] * S->eq[j];
        F77_CALL(dpotrf)("L", &p, S->F, &p, &info FCONE);
    } else {
        for (int j = 0; j < n; j++) {
            for (int i = j; i < n; i++) S->F[i + (size_t) n * j] = S->Q[i + (size_t) n * j];
            S->F[j + (size_t) n * j] += 1.0 / S->H[j];
            S->eq[j] = 1.0 / sqrt(S->F[j + (size_t) n * j]);
        }
        for (int j = 0; j < n; j++)
            for (int i = j; i < n; i++) S->F[i + (size_t) n * j] *= S->eq[i] * S->eq[j];
        F77_CALL(dpotrf)("L", &n, S->F, &n, &info FCONE);
    }
    return info == 0;
}

/* x = A^{-1} r, A the factored matrix (size m), refined once:
 * amul(S, x, out) gives A x */
static void ipm_refined(ipm_sys *S, int m, const double *r, double *x, double *res,
                        void (*amul)(ipm_sys *, const double *, double *))
{
    int one = 1, info = 0;
    for (int pass = 0; pass < 2; pass++) {
        double *t = pass ? res : x;
        if (pass) {
            amul(S, x, res);
            for (int i = 0; i < m; i++) res[i] = r[i] - res[i];
        } else {
            memcpy(x, r, sizeof(double) * (size_t) m);
        }
        for (int i = 0; i < m; i++) t[i] *= S->eq[i];
        F77_CALL(dpotrs)("L", &m, &one, S->F, &m, t, &m, &info FCONE);
        for (int i = 0; i < m; i++) t[i] *= S->eq[i];
        if (pass) for (int i = 0; i < m; i++) x[i] += res[i];
    }
}

/* (I + V'HV) x */
static void ipm_mul_p(ipm_sys *S, const double *x, double *out)
{
    ipm_vx(S, x, S->tn);
    for (int i = 0; i < S->n; i++) S->tn[i] *= S->H[i];
    ipm_vtx(S, S->tn, out);
    for (int j = 0; j < S->p; j++) out[j] += x[j];
}

/* (Q + H^{-1}) x */
static void ipm_mul_n(ipm_sys *S, const double *x, double *out)
{
    ipm_vtx(S, x, S->tp2);
    ipm_vx(S, S->tp2, out);
    for (int i = 0; i < S->n; i++) out[i] += x[i] / S->H[i];
}

/* the Newton direction (dw, da) for residual r1 (p) and right-hand side r2 (n) */
static void ipm_direction(ipm_sys *S, const double *r1, const double *r2, double *dw,
                          double *da, double *scratch_p, double *scratch_n)
{
    int n = S->n, p = S->p;
    if (S->woodbury) {
        for (int i = 0; i < n; i++) scratch_n[i] = S->H[i] * r2[i];
        ipm_vtx(S, scratch_n, scratch_p);
        for (int j = 0; j < p; j++) scratch_p[j] -= r1[j];
        ipm_refined(S, p, scratch_p, dw, S->tp, ipm_mul_p);
        ipm_vx(S, dw, da);
        for (int i = 0; i < n; i++) da[i] = S->H[i] * (r2[i] - da[i]);
    } else {
        ipm_vx(S, r1, scratch_n);
        for (int i = 0; i < n; i++) scratch_n[i] += r2[i];
        ipm_refined(S, n, scratch_n, da, S->tn, ipm_mul_n);
        ipm_vtx(S, da, dw);
        for (int j = 0; j < p; j++) dw[j] -= r1[j];
    }
}

/* the longest step in (0, 1] keeping a in (0, U) and z, v > 0, times tau */
static double ipm_step(int n, const double *a, const double *U, const double *z,
                       const double *v, const double *da, const double *dz,
                       const double *dv, double tau)
{
    double t = 1.0 / tau;
    for (int i = 0; i < n; i++) {
        if (da[i] < 0) t = fmin(t, -a[i] / da[i]);
        if (dz[i] < 0) t = fmin(t, -z[i] / dz[i]);
        if (R_FINITE(U[i])) {
            if (da[i] > 0) t = fmin(t, (U[i] - a[i]) / da[i]);
            if (dv[i] < 0) t = fmin(t, -v[i] / dv[i]);
        }
    }
    return fmin(1.0, tau * t);
}

/* P(w) - D(a) for any w and feasible a, D(a) = 1'a - 0.5||V'a||^2 - 0.5 a'Dq a
 * (weak duality: an upper bound on P(w) - min P); P(w) in *primal */
static double gap_pair(const lin_rows *D, const double *sign, const double *diag,
                       const double *cost, int loss, const double *alpha,
                       const double *w, double *u, double *primal)
{
    int p = lin_dim(D);
    double ww = 0.0, uu = 0.0, loss_sum = 0.0, dual = 0.0;
    memset(u, 0, sizeof(double) * (size_t) p);
    for (int i = 0; i < D->n; i++) {
        if (alpha[i] != 0.0) lin_axpy(D, i, alpha[i] * sign[i], u);
        double slack = 1.0 - sign[i] * lin_dot(D, i, w);
        if (slack > 0) loss_sum += cost[i] * (loss == LINSVM_HINGE ? slack : slack * slack);
        dual += alpha[i] - 0.5 * diag[i] * alpha[i] * alpha[i];
    }
    for (int j = 0; j < p; j++) { ww += w[j] * w[j]; uu += u[j] * u[j]; }
    *primal = 0.5 * ww + loss_sum;
    return *primal - (dual - 0.5 * uu);
}

static int ipm_dual(const lin_rows *D, const double *sign, const double *diag,
                    const double *upper, const double *cost, int loss, double gap_tol,
                    double *alpha, double *w, int *steps)
{
    int n = D->n, p = lin_dim(D), woodbury = 1;
    *steps = 0;
    if (n == 0 || p == 0 || !R_FINITE(ipm_cost(D, &woodbury))) return 0;
    ipm_sys S;
    S.D = D; S.sign = sign; S.n = n; S.p = p; S.woodbury = woodbury;
    S.V = S.Vs = S.Q = NULL;
    size_t mm = woodbury ? (size_t) p * p : (size_t) n * n;
    S.F = (double *) R_alloc(mm, sizeof(double));
    S.eq = (double *) R_alloc((size_t) (woodbury ? p : n), sizeof(double));
    S.H = (double *) R_alloc((size_t) n, sizeof(double));
    S.tp = (double *) R_alloc((size_t) p, sizeof(double));
    S.tp2 = (double *) R_alloc((size_t) p, sizeof(double));
    S.tn = (double *) R_alloc((size_t) n, sizeof(double));
    double *row = (double *) R_alloc((size_t) p, sizeof(double));
    if (woodbury) {
        S.V = (double *) R_alloc((size_t) n * p, sizeof(double));
        S.Vs = (double *) R_alloc((size_t) n * p, sizeof(double));
        for (int i = 0; i < n; i++) {
            memset(row, 0, sizeof(double) * (size_t) p);
            lin_axpy(D, i, sign[i], row);
            for (int j = 0; j < p; j++) S.V[i + (size_t) n * j] = row[j];
        }
    } else {
        S.Q = (double *) R_alloc((size_t) n * n, sizeof(double));
        for (int j = 0; j < n; j++) {
            memset(row, 0, sizeof(double) * (size_t) p);
            lin_axpy(D, j, sign[j], row);
            for (int i = j; i < n; i++) S.Q[i + (size_t) n * j] = sign[i] * lin_dot(D, i, row);
            if (j % 64 == 0) R_CheckUserInterrupt();
        }
    }
    double *a = (double *) R_alloc((size_t) n, sizeof(double));
    double *z = (double *) R_alloc((size_t) n, sizeof(double));
    double *v = (double *) R_alloc((size_t) n, sizeof(double));
    double *ww = (double *) R_alloc((size_t) p, sizeof(double));
    double *r1 = (double *) R_alloc((size_t) p, sizeof(double));
    double *g = (double *) R_alloc((size_t) n, sizeof(double));
    double *r2 = (double *) R_alloc((size_t) n, sizeof(double));
    double *rz = (double *) R_alloc((size_t) n, sizeof(double));
    double *rv = (double *) R_alloc((size_t) n, sizeof(double));
    double *da = (double *) R_alloc((size_t) n, sizeof(double));
    double *dz = (double *) R_alloc((size_t) n, sizeof(double));
    double *dv = (double *) R_alloc((size_t) n, sizeof(double));
    double *daa = (double *) R_alloc((size_t) n, sizeof(double));
    double *dza = (double *) R_alloc((size_t) n, sizeof(double));
    double *dva = (double *) R_alloc((size_t) n, sizeof(double));
    double *dw = (double *) R_alloc((size_t) p, sizeof(double));
    double *sp = (double *) R_alloc((size_t) p, sizeof(double));
    double *sn = (double *) R_alloc((size_t) n, sizeof(double));
    double *u = (double *) R_alloc((size_t) p, sizeof(double));
    int ncomp = 0;
    /* start: a in the middle of its box (1 without an upper bound), w = V'a,
     * the multipliers making the dual residual zero, plus one */
    for (int i = 0; i < n; i++) {
        a[i] = R_FINITE(upper[i]) ? 0.5 * upper[i] : 1.0;
        ncomp += 1 + (R_FINITE(upper[i]) ? 1 : 0);
    }
    ipm_vtx(&S, a, ww);
    ipm_vx(&S, ww, g);
    for (int i = 0; i < n; i++) {
        g[i] += diag[i] * a[i] - 1.0;
        z[i] = fmax(g[i], 0.0) + 1.0;
        v[i] = R_FINITE(upper[i]) ? fmax(-g[i], 0.0) + 1.0 : 0.0;
    }
    int ok = 0, since_best = 0;
    double best_gap = HUGE_VAL;
    for (int it = 0; it < LINSVM_IPM_MAX; it++) {
        *steps = it + 1;
        R_CheckUserInterrupt();
        /* residuals r1 = w - V'a, rd = V w + Dq a - 1 - z + v; complementarity */
        ipm_vtx(&S, a, r1);
        for (int j = 0; j < p; j++) r1[j] = ww[j] - r1[j];
        ipm_vx(&S, ww, g);
        double mu = 0.0;
        for (int i = 0; i < n; i++) {
            g[i] += diag[i] * a[i] - 1.0 - z[i] + (R_FINITE(upper[i]) ? v[i] : 0.0);
            mu += a[i] * z[i] + (R_FINITE(upper[i]) ? (upper[i] - a[i]) * v[i] : 0.0);
            S.H[i] = 1.0 / (diag[i] + z[i] / a[i] +
                            (R_FINITE(upper[i]) ? v[i] / (upper[i] - a[i]) : 0.0));
        }
        mu /= ncomp;
        if (!ipm_factor(&S)) return 0;
        /* predictor: complementarity targets rz = -a z, rv = -(U - a) v; the
         * a-block right-hand side is -rd + rz/a - rv/(U - a) */
        for (int i = 0; i < n; i++) r2[i] = -g[i] - z[i] + (R_FINITE(upper[i]) ? v[i] : 0.0);
        ipm_direction(&S, r1, r2, dw, daa, sp, sn);
        for (int i = 0; i < n; i++) {
            dza[i] = (-a[i] * z[i] - z[i] * daa[i]) / a[i];
            dva[i] = R_FINITE(upper[i]) ?
                (-(upper[i] - a[i]) * v[i] + v[i] * daa[i]) / (upper[i] - a[i]) : 0.0;
        }
        double ta = ipm_step(n, a, upper, z, v, daa, dza, dva, 1.0), mu_aff = 0.0;
        for (int i = 0; i < n; i++) {
            mu_aff += (a[i] + ta * daa[i]) * (z[i] + ta * dza[i]);
            if (R_FINITE(upper[i]))
                mu_aff += (upper[i] - a[i] - ta * daa[i]) * (v[i] + ta * dva[i]);
        }
        mu_aff /= ncomp;
        double sigma = mu > 0 ? pow(mu_aff / mu, 3.0) : 0.0;
        if (sigma > 1.0) sigma = 1.0;
        /* corrector */
        for (int i = 0; i < n; i++) {
            rz[i] = sigma * mu - a[i] * z[i] - daa[i] * dza[i];
            rv[i] = R_FINITE(upper[i]) ?
                sigma * mu - (upper[i] - a[i]) * v[i] + daa[i] * dva[i] : 0.0;
            r2[i] = -g[i] + rz[i] / a[i] - (R_FINITE(upper[i]) ? rv[i] / (upper[i] - a[i]) : 0.0);
        }
        ipm_direction(&S, r1, r2, dw, da, sp, sn);
        for (int i = 0; i < n; i++) {
            dz[i] = (rz[i] - z[i] * da[i]) / a[i];
            dv[i] = R_FINITE(upper[i]) ? (rv[i] + v[i] * da[i]) / (upper[i] - a[i]) : 0.0;
        }
        double t = ipm_step(n, a, upper, z, v, da, dz, dv, fmax(0.99, 1.0 - mu));
        if (!(t > 0) || !R_FINITE(t)) return 0;
        for (int j = 0; j < p; j++) ww[j] += t * dw[j];
        for (int i = 0; i < n; i++) {
            double ai = a[i] + t * da[i];
            /* strictly inside the box in floating point too */
            if (!(ai > 0)) ai = 0.5 * a[i];
            if (R_FINITE(upper[i]) && !(ai < upper[i])) ai = 0.5 * (a[i] + upper[i]);
            a[i] = ai;
            z[i] = fmax(z[i] + t * dz[i], 1e-300);
            if (R_FINITE(upper[i])) v[i] = fmax(v[i] + t * dv[i], 1e-300);
        }
        /* the certificate at the new point */
        double primal, gap = gap_pair(D, sign, diag, cost, loss, a, ww, u, &primal);
        if (primal > 0 && gap <= gap_tol * primal) { ok = 1; break; }
        if (!R_FINITE(gap)) return 0;
        if (gap < 0.5 * best_gap) { best_gap = gap; since_best = 0; }
        else if (++since_best >= 10) return 0;    /* no progress: a stall */
    }
    if (!ok) return 0;
    memcpy(alpha, a, sizeof(double) * (size_t) n);
    memcpy(w, ww, sizeof(double) * (size_t) p);
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

    /* the interior-point method, priced once: dual coordinate descent hands
     * over to it when the gap is still open after sweeps that cost
     * 1/LINSVM_IPM_RATIO of it, or when it stalls or reaches max_iter */
    int route, ipm_tried = 0, ipm_steps = 0;
    double icost = ipm_cost(D, &route);
    /* its relative gap: LINSVM_GAP_TOL at LIBLINEAR's default eps (0.1),
     * tighter in proportion to a tighter eps */
    double ipm_tol = LINSVM_GAP_TOL * fmin(1.0, eps / 0.1);
#define TRY_IPM()                                                               \
    do {                                                                        \
        const void *vmax_ = vmaxget();                                          \
        ipm_tried = 1;                                                          \
        int ok_ = ipm_dual(D, sign, diag, upper, cost, loss, ipm_tol,           \
                           alpha, w, &ipm_steps);                               \
        vmaxset(vmax_);                                                         \
        if (ok_) { status = LINSVM_OK; goto done; }                             \
    } while (0)

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
        if (!ipm_tried && k % 10 == 0 && LINSVM_IPM_RATIO * k * work >= icost) {
            double primal, gap = gap_at(D, sign, diag, cost, loss, alpha, w, &primal);
            if (primal > 0 && gap > LINSVM_GAP_TOL * primal) TRY_IPM();
        }
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
                if (!moved) {
                    if (!ipm_tried && R_FINITE(icost)) TRY_IPM();
                    status = LINSVM_STALLED;
                    break;
                }
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
    if (status == LINSVM_MAXITER && !ipm_tried && max_iter > 0 &&
        LINSVM_IPM_RATIO * max_iter * work >= icost)
        TRY_IPM();
done:
#undef TRY_IPM
    *iter = k + ipm_steps;
    return status;
}
