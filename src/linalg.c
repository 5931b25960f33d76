/* Dense and sparse matrix helpers shared by the solvers (see linalg.h). */
#define USE_FC_LEN_T
#include <R.h>
#include <R_ext/BLAS.h>
#include <R_ext/Lapack.h>
#ifndef FCONE
#define FCONE
#endif
#include <float.h>
#include <math.h>
#include <string.h>
#include "linalg.h"

void gemm(char ta, char tb, int m, int n, int k, double alpha, const double *A,
          int lda, const double *B, int ldb, double beta, double *C, int ldc)
{
    if (m == 0 || n == 0) return;
    if (k == 0) {  /* the product is zero; with beta = 0, C may be uninitialised */
        for (int j = 0; j < n; j++)
            for (int i = 0; i < m; i++)
                C[IDX(i, j, ldc)] = beta == 0.0 ? 0.0 : beta * C[IDX(i, j, ldc)];
        return;
    }
    F77_CALL(dgemm)(&ta, &tb, &m, &n, &k, &alpha, A, &lda, B, &ldb, &beta, C,
                    &ldc FCONE FCONE);
}

void mat_col_means(const mlss_mat *X, double *mean)
{
    for (int j = 0; j < X->ncol; j++) {
        double s = 0.0;
        if (X->i) {
            for (int k = X->p[j]; k < X->p[j + 1]; k++) s += X->x[k];
        } else {
            const double *col = X->x + IDX(0, j, X->nrow);
            for (int i = 0; i < X->nrow; i++) s += col[i];
        }
        mean[j] = s / X->nrow;
    }
}

void symmetrize_upper(int p, double *A)
{
    for (int j = 0; j < p; j++)
        for (int i = j + 1; i < p; i++) A[IDX(i, j, p)] = A[IDX(j, i, p)];
}

/* The rows of a CSC matrix, in R_alloc memory; the one conversion of the
 * package (the slots were checked by unpack_matrix()). */
csr_rows csc_to_csr(const mlss_mat *A)
{
    int n = A->nrow, d = A->ncol;
    size_t nnz = (size_t) A->p[d];
    int *ptr = (int *) R_alloc((size_t) n + 1, sizeof(int));
    int *ind = (int *) R_alloc(nnz + 1, sizeof(int));
    double *val = (double *) R_alloc(nnz + 1, sizeof(double));
    int *next = (int *) R_alloc((size_t) n + 1, sizeof(int));
    memset(ptr, 0, sizeof(int) * ((size_t) n + 1));
    for (size_t t = 0; t < nnz; t++) ptr[A->i[t] + 1]++;
    for (int i = 0; i < n; i++) ptr[i + 1] += ptr[i];
    memcpy(next, ptr, sizeof(int) * (size_t) n);
    for (int c = 0; c < d; c++)          /* columns in order: indices come out sorted */
        for (int t = A->p[c]; t < A->p[c + 1]; t++) {
            int pos = next[A->i[t]]++;
            ind[pos] = c;
            val[pos] = A->x[t];
        }
    csr_rows R = {ptr, ind, val};
    return R;
}

/* G = X'X (upper triangle) for a CSC matrix: transpose to rows, then add the
 * outer product of each row's non-zeros.  Cost: sum over rows of nnz(row)^2. */
static void sparse_gram_cross(const mlss_mat *X, double *G)
{
    int n = X->nrow, d = X->ncol;
    csr_rows R = csc_to_csr(X);
    const int *rp = R.ptr, *cj = R.ind;
    const double *cv = R.val;
    for (int i = 0; i < n; i++)
        for (int a = rp[i]; a < rp[i + 1]; a++) {
            double va = cv[a];
            for (int b = a; b < rp[i + 1]; b++) G[IDX(cj[a], cj[b], d)] += va * cv[b];
        }
}

