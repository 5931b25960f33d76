/* Helpers shared by the .Call glue files.  The R side has normalised the
 * arguments already, so the checks here are cheap guards against misuse. */
#include <R.h>
#include <Rinternals.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "mlss.h"
#include "threads.h"

/* The one way a glue file turns a status code of src/status.h into an R
 * error: `who` names the method (or the step) for the user, the message says
 * what failed and what to try.  Returns for MLSS_OK only: a glue file that
 * hands an iteration's outcome (a positive code) back to R calls it only when
 * MLSS_FAILED(status).  Any other value is LAPACK's info passed through. */
void mlss_stop(int status, const char *who)
{
    switch (status) {
    case MLSS_OK: return;
    case MLSS_NOT_CONVERGED:
        Rf_error("%s: the solver reached its iteration limit before converging; "
                 "raise 'max_iter' or loosen 'tol'", who);
    case MLSS_STALLED:
        Rf_error("%s: the solver stalled (no further decrease possible in double "
                 "precision); scale the features", who);
    case MLSS_NONFINITE:
        Rf_error("%s: the objective overflows double precision; scale the features "
                 "or lower the cost", who);
    case MLSS_ERR_NOT_FINITE:
        Rf_error("%s: the Gram or kernel matrix overflows (it holds Inf or NaN): "
                 "rescale 'x', or use a smaller 'gamma' or 'degree'", who);
    case MLSS_ERR_INCOMPLETE:
        Rf_error("%s: LAPACK found fewer eigenvalues than asked; check 'x' for "
                 "extreme values", who);
    case MLSS_ERR_SVD:
        Rf_error("%s: the SVD of the label cross-product failed; check 'x' and 'y' "
                 "for extreme values", who);
    case MLSS_ERR_QR: Rf_error("%s: the QR factorisation of the subspace failed", who);
    case MLSS_ERR_CHOL:
        Rf_error("%s: the r x r system is not positive definite (singular); a larger "
                 "penalty or a smaller 'r' may help", who);
    case MLSS_ERR_EIGEN: Rf_error("%s: the eigendecomposition did not converge", who);
    case MLSS_ERR_DIMS: Rf_error("internal: %s: the dimensions of the arguments disagree", who);
    case MLSS_ERR_TOO_BIG:
        Rf_error("%s: the problem is too large (a size beyond %d, the limit of BLAS "
                 "and LAPACK); use fewer rows or features per call", who, INT_MAX);
    case MLSS_ERR_ARG: Rf_error("internal: %s: a bad argument reached the solver", who);
    default: Rf_error("%s: LAPACK error %d", who, status);
    }
}

/* Why the slots of a CSC matrix cannot be trusted, into msg (NULL when they
 * can): a dgCMatrix built with new() and edited through @i, or made by other
 * code, skips Matrix's validity method, and one bad row index is a write out
 * of bounds in every product.  O(nnz).  Row indices must increase strictly
 * within a column, as Matrix requires: a repeated one would be added here but
 * is read otherwise by Matrix itself. */
static const char *csc_problem(int nrow, int ncol, const int *i, R_xlen_t ni, const int *p,
                               R_xlen_t np, R_xlen_t nx, const char *arg, char *msg, size_t len)
{
    char fix[160];
    snprintf(fix, sizeof fix, "Matrix::validObject(%s) reports it; rebuild it with "
             "Matrix::sparseMatrix()", arg);
    if (np != (R_xlen_t) ncol + 1) {
        snprintf(msg, len, "'%s' is a malformed dgCMatrix: its p slot has %lld entries, "
                 "not ncol + 1 = %lld; %s", arg, (long long) np, (long long) ncol + 1, fix);
        return msg;
    }
    if (p[0] != 0) {
        snprintf(msg, len, "'%s' is a malformed dgCMatrix: p[1] is %d, not 0; %s", arg, p[0], fix);
        return msg;
    }
    for (int j = 0; j < ncol; j++)
        if (p[j + 1] < p[j]) {
            snprintf(msg, len, "'%s' is a malformed dgCMatrix: its column pointers (p) "
                     "decrease at column %d; %s", arg, j + 1, fix);
            return msg;
        }
    if ((R_xlen_t) p[ncol] != ni || ni != nx) {
        snprintf(msg, len, "'%s' is a malformed dgCMatrix: p ends at %d but i has %lld "
                 "and x %lld entries; %s", arg, p[ncol], (long long) ni, (long long) nx, fix);
        return msg;
    }
    for (int j = 0; j < ncol; j++)
        for (int k = p[j]; k < p[j + 1]; k++) {
            if (i[k] < 0 || i[k] >= nrow) {
                snprintf(msg, len, "'%s' is a malformed dgCMatrix: row index %d in column %d "
                         "is outside 0..%d; %s", arg, i[k], j + 1, nrow - 1, fix);
                return msg;
            }
            if (k > p[j] && i[k] <= i[k - 1]) {
                snprintf(msg, len, "'%s' is a malformed dgCMatrix: the row indices of column "
                         "%d are not strictly increasing (row %d repeated or out of order), "
                         "as Matrix::validObject(%s) reports; sum duplicated entries and sort "
                         "them with as(as(%s, \"TsparseMatrix\"), \"CsparseMatrix\")",
                         arg, j + 1, i[k], arg, arg);
                return msg;
            }
        }
    return NULL;
}

