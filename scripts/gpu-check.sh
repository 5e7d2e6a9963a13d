#!/usr/bin/env bash
# The GPU check (docs/GPU-CHECK.md), in two steps.
#
# Here, where fuel is built:
#   scripts/gpu-check.sh --prepare DIR [--build BUILD]
# writes DIR (at most 64 MiB; scripts/gpu-check-prepare.py): the programs
# compiled for cpu + cuda:0 with their inputs and numpy references, the
# runtime's sources, the FlatBuffers and Vulkan C headers, the schema header,
# and this script.
#
# There, on a machine with an NVIDIA GPU, CMake and a C++ compiler (no
# LLVM/MLIR, no network, no Python needed):
#   DIR/gpu-check.sh [--quick] RESULTS
# builds libfuelrt, fuel-run, fuel-probe and the copy benchmark with
# FUEL_BUILD_COMPILER=OFF (-j16; the CUDA conformance suite too where
# GoogleTest and spirv-as are installed), runs every program on the GPU
# against its reference (fuel-run --expected-output), then, without --quick,
# the benchmarks: generated matmul against cuBLAS, per-launch overhead, copy
# bandwidth and latency (fitLink), the examples on cpu + cuda:0 against cpu
# only with predicted beside measured. Writes RESULTS/gpu-check.log and
# RESULTS/summary.json and prints one table. Exits 1 when a program fails.
# Environment: FUEL_GPU_CHECK_BUILD (the build folder), FUEL_GPU_CHECK_JOBS
# (default 16), FUEL_GPU_CHECK_CONFORMANCE=0 (skip the conformance suite),
# FUEL_RUN_EXTRA (arguments added to every fuel-run, e.g. --cuda-library=
# for a dry run through the driver's test double).
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

if [ "${1:-}" = "--prepare" ]; then
  shift
  [ $# -ge 1 ] || { echo "usage: $0 --prepare DIR [--build BUILD]" >&2; exit 2; }
  out="$1"; shift
  build="$here/../build"
  if [ "${1:-}" = "--build" ] && [ $# -ge 2 ]; then build="$2"; fi
  exec /usr/bin/python3 "$here/gpu-check-prepare.py" --build "$build" --out "$out"
fi

quick=0
results=""
for a in "$@"; do
  case "$a" in
    --quick) quick=1 ;;
    -*) echo "gpu-check: unknown option '$a'" >&2; exit 2 ;;
    *) results="$a" ;;
  esac
done
if [ -z "$results" ]; then
  echo "usage: $0 [--quick] RESULTS_DIR   (in a folder made by --prepare)" >&2
  exit 2
fi
if [ ! -f "$here/programs.tsv" ]; then
  echo "gpu-check: $here has no programs.tsv: run scripts/gpu-check.sh --prepare DIR first" >&2
  exit 2