void gram_cross(const mlss_mat *X, const double *mu, double *G)
{
    int n = X->nrow, d = X->ncol;
    memset(G, 0, sizeof(double) * (size_t) d * d);
    if (X->i) {
        sparse_gram_cross(X, G);
    } else if (n > 0) {
        double one = 1.0, zero = 0.0;
        F77_CALL(dsyrk)("U", "T", &d, &n, &one, X->x, &n, &zero, G, &d FCONE FCONE);
    }
    if (mu) {  /* (X - 1mu')'(X - 1mu') = X'X - mu s' - s mu' + n mu mu', s = X'1 */
        double *s = (double *) R_alloc((size_t) d + 1, sizeof(double));
        mat_col_means(X, s);
        for (int j = 0; j < d; j++) s[j] *= n;
        for (int b = 0; b < d; b++)
            for (int a = 0; a <= b; a++)
                G[IDX(a, b, d)] += -mu[a] * s[b] - s[a] * mu[b] + n * mu[a] * mu[b];
    }
    symmetrize_upper(d, G);
}

void gram_outer(const mlss_mat *X, const double *mu, double *K)
{
    int n = X->nrow, d = X->ncol;
    memset(K, 0, sizeof(double) * (size_t) n * n);
    if (X->i) {
        /* XX' = sum over columns of x_j x_j'; row indices ascend within a column */
        for (int j = 0; j < d; j++)
            for (int a = X->p[j]; a < X->p[j + 1]; a++) {
                double va = X->x[a];
                for (int b = a; b < X->p[j + 1]; b++)
                    K[IDX(X->i[a], X->i[b], n)] += va * X->x[b];
            }
    } else if (d > 0) {
        double one = 1.0, zero = 0.0;
        F77_CALL(dsyrk)("U", "N", &n, &d, &one, X->x, &n, &zero, K, &n FCONE FCONE);
    }
    if (mu) {  /* Xc Xc' = XX' - q1' - 1q' + (mu'mu) 11', q = X mu */
        double *q = (double *) R_alloc((size_t) n + 1, sizeof(double));
        double mm = 0.0;
        mat_prod(X, NULL, mu, 1, q);
        for (int j = 0; j < d; j++) mm += mu[j] * mu[j];
        for (int b = 0; b < n; b++)
            for (int a = 0; a <= b; a++) K[IDX(a, b, n)] += mm - q[a] - q[b];
    }
    symmetrize_upper(n, K);
}

void mat_tprod(const mlss_mat *X, const double *mu, const double *B, int k,
               double *out)
{
    int n = X->nrow, d = X->ncol;
    if (X->i) {
        for (int c = 0; c < k; c++) {
            const double *b = B + IDX(0, c, n);
            for (int j = 0; j < d; j++) {
                double s = 0.0;
                for (int a = X->p[j]; a < X->p[j + 1]; a++) s += X->x[a] * b[X->i[a]];
                out[IDX(j, c, d)] = s;
            }
        }
    } else {
        gemm('T', 'N', d, k, n, 1.0, X->x, n, B, n, 0.0, out, d);
    }
    if (mu)
        for (int c = 0; c < k; c++) {
            double cb = 0.0;
            for (int i = 0; i < n; i++) cb += B[IDX(i, c, n)];
            for (int j = 0; j < d; j++) out[IDX(j, c, d)] -= mu[j] * cb;
        }
}

/* out (d x m) = X'Y for a dense X and the targets Y of L: twice the sums of
 * X's rows over each label's positives plus shift[l] times X's column sums,
 * about d * (number of positives) additions instead of the d n m
 * multiply-adds of a product (labels are mostly negative). */
void mat_tprod_labels(const mlss_mat *X, const label_rows *L, double *out)
{
    int n = X->nrow, d = X->ncol, m = L->m;
    for (int j = 0; j < d; j++) {  /* a column of X stays in cache for every label */
        const double *x = X->x + IDX(0, j, n);
        double total = 0.0;
        for (int i = 0; i < n; i++) total += x[i];
        for (int l = 0; l < m; l++) {
            double s = 0.0;
            for (int a = L->start[l]; a < L->start[l + 1]; a++) s += x[L->rows[a]];
            out[IDX(j, l, d)] = 2.0 * s + L->shift[l] * total;
        }
    }
}

