#!/bin/sh
# Installs what `make test` needs and the machine lacks: the R packages the
# tests and vignettes use (Suggests) and pandoc.  As root on Debian it takes
# Debian's prebuilt r-cran-* packages (fast); elsewhere it installs from CRAN.
set -e
# mldr (Suggests: the interop tests) is not packaged by Debian.  As root on
# Debian its dependencies come prebuilt (r-cran-shiny is usually there with
# testthat already), then mldr itself, pure R, from CRAN: about 20 s in all.
if ! Rscript -e 'quit(status = !requireNamespace("mldr", quietly = TRUE))' >/dev/null 2>&1; then
  echo "install-deps: installing mldr"
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      r-cran-xml r-cran-circlize r-cran-shiny
  fi
  Rscript -e 'install.packages("mldr", repos = "https://cloud.r-project.org")'
fi
# LiblineaR (Suggests: br()'s solvers against LIBLINEAR) is not packaged by
# Debian either: from CRAN, compiled (about a minute).
if ! Rscript -e 'quit(status = !requireNamespace("LiblineaR", quietly = TRUE))' >/dev/null 2>&1; then
  echo "install-deps: installing LiblineaR"
  Rscript -e 'install.packages("LiblineaR", repos = "https://cloud.r-project.org")'
fi
PKGS="future future.apply knitr rmarkdown testthat RSQLite DBI progressr parallelly"
# the adapters of the base learners (R/learners.R, Suggests): Debian packages them
PKGS="$PKGS e1071 glmnet kernlab ranger"
# quadprog: the independent QP solve in test-svm-optimality.R
PKGS="$PKGS quadprog"
missing=$(Rscript -e 'p <- commandArgs(TRUE); cat(p[!vapply(p, requireNamespace, logical(1), quietly = TRUE)])' $PKGS)
# pandoc builds the vignettes; qpdf is what R CMD check --as-cran asks for.
tools=""
for t in pandoc qpdf; do command -v $t >/dev/null 2>&1 || tools="$tools $t"; done
[ -z "$missing$tools" ] && exit 0
echo "install-deps: installing ${missing} ${tools}"
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  debs="$tools"
  for p in $missing; do debs="$debs r-cran-$(echo "$p" | tr 'A-Z' 'a-z')"; done
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $debs
else
  if [ -n "$missing" ]; then
    Rscript -e 'install.packages(commandArgs(TRUE), repos = "https://cloud.r-project.org")' $missing
  fi
  if [ -n "$tools" ]; then
    echo "install-deps: please install$tools (pandoc builds the vignettes, qpdf is used by R CMD check)" >&2
    exit 1
  fi
fi
