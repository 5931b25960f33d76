/* ARFF reader: header and data rows in one pass over the buffer; see
 * arff_core.h.  The file format is Weka's (https://waikato.github.io/weka-wiki/
 * formats_and_processing/arff_stable/), the one Mulan and MEKA use. */
#include <R.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include "arff_core.h"

/* ---- characters and lines ---- */

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

static const char *skip_blank(const char *p, const char *end)
{
    while (p < end && is_blank(*p)) p++;
    return p;
}

static const char *skip_to_eol(const char *p, const char *end)
{
    const char *nl = memchr(p, '\n', (size_t) (end - p));
    return nl ? nl : end;
}

static int at_eol(const char *p, const char *end) { return p == end || *p == '\n'; }

/* Ends a bare (unquoted) value in a data row. */
static int ends_value(char c)
{
    return c == ',' || c == '}' || c == '\n' || c == '%' || is_blank(c);
}

/* ---- small allocations for names and levels ---- */

typedef struct { char *p; size_t left; } arena;

static char *arena_copy(arena *a, const char *s, size_t len)
{
    if (a->left < len + 1) {
        size_t size = len + 1 > 65536 ? len + 1 : 65536;
        a->p = R_alloc(size, 1);
        a->left = size;
    }
    char *out = a->p;
    memcpy(out, s, len);
    out[len] = '\0';
    a->p += len + 1;
    a->left -= len + 1;
    return out;
}

/* A growable scratch buffer for unescaped quoted text. */
typedef struct { char *v; size_t cap; } scratch;

static char *scratch_need(scratch *s, size_t len)
{
    if (s->cap < len + 1) {
        s->cap = 2 * (len + 1) > 256 ? 2 * (len + 1) : 256;
        s->v = R_alloc(s->cap, 1);
    }
    return s->v;
}

/* Reads the quoted text at p (p points at the quote) into s, resolving
 * backslash escapes.  Returns the position after the closing quote, or NULL
 * when the line ends first. */
static const char *read_quoted(const char *p, const char *end, scratch *s, size_t *outlen)
{
    char q = *p++;
    const char *eol = skip_to_eol(p, end);
    char *out = scratch_need(s, (size_t) (eol - p));
    size_t n = 0;
    while (p < eol && *p != q) {
        if (*p == '\\' && p + 1 < eol) {
            p++;
            switch (*p) {
            case 'n': out[n++] = '\n'; break;
            case 't': out[n++] = '\t'; break;
            case 'r': out[n++] = '\r'; break;
            default: out[n++] = *p;
            }
            p++;
        } else {
            out[n++] = *p++;
        }
    }
    if (p == eol) return NULL;
    out[n] = '\0';
    *outlen = n;
    return p + 1;
}

/* A name or a value in the header: quoted, or bare up to a blank or one of
 * the characters in `stops`; bare text is trimmed of trailing blanks. */
static const char *header_token(const char *p, const char *end, const char *stops,
                                scratch *s, const char **tok, size_t *len)
{
    if (p < end && (*p == '\'' || *p == '"')) {
        const char *after = read_quoted(p, end, s, len);
        *tok = s->v;
        return after;
    }
    const char *b = p;
    while (p < end && *p != '\n' && !strchr(stops, *p)) p++;
    const char *e = p;
    while (e > b && is_blank(e[-1])) e--;
    *tok = b;
    *len = (size_t) (e - b);
    return p;
}

/* ---- the header ---- */

static uint32_t hash_bytes(const char *s, size_t len)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++) h = (h ^ (unsigned char) s[i]) * 16777619u;
    return h;
}

/* Nominal attributes with many levels get an open-addressing lookup table. */
static void build_level_hash(arff_attr *a)
{
    int size = 16;
    while (size < 2 * a->nlevels) size *= 2;
    a->hash = (int *) R_alloc((size_t) size, sizeof(int));
    memset(a->hash, 0, sizeof(int) * (size_t) size);
    a->hash_mask = size - 1;
    for (int k = a->nlevels - 1; k >= 0; k--) {  /* the first of duplicates wins */
        uint32_t h = hash_bytes(a->levels[k], a->level_len[k]) & (uint32_t) a->hash_mask;
        while (a->hash[h] && !(a->level_len[a->hash[h] - 1] == a->level_len[k] &&
                               memcmp(a->levels[a->hash[h] - 1], a->levels[k], a->level_len[k]) == 0))
            h = (h + 1) & (uint32_t) a->hash_mask;
        a->hash[h] = k + 1;
    }
}

