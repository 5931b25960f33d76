/* MLCRF learning: pseudo-likelihood, its gradient, FISTA (stage 1) and
 * L-BFGS (stage 2).  See mlcrf_core.h for the layout of the parameters. */
#include <R.h>
#include <R_ext/Applic.h>
#include <R_ext/Utils.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "mlcrf_core.h"

/* Whether a report is due: CRF_REPORT_SECONDS since the last one (or the
 * start of the stage). */
static int crf_report_due(crf_problem *pr)
{
    if (!pr->report) return 0;
    time_t now = time(NULL);
    if (difftime(now, pr->last_report) < CRF_REPORT_SECONDS) return 0;
    pr->last_report = now;
    return 1;
}

static void crf_progress(crf_problem *pr, const char *stage, int iter, double objective)
{
    if (!crf_report_due(pr)) return;
    char msg[160];
    snprintf(msg, sizeof msg, "  %s: %d edges, iteration %d, objective %.8g", stage, pr->E,
             iter, objective);
    pr->report(pr->report_ctx, msg);
}

int crf_ncol(const crf_problem *pr) { return pr->m + pr->E * pr->K; }

size_t crf_plen(const crf_problem *pr)
{
    return (size_t) pr->n * (pr->mode == CRF_ROWS ? pr->m : crf_ncol(pr));
}

/* The data of CRF_ROWS (see mlcrf_core.h): rows, positives, neighbours. */
static void rows_setup(crf_problem *pr)
{
    int n = pr->n, d = pr->d, m = pr->m, E = pr->E;
    if (pr->X.i) {
        csr_rows R = csc_to_csr(&pr->X);
        size_t nnz = (size_t) R.ptr[n];
        pr->rptr = R.ptr;
        pr->rind = R.ind;
        pr->rval = (double *) R_alloc(nnz + 1, sizeof(double));
        for (size_t t = 0; t < nnz; t++) pr->rval[t] = R.val[t] * pr->sinv[R.ind[t]];
    } else {
        int *ptr = (int *) R_alloc((size_t) n + 1, sizeof(int));
        int *ind = (int *) R_alloc((size_t) n * d + 1, sizeof(int));
        pr->rval = (double *) R_alloc((size_t) n * d + 1, sizeof(double));
        for (int i = 0; i <= n; i++) ptr[i] = i * d;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < d; j++) {
                ind[IDX(j, i, d)] = j;
                pr->rval[IDX(j, i, d)] = pr->X.x[IDX(i, j, n)] * pr->sinv[j];
            }
        pr->rptr = ptr;
        pr->rind = ind;
    }
    pr->cvec = (double *) R_alloc((size_t) d + 1, sizeof(double));
    pr->cvec[0] = 1.0;
    for (int j = 0; j < d; j++) pr->cvec[j + 1] = pr->mu ? -pr->mu[j] * pr->sinv[j] : 0.0;
    /* the positive labels of each row */
    pr->ypos_ptr = (int *) R_alloc((size_t) n + 1, sizeof(int));
    pr->ypos_ptr[0] = 0;
    size_t npos = 0;
    for (int i = 0; i < n; i++)
        for (int l = 0; l < m; l++) npos += pr->y[IDX(i, l, n)] > 0.5;
    pr->ypos = (int *) R_alloc(npos + 1, sizeof(int));
    size_t k = 0;
    for (int i = 0; i < n; i++) {
        for (int l = 0; l < m; l++)
            if (pr->y[IDX(i, l, n)] > 0.5) pr->ypos[k++] = l;
        pr->ypos_ptr[i + 1] = (int) k;
    }
    /* the neighbours of each label: slot_a[e] in from's list, slot_b[e] in to's */
    pr->nb_ptr = (int *) R_alloc((size_t) m + 1, sizeof(int));
    int *fill = (int *) R_alloc((size_t) m + 1, sizeof(int));
    memset(pr->nb_ptr, 0, sizeof(int) * ((size_t) m + 1));
    for (int e = 0; e < E; e++) {
        pr->nb_ptr[pr->from[e] + 1]++;
        pr->nb_ptr[pr->to[e] + 1]++;
    }
    for (int l = 0; l < m; l++) pr->nb_ptr[l + 1] += pr->nb_ptr[l];
    memcpy(fill, pr->nb_ptr, sizeof(int) * (size_t) m);
    size_t ns = (size_t) 2 * E;
    pr->nb_lab = (int *) R_alloc(ns + 1, sizeof(int));
    pr->slot_a = (int *) R_alloc((size_t) E + 1, sizeof(int));
    pr->slot_b = (int *) R_alloc((size_t) E + 1, sizeof(int));
    for (int e = 0; e < E; e++) {
        int a = pr->from[e], b = pr->to[e];
        pr->slot_a[e] = fill[a];
        pr->nb_lab[fill[a]++] = b;
        pr->slot_b[e] = fill[b];
        pr->nb_lab[fill[b]++] = a;
    }
    size_t len = (size_t) (d + 1) * ns;
    pr->D = (double *) R_alloc(len + 1, sizeof(double));
    pr->M = (double *) R_alloc(len + 1, sizeof(double));
    pr->off = (double *) R_alloc(ns + 1, sizeof(double));
    pr->rsum = (double *) R_alloc(ns + 1, sizeof(double));
    pr->Vn = (double *) R_alloc((size_t) (d + 1) * m + 1, sizeof(double));
    pr->acc = (double *) R_alloc((size_t) m + 1, sizeof(double));
    pr->rrow = (double *) R_alloc((size_t) m + 1, sizeof(double));
}

