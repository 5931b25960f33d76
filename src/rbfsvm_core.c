/* C-SVC with the RBF kernel: libsvm's model on a shared kernel (see
 * rbfsvm_core.h).  Plain C on double*; status codes, no errors. */
#include <math.h>
#include <string.h>
#include <float.h>
#include "rbfsvm_core.h"
#include "status.h"

#define TAU 1e-12
#define LOWER 0
#define UPPER 1
#define FREE 2

void rbf_kernel_column(const rbf_kernel *k, const int *rows, int l, int c, double *out)
{
    if (k->K) {
        const double *col = k->K + (size_t) k->n * (size_t) c;
        for (int t = 0; t < l; t++) out[t] = col[rows[t]];
        return;
    }
    const double *xc = k->xt + (size_t) k->d * (size_t) c;
    for (int t = 0; t < l; t++) {
        const double *xr = k->xt + (size_t) k->d * (size_t) rows[t];
        double s = 0;
        for (int f = 0; f < k->d; f++) {
            double e = xr[f] - xc[f];
            s += e * e;
        }
        out[t] = exp(-k->gamma * s);
    }
}

static inline void set_status(char *st, const double *alpha, int i, double C)
{
    st[i] = alpha[i] >= C ? UPPER : (alpha[i] <= 0 ? LOWER : FREE);
}

/* libsvm's Solver::select_working_set() (Q_i[j] = y_i y_j K_ij, QD = K_ii = 1).
 * Returns 1 when optimal (m - M < eps); *i, *j otherwise, ci = K(., rows[i]). */
static int select_ws(const rbf_kernel *k, const int *rows, const double *y, int l,
                     double eps, rbf_work *w, int *out_i, int *out_j)
{
    const double *G = w->G;
    const char *st = w->st;
    double Gmax = -HUGE_VAL, Gmax2 = -HUGE_VAL, obj_min = HUGE_VAL;
    int imax = -1, jmin = -1;
    for (int t = 0; t < l; t++) {
        if (y[t] > 0) {
            if (st[t] != UPPER && -G[t] >= Gmax) { Gmax = -G[t]; imax = t; }
        } else {
            if (st[t] != LOWER && G[t] >= Gmax) { Gmax = G[t]; imax = t; }
        }
    }
    if (imax < 0) return 1;
    int i = imax;
    rbf_kernel_column(k, rows, l, rows[i], w->ci);
    const double *Ki = w->ci;
    double Kii = 1.0;  /* the RBF kernel's diagonal */
    for (int j = 0; j < l; j++) {
        if (y[j] > 0) {
            if (st[j] != LOWER) {
                double gd = Gmax + G[j];
                if (G[j] >= Gmax2) Gmax2 = G[j];
                if (gd > 0) {
                    double qc = Kii + 1.0 - 2.0 * Ki[j];
                    double od = -(gd * gd) / (qc > 0 ? qc : TAU);
                    if (od <= obj_min) { jmin = j; obj_min = od; }
                }
            }
        } else {
            if (st[j] != UPPER) {
                double gd = Gmax - G[j];
                if (-G[j] >= Gmax2) Gmax2 = -G[j];
                if (gd > 0) {
                    double qc = Kii + 1.0 - 2.0 * Ki[j];
                    double od = -(gd * gd) / (qc > 0 ? qc : TAU);
                    if (od <= obj_min) { jmin = j; obj_min = od; }
                }
            }
        }
    }
    if (Gmax + Gmax2 < eps || jmin == -1) return 1;
    *out_i = i;
    *out_j = jmin;
    return 0;
}

/* libsvm's Solver::calculate_rho(). */
static double calc_rho(const double *y, int l, const double *G, const char *st)
{
    double ub = HUGE_VAL, lb = -HUGE_VAL, sum_free = 0;
    int nr_free = 0;
    for (int i = 0; i < l; i++) {
        double yG = y[i] * G[i];
        if (st[i] == UPPER) {
            if (y[i] < 0) ub = fmin(ub, yG); else lb = fmax(lb, yG);
        } else if (st[i] == LOWER) {
            if (y[i] > 0) ub = fmin(ub, yG); else lb = fmax(lb, yG);
        } else {
            nr_free++;
            sum_free += yG;
        }
    }
    return nr_free > 0 ? sum_free / nr_free : (ub + lb) / 2;
}

