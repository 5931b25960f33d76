/* Classifier chains and probabilistic classifier chains: see chains_core.h. */
#include <math.h>
#include <string.h>
#include <R.h>
#include <R_ext/Utils.h>
#include "logistic_core.h"
#include "chains_core.h"

void chain_fit(const lin_rows *X, int m, const double *y, const double *cost, double eps,
               int max_iter, double *W, int *iter, int *status, double *grad_norm,
               double *zbuf, double *wbuf)
{
    int n = X->n, d = X->d, has_bias = X->bias != 0.0;
    size_t ld = (size_t) d + m + 1;
    for (int k = 0; k < m; k++) {
        /* the rows (x_i, y_i0 .. y_i,k-1, bias): the previous labels as 0/1,
         * row-major n x k in zbuf (rewritten for each k) */
        for (int i = 0; i < n; i++)
            for (int j = 0; j < k; j++)
                zbuf[(size_t) i * k + j] = y[i + (size_t) n * j] > 0 ? 1.0 : 0.0;
        lin_rows D = *X;
        D.q = k;
        D.z = k > 0 ? zbuf : NULL;
        double *col = W + ld * k;
        memcpy(wbuf, col, sizeof(double) * ((size_t) d + k));
        if (has_bias) wbuf[d + k] = col[d + m];
        status[k] = logistic_fit(&D, y + (size_t) n * k, NULL, cost[k], eps, max_iter,
                                 wbuf, iter + k);
        if (grad_norm) grad_norm[k] = logistic_grad_norm(&D, y + (size_t) n * k, NULL, cost[k], wbuf);
        memset(col, 0, sizeof(double) * ld);
        memcpy(col, wbuf, sizeof(double) * ((size_t) d + k));
        if (has_bias) col[d + m] = wbuf[d + k];
    }
}

/* log sigma(z) without overflow */
static double log_sigmoid(double z)
{
    return z >= 0 ? -log1p(exp(-z)) : z - log1p(exp(z));
}

/* the log-odds of position k given the prefix y_0 .. y_k-1 */
static double chain_logit(const double *a, const double *G, int m, int k, const int *y)
{
    const double *g = G + (size_t) m * k;
    double z = a[k];
    for (int j = 0; j < k; j++) if (y[j]) z += g[j];
    return z;
}

double chain_logprob(const double *a, const double *G, int m, const int *y)
{
    double lp = 0.0;
    for (int k = 0; k < m; k++) {
        double z = chain_logit(a, G, m, k, y);
        lp += log_sigmoid(y[k] ? z : -z);
    }
    return lp;
}

void chain_greedy(const double *a, const double *G, int m, int *y, double *p)
{
    for (int k = 0; k < m; k++) {
        double z = chain_logit(a, G, m, k, y);
        p[k] = 1.0 / (1.0 + exp(-z));
        y[k] = z > 0;
    }
}

typedef struct {
    const double *a, *G;
    int m;
    int *y, *map;
    double *marg;     /* NULL: MAP only, with pruning */
    double best;
    double nodes;
} exact_walk;

/* visit the node at depth k whose prefix y_0 .. y_k-1 has log probability lp */
static void exact_visit(exact_walk *w, int k, double lp)
{
    w->nodes += 1.0;
    if (k == w->m) {
        if (lp > w->best) {
            w->best = lp;
            memcpy(w->map, w->y, sizeof(int) * (size_t) w->m);
        }
        return;
    }
    double z = chain_logit(w->a, w->G, w->m, k, w->y);
    double l1 = lp + log_sigmoid(z), l0 = lp + log_sigmoid(-z);
    if (w->marg) w->marg[k] += exp(l1);
    /* the likelier child first: its first leaf is the greedy vector, a good
     * bound to prune the rest with */
    int first = z > 0;
    for (int t = 0; t < 2; t++) {
        int bit = t == 0 ? first : !first;
        double l = bit ? l1 : l0;
        if (!w->marg && !(l > w->best)) continue;
        w->y[k] = bit;
        exact_visit(w, k + 1, l);
    }
    w->y[k] = 0;
}

double chain_exact(const double *a, const double *G, int m, int *map, double *marg,
                   double *logp, int *y)
{
    exact_walk w = {a, G, m, y, map, marg, -INFINITY, 0.0};
    for (int k = 0; k < m; k++) { y[k] = 0; map[k] = 0; if (marg) marg[k] = 0.0; }
    exact_visit(&w, 0, 0.0);
    *logp = w.best;
    return w.nodes;
}

void chain_beam(const double *a, const double *G, int m, int B, int *map, double *marg,
                double *logp, int *ybuf, double *lp, int *idx)
{
    int *cur = ybuf, *nxt = ybuf + (size_t) B * m;
    double *cur_lp = lp, *cand = lp + B;
    int size = 1;
    cur_lp[0] = 0.0;
    for (int k = 0; k < m; k++) {
        /* candidate c = 2 b + bit extends beam member b by y_k = bit */
        double top = -INFINITY;
        for (int b = 0; b < size; b++) {
            double z = chain_logit(a, G, m, k, cur + (size_t) b * m);
            cand[2 * b] = cur_lp[b] + log_sigmoid(-z);
            cand[2 * b + 1] = cur_lp[b] + log_sigmoid(z);
            if (cand[2 * b + 1] > top) top = cand[2 * b + 1];
            if (cand[2 * b] > top) top = cand[2 * b];
        }
        int nc = 2 * size;
        if (marg) {
            double s1 = 0.0, s = 0.0;
            for (int c = 0; c < nc; c++) {
                double e = exp(cand[c] - top);
                s += e;
                if (c & 1) s1 += e;
            }
            marg[k] = s1 / s;
        }
        for (int c = 0; c < nc; c++) idx[c] = c;
        revsort(cand, idx, nc);   /* decreasing log probability, idx along */
        int keep = nc < B ? nc : B;
        for (int r = 0; r < keep; r++) {
            int c = idx[r], b = c / 2;
            int *dst = nxt + (size_t) r * m;
            memcpy(dst, cur + (size_t) b * m, sizeof(int) * (size_t) k);
            dst[k] = c & 1;
            cur_lp[r] = cand[r];
        }
        int *t = cur; cur = nxt; nxt = t;
        size = keep;
    }
    memcpy(map, cur, sizeof(int) * (size_t) m);   /* the beam is sorted: best first */
    *logp = cur_lp[0];
}

void chain_sample(const double *a, const double *G, int m, int S, double (*unif)(void),
                  int *map, double *marg, double *logp, int *y)
{
    double best = -INFINITY;
    for (int k = 0; k < m; k++) { marg[k] = 0.0; map[k] = 0; }
    for (int s = 0; s < S; s++) {
        /* one instance may draw up to 2^31 samples: stay interruptible */
        if ((s & 0xFFFF) == 0xFFFF) R_CheckUserInterrupt();
        double lp = 0.0;
        for (int k = 0; k < m; k++) {
            double z = chain_logit(a, G, m, k, y);
            double p = 1.0 / (1.0 + exp(-z));
            marg[k] += p;
            y[k] = unif() < p;
            lp += log_sigmoid(y[k] ? z : -z);
        }
        if (lp > best) {
            best = lp;
            memcpy(map, y, sizeof(int) * (size_t) m);
        }
    }
    for (int k = 0; k < m; k++) marg[k] /= S;
    *logp = best;
}
