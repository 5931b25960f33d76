/* The one place that decides how many threads a parallel loop of the package
 * runs on (as data.table's openmp-utils): the count asked for (the option
 * mlss.threads, passed down from R), at most the processors OpenMP sees, and
 * one in a process forked after the package was loaded (parallel::mclapply()
 * workers), where libgomp's thread pool, inherited from the parent, hangs.
 * Plain C, no SEXP: cores call it before sizing per-thread scratch. */
#ifndef MLSS_THREADS_H
#define MLSS_THREADS_H

void mlss_threads_init(void);        /* from R_init_mlss(): records the loading process */
int mlss_thread_count(int requested); /* >= 1; 1 without OpenMP */
int mlss_thread_num(void);           /* inside a parallel loop: this thread's index,
                                      * 0 .. count - 1, for its scratch; 0 without OpenMP */
/* With set_one, in a process forked after the package was loaded, OpenBLAS
 * (when it is R's BLAS, found at run time: nothing is linked) set to one
 * thread, as the package's own loops take one there: each forked worker
 * inherits the parent's count (as many as cores), and the workers' BLAS
 * threads then share the cores with one another.  Returns OpenBLAS's thread
 * count after the call, -1 where OpenBLAS is not R's BLAS (another BLAS is
 * left as it is).  In the loading process it only reports the count. */
int mlss_blas_fork_threads(int set_one);

#endif
