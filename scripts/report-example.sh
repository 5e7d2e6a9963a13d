#!/usr/bin/env bash
# Compiles an example for this machine and runs it on random inputs with
# fuel-run --report: per command (dispatch or copy) the plan node, kernel,
# predicted and measured median time, then the totals, so the cost model's
# error is visible (the figures of docs/PERFORMANCE.md). Also prints the
# compile time and the number of distinct kernels (fuel-run --dump).
# Usage: scripts/report-example.sh [example.mlir [topology [repeat]]]
# Default: examples/mlp.mlir, `probe` (this machine's figures, so the
# predictions are for the machine that measures), 20 runs. $FUEL_PLAN holds
# fuel-plan options (default `allow-cost-placement=false`: every node stays
# on the host, whatever GPU the probe finds).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FUEL_BUILD_DIR:-$root/build}"
example="${1:-$root/examples/mlp.mlir}"
topology="${2:-probe}"
plan="${FUEL_PLAN-allow-cost-placement=false}"
repeat="${3:-20}"

for tool in fuel-compile fuel-run; do
  if [ ! -x "$build/bin/$tool" ]; then
    echo "report-example: $build/bin/$tool is missing; run scripts/build.sh" >&2
    exit 1
  fi
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
exe="$work/$(basename "$example" .mlir).fuelx"

args=("$example" -o "$exe")
if [ -n "$topology" ]; then
  args+=("--topology=$topology")
fi
if [ -n "$plan" ]; then
  args+=("--plan=$plan")
fi
start=$(date +%s%N)
"$build/bin/fuel-compile" "${args[@]}"
end=$(date +%s%N)

echo "== $(basename "$example"): compiled in $(((end - start) / 1000000)) ms"
# Distinct kernels: each module's kernel count and the library kernels.
"$build/bin/fuel-run" "$exe" --dump | grep -E '^(  \[[0-9]+\] .* kernels$|library_kernels |commands )'
echo "== fuel-run --report (median of $repeat runs, random inputs, seed 1)"
"$build/bin/fuel-run" "$exe" --input=random:1 --repeat="$repeat" --report |
  sed -n '/^report:/,$p'
