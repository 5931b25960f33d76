/* Shared pieces of the text readers; see textparse.h. */
#include <R.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "textparse.h"

void parse_fail(parse_status *st, int code, size_t line, long long attr,
                const char *tok, size_t toklen)
{
    st->code = code;
    st->line = line;
    st->attr = attr;
    if (toklen >= sizeof(st->token)) toklen = sizeof(st->token) - 1;
    if (tok && toklen) memcpy(st->token, tok, toklen);
    st->token[tok ? toklen : 0] = '\0';
}

/* Powers of ten that a double holds exactly. */
static const double exact_pow10[] = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
};

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* The slow path: strtod on a NUL-terminated copy of the token. */
static int parse_number_slow(const char *p, const char *end, double *val,
                             const char **stop)
{
    char buf[400];
    size_t len = 0;
    while (p + len < end && len < sizeof(buf) - 1) {
        char c = p[len];
        if (c == ',' || c == '}' || c == ' ' || c == '\t' || c == '\r' || c == '\n' ||
            c == '%' || c == '#' || c == ':')
            break;
        len++;
    }
    memcpy(buf, p, len);
    buf[len] = '\0';
    char *e;
    double v = strtod(buf, &e);
    if (e == buf) return 0;
    /* strtod reads hexadecimal numbers too; ARFF has none */
    for (const char *c = buf; c < e; c++)
        if (*c == 'x' || *c == 'X') return 0;
    *val = v;
    *stop = p + (e - buf);
    return 1;
}

int parse_number(const char *p, const char *end, double *val, const char **stop)
{
    const char *s = p;
    int neg = 0;
    if (p < end && (*p == '-' || *p == '+')) {
        neg = *p == '-';
        p++;
    }
    uint64_t mant = 0;
    int ndig = 0, nsig = 0, exp10 = 0;
    while (p < end && is_digit(*p)) {
        if (nsig > 0 || *p != '0') {
            if (nsig < 19) mant = mant * 10 + (uint64_t) (*p - '0');
            else exp10++;
            nsig++;
        }
        ndig++;
        p++;
    }
    if (p < end && *p == '.') {
        p++;
        while (p < end && is_digit(*p)) {
            if (nsig > 0 || *p != '0') {
                if (nsig < 19) {
                    mant = mant * 10 + (uint64_t) (*p - '0');
                    exp10--;
                }
                nsig++;
            } else {
                exp10--;
            }
            ndig++;
            p++;
        }
    }
    if (ndig == 0) return parse_number_slow(s, end, val, stop);  /* inf, nan, or none */
    if (p < end && (*p == 'e' || *p == 'E')) {
        const char *q = p + 1;
        int eneg = 0, e = 0, edig = 0;
        if (q < end && (*q == '-' || *q == '+')) {
            eneg = *q == '-';
            q++;
        }
        while (q < end && is_digit(*q)) {
            if (e < 100000) e = e * 10 + (*q - '0');
            edig++;
            q++;
        }
        if (edig == 0) return parse_number_slow(s, end, val, stop);
        exp10 += eneg ? -e : e;
        p = q;
    }
    if (mant == 0) {
        *val = neg ? -0.0 : 0.0;
    } else if (nsig <= 19 && mant <= ((uint64_t) 1 << 53) && exp10 >= -22 && exp10 <= 22) {
        /* one exactly-rounded operation on two exact doubles */
        double m = (double) mant;
        *val = exp10 < 0 ? m / exact_pow10[-exp10] : m * exact_pow10[exp10];
        if (neg) *val = -*val;
    } else {
        return parse_number_slow(s, end, val, stop);
    }
    *stop = p;
    return 1;
}

/* Doubles the capacity of a malloc'ed array of elements of `size` bytes;
 * returns 0 and sets *failed when memory runs out (or ran out before). */
static int grow(void **v, size_t *cap, size_t size, int *failed)
{
    size_t newcap = *cap ? 2 * *cap : 1024;
    void *w = *failed ? NULL : realloc(*v, newcap * size);
    if (!w) {
        *failed = 1;
        return 0;
    }
    *v = w;
    *cap = newcap;
    return 1;
}

int ivec_grow(ivec *a)
{
    void *v = a->v;
    int ok = grow(&v, &a->cap, sizeof(int), &a->failed);
    a->v = (int *) v;
    return ok;
}

int dvec_grow(dvec *a)
{
    void *v = a->v;
    int ok = grow(&v, &a->cap, sizeof(double), &a->failed);
    a->v = (double *) v;
    return ok;
}

void row_store_init(row_store *rs)
{
    memset(rs, 0, sizeof(*rs));
    ivec_push(&rs->rowptr, 0);
}

void row_store_free(row_store *rs)
{
    ivec *iv[] = {&rs->rowptr, &rs->col, &rs->pos_row, &rs->pos_lab, &rs->na_row, &rs->na_lab};
    for (size_t k = 0; k < sizeof(iv) / sizeof(iv[0]); k++) {
        free(iv[k]->v);
        iv[k]->v = NULL;
        iv[k]->n = iv[k]->cap = 0;
    }
    free(rs->val.v);
    rs->val.v = NULL;
    rs->val.n = rs->val.cap = 0;
}

/* Closes the current row; fails when memory ran out or the counts no longer
 * fit an int. */
int row_store_end_row(row_store *rs, parse_status *st, size_t line)
{
    if (rs->rowptr.failed || rs->col.failed || rs->val.failed || rs->pos_row.failed ||
        rs->pos_lab.failed || rs->na_row.failed || rs->na_lab.failed) {
        parse_fail(st, PARSE_ERR_MEMORY, line, -1, NULL, 0);
        return 0;
    }
    if (rs->col.n > INT_MAX || rs->rowptr.n >= INT_MAX) {
        parse_fail(st, PARSE_ERR_TOO_LARGE, line, -1, NULL, 0);
        return 0;
    }
    ivec_push(&rs->rowptr, (int) rs->col.n);
    if (rs->rowptr.failed) {
        parse_fail(st, PARSE_ERR_MEMORY, line, -1, NULL, 0);
        return 0;
    }
    return 1;
}

void rows_to_dense(const row_store *rs, int d, double *x)
{
    int n = row_store_nrow(rs);
    memset(x, 0, sizeof(double) * (size_t) n * (size_t) d);
    for (int r = 0; r < n; r++)
        for (int k = rs->rowptr.v[r]; k < rs->rowptr.v[r + 1]; k++)
            x[(size_t) r + (size_t) n * (size_t) rs->col.v[k]] = rs->val.v[k];
}

void rows_to_csc(const row_store *rs, int d, int *p, int *i, double *x)
{
    int n = row_store_nrow(rs);
    size_t nnz = rs->col.n;
    memset(p, 0, sizeof(int) * ((size_t) d + 1));
    for (size_t k = 0; k < nnz; k++) p[rs->col.v[k] + 1]++;
    for (int j = 0; j < d; j++) p[j + 1] += p[j];
    int *next = (int *) R_alloc((size_t) d + 1, sizeof(int));
    memcpy(next, p, sizeof(int) * (size_t) d);
    for (int r = 0; r < n; r++)
        for (int k = rs->rowptr.v[r]; k < rs->rowptr.v[r + 1]; k++) {
            int at = next[rs->col.v[k]]++;
            i[at] = r;
            x[at] = rs->val.v[k];
        }
}
