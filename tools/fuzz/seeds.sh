#!/bin/sh
# Writes seeds/<target>/ from the data sets of ../shared/data (searched
# upwards from the repository, or $MLSS_SHARED_DATA); only the small
# hand-written seeds when it is absent.
set -e
cd "$(dirname "$0")"
dir=${MLSS_SHARED_DATA:-}
if [ -z "$dir" ]; then
  here=$(cd ../.. && pwd)
  while [ "$here" != / ]; do
    if [ -d "$here/shared/data" ]; then dir="$here/shared/data"; break; fi
    here=$(dirname "$here")
  done
fi
rm -rf seeds
mkdir -p seeds
if [ -z "$dir" ]; then
  echo "seeds: ../shared/data not found; hand-written seeds only"
  dir=$(mktemp -d)
fi
Rscript seeds.R "$dir" seeds
