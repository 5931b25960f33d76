/* Exact and approximate inference in a pairwise binary model: see
 * crf_infer_core.h. */
#include <math.h>
#include <string.h>
#include "crf_infer_core.h"

void crf_graph_build(crf_graph *g, int m, int E, const int *from, const int *to,
                     int *start, int *adj)
{
    g->m = m;
    g->E = E;
    g->from = from;
    g->to = to;
    g->start = start;
    g->adj = adj;
    for (int l = 0; l <= m; l++) start[l] = 0;
    for (int e = 0; e < E; e++) {
        start[from[e] + 1]++;
        start[to[e] + 1]++;
    }
    for (int l = 0; l < m; l++) start[l + 1] += start[l];
    int *fill = start;   /* reuse: counts back after the fill */
    for (int e = 0; e < E; e++) {
        adj[fill[from[e]]++] = e;
        adj[fill[to[e]]++] = e;
    }
    for (int l = m; l > 0; l--) start[l] = start[l - 1];
    start[0] = 0;
}

static double phi(const double *pair, int e, int a, int b)
{
    if (!a && !b) return 0.0;
    return pair[3 * (size_t) e + (a ? (b ? 2 : 1) : 0)];
}

double crf_score(const crf_graph *g, const double *node, const double *pair, const int *y)
{
    double s = 0.0;
    for (int l = 0; l < g->m; l++) if (y[l]) s += node[l];
    for (int e = 0; e < g->E; e++) s += phi(pair, e, y[g->from[e]], y[g->to[e]]);
    return s;
}

/* The change of log-odds of label l: the score with y_l = 1 minus with y_l = 0,
 * the other labels as in y. */
static double local_logodds(const crf_graph *g, const double *node, const double *pair,
                            const int *y, int l)
{
    double s = node[l];
    for (int k = g->start[l]; k < g->start[l + 1]; k++) {
        int e = g->adj[k];
        if (g->from[e] == l) {
            int b = y[g->to[e]];
            s += phi(pair, e, 1, b) - phi(pair, e, 0, b);
        } else {
            int a = y[g->from[e]];
            s += phi(pair, e, a, 1) - phi(pair, e, a, 0);
        }
    }
    return s;
}

void crf_exact(const crf_graph *g, const double *node, const double *pair, int *map,
               double *marg, double *logZ, int *y, double *acc)
{
    int m = g->m;
    for (int l = 0; l < m; l++) { y[l] = 0; acc[l] = 0.0; map[l] = 0; }
    /* running log-sum-exp: sum = sum_y exp(s(y) - best), acc[l] likewise over y_l = 1 */
    double s = 0.0, best = 0.0, sum = 1.0;
    unsigned long total = 1UL << m;
    for (unsigned long k = 1; k < total; k++) {
        int l = 0;   /* the bit that changes from Gray code k-1 to k */
        while (!((k >> l) & 1UL)) l++;
        double lo = local_logodds(g, node, pair, y, l);
        if (y[l]) { s -= lo; y[l] = 0; } else { s += lo; y[l] = 1; }
        if (s > best) {   /* rescale to the new maximum, which is the MAP so far */
            double f = exp(best - s);
            sum *= f;
            for (int j = 0; j < m; j++) acc[j] *= f;
            best = s;
            memcpy(map, y, sizeof(int) * (size_t) m);
        }
        double w = exp(s - best);
        sum += w;
        for (int j = 0; j < m; j++) if (y[j]) acc[j] += w;
    }
    for (int l = 0; l < m; l++) marg[l] = acc[l] / sum;
    *logZ = best + log(sum);
}

static double logaddexp(double a, double b)
{
    return a > b ? a + log1p(exp(b - a)) : b + log1p(exp(a - b));
}

static double sigmoid(double z) { return 1.0 / (1.0 + exp(-z)); }

/* binary entropy of a probability */
static double xlogx(double p) { return p > 0 ? p * log(p) : 0.0; }

static double maxadd(double a, double b) { return a > b ? a : b; }

int crf_bp(const crf_graph *g, const double *node, const double *pair, double damping,
           int maxit, double tol, int maxprod, double *msg, double *newmsg, double *belief,
           double *marg, double *delta, double *logZ)
{
    return crf_bp_schedule(g, node, pair, damping, maxit, tol, maxprod, 0, msg, newmsg,
                           belief, marg, delta, logZ);
}

