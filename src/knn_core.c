/* Exact kNN search by blocks of query rows; see knn_core.h. */
#include <math.h>
#include <float.h>
#include <limits.h>
#include <string.h>
#include <R.h>
#include <R_ext/Utils.h>
#include "knn_core.h"
#include "threads.h"

/* ---- a bounded max-heap of (value, index), ordered lexicographically ---- */

static inline int above(double va, int ja, double vb, int jb)
{
    return va > vb || (va == vb && ja > jb);
}

static void sift_down(double *v, int *j, int size, int pos)
{
    for (;;) {
        int l = 2 * pos + 1, r = l + 1, top = pos;
        if (l < size && above(v[l], j[l], v[top], j[top])) top = l;
        if (r < size && above(v[r], j[r], v[top], j[top])) top = r;
        if (top == pos) return;
        double tv = v[pos]; v[pos] = v[top]; v[top] = tv;
        int tj = j[pos]; j[pos] = j[top]; j[top] = tj;
        pos = top;
    }
}

/* Offer (value, idx) to a heap of capacity k holding *size entries. */
static inline void heap_offer(double *v, int *j, int *size, int k, double value, int idx)
{
    if (*size < k) {
        int pos = (*size)++;
        v[pos] = value;
        j[pos] = idx;
        while (pos > 0) {          /* sift up */
            int parent = (pos - 1) / 2;
            if (!above(v[pos], j[pos], v[parent], j[parent])) break;
            double tv = v[pos]; v[pos] = v[parent]; v[parent] = tv;
            int tj = j[pos]; j[pos] = j[parent]; j[parent] = tj;
            pos = parent;
        }
    } else if (above(v[0], j[0], value, idx)) {
        v[0] = value;
        j[0] = idx;
        sift_down(v, j, k, 0);
    }
}

/* Heap sort in place: ascending order. */
static void heap_sort(double *v, int *j, int size)
{
    for (int end = size - 1; end > 0; end--) {
        double tv = v[0]; v[0] = v[end]; v[end] = tv;
        int tj = j[0]; j[0] = j[end]; j[end] = tj;
        sift_down(v, j, end, 0);
    }
}

/* ---- direct squared distances (no cancellation) ---- */

static double sqdist_dense(const double *q, const mlss_mat *X, int j)
{
    int n = X->nrow, d = X->ncol;
    double s = 0.0;
    for (int c = 0; c < d; c++) {
        double diff = q[c] - X->x[IDX(j, c, n)];
        s += diff * diff;
    }
    return s;
}

static double sqdist_sparse(const csr_rows *Q, int i, const csr_rows *X, int j)
{
    int a = Q->ptr[i], ae = Q->ptr[i + 1], b = X->ptr[j], be = X->ptr[j + 1];
    double s = 0.0;
    while (a < ae && b < be) {
        double diff;
        if (Q->ind[a] == X->ind[b]) diff = Q->val[a++] - X->val[b++];
        else if (Q->ind[a] < X->ind[b]) diff = Q->val[a++];
        else diff = X->val[b++];
        s += diff * diff;
    }
    for (; a < ae; a++) s += Q->val[a] * Q->val[a];
    for (; b < be; b++) s += X->val[b] * X->val[b];
    return s;
}

static void row_sqnorms_dense(const mlss_mat *A, double *out)
{
    int n = A->nrow, d = A->ncol;
    for (int i = 0; i < n; i++) out[i] = 0.0;
    for (int c = 0; c < d; c++)
        for (int i = 0; i < n; i++) {
            double v = A->x[IDX(i, c, n)];
            out[i] += v * v;
        }
}

static void row_sqnorms_csr(const csr_rows *R, int n, double *out)
{
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        for (int t = R->ptr[i]; t < R->ptr[i + 1]; t++) s += R->val[t] * R->val[t];
        out[i] = s;
    }
}

/* Per-thread scratch. */
typedef struct {
    double *hv, *ev;      /* heaps of approximate and of direct squared distances */
    int *hj, *ej;
    double *q;            /* dense: the query row, contiguous */
    double *col;          /* sparse: the query's products with the n training rows */
} knn_scratch;

/* The k nearest of query i given g[j] = x_j'q (j = 0..n-1): the two passes
 * of knn_core.h.  `self` is the index to leave out (-1: none). */
static void select_row(const double *g, double qn, const double *xn, int n, int k, int self,
                       double relerr, knn_scratch *S,
                       double (*direct)(const void *, int), const void *ctx,
                       int *index, double *dist, int nq, int i)
{
    int size = 0;
    for (int j = 0; j < n; j++) {
        if (j == self) continue;
        heap_offer(S->hv, S->hj, &size, k, qn + xn[j] - 2.0 * g[j], j);
    }
    /* an upper bound on the k-th smallest true squared distance */
    double upper = -INFINITY;
    for (int h = 0; h < size; h++) {
        double u = S->hv[h] + relerr * (qn + xn[S->hj[h]]);
        if (u > upper) upper = u;
    }
    int esize = 0;
    for (int j = 0; j < n; j++) {
        if (j == self) continue;
        double approx = qn + xn[j] - 2.0 * g[j];
        if (approx - relerr * (qn + xn[j]) > upper) continue;
        heap_offer(S->ev, S->ej, &esize, k, direct(ctx, j), j);
    }
    heap_sort(S->ev, S->ej, esize);
    for (int r = 0; r < k; r++) {
        index[IDX(i, r, nq)] = S->ej[r];
        dist[IDX(i, r, nq)] = sqrt(S->ev[r]);
    }
}

