#!/usr/bin/env bash
# The CPU benchmarks of docs/PERFORMANCE.md, one after another, from a fresh
# clone: installs what is missing (scripts/install-deps.sh), builds, and runs
#   matmul     fuel-bench-cpu-kernels: generated matmul and batch_matmul
#              against OpenBLAS and BLIS, one thread and every core
#   conv       fuel-bench-cpu-conv: generated conv2d against im2col + OpenBLAS
#   memory     fuel-bench-cpu-memory: memory-bound kernels against a C
#              stream add
#   compile    bench/compile-scale/run.py: fuel-compile against fuel-plan at 10k ops, and
#              10k -> 100k
#   ort        bench/ort/run.sh: the three examples against ONNX Runtime
#   predicted  scripts/report-predicted.py: Layer 1 against measured time
#   runtime    scripts/bench-run-overhead.py: the whole-run overhead of
#              chains of tiny commands, calling thread against queue threads
#   small      bench/ort/small_models.py: two ~30-node models against ONNX
#              Runtime, fresh processes interleaved
# Each benchmark prints ratios against a baseline run beside it; its output
# is also written to $FUEL_BENCH_OUT/<name>.txt (default: <build>/bench-out).
# Usage: scripts/bench-cpu.sh [name...]   (default: all, in the order above)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FUEL_BUILD_DIR:-$root/build}"
out="${FUEL_BENCH_OUT:-$build/bench-out}"
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(matmul conv memory compile ort predicted runtime small)
for name in "${names[@]}"; do
  case "$name" in
  matmul | conv | memory | compile | ort | predicted | runtime | small) ;;
  *) echo "bench-cpu: unknown benchmark '$name' (matmul conv memory compile ort predicted runtime small)" >&2
     exit 2 ;;
  esac
done

"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" "$build" >/dev/null
mkdir -p "$out"
export FUEL_BUILD_DIR="$build"

run() {
  local name="$1"
  shift
  echo "== $name: $*"
  "$@" 2>&1 | tee "$out/$name.txt"
}

for name in "${names[@]}"; do
  case "$name" in
  matmul) run matmul "$build/bin/fuel-bench-cpu-kernels" --threads=both ;;
  conv) run conv "$build/bin/fuel-bench-cpu-conv" --threads=both ;;
  memory) run memory "$build/bin/fuel-bench-cpu-memory" ;;
  compile) run compile /usr/bin/python3 "$root/bench/compile-scale/run.py" ;;
  ort) run ort "$root/bench/ort/run.sh" ;;
  predicted) run predicted "$root/scripts/report-predicted.py" ;;
  runtime) run runtime /usr/bin/python3 "$root/scripts/bench-run-overhead.py" \
    --bench "$build/bin/fuel-bench-run-overhead" ;;
  small) run small /usr/bin/python3 "$root/bench/ort/small_models.py" \
    --build "$build" --ort-dir "$("$root/bench/ort/install.sh" "$build")" ;;
  esac
done
echo "bench-cpu: results in $out"
