# cv_lewl()'s fold fits on the basis route with the eigensolver's depth as a
# parameter (issue 23, session s40): bench/lewl_cv.R (1600 rows of one fold,
# LEWL_CV_POINTS, LEWL_CV_LIB as there) with options(mlss.lewl_eigen =
# "basis"), the route cv_lewl()'s folds take, and LEWL_CV_EIG_DEPTH (unset:
# the build's default) as lewl_solve()'s eig_depth default.
#   LEWL_CV_POINTS=10,13 LEWL_CV_LIB=<build> [LEWL_CV_EIG_DEPTH=4] Rscript bench/lewl_eig_cvfit.R
lib <- Sys.getenv("LEWL_CV_LIB", "")
if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
options(mlss.lewl_eigen = "basis")
depth <- Sys.getenv("LEWL_CV_EIG_DEPTH", "")
if (nzchar(depth)) {
  f <- mlss:::lewl_solve
  formals(f)$eig_depth <- as.integer(depth)
  utils::assignInNamespace("lewl_solve", f, "mlss")
}
cat("BLAS", extSoftVersion()[["BLAS"]], "; eig_depth",
    formals(mlss:::lewl_solve)$eig_depth, "\n")
source(file.path("bench", "lewl_cv.R"))
