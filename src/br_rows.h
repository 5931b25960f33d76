/* The data of a linear classifier, one instance (row) at a time.
 *
 * The solvers of logistic.c and linsvm.c (and later classifier chains) see
 * every instance as the row
 *
 *     x~_i = (xscale * x_i, z_i, bias)
 *
 * where x_i is a row of a dense or sparse matrix, z_i a row of an optional
 * dense block appended after it (projected features, previous labels) and
 * `bias` the value of a constant feature (LIBLINEAR's -B; 0 for none).
 * Weight vectors have lin_dim() entries in that order.  Nothing here knows
 * about SEXPs.
 */
#ifndef MLSS_BR_ROWS_H
#define MLSS_BR_ROWS_H

#include <stddef.h>

typedef struct {
    int n, d, q;          /* instances; columns of the x part; of the z block */
    const double *x;      /* CSR values, or dense row-major n x d when ind is NULL */
    const int *ind;       /* CSR column indices (0-based) */
    const int *ptr;       /* CSR row pointers (n + 1) */
    double xscale;        /* multiplies the x part */
    const double *z;      /* dense row-major n x q, or NULL when q == 0 */
    double bias;          /* value of the constant feature; 0: none */
} lin_rows;

static inline int lin_dim(const lin_rows *D)
{
    return D->d + D->q + (D->bias != 0.0);
}

/* x~_i' w */
static inline double lin_dot(const lin_rows *D, int i, const double *w)
{
    double s = 0.0, t = 0.0;
    if (D->d > 0) {
        if (D->ind) {
            for (int k = D->ptr[i]; k < D->ptr[i + 1]; k++) s += D->x[k] * w[D->ind[k]];
        } else {
            const double *xi = D->x + (size_t) i * D->d;
            for (int j = 0; j < D->d; j++) s += xi[j] * w[j];
        }
        s *= D->xscale;
    }
    if (D->q > 0) {
        const double *zi = D->z + (size_t) i * D->q;
        for (int k = 0; k < D->q; k++) t += zi[k] * w[D->d + k];
    }
    if (D->bias != 0.0) t += D->bias * w[D->d + D->q];
    return s + t;
}

/* w += a x~_i */
static inline void lin_axpy(const lin_rows *D, int i, double a, double *w)
{
    if (D->d > 0) {
        double ax = a * D->xscale;
        if (D->ind) {
            for (int k = D->ptr[i]; k < D->ptr[i + 1]; k++) w[D->ind[k]] += ax * D->x[k];
        } else {
            const double *xi = D->x + (size_t) i * D->d;
            for (int j = 0; j < D->d; j++) w[j] += ax * xi[j];
        }
    }
    if (D->q > 0) {
        const double *zi = D->z + (size_t) i * D->q;
        for (int k = 0; k < D->q; k++) w[D->d + k] += a * zi[k];
    }
    if (D->bias != 0.0) w[D->d + D->q] += a * D->bias;
}

/* ||x~_i||^2 */
static inline double lin_sqnorm(const lin_rows *D, int i)
{
    double s = 0.0, t = 0.0;
    if (D->d > 0) {
        if (D->ind) {
            for (int k = D->ptr[i]; k < D->ptr[i + 1]; k++) s += D->x[k] * D->x[k];
        } else {
            const double *xi = D->x + (size_t) i * D->d;
            for (int j = 0; j < D->d; j++) s += xi[j] * xi[j];
        }
        s *= D->xscale * D->xscale;
    }
    if (D->q > 0) {
        const double *zi = D->z + (size_t) i * D->q;
        for (int k = 0; k < D->q; k++) t += zi[k] * zi[k];
    }
    return s + t + D->bias * D->bias;
}

#endif