int rbfsvm_solve(const rbf_kernel *k, const int *rows, const double *y, int l, double C,
                 double eps, long max_iter, rbf_work *w, double *alpha, double *rho,
                 long *iter)
{
    double *G = w->G;
    char *st = w->st;
    for (int t = 0; t < l; t++) {
        alpha[t] = 0;
        G[t] = -1;
        st[t] = LOWER;
    }
    long it = 0;
    int status = MLSS_OK;
    for (;;) {
        int i, j;
        if (select_ws(k, rows, y, l, eps, w, &i, &j)) break;
        if (it >= max_iter) { status = MLSS_NOT_CONVERGED; break; }
        it++;
        const double *Ki = w->ci;  /* column i, from select_ws() */
        rbf_kernel_column(k, rows, l, rows[j], w->cj);
        const double *Kj = w->cj;
        double oi = alpha[i], oj = alpha[j];
        double qc = 2.0 - 2.0 * Ki[j];  /* K_ii + K_jj - 2 K_ij, whatever the signs */
        if (qc <= 0) qc = TAU;
        if (y[i] != y[j]) {
            double delta = (-G[i] - G[j]) / qc, diff = alpha[i] - alpha[j];
            alpha[i] += delta;
            alpha[j] += delta;
            if (diff > 0) {
                if (alpha[j] < 0) { alpha[j] = 0; alpha[i] = diff; }
            } else {
                if (alpha[i] < 0) { alpha[i] = 0; alpha[j] = -diff; }
            }
            if (diff > 0) {  /* C_i - C_j = 0 */
                if (alpha[i] > C) { alpha[i] = C; alpha[j] = C - diff; }
            } else {
                if (alpha[j] > C) { alpha[j] = C; alpha[i] = C + diff; }
            }
        } else {
            double delta = (G[i] - G[j]) / qc, sum = alpha[i] + alpha[j];
            alpha[i] -= delta;
            alpha[j] += delta;
            if (sum > C) {
                if (alpha[i] > C) { alpha[i] = C; alpha[j] = sum - C; }
            } else {
                if (alpha[j] < 0) { alpha[j] = 0; alpha[i] = sum; }
            }
            if (sum > C) {
                if (alpha[j] > C) { alpha[j] = C; alpha[i] = sum - C; }
            } else {
                if (alpha[i] < 0) { alpha[i] = 0; alpha[j] = sum; }
            }
        }
        /* G_t += Q_ti da_i + Q_tj da_j, Q_ti = y_t y_i K_ti */
        double di = y[i] * (alpha[i] - oi), dj = y[j] * (alpha[j] - oj);
        for (int t = 0; t < l; t++) G[t] += y[t] * (Ki[t] * di + Kj[t] * dj);
        set_status(st, alpha, i, C);
        set_status(st, alpha, j, C);
    }
    *rho = calc_rho(y, l, G, st);
    *iter = it;
    return status;
}

int rbfsvm_sigmoid_train(int l, const double *dec, const double *y, double *A, double *B,
                         double *t)
{
    double prior1 = 0, prior0 = 0;
    for (int i = 0; i < l; i++) {
        if (y[i] > 0) prior1 += 1; else prior0 += 1;
    }
    const int max_iter = 100;
    const double min_step = 1e-10, sigma = 1e-12, eps = 1e-5;
    double hi = (prior1 + 1.0) / (prior1 + 2.0), lo = 1 / (prior0 + 2.0);
    double a = 0.0, b = log((prior0 + 1.0) / (prior1 + 1.0)), fval = 0.0;
    for (int i = 0; i < l; i++) {
        t[i] = y[i] > 0 ? hi : lo;
        double f = dec[i] * a + b;
        fval += f >= 0 ? t[i] * f + log(1 + exp(-f)) : (t[i] - 1) * f + log(1 + exp(f));
    }
    int status = MLSS_NOT_CONVERGED, iter;
    for (iter = 0; iter < max_iter; iter++) {
        double h11 = sigma, h22 = sigma, h21 = 0, g1 = 0, g2 = 0;
        for (int i = 0; i < l; i++) {
            double f = dec[i] * a + b, p, q;
            if (f >= 0) {
                p = exp(-f) / (1.0 + exp(-f));
                q = 1.0 / (1.0 + exp(-f));
            } else {
                p = 1.0 / (1.0 + exp(f));
                q = exp(f) / (1.0 + exp(f));
            }
            double d2 = p * q, d1 = t[i] - p;
            h11 += dec[i] * dec[i] * d2;
            h22 += d2;
            h21 += dec[i] * d2;
            g1 += dec[i] * d1;
            g2 += d1;
        }
        if (fabs(g1) < eps && fabs(g2) < eps) { status = MLSS_OK; break; }
        double det = h11 * h22 - h21 * h21;
        double dA = -(h22 * g1 - h21 * g2) / det, dB = -(-h21 * g1 + h11 * g2) / det;
        double gd = g1 * dA + g2 * dB, step = 1;
        while (step >= min_step) {
            double na = a + step * dA, nb = b + step * dB, nf = 0.0;
            for (int i = 0; i < l; i++) {
                double f = dec[i] * na + nb;
                nf += f >= 0 ? t[i] * f + log(1 + exp(-f)) : (t[i] - 1) * f + log(1 + exp(f));
            }
            if (nf < fval + 0.0001 * step * gd) {
                a = na;
                b = nb;
                fval = nf;
                break;
            }
            step /= 2.0;
        }
        if (step < min_step) { status = MLSS_STALLED; break; }
    }
    *A = a;
    *B = b;
    return status;
}