/* The n x m targets of L as a dense matrix (R_alloc'd). */
double *label_rows_dense(const label_rows *L)
{
    int n = L->n, m = L->m;
    double *Y = (double *) R_alloc((size_t) n * m + 1, sizeof(double));
    for (int l = 0; l < m; l++) {
        double *col = Y + IDX(0, l, n);
        for (int i = 0; i < n; i++) col[i] = L->shift[l];
        for (int a = L->start[l]; a < L->start[l + 1]; a++) col[L->rows[a]] += 2.0;
    }
    return Y;
}

void mat_prod(const mlss_mat *X, const double *mu, const double *B, int k,
              double *out)
{
    int n = X->nrow, d = X->ncol;
    if (X->i) {
        memset(out, 0, sizeof(double) * (size_t) n * k);
        for (int c = 0; c < k; c++) {
            double *o = out + IDX(0, c, n);
            for (int j = 0; j < d; j++) {
                double bj = B[IDX(j, c, d)];
                if (bj == 0.0) continue;
                for (int a = X->p[j]; a < X->p[j + 1]; a++) o[X->i[a]] += X->x[a] * bj;
            }
        }
    } else {
        gemm('N', 'N', n, k, d, 1.0, X->x, n, B, d, 0.0, out, n);
    }
    if (mu)
        for (int c = 0; c < k; c++) {
            double mb = 0.0;
            for (int j = 0; j < d; j++) mb += mu[j] * B[IDX(j, c, d)];
            for (int i = 0; i < n; i++) out[IDX(i, c, n)] -= mb;
        }
}

/* x'y summed in index order (the same rounding wherever it is used). */
double vec_dot(int n, const double *x, const double *y)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) s += x[i] * y[i];
    return s;
}

void center_gram(int n, double *K)
{
    double *rm = (double *) R_alloc((size_t) n + 1, sizeof(double));
    double g = 0.0;
    for (int i = 0; i < n; i++) rm[i] = 0.0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) rm[i] += K[IDX(i, j, n)];
    for (int i = 0; i < n; i++) {
        rm[i] /= n;
        g += rm[i];
    }
    g /= n;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) K[IDX(i, j, n)] += g - rm[i] - rm[j];
}

/* LAPACK's dsyevr on the symmetric p x p matrix A (upper triangle used, A
 * destroyed): the eigenvalues il..iu (1-based, in increasing order; il = 1,
 * iu = p for all of them) into w (length p) and, unless z is NULL, their
 * eigenvectors into z (p x (iu - il + 1)).  Returns LAPACK's info,
 * MLSS_ERR_NOT_FINITE for an input with Inf or NaN (dsyevr then returns no
 * eigenvalue and info = 0), MLSS_ERR_INCOMPLETE if fewer were found. */
static int dsyevr_range(int p, double *A, int il, int iu, double *w, double *z)
{
    int info = 0, found = 0, lwork = -1, liwork = -1, iwq = 0;
    double vl = 0.0, vu = 0.0, abstol = 0.0, wq = 0.0, zq = 0.0;
    const char *jobz = z ? "V" : "N", *range = (il == 1 && iu == p) ? "A" : "I";
    for (int j = 0; j < p; j++)
        for (int i = 0; i <= j; i++)
            if (!R_FINITE(A[IDX(i, j, p)])) return MLSS_ERR_NOT_FINITE;
    int *isuppz = (int *) R_alloc(2 * (size_t) p, sizeof(int));
    F77_CALL(dsyevr)(jobz, range, "U", &p, A, &p, &vl, &vu, &il, &iu, &abstol, &found, w,
                     z ? z : &zq, &p, isuppz, &wq, &lwork, &iwq, &liwork, &info
                     FCONE FCONE FCONE);
    if (info != 0) return info;
    lwork = (int) wq;
    liwork = iwq;
    double *work = (double *) R_alloc((size_t) lwork, sizeof(double));
    int *iwork = (int *) R_alloc((size_t) liwork, sizeof(int));
    F77_CALL(dsyevr)(jobz, range, "U", &p, A, &p, &vl, &vu, &il, &iu, &abstol, &found, w,
                     z ? z : &zq, &p, isuppz, work, &lwork, iwork, &liwork, &info
                     FCONE FCONE FCONE);
    if (info != 0) return info;
    return found == iu - il + 1 ? 0 : MLSS_ERR_INCOMPLETE;
}

