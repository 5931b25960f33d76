/* R_alloc and R_CheckUserInterrupt without R; see r_shim.h. */
#include <stdlib.h>
#include <R.h>
#include "r_shim.h"

jmp_buf shim_error;

typedef struct block { struct block *next; } block;
static block *blocks;

/* R refuses (with an error) blocks it cannot allocate; so does the shim,
 * also above 256 MB so that the fuzzer's memory limit is not what stops a
 * run. */
char *R_alloc(size_t n, int size)
{
    if (n == 0 || size == 0) return NULL;
    if (n > ((size_t) 256 << 20) / (size_t) size) longjmp(shim_error, 1);
    /* a 16-byte link in front keeps malloc's alignment for the caller */
    block *b = malloc(16 + n * (size_t) size);
    if (!b) longjmp(shim_error, 1);
    b->next = blocks;
    blocks = b;
    return (char *) b + 16;
}

void R_CheckUserInterrupt(void) {}

void shim_end(void)
{
    while (blocks) {
        block *next = blocks->next;
        free(blocks);
        blocks = next;
    }
}
