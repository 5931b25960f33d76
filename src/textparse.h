/* Pieces shared by the text readers (ARFF, LIBSVM): a parse status that the
 * glue turns into an R error, a locale-independent number parser, growable
 * arrays in R_alloc memory, and the rows of a sparse matrix being read.
 *
 * Nothing here knows about SEXPs.  All memory comes from R_alloc, so an
 * interrupt or an error anywhere leaves nothing to free.
 */
#ifndef MLSS_TEXTPARSE_H
#define MLSS_TEXTPARSE_H

#include <stddef.h>

/* Status codes of the readers (0 is success).  The R side maps each code to
 * a message that names the file and the line. */
enum {
    PARSE_OK = 0,
    PARSE_ERR_NO_DATA = 1,       /* no @data line: truncated or not ARFF */
    PARSE_ERR_HEADER = 2,        /* a header line that is not ARFF */
    PARSE_ERR_TYPE = 3,          /* an attribute type we do not read */
    PARSE_ERR_QUOTE = 4,         /* a quote not closed on its line */
    PARSE_ERR_NOT_NUMBER = 5,    /* a non-numeric value in a numeric column */
    PARSE_ERR_LEVEL = 6,         /* a value that is not a level of its nominal attribute */
    PARSE_ERR_TOO_FEW = 7,       /* a dense row with fewer values than attributes */
    PARSE_ERR_TOO_MANY = 8,      /* a dense row with more values than attributes */
    PARSE_ERR_INDEX = 9,         /* an index out of range in a sparse row */
    PARSE_ERR_INDEX_DUP = 10,    /* an index repeated (or out of order) in a sparse row */
    PARSE_ERR_SPARSE = 11,       /* a sparse row that is not "{index value, ...}" */
    PARSE_ERR_UNCLOSED = 12,     /* a sparse row without its closing brace */
    PARSE_ERR_LABEL_VALUE = 13,  /* a label value other than 0 and 1 */
    PARSE_ERR_TOO_LARGE = 14,    /* more non-zeros or rows than an int can count */
    PARSE_ERR_LIBSVM_LABEL = 15, /* a LIBSVM label that is not a whole number */
    PARSE_ERR_SYNTAX = 16,       /* something else where a ',' or the end of the row belongs */
    PARSE_ERR_MEMORY = 17        /* out of memory */
};

typedef struct {
    int code;
    size_t line;      /* 1-based line of the file where it happened */
    long long attr;   /* the attribute (0-based) or feature index involved, or -1 */
    long long count;  /* for PARSE_ERR_TOO_FEW: how many values the row had */
    char token[80];   /* the offending text, truncated */
} parse_status;

void parse_fail(parse_status *st, int code, size_t line, long long attr,
                const char *tok, size_t toklen);

/* Parses a decimal number (optional sign, digits, fraction, exponent; also
 * "inf", "nan") starting at p.  Returns 1 and sets *val and *stop (the first
 * character after the number) on success, 0 when no number starts at p.
 * Correctly rounded: a fast exact path, else the C library's strtod (R keeps
 * LC_NUMERIC as "C", so the decimal point is always '.'). */
int parse_number(const char *p, const char *end, double *val, const char **stop);

/* Growable arrays in malloc memory, doubling; a failed allocation sets
 * `failed` and drops the value (the row_store reports it at the row's end). */
typedef struct { int *v; size_t n, cap; int failed; } ivec;
typedef struct { double *v; size_t n, cap; int failed; } dvec;

int ivec_grow(ivec *a);
int dvec_grow(dvec *a);
static inline void ivec_push(ivec *a, int x)
{
    if (a->n == a->cap && !ivec_grow(a)) return;
    a->v[a->n++] = x;
}
static inline void dvec_push(dvec *a, double x)
{
    if (a->n == a->cap && !dvec_grow(a)) return;
    a->v[a->n++] = x;
}

/* The rows read so far: features in compressed sparse rows (columns within a
 * row in any order, each at most once), labels as (row, label) pairs.  The
 * arrays are malloc'ed (R_alloc's doubling would make R collect garbage
 * again and again): whoever calls row_store_init() calls row_store_free() on
 * every path (the glue ties it to an external pointer's finalizer). */
typedef struct {
    ivec rowptr;            /* nrow + 1 offsets into col/val */
    ivec col;
    dvec val;
    ivec pos_row, pos_lab;  /* labels present */
    ivec na_row, na_lab;    /* labels missing ("?") */
    int any_sparse_row;     /* did the file use the sparse row format? */
} row_store;

void row_store_init(row_store *rs);
void row_store_free(row_store *rs);
int row_store_end_row(row_store *rs, parse_status *st, size_t line);
static inline void row_store_put(row_store *rs, int col, double v)
{
    ivec_push(&rs->col, col);
    dvec_push(&rs->val, v);
}
static inline int row_store_nrow(const row_store *rs) { return (int) rs->rowptr.n - 1; }

/* The n x d matrix of the store, dense column-major (zeros filled in). */
void rows_to_dense(const row_store *rs, int d, double *x);
/* Its compressed sparse columns: p (d + 1), i and x (nnz); row indices come
 * out sorted within each column. */
void rows_to_csc(const row_store *rs, int d, int *p, int *i, double *x);

#endif
