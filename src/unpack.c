/* Checks shared by the glue files: the R side has normalised the arguments
 * already, so these are cheap guards against internal misuse. */
#include <R.h>
#include <Rinternals.h>
#include "mlss.h"

mlss_mat unpack_matrix(SEXP x, SEXP xi, SEXP xp, SEXP dim)
{
    mlss_mat X = {0, 0, NULL, NULL, NULL};
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
    if (!Rf_isInteger(xi) || !Rf_isInteger(xp) || XLENGTH(xp) != (R_xlen_t) X.ncol + 1)
        Rf_error("internal: malformed sparse matrix");
    X.i = INTEGER(xi);
    X.p = INTEGER(xp);
    if (X.p[0] != 0 || X.p[X.ncol] != XLENGTH(xi) || XLENGTH(xi) != XLENGTH(x))
        Rf_error("internal: malformed sparse matrix");
    return X;
}
