/* .Call glue for inference in a pairwise CRF over binary labels, instance by
 * instance (crf_infer_core.c).  The graph is split into its connected
 * components once; per instance, each component is inferred on its own
 * (the model factorises over them, and log Z is the sum of theirs):
 *   exactly, by enumeration, when mode is "exact", or "auto" and the
 *     component has at most comp_max labels;
 *   else approximately: on a tree, sum-product BP for the marginals (exact
 *     once converged) and max-product BP for the MAP (exact on a tree once
 *     converged); on a component with cycles, Gibbs sampling with replica
 *     exchange for the marginals (two runs; the standard error within and
 *     between them) and BP's Bethe approximation for log Z.  The MAP
 *     candidates (max-product, the independent solution, the rounded
 *     marginals, the best state the sampler's chains visited and `starts`
 *     random states) are each polished by ICM and the best kept.
 *     BP that does not settle is retried with more damping (d <- (1 + d) / 2,
 *     three times), then once more with the first damping on the serial
 *     schedule. */
#include <R.h>
#include <Rinternals.h>
#include <R_ext/Random.h>
#include <string.h>
#include <math.h>
#include <limits.h>
#include "crf_infer_core.h"
#include "mlss.h"

#define WANT_MARG 1
#define WANT_MAP 2
#define WANT_LOGZ 4
#define CRF_EXACT_MAX 30   /* a hard guard on one component; the R side documents the cut-off */
#define GIBBS_RUNS 2       /* independent Gibbs runs per component: their spread shows non-mixing */

static double crf_unif(void) { return unif_rand(); }

/* node: n x m log-potentials of y_l = 1; pair: n x 3E potentials of the
 * configurations (0,1), (1,0), (1,1) of each edge; from, to: 0-based edges;
 * mode: 0 auto, 1 exact, 2 approximate; comp_max: the largest component
 * "auto" enumerates; y: NULL or an n x m 0/1 double matrix of the label
 * vectors whose log-probability is wanted; damping, maxit, tol: BP; sweeps:
 * Gibbs sweeps per temperature (GIBBS_RUNS runs of sweeps / GIBBS_RUNS, each
 * after a fifth of that of burn-in), run again with 2, 4, 8 times as many
 * while the largest standard error exceeds se_target; starts:
 * random ICM starts; what: a sum of WANT_MARG (the marginals), WANT_MAP and
 * WANT_LOGZ (log Z, and logp of y): on an approximate component only what is
 * asked for is computed (log Z alone is BP's, without the MAP search or
 * Gibbs); loopy: 0 Gibbs for the marginals of every approximate component
 * with cycles, 1 BP's marginals there where BP settled, Gibbs elsewhere;
 * tempering: c(chains, beta_min), the replica-exchange ladder (geometric
 * from 1 to beta_min; one chain: plain Gibbs sampling).
 * Entries not asked for are left as computed on the way (the marginals of
 * BP, the independent MAP) and are not to be used.
 * Returns list(marginal, map, logZ, logp, bp_iter, bp_delta, gibbs_se,
 * map_certified, exact_labels, component, loopy, gibbs, swap_rate), loopy
 * and gibbs per instance: an approximate component had cycles, Gibbs
 * sampling ran; swap_rate: the lowest acceptance of a swap between
 * neighbouring temperatures (NA without tempering). */