/* Multiply-adds of one evaluation with its gradient in each mode (the two
 * products with the design, and the edge part of CRF_ROWS); the cheaper
 * mode is taken. */
static void choose_mode(crf_problem *pr)
{
    int n = pr->n, m = pr->m, d = pr->d;
    double nnz = pr->X.i ? (double) pr->X.p[d] : (double) n * d;
    double pairs = 2.0 * (nnz + n) * crf_ncol(pr);
    int *deg = (int *) R_alloc((size_t) m + 1, sizeof(int));
    int *rnz = (int *) R_alloc((size_t) n + 1, sizeof(int));
    memset(deg, 0, sizeof(int) * (size_t) m);
    for (int e = 0; e < pr->E; e++) { deg[pr->from[e]]++; deg[pr->to[e]]++; }
    for (int i = 0; i < n; i++) rnz[i] = pr->X.i ? 0 : d;
    if (pr->X.i)
        for (int t = 0; t < pr->X.p[d]; t++) rnz[pr->X.i[t]]++;
    double rows = 2.0 * (nnz + n) * m + 4.0 * (d + 1.0) * pr->E * pr->K;
    for (int i = 0; i < n && rows < pairs; i++) {
        double s = 0.0;
        for (int l = 0; l < m; l++)
            if (pr->y[IDX(i, l, n)] > 0.5) s += deg[l];
        rows += 2.0 * s * (rnz[i] + 1.0);
    }
    pr->mode = rows < pairs ? CRF_ROWS : CRF_PAIRS;
    /* the per-row copy of a dense x is indexed by int */
    if (!pr->X.i && (double) n * d >= INT_MAX) pr->mode = CRF_PAIRS;
}

void crf_alloc(crf_problem *pr)
{
    pr->mode_req = pr->mode;
    if (pr->mode == CRF_AUTO) choose_mode(pr);
    if (pr->E == 0) pr->mode = CRF_PAIRS;   /* the same computation, no edge part */
    size_t q = (size_t) (pr->mode == CRF_ROWS ? pr->m : crf_ncol(pr));
    pr->B = (double *) R_alloc((size_t) pr->d * q + 1, sizeof(double));
    pr->P = (double *) R_alloc((size_t) pr->n * q + 1, sizeof(double));
    pr->G = (double *) R_alloc((size_t) pr->n * pr->m + 1, sizeof(double));
    if (pr->mode == CRF_ROWS) rows_setup(pr);
}

/* log(1 + exp(z)) without overflow */
static double log1pexp(double z)
{
    return z > 0 ? z + log1p(exp(-z)) : log1p(exp(z));
}

