#!/usr/bin/env bash
# Installs what is missing, builds fuel and runs every test: the lit suites
# and every GoogleTest binary, through ctest (with onnxruntime-node installed
# under the build tree for the ONNX Runtime check), and again under ASan +
# UBSan in <build-dir>-asan (scripts/test-sanitizers.sh). Then builds and
# tests the LLVM-free parts alone, in <build-dir>-nocompiler, configured with
# the compiler off and unable to find LLVM or MLIR (with clang, and again with
# g++ 12 in <build-dir>-nocompiler-gcc), and runs a short fuzzing campaign
# over every fuzz target in <build-dir>-asan (scripts/fuzz.sh). Every
# configuration's ctest replays the saved fuzz regressions.
#
# Every tree compiles through ccache (cmake/FuelCcache.cmake: the launcher
# sets the sloppiness clang's precompiled headers need, the source root
# as base directory and no build directory in the hash, with
# -fdebug-compilation-dir=. keeping it out of objects with debug
# information; -Xclang -fno-pch-timestamp), so a rerun -- of a fresh clone
# at another path too -- takes unchanged objects from ~/.cache/ccache (CCACHE_DIR)
# instead of compiling them. The statistics are zeroed at the start and
# printed at the end with the wall time, whether the run passed or not:
# the hit rate says how much a rerun saved.
# Usage: scripts/test.sh [build-dir]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"
jobs="${FUEL_JOBS:-2}"
started=$(date +%s)

"$root/scripts/install-deps.sh"

report() {
  local status=$?
  if command -v ccache >/dev/null 2>&1; then
    echo "test.sh: ccache statistics of this run:"
    ccache --show-stats || true
  fi
  echo "test.sh: wall time $(( $(date +%s) - started )) s (exit $status)"
}
if command -v ccache >/dev/null 2>&1; then
  ccache --zero-stats >/dev/null
fi
trap report EXIT
"$root/scripts/build.sh" "$build"
# onnxruntime-node under the build tree, from the npm registry, for ctest
# fuel-bench-ort-check (which fails under CI=true without it, and skips
# elsewhere) and fuel-bench-ort-onnx-check (which fails under CI=true
# without it, and compares with the float64 reference alone elsewhere).
if ! "$root/bench/ort/install.sh" "$build" >/dev/null; then
  echo "test.sh: onnxruntime-node is not installed; fuel-bench-ort-check" \
    "will skip and fuel-bench-ort-onnx-check compare with the reference" \
    "alone (both fail under CI=true)" >&2
fi
(cd "$build" && ctest --output-on-failure -j "$jobs")

# The whole suite again under ASan + UBSan, leaks reported, in
# <build-dir>-asan (docs/RELIABILITY.md, ## Sanitizers).
"$root/scripts/test-sanitizers.sh" "$build"

# FUEL_BUILD_COMPILER=OFF: only the LLVM-free targets exist, and CMake is
# forbidden to find LLVM or MLIR even if something asked for them (nothing
# does, hence --no-warn-unused-cli). Its ctest includes
# fuel-llvm-free-commands, which fails if any compile or link command names an
# LLVM or MLIR directory or library.
nocompiler="${build%/}-nocompiler"
if [ ! -f "$nocompiler/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$nocompiler" --no-warn-unused-cli \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DFUEL_BUILD_COMPILER=OFF \
    -DCMAKE_DISABLE_FIND_PACKAGE_MLIR=ON \
    -DCMAKE_DISABLE_FIND_PACKAGE_LLVM=ON
fi
ninja -C "$nocompiler" -j "$jobs"
(cd "$nocompiler" && ctest --output-on-failure -j "$jobs")

# The same LLVM-free configuration with the system's g++ (12), so the runtime
# and the probe stay portable beyond the clang that builds the compiler.
gcc_build="${build%/}-nocompiler-gcc"
if [ ! -f "$gcc_build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$gcc_build" --no-warn-unused-cli \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=gcc-12 -DCMAKE_CXX_COMPILER=g++-12 \
    -DFUEL_BUILD_COMPILER=OFF -DFUEL_BUILD_BENCHMARKS=OFF \
    -DCMAKE_DISABLE_FIND_PACKAGE_MLIR=ON \
    -DCMAKE_DISABLE_FIND_PACKAGE_LLVM=ON
fi
ninja -C "$gcc_build" -j "$jobs"
(cd "$gcc_build" && ctest --output-on-failure -j "$jobs")

# A short campaign over every fuzz target (FUEL_FUZZ_SECONDS per target,
# default 30; libFuzzer seed FUEL_FUZZ_SEED, default 1) in the ASan + UBSan
# tree the sanitizer suite built; a failing input in fuel's code fails it
# (docs/RELIABILITY.md).
FUEL_FUZZ_SEED="${FUEL_FUZZ_SEED:-1}" \
  "$root/scripts/fuzz.sh" "${FUEL_FUZZ_SECONDS:-30}" "$build"
