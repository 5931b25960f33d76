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

void crf_gibbs(const crf_graph *g, const double *node, const double *pair, int sweeps,
               int burn, int nbatch, double (*runif)(void), int *y, double *marg,
               double *se, int *best, double *best_score, double *batch)
{
    int m = g->m;
    int per = sweeps / nbatch;
    if (per < 1) { per = 1; nbatch = sweeps; }
    for (int k = 0; k < m * nbatch; k++) batch[k] = 0.0;
    memcpy(best, y, sizeof(int) * (size_t) m);
    *best_score = crf_score(g, node, pair, y);
    int total = burn + per * nbatch;
    for (int s = 0; s < total; s++) {
        int b = s < burn ? -1 : (s - burn) / per;
        for (int l = 0; l < m; l++) {
            double p = sigmoid(local_logodds(g, node, pair, y, l));
            y[l] = runif() < p;
            if (b >= 0) batch[b * m + l] += p;   /* Rao-Blackwellised */
        }
        double sc = crf_score(g, node, pair, y);
        if (sc > *best_score) {
            *best_score = sc;
            memcpy(best, y, sizeof(int) * (size_t) m);
        }
    }
    *se = 0.0;
    for (int l = 0; l < m; l++) {
        double mean = 0.0, ss = 0.0;
        for (int b = 0; b < nbatch; b++) mean += batch[b * m + l] / per;
        mean /= nbatch;
        for (int b = 0; b < nbatch; b++) {
            double d = batch[b * m + l] / per - mean;
            ss += d * d;
        }
        marg[l] = mean;
        double sel = nbatch > 1 ? sqrt(ss / (nbatch - 1) / nbatch) : INFINITY;
        if (sel > *se) *se = sel;
    }
}