fi
mkdir -p "$results"
results="$(cd "$results" && pwd)"
log="$results/gpu-check.log"
: > "$log"
say() { echo "$*" | tee -a "$log"; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
t0=$(now_ms)

# 1. The runtime, compiler off.
build="${FUEL_GPU_CHECK_BUILD:-${TMPDIR:-/tmp}/fuel-gpu-check-build}"
jobs="${FUEL_GPU_CHECK_JOBS:-16}"
read -r -a extra <<< "${FUEL_RUN_EXTRA:-}"
gtest=-DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON
if [ "${FUEL_GPU_CHECK_CONFORMANCE:-1}" != 0 ] && command -v spirv-as >/dev/null 2>&1; then
  gtest=
fi
generator=()
command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
say "== build: $build"
if ! cmake "${generator[@]}" -S "$here/src" -B "$build" --no-warn-unused-cli \
    -DCMAKE_BUILD_TYPE=Release -DFUEL_BUILD_COMPILER=OFF \
    -DCMAKE_DISABLE_FIND_PACKAGE_MLIR=ON -DCMAKE_DISABLE_FIND_PACKAGE_LLVM=ON \
    -DFUEL_FLATBUFFERS_GENERATED_DIR="$here/third_party/generated" \
    -DFUEL_FLATBUFFERS_INCLUDE_DIR="$here/third_party/include" \
    -DFUEL_VULKAN_INCLUDE_DIR="$here/third_party/include" \
    $gtest >>"$log" 2>&1; then
  say "gpu-check: cmake failed (see $log)"; exit 1
fi
targets=(fuel-run fuel-probe fuel-bench-copy-links)
if ! cmake --build "$build" -j"$jobs" --target "${targets[@]}" >>"$log" 2>&1; then
  say "gpu-check: the runtime build failed (see $log)"; exit 1
fi
conformance="not built (no GoogleTest or spirv-as)"
if [ -z "$gtest" ] && cmake --build "$build" -j"$jobs" --target FuelRtDeviceTests >>"$log" 2>&1; then
  conformance=built
fi
t_build=$(( $(now_ms) - t0 ))
bin="$build/bin"
run_tool="$bin/fuel-run"
say "runtime built in $(( t_build / 1000 )) s"
"$bin/fuel-probe" >>"$log" 2>&1
gpu="$(grep -m1 'cuda:0' "$log" || true)"
say "device: ${gpu:-no cuda:0 found by fuel-probe}"

# 2. Correctness: every program against its reference.
json_programs=""
pass=0; fail=0
declare -a rows=()
while IFS=$'\t' read -r name kind tol nin nout data; do
  [ -z "$name" ] || [ "${name:0:1}" = "#" ] && continue
  [ "$kind" = bench-matmul ] && continue
  args=("$here/programs/$name.fuelx" "${extra[@]}")
  for ((i = 0; i < nin; ++i)); do args+=("--input=@$here/programs/$data.in$i.npy"); done
  for ((j = 0; j < nout; ++j)); do args+=("--expected-output=@$here/programs/$data.ref$j.npy"); done
  args+=("--tolerance=$tol")
  s=$(now_ms)
  if timeout 120 "$run_tool" "${args[@]}" >>"$log" 2>&1; then
    status=pass; pass=$((pass + 1))
  else
    status=FAIL; fail=$((fail + 1))
    echo "FAIL: $name" >>"$log"
  fi
  ms=$(( $(now_ms) - s ))
  rows+=("$(printf '%-34s %-12s %-5s %7d ms' "$name" "$kind" "$status" "$ms")")
  json_programs+="${json_programs:+,}{\"name\":\"$name\",\"kind\":\"$kind\",\"status\":\"$status\",\"ms\":$ms}"
done < "$here/programs.tsv"
not_compiled=$(grep -c . "$here/not-compiled.txt" 2>/dev/null || true)

conf_json="\"$conformance\""
if [ "$conformance" = built ]; then
  if timeout 120 "$build/unittests/FuelRtDeviceTests" --gtest_filter='Cuda*' >>"$log" 2>&1; then
    conformance="passed"
  else
    conformance="FAILED"; fail=$((fail + 1))
  fi
  conf_json="\"$conformance\""
fi

# 3. Benchmarks.
bench_json=""
declare -a brows=()
report_field() { # FILE KEY: "total: predicted P ns, measured M ns" / "run: median R ns"
  case "$2" in
    predicted) sed -n 's/^total: predicted \([0-9]*\) ns.*/\1/p' "$1" | tail -1 ;;
    median) sed -n 's/^run: median \([0-9]*\) ns.*/\1/p' "$1" | tail -1 ;;
  esac
}
timed() { # NAME ARGS...: median ns of 20 runs after 3 warm-ups, to $results/NAME.report
  local name="$1"; shift
  timeout 120 "$run_tool" "$@" "${extra[@]}" --warmup=3 --repeat=20 --report >"$results/$name.report" 2>>"$log" || return 1
}
if [ "$quick" = 0 ]; then
  say "== benchmarks"
  for f in "$here"/programs/bench-matmul-generated-*.fuelx "$here"/programs/bench-matmul-cublas-*.fuelx; do
    [ -f "$f" ] || continue
    name="$(basename "$f" .fuelx)"
    if timed "$name" "$f" --input=random:1; then
      med=$(report_field "$results/$name.report" median)
      pred=$(report_field "$results/$name.report" predicted)
      n="${name##*-}"
      gflops=$(awk -v n="$n" -v t="$med" 'BEGIN { if (t > 0) printf "%.1f", 2 * n * n * n / t; else print 0 }')
      brows+=("$(printf '%-34s median %10s ns  predicted %10s ns  %8s GFLOP/s' "$name" "$med" "$pred" "$gflops")")
      bench_json+="${bench_json:+,}{\"name\":\"$name\",\"median_ns\":${med:-0},\"predicted_ns\":${pred:-0},\"gflops\":$gflops}"
    fi
  done
  if [ -f "$here/programs/rt-mixed-cuda-tiny.fuelx" ] && timed launch "$here/programs/rt-mixed-cuda-tiny.fuelx" --input=random:1; then
    launch=$(awk '$3 == "dispatch" { print $10 }' "$results/launch.report" | tail -1)
    brows+=("$(printf '%-34s measured %10s ns (a 64-element vadd, one launch)' per-launch "$launch")")
    bench_json+="${bench_json:+,}{\"name\":\"per-launch\",\"measured_ns\":${launch:-0}}"
  fi
  "$bin/fuel-bench-copy-links" --device=cuda:0 >"$results/copy-links.txt" 2>>"$log"
  while read -r pair; do
    fit=$(awk -v p="$pair" '$0 == p { f = 1; next } f && /^  fit: / { print; exit }' "$results/copy-links.txt")
    lat=$(echo "$fit" | sed -n 's/.*latency \([0-9]*\) ns,.*/\1/p')
    bw=$(echo "$fit" | sed -n 's/.*bandwidth \([0-9.]*\) GB\/s.*/\1/p')
    brows+=("$(printf '%-34s latency %8s ns  bandwidth %8s GB/s' "copy $pair" "${lat:-?}" "${bw:-?}")")
    bench_json+="${bench_json:+,}{\"name\":\"copy $pair\",\"latency_ns\":${lat:-0},\"gb_per_s\":${bw:-0}}"
  done < <(grep -E '^(cpu->cuda:0|cuda:0->cpu|cuda:0->cuda:0)$' "$results/copy-links.txt")
  # The middle step of measuring (docs/FUEL-JUDGE.md): the examples' jobs
  # for cuda:0, measured here; the results go back for fuel-judge --ingest.
  for manifest in "$here"/judge-jobs/*/manifest.json; do
    [ -f "$manifest" ] || continue
    example="$(basename "$(dirname "$manifest")")"
    out="$results/judge-$example.json"
    if timeout 300 "$run_tool" --measure="$manifest" --json="$out" --device=cuda:0 --budget=120 "${extra[@]}" 2>>"$log"; then
      measured=$(grep -o '"state": "measured"' "$out" | wc -l)
      brows+=("$(printf '%-34s %4s cuda:0 jobs measured, results %s' "judge $example" "$measured" "$(basename "$out")")")
      bench_json+="${bench_json:+,}{\"name\":\"judge $example\",\"measured\":$measured}"
    else
      brows+=("$(printf '%-34s FAILED (see the log)' "judge $example")")
    fi
  done
  for example in mlp convnet transformer; do
    placed="$here/programs/placed-$example.fuelx"; cpuonly="$here/programs/cpuonly-$example.fuelx"
    [ -f "$placed" ] && [ -f "$cpuonly" ] || continue
    timed "placed-$example" "$placed" --input=random:1 && timed "cpuonly-$example" "$cpuonly" --input=random:1 || continue
    mp=$(report_field "$results/placed-$example.report" median); mc=$(report_field "$results/cpuonly-$example.report" median)
    pp=$(report_field "$results/placed-$example.report" predicted); pc=$(report_field "$results/cpuonly-$example.report" predicted)
    ratio=$(awk -v a="$mp" -v b="$mc" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print 0 }')
    pratio=$(awk -v a="$pp" -v b="$pc" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print 0 }')
    brows+=("$(printf '%-34s cpu+cuda %9s ns  cpu %9s ns  measured %5s  predicted %5s' "example $example" "$mp" "$mc" "$ratio" "$pratio")")
    bench_json+="${bench_json:+,}{\"name\":\"example $example\",\"placed_ns\":${mp:-0},\"cpu_only_ns\":${mc:-0},\"measured_ratio\":$ratio,\"predicted_ratio\":$pratio}"
  done
fi

total=$(( $(now_ms) - t0 ))
cat > "$results/summary.json" <<EOF
{"quick": $([ "$quick" = 1 ] && echo true || echo false), "device": "$(echo "$gpu" | sed 's/"/\\"/g')",
 "build_ms": $t_build, "total_ms": $total, "passed": $pass, "failed": $fail,
 "not_compiled_for_cuda": ${not_compiled:-0}, "conformance": $conf_json,
 "programs": [$json_programs],
 "benchmarks": [$bench_json]}
EOF
{
  echo
  echo "fuel GPU check: ${gpu:-no cuda:0}"
  printf '%-34s %-12s %-5s %10s\n' program kind status time
  for r in "${rows[@]}"; do echo "$r"; done
  for r in "${brows[@]}"; do echo "$r"; done
  echo "passed $pass, failed $fail, not compiled for cuda $not_compiled; conformance: $conformance"
  echo "runtime build $(( t_build / 1000 )) s, total $(( total / 1000 )) s; log $log, summary $results/summary.json"
} | tee -a "$log"
[ "$fail" = 0 ]