/* [1, Xs] V (n x k) into P, V (d + 1) x k with leading dimension p */
static void design_prod(crf_problem *pr, const double *V, int k, double *P)
{
    int n = pr->n, d = pr->d, p = d + 1;
    double *B = pr->B;
    for (int c = 0; c < k; c++)
        for (int j = 0; j < d; j++) B[IDX(j, c, d)] = V[IDX(j + 1, c, p)] * pr->sinv[j];
    mat_prod(&pr->X, pr->mu, B, k, P);
    for (int c = 0; c < k; c++) {
        double b0 = V[IDX(0, c, p)];
        for (int i = 0; i < n; i++) P[IDX(i, c, n)] += b0;
    }
}

/* CRF_ROWS: the log-odds of every conditional (n x m) into P. */
static void rows_logodds(crf_problem *pr, const double *theta, double *P)
{
    int n = pr->n, d = pr->d, m = pr->m, E = pr->E, K = pr->K, p = d + 1;
    double *V = pr->Vn, *D = pr->D, *acc = pr->acc;
    /* the nodes, with the edge terms that do not depend on the other label:
     * phi_e(1, 0) in from's log-odds, phi_e(0, 1) in to's */
    memcpy(V, theta, sizeof(double) * (size_t) p * m);
    for (int e = 0; e < E; e++) {
        const double *w = theta + IDX(0, m + (size_t) e * K, p);
        int a = pr->from[e], b = pr->to[e];
        if (K == 3)
            for (int k = 0; k < p; k++) {
                V[IDX(k, a, p)] += w[k + p];       /* (1,0) */
                V[IDX(k, b, p)] += w[k];           /* (0,1) */
            }
    }
    design_prod(pr, V, m, P);
    /* Delta_e = w11 - w01 - w10 (K = 3) or w11 (K = 1), in both slots of e */
    for (int e = 0; e < E; e++) {
        const double *w = theta + IDX(0, m + (size_t) e * K, p);
        int sa = pr->slot_a[e], sb = pr->slot_b[e];
        int da = pr->nb_ptr[pr->from[e] + 1] - pr->nb_ptr[pr->from[e]];
        int db = pr->nb_ptr[pr->to[e] + 1] - pr->nb_ptr[pr->to[e]];
        double *Da = D + (size_t) p * pr->nb_ptr[pr->from[e]] + (sa - pr->nb_ptr[pr->from[e]]);
        double *Db = D + (size_t) p * pr->nb_ptr[pr->to[e]] + (sb - pr->nb_ptr[pr->to[e]]);
        double oa = 0.0;
        for (int k = 0; k < p; k++) {
            double v = K == 3 ? w[k + 2 * p] - w[k] - w[k + p] : w[k];
            Da[(size_t) da * k] = v;
            Db[(size_t) db * k] = v;
            oa += pr->cvec[k] * v;
        }
        pr->off[sa] = oa;
        pr->off[sb] = oa;
    }
    for (int i = 0; i < n; i++) {
        int np = pr->ypos_ptr[i + 1] - pr->ypos_ptr[i];
        if (!np) continue;
        memset(acc, 0, sizeof(double) * (size_t) m);
        int any = 0;
        for (int t = pr->ypos_ptr[i]; t < pr->ypos_ptr[i + 1]; t++) {
            int b = pr->ypos[t], s0 = pr->nb_ptr[b], deg = pr->nb_ptr[b + 1] - s0;
            if (!deg) continue;
            any = 1;
            const int *nb = pr->nb_lab + s0;
            const double *Db = D + (size_t) p * s0;
            for (int u = 0; u < deg; u++) acc[nb[u]] += pr->off[s0 + u];
            for (int a = pr->rptr[i]; a < pr->rptr[i + 1]; a++) {
                double v = pr->rval[a];
                const double *row = Db + (size_t) deg * (pr->rind[a] + 1);
                for (int u = 0; u < deg; u++) acc[nb[u]] += v * row[u];
            }
        }
        if (any)
            for (int l = 0; l < m; l++) P[IDX(i, l, n)] += acc[l];
    }
}

void crf_potentials(crf_problem *pr, const double *theta, double *P)
{
    if (pr->mode == CRF_ROWS) rows_logodds(pr, theta, P);
    else design_prod(pr, theta, crf_ncol(pr), P);
}

double crf_smooth(crf_problem *pr, const double *theta, double *grad)
{
    crf_potentials(pr, theta, pr->P);
    return crf_smooth_at(pr, theta, pr->P, grad);
}

