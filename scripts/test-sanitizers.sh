#!/usr/bin/env bash
# Builds fuel with AddressSanitizer + UndefinedBehaviorSanitizer
# (FUEL_SANITIZERS=address;undefined, -fno-sanitize-recover=all) in
# <build-dir>-asan, with the libFuzzer targets (FUEL_BUILD_FUZZERS=ON: the
# fuzzers and this suite share the one instrumented tree), and runs the whole
# ctest suite -- the lit tests and every GoogleTest binary -- with leak
# detection on, symbolized stacks and every report fatal.
#
# Every process writes its reports to <build-dir>-asan/sanitizer-logs as
# well as failing: a report in a process whose failure a test expects (a tool
# run under `not`, a subprocess checked for a non-zero status) fails the suite
# all the same. The LeakSanitizer suppressions (test/sanitizers/lsan.supp)
# name third-party libraries only.
#
# Usage: scripts/test-sanitizers.sh [build-dir] [extra cmake args...]
# (default build-dir: build/, so the tree is build-asan/). FUEL_JOBS: jobs.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"
shift || true
asan="${build%/}-asan"
jobs="${FUEL_JOBS:-2}"

start=$(date +%s)
"$root/scripts/configure-asan.sh" "$asan" "$@"
# Absolute from here on: ctest runs in the tree, and LD_PRELOAD, the logs
# and the suppressions must name the same files from there.
asan="$(cd "$asan" && pwd)"
ninja -C "$asan" -j "$jobs"
# onnxruntime-node for fuel-bench-ort-check, as scripts/test.sh does.
if ! "$root/bench/ort/install.sh" "$asan" >/dev/null; then
  echo "test-sanitizers.sh: onnxruntime-node is not installed;" \
    "fuel-bench-ort-check will skip (fail under CI=true)" >&2
fi
built=$(date +%s)

logs="$asan/sanitizer-logs"
rm -rf "$logs"
mkdir -p "$logs"
supp="$root/test/sanitizers"
symbolizer=/usr/lib/llvm-22/bin/llvm-symbolizer

# abort_on_error: a report kills the process with SIGABRT, which neither
# lit's `not` nor a check for a non-zero status takes for an expected
# failure. detect_leaks: LeakSanitizer at every exit. The settings and why
# are in docs/RELIABILITY.md (## Sanitizers).
common="abort_on_error=1:halt_on_error=1:symbolize=1:print_summary=1"
common="$common:external_symbolizer_path=$symbolizer"
export ASAN_OPTIONS="$common:detect_leaks=1:check_initialization_order=1"
# Tests ask for impossible sizes on purpose (a refused 2^62-byte workspace):
# malloc returns null, as without ASan, and fuel's own check reports it.
export ASAN_OPTIONS="$ASAN_OPTIONS:allocator_may_return_null=1"
# LLVM's BumpPtrAllocator poisons its slabs by hand when its header is
# compiled with ASan (fuel's files) and does not unpoison them when it is not
# (Debian's libMLIR.so): both share the allocators, so MLIR's own
# allocations would read as use-after-poison. fuel poisons nothing by hand.
export ASAN_OPTIONS="$ASAN_OPTIONS:allow_user_poisoning=0"
export ASAN_OPTIONS="$ASAN_OPTIONS:log_path=$logs/asan"
export UBSAN_OPTIONS="$common:print_stacktrace=1:log_path=$logs/ubsan"
export UBSAN_OPTIONS="$UBSAN_OPTIONS:suppressions=$supp/ubsan.supp"
export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0"
export ASAN_SYMBOLIZER_PATH="$symbolizer"

# A dlclose that leaves system libraries mapped, preloaded into every
# process (test/sanitizers/KeepSystemLibraries.c says why). Not instrumented:
# it is preloaded into the compilers and interpreters the tests start too.
keep="$asan/libfuel-keep-system-libraries.so"
clang-22 -shared -fPIC -O2 -o "$keep" "$supp/KeepSystemLibraries.c" -ldl
export LD_PRELOAD="$keep${LD_PRELOAD:+:$LD_PRELOAD}"

status=0
(cd "$asan" && ctest --output-on-failure -j "$jobs") || status=$?
ran=$(date +%s)

# Reports, not warnings (allocator_may_return_null logs a warning per
# refused allocation).
reports=$(grep -lE "ERROR: [A-Za-z]+Sanitizer|runtime error:" -r "$logs" |
  sort || true)
if [ -n "$reports" ]; then
  echo "test-sanitizers: sanitizer reports:" >&2
  for report in $reports; do
    echo "==== $report" >&2
    cat "$report" >&2
  done
  status=1
fi
echo "test-sanitizers: build $(((built - start) / 60)) min," \
  "ctest $(((ran - built) / 60)) min, $(echo "$reports" | grep -c . || true)" \
  "sanitizer reports"
exit "$status"
