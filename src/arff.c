/* .Call glue for the ARFF reader (arff_core.c) and writer (arff_write_core.c).
 * The R side reads the file's bytes (decompressing .gz), asks for the header,
 * decides what each attribute becomes, then asks for the rows.  Errors in the
 * file come back as a status list that R turns into a message naming the
 * file and the line. */
#include <R.h>
#include <Rinternals.h>
#include <string.h>
#include "arff_core.h"
#include "mlss.h"

static SEXP header_list(const arff_header *h)
{
    const char *names[] = {"relation", "names", "types", "levels", "data_line", ""};
    SEXP res = PROTECT(Rf_mkNamed(VECSXP, names));
    SEXP rel = PROTECT(Rf_mkCharCE(h->relation, CE_UTF8));
    SET_VECTOR_ELT(res, 0, Rf_ScalarString(rel));
    UNPROTECT(1);
    SEXP nm = Rf_allocVector(STRSXP, h->nattr);
    SET_VECTOR_ELT(res, 1, nm);
    SEXP ty = Rf_allocVector(INTSXP, h->nattr);
    SET_VECTOR_ELT(res, 2, ty);
    SEXP lv = Rf_allocVector(VECSXP, h->nattr);
    SET_VECTOR_ELT(res, 3, lv);
    for (int j = 0; j < h->nattr; j++) {
        const arff_attr *a = &h->attr[j];
        SET_STRING_ELT(nm, j, Rf_mkCharCE(a->name, CE_UTF8));
        INTEGER(ty)[j] = a->type;
        if (a->type == ARFF_NOMINAL) {
            SEXP l = Rf_allocVector(STRSXP, a->nlevels);
            SET_VECTOR_ELT(lv, j, l);
            for (int k = 0; k < a->nlevels; k++)
                SET_STRING_ELT(l, k, Rf_mkCharLenCE(a->levels[k], (int) a->level_len[k], CE_UTF8));
        }
    }
    SET_VECTOR_ELT(res, 4, Rf_ScalarReal((double) h->data_line));
    UNPROTECT(1);
    return res;
}

/* bytes: the file.  Returns list(status, header). */
SEXP arff_header_info(SEXP bytes)
{
    size_t len;
    const char *buf = raw_bytes(bytes, &len);
    arff_header h;
    parse_status st = {0};
    int code = arff_read_header(buf, len, &h, &st);
    const char *names[] = {"status", "header", ""};
    SEXP res = PROTECT(Rf_mkNamed(VECSXP, names));
    SET_VECTOR_ELT(res, 0, status_list(&st));
    if (code == PARSE_OK) SET_VECTOR_ELT(res, 1, header_list(&h));
    UNPROTECT(1);
    return res;
}

/* bytes: the file; role, target: integer per attribute (ROLE_* of
 * arff_core.h; first column or label, 0-based); values: list with the
 * numeric value of each level (LEVEL_VALUE and nominal LABEL attributes);
 * omitted: 0-based attributes whose first level counts when a sparse row
 * omits them; ncol: number of feature columns; sparse, max_density: see
 * rows_result().  Returns list(status, rows). */
