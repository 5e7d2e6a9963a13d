#!/usr/bin/env bash
# Configures the one ASan + UBSan tree that scripts/test-sanitizers.sh (the
# whole suite) and scripts/fuzz.sh (the libFuzzer targets) share:
# FUEL_SANITIZERS=address;undefined with FUEL_BUILD_FUZZERS=ON, at -O0 with
# line tables -- the stacks name files and lines, and the tree compiles in
# less than half the time -O1 takes (the build, not the run, dominates the
# suite's minutes: the heavy lifting at run time is in the uninstrumented
# libMLIR and in the kernels fuel compiles). Does nothing if the tree is
# configured already.
# Usage: scripts/configure-asan.sh TREE [extra cmake args...]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
asan="$1"
shift
if [ ! -f "$asan/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$asan" \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O0 -gline-tables-only -DNDEBUG" \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O0 -gline-tables-only -DNDEBUG" \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DLLVM_USE_LINKER=lld \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    "-DFUEL_SANITIZERS=address;undefined" -DFUEL_BUILD_FUZZERS=ON \
    "$@"
fi