/* LAPACK's MRRR eigensolver of a symmetric tridiagonal matrix (R's headers
 * do not declare it; dsyevr calls it, so every LAPACK R links has it). */
extern void F77_NAME(dstemr)(const char *jobz, const char *range, const int *n, double *d,
                             double *e, const double *vl, const double *vu, const int *il,
                             const int *iu, int *m, double *w, double *z, const int *ldz,
                             const int *nzc, int *isuppz, int *tryrac, double *work,
                             const int *lwork, int *iwork, const int *liwork, int *info
                             FCLEN FCLEN);

/* The k largest eigenpairs of the symmetric p x p matrix A (upper triangle,
 * destroyed), as dsyevr_range(p, A, p - k + 1, p, w, z) gives them (w of
 * length p, z p x k).  For a subset of the eigenvectors dsyevr uses
 * bisection and inverse iteration (dstebz, dstein), several times slower than
 * the MRRR algorithm it keeps for the whole set; so reduce A to tridiagonal
 * form here, take the eigenpairs of the tridiagonal matrix by MRRR (dstemr),
 * and apply the reflectors, the O(p^2 k) part, to the top k only.  When k is
 * a good part of p, every tridiagonal eigenpair is taken (O(p^2) work and
 * memory; the subset mode would find the eigenvalues by bisection, slower). */
static int eigen_top_mrrr(int p, double *A, int k, double *w, double *z)
{
    int all = 4 * (size_t) k >= (size_t) p, nz = all ? p : k;
    int info = 0, lwork = -1, liwork = -1, iwq = 0, found = 0, tryrac = 1;
    int il = all ? 1 : p - k + 1, iu = p;
    const char *range = all ? "A" : "I";
    double wq = 0.0, vl = 0.0, vu = 0.0;
    for (int j = 0; j < p; j++)
        for (int i = 0; i <= j; i++)
            if (!R_FINITE(A[IDX(i, j, p)])) return MLSS_ERR_NOT_FINITE;
    double *d = (double *) R_alloc((size_t) p, sizeof(double));
    double *e = (double *) R_alloc((size_t) p, sizeof(double));
    double *tau = (double *) R_alloc((size_t) p, sizeof(double));
    int *isuppz = (int *) R_alloc(2 * (size_t) nz, sizeof(int));
    double *zall = all ? (double *) R_alloc((size_t) p * p, sizeof(double)) : z;
    F77_CALL(dsytrd)("U", &p, A, &p, d, e, tau, &wq, &lwork, &info FCONE);
    if (info != 0) return info;
    lwork = (int) wq;
    double *work = (double *) R_alloc((size_t) lwork, sizeof(double));
    F77_CALL(dsytrd)("U", &p, A, &p, d, e, tau, work, &lwork, &info FCONE);
    if (info != 0) return info;
    lwork = -1;
    F77_CALL(dstemr)("V", range, &p, d, e, &vl, &vu, &il, &iu, &found, w, zall, &p, &nz,
                     isuppz, &tryrac, &wq, &lwork, &iwq, &liwork, &info FCONE FCONE);
    if (info != 0) return info;
    lwork = (int) wq;
    liwork = iwq;
    work = (double *) R_alloc((size_t) lwork, sizeof(double));
    int *iwork = (int *) R_alloc((size_t) liwork, sizeof(int));
    F77_CALL(dstemr)("V", range, &p, d, e, &vl, &vu, &il, &iu, &found, w, zall, &p, &nz,
                     isuppz, &tryrac, work, &lwork, iwork, &liwork, &info FCONE FCONE);
    if (info != 0) return info;
    if (found != nz) return MLSS_ERR_INCOMPLETE;
    if (all) {  /* the top k, increasing */
        memmove(w, w + (p - k), sizeof(double) * (size_t) k);
        memcpy(z, zall + IDX(0, p - k, p), sizeof(double) * (size_t) p * k);
    }
    lwork = -1;
    F77_CALL(dormtr)("L", "U", "N", &p, &k, A, &p, tau, z, &p, &wq, &lwork, &info
                     FCONE FCONE FCONE);
    if (info != 0) return info;
    lwork = (int) wq;
    work = (double *) R_alloc((size_t) lwork, sizeof(double));
    F77_CALL(dormtr)("L", "U", "N", &p, &k, A, &p, tau, z, &p, work, &lwork, &info
                     FCONE FCONE FCONE);
    return info;
}

