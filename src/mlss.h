/* Declarations shared by the .Call glue files and init.c. */
#ifndef MLSS_H
#define MLSS_H

#include <Rinternals.h>
#include "linalg.h"
#include "textparse.h"

/* A dense matrix (xi, xp NULL) or the slots of a dgCMatrix, checked. */
mlss_mat unpack_matrix(SEXP x, SEXP xi, SEXP xp, SEXP dim);

SEXP mlls_fit(SEXP x, SEXP xi, SEXP xp, SEXP dim, SEXP y, SEXP alpha, SEXP beta,
              SEXP r, SEXP intercept, SEXP dual, SEXP tol);
SEXP mlls_fit_gram(SEXP kernel, SEXP y, SEXP alpha, SEXP beta, SEXP r,
                   SEXP intercept, SEXP tol);
SEXP f1_thresholds(SEXP score, SEXP y);

/* Readers and writers of multi-label files (arff.c, libsvm.c, rows.c). */
const char *raw_bytes(SEXP raw, size_t *len);
SEXP status_list(const parse_status *st);
SEXP rows_result(const row_store *rs, int d, SEXP sparse, SEXP max_density);
SEXP rows_guard(void);
row_store *rows_of(SEXP guard);
void rows_release(SEXP guard);
SEXP arff_header_info(SEXP bytes);
SEXP arff_read_rows(SEXP bytes, SEXP role, SEXP target, SEXP values, SEXP omitted,
                    SEXP ncol, SEXP sparse, SEXP max_density);
SEXP arff_format_rows(SEXP x, SEXP xi, SEXP xp, SEXP dim, SEXP y);
SEXP libsvm_read_rows(SEXP bytes, SEXP first_index, SEXP ncol, SEXP sparse,
                      SEXP max_density);

#endif
