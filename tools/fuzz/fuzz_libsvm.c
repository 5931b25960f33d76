/* libFuzzer target: read_libsvm_ml(file, n_features, zero_based).  The first
 * byte of the input chooses the options (bit 0: zero_based; bit 1: n_features
 * given, as the second byte), the rest is the file. */
#include <stdint.h>
#include <stdlib.h>
#include "libsvm_core.h"
#include "r_shim.h"

static row_store rs;
static int rs_live;

static void read_libsvm(const char *buf, size_t len, int first_index, int max_col)
{
    parse_status st = {0};
    int d = -1;
    row_store_init(&rs);
    rs_live = 1;
    if (libsvm_read(buf, len, first_index, max_col, &rs, &d, &st) != PARSE_OK) {
        fuzz_assert(st.code > 0);
        return;
    }
    int n = row_store_nrow(&rs);
    fuzz_assert(d >= 0 && (max_col < 0 || d == max_col));
    fuzz_assert(rs.pos_row.n == rs.pos_lab.n && rs.na_row.n == 0);
    for (size_t k = 0; k < rs.pos_row.n; k++) fuzz_assert(rs.pos_row.v[k] >= 0 && rs.pos_row.v[k] < n);
    for (int r = 0; r < n; r++)  /* columns increase along a row */
        for (int k = rs.rowptr.v[r]; k < rs.rowptr.v[r + 1]; k++)
            fuzz_assert(rs.col.v[k] >= 0 && rs.col.v[k] < d &&
                        (k == rs.rowptr.v[r] || rs.col.v[k] > rs.col.v[k - 1]));
    fuzz_assert(rs.rowptr.v[n] == (int) rs.col.n);
    fuzz_assert(max_col >= 0 || d <= LIBSVM_AUTO_MAX_COL);
    if (d > (32 << 20)) return;  /* R: cannot allocate the column pointers, an error */
    int *p = malloc(sizeof(int) * ((size_t) d + 1));
    int *i = malloc(sizeof(int) * (rs.col.n + 1));
    double *x = malloc(sizeof(double) * (rs.col.n + 1));
    if (p && i && x) {
        rows_to_csc(&rs, d, p, i, x);
        fuzz_assert(p[0] == 0 && p[d] == (int) rs.col.n);
    }
    free(p);
    free(i);
    free(x);
    if ((double) n * d <= 1e6) {
        double *dense = malloc(sizeof(double) * ((size_t) n * (size_t) d + 1));
        if (dense) rows_to_dense(&rs, d, dense);
        free(dense);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2) return 0;
    int first_index = !(data[0] & 1), max_col = data[0] & 2 ? data[1] : -1;
    if (!shim_begin()) read_libsvm((const char *) data + 2, size - 2, first_index, max_col);
    if (rs_live) row_store_free(&rs);
    rs_live = 0;
    shim_end();
    return 0;
}
