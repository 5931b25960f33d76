/* Registration of the native routines: nothing else lives here. */
#include <R.h>
#include <Rinternals.h>
#include <R_ext/Rdynload.h>
#include <stdlib.h>
#include "mlss.h"

#define CALLDEF(name, n) {#name, (DL_FUNC) &name, n}

static const R_CallMethodDef CallEntries[] = {
    CALLDEF(mlls_fit, 11),
    CALLDEF(mlls_fit_gram, 7),
    CALLDEF(f1_thresholds, 2),
    CALLDEF(mddm_fit, 10),
    {NULL, NULL, 0}
};

void R_init_mlss(DllInfo *dll)
{
    R_registerRoutines(dll, NULL, CallEntries, NULL, NULL);
    R_useDynamicSymbols(dll, FALSE);
    R_forceSymbols(dll, TRUE);
}
