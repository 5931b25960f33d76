/* Declarations shared by the .Call glue files and init.c. */
#ifndef MLSS_H
#define MLSS_H

#include <Rinternals.h>
#include "linalg.h"

/* A dense matrix (xi, xp NULL) or the slots of a dgCMatrix, checked. */
mlss_mat unpack_matrix(SEXP x, SEXP xi, SEXP xp, SEXP dim);

SEXP mlls_fit(SEXP x, SEXP xi, SEXP xp, SEXP dim, SEXP y, SEXP alpha, SEXP beta,
              SEXP r, SEXP intercept, SEXP dual, SEXP tol);
SEXP mlls_fit_gram(SEXP kernel, SEXP y, SEXP alpha, SEXP beta, SEXP r,
                   SEXP intercept, SEXP tol);
SEXP f1_thresholds(SEXP score, SEXP y);
SEXP mddm_fit(SEXP x, SEXP xi, SEXP xp, SEXP dim, SEXP labels, SEXP mu, SEXP k,
              SEXP share, SEXP method, SEXP tol);

#endif