static int find_level(const arff_attr *a, const char *tok, size_t len)
{
    if (a->hash) {
        uint32_t h = hash_bytes(tok, len) & (uint32_t) a->hash_mask;
        while (a->hash[h]) {
            int k = a->hash[h] - 1;
            if (a->level_len[k] == len && memcmp(a->levels[k], tok, len) == 0) return k;
            h = (h + 1) & (uint32_t) a->hash_mask;
        }
        return -1;
    }
    for (int k = 0; k < a->nlevels; k++)
        if (a->level_len[k] == len && memcmp(a->levels[k], tok, len) == 0) return k;
    return -1;
}

static int keyword_is(const char *p, size_t len, const char *kw)
{
    size_t n = strlen(kw);
    if (len != n) return 0;
    for (size_t i = 0; i < n; i++) {
        char c = p[i];
        if (c >= 'A' && c <= 'Z') c = (char) (c - 'A' + 'a');
        if (c != kw[i]) return 0;
    }
    return 1;
}

/* The levels of a nominal type "{a, b, 'c d'}"; p points after the brace. */
static const char *read_levels(const char *p, const char *end, arff_attr *a, arena *ar,
                               scratch *s, parse_status *st, size_t line)
{
    const char *open = p - 1;
    int cap = 8;
    a->levels = (char **) R_alloc((size_t) cap, sizeof(char *));
    a->level_len = (size_t *) R_alloc((size_t) cap, sizeof(size_t));
    a->nlevels = 0;
    for (;;) {
        p = skip_blank(p, end);
        if (at_eol(p, end)) {
            parse_fail(st, PARSE_ERR_HEADER, line, -1, open, (size_t) (p - open));
            return NULL;
        }
        if (*p == '}' && a->nlevels == 0) {  /* {}: no value could be read, nor omitted */
            parse_fail(st, PARSE_ERR_HEADER, line, -1, open, (size_t) (p + 1 - open));
            return NULL;
        }
        const char *tok;
        size_t len;
        const char *q = header_token(p, end, ",}", s, &tok, &len);
        if (!q) {
            parse_fail(st, PARSE_ERR_QUOTE, line, -1, p, (size_t) (skip_to_eol(p, end) - p));
            return NULL;
        }
        if (a->nlevels == cap) {
            char **lv = (char **) R_alloc((size_t) 2 * cap, sizeof(char *));
            size_t *ll = (size_t *) R_alloc((size_t) 2 * cap, sizeof(size_t));
            memcpy(lv, a->levels, sizeof(char *) * (size_t) cap);
            memcpy(ll, a->level_len, sizeof(size_t) * (size_t) cap);
            a->levels = lv;
            a->level_len = ll;
            cap *= 2;
        }
        a->levels[a->nlevels] = arena_copy(ar, tok, len);
        a->level_len[a->nlevels++] = len;
        p = skip_blank(q, end);
        if (p < end && *p == ',') {
            p++;
        } else if (p < end && *p == '}') {
            if (a->nlevels > 8) build_level_hash(a);
            return p + 1;
        } else {
            parse_fail(st, PARSE_ERR_HEADER, line, -1, open, (size_t) (skip_to_eol(p, end) - open));
            return NULL;
        }
    }
}

