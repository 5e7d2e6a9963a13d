#!/usr/bin/env bash
# The runtime's unit tests under ThreadSanitizer: configures an LLVM-free
# tree (FUEL_BUILD_COMPILER=OFF) in <build-dir>-tsan with
# FUEL_SANITIZERS=thread (-O1, line tables), builds the CPU device, session
# and C API tests, and runs them with every report fatal -- the queues, the
# thread pool, caller queues waited on from several threads, sessions run
# from two threads. The no-allocation tests are left out (the sanitizer's
# runtime replaces operator new, which they count). The Vulkan and CUDA tests are left out: lavapipe and the
# CUDA test doubles are not instrumented, and ThreadSanitizer cannot see the
# synchronization inside them. Not part of the README's test command (about
# a minute and a half from scratch on two cores; docs/RELIABILITY.md,
# "ThreadSanitizer over the runtime").
# Usage: scripts/test-tsan.sh [build-dir]   (default build/, tree build-tsan/)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"
tsan="${build%/}-tsan"
jobs="${FUEL_JOBS:-2}"
start=$(date +%s)
if [ ! -f "$tsan/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$tsan" -DFUEL_BUILD_COMPILER=OFF \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG" \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG" \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DFUEL_SANITIZERS=thread >/dev/null
fi
# The no-allocation tests count operator new, which ThreadSanitizer's
# runtime replaces: they are left to the other configurations.
tests=(FuelRtDeviceTests FuelRtSessionTests)
ninja -C "$tsan" -j "$jobs" "${tests[@]}"
built=$(date +%s)
# allocator_may_return_null: the tests ask for impossible sizes on purpose.
export TSAN_OPTIONS="halt_on_error=1:abort_on_error=1:second_deadlock_stack=1:allocator_may_return_null=1:external_symbolizer_path=/usr/lib/llvm-22/bin/llvm-symbolizer"
status=0
"$tsan/unittests/FuelRtDeviceTests" \
  --gtest_filter='-*Vulkan*:*Cuda*:*cuda*:*Cublas*:*vulkan*:NoAllocation*' \
  || status=1
"$tsan/unittests/FuelRtSessionTests" \
  --gtest_filter='-*Vulkan*:*Cuda*:*cuda*' || status=1
end=$(date +%s)
echo "test-tsan.sh: build $((built - start)) s, tests $((end - built)) s," \
  "exit $status"
exit $status