/* A list(x, i, p, dim) made by native_matrix() in R: a dense matrix (i and p
 * NULL) or the slots of a dgCMatrix, which are checked (csc_problem()).  `arg`
 * names the argument for the error. */
mlss_mat unpack_matrix(SEXP nat, const char *arg)
{
    mlss_mat X = {0, 0, NULL, NULL, NULL};
    if (!Rf_isNewList(nat) || XLENGTH(nat) != 4) Rf_error("internal: expected a native matrix list");
    SEXP x = VECTOR_ELT(nat, 0), xi = VECTOR_ELT(nat, 1), xp = VECTOR_ELT(nat, 2),
         dim = VECTOR_ELT(nat, 3);
    if (!Rf_isInteger(dim) || XLENGTH(dim) != 2) Rf_error("internal: dim must be two integers");
    X.nrow = INTEGER(dim)[0];
    X.ncol = INTEGER(dim)[1];
    if (X.nrow < 1 || X.ncol < 1) Rf_error("internal: empty matrix");
    if (!Rf_isReal(x)) Rf_error("internal: x must be double");
    X.x = REAL(x);
    if (Rf_isNull(xi)) {
        if (XLENGTH(x) != (R_xlen_t) X.nrow * X.ncol) Rf_error("internal: x has the wrong length");
        return X;
    }
    if (!Rf_isInteger(xi) || !Rf_isInteger(xp))
        Rf_error("'%s' is a malformed dgCMatrix: its i and p slots must be integer", arg);
    char msg[512];
    if (csc_problem(X.nrow, X.ncol, INTEGER(xi), XLENGTH(xi), INTEGER(xp), XLENGTH(xp),
                    XLENGTH(x), arg, msg, sizeof msg))
        Rf_error("%s", msg);
    X.i = INTEGER(xi);
    X.p = INTEGER(xp);
    return X;
}

/* For as_features() in R: the message of csc_problem() for a native matrix,
 * or NULL, so that the error reaches the user from R (without a call) before
 * Matrix's own code or ours reads an index. */
SEXP sparse_problem_call(SEXP nat, SEXP arg)
{
    if (!Rf_isNewList(nat) || XLENGTH(nat) != 4 || !Rf_isString(arg) || XLENGTH(arg) != 1)
        Rf_error("internal: sparse_problem_call(native matrix, name)");
    SEXP x = VECTOR_ELT(nat, 0), xi = VECTOR_ELT(nat, 1), xp = VECTOR_ELT(nat, 2),
         dim = VECTOR_ELT(nat, 3);
    if (Rf_isNull(xi)) return R_NilValue;
    const char *a = CHAR(STRING_ELT(arg, 0));
    char msg[512];
    if (!Rf_isInteger(xi) || !Rf_isInteger(xp) || !Rf_isInteger(dim) || XLENGTH(dim) != 2) {
        snprintf(msg, sizeof msg, "'%s' is a malformed dgCMatrix: its i, p and Dim slots "
                 "must be integer", a);
        return Rf_mkString(msg);
    }
    if (csc_problem(INTEGER(dim)[0], INTEGER(dim)[1], INTEGER(xi), XLENGTH(xi), INTEGER(xp),
                    XLENGTH(xp), XLENGTH(x), a, msg, sizeof msg))
        return Rf_mkString(msg);
    return R_NilValue;
}

void check_targets(SEXP y, int n)
{
    if (!(Rf_isReal(y) || Rf_isLogical(y)) || !Rf_isMatrix(y) || Rf_nrows(y) != n)
        Rf_error("internal: the targets must be a double or logical matrix with %d rows", n);
}

/* Entry k of the targets: a double matrix as it is, a logical label matrix
 * coded +1 / -1 (so that R need not hold a double copy of the labels). */
double target_value(SEXP y, R_xlen_t k)
{
    return Rf_isLogical(y) ? (LOGICAL(y)[k] ? 1.0 : -1.0) : REAL(y)[k];
}

/* Copy of the n x m targets (double, or logical coded +1/-1) with the column
 * means removed (when centre); the means (or zeros) go to mean. */
double *center_columns(SEXP y, int centre, double *mean)
{
    int n = Rf_nrows(y), m = Rf_ncols(y);
    double *Yc = (double *) R_alloc((size_t) n * m + 1, sizeof(double));
    for (int l = 0; l < m; l++) {
        double s = 0.0;
        for (int i = 0; i < n; i++) {
            Yc[IDX(i, l, n)] = target_value(y, IDX(i, l, n));
            s += Yc[IDX(i, l, n)];
        }
        mean[l] = centre ? s / n : 0.0;
        for (int i = 0; i < n; i++) Yc[IDX(i, l, n)] -= mean[l];
    }
    return Yc;
}