/* The ridge of entry (0, c) of theta, c an edge column: ridge_w0 on the
 * intercept of each edge's (1,1) column (its last; with K = 3 the (0,1) and
 * (1,0) intercepts keep ridge_w: they are collinear with the unpenalised node
 * intercepts, which absorb them), ridge_w on everything else. */
static double edge_intercept_ridge(const crf_problem *pr, size_t c)
{
    return (c - (size_t) pr->m) % (size_t) pr->K == (size_t) pr->K - 1 ? pr->ridge_w0
                                                                        : pr->ridge_w;
}

/* The gradient of the edge ridge. */
static void edge_ridge_grad(const crf_problem *pr, const double *theta, double *grad)
{
    int m = pr->m, p = pr->d + 1;
    size_t q = (size_t) crf_ncol(pr);
    for (size_t c = (size_t) m; c < q; c++) {
        const double *w = theta + c * (size_t) p;
        double *g = grad + c * (size_t) p;
        g[0] += 2.0 * edge_intercept_ridge(pr, c) * w[0];
        for (int j = 1; j < p; j++) g[j] += 2.0 * pr->ridge_w * w[j];
    }
}

/* The smooth part of the penalty: node ridge, intercept ridge, edge ridge. */
static double smooth_penalty(const crf_problem *pr, const double *theta)
{
    int m = pr->m, p = pr->d + 1;
    size_t q = (size_t) crf_ncol(pr);
    double value = 0.0;
    for (int l = 0; l < m; l++) {
        double s = 0.0;
        for (int j = 1; j < p; j++) s += theta[IDX(j, l, p)] * theta[IDX(j, l, p)];
        value += pr->lambda_v[l] * s + pr->lambda0 * theta[IDX(0, l, p)] * theta[IDX(0, l, p)];
    }
    double sw = 0.0, s0 = 0.0;
    for (size_t c = (size_t) m; c < q; c++) {
        const double *w = theta + c * (size_t) p;
        s0 += edge_intercept_ridge(pr, c) * w[0] * w[0];
        for (int j = 1; j < p; j++) sw += w[j] * w[j];
    }
    return value + pr->ridge_w * sw + s0;
}

static void smooth_penalty_grad(const crf_problem *pr, const double *theta, double *grad)
{
    int m = pr->m, p = pr->d + 1;
    size_t q = (size_t) crf_ncol(pr);
    for (int l = 0; l < m; l++) {
        grad[IDX(0, l, p)] += 2.0 * pr->lambda0 * theta[IDX(0, l, p)];
        for (int j = 1; j < p; j++) grad[IDX(j, l, p)] += 2.0 * pr->lambda_v[l] * theta[IDX(j, l, p)];
    }
    edge_ridge_grad(pr, theta, grad);
}

/* The loss sum_k log(1 + exp(G_k)) - y_k G_k over the n x m log-odds in G,
 * which are replaced by the derivatives sigmoid(G_k) - y_k. */
static double logodds_loss(const crf_problem *pr, double *G)
{
    const double *y = pr->y;
    double loss = 0.0;
    for (size_t k = 0; k < (size_t) pr->n * pr->m; k++) {
        double z = G[k];
        loss += log1pexp(z) - y[k] * z;
        G[k] = 1.0 / (1.0 + exp(-z)) - y[k];
    }
    return loss;
}

/* [1, Xs]'R / n (d + 1) x k into out (leading dimension p), R n x k. */
static void design_tprod(crf_problem *pr, const double *R, int k, double *out)
{
    int n = pr->n, d = pr->d, p = d + 1;
    double *B = pr->B;
    mat_tprod(&pr->X, pr->mu, R, k, B);
    for (int c = 0; c < k; c++) {
        double s = 0.0;
        for (int i = 0; i < n; i++) s += R[IDX(i, c, n)];
        out[IDX(0, c, p)] = s / n;
        for (int j = 0; j < d; j++) out[IDX(j + 1, c, p)] = B[IDX(j, c, d)] * pr->sinv[j] / n;
    }
}

