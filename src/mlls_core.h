/* MLLS, shared-subspace multi-label least squares, in the rank-t space of X.
 * The equations are those of methods.md, section 1 ("Efficient algorithm"). */
#ifndef MLSS_MLLS_CORE_H
#define MLSS_MLLS_CORE_H

/* Status codes returned to the glue (0 is success, > 0 is a LAPACK info). */
#define MLLS_OK 0
#define MLLS_ERR_SVD -1
#define MLLS_ERR_QR -2
#define MLLS_ERR_CHOL -3
#define MLLS_ERR_EIGEN -4

int mlls_tspace(int t, int m, int r, double n, const double *s, const double *P,
                double alpha, double beta, double *G, double *T, double *V,
                int *r_used);

#endif
