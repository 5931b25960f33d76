# make demo   install the package from source into ./lib and run the main job
# make test   install what the tests need, build the tarball, R CMD check it
R       ?= R
RSCRIPT ?= Rscript
PKG     := mlss
VERSION := $(shell sed -n 's/^Version: *//p' DESCRIPTION)
TARBALL := $(PKG)_$(VERSION).tar.gz
LIB     := lib

.PHONY: demo install test deps build check document valgrind sanitizers bench mutants clean

demo: install
	R_LIBS="$(CURDIR)/$(LIB)" $(RSCRIPT) demo/yeast.R

# Objects left by roxygen2's load_all() are built at -O0: never install them.
install:
	rm -f src/*.o src/*.so
	mkdir -p $(LIB)
	$(R) CMD INSTALL --no-multiarch --library=$(LIB) .

test: deps check

deps:
	sh tools/install-deps.sh

build:
	rm -f $(TARBALL) src/*.o src/*.so
	$(R) CMD build .

# R CMD check exits non-zero only on an ERROR; a WARNING fails here too.
# Suggested packages that could not be installed (mldr, future.apply come from
# CRAN) make their tests skip rather than the check fail.
check: build
	_R_CHECK_CRAN_INCOMING_REMOTE_=false _R_CHECK_SYSTEM_CLOCK_=false _R_CHECK_FORCE_SUGGESTS_=false \
	  $(R) CMD check --as-cran --no-manual $(TARBALL)
	@if grep -qE '^Status:.*(ERROR|WARNING)' $(PKG).Rcheck/00check.log; then \
	  echo "R CMD check reported a WARNING or ERROR"; exit 1; fi

# Regenerate NAMESPACE and man/ from the roxygen comments (needs roxygen2).
document:
	$(RSCRIPT) -e 'roxygen2::roxygenise()'
	rm -f src/*.o src/*.so

# The test suite under valgrind's memcheck, on the installed package.
valgrind: install
	cd tests && R_LIBS="$(CURDIR)/$(LIB)" $(R) -d "valgrind --error-exitcode=1 --leak-check=full --track-origins=yes" --vanilla -f testthat.R

# The test suite on a build with AddressSanitizer and UBSan (gcc): R itself is
# not instrumented, so the runtime is preloaded and leak detection is off
# (valgrind covers leaks).
SAN_LIB := /tmp/mlss-sanitizers
sanitizers:
	rm -f src/*.o src/*.so
	mkdir -p $(SAN_LIB)
	printf 'CFLAGS = -g -O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined\nLDFLAGS = -fsanitize=address,undefined\n' > $(SAN_LIB)/Makevars
	R_MAKEVARS_USER=$(SAN_LIB)/Makevars $(R) CMD INSTALL --no-test-load --library=$(SAN_LIB) .
	rm -f src/*.o src/*.so
	cd tests && LD_PRELOAD=$$(gcc -print-file-name=libasan.so) ASAN_OPTIONS=detect_leaks=0 \
	  R_LIBS=$(SAN_LIB) $(RSCRIPT) -e "testthat::test_dir('testthat', package = 'mlss', load_package = 'installed', stop_on_failure = TRUE)"

# Mutation testing (slow, not for CI): every mutant of tools/mutants.dcf must
# make the suite fail.  MUTANTS=a,b runs some; SHARED=present uses ../shared.
mutants:
	MUTANTS="$(MUTANTS)" SHARED="$(SHARED)" $(RSCRIPT) tools/mutants.R

bench: install
	for f in bench/*.R; do R_LIBS="$(CURDIR)/$(LIB)" $(RSCRIPT) $$f || exit 1; done

clean:
	rm -rf $(LIB) $(PKG).Rcheck $(PKG)_*.tar.gz src/*.o src/*.so
