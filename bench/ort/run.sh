#!/usr/bin/env bash
# fuel against ONNX Runtime on examples/{mlp,convnet,transformer}.mlir (or,
# with --source=onnx, on their ONNX models through fuel-import-onnx): the
# same models from the same weights and inputs, checked to agree, then timed
# on one thread and on every core (docs/ORT-COMPARISON.md). Installs what is
# missing (Debian packages through scripts/install-deps.sh, the npm package
# onnxruntime-node@1.30.0 under the build tree through bench/ort/install.sh),
# builds fuel-compile, fuel-run and the library shims, and runs
# bench/ort/bench_ort.py with the arguments given (--help lists them).
# Usage: bench/ort/run.sh [bench_ort.py options...]   ($FUEL_BUILD_DIR: build)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${FUEL_BUILD_DIR:-$root/build}"

"$root/scripts/install-deps.sh"
if [ ! -f "$build/build.ninja" ]; then
  "$root/scripts/build.sh" "$build" >/dev/null
fi
targets=(fuel-compile fuel-run fuel-shim-openblas fuel-shim-blis)
# --source=onnx runs the importer; built wherever the build has it.
if ninja -C "$build" -t query fuel-import-onnx >/dev/null 2>&1; then
  targets+=(fuel-import-onnx)
fi
ninja -C "$build" -j "${FUEL_JOBS:-2}" "${targets[@]}" >/dev/null
ort_dir="$("$root/bench/ort/install.sh" "$build")"
exec /usr/bin/python3 "$root/bench/ort/bench_ort.py" --build "$build" \
  --ort-dir "$ort_dir" "$@"
