/* Exact k-nearest-neighbour search (Euclidean), and the neighbour counts of
 * ML-kNN and IBLR built on it.
 *
 * The query rows are taken in blocks of b rows; the squared distances of a
 * block to all n training rows come from ||q||^2 + ||x||^2 - 2 x'q (one BLAS
 * dgemm per block for dense data, a sparse product for CSC data) into an
 * n x b buffer, so memory is O(b n + nq k), never n x n.  Each query row
 * keeps its k best in a bounded max-heap.  The formula above loses accuracy
 * by cancellation for near neighbours, so it only preselects: with e_j a
 * bound on its rounding error, every row whose approximate distance is
 * within the errors of the k-th is a candidate, the candidates' squared
 * distances are recomputed directly as sum_c (q_c - x_c)^2 (no
 * cancellation), and the k smallest of those, ties broken by the lower
 * index, are the answer.  Exact duplicates therefore come out at distance 0.
 * Nothing here knows about SEXPs; scratch is R_alloc, interrupts are
 * checked once per block, outside the parallel region.
 */
#ifndef MLSS_KNN_CORE_H
#define MLSS_KNN_CORE_H

#include "linalg.h"

/* knn_search_core() returns MLSS_OK, MLSS_ERR_DIMS (k out of range, or the
 * columns differ) or MLSS_ERR_TOO_BIG (sizes beyond int for BLAS): status.h,
 * through linalg.h. */

/* X: n x d training rows; Q: nq x d query rows, or NULL for X itself with
 * each row left out of its own list (by index).  Dense and sparse may not be
 * mixed (the R side converts).  index (nq x k, 0-based) and dist (nq x k,
 * Euclidean) are column-major.  block <= 0 chooses the block size. */
int knn_search_core(const mlss_mat *X, const mlss_mat *Q, int k, int block, int nthreads,
                    int *index, double *dist);

/* ML-kNN's counts (Zhang and Zhou 2007): for the n x k 0-based neighbour
 * lists nbr of n rows and the n_train x m labels y (0/1), C[i, l] = the number
 * of neighbours of row i with label l (an n x m integer matrix). */
void knn_label_counts(int n, int k, const int *nbr, int n_train, int m, const int *y,
                      int *C);

#endif
