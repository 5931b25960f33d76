#!/bin/sh
# Installs what the CI stages after `make test` need and the machine lacks:
# valgrind, clang with libFuzzer and its sanitizer runtimes (`make fuzz`),
# gcc's AddressSanitizer and UBSan runtimes (`make sanitizers`).  Each is
# probed by compiling a small program; Debian packages as root, else a
# message.  About a minute on a fresh machine, nothing when all is there.
set -e
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { return 0; }\n' > "$probe/f.c"
printf 'int main(void) { return 0; }\n' > "$probe/m.c"
need=""
command -v valgrind >/dev/null 2>&1 || need="$need valgrind"
gcc -fsanitize=address,undefined -o "$probe/m" "$probe/m.c" >/dev/null 2>&1 ||
  need="$need libasan8 libubsan1"
fuzzer_ok() {
  command -v clang >/dev/null 2>&1 &&
    clang -fsanitize=fuzzer,address,undefined -o "$probe/f" "$probe/f.c" >/dev/null 2>&1
}
fuzzer_ok || need="$need clang libclang-rt-dev"
[ -z "$need" ] && exit 0
echo "ci-deps: installing$need"
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "ci-deps: please install$need (valgrind, gcc's sanitizer runtimes, clang with libFuzzer)" >&2
  exit 1
fi
apt-get update -qq
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -qq --no-install-recommends $need >/dev/null ||
  # older Debian names the runtime after clang's version
  apt-get install -y -qq --no-install-recommends valgrind clang \
    "libclang-rt-$(clang --version | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -1)-dev" >/dev/null
fuzzer_ok || { echo "ci-deps: clang still cannot build a libFuzzer target" >&2; exit 1; }
