/* See arff_layout.h.  Where R would stop with an error (a duplicated
 * attribute, a label that is not an attribute, a label that is not 0/1, no
 * label), the run ends there too: the C reader never sees such a layout. */
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include "arff_core.h"
#include "arff_layout.h"
#include <R.h>
#include "r_shim.h"

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

/* n of the first "-C n" in the relation name, as meka_label_count(); 0 when
 * there is none or it does not fit an int (R: NA, an error). */
static int meka_count(const char *rel)
{
    for (const char *p = rel; *p; p++) {
        if (!(p[0] == '-' && p[1] == 'C')) continue;
        if (p > rel && !is_space(p[-1]) && p[-1] != ':') continue;
        const char *q = p + 2;
        if (!is_space(*q)) continue;
        while (is_space(*q)) q++;
        int neg = *q == '-';
        if (neg) q++;
        if (!(*q >= '0' && *q <= '9')) continue;
        long long v = 0;
        while (*q >= '0' && *q <= '9') {
            v = v * 10 + (*q - '0');
            if (v > INT_MAX) return 0;
            q++;
        }
        return (int) (neg ? -v : v);
    }
    return 0;
}

static int zero_one(const arff_attr *a)
{
    if (a->type != ARFF_NOMINAL || a->nlevels == 0) return 0;
    for (int k = 0; k < a->nlevels; k++)
        if (strcmp(a->levels[k], "0") != 0 && strcmp(a->levels[k], "1") != 0) return 0;
    return 1;
}

/* The converted rows, checked: rows_to_csc() always, rows_to_dense() when
 * the matrix is small (R would make it dense only below a density). */
static void convert_rows(const row_store *rs, int d)
{
    int n = row_store_nrow(rs);
    size_t nnz = rs->col.n;
    fuzz_assert(n >= 0 && rs->rowptr.v[n] == (int) nnz);
    for (int r = 0; r < n; r++) fuzz_assert(rs->rowptr.v[r] <= rs->rowptr.v[r + 1]);
    for (size_t k = 0; k < nnz; k++) fuzz_assert(rs->col.v[k] >= 0 && rs->col.v[k] < d);
    if ((size_t) d > ((size_t) 32 << 20)) return;  /* R: cannot allocate p, an error */
    int *p = malloc(sizeof(int) * ((size_t) d + 1));
    int *i = malloc(sizeof(int) * (nnz + 1));
    double *x = malloc(sizeof(double) * (nnz + 1));
    if (p && i && x) {
        rows_to_csc(rs, d, p, i, x);
        fuzz_assert(p[0] == 0 && p[d] == (int) nnz);
        for (int j = 0; j < d; j++)
            for (int k = p[j]; k < p[j + 1]; k++)
                fuzz_assert(i[k] >= 0 && i[k] < n && (k == p[j] || i[k] > i[k - 1]));
    }
    free(p);
    free(i);
    free(x);
    if ((double) n * d <= 1e6) {
        double *dense = malloc(sizeof(double) * ((size_t) n * (size_t) d + 1));
        if (dense) rows_to_dense(rs, d, dense);
        free(dense);
    }
}

static void check_labels(const ivec *row, const ivec *lab, int n, int m)
{
    fuzz_assert(row->n == lab->n);
    for (size_t k = 0; k < row->n; k++)
        fuzz_assert(row->v[k] >= 0 && row->v[k] < n && lab->v[k] >= 0 && lab->v[k] < m);
}

/* The rows being read: malloc'ed, freed by fuzz_arff_release() also after
 * an R_alloc failure jumped out (the glue's external pointer, in R). */
static row_store rs;
static int rs_live;