/* Eigendecomposition of the symmetric p x p matrix A (upper triangle used,
 * A destroyed).  The t eigenpairs with value > reltol * (largest |eigenvalue|)
 * come back in decreasing order in values[0..t-1] and the first t columns of
 * vectors (p x p).  The cut-off is relative to the largest eigenvalue in
 * absolute value, so that an indefinite matrix does not keep noise: `all`
 * (if not NULL, length p) receives every eigenvalue in decreasing order, to
 * detect one and to judge the conditioning.  Returns as dsyevr_range(). */
int sym_eigen_range(int p, double *A, double reltol, int *t, double *values,
                    double *vectors, double *all)
{
    *t = 0;
    if (p == 0) return 0;
    double *w = (double *) R_alloc((size_t) p, sizeof(double));
    double *z = (double *) R_alloc((size_t) p * p, sizeof(double));
    int info = dsyevr_range(p, A, 1, p, w, z);
    if (info != 0) return info;
    if (all)
        for (int k = 0; k < p; k++) all[k] = w[p - 1 - k];
    double top = fmax(fabs(w[0]), fabs(w[p - 1]));
    if (!(w[p - 1] > 0.0)) return 0;
    for (int k = 0; k < p; k++) {
        double v = w[p - 1 - k];
        if (!(v > reltol * top)) break;
        values[k] = v;
        memcpy(vectors + IDX(0, k, p), z + IDX(0, p - 1 - k, p), sizeof(double) * p);
        (*t)++;
    }
    return 0;
}

int sym_eigen_desc(int p, double *A, double reltol, int *t, double *values,
                   double *vectors)
{
    return sym_eigen_range(p, A, reltol, t, values, vectors, NULL);
}

/* dgesdd with jobz = "S" on the m x n matrix A (destroyed): k = min(m, n)
 * singular values in s, U (m x k) and VT (k x n). */
static int svd_full_thin(int m, int n, double *A, double *s, double *U, double *VT)
{
    int k = m < n ? m : n, info = 0, lwork = -1;
    double wq = 0.0;
    int *iwork = (int *) R_alloc(8 * (size_t) k, sizeof(int));
    F77_CALL(dgesdd)("S", &m, &n, A, &m, s, U, &m, VT, &k, &wq, &lwork, iwork,
                     &info FCONE);
    if (info != 0) return info;
    lwork = (int) wq;
    double *work = (double *) R_alloc((size_t) lwork, sizeof(double));
    F77_CALL(dgesdd)("S", &m, &n, A, &m, s, U, &m, VT, &k, work, &lwork, iwork,
                     &info FCONE);
    return info;
}

