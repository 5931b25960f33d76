/* What read_arff_part() (R/arff.R) does around the C reader, in C for the
 * fuzz targets: read the header, decide which attributes are labels, build
 * the layout as arff_layout() does, read the rows, convert them as
 * rows_result() does, and check what came out. */
#ifndef MLSS_FUZZ_ARFF_LAYOUT_H
#define MLSS_FUZZ_ARFF_LAYOUT_H

#include <stddef.h>

/* Label names (from a Mulan XML text), or NULL for MEKA's "-C n". */
typedef struct { char **name; int n; } label_names;

void fuzz_read_arff(const char *buf, size_t len, const label_names *xml);
/* Frees the rows of an interrupted fuzz_read_arff(). */
void fuzz_arff_release(void);

#endif
