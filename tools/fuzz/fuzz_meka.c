/* libFuzzer target: read_meka(arff).  The labels are the first n (or the
 * last -n) attributes by the option "-C n" in the relation name. */
#include <stdint.h>
#include <stddef.h>
#include "arff_layout.h"
#include "r_shim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!shim_begin()) fuzz_read_arff((const char *) data, size, NULL);
    fuzz_arff_release();
    shim_end();
    return 0;
}