/* "@attribute name type": p points after the keyword. */
static const char *read_attribute(const char *p, const char *end, arff_attr *a, arena *ar,
                                  scratch *s, parse_status *st, size_t line)
{
    const char *tok;
    size_t len;
    memset(a, 0, sizeof(*a));
    p = skip_blank(p, end);
    const char *q = header_token(p, end, " \t{", s, &tok, &len);
    if (!q) {
        parse_fail(st, PARSE_ERR_QUOTE, line, -1, p, (size_t) (skip_to_eol(p, end) - p));
        return NULL;
    }
    if (len == 0) {
        parse_fail(st, PARSE_ERR_HEADER, line, -1, "@attribute", 10);
        return NULL;
    }
    a->name = arena_copy(ar, tok, len);
    p = skip_blank(q, end);
    if (p < end && *p == '{') {
        a->type = ARFF_NOMINAL;
        return read_levels(p + 1, end, a, ar, s, st, line);
    }
    const char *b = p;
    while (p < end && !is_blank(*p) && *p != '\n' && *p != '%') p++;
    len = (size_t) (p - b);
    if (keyword_is(b, len, "numeric") || keyword_is(b, len, "real") ||
        keyword_is(b, len, "integer")) {
        a->type = ARFF_NUMERIC;
    } else if (keyword_is(b, len, "string")) {
        a->type = ARFF_STRING;
    } else if (keyword_is(b, len, "date")) {
        a->type = ARFF_DATE;
        return skip_to_eol(p, end);  /* the date format */
    } else {  /* relational, or not a type */
        parse_fail(st, PARSE_ERR_TYPE, line, -1, b, len);
        return NULL;
    }
    return p;
}

