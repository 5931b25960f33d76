/* .Call glue for the RBF C-SVC of rbfsvm_core.c: argument unpacking, the
 * random uniforms of Platt's fold shuffles (R's generator, as e1071's
 * libsvm), and the results as R lists. */
#include <R.h>
#include <Rinternals.h>
#include <limits.h>
#include "mlss.h"
#include "rbfsvm_core.h"

/* K: n x n kernel matrix or NULL; xt: d x n (the rows as columns), used
 * when K is NULL; cls: n integer codes 1..nc in the order of their first
 * row; probability: Platt's sigmoids by 5-fold cross-validation.
 * Returns list(coef, rows (1-based), rho, probA, probB, status, sig_status):
 * coef and rows (nc - 1) * n, the pairs one after another (see
 * rbfsvm_train()). */
SEXP rbfsvm_train_call(SEXP K, SEXP xt, SEXP gamma, SEXP cls, SEXP nclass, SEXP cost,
                       SEXP eps, SEXP max_iter, SEXP probability)
{
    int n = LENGTH(cls), nc = Rf_asInteger(nclass), prob = Rf_asLogical(probability);
    if (!Rf_isInteger(cls) || nc < 2 || n < 2) Rf_error("internal: bad classes");
    rbf_kernel k = { n, NULL, NULL, 0, Rf_asReal(gamma) };
    if (!Rf_isNull(K)) {
        if (!Rf_isReal(K) || Rf_nrows(K) != n || Rf_ncols(K) != n)
            Rf_error("internal: the kernel must be a %d x %d double matrix", n, n);
        k.K = REAL(K);
    } else {
        if (!Rf_isReal(xt) || Rf_ncols(xt) != n) Rf_error("internal: bad xt");
        k.xt = REAL(xt);
        k.d = Rf_nrows(xt);
    }
    const int *cl = INTEGER(cls);
    int *code = (int *) R_alloc((size_t) n, sizeof(int));
    for (int r = 0; r < n; r++) {
        if (cl[r] < 1 || cl[r] > nc) Rf_error("internal: class code out of range");
        code[r] = cl[r] - 1;
    }
    if ((double) (nc - 1) * n > INT_MAX) mlss_stop(MLSS_ERR_TOO_BIG, "rbf_svm");
    R_xlen_t len = (R_xlen_t) (nc - 1) * n, P = (R_xlen_t) nc * (nc - 1) / 2;
    double *u = NULL;
    if (prob == TRUE) {
        u = (double *) R_alloc((size_t) len, sizeof(double));
        GetRNGstate();
        for (R_xlen_t i = 0; i < len; i++) u[i] = unif_rand();
        PutRNGstate();
    }
    SEXP coef = PROTECT(Rf_allocVector(REALSXP, len));
    SEXP rows = PROTECT(Rf_allocVector(INTSXP, len));
    SEXP rho = PROTECT(Rf_allocVector(REALSXP, P));
    SEXP pA = PROTECT(Rf_allocVector(REALSXP, prob == TRUE ? P : 0));
    SEXP pB = PROTECT(Rf_allocVector(REALSXP, prob == TRUE ? P : 0));
    int *iwork = (int *) R_alloc((size_t) nc + 1 + 4 * (size_t) n, sizeof(int));
    double *dwork = (double *) R_alloc(9 * (size_t) n, sizeof(double));
    char *cwork = R_alloc((size_t) n, 1);
    int sig = 0;
    long maxit = (long) Rf_asReal(max_iter);
    int st = rbfsvm_train(&k, code, nc, Rf_asReal(cost), Rf_asReal(eps), maxit, u, REAL(coef),
                          INTEGER(rows), REAL(rho), prob == TRUE ? REAL(pA) : NULL,
                          prob == TRUE ? REAL(pB) : NULL, &sig, iwork, dwork, cwork);
    int *rr = INTEGER(rows);
    for (R_xlen_t i = 0; i < len; i++) rr[i]++;
    SEXP status = PROTECT(Rf_ScalarInteger(st)), sig_status = PROTECT(Rf_ScalarInteger(sig));
    const char *names[] = {"coef", "rows", "rho", "probA", "probB", "status", "sig_status", ""};
    SEXP res = named_list(names, coef, rows, rho, pA, pB, status, sig_status);
    UNPROTECT(7);
    return res;
}

