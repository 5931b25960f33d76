# make demo   install the package from source into ./lib and run the main job
# make test   install what the tests need, build the tarball, R CMD check it
R       ?= R
RSCRIPT ?= Rscript
PKG     := mlss
VERSION := $(shell sed -n 's/^Version: *//p' DESCRIPTION)
TARBALL := $(PKG)_$(VERSION).tar.gz
LIB     := lib

.PHONY: demo install test deps build check document valgrind sanitizers fuzz ci-deps bench mutants clean

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

# The test suite under valgrind's memcheck, on the installed package: any
# memory error, or a block definitely lost, fails it.  VALGRIND_TESTS names
# test files ("arff mlls" for test-arff.R and test-mlls.R; CI runs the
# native-heavy ones, see .ci/run), the whole suite when empty.
# tools/valgrind.supp holds R's own leaks (PCRE2 on an error); add
# VALGRIND_OPTS=--track-origins=yes to find where an uninitialised value came
# from (twice as slow).
VALGRIND_TESTS ?=
VALGRIND_OPTS  ?=
valgrind: install
	cd tests/testthat && R_LIBS="$(CURDIR)/$(LIB)" $(R) --vanilla \
	  -d "valgrind --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite --suppressions=$(CURDIR)/tools/valgrind.supp $(VALGRIND_OPTS)" \
	  -f ../../tools/valgrind-tests.R --args $(VALGRIND_TESTS)

# The test suite on a build with AddressSanitizer and UBSan (gcc): R itself is
# not instrumented, so the runtime is preloaded and leak detection is off
# (valgrind covers leaks).  The first report stops R (halt_on_error, and
# -fno-sanitize-recover for UBSan), so it fails the run whatever the tests say.
SAN_ENV := ASAN_OPTIONS=detect_leaks=0:halt_on_error=1:abort_on_error=1 \
           UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
sanitizers:
	rm -f src/*.o src/*.so
	lib=$$(mktemp -d /tmp/mlss-sanitizers.XXXXXX) && \
	printf 'CFLAGS = -g -O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined\nLDFLAGS = -fsanitize=address,undefined\n' > $$lib/Makevars && \
	R_MAKEVARS_USER=$$lib/Makevars $(R) CMD INSTALL --no-test-load --library=$$lib . && \
	rm -f src/*.o src/*.so && \
	cd tests && LD_PRELOAD=$$(gcc -print-file-name=libasan.so) $(SAN_ENV) \
	  R_LIBS=$$lib $(RSCRIPT) -e "testthat::test_dir('testthat', package = 'mlss', load_package = 'installed', stop_on_failure = TRUE)"; \
	status=$$?; rm -rf $$lib; exit $$status

# The file readers under libFuzzer, FUZZ_SECONDS per format (tools/fuzz).
FUZZ_SECONDS ?= 60
fuzz:
	$(MAKE) -C tools/fuzz run FUZZ_SECONDS=$(FUZZ_SECONDS)

# valgrind, clang with libFuzzer, the sanitizer runtimes (for CI).
ci-deps:
	sh tools/ci-deps.sh

# Mutation testing (slow, not for CI): every mutant of tools/mutants.dcf must
# make its Tests files fail (MUTANTS_SCOPE=full: the whole suite).
# MUTANTS=a,b runs some; MUTANTS_FROM_END=k the last k, newest first;
# SHARED=present uses ../shared; MUTANTS_JOBS=2 runs two mutants at a time;
# MUTANTS_BASE=skip does not run the tests on the unmutated package first.
mutants:
	MUTANTS="$(MUTANTS)" SHARED="$(or $(SHARED),absent)" MUTANTS_JOBS="$(or $(MUTANTS_JOBS),1)" \
	  MUTANTS_BASE="$(or $(MUTANTS_BASE),run)" MUTANTS_SCOPE="$(or $(MUTANTS_SCOPE),named)" \
	  MUTANTS_FROM_END="$(or $(MUTANTS_FROM_END),0)" $(RSCRIPT) tools/mutants.R

bench: install
	for f in bench/*.R; do R_LIBS="$(CURDIR)/$(LIB)" $(RSCRIPT) $$f || exit 1; done

clean:
	rm -rf $(LIB) $(PKG).Rcheck $(PKG)_*.tar.gz src/*.o src/*.so
	$(MAKE) -C tools/fuzz clean