/* Rare labels as their positive rows (npos of them in all), into L: the
 * centred targets, +1/-1 less mean, are 2 y + shift. */
static void positive_rows(SEXP y, R_xlen_t npos, const double *mean, label_rows *L)
{
    int n = Rf_nrows(y), m = Rf_ncols(y);
    const int *v = LOGICAL(y);
    int *start = (int *) R_alloc((size_t) m + 1, sizeof(int));
    int *rows = (int *) R_alloc((size_t) npos + 1, sizeof(int));
    double *shift = (double *) R_alloc((size_t) m + 1, sizeof(double));
    int a = 0;
    for (int l = 0; l < m; l++) {
        start[l] = a;
        for (int i = 0; i < n; i++)
            if (v[IDX(i, l, n)]) rows[a++] = i;  /* as target_value(): non-zero is +1 */
        shift[l] = -1.0 - mean[l];
    }
    start[m] = a;
    L->n = n;
    L->m = m;
    L->start = start;
    L->rows = rows;
    L->shift = shift;
}

/* The centred targets of MLLS's decomposition, as center_columns() gives
 * them; but logical labels with at most one entry in 20 positive (a product
 * is faster past that, with an optimised BLAS) only as their positive rows,
 * into pos, with *sparse set and NULL returned: the decomposition makes the
 * n x m copy only if its route needs one. */
double *centred_targets(SEXP y, int centre, double *mean, label_rows *pos, int *sparse)
{
    *sparse = 0;
    if (Rf_isLogical(y)) {
        int n = Rf_nrows(y), m = Rf_ncols(y);
        const int *v = LOGICAL(y);
        R_xlen_t total = 0;
        for (int l = 0; l < m; l++) {  /* the sum of the +1/-1 targets, exactly */
            int npos = 0;
            for (int i = 0; i < n; i++) npos += v[IDX(i, l, n)] != 0;
            mean[l] = centre ? (2.0 * npos - n) / n : 0.0;
            total += npos;
        }
        if (total <= XLENGTH(y) / 20 && total <= INT_MAX) {
            positive_rows(y, total, mean, pos);
            *sparse = 1;
            return NULL;
        }
    }
    return center_columns(y, centre, mean);
}

/* The column means of X when centre (else NULL).  A dense X is also centred
 * explicitly, for accuracy: X->x then points to a centred copy.  A sparse X
 * is centred implicitly by passing the means to the products of linalg.c;
 * `X->i ? mu : NULL` is therefore the centring argument those products need. */
double *centre_features(mlss_mat *X, int centre)
{
    if (!centre) return NULL;
    int n = X->nrow, d = X->ncol;
    double *mu = (double *) R_alloc((size_t) d + 1, sizeof(double));
    mat_col_means(X, mu);
    if (X->i) return mu;
    double *Xc = (double *) R_alloc((size_t) n * d + 1, sizeof(double));
    for (int j = 0; j < d; j++)
        for (int i = 0; i < n; i++) Xc[IDX(i, j, n)] = X->x[IDX(i, j, n)] - mu[j];
    X->x = Xc;
    return mu;
}

/* The first `cols` columns of a matrix with `nrow` rows, as a new R matrix. */
SEXP matrix_head(const double *A, int nrow, int cols)
{
    SEXP out = PROTECT(Rf_allocMatrix(REALSXP, nrow, cols));
    if ((size_t) nrow * cols > 0) memcpy(REAL(out), A, sizeof(double) * (size_t) nrow * cols);
    UNPROTECT(1);
    return out;
}

/* The glue's one way to return several results: a list named by `names`
 * (Rf_mkNamed's array, ending in "") whose elements are the SEXPs after
 * `names`, as many as there are names, each protected by the caller. */
SEXP named_list(const char **names, ...)
{
    SEXP res = PROTECT(Rf_mkNamed(VECSXP, names));
    va_list ap;
    va_start(ap, names);
    for (R_xlen_t k = 0; k < XLENGTH(res); k++) SET_VECTOR_ELT(res, k, va_arg(ap, SEXP));
    va_end(ap);
    UNPROTECT(1);
    return res;
}

SEXP numeric_copy(const double *a, int len)
{
    SEXP out = PROTECT(Rf_allocVector(REALSXP, len));
    if (len > 0) memcpy(REAL(out), a, sizeof(double) * (size_t) len);
    UNPROTECT(1);
    return out;
}

/* OpenBLAS's thread count, first set to one in a forked worker when `set`
 * is TRUE (threads.h); NA where OpenBLAS is not R's BLAS. */
SEXP blas_fork_threads_call(SEXP set)
{
    int n = mlss_blas_fork_threads(Rf_asLogical(set) == TRUE);
    return Rf_ScalarInteger(n < 0 ? NA_INTEGER : n);
}
