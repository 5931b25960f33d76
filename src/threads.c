/* See threads.h. */
#include "threads.h"
#ifdef _OPENMP
#include <omp.h>
#endif
#ifdef _WIN32
#include <process.h>
#define mlss_getpid _getpid
#else
#include <dlfcn.h>
#include <unistd.h>
#define mlss_getpid getpid
#endif

/* The process that loaded the package: any other one is a fork of it (a
 * comparison rather than a pthread_atfork() handler, so that it needs no
 * pthreads and holds however the child was made). */
static long load_pid = -1;

void mlss_threads_init(void)
{
    load_pid = (long) mlss_getpid();
}

int mlss_thread_count(int requested)
{
    int n = requested > 0 ? requested : 1;
#ifdef _OPENMP
    if (load_pid >= 0 && (long) mlss_getpid() != load_pid) return 1;
    int procs = omp_get_num_procs();  /* more threads than this cannot help, and
                                       * thousands make libgomp abort the session */
    if (procs >= 1 && n > procs) n = procs;
    int limit = omp_get_thread_limit();
    if (limit >= 1 && n > limit) n = limit;
    return n;
#else
    return 1;
#endif
}

int mlss_thread_num(void)
{
#ifdef _OPENMP
    return omp_get_thread_num();
#else
    return 0;
#endif
}

int mlss_blas_fork_threads(int set_one)
{
#ifdef _WIN32
    return -1;
#else
    /* the process's global symbols: R's BLAS is libR's dependency (or
       LD_PRELOADed), so OpenBLAS, when it is R's BLAS, is among them */
    void *self = dlopen(NULL, RTLD_LAZY);
    if (!self) return -1;
    void (*set)(int) = NULL;
    int (*get)(void) = NULL;
    /* POSIX's way to take a function pointer from dlsym()'s void * */
    *(void **) (&set) = dlsym(self, "openblas_set_num_threads");
    *(void **) (&get) = dlsym(self, "openblas_get_num_threads");
    int n = -1;
    if (set && get) {
        if (set_one && load_pid >= 0 && (long) mlss_getpid() != load_pid) set(1);
        n = get();
    }
    dlclose(self);
    return n;
#endif
}
