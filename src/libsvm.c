/* .Call glue for the multi-label LIBSVM reader (libsvm_core.c). */
#include <R.h>
#include <Rinternals.h>
#include "libsvm_core.h"
#include "mlss.h"

/* bytes: the file; first_index: 0 or 1; ncol: the number of features, or
 * NA to take the largest index; sparse, max_density: see rows_result().
 * Returns list(status, rows, ncol); the labels in rows are the ids read. */
SEXP libsvm_read_rows(SEXP bytes, SEXP first_index, SEXP ncol, SEXP sparse,
                      SEXP max_density)
{
    size_t len;
    const char *buf = raw_bytes(bytes, &len);
    int first = Rf_asInteger(first_index), maxc = Rf_asInteger(ncol), d = 0;
    if (first != 0 && first != 1) Rf_error("internal: first_index must be 0 or 1");
    parse_status st = {0};
    const char *names[] = {"status", "rows", "ncol", ""};
    SEXP res = PROTECT(Rf_mkNamed(VECSXP, names));
    SEXP guard = PROTECT(rows_guard());
    row_store *rs = rows_of(guard);
    libsvm_read(buf, len, first, maxc == NA_INTEGER ? -1 : maxc, rs, &d, &st);
    SET_VECTOR_ELT(res, 0, status_list(&st));
    if (st.code == PARSE_OK) {
        SET_VECTOR_ELT(res, 1, rows_result(rs, d, sparse, max_density));
        SET_VECTOR_ELT(res, 2, Rf_ScalarInteger(d));
    }
    rows_release(guard);
    UNPROTECT(2);
    return res;
}