typedef struct { const double *q; const mlss_mat *X; } dense_ctx;
typedef struct { const csr_rows *Q; int i; const csr_rows *X; } sparse_ctx;

static double direct_dense(const void *ctx, int j)
{
    const dense_ctx *c = (const dense_ctx *) ctx;
    return sqdist_dense(c->q, c->X, j);
}

static double direct_sparse(const void *ctx, int j)
{
    const sparse_ctx *c = (const sparse_ctx *) ctx;
    return sqdist_sparse(c->Q, c->i, c->X, j);
}

int knn_search_core(const mlss_mat *X, const mlss_mat *Q, int k, int block, int nthreads,
                    int *index, double *dist)
{
    int self = Q == NULL;
    if (self) Q = X;
    int n = X->nrow, d = X->ncol, nq = Q->nrow;
    int sparse = X->i != NULL;
    if (Q->ncol != d || (Q->i != NULL) != sparse) return MLSS_ERR_DIMS;
    if (k < 1 || k > n - self) return MLSS_ERR_DIMS;
    int nt = mlss_thread_count(nthreads);  /* capped; 1 in a forked worker */
    /* gamma-style bound on the rounding error of qn + xn - 2 x'q, relative to
     * qn + xn: each of the three sums has d terms (Higham, ch. 3) */
    double relerr = 2.0 * ((double) d + 3.0) * DBL_EPSILON;

    double *xn = (double *) R_alloc((size_t) n, sizeof(double));
    double *qn = xn;
    csr_rows Xr = {NULL, NULL, NULL}, Qr = {NULL, NULL, NULL};
    if (sparse) {
        Xr = csc_to_csr(X);
        row_sqnorms_csr(&Xr, n, xn);
        if (!self) {
            Qr = csc_to_csr(Q);
            qn = (double *) R_alloc((size_t) nq, sizeof(double));
            row_sqnorms_csr(&Qr, nq, qn);
        } else {
            Qr = Xr;
        }
    } else {
        row_sqnorms_dense(X, xn);
        if (!self) {
            qn = (double *) R_alloc((size_t) nq, sizeof(double));
            row_sqnorms_dense(Q, qn);
        }
    }

    /* block: dense, b query rows against all n rows in one n x b dgemm
     * (about 32 MB at most); sparse, each thread forms its own column */
    int b = block > 0 ? block : (int) fmin(512.0, fmax(1.0, (double) (1 << 22) / n));
    if (b > nq) b = nq;
    double *G = sparse ? NULL : (double *) R_alloc((size_t) n * b, sizeof(double));

    knn_scratch *S = (knn_scratch *) R_alloc((size_t) nt, sizeof(knn_scratch));
    for (int t = 0; t < nt; t++) {
        S[t].hv = (double *) R_alloc((size_t) k, sizeof(double));
        S[t].ev = (double *) R_alloc((size_t) k, sizeof(double));
        S[t].hj = (int *) R_alloc((size_t) k, sizeof(int));
        S[t].ej = (int *) R_alloc((size_t) k, sizeof(int));
        S[t].q = sparse ? NULL : (double *) R_alloc((size_t) d, sizeof(double));
        S[t].col = sparse ? (double *) R_alloc((size_t) n, sizeof(double)) : NULL;
    }

    for (int i0 = 0; i0 < nq; i0 += b) {
        R_CheckUserInterrupt();
        int bb = nq - i0 < b ? nq - i0 : b;
        if (!sparse)   /* G (n x bb) = X Q[i0:(i0+bb), ]' */
            gemm('N', 'T', n, bb, d, 1.0, X->x, n, Q->x + i0, nq, 0.0, G, n);
#ifdef _OPENMP
#pragma omp parallel for num_threads(nt) schedule(dynamic, 4)
#endif
        for (int il = 0; il < bb; il++) {
            knn_scratch *s = S + mlss_thread_num();
            int i = i0 + il;
            if (sparse) {
                double *g = s->col;
                memset(g, 0, sizeof(double) * (size_t) n);
                for (int t = Qr.ptr[i]; t < Qr.ptr[i + 1]; t++) {
                    int c = Qr.ind[t];
                    double v = Qr.val[t];
                    for (int p = X->p[c]; p < X->p[c + 1]; p++) g[X->i[p]] += v * X->x[p];
                }
                sparse_ctx ctx = {&Qr, i, &Xr};
                select_row(g, qn[i], xn, n, k, self ? i : -1, relerr, s, direct_sparse, &ctx,
                           index, dist, nq, i);
            } else {
                for (int c = 0; c < d; c++) s->q[c] = Q->x[IDX(i, c, nq)];
                dense_ctx ctx = {s->q, X};
                select_row(G + IDX(0, il, n), qn[i], xn, n, k, self ? i : -1, relerr, s,
                           direct_dense, &ctx, index, dist, nq, i);
            }
        }
    }
    return MLSS_OK;
}

void knn_label_counts(int n, int k, const int *nbr, int n_train, int m, const int *y, int *C)
{
    for (int l = 0; l < m; l++) {
        const int *yl = y + IDX(0, l, n_train);
        for (int i = 0; i < n; i++) {
            int c = 0;
            for (int r = 0; r < k; r++) c += yl[nbr[IDX(i, r, n)]] != 0;
            C[IDX(i, l, n)] = c;
        }
    }
}
