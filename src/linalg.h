/* Dense and sparse matrix helpers shared by the solvers.
 *
 * A data matrix is either dense (column-major) or a compressed-sparse-column
 * matrix as in Matrix::dgCMatrix.  Every product can be taken with the columns
 * centred implicitly, X - 1 mu', so that a sparse matrix is never densified.
 * Nothing here knows about SEXPs; errors come back as LAPACK's info code.
 */
#ifndef MLSS_LINALG_H
#define MLSS_LINALG_H

#include <stddef.h>
#include "status.h"

typedef struct {
    int nrow, ncol;
    const double *x;  /* dense values (nrow * ncol), or the non-zeros of a CSC matrix */
    const int *i;     /* CSC row indices (0-based), NULL when dense */
    const int *p;     /* CSC column pointers (ncol + 1), NULL when dense */
} mlss_mat;

/* The rows of a matrix in compressed-sparse-row form (column indices sorted). */
typedef struct {
    const int *ptr, *ind;  /* row pointers (nrow + 1), column indices (0-based) */
    const double *val;
} csr_rows;
csr_rows csc_to_csr(const mlss_mat *A);  /* in R_alloc memory */

/* Index of element (i, j) in a column-major matrix with leading dimension ld. */
#define IDX(i, j, ld) ((size_t)(i) + (size_t)(ld) * (size_t)(j))

void mat_col_means(const mlss_mat *X, double *mean);
void gram_cross(const mlss_mat *X, const double *mu, double *G);  /* d x d: Xc'Xc */
void gram_outer(const mlss_mat *X, const double *mu, double *K);  /* n x n: Xc Xc' */
/* A 0/1 label matrix (n x m) coded as targets 2 y + shift[l] in column l
 * (+1/-1 labels, centred or not): the rows of the positives of label l are
 * rows[start[l] .. start[l + 1] - 1]. */
typedef struct {
    int n, m;
    const int *start, *rows;
    const double *shift;
} label_rows;

void mat_tprod_labels(const mlss_mat *X, const label_rows *L, double *out);
double *label_rows_dense(const label_rows *L);
void mat_tprod(const mlss_mat *X, const double *mu, const double *B, int k,
               double *out);                                      /* d x k: Xc'B */
void mat_prod(const mlss_mat *X, const double *mu, const double *B, int k,
              double *out);                                       /* n x k: Xc B */
void center_gram(int n, double *K);                               /* K <- HKH */
double vec_dot(int n, const double *x, const double *y);          /* x'y, in order */
void symmetrize_upper(int p, double *A);

/* The helpers below return LAPACK's info (0 is success) or, beside it, the
 * codes MLSS_ERR_NOT_FINITE (the input holds Inf or NaN) and
 * MLSS_ERR_INCOMPLETE (LAPACK found fewer eigenvalues than asked) of status.h. */

int sym_eigen_desc(int p, double *A, double reltol, int *t, double *values,
                   double *vectors);
int sym_eigen_top(int p, double *A, int k, double *values, double *vectors);
int sym_eigen_range(int p, double *A, double reltol, int *t, double *values,
                    double *vectors, double *all);
int svd_thin_data(int n, int d, double *A, const double *Y, int m, double *s,
                  double *V, double *UtY);
int svd_right(int m, int t, const double *C, double *sv, double *VT);
int qr_orthonormalize(int t, int r, double *B);
int chol_solve(int r, double *S, int k, double *B);

/* C = alpha * op(A) op(B) + beta * C, column-major, with BLAS's dgemm. */
void gemm(char ta, char tb, int m, int n, int k, double alpha, const double *A,
          int lda, const double *B, int ldb, double beta, double *C, int ldc);

#endif