void fuzz_read_arff(const char *buf, size_t len, const label_names *xml)
{
    arff_header h;
    parse_status st = {0};
    if (arff_read_header(buf, len, &h, &st) != PARSE_OK) {
        fuzz_assert(st.code > 0);
        return;
    }
    fuzz_assert(h.data_offset <= len && h.nattr >= 0);
    int nattr = h.nattr;
    for (int j = 0; j < nattr; j++)  /* R: "declared twice" */
        for (int k = 0; k < j; k++)
            if (strcmp(h.attr[j].name, h.attr[k].name) == 0) return;
    int *is_label = (int *) R_alloc((size_t) nattr + 1, sizeof(int));
    if (xml) {
        for (int j = 0; j < nattr; j++) {
            is_label[j] = 0;
            for (int l = 0; l < xml->n; l++)
                if (strcmp(h.attr[j].name, xml->name[l]) == 0) is_label[j] = 1;
        }
        for (int l = 0; l < xml->n; l++) {  /* R: a label that is not an attribute */
            int found = 0;
            for (int j = 0; j < nattr && !found; j++) found = strcmp(h.attr[j].name, xml->name[l]) == 0;
            if (!found) return;
        }
    } else {
        int m = meka_count(h.relation);
        if (m == 0 || m >= nattr || -m >= nattr) return;
        for (int j = 0; j < nattr; j++) is_label[j] = m > 0 ? j < m : j >= nattr + m;
    }
    /* arff_layout(): string and date attributes are excluded (as a user
     * would with 'exclude'), unless they are labels (an error). */
    int *role = (int *) R_alloc((size_t) nattr + 1, sizeof(int));
    int *target = (int *) R_alloc((size_t) nattr + 1, sizeof(int));
    int *omitted = (int *) R_alloc((size_t) nattr + 1, sizeof(int));
    const double **value = (const double **) R_alloc((size_t) nattr + 1, sizeof(double *));
    static const double zero_one_value[2] = {0, 1};
    int d = 0, m = 0, nomitted = 0;
    for (int j = 0; j < nattr; j++) {
        const arff_attr *a = &h.attr[j];
        int nom = a->type == ARFF_NOMINAL, z = zero_one(a);
        value[j] = NULL;
        if (a->type == ARFF_STRING || a->type == ARFF_DATE) {
            if (is_label[j]) return;
            role[j] = ROLE_SKIP;
            target[j] = 0;
            continue;
        }
        if (is_label[j]) {
            if (nom && !z) return;  /* R: a label must have the levels 0 and 1 */
            role[j] = ROLE_LABEL;
            target[j] = m++;
        } else if (!nom) {
            role[j] = ROLE_NUMERIC;
            target[j] = d++;
        } else if (z && a->nlevels == 2) {
            role[j] = ROLE_LEVEL_VALUE;
            target[j] = d++;
        } else {
            role[j] = ROLE_INDICATOR;
            target[j] = d;
            if (a->nlevels > INT_MAX - d) return;
            d += a->nlevels;
        }
        if (role[j] == ROLE_LEVEL_VALUE || (role[j] == ROLE_LABEL && nom)) {
            double *v = (double *) R_alloc((size_t) a->nlevels, sizeof(double));
            for (int k = 0; k < a->nlevels; k++) v[k] = zero_one_value[a->levels[k][0] == '1'];
            value[j] = v;
        }
        if (role[j] == ROLE_INDICATOR || (role[j] == ROLE_LEVEL_VALUE && value[j][0] != 0) ||
            (role[j] == ROLE_LABEL && value[j] && value[j][0] == 1))
            omitted[nomitted++] = j;
    }
    if (m == 0) return;  /* R: no label attribute is left */
    arff_layout lay = {role, target, value, omitted, nomitted, __builtin_nan("")};
    row_store_init(&rs);
    rs_live = 1;
    if (arff_read_data(buf, len, &h, &lay, &rs, &st) == PARSE_OK) {
        int n = row_store_nrow(&rs);
        check_labels(&rs.pos_row, &rs.pos_lab, n, m);
        check_labels(&rs.na_row, &rs.na_lab, n, m);
        convert_rows(&rs, d);
    } else {
        fuzz_assert(st.code > 0);
    }
    fuzz_arff_release();
}

void fuzz_arff_release(void)
{
    if (rs_live) row_store_free(&rs);
    rs_live = 0;
}