SEXP crf_infer(SEXP node, SEXP pair, SEXP from, SEXP to, SEXP mode, SEXP comp_max, SEXP y,
               SEXP damping, SEXP maxit, SEXP tol, SEXP sweeps, SEXP starts, SEXP se_target,
               SEXP what, SEXP loopy, SEXP tempering)
{
    int want = Rf_asInteger(what), lpy = Rf_asInteger(loopy);
    if (want == NA_INTEGER || want < 1 || want > 7 || (lpy != 0 && lpy != 1))
        Rf_error("internal: bad what or loopy");
    double setarget = Rf_asReal(se_target);
    if (!Rf_isReal(node) || !Rf_isMatrix(node)) Rf_error("internal: node must be a double matrix");
    int n = Rf_nrows(node), m = Rf_ncols(node);
    if (!Rf_isInteger(from) || !Rf_isInteger(to) || XLENGTH(from) != XLENGTH(to))
        Rf_error("internal: the edges must be two integer vectors of equal length");
    int E = (int) XLENGTH(from);
    const int *fr = INTEGER(from), *tt = INTEGER(to);
    for (int e = 0; e < E; e++)
        if (fr[e] < 0 || tt[e] >= m || fr[e] >= tt[e]) Rf_error("internal: bad edge %d", e + 1);
    if (!Rf_isReal(pair) || !Rf_isMatrix(pair) || Rf_nrows(pair) != n || Rf_ncols(pair) != 3 * E)
        Rf_error("internal: pair must be a double %d x %d matrix", n, 3 * E);
    int md = Rf_asInteger(mode), cmax = Rf_asInteger(comp_max);
    int nsw = Rf_asInteger(sweeps), nst = Rf_asInteger(starts);
    if (md < 0 || md > 2 || cmax < 0 || nsw < 1 || nst < 0)
        Rf_error("internal: bad mode, comp_max, sweeps or starts");
    const double *Y = NULL;
    if (!Rf_isNull(y)) {
        if (!Rf_isReal(y) || Rf_nrows(y) != n || Rf_ncols(y) != m)
            Rf_error("internal: y must be a double %d x %d matrix", n, m);
        Y = REAL(y);
    }
    if (!Rf_isReal(tempering) || XLENGTH(tempering) != 2)
        Rf_error("internal: tempering must be c(chains, beta_min)");
    int npt = (int) REAL(tempering)[0];
    double bmin = REAL(tempering)[1];
    if (npt < 1 || npt > 100 || !(bmin > 0 && bmin <= 1))
        Rf_error("internal: bad tempering");
    double damp = Rf_asReal(damping), tl = Rf_asReal(tol);
    int mx = Rf_asInteger(maxit);

    /* the components, their labels and edges, and a graph per component */
    int *comp = (int *) R_alloc((size_t) m + 1, sizeof(int));
    int *parent = (int *) R_alloc((size_t) m + 1, sizeof(int));
    int nc = crf_components(m, E, fr, tt, comp, parent);
    int *csize = (int *) R_alloc((size_t) nc + 1, sizeof(int));
    int *cedges = (int *) R_alloc((size_t) nc + 1, sizeof(int));
    int *lstart = (int *) R_alloc((size_t) nc + 1, sizeof(int));
    int *estart = (int *) R_alloc((size_t) nc + 1, sizeof(int));
    int *labs = (int *) R_alloc((size_t) m + 1, sizeof(int));
    int *local = (int *) R_alloc((size_t) m + 1, sizeof(int));
    int *eids = (int *) R_alloc((size_t) E + 1, sizeof(int));
    int *lfrom = (int *) R_alloc((size_t) E + 1, sizeof(int));
    int *lto = (int *) R_alloc((size_t) E + 1, sizeof(int));
    int *gstart = (int *) R_alloc((size_t) m + nc + 1, sizeof(int));
    int *gadj = (int *) R_alloc(2 * (size_t) E + 1, sizeof(int));
    for (int c = 0; c < nc; c++) csize[c] = cedges[c] = 0;
    for (int l = 0; l < m; l++) csize[comp[l]]++;
    for (int e = 0; e < E; e++) cedges[comp[fr[e]]]++;
    lstart[0] = estart[0] = 0;
    for (int c = 1; c < nc; c++) {
        lstart[c] = lstart[c - 1] + csize[c - 1];
        estart[c] = estart[c - 1] + cedges[c - 1];
    }
    int maxsize = 0;
    for (int c = 0; c < nc; c++) {
        if (csize[c] > maxsize) maxsize = csize[c];
        csize[c] = 0;
        cedges[c] = 0;
    }
    for (int l = 0; l < m; l++) {
        int c = comp[l];
        local[l] = csize[c];
        labs[lstart[c] + csize[c]++] = l;
    }
    for (int e = 0; e < E; e++) {
        int c = comp[fr[e]], k = estart[c] + cedges[c]++;
        eids[k] = e;
        lfrom[k] = local[fr[e]];
        lto[k] = local[tt[e]];
    }
    crf_graph *graphs = (crf_graph *) R_alloc((size_t) nc + 1, sizeof(crf_graph));
    int *cexact = (int *) R_alloc((size_t) nc + 1, sizeof(int));
    for (int c = 0; c < nc; c++) {
        crf_graph_build(&graphs[c], csize[c], cedges[c], lfrom + estart[c], lto + estart[c],
                        gstart + lstart[c] + c, gadj + 2 * (size_t) estart[c]);
        cexact[c] = md == 1 || (md == 0 && csize[c] <= cmax);
        if (cexact[c] && csize[c] > CRF_EXACT_MAX)
            Rf_error("internal: exact inference on a component of %d labels", csize[c]);
    }

    SEXP marg = PROTECT(Rf_allocMatrix(REALSXP, n, m));
    SEXP map = PROTECT(Rf_allocMatrix(INTSXP, n, m));
    SEXP logZ = PROTECT(Rf_allocVector(REALSXP, n));
    SEXP logp = PROTECT(Y ? Rf_allocVector(REALSXP, n) : R_NilValue);
    SEXP bpit = PROTECT(Rf_allocVector(INTSXP, n));
    SEXP bpdel = PROTECT(Rf_allocVector(REALSXP, n));
    SEXP gse = PROTECT(Rf_allocVector(REALSXP, n));
    SEXP cert = PROTECT(Rf_allocVector(LGLSXP, n));
    SEXP nexact = PROTECT(Rf_allocVector(INTSXP, n));
    SEXP compr = PROTECT(Rf_allocVector(INTSXP, m));
    SEXP loopyr = PROTECT(Rf_allocVector(LGLSXP, n));
    SEXP gibbsr = PROTECT(Rf_allocVector(LGLSXP, n));
    SEXP swapr = PROTECT(Rf_allocVector(REALSXP, n));
    for (int l = 0; l < m; l++) INTEGER(compr)[l] = comp[l] + 1;

    int ms = maxsize > 0 ? maxsize : 1;
    int nbatch = 20;
    double *nd = (double *) R_alloc((size_t) ms, sizeof(double));
    double *pr = (double *) R_alloc(3 * (size_t) E + 3, sizeof(double));
    double *mg = (double *) R_alloc((size_t) ms, sizeof(double));
    double *mg2 = (double *) R_alloc((size_t) ms, sizeof(double));
    double *acc = (double *) R_alloc((size_t) ms, sizeof(double));
    double *batch = (double *) R_alloc((size_t) ms * nbatch * GIBBS_RUNS, sizeof(double));
    /* the replica-exchange ladder: geometric from 1 down to beta_min */
    double *beta = (double *) R_alloc((size_t) npt, sizeof(double));
    for (int r = 0; r < npt; r++) beta[r] = npt > 1 ? pow(bmin, (double) r / (npt - 1)) : 1.0;
    double *scr = (double *) R_alloc((size_t) npt, sizeof(double));
    int *accepted = (int *) R_alloc((size_t) npt, sizeof(int));
    int *ys = (int *) R_alloc((size_t) ms * npt * GIBBS_RUNS, sizeof(int));
    int *y3 = (int *) R_alloc((size_t) ms, sizeof(int));
    double *msg = (double *) R_alloc(2 * (size_t) E + 1, sizeof(double));
    double *msg2 = (double *) R_alloc(2 * (size_t) E + 1, sizeof(double));
    int *yv = (int *) R_alloc((size_t) ms, sizeof(int));
    int *mp = (int *) R_alloc((size_t) ms, sizeof(int));
    int *y2 = (int *) R_alloc((size_t) ms, sizeof(int));
    int *yall = (int *) R_alloc((size_t) m + 1, sizeof(int));
    const double *N = REAL(node), *PP = REAL(pair);
    int any_random = 0;
    for (int c = 0; c < nc; c++) if (!cexact[c] && cedges[c] > 0) any_random = 1;
    if (any_random) GetRNGstate();

    for (int i = 0; i < n; i++) {
        if (maxsize >= 12 || i % 64 == 0) R_CheckUserInterrupt();
        double lz_all = 0.0, dmax = 0.0, semax = 0.0;
        int itmax = 0, certified = 1, nex = 0, anyloopy = 0, anygibbs = 0;
        double swapmin = NA_REAL;   /* the lowest swap acceptance of the ladder */
        for (int c = 0; c < nc; c++) {
            const crf_graph *g = &graphs[c];
            int sz = csize[c], ec = cedges[c];
            for (int j = 0; j < sz; j++) nd[j] = N[IDX(i, labs[lstart[c] + j], n)];
            for (int k = 0; k < ec; k++)
                for (int t = 0; t < 3; t++)
                    pr[3 * k + t] = PP[IDX(i, 3 * eids[estart[c] + k] + t, n)];
            double lz;
            if (cexact[c] || ec == 0) {
                if (ec == 0) {   /* independent labels: exact in closed form */
                    lz = 0.0;
                    for (int j = 0; j < sz; j++) {
                        double z = nd[j];
                        mg[j] = 1.0 / (1.0 + exp(-z));
                        mp[j] = z > 0;
                        lz += z > 0 ? z + log1p(exp(-z)) : log1p(exp(z));
                    }
                } else {
                    crf_exact(g, nd, pr, mp, mg, &lz, yv, acc);
                }
                nex += sz;
            } else {
                int tree = ec == sz - 1;
                /* sum-product BP, with more damping when it does not settle,
                 * then once on the serial schedule */
                double d = damp, delta = 0.0;
                int it = 0;
                for (int tries = 0; tries < 5; tries++) {
                    it += crf_bp_schedule(g, nd, pr, d, mx, tl, 0, tries == 4, msg, msg2, acc,
                                          mg, &delta, &lz);
                    if (delta < tl) break;
                    if (tries < 3) d = 0.5 * (1.0 + d);
                    else d = damp;
                }
                if (delta > dmax) dmax = delta;
                if (it > itmax) itmax = it;
                if (!tree) anyloopy = 1;
                /* Gibbs for the marginals of a component with cycles: always
                 * with loopy = 0; with loopy = 1 only where BP did not settle */
                int gibbs = !tree && (want & (WANT_MARG | WANT_MAP)) &&
                    (lpy == 0 || delta >= tl);
                int certified_c = 1;
                if (want & WANT_MAP) {
                    /* MAP candidates, each polished by ICM: max-product, the
                     * independent solution, the rounded marginals */
                    double dm = 0.0, best;
                    crf_bp(g, nd, pr, damp, mx, tl, 1, msg, msg2, acc, mg2, &dm, &best);
                    for (int j = 0; j < sz; j++) mp[j] = mg2[j] > 0;
                    int mp_converged = dm < tl;
                    int tie = 0;
                    for (int j = 0; j < sz; j++) if (fabs(mg2[j]) < 1e-9) tie = 1;
                    crf_icm(g, nd, pr, mp, 100);
                    best = crf_score(g, nd, pr, mp);
                    int polished_same = 1;
                    for (int j = 0; j < sz; j++) if ((mg2[j] > 0) != mp[j]) polished_same = 0;
                    for (int s = 0; s < 2 + nst + 1; s++) {
                        if (s == 0) for (int j = 0; j < sz; j++) y2[j] = nd[j] > 0;
                        else if (s == 1) for (int j = 0; j < sz; j++) y2[j] = mg[j] > 0.5;
                        else if (s < 2 + nst) for (int j = 0; j < sz; j++) y2[j] = crf_unif() < 0.5;
                        else break;
                        crf_icm(g, nd, pr, y2, 100);
                        double sc = crf_score(g, nd, pr, y2);
                        if (sc > best) { best = sc; memcpy(mp, y2, sizeof(int) * (size_t) sz); }
                    }
                    if (!tree || !(mp_converged && !tie && polished_same)) certified_c = 0;
                    memcpy(yv, mp, sizeof(int) * (size_t) sz);
                } else {
                    for (int j = 0; j < sz; j++) mp[j] = yv[j] = mg[j] > 0.5;
                    certified_c = 0;
                }
                if (gibbs) {
                    /* GIBBS_RUNS runs of replica exchange (npt chains; plain
                     * Gibbs when npt = 1), from the best state so far and
                     * from random ones; more sweeps (2, 4, 8 times) while the
                     * standard error (within and between the runs) is above
                     * the target */
                    double se = INFINITY, bs = -INFINITY, bsk;
                    double bstart = crf_score(g, nd, pr, yv);
                    for (int k = 0; k < GIBBS_RUNS; k++)
                        for (int r = 0; r < npt; r++) {
                            int *yr = ys + ((size_t) k * npt + r) * sz;
                            for (int j = 0; j < sz; j++) yr[j] = k == 0 ? yv[j] : crf_unif() < 0.5;
                        }
                    int sw = nsw;
                    for (int a = 0; a < 4; a++, sw *= 2) {
                        int per = sw / (GIBBS_RUNS * nbatch);
                        if (per < 1) per = 1;
                        int burn = per * nbatch / 5, total = burn + per * nbatch;
                        for (int k = 0; k < GIBBS_RUNS; k++) {
                            crf_gibbs(g, nd, pr, per, burn, nbatch, npt, beta, crf_unif,
                                      ys + (size_t) k * npt * sz, scr,
                                      batch + (size_t) k * nbatch * sz, y3, &bsk, accepted);
                            if (bsk > bs) { bs = bsk; memcpy(y2, y3, sizeof(int) * (size_t) sz); }
                            for (int r = 0; r + 1 < npt; r++) {
                                double rate = (double) accepted[r] / total;
                                if (ISNA(swapmin) || rate < swapmin) swapmin = rate;
                            }
                        }
                        se = crf_batch_summary(sz, GIBBS_RUNS, nbatch, per, batch, mg);
                        if (se <= setarget || sw > INT_MAX / 4) break;
                    }
                    if (se > semax) semax = se;
                    if ((want & WANT_MAP) && bs > bstart) {
                        crf_icm(g, nd, pr, y2, 100);
                        if (crf_score(g, nd, pr, y2) > crf_score(g, nd, pr, mp))
                            memcpy(mp, y2, sizeof(int) * (size_t) sz);
                    }
                    anygibbs = 1;
                }
                if (!certified_c) certified = 0;
            }
            for (int j = 0; j < sz; j++) {
                int l = labs[lstart[c] + j];
                REAL(marg)[IDX(i, l, n)] = mg[j];
                INTEGER(map)[IDX(i, l, n)] = mp[j];
            }
            lz_all += lz;
        }
        REAL(logZ)[i] = lz_all;
        INTEGER(bpit)[i] = itmax;
        REAL(bpdel)[i] = dmax;
        REAL(gse)[i] = semax;
        LOGICAL(cert)[i] = certified;
        INTEGER(nexact)[i] = nex;
        LOGICAL(loopyr)[i] = anyloopy;
        LOGICAL(gibbsr)[i] = anygibbs;
        REAL(swapr)[i] = swapmin;
        if (Y) {
            for (int l = 0; l < m; l++) yall[l] = Y[IDX(i, l, n)] > 0.5;
            /* the full graph's score: the edges' original numbering */
            double sc = 0.0;
            for (int l = 0; l < m; l++) if (yall[l]) sc += N[IDX(i, l, n)];
            for (int e = 0; e < E; e++) {
                int a = yall[fr[e]], b = yall[tt[e]];
                if (a || b) sc += PP[IDX(i, 3 * e + (a ? (b ? 2 : 1) : 0), n)];
            }
            REAL(logp)[i] = sc - lz_all;
        }
    }
    if (any_random) PutRNGstate();
    const char *names[] = {"marginal", "map", "logZ", "logp", "bp_iter", "bp_delta",
                           "gibbs_se", "map_certified", "exact_labels", "component",
                           "loopy", "gibbs", "swap_rate", ""};
    SEXP out = named_list(names, marg, map, logZ, logp, bpit, bpdel, gse, cert, nexact, compr,
                          loopyr, gibbsr, swapr);
    UNPROTECT(13);
    return out;
}