int arff_read_header(const char *buf, size_t len, arff_header *h, parse_status *st)
{
    const char *p = buf, *end = buf + len;
    size_t line = 1;
    int cap = 64;
    arena ar = {NULL, 0};
    scratch s = {NULL, 0};
    memset(h, 0, sizeof(*h));
    h->attr = (arff_attr *) R_alloc((size_t) cap, sizeof(arff_attr));
    h->relation = arena_copy(&ar, "", 0);
    if (len >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) p += 3;  /* a UTF-8 byte order mark */
    while (p < end) {
        p = skip_blank(p, end);
        if (p == end) break;
        if (*p == '\n') {
            p++;
            line++;
            continue;
        }
        if (*p == '%') {
            p = skip_to_eol(p, end);
            continue;
        }
        const char *kw = p;
        if (*p == '@') {
            p++;
            while (p < end && ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z'))) p++;
        }
        size_t kwlen = (size_t) (p - kw);
        if (keyword_is(kw, kwlen, "@data")) {
            p = skip_to_eol(p, end);
            if (p < end) {
                p++;
                line++;
            }
            h->data_offset = (size_t) (p - buf);
            h->data_line = line;
            return PARSE_OK;
        } else if (keyword_is(kw, kwlen, "@relation")) {
            const char *tok;
            size_t tlen;
            p = skip_blank(p, end);  /* a bare name runs to the end of the line */
            const char *q = header_token(p, end, "%", &s, &tok, &tlen);
            if (!q) {
                parse_fail(st, PARSE_ERR_QUOTE, line, -1, p, (size_t) (skip_to_eol(p, end) - p));
                return st->code;
            }
            h->relation = arena_copy(&ar, tok, tlen);
            p = q;
        } else if (keyword_is(kw, kwlen, "@attribute")) {
            if (h->nattr == INT_MAX - 1) {
                parse_fail(st, PARSE_ERR_TOO_LARGE, line, -1, NULL, 0);
                return st->code;
            }
            if (h->nattr == cap) {
                arff_attr *a = (arff_attr *) R_alloc((size_t) 2 * cap, sizeof(arff_attr));
                memcpy(a, h->attr, sizeof(arff_attr) * (size_t) cap);
                h->attr = a;
                cap *= 2;
            }
            p = read_attribute(p, end, &h->attr[h->nattr], &ar, &s, st, line);
            if (!p) return st->code;
            h->nattr++;
        } else {
            const char *e = skip_to_eol(kw, end);
            parse_fail(st, PARSE_ERR_HEADER, line, -1, kw, (size_t) (e - kw));
            return st->code;
        }
        p = skip_blank(p, end);
        if (p < end && *p == '%') p = skip_to_eol(p, end);
        if (!at_eol(p, end)) {
            const char *e = skip_to_eol(p, end);
            parse_fail(st, PARSE_ERR_HEADER, line, -1, p, (size_t) (e - p));
            return st->code;
        }
    }
    parse_fail(st, PARSE_ERR_NO_DATA, line, -1, NULL, 0);
    return st->code;
}

/* ---- the data rows ---- */

typedef struct {
    const arff_header *h;
    const arff_layout *lay;
    row_store *rs;
    parse_status *st;
    scratch s;
    int row;
    size_t line;
} data_ctx;

static void put_label(data_ctx *c, int lab, int missing)
{
    if (missing) {
        ivec_push(&c->rs->na_row, c->row);
        ivec_push(&c->rs->na_lab, lab);
    } else {
        ivec_push(&c->rs->pos_row, c->row);
        ivec_push(&c->rs->pos_lab, lab);
    }
}

/* Level k (or a missing value, k < 0) of nominal attribute j. */
static void put_level(data_ctx *c, int j, int k)
{
    const arff_layout *lay = c->lay;
    int t = lay->target[j];
    switch (lay->role[j]) {
    case ROLE_LEVEL_VALUE:
        if (k < 0) row_store_put(c->rs, t, lay->na);
        else if (lay->value[j][k] != 0) row_store_put(c->rs, t, lay->value[j][k]);
        break;
    case ROLE_INDICATOR:
        if (k < 0)
            for (int l = 0; l < c->h->attr[j].nlevels; l++) row_store_put(c->rs, t + l, lay->na);
        else
            row_store_put(c->rs, t + k, 1.0);
        break;
    case ROLE_LABEL:
        if (k < 0) put_label(c, t, 1);
        else if (lay->value[j][k] == 1) put_label(c, t, 0);
        break;
    default:
        break;
    }
}

/* Reads the value of attribute j at p; returns the position after it, or
 * NULL with the status set. */
static const char *read_value(data_ctx *c, int j, const char *p, const char *end)
{
    const arff_attr *a = &c->h->attr[j];
    int role = c->lay->role[j], quoted = 0;
    const char *tok, *after;
    size_t len;
    if (p < end && (*p == '\'' || *p == '"')) {
        after = read_quoted(p, end, &c->s, &len);
        if (!after) {
            parse_fail(c->st, PARSE_ERR_QUOTE, c->line, j, p, (size_t) (skip_to_eol(p, end) - p));
            return NULL;
        }
        tok = c->s.v;
        quoted = 1;
    } else {
        tok = p;
        while (p < end && !ends_value(*p)) p++;
        len = (size_t) (p - tok);
        after = p;
    }
    if (role == ROLE_SKIP) return after;
    int missing = !quoted && len == 1 && tok[0] == '?';
    if (a->type == ARFF_NOMINAL) {
        int k = missing ? -1 : find_level(a, tok, len);
        if (k < 0 && !missing) {
            parse_fail(c->st, PARSE_ERR_LEVEL, c->line, j, tok, len);
            return NULL;
        }
        put_level(c, j, k);
        return after;
    }
    double v = 0.0;
    const char *stop;
    if (!missing && !(len > 0 && parse_number(tok, tok + len, &v, &stop) && stop == tok + len)) {
        parse_fail(c->st, PARSE_ERR_NOT_NUMBER, c->line, j, tok, len);
        return NULL;
    }
    if (role == ROLE_LABEL) {
        if (missing) {
            put_label(c, c->lay->target[j], 1);
        } else if (v == 1) {
            put_label(c, c->lay->target[j], 0);
        } else if (v != 0) {
            parse_fail(c->st, PARSE_ERR_LABEL_VALUE, c->line, j, tok, len);
            return NULL;
        }
    } else if (missing) {
        row_store_put(c->rs, c->lay->target[j], c->lay->na);
    } else if (v != 0) {
        row_store_put(c->rs, c->lay->target[j], v);
    }
    return after;
}

/* After the values of a row: an optional instance weight ",{w}" and a
 * comment, then the end of the line. */
static const char *finish_row(data_ctx *c, const char *p, const char *end, int code)
{
    p = skip_blank(p, end);
    if (p < end && *p == ',') {
        const char *q = skip_blank(p + 1, end);
        if (q < end && *q == '{') {
            while (q < end && *q != '}' && *q != '\n') q++;
            if (q < end && *q == '}') p = skip_blank(q + 1, end);
        }
    }
    if (p < end && *p == '%') p = skip_to_eol(p, end);
    if (!at_eol(p, end)) {
        parse_fail(c->st, code, c->line, -1, p, (size_t) (skip_to_eol(p, end) - p));
        return NULL;
    }
    return p;
}

static const char *dense_row(data_ctx *c, const char *p, const char *end)
{
    int nattr = c->h->nattr;
    for (int j = 0; j < nattr; j++) {
        p = skip_blank(p, end);
        if (j > 0) {
            if (at_eol(p, end) || *p == '%') {
                parse_fail(c->st, PARSE_ERR_TOO_FEW, c->line, -1, NULL, 0);
                c->st->count = j;
                return NULL;
            }
            if (*p != ',') {
                parse_fail(c->st, PARSE_ERR_SYNTAX, c->line, j - 1, p,
                           (size_t) (skip_to_eol(p, end) - p));
                return NULL;
            }
            p = skip_blank(p + 1, end);
        }
        p = read_value(c, j, p, end);
        if (!p) return NULL;
    }
    return finish_row(c, p, end, PARSE_ERR_TOO_MANY);
}

static const char *sparse_row(data_ctx *c, const char *p, const char *end, int *seen)
{
    int nattr = c->h->nattr;
    const char *open = p;
    p++;  /* the brace */
    for (;;) {
        p = skip_blank(p, end);
        if (at_eol(p, end)) {
            parse_fail(c->st, PARSE_ERR_UNCLOSED, c->line, -1, open, (size_t) (p - open));
            return NULL;
        }
        if (*p == '}') {
            p++;
            break;
        }
        const char *b = p;
        long long idx = 0;
        while (p < end && *p >= '0' && *p <= '9') {
            if (idx <= INT_MAX) idx = idx * 10 + (*p - '0');
            p++;
        }
        if (p == b || !(p < end && is_blank(*p))) {
            while (p < end && !ends_value(*p)) p++;
            parse_fail(c->st, at_eol(p, end) ? PARSE_ERR_UNCLOSED : PARSE_ERR_SPARSE, c->line,
                       -1, b, (size_t) (p - b));
            return NULL;
        }
        if (idx >= nattr) {
            parse_fail(c->st, PARSE_ERR_INDEX, c->line, idx, b, (size_t) (p - b));
            return NULL;
        }
        int j = (int) idx;
        if (seen[j] == c->row) {
            parse_fail(c->st, PARSE_ERR_INDEX_DUP, c->line, j, b, (size_t) (p - b));
            return NULL;
        }
        seen[j] = c->row;
        p = skip_blank(p, end);
        if (at_eol(p, end) || *p == ',' || *p == '}') {
            parse_fail(c->st, at_eol(p, end) ? PARSE_ERR_UNCLOSED : PARSE_ERR_SPARSE, c->line, j,
                       b, (size_t) (p - b));
            return NULL;
        }
        p = read_value(c, j, p, end);
        if (!p) return NULL;
        p = skip_blank(p, end);
        if (p < end && *p == ',') {
            p++;
        } else if (at_eol(p, end)) {
            parse_fail(c->st, PARSE_ERR_UNCLOSED, c->line, -1, open, (size_t) (p - open));
            return NULL;
        } else if (*p != '}') {
            parse_fail(c->st, PARSE_ERR_SPARSE, c->line, j, p, (size_t) (skip_to_eol(p, end) - p));
            return NULL;
        }
    }
    /* omitted attributes hold their first level */
    for (int k = 0; k < c->lay->nomitted; k++) {
        int j = c->lay->omitted[k];
        if (seen[j] != c->row) put_level(c, j, 0);
    }
    c->rs->any_sparse_row = 1;
    return finish_row(c, p, end, PARSE_ERR_SYNTAX);
}

int arff_read_data(const char *buf, size_t len, const arff_header *h,
                   const arff_layout *lay, row_store *rs, parse_status *st)
{
    const char *p = buf + h->data_offset, *end = buf + len;
    data_ctx c = {h, lay, rs, st, {NULL, 0}, 0, h->data_line};
    int *seen = (int *) R_alloc((size_t) h->nattr + 1, sizeof(int));
    for (int j = 0; j < h->nattr; j++) seen[j] = -1;
    while (p < end) {
        p = skip_blank(p, end);
        if (p == end) break;
        if (*p == '\n') {
            p++;
            c.line++;
            continue;
        }
        if (*p == '%') {
            p = skip_to_eol(p, end);
            continue;
        }
        p = *p == '{' ? sparse_row(&c, p, end, seen) : dense_row(&c, p, end);
        if (!p || !row_store_end_row(rs, st, c.line)) return st->code;
        c.row++;
        if ((c.row & 1023) == 0) R_CheckUserInterrupt();
    }
    return PARSE_OK;
}