double rbfsvm_sigmoid_predict(double f, double A, double B)
{
    double fApB = f * A + B;
    return fApB >= 0 ? exp(-fApB) / (1.0 + exp(-fApB)) : 1.0 / (1 + exp(fApB));
}

int rbfsvm_coupling(int k, const double *r, double *p, double *Q, double *Qp)
{
    int max_iter = k > 100 ? k : 100, iter;
    double eps = 0.005 / k;
#define R_(i, j) r[(i) + (size_t) k * (j)]
#define Q_(i, j) Q[(i) + (size_t) k * (j)]
    for (int t = 0; t < k; t++) {
        p[t] = 1.0 / k;
        Q_(t, t) = 0;
        for (int j = 0; j < t; j++) {
            Q_(t, t) += R_(j, t) * R_(j, t);
            Q_(t, j) = Q_(j, t);
        }
        for (int j = t + 1; j < k; j++) {
            Q_(t, t) += R_(j, t) * R_(j, t);
            Q_(t, j) = -R_(j, t) * R_(t, j);
        }
    }
    for (iter = 0; iter < max_iter; iter++) {
        double pQp = 0, max_error = 0;
        for (int t = 0; t < k; t++) {
            Qp[t] = 0;
            for (int j = 0; j < k; j++) Qp[t] += Q_(t, j) * p[j];
            pQp += p[t] * Qp[t];
        }
        for (int t = 0; t < k; t++) {
            double e = fabs(Qp[t] - pQp);
            if (e > max_error) max_error = e;
        }
        if (max_error < eps) break;
        for (int t = 0; t < k; t++) {
            double diff = (-Qp[t] + pQp) / Q_(t, t);
            p[t] += diff;
            pQp = (pQp + diff * (diff * Q_(t, t) + 2 * Qp[t])) / (1 + diff) / (1 + diff);
            for (int j = 0; j < k; j++) {
                Qp[j] = (Qp[j] + diff * Q_(t, j)) / (1 + diff);
                p[j] /= (1 + diff);
            }
        }
    }
#undef R_
#undef Q_
    return iter >= max_iter ? MLSS_NOT_CONVERGED : MLSS_OK;
}

static int worse(int a, int b) { return b > a ? b : a; }

/* libsvm's svm_binary_svc_probability() on the sub-problem rows/y (l): the
 * shuffle from the uniforms u (l), 5 folds, decision values of each fold's
 * held-out rows from a fit on the others, then the sigmoid.  Scratch from
 * the caller: perm, rows2 (l ints), y2, a2, dec, t (l doubles), w. */
static int binary_probability(const rbf_kernel *k, const int *rows, const double *y, int l,
                              double C, double eps, long max_iter, const double *u,
                              int *perm, int *rows2, double *y2, double *a2, double *dec,
                              double *t, rbf_work *w, double *A, double *B, int *sig)
{
    const int nr_fold = 5;
    int status = MLSS_OK;
    for (int i = 0; i < l; i++) perm[i] = i;
    for (int i = 0; i < l; i++) {
        int j = i + ((int) (u[i] * (l - i))) % (l - i);
        int s = perm[i];
        perm[i] = perm[j];
        perm[j] = s;
    }
    for (int f = 0; f < nr_fold; f++) {
        int begin = f * l / nr_fold, end = (f + 1) * l / nr_fold, m = 0, np = 0, nn = 0;
        for (int j = 0; j < l; j++) {
            if (j >= begin && j < end) continue;
            rows2[m] = rows[perm[j]];
            y2[m] = y[perm[j]];
            if (y2[m] > 0) np++; else nn++;
            m++;
        }
        if (np == 0 || nn == 0) {
            double v = np > 0 ? 1 : (nn > 0 ? -1 : 0);
            for (int j = begin; j < end; j++) dec[perm[j]] = v;
            continue;
        }
        double rho;
        long it;
        status = worse(status, rbfsvm_solve(k, rows2, y2, m, C, eps, max_iter, w, a2, &rho,
                                            &it));
        /* keep the support vectors only: coefficients and rows in place */
        int nsv = 0;
        for (int t2 = 0; t2 < m; t2++)
            if (a2[t2] > 0) {
                a2[nsv] = y2[t2] * a2[t2];
                rows2[nsv] = rows2[t2];
                nsv++;
            }
        for (int j = begin; j < end; j++) {
            rbf_kernel_column(k, rows2, nsv, rows[perm[j]], w->cj);
            double s = 0;
            for (int t2 = 0; t2 < nsv; t2++) s += a2[t2] * w->cj[t2];
            dec[perm[j]] = s - rho;
        }
    }
    *sig = worse(*sig, rbfsvm_sigmoid_train(l, dec, y, A, B, t));
    return status;
}

