/* .Call glue for classifier chains (CC) and probabilistic classifier chains
 * (PCC): see chains_core.h. */
#include <R.h>
#include <Rinternals.h>
#include <R_ext/Utils.h>
#include <string.h>
#include "mlss.h"
#include "chains_core.h"

/* spec: linear_spec(x, bias) (no z block); y: n x m double +-1 in chain order;
 * cost: m; init: (d + m + 1) x m starting weights or NULL (see chain_fit()).
 * Returns list(W = (d + m + 1) x m, iter = m, status = m, grad_norm = m). */
SEXP chains_fit(SEXP spec, SEXP y, SEXP cost, SEXP eps, SEXP max_iter, SEXP init)
{
    lin_rows X = build_rows(spec);
    if (X.q != 0) Rf_error("internal: the chain rows take no z block");
    check_linear_problem(&X, y, R_NilValue);
    int n = X.n, d = X.d, m = Rf_ncols(y), maxit = Rf_asInteger(max_iter);
    int ld = d + m + 1;
    if (!Rf_isReal(cost) || LENGTH(cost) != m) Rf_error("internal: one cost per label");
    if (!Rf_isNull(init) && (!Rf_isReal(init) || !Rf_isMatrix(init) ||
                             Rf_nrows(init) != ld || Rf_ncols(init) != m))
        Rf_error("internal: init must be a %d x %d double matrix", ld, m);

    SEXP W = PROTECT(Rf_allocMatrix(REALSXP, ld, m));
    SEXP gn = PROTECT(Rf_allocVector(REALSXP, m));
    SEXP iters = PROTECT(Rf_allocVector(INTSXP, m));
    SEXP status = PROTECT(Rf_allocVector(INTSXP, m));
    if (Rf_isNull(init)) memset(REAL(W), 0, sizeof(double) * (size_t) ld * m);
    else memcpy(REAL(W), REAL(init), sizeof(double) * (size_t) ld * m);
    double *zbuf = (double *) R_alloc((size_t) n * m + 1, sizeof(double));
    double *wbuf = (double *) R_alloc((size_t) ld, sizeof(double));
    chain_fit(&X, m, REAL(y), REAL(cost), Rf_asReal(eps), maxit, REAL(W), INTEGER(iters),
              INTEGER(status), REAL(gn), zbuf, wbuf);
    const char *names[] = {"W", "iter", "status", "grad_norm", ""};
    SEXP res = named_list(names, W, iters, status, gn);
    UNPROTECT(4);
    return res;
}

static void check_chain_parts(SEXP A, SEXP G)
{
    if (!Rf_isReal(A) || !Rf_isMatrix(A)) Rf_error("internal: A must be a double matrix");
    int m = Rf_ncols(A);
    if (!Rf_isReal(G) || !Rf_isMatrix(G) || Rf_nrows(G) != m || Rf_ncols(G) != m)
        Rf_error("internal: G must be a %d x %d double matrix", m, m);
}

/* One instance's x parts, a row of the n x m matrix A, made contiguous. */
static void row_of(const double *A, int n, int m, int i, double *a)
{
    for (int k = 0; k < m; k++) a[k] = A[i + (size_t) n * k];
}

/* A: n x m x parts a_k(x_i) in chain order; G: m x m chain weights.
 * method: 0 CC greedy, 1 PCC exact, 2 beam, 3 sample; marginals: for exact,
 * enumerate everything for the marginals (else branch and bound, MAP only).
 * Returns list(map = n x m int 0/1, score = n x m (CC: the probabilities
 * along the greedy path; PCC: marginals, NA when not asked for), logp = n
 * (log probability of map), nodes = n (exact: nodes of the tree visited)). */
