/* The two things the parser cores take from R, for the fuzz targets:
 * R_alloc (scratch memory that R frees when the .Call returns) and
 * R_CheckUserInterrupt.  shim_begin() / shim_end() bracket one run: every
 * R_alloc block of the run is freed at shim_end().  R_alloc that R would
 * refuse (out of memory) jumps back to shim_begin(), as R's error would jump
 * out of the .Call. */
#ifndef MLSS_FUZZ_R_SHIM_H
#define MLSS_FUZZ_R_SHIM_H

#include <setjmp.h>

extern jmp_buf shim_error;
void shim_end(void);
#define shim_begin() setjmp(shim_error)

/* A broken invariant of a reader's output: a crash the fuzzer reports. */
#define fuzz_assert(cond) do { if (!(cond)) __builtin_trap(); } while (0)

#endif