int crf_bp_schedule(const crf_graph *g, const double *node, const double *pair,
                    double damping, int maxit, double tol, int maxprod, int serial,
                    double *msg, double *newmsg, double *belief, double *marg,
                    double *delta, double *logZ)
{
    double (*comb)(double, double) = maxprod ? maxadd : logaddexp;
    int m = g->m, E = g->E, it;
    for (int k = 0; k < 2 * E; k++) msg[k] = 0.0;
    *delta = 0.0;
    for (it = 1; it <= maxit; it++) {
        for (int l = 0; l < m; l++) belief[l] = node[l];
        for (int e = 0; e < E; e++) {
            belief[g->to[e]] += msg[2 * e];
            belief[g->from[e]] += msg[2 * e + 1];
        }
        double dmax = 0.0;
        for (int e = 0; e < E; e++) {
            double p01 = phi(pair, e, 0, 1), p10 = phi(pair, e, 1, 0), p11 = phi(pair, e, 1, 1);
            double ha = belief[g->from[e]] - msg[2 * e + 1];   /* cavity of from */
            double hb = belief[g->to[e]] - msg[2 * e];         /* cavity of to */
            double to_b = comb(p01, ha + p11) - comb(0.0, ha + p10);
            double to_a = comb(p10, hb + p11) - comb(0.0, hb + p01);
            double nb = damping * msg[2 * e] + (1.0 - damping) * to_b;
            double na = damping * msg[2 * e + 1] + (1.0 - damping) * to_a;
            dmax = fmax(dmax, fmax(fabs(nb - msg[2 * e]), fabs(na - msg[2 * e + 1])));
            if (serial) {
                /* in place: the next edges see these messages (Gauss-Seidel) */
                belief[g->to[e]] += nb - msg[2 * e];
                belief[g->from[e]] += na - msg[2 * e + 1];
                msg[2 * e] = nb;
                msg[2 * e + 1] = na;
            } else {
                newmsg[2 * e] = nb;
                newmsg[2 * e + 1] = na;
            }
        }
        if (!serial) memcpy(msg, newmsg, sizeof(double) * 2 * (size_t) E);
        *delta = dmax;
        if (dmax < tol) break;
    }
    for (int l = 0; l < m; l++) belief[l] = node[l];
    for (int e = 0; e < E; e++) {
        belief[g->to[e]] += msg[2 * e];
        belief[g->from[e]] += msg[2 * e + 1];
    }
    for (int l = 0; l < m; l++) marg[l] = sigmoid(belief[l]);
    if (maxprod) {   /* max-marginal log-ratios in marg, no log Z */
        for (int l = 0; l < m; l++) marg[l] = belief[l];
        *logZ = NAN;
        return it > maxit ? maxit : it;
    }
    /* Bethe free energy: log Z ~ sum_e [E_b(phi_e) + H(b_e)] + sum_l [node_l b_l
     * + (1 - deg_l) H(b_l)], with the pairwise beliefs b_e of the messages */
    double lz = 0.0;
    for (int l = 0; l < m; l++) {
        int deg = g->start[l + 1] - g->start[l];
        double p = marg[l];
        lz += node[l] * p - (1.0 - deg) * (xlogx(p) + xlogx(1.0 - p));
    }
    for (int e = 0; e < E; e++) {
        double ha = belief[g->from[e]] - msg[2 * e + 1], hb = belief[g->to[e]] - msg[2 * e];
        double t[4], mx = -INFINITY, z = 0.0;
        for (int a = 0; a < 2; a++)
            for (int b = 0; b < 2; b++) {
                t[2 * a + b] = a * ha + b * hb + phi(pair, e, a, b);
                mx = fmax(mx, t[2 * a + b]);
            }
        for (int k = 0; k < 4; k++) z += exp(t[k] - mx);
        for (int a = 0; a < 2; a++)
            for (int b = 0; b < 2; b++) {
                double pb = exp(t[2 * a + b] - mx) / z;
                /* node terms are already counted in the sum over labels */
                lz += pb * phi(pair, e, a, b) - xlogx(pb);
            }
    }
    *logZ = lz;
    return it > maxit ? maxit : it;
}

void crf_icm(const crf_graph *g, const double *node, const double *pair, int *y, int maxit)
{
    for (int sweep = 0; sweep < maxit; sweep++) {
        int changed = 0;
        for (int l = 0; l < g->m; l++) {
            int v = local_logodds(g, node, pair, y, l) > 0;
            if (v != y[l]) { y[l] = v; changed = 1; }
        }
        if (!changed) break;
    }
}