int rbfsvm_train(const rbf_kernel *k, const int *cls, int nc, double C, double eps,
                 long max_iter, const double *u, double *coef, int *rows_out, double *rho,
                 double *probA, double *probB, int *sig_status, int *iwork, double *dwork,
                 char *cwork)
{
    int n = k->n, status = MLSS_OK;
    /* iwork: start (nc + 1), grouped (n), sub rows (n), perm (n), rows2 (n) */
    int *start = iwork, *grouped = start + nc + 1, *sub = grouped + n, *perm = sub + n,
        *rows2 = perm + n;
    /* dwork: y, alpha, G, ci, cj, y2, a2, dec, t (n each) */
    double *ysub = dwork, *alpha = ysub + n, *y2 = alpha + n, *a2 = y2 + n,
           *dec = a2 + n, *t = dec + n;
    rbf_work w = { t + n, t + 2 * (size_t) n, t + 3 * (size_t) n, cwork };
    for (int c = 0; c <= nc; c++) start[c] = 0;
    for (int r = 0; r < n; r++) start[cls[r] + 1]++;
    for (int c = 0; c < nc; c++) start[c + 1] += start[c];
    {
        int *fill = perm;  /* borrowed */
        for (int c = 0; c < nc; c++) fill[c] = start[c];
        for (int r = 0; r < n; r++) grouped[fill[cls[r]]++] = r;
    }
    *sig_status = MLSS_OK;
    size_t off = 0;
    int p = 0;
    for (int i = 0; i < nc; i++)
        for (int j = i + 1; j < nc; j++, p++) {
            int ci = start[i + 1] - start[i], cj = start[j + 1] - start[j], l = ci + cj;
            for (int q = 0; q < ci; q++) { sub[q] = grouped[start[i] + q]; ysub[q] = 1; }
            for (int q = 0; q < cj; q++) { sub[ci + q] = grouped[start[j] + q]; ysub[ci + q] = -1; }
            if (u) {
                status = worse(status, binary_probability(k, sub, ysub, l, C, eps, max_iter, u,
                                                          perm, rows2, y2, a2, dec, t, &w,
                                                          probA + p, probB + p, sig_status));
                u += l;
            }
            long it;
            status = worse(status, rbfsvm_solve(k, sub, ysub, l, C, eps, max_iter, &w, alpha,
                                                rho + p, &it));
            for (int q = 0; q < l; q++) {
                coef[off + q] = ysub[q] * alpha[q];
                rows_out[off + q] = sub[q];
            }
            off += (size_t) l;
        }
    return status;
}

void rbfsvm_decision(int nte, int nsv, const double *Kte, int P, const int *start,
                     const int *sv, const double *coef, const double *rho, double *dec)
{
    (void) nsv;
    for (int p = 0; p < P; p++) {
        double *d = dec + (size_t) nte * p;
        for (int r = 0; r < nte; r++) d[r] = -rho[p];
        for (int s = start[p]; s < start[p + 1]; s++) {
            const double *col = Kte + (size_t) nte * sv[s];
            double c = coef[s];
            for (int r = 0; r < nte; r++) d[r] += c * col[r];
        }
    }
}

int rbfsvm_probabilities(int nte, int nc, const double *dec, const double *A,
                         const double *B, double *P, double *scratch)
{
    const double min_prob = 1e-7;
    double *r = scratch, *Q = r + (size_t) nc * nc, *Qp = Q + (size_t) nc * nc,
           *p = Qp + nc;
    int bad = 0;
    for (int row = 0; row < nte; row++) {
        int k = 0;
        for (int i = 0; i < nc; i++)
            for (int j = i + 1; j < nc; j++, k++) {
                double v = rbfsvm_sigmoid_predict(dec[row + (size_t) nte * k], A[k], B[k]);
                v = fmin(fmax(v, min_prob), 1 - min_prob);
                r[i + (size_t) nc * j] = v;
                r[j + (size_t) nc * i] = 1 - v;
            }
        if (nc == 2) {
            p[0] = r[0 + (size_t) nc * 1];
            p[1] = r[1];
        } else if (rbfsvm_coupling(nc, r, p, Q, Qp) != MLSS_OK) {
            bad++;
        }
        for (int c = 0; c < nc; c++) P[row + (size_t) nte * c] = p[c];
    }
    return bad;
}
