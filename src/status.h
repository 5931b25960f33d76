/* The status codes of the numerical cores: one set for the whole package.
 * A core (plain C, no SEXP) returns one of these; the glue turns a failure
 * into an R error with mlss_stop() (glue.c), and hands the outcome of an
 * iteration (the positive codes) back to R, which warns with the classed
 * "mlss_not_converged" warning (R/conditions.R; R/linear.R's
 * warn_not_converged() reads the codes 1, 2 and 3 of the linear solvers,
 * R/mlcrf.R the codes 1 and 2 of the CRF's optimisers).
 *
 *   0       success
 *   > 0     an iterative solver ended without meeting its stopping rule; the
 *           values are part of the interface with R: do not renumber them
 *   < 0     a failure: the result is unusable
 *
 * The failures lie below -100 so that they never clash with LAPACK's own
 * info (-i for a bad i-th argument, > 0 for a convergence failure), which
 * the helpers of linalg.c and eigs_core.c return beside these codes. */
#ifndef MLSS_STATUS_H
#define MLSS_STATUS_H

#define MLSS_OK 0
#define MLSS_NOT_CONVERGED 1   /* the iteration limit came first */
#define MLSS_STALLED 2         /* no further decrease possible in double precision
                                  (a line search or trust region failed to progress) */
#define MLSS_NONFINITE 3       /* the objective or its gradient overflows on the way */

#define MLSS_ERR_NOT_FINITE -101  /* an input or a Gram/kernel matrix holds Inf or NaN */
#define MLSS_ERR_INCOMPLETE -102  /* LAPACK found fewer eigenvalues than asked */
#define MLSS_ERR_SVD -103         /* a singular value decomposition failed */
#define MLSS_ERR_QR -104          /* a QR factorisation failed */
#define MLSS_ERR_CHOL -105        /* a Cholesky factorisation failed: the system is
                                     singular or not positive definite */
#define MLSS_ERR_EIGEN -106       /* an eigendecomposition did not converge */
#define MLSS_ERR_DIMS -107        /* the dimensions of the arguments disagree (a bug) */
#define MLSS_ERR_TOO_BIG -108     /* a size beyond int, which BLAS and LAPACK take */
#define MLSS_ERR_ARG -109         /* a bad argument reached a core (a bug) */

#define MLSS_FAILED(status) ((status) < 0)

#endif