SEXP chains_infer(SEXP A, SEXP G, SEXP method, SEXP width, SEXP samples, SEXP marginals)
{
    check_chain_parts(A, G);
    int n = Rf_nrows(A), m = Rf_ncols(A), how = Rf_asInteger(method);
    int B = Rf_asInteger(width), S = Rf_asInteger(samples), want = Rf_asLogical(marginals);
    if (how < 0 || how > 3) Rf_error("internal: unknown inference method");
    if (how == 1 && m > 30) Rf_error("internal: exact inference over %d labels", m);
    if (how == 2 && B < 1) Rf_error("internal: the beam width must be >= 1");
    if (how == 3 && S < 1) Rf_error("internal: the number of samples must be >= 1");

    SEXP map = PROTECT(Rf_allocMatrix(INTSXP, n, m));
    SEXP score = PROTECT(Rf_allocMatrix(REALSXP, n, m));
    SEXP logp = PROTECT(Rf_allocVector(REALSXP, n));
    SEXP nodes = PROTECT(Rf_allocVector(REALSXP, n));
    double *a = (double *) R_alloc((size_t) m, sizeof(double));
    double *marg = (double *) R_alloc((size_t) m, sizeof(double));
    int *yi = (int *) R_alloc((size_t) m, sizeof(int));
    int *scratch = (int *) R_alloc((size_t) m, sizeof(int));
    int *ybuf = NULL, *idx = NULL;
    double *lp = NULL;
    if (how == 2) {
        ybuf = (int *) R_alloc(2 * (size_t) B * m, sizeof(int));
        lp = (double *) R_alloc(3 * (size_t) B, sizeof(double));
        idx = (int *) R_alloc(2 * (size_t) B, sizeof(int));
    }
    const double *Ap = REAL(A), *Gp = REAL(G);
    if (how == 3) GetRNGstate();
    for (int i = 0; i < n; i++) {
        /* an instance of exact inference or sampling can take a while */
        if (how == 1 || how == 3 || i % 64 == 0) R_CheckUserInterrupt();
        row_of(Ap, n, m, i, a);
        double lpi = 0.0, visited = NA_REAL;
        int have_marg = 1;
        switch (how) {
        case 0:
            chain_greedy(a, Gp, m, yi, marg);
            lpi = chain_logprob(a, Gp, m, yi);
            break;
        case 1:
            visited = chain_exact(a, Gp, m, yi, want ? marg : NULL, &lpi, scratch);
            have_marg = want;
            break;
        case 2:
            chain_beam(a, Gp, m, B, yi, marg, &lpi, ybuf, lp, idx);
            break;
        default:
            chain_sample(a, Gp, m, S, unif_rand, yi, marg, &lpi, scratch);
        }
        for (int k = 0; k < m; k++) {
            INTEGER(map)[i + (size_t) n * k] = yi[k];
            REAL(score)[i + (size_t) n * k] = have_marg ? marg[k] : NA_REAL;
        }
        REAL(logp)[i] = lpi;
        REAL(nodes)[i] = visited;
    }
    if (how == 3) PutRNGstate();
    const char *names[] = {"map", "score", "logp", "nodes", ""};
    SEXP res = named_list(names, map, score, logp, nodes);
    UNPROTECT(4);
    return res;
}

/* log p(y_i | x_i) of the given 0/1 label vectors y (n x m int, chain order). */
SEXP chains_logprob(SEXP A, SEXP G, SEXP y)
{
    check_chain_parts(A, G);
    int n = Rf_nrows(A), m = Rf_ncols(A);
    if (!Rf_isInteger(y) || !Rf_isMatrix(y) || Rf_nrows(y) != n || Rf_ncols(y) != m)
        Rf_error("internal: y must be a %d x %d integer matrix", n, m);
    SEXP out = PROTECT(Rf_allocVector(REALSXP, n));
    double *a = (double *) R_alloc((size_t) m, sizeof(double));
    int *yi = (int *) R_alloc((size_t) m, sizeof(int));
    for (int i = 0; i < n; i++) {
        row_of(REAL(A), n, m, i, a);
        for (int k = 0; k < m; k++) yi[k] = INTEGER(y)[i + (size_t) n * k] != 0;
        REAL(out)[i] = chain_logprob(a, REAL(G), m, yi);
    }
    UNPROTECT(1);
    return out;
}