int crf_components(int m, int E, const int *from, const int *to, int *comp, int *parent)
{
    for (int l = 0; l < m; l++) parent[l] = l;
    for (int e = 0; e < E; e++) {
        int a = from[e], b = to[e];
        while (parent[a] != a) a = parent[a] = parent[parent[a]];
        while (parent[b] != b) b = parent[b] = parent[parent[b]];
        if (a != b) parent[a > b ? a : b] = a < b ? a : b;
    }
    int nc = 0;
    for (int l = 0; l < m; l++) {
        int r = l;
        while (parent[r] != r) r = parent[r];
        comp[l] = (r == l) ? nc++ : comp[r];   /* the root is the smallest label, met first */
    }
    return nc;
}

/* One Gibbs sweep over the labels in order at inverse temperature beta
 * (p_beta(y) proportional to exp(beta s(y))); *score follows y.  With acc,
 * p(y_l = 1 | y_-l) is added into acc[l] (Rao-Blackwellised marginals). */
static void gibbs_sweep(const crf_graph *g, const double *node, const double *pair,
                        double beta, double (*runif)(void), int *y, double *score, double *acc)
{
    for (int l = 0; l < g->m; l++) {
        double lo = local_logodds(g, node, pair, y, l);
        double p = sigmoid(beta * lo);
        int old = y[l];
        y[l] = runif() < p;
        if (y[l] != old) *score += y[l] ? lo : -lo;
        if (acc) acc[l] += p;
    }
}

void crf_gibbs(const crf_graph *g, const double *node, const double *pair, int per, int burn,
               int nbatch, int R, const double *beta, double (*runif)(void), int *y,
               double *score, double *batch, int *best, double *best_score, int *accepted)
{
    int m = g->m;
    for (int k = 0; k < m * nbatch; k++) batch[k] = 0.0;
    for (int r = 0; r < R - 1; r++) accepted[r] = 0;
    *best_score = -INFINITY;
    for (int r = 0; r < R; r++) {
        score[r] = crf_score(g, node, pair, y + (size_t) r * m);
        if (score[r] > *best_score) {
            *best_score = score[r];
            memcpy(best, y + (size_t) r * m, sizeof(int) * (size_t) m);
        }
    }
    int total = burn + per * nbatch;
    for (int s = 0; s < total; s++) {
        int b = s < burn ? -1 : (s - burn) / per;
        for (int r = 0; r < R; r++) {
            int *yr = y + (size_t) r * m;
            gibbs_sweep(g, node, pair, beta[r], runif, yr, score + r,
                        r == 0 && b >= 0 ? batch + (size_t) b * m : NULL);
            /* the MAP search keeps the best state of any chain */
            if (score[r] > *best_score) {
                *best_score = score[r];
                memcpy(best, yr, sizeof(int) * (size_t) m);
            }
        }
        /* replica exchange between neighbouring temperatures: the states of
         * chains r and r + 1 trade places with probability
         * min(1, exp((beta_r - beta_r+1)(s_r+1 - s_r))), which keeps each
         * chain's distribution */
        for (int r = 0; r + 1 < R; r++) {
            double la = (beta[r] - beta[r + 1]) * (score[r + 1] - score[r]);
            if (la >= 0 || runif() < exp(la)) {
                int *ya = y + (size_t) r * m, *yb = ya + m;
                for (int l = 0; l < m; l++) { int t = ya[l]; ya[l] = yb[l]; yb[l] = t; }
                double t = score[r]; score[r] = score[r + 1]; score[r + 1] = t;
                accepted[r]++;
            }
        }
    }
}

double crf_batch_summary(int m, int K, int nbatch, int per, const double *batch, double *marg)
{
    double se = 0.0;
    for (int l = 0; l < m; l++) {
        double mean = 0.0, within = 0.0, between = 0.0;
        for (int k = 0; k < K; k++) {
            const double *bk = batch + (size_t) k * nbatch * m;
            double mk = 0.0;
            for (int b = 0; b < nbatch; b++) mk += bk[b * m + l] / per;
            mk /= nbatch;
            for (int b = 0; b < nbatch; b++) {
                double d = bk[b * m + l] / per - mk;
                within += d * d;
            }
            mean += mk;
            between += mk * mk;
        }
        mean /= K;
        marg[l] = mean;
        /* the batch means' variance within the runs, for the mean of K nbatch
         * batches; the run means' variance about their mean, for the mean of K runs */
        double sew = nbatch > 1 ? sqrt(within / (K * (nbatch - 1.0)) / (K * (double) nbatch))
                                : INFINITY;
        double seb = K > 1 ? sqrt(fmax(0.0, between - K * mean * mean) / (K - 1.0) / K) : 0.0;
        double sel = fmax(sew, seb);
        if (sel > se) se = sel;
    }
    return se;
}
