/* MDDM, multi-label dimensionality reduction via dependence maximisation
 * (Zhang and Zhou 2010), in the rank-t space of the centred data or, for the
 * direct path, on the d x d matrices of the generalised eigenproblem.  The
 * equations are those of vignettes/mddm.Rmd (methods.md, section 2). */
#ifndef MLSS_MDDM_CORE_H
#define MLSS_MDDM_CORE_H

#include "status.h"  /* the functions below return its codes */

int mddm_tspace(int t, int q, double mu, const double *s, const double *Q,
                double ktol, int *rank, double *values, double *F);
int mddm_direct(int d, int q, double mu, double *G, const double *XtR,
                double reltol, double ktol, int *rank, double *values, double *P);
int mddm_choose_k(int rank, const double *values, int k, double share);

#endif
