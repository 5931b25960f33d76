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

#endif
