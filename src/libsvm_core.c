/* The multi-label LIBSVM reader; see libsvm_core.h. */
#include <R.h>
#include <limits.h>
#include <string.h>
#include "libsvm_core.h"

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

static const char *token_end(const char *p, const char *end)
{
    while (p < end && !is_blank(*p) && *p != '\n' && *p != '#') p++;
    return p;
}

/* A whole number at p (optional sign); returns the position after it or NULL. */
static const char *read_int(const char *p, const char *end, long long *out)
{
    int neg = 0;
    long long v = 0;
    const char *b;
    if (p < end && (*p == '-' || *p == '+')) {
        neg = *p == '-';
        p++;
    }
    b = p;
    while (p < end && *p >= '0' && *p <= '9') {
        if (v <= INT_MAX) v = v * 10 + (*p - '0');
        p++;
    }
    if (p == b) return NULL;
    *out = neg ? -v : v;
    return p;
}

/* The labels "l1,l2,..." of the token [p, e). */
static int read_labels(const char *p, const char *e, row_store *rs, int row,
                       parse_status *st, size_t line)
{
    const char *b = p;
    for (;;) {
        long long id;
        const char *q = read_int(p, e, &id);
        if (!q || id > INT_MAX || id < -INT_MAX || (q < e && *q != ',')) {
            parse_fail(st, PARSE_ERR_LIBSVM_LABEL, line, -1, b, (size_t) (e - b));
            return 0;
        }
        ivec_push(&rs->pos_row, row);
        ivec_push(&rs->pos_lab, (int) id);
        if (q == e) return 1;
        p = q + 1;
    }
}

int libsvm_read(const char *buf, size_t len, int first_index, int max_col,
                row_store *rs, int *ncol, parse_status *st)
{
    const char *p = buf, *end = buf + len;
    size_t line = 1;
    int row = 0, maxc = -1;
    if (len >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) p += 3;  /* a UTF-8 byte order mark */
    rs->any_sparse_row = 1;
    while (p < end) {
        const char *b = p;
        while (p < end && is_blank(*p)) p++;
        if (p == end) break;
        if (*p == '\n' || *p == '#') {
            const char *nl = memchr(p, '\n', (size_t) (end - p));
            p = nl ? nl + 1 : end;
            line++;
            continue;
        }
        const char *e = token_end(p, end);
        if (p == b && !memchr(p, ':', (size_t) (e - p))) {  /* the labels */
            if (!read_labels(p, e, rs, row, st, line)) return st->code;
            p = e;
        }
        int last = -1;
        for (;;) {
            while (p < end && is_blank(*p)) p++;
            if (p == end || *p == '\n' || *p == '#') break;
            e = token_end(p, end);
            long long idx;
            double v;
            const char *q = read_int(p, e, &idx), *stop;
            if (!q || *p == '-' || *p == '+' || q == e || *q != ':') {
                parse_fail(st, PARSE_ERR_SPARSE, line, -1, p, (size_t) (e - p));
                return st->code;
            }
            long long col = idx - first_index;
            if (col < 0 || col >= (max_col >= 0 ? max_col : LIBSVM_AUTO_MAX_COL)) {
                parse_fail(st, PARSE_ERR_INDEX, line, idx, p, (size_t) (e - p));
                return st->code;
            }
            if (col <= last) {
                parse_fail(st, PARSE_ERR_INDEX_DUP, line, idx, p, (size_t) (e - p));
                return st->code;
            }
            if (!parse_number(q + 1, e, &v, &stop) || stop != e) {
                parse_fail(st, PARSE_ERR_NOT_NUMBER, line, idx, q + 1, (size_t) (e - q - 1));
                return st->code;
            }
            last = (int) col;
            if (v != 0) row_store_put(rs, last, v);
            p = e;
        }
        if (last > maxc) maxc = last;
        if (p < end && *p == '#') {
            const char *nl = memchr(p, '\n', (size_t) (end - p));
            p = nl ? nl : end;
        }
        if (!row_store_end_row(rs, st, line)) return st->code;
        row++;
        if ((row & 1023) == 0) R_CheckUserInterrupt();
        if (p < end) {  /* the newline */
            p++;
            line++;
        }
    }
    *ncol = max_col >= 0 ? max_col : maxc + 1;
    return PARSE_OK;
}