SEXP arff_read_rows(SEXP bytes, SEXP role, SEXP target, SEXP values, SEXP omitted,
                    SEXP ncol, SEXP sparse, SEXP max_density)
{
    size_t len;
    const char *buf = raw_bytes(bytes, &len);
    arff_header h;
    parse_status st = {0};
    const char *names[] = {"status", "rows", ""};
    SEXP res = PROTECT(Rf_mkNamed(VECSXP, names));
    if (arff_read_header(buf, len, &h, &st) != PARSE_OK) {
        SET_VECTOR_ELT(res, 0, status_list(&st));
        UNPROTECT(1);
        return res;
    }
    if (!Rf_isInteger(role) || !Rf_isInteger(target) || TYPEOF(values) != VECSXP ||
        XLENGTH(role) != h.nattr || XLENGTH(target) != h.nattr || XLENGTH(values) != h.nattr ||
        !Rf_isInteger(omitted))
        Rf_error("internal: the attribute layout does not match the header");
    int d = Rf_asInteger(ncol);
    const double **val = (const double **) R_alloc((size_t) h.nattr + 1, sizeof(double *));
    for (int j = 0; j < h.nattr; j++) {
        int r = INTEGER(role)[j], t = INTEGER(target)[j];
        SEXP v = VECTOR_ELT(values, j);
        val[j] = NULL;
        if (r < ROLE_SKIP || r > ROLE_LABEL)
            Rf_error("internal: bad role for attribute %d", j + 1);
        if (r == ROLE_LEVEL_VALUE || (r == ROLE_LABEL && h.attr[j].type == ARFF_NOMINAL)) {
            if (!Rf_isReal(v) || XLENGTH(v) != h.attr[j].nlevels)
                Rf_error("internal: level values of attribute %d", j + 1);
            val[j] = REAL(v);
        }
        if (r != ROLE_SKIP && r != ROLE_LABEL) {
            int width = r == ROLE_INDICATOR ? h.attr[j].nlevels : 1;
            if (t < 0 || t > d - width) Rf_error("internal: column of attribute %d", j + 1);
        }
        if ((r == ROLE_LEVEL_VALUE || r == ROLE_INDICATOR) && h.attr[j].type != ARFF_NOMINAL)
            Rf_error("internal: attribute %d is not nominal", j + 1);
        if (r == ROLE_NUMERIC && h.attr[j].type != ARFF_NUMERIC)
            Rf_error("internal: attribute %d is not numeric", j + 1);
        if (r != ROLE_SKIP && (h.attr[j].type == ARFF_STRING || h.attr[j].type == ARFF_DATE))
            Rf_error("internal: attribute %d cannot be read as a number", j + 1);
    }
    for (R_xlen_t k = 0; k < XLENGTH(omitted); k++) {
        int j = INTEGER(omitted)[k];
        if (j < 0 || j >= h.nattr || h.attr[j].type != ARFF_NOMINAL ||
            INTEGER(role)[j] == ROLE_SKIP || INTEGER(role)[j] == ROLE_NUMERIC)
            Rf_error("internal: bad omitted attribute");
    }
    arff_layout lay = {INTEGER(role), INTEGER(target), val, INTEGER(omitted),
                       (int) XLENGTH(omitted), NA_REAL};
    SEXP guard = PROTECT(rows_guard());
    row_store *rs = rows_of(guard);
    arff_read_data(buf, len, &h, &lay, rs, &st);
    SET_VECTOR_ELT(res, 0, status_list(&st));
    if (st.code == PARSE_OK) SET_VECTOR_ELT(res, 1, rows_result(rs, d, sparse, max_density));
    rows_release(guard);
    UNPROTECT(2);
    return res;
}

/* The data rows of an ARFF file as bytes.  x: a native_matrix() list of a
 * dense n x d matrix, written as dense rows, or of the d x n transpose of a
 * dgCMatrix, written as sparse rows; y: n x m logical. */
SEXP arff_format_rows(SEXP x, SEXP y)
{
    mlss_mat X = unpack_matrix(x, "data$x");
    int sparse = X.i != NULL;
    int n = sparse ? X.ncol : X.nrow, d = sparse ? X.nrow : X.ncol;
    if (!Rf_isLogical(y) || Rf_nrows(y) != n) Rf_error("internal: y must be logical with %d rows", n);
    text_buf out = {NULL, 0, 0};
    arff_write_rows(n, d, Rf_ncols(y), X.x, X.i, X.p, LOGICAL(y), NA_LOGICAL, &out);
    SEXP res = PROTECT(Rf_allocVector(RAWSXP, (R_xlen_t) out.n));
    if (out.n) memcpy(RAW(res), out.v, out.n);
    UNPROTECT(1);
    return res;
}
