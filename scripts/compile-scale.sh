#!/usr/bin/env bash
# Compile time and distinct kernels at scale (docs/PERFORMANCE.md): compiles
# the three examples and the 10k-op programs of bench/planning-scale
# (transformer- and convnet-shaped) with fuel-compile for a host-only
# machine, and prints per program the wall time and, from
# fuel-run --dump, the distinct kernels (generated, per module, and library)
# against the commands that dispatch them.
# Usage: scripts/compile-scale.sh [ops]   (default 10000)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FUEL_BUILD_DIR:-$root/build}"
ops="${1:-10000}"
topology="$root/test/topologies/cpu-only.json"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for shape in transformer convnet; do
  /usr/bin/python3 "$root/bench/planning-scale/gen_model.py" --shape "$shape" \
    --ops "$ops" -o "$work/$shape-$ops.mlir" 2>/dev/null
done

printf '%-22s %10s %9s %9s %10s\n' program wall_s generated library dispatches
for program in "$root"/examples/{mlp,convnet,transformer}.mlir \
  "$work/transformer-$ops.mlir" "$work/convnet-$ops.mlir"; do
  name="$(basename "$program" .mlir)"
  exe="$work/$name.fuelx"
  start=$(date +%s%N)
  "$build/bin/fuel-compile" "$program" \
    --topology="$topology" -o "$exe" 2>"$work/err" || {
    echo "$name: fuel-compile failed:" >&2
    tail -5 "$work/err" >&2
    continue
  }
  end=$(date +%s%N)
  "$build/bin/fuel-run" "$exe" --dump >"$work/dump"
  generated=$(awk '/^modules /{m=1; next} /^[a-z]/{m=0} m && / kernels$/{n += $(NF-1)} END{print n+0}' "$work/dump")
  library=$(awk '/^library_kernels /{print $2}' "$work/dump")
  dispatches=$(grep -c ' dispatch ' "$work/dump" || true)
  printf '%-22s %10.2f %9d %9d %10d\n' "$name" \
    "$(awk -v ns=$((end - start)) 'BEGIN{print ns / 1e9}')" \
    "$generated" "$library" "$dispatches"
done
