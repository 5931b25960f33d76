#!/bin/sh
# Installs what `make test` needs and the machine lacks: the R packages the
# tests and vignettes use (Suggests) and pandoc.  As root on Debian it takes
# Debian's prebuilt r-cran-* packages (fast); elsewhere it installs from CRAN.
set -e
PKGS="future.apply knitr rmarkdown testthat"
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