/* Kte: nte x nsv kernel between new rows and the support vectors; start
 * (P + 1, 0-based offsets), sv (1-based columns of Kte), coef, rho: the
 * pairs; probA/probB: NULL or P each.  Returns list(dec = nte x P,
 * prob = nte x nc or NULL, coupling_failed = rows whose coupling hit its
 * iteration limit). */
SEXP rbfsvm_predict_call(SEXP Kte, SEXP start, SEXP sv, SEXP coef, SEXP rho, SEXP probA,
                         SEXP probB, SEXP nclass)
{
    int nte = Rf_nrows(Kte), nsv = Rf_ncols(Kte), P = LENGTH(rho), nc = Rf_asInteger(nclass);
    if (!Rf_isReal(Kte) || !Rf_isInteger(start) || LENGTH(start) != P + 1 ||
        !Rf_isInteger(sv) || !Rf_isReal(coef) || LENGTH(sv) != LENGTH(coef) ||
        !Rf_isReal(rho) || P != nc * (nc - 1) / 2)
        Rf_error("internal: bad model");
    const int *st = INTEGER(start);
    if (st[0] != 0 || st[P] != LENGTH(sv)) Rf_error("internal: bad pair offsets");
    for (int p = 0; p < P; p++)
        if (st[p + 1] < st[p]) Rf_error("internal: bad pair offsets");
    int *sv0 = (int *) R_alloc((size_t) LENGTH(sv) + 1, sizeof(int));
    for (int s = 0; s < LENGTH(sv); s++) {
        int v = INTEGER(sv)[s];
        if (v < 1 || v > nsv) Rf_error("internal: support vector index out of range");
        sv0[s] = v - 1;
    }
    const char *names[] = {"dec", "prob", "coupling_failed", ""};
    SEXP res = PROTECT(Rf_mkNamed(VECSXP, names));
    SEXP dec = PROTECT(Rf_allocMatrix(REALSXP, nte, P));
    rbfsvm_decision(nte, nsv, REAL(Kte), P, st, sv0, REAL(coef), REAL(rho), REAL(dec));
    SET_VECTOR_ELT(res, 0, dec);
    int bad = 0;
    if (!Rf_isNull(probA)) {
        if (!Rf_isReal(probA) || !Rf_isReal(probB) || LENGTH(probA) != P || LENGTH(probB) != P)
            Rf_error("internal: bad sigmoids");
        SEXP prob = PROTECT(Rf_allocMatrix(REALSXP, nte, nc));
        double *scratch = (double *) R_alloc(2 * (size_t) nc * nc + 2 * (size_t) nc,
                                             sizeof(double));
        bad = rbfsvm_probabilities(nte, nc, REAL(dec), REAL(probA), REAL(probB), REAL(prob),
                                   scratch);
        SET_VECTOR_ELT(res, 1, prob);
        UNPROTECT(1);
    }
    SET_VECTOR_ELT(res, 2, Rf_ScalarInteger(bad));
    UNPROTECT(2);
    return res;
}

/* Platt's sigmoid alone (for the tests): c(A, B, status). */
SEXP rbfsvm_sigmoid_call(SEXP dec, SEXP y)
{
    int l = LENGTH(dec);
    if (!Rf_isReal(dec) || !Rf_isReal(y) || LENGTH(y) != l) Rf_error("internal: bad arguments");
    double *t = (double *) R_alloc((size_t) l + 1, sizeof(double)), A, B;
    int st = rbfsvm_sigmoid_train(l, REAL(dec), REAL(y), &A, &B, t);
    SEXP res = PROTECT(Rf_allocVector(REALSXP, 3));
    REAL(res)[0] = A;
    REAL(res)[1] = B;
    REAL(res)[2] = st;
    UNPROTECT(1);
    return res;
}

/* The coupling alone (for the tests): p from the k x k pairwise r. */
SEXP rbfsvm_coupling_call(SEXP r)
{
    int k = Rf_nrows(r);
    if (!Rf_isReal(r) || Rf_ncols(r) != k || k < 2) Rf_error("internal: bad arguments");
    double *Q = (double *) R_alloc((size_t) k * k + k, sizeof(double));
    SEXP p = PROTECT(Rf_allocVector(REALSXP, k));
    rbfsvm_coupling(k, REAL(r), REAL(p), Q, Q + (size_t) k * k);
    UNPROTECT(1);
    return p;
}