/* Householder QR (lq = 0, dgeqrf) or LQ (lq = 1, dgelqf) of the n x d
 * matrix A in place, with LAPACK's workspace query: the reflectors in A and
 * tau (min(n, d)).  Returns LAPACK's info. */
static int householder(int lq, int n, int d, double *A, double *tau)
{
    int info = 0, lwork = -1;
    double wq = 0.0;
    for (int pass = 0; pass < 2; pass++) {   /* the query, then the factorisation */
        double *work = pass ? (double *) R_alloc((size_t) lwork, sizeof(double)) : &wq;
        if (lq) F77_CALL(dgelqf)(&n, &d, A, &n, tau, work, &lwork, &info);
        else F77_CALL(dgeqrf)(&n, &d, A, &n, tau, work, &lwork, &info);
        if (info != 0) return info;
        lwork = (int) wq;
    }
    return 0;
}

/* C (rows x cols, leading dimension rows) overwritten by Q'C, Q the product
 * of the k reflectors of householder() in A (leading dimension lda): dormqr
 * for a QR (lq = 0), dormlq for an LQ (lq = 1).  Returns LAPACK's info. */
static int reflectors_t(int lq, int rows, int cols, int k, const double *A, int lda,
                        const double *tau, double *C)
{
    int info = 0, lwork = -1;
    double wq = 0.0;
    for (int pass = 0; pass < 2; pass++) {
        double *work = pass ? (double *) R_alloc((size_t) lwork, sizeof(double)) : &wq;
        if (lq)
            F77_CALL(dormlq)("L", "T", &rows, &cols, &k, A, &lda, tau, C, &rows, work, &lwork,
                             &info FCONE FCONE);
        else
            F77_CALL(dormqr)("L", "T", &rows, &cols, &k, A, &lda, tau, C, &rows, work, &lwork,
                             &info FCONE FCONE);
        if (info != 0) return info;
        lwork = (int) wq;
    }
    return 0;
}

/* Thin SVD of the dense n x d matrix A (destroyed), A = U1 diag(s) V1', without
 * forming its Gram matrix, so that small singular values keep their relative
 * accuracy (eps * s_max absolute, not eps * s_max^2 / s_i).  Only what MLLS
 * needs comes back: the k = min(n, d) singular values s (decreasing), V (d x k,
 * the right singular vectors V1) and UtY = U1'Y (k x m) for the n x m matrix Y.
 * n >= d: A = QR (Householder), then the d x d SVD of R; Q'Y comes from the
 * reflectors and Q is never formed.  n < d: A = LQ, the n x n SVD of L, and
 * V1 = Q'V_L from the reflectors.  Cost O(n d min(n, d)), like the Gram route. */
int svd_thin_data(int n, int d, double *A, const double *Y, int m, double *s,
                  double *V, double *UtY)
{
    int k = n < d ? n : d, info = 0;
    if (k == 0) return 0;
    double *tau = (double *) R_alloc((size_t) k, sizeof(double));
    double *T = (double *) R_alloc((size_t) k * k, sizeof(double));   /* R or L */
    double *Us = (double *) R_alloc((size_t) k * k, sizeof(double));
    double *VTs = (double *) R_alloc((size_t) k * k, sizeof(double));
    if (n >= d) {
        double *QtY = (double *) R_alloc((size_t) n * m + 1, sizeof(double));
        if ((info = householder(0, n, d, A, tau)) != 0) return info;
        if (m > 0) {
            memcpy(QtY, Y, sizeof(double) * (size_t) n * m);
            if ((info = reflectors_t(0, n, m, d, A, n, tau, QtY)) != 0) return info;
        }
        for (int j = 0; j < d; j++)
            for (int i = 0; i < d; i++) T[IDX(i, j, d)] = i <= j ? A[IDX(i, j, n)] : 0.0;
        if ((info = svd_full_thin(d, d, T, s, Us, VTs)) != 0) return info;
        for (int j = 0; j < d; j++)
            for (int i = 0; i < d; i++) V[IDX(i, j, d)] = VTs[IDX(j, i, d)];
        gemm('T', 'N', d, m, d, 1.0, Us, d, QtY, n, 0.0, UtY, d);
    } else {
        if ((info = householder(1, n, d, A, tau)) != 0) return info;
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) T[IDX(i, j, n)] = i >= j ? A[IDX(i, j, n)] : 0.0;
        if ((info = svd_full_thin(n, n, T, s, Us, VTs)) != 0) return info;
        /* V1 = Q' [V_L; 0] (d x n), with A = L Q and Q' applied from the left */
        memset(V, 0, sizeof(double) * (size_t) d * n);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) V[IDX(i, j, d)] = VTs[IDX(j, i, n)];
        if ((info = reflectors_t(1, d, n, n, A, n, tau, V)) != 0) return info;
        gemm('T', 'N', n, m, n, 1.0, Us, n, Y, n, 0.0, UtY, n);
    }
    return 0;
}