/* CRF_ROWS: crf_smooth_at() from the log-odds (n x m). */
static double rows_smooth_at(crf_problem *pr, const double *theta, const double *Gin,
                             double *grad)
{
    int n = pr->n, d = pr->d, m = pr->m, E = pr->E, K = pr->K, p = d + 1;
    double *G = pr->G, *M = pr->M, *r = pr->rrow;
    memcpy(G, Gin, sizeof(double) * (size_t) n * m);
    double value = logodds_loss(pr, G) / n + smooth_penalty(pr, theta);
    if (!grad) return value;
    /* the nodes: [1, Xs]'R / n */
    design_tprod(pr, G, m, grad);
    /* M (slot s of label b, neighbour a) = [1, Xs]'(r_a * y_b), over the
     * rows where y_b = 1 */
    size_t ns = (size_t) 2 * E;
    memset(M, 0, sizeof(double) * (size_t) p * ns);
    memset(pr->rsum, 0, sizeof(double) * ns);
    for (int i = 0; i < n; i++) {
        if (pr->ypos_ptr[i + 1] == pr->ypos_ptr[i]) continue;
        for (int l = 0; l < m; l++) r[l] = G[IDX(i, l, n)];
        for (int t = pr->ypos_ptr[i]; t < pr->ypos_ptr[i + 1]; t++) {
            int b = pr->ypos[t], s0 = pr->nb_ptr[b], deg = pr->nb_ptr[b + 1] - s0;
            if (!deg) continue;
            const int *nb = pr->nb_lab + s0;
            double *Mb = M + (size_t) p * s0, *rs = pr->rsum + s0;
            for (int u = 0; u < deg; u++) rs[u] += r[nb[u]];
            for (int a = pr->rptr[i]; a < pr->rptr[i + 1]; a++) {
                double v = pr->rval[a];
                double *row = Mb + (size_t) deg * (pr->rind[a] + 1);
                for (int u = 0; u < deg; u++) row[u] += v * r[nb[u]];
            }
        }
    }
    for (int b = 0; b < m; b++) {
        int s0 = pr->nb_ptr[b], deg = pr->nb_ptr[b + 1] - s0;
        double *Mb = M + (size_t) p * s0;
        for (int k = 0; k < p; k++) {
            double c = pr->cvec[k];
            if (c == 0.0) continue;
            for (int u = 0; u < deg; u++) Mb[u + (size_t) deg * k] += c * pr->rsum[s0 + u];
        }
    }
    /* the edges: g11 = (M[from <- to] + M[to <- from]) / n; g01 = node
     * gradient of to - g11, g10 = that of from - g11 */
    for (int e = 0; e < E; e++) {
        int a = pr->from[e], b = pr->to[e];
        int da = pr->nb_ptr[a + 1] - pr->nb_ptr[a], db = pr->nb_ptr[b + 1] - pr->nb_ptr[b];
        const double *Ma = M + (size_t) p * pr->nb_ptr[a] + (pr->slot_a[e] - pr->nb_ptr[a]);
        const double *Mb = M + (size_t) p * pr->nb_ptr[b] + (pr->slot_b[e] - pr->nb_ptr[b]);
        double *g = grad + IDX(0, m + (size_t) e * K, p);
        for (int k = 0; k < p; k++) {
            double g11 = (Ma[(size_t) da * k] + Mb[(size_t) db * k]) / n;
            if (K == 3) {
                g[k] = grad[IDX(k, b, p)] - g11;
                g[k + p] = grad[IDX(k, a, p)] - g11;
                g[k + 2 * p] = g11;
            } else {
                g[k] = g11;
            }
        }
    }
    smooth_penalty_grad(pr, theta, grad);
    return value;
}

