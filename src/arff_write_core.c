/* ARFF writer: the data rows of a Mulan file; see arff_core.h.  Numbers are
 * written with the fewest significant digits (15 to 17) that read back to
 * the same double, so that reading the file gives the data written. */
#include <R.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arff_core.h"

static char *reserve(text_buf *b, size_t more)
{
    if (b->cap - b->n < more) {
        size_t cap = 2 * b->cap > b->n + more ? 2 * b->cap : b->n + more + 4096;
        char *v = R_alloc(cap, 1);
        if (b->n) memcpy(v, b->v, b->n);
        b->v = v;
        b->cap = cap;
    }
    return b->v + b->n;
}

/* Writes an integer; returns the number of characters. */
static size_t fmt_int(long long v, char *s)
{
    char tmp[24];
    size_t k = 0, n = 0;
    unsigned long long u = v < 0 ? (unsigned long long) (-(v + 1)) + 1 : (unsigned long long) v;
    do {
        tmp[k++] = (char) ('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0) s[n++] = '-';
    while (k) s[n++] = tmp[--k];
    return n;
}

/* At most 26 characters. */
static size_t fmt_double(double v, char *s)
{
    if (isnan(v)) {
        s[0] = '?';
        return 1;
    }
    if (v == floor(v) && fabs(v) < 1e15) return fmt_int((long long) v, s);
    int k = 0;
    for (int prec = 15; prec <= 17; prec++) {
        k = snprintf(s, 32, "%.*g", prec, v);
        if (strtod(s, NULL) == v) break;
    }
    return (size_t) k;
}

void arff_write_rows(int n, int d, int m, const double *x, const int *ti, const int *tp,
                     const int *y, int na_int, text_buf *out)
{
    for (int r = 0; r < n; r++) {
        size_t nval = ti ? (size_t) (tp[r + 1] - tp[r]) : (size_t) d;
        char *s = reserve(out, 40 * (nval + (size_t) m) + 8), *s0 = s;
        if (ti) {  /* "{index value, ...}", zeros and absent labels left out */
            *s++ = '{';
            int first = 1;
            for (int k = tp[r]; k < tp[r + 1]; k++) {
                if (x[k] == 0) continue;
                if (!first) *s++ = ',';
                first = 0;
                s += fmt_int(ti[k], s);
                *s++ = ' ';
                s += fmt_double(x[k], s);
            }
            for (int l = 0; l < m; l++) {
                int v = y[(size_t) r + (size_t) n * (size_t) l];
                if (v == 0) continue;
                if (!first) *s++ = ',';
                first = 0;
                s += fmt_int((long long) d + l, s);
                *s++ = ' ';
                *s++ = v == na_int ? '?' : '1';
            }
            *s++ = '}';
        } else {
            for (int j = 0; j < d; j++) {
                s += fmt_double(x[(size_t) r + (size_t) n * (size_t) j], s);
                *s++ = ',';
            }
            for (int l = 0; l < m; l++) {
                int v = y[(size_t) r + (size_t) n * (size_t) l];
                *s++ = v == na_int ? '?' : (v ? '1' : '0');
                *s++ = ',';
            }
            if (s > s0) s--;  /* the last comma */
        }
        *s++ = '\n';
        out->n += (size_t) (s - s0);
    }
}
