/* ARFF (Weka, Mulan, MEKA) in one pass over a buffer holding the whole file.
 *
 * arff_read_header() reads the @relation and @attribute lines up to @data.
 * The caller then decides what each attribute becomes (a feature column, one
 * indicator column per level, a label, nothing) and arff_read_data() reads the
 * rows, dense ("v1,v2,...") or sparse ("{index value, ...}", 0-based indices,
 * omitted values 0, i.e. the first level of a nominal attribute), into a
 * row_store.  Comments ('%' to the end of the line), quoted values with
 * backslash escapes, missing values '?' and instance weights (a trailing
 * ",{w}", ignored) are understood.
 */
#ifndef MLSS_ARFF_CORE_H
#define MLSS_ARFF_CORE_H

#include <stddef.h>
#include "textparse.h"

enum { ARFF_NUMERIC = 0, ARFF_NOMINAL = 1, ARFF_STRING = 2, ARFF_DATE = 3,
       ARFF_RELATIONAL = 4 };

typedef struct {
    char *name;
    int type;
    int nlevels;
    char **levels;          /* unescaped, NUL-terminated */
    size_t *level_len;
    int *hash;              /* level lookup table for many levels, or NULL */
    int hash_mask;
} arff_attr;

typedef struct {
    char *relation;
    int nattr;
    arff_attr *attr;
    size_t data_offset;     /* first byte after the @data line */
    size_t data_line;       /* line number of that byte */
} arff_header;

int arff_read_header(const char *buf, size_t len, arff_header *h, parse_status *st);

/* What each attribute becomes. */
enum {
    ROLE_SKIP = 0,        /* read and checked, then dropped */
    ROLE_NUMERIC = 1,     /* numeric attribute -> column target */
    ROLE_LEVEL_VALUE = 2, /* nominal -> column target, value value[level] */
    ROLE_INDICATOR = 3,   /* nominal -> column target + level, value 1 */
    ROLE_LABEL = 4        /* label target: numeric 0/1, or nominal with value[level] in {0, 1} */
};

typedef struct {
    const int *role;           /* nattr */
    const int *target;         /* nattr: first column, or label index */
    const double *const *value;  /* nattr: per-level values (LEVEL_VALUE, nominal LABEL) */
    const int *omitted;        /* attributes whose first level is non-zero (see above) */
    int nomitted;
    double na;                 /* the value stored for '?' */
} arff_layout;

/* rs: empty, from row_store_init(). */
int arff_read_data(const char *buf, size_t len, const arff_header *h,
                   const arff_layout *lay, row_store *rs, parse_status *st);

/* Writing: the data rows of a Mulan ARFF file, features then labels.
 * x is dense n x d (column-major) when ti is NULL, written as dense rows;
 * else x, ti, tp are the compressed columns of its transpose (so that row r
 * of the data is column r there), written as sparse rows.  y is n x m with
 * 0, 1 or na_int.  The text is appended to out (R_alloc memory). */
typedef struct { char *v; size_t n, cap; } text_buf;

void arff_write_rows(int n, int d, int m, const double *x, const int *ti, const int *tp,
                     const int *y, int na_int, text_buf *out);

#endif