double crf_smooth_at(crf_problem *pr, const double *theta, const double *Pin, double *grad)
{
    if (pr->modes_used && pr->E > 0) *pr->modes_used |= 1 << pr->mode;
    if (pr->mode == CRF_ROWS) return rows_smooth_at(pr, theta, Pin, grad);
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
    double value = loss / n + smooth_penalty(pr, theta);
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
    edge_ridge_grad(pr, theta, grad);
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
    size_t plen = crf_plen(pr);
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
        crf_progress(pr, "stage 1 (FISTA)", it, Fx);
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

/* The objective of crf_lbfgs(): the smooth part, plus the group term when
 * pr->smooth_group (its gradient group_w w_e / ||w_e||, taken as 0 at 0). */
static double lbfgs_value(crf_problem *pr, const double *theta, double *grad)
{
    double v = crf_smooth(pr, theta, grad);
    if (!pr->smooth_group) return v;
    size_t len = (size_t) (pr->d + 1) * pr->K;
    for (int e = 0; e < pr->E; e++) {
        double nrm = edge_norm(pr, theta, e);
        v += pr->group_w * nrm;
        if (nrm > 0) {
            size_t o = (size_t) (pr->d + 1) * (pr->m + (size_t) e * pr->K);
            for (size_t k = 0; k < len; k++) grad[o + k] += pr->group_w * theta[o + k] / nrm;
        }
    }
    return v;
}

/* lbfgsb() asks for the value and the gradient separately: both come from
 * one evaluation, cached with the point it was made at.  lbfgsb() works on
 * u = s theta (s > 0 per parameter, see crf_scales_last()): the value is the
 * same, the gradient in u is that in theta divided by s. */
typedef struct {
    crf_problem *pr;
    size_t len;
    double *xc, *gc, fc;
    const double *s;
    double *th;
    int have, evals;
} lbfgs_cache;

static void cache_eval(int n, const double *par, lbfgs_cache *c)
{
    if (c->have && memcmp(par, c->xc, (size_t) n * sizeof(double)) == 0) return;
    memcpy(c->xc, par, (size_t) n * sizeof(double));
    for (int k = 0; k < n; k++) c->th[k] = par[k] / c->s[k];
    c->fc = lbfgs_value(c->pr, c->th, c->gc);
    for (int k = 0; k < n; k++) c->gc[k] /= c->s[k];
    c->have = 1;
    c->evals++;
    crf_progress(c->pr, "stage 2 (L-BFGS)", c->evals, c->fc);
}

/* The scales s of crf_lbfgs_one()'s variables u = s theta: the square root
 * of the diagonal of the smooth objective's Hessian at theta, each column's
 * loss part taken from its intercept, sum_i w_i / n with w_i the curvature
 * p (1 - p) of the conditionals the column enters, times the square of its
 * coefficient there (the features are standardised: their squares average
 * 1), plus the ridge of each entry.  The columns differ widely: an edge's
 * columns act only in the rows where a label is 1 (a rare label's very few),
 * and the constant coupling (the (1,1) intercept) has almost no ridge.
 * Curvatures below 1e-6 (a saturated label without ridge) are taken as 1e-6,
 * so that s > 0.  lbfgsb()'s test on the gradient is then on that in u. */
static double scale_of(double h) { return sqrt(fmax(h, 1e-6)); }

void crf_scales_last(crf_problem *pr, double *s)
{
    int n = pr->n, m = pr->m, E = pr->E, K = pr->K, p = pr->d + 1;
    const double *y = pr->y;
    double *G = pr->G;   /* sigmoid - y of every conditional */
    for (size_t k = 0; k < (size_t) n * m; k++) {
        double q = G[k] + y[k];
        G[k] = q * (1.0 - q);
    }
    for (int l = 0; l < m; l++) {
        double h = 0.0;
        for (int i = 0; i < n; i++) h += G[IDX(i, l, n)];
        h /= n;
        s[IDX(0, l, p)] = scale_of(h + 2.0 * pr->lambda0);
        for (int j = 1; j < p; j++) s[IDX(j, l, p)] = scale_of(h + 2.0 * pr->lambda_v[l]);
    }
    for (int e = 0; e < E; e++) {
        int a = pr->from[e], b = pr->to[e];
        double h[3] = {0.0, 0.0, 0.0};
        for (int i = 0; i < n; i++) {
            double ya = y[IDX(i, a, n)], yb = y[IDX(i, b, n)];
            double wa = G[IDX(i, a, n)], wb = G[IDX(i, b, n)];
            h[K - 1] += wa * yb + wb * ya;                 /* (1,1) */
            if (K == 3) {
                h[0] += wa * yb + wb * (1.0 - ya);         /* (0,1) */
                h[1] += wa * (1.0 - yb) + wb * ya;         /* (1,0) */
            }
        }
        for (int k = 0; k < K; k++) {
            size_t c = (size_t) m + (size_t) e * K + k;
            double hk = h[k] / n;
            s[IDX(0, c, p)] = scale_of(hk + 2.0 * edge_intercept_ridge(pr, c));
            for (int j = 1; j < p; j++) s[IDX(j, c, p)] = scale_of(hk + 2.0 * pr->ridge_w);
        }
    }
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

static int crf_lbfgs_one(crf_problem *pr, double *theta, int maxit, double tol, int *iter,
                         double *objective);

static int find_root(int *parent, int l)
{
    while (parent[l] != l) l = parent[l] = parent[parent[l]];
    return l;
}

/* Stages 2 and 3.  The objective is a sum over the connected components of
 * the graph (a label's conditional involves only its neighbours, and the
 * penalties are separable), so each component is solved on its own: a label
 * without edges is a logistic regression (a column of theta, its own
 * stopping point and line searches), the others a smaller CRF.  The
 * iterations reported are the largest, the objective the sum, the status
 * the worst. */
int crf_lbfgs(crf_problem *pr, double *theta, int maxit, double tol, int *iter,
              double *objective)
{
    int n = pr->n, m = pr->m, E = pr->E, K = pr->K, p = pr->d + 1;
    if (m == 1) return crf_lbfgs_one(pr, theta, maxit, tol, iter, objective);
    int *parent = (int *) R_alloc((size_t) m, sizeof(int));
    for (int l = 0; l < m; l++) parent[l] = l;
    for (int e = 0; e < E; e++) {
        int a = find_root(parent, pr->from[e]), b = find_root(parent, pr->to[e]);
        if (a != b) parent[a < b ? b : a] = a < b ? a : b;
    }
    int ncomp = 0;
    for (int l = 0; l < m; l++) ncomp += find_root(parent, l) == l;
    if (ncomp == 1) return crf_lbfgs_one(pr, theta, maxit, tol, iter, objective);
    int status = MLCRF_OK;
    *iter = 0;
    *objective = 0.0;
    int done = 0;
    int *local = (int *) R_alloc((size_t) m, sizeof(int));
    int *deg = (int *) R_alloc((size_t) m, sizeof(int));
    memset(deg, 0, sizeof(int) * (size_t) m);
    for (int e = 0; e < E; e++) { deg[pr->from[e]]++; deg[pr->to[e]]++; }
    for (int r = 0; r < m; r++) {
        if (find_root(parent, r) != r) continue;
        crf_problem sub = *pr;   /* the scratch of pr is large enough for one label */
        sub.report = NULL;
        int it = 0, st;
        double obj = 0.0;
        if (!deg[r]) {
            sub.m = 1;
            sub.E = 0;
            sub.y = pr->y + IDX(0, r, n);
            sub.lambda_v = pr->lambda_v + r;
            sub.mode = CRF_PAIRS;
            st = crf_lbfgs_one(&sub, theta + IDX(0, r, p), maxit, tol, &it, &obj);
            done++;
        } else {
            /* the component's labels and edges, renumbered */
            int mc = 0, ec = 0;
            for (int l = 0; l < m; l++)
                if (find_root(parent, l) == r) local[l] = mc++;
            for (int e = 0; e < E; e++) ec += find_root(parent, pr->from[e]) == r;
            double *yc = (double *) R_alloc((size_t) n * mc, sizeof(double));
            double *lv = (double *) R_alloc((size_t) mc, sizeof(double));
            int *fr = (int *) R_alloc((size_t) ec, sizeof(int));
            int *to = (int *) R_alloc((size_t) ec, sizeof(int));
            int *eidx = (int *) R_alloc((size_t) ec, sizeof(int));
            int *lab = (int *) R_alloc((size_t) mc, sizeof(int));
            for (int l = 0; l < m; l++)
                if (find_root(parent, l) == r) {
                    lab[local[l]] = l;
                    memcpy(yc + IDX(0, local[l], n), pr->y + IDX(0, l, n), sizeof(double) * n);
                    lv[local[l]] = pr->lambda_v[l];
                }
            int k = 0;
            for (int e = 0; e < E; e++)
                if (find_root(parent, pr->from[e]) == r) {
                    fr[k] = local[pr->from[e]];
                    to[k] = local[pr->to[e]];
                    eidx[k++] = e;
                }
            sub.m = mc;
            sub.E = ec;
            sub.y = yc;
            sub.lambda_v = lv;
            sub.from = fr;
            sub.to = to;
            sub.mode = pr->mode_req;   /* the caller's mode, or the cheaper for the component */
            crf_alloc(&sub);
            size_t qc = (size_t) mc + (size_t) ec * K;
            double *th = (double *) R_alloc((size_t) p * qc, sizeof(double));
            for (int c = 0; c < mc; c++)
                memcpy(th + IDX(0, c, p), theta + IDX(0, lab[c], p), sizeof(double) * p);
            for (int c = 0; c < ec; c++)
                memcpy(th + IDX(0, mc + (size_t) c * K, p),
                       theta + IDX(0, m + (size_t) eidx[c] * K, p), sizeof(double) * p * K);
            st = crf_lbfgs_one(&sub, th, maxit, tol, &it, &obj);
            done += mc;
            for (int c = 0; c < mc; c++)
                memcpy(theta + IDX(0, lab[c], p), th + IDX(0, c, p), sizeof(double) * p);
            for (int c = 0; c < ec; c++)
                memcpy(theta + IDX(0, m + (size_t) eidx[c] * K, p),
                       th + IDX(0, mc + (size_t) c * K, p), sizeof(double) * p * K);
        }
        if (st > status) status = st;
        if (it > *iter) *iter = it;
        *objective += obj;
        if (crf_report_due(pr)) {
            char msg[120];
            snprintf(msg, sizeof msg, "  L-BFGS per connected component: %d of %d labels done",
                     done, m);
            pr->report(pr->report_ctx, msg);
        }
        R_CheckUserInterrupt();
    }
    return status;
}

static int crf_lbfgs_one(crf_problem *pr, double *theta, int maxit, double tol, int *iter,
                         double *objective)
{
    size_t len = (size_t) (pr->d + 1) * crf_ncol(pr);
    lbfgs_cache c = {pr, len, NULL, NULL, 0.0, NULL, NULL, 0, 0};
    c.xc = (double *) R_alloc(len, sizeof(double));
    c.gc = (double *) R_alloc(len, sizeof(double));
    c.th = (double *) R_alloc(len, sizeof(double));
    double *s = (double *) R_alloc(len, sizeof(double));
    /* one evaluation at the start serves both the scales (from its
       conditionals, crf_scales_last()) and lbfgsb()'s first call, which
       finds it in the cache */
    c.fc = lbfgs_value(pr, theta, c.gc);
    crf_scales_last(pr, s);
    c.s = s;
    double *u = (double *) R_alloc(len, sizeof(double));
    for (size_t k = 0; k < len; k++) {
        u[k] = theta[k] * s[k];
        c.gc[k] /= s[k];
    }
    memcpy(c.xc, u, len * sizeof(double));
    memcpy(c.th, theta, len * sizeof(double));
    c.have = 1;
    c.evals = 1;
    double *lo = (double *) R_alloc(len, sizeof(double));
    double *up = (double *) R_alloc(len, sizeof(double));
    int *nbd = (int *) R_alloc(len, sizeof(int));
    for (size_t k = 0; k < len; k++) { lo[k] = 0.0; up[k] = 0.0; nbd[k] = 0; }
    double fmin;
    int fail = 0, fncount = 0, grcount = 0;
    char msg[60];
    /* factr in units of the machine epsilon: relative decrease tol^2 */
    double factr = fmax(tol * tol / DBL_EPSILON, 10.0);
    lbfgsb((int) len, 10, u, lo, up, nbd, &fmin, lb_fn, lb_gr, &fail, &c, factr,
           tol * 1e-2, &fncount, &grcount, maxit, msg, 0, 10);
    for (size_t k = 0; k < len; k++) theta[k] = u[k] / s[k];
    *iter = grcount;
    *objective = fmin;
    if (fail == 1) return MLCRF_NOT_CONVERGED;
    if (fail == 51 || fail == 52) {
        /* a warning or an abnormal end of the line search, which happens when
         * the objective no longer changes in floating point: accept the point
         * when its gradient is small */
        double gmax = 0.0;
        lbfgs_value(pr, theta, c.gc);
        for (size_t k = 0; k < len; k++) gmax = fmax(gmax, fabs(c.gc[k]));
        return gmax <= sqrt(tol) ? MLCRF_OK : MLCRF_ERR_LBFGS;
    }
    if (fail != 0) return MLCRF_ERR_LBFGS;
    return MLCRF_OK;
}