/* Thin SVD of the m x t matrix C (not modified): the min(m, t) singular values
 * in sv and the right singular vectors as the rows of VT (min(m, t) x t). */
int svd_right(int m, int t, const double *C, double *sv, double *VT)
{
    int k = m < t ? m : t;
    if (k == 0) return 0;
    double *a = (double *) R_alloc((size_t) m * t, sizeof(double));
    double *u = (double *) R_alloc((size_t) m * k, sizeof(double));
    memcpy(a, C, sizeof(double) * (size_t) m * t);
    return svd_full_thin(m, t, a, sv, u, VT);
}

/* Replace the t x r matrix B (t >= r) by the Q factor of its QR decomposition. */
int qr_orthonormalize(int t, int r, double *B)
{
    int info = 0, lwork = -1;
    double wq = 0.0;
    if (r == 0) return 0;
    double *tau = (double *) R_alloc((size_t) r, sizeof(double));
    if ((info = householder(0, t, r, B, tau)) != 0) return info;
    F77_CALL(dorgqr)(&t, &r, &r, B, &t, tau, &wq, &lwork, &info);
    if (info != 0) return info;
    lwork = (int) wq;
    double *work = (double *) R_alloc((size_t) lwork, sizeof(double));
    F77_CALL(dorgqr)(&t, &r, &r, B, &t, tau, work, &lwork, &info);
    return info;
}

/* Solve S X = B in place for a symmetric positive definite r x r matrix S
 * (destroyed) and k right-hand sides. */
int chol_solve(int r, double *S, int k, double *B)
{
    int info = 0;
    if (r == 0 || k == 0) return 0;
    F77_CALL(dpotrf)("L", &r, S, &r, &info FCONE);
    if (info != 0) return info;
    F77_CALL(dpotrs)("L", &r, &k, S, &r, B, &r, &info FCONE);
    return info;
}

/* The k largest eigenvalues of the symmetric p x p matrix A (destroyed), in
 * decreasing order, and their eigenvectors (p x k, when vectors is not NULL):
 * dsyevr with an index range, cheaper than the whole spectrum when k < p or
 * when the vectors are not needed.  Returns as dsyevr_range(). */
int sym_eigen_top(int p, double *A, int k, double *values, double *vectors)
{
    if (k <= 0 || p == 0) return 0;
    double *w = (double *) R_alloc((size_t) p, sizeof(double));
    double *z = vectors ? (double *) R_alloc((size_t) p * k, sizeof(double)) : NULL;
    int info = z && k < p ? eigen_top_mrrr(p, A, k, w, z)
                          : dsyevr_range(p, A, p - k + 1, p, w, z);
    if (info != 0) return info;
    for (int j = 0; j < k; j++) {  /* increasing from dsyevr */
        values[j] = w[k - 1 - j];
        if (vectors) memcpy(vectors + IDX(0, j, p), z + IDX(0, k - 1 - j, p), sizeof(double) * p);
    }
    return 0;
}
