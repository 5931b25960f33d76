/* The multi-label LIBSVM text format, one instance a line:
 *
 *     l1,l2,... idx:value idx:value ...     # comment
 *
 * labels are whole numbers separated by commas (none: the line starts with a
 * blank or with the first pair), indices are 1-based (0-based on request) and
 * increase along a line.  Blank lines and lines starting with '#' are skipped.
 */
#ifndef MLSS_LIBSVM_CORE_H
#define MLSS_LIBSVM_CORE_H

#include "textparse.h"

/* Without a known number of columns, indices above this are refused: a
 * single stray "100000000:1" would otherwise make a matrix of 10^8 columns
 * (and as many column names) from a file of a few bytes. */
#define LIBSVM_AUTO_MAX_COL (1 << 24)

/* first_index: 0 or 1; max_col: the number of feature columns when known,
 * else -1 (then *ncol is the largest index seen, at most
 * LIBSVM_AUTO_MAX_COL).  rs: empty, from
 * row_store_init(); labels go to its pos_row/pos_lab as (row, label id). */
int libsvm_read(const char *buf, size_t len, int first_index, int max_col,
                row_store *rs, int *ncol, parse_status *st);

#endif
