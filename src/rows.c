/* Glue shared by the readers: a file's bytes, the parse status and the rows
 * read, as R objects. */
#include <R.h>
#include <Rinternals.h>
#include <stdlib.h>
#include <string.h>
#include "mlss.h"

static void row_store_finalizer(SEXP guard)
{
    row_store *rs = (row_store *) R_ExternalPtrAddr(guard);
    if (!rs) return;
    row_store_free(rs);
    free(rs);
    R_ClearExternalPtr(guard);
}

/* An external pointer owning a fresh row_store: its malloc'ed arrays are
 * freed by rows_release() on the normal path, and by the finalizer (at the
 * next garbage collection) when an error or an interrupt jumps out. */
SEXP rows_guard(void)
{
    SEXP guard = PROTECT(R_MakeExternalPtr(NULL, R_NilValue, R_NilValue));
    R_RegisterCFinalizerEx(guard, row_store_finalizer, TRUE);
    row_store *rs = (row_store *) calloc(1, sizeof(row_store));
    if (!rs) Rf_error("out of memory");
    R_SetExternalPtrAddr(guard, rs);
    row_store_init(rs);
    if (rs->rowptr.failed) Rf_error("out of memory");
    UNPROTECT(1);
    return guard;
}

row_store *rows_of(SEXP guard) { return (row_store *) R_ExternalPtrAddr(guard); }

void rows_release(SEXP guard) { row_store_finalizer(guard); }

const char *raw_bytes(SEXP raw, size_t *len)
{
    if (TYPEOF(raw) != RAWSXP) Rf_error("internal: the file contents must be a raw vector");
    *len = (size_t) XLENGTH(raw);
    return (const char *) RAW(raw);
}

SEXP status_list(const parse_status *st)
{
    const char *names[] = {"code", "line", "attr", "count", "token", ""};
    SEXP res = PROTECT(Rf_mkNamed(VECSXP, names));
    SET_VECTOR_ELT(res, 0, Rf_ScalarInteger(st->code));
    SET_VECTOR_ELT(res, 1, Rf_ScalarReal((double) st->line));
    SET_VECTOR_ELT(res, 2, Rf_ScalarReal((double) st->attr));
    SET_VECTOR_ELT(res, 3, Rf_ScalarReal((double) st->count));
    SET_VECTOR_ELT(res, 4, Rf_mkString(st->token));
    UNPROTECT(1);
    return res;
}

static SEXP int_copy(const ivec *a)
{
    SEXP out = Rf_allocVector(INTSXP, (R_xlen_t) a->n);
    if (a->n) memcpy(INTEGER(out), a->v, sizeof(int) * a->n);
    return out;
}

/* sparse: TRUE, FALSE or NA (sparse when the file used sparse rows or at
 * most max_density of the n x d entries are non-zero).  Returns
 * list(nrow, sparse, x, i, p, pos_row, pos_label, na_row, na_label): x the
 * dense matrix, or with i and p the slots of a dgCMatrix; label rows and
 * label indices are 0-based. */
SEXP rows_result(const row_store *rs, int d, SEXP sparse, SEXP max_density)
{
    int n = row_store_nrow(rs);
    size_t nnz = rs->col.n;
    int want = Rf_asLogical(sparse);
    if (want == NA_LOGICAL)
        want = rs->any_sparse_row ||
               (double) nnz <= Rf_asReal(max_density) * (double) n * (double) d;
    const char *names[] = {"nrow", "sparse", "x", "i", "p", "pos_row", "pos_label",
                           "na_row", "na_label", ""};
    SEXP res = PROTECT(Rf_mkNamed(VECSXP, names));
    SET_VECTOR_ELT(res, 0, Rf_ScalarInteger(n));
    SET_VECTOR_ELT(res, 1, Rf_ScalarLogical(want));
    if (want) {
        SEXP x = Rf_allocVector(REALSXP, (R_xlen_t) nnz);
        SET_VECTOR_ELT(res, 2, x);
        SEXP i = Rf_allocVector(INTSXP, (R_xlen_t) nnz);
        SET_VECTOR_ELT(res, 3, i);
        SEXP p = Rf_allocVector(INTSXP, (R_xlen_t) d + 1);
        SET_VECTOR_ELT(res, 4, p);
        rows_to_csc(rs, d, INTEGER(p), INTEGER(i), REAL(x));
    } else {
        if ((double) n * (double) d > (double) R_XLEN_T_MAX)
            Rf_error("the %d x %d matrix is too large to be dense: read it with sparse = TRUE", n, d);
        SEXP x = Rf_allocMatrix(REALSXP, n, d);
        SET_VECTOR_ELT(res, 2, x);
        rows_to_dense(rs, d, REAL(x));
    }
    SET_VECTOR_ELT(res, 5, int_copy(&rs->pos_row));
    SET_VECTOR_ELT(res, 6, int_copy(&rs->pos_lab));
    SET_VECTOR_ELT(res, 7, int_copy(&rs->na_row));
    SET_VECTOR_ELT(res, 8, int_copy(&rs->na_lab));
    UNPROTECT(1);
    return res;
}
