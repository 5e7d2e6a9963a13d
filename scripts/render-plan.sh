#!/usr/bin/env bash
# Plans an example program, draws the plan with fuel-export-dot and renders
# it to SVG with Graphviz (docs/PLAN-FORMAT.md). Installs Graphviz when `dot`
# is missing (Debian; needs root) and builds fuel-opt when it is missing.
# Usage: scripts/render-plan.sh [example.mlir [topology.json [output.svg]]]
# Default: examples/mlp.mlir on test/topologies/cpu-cuda.json, written to
# docs/images/mlp-plan.svg.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FUEL_BUILD_DIR:-$root/build}"
example="${1:-$root/examples/mlp.mlir}"
topology="${2:-$root/test/topologies/cpu-cuda.json}"
output="${3:-$root/docs/images/mlp-plan.svg}"

if ! command -v dot >/dev/null 2>&1; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "render-plan: Graphviz (dot) is missing; run as root to install it" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  if ! apt-get install -y --no-install-recommends graphviz >/dev/null; then
    apt-get update >/dev/null
    apt-get install -y --no-install-recommends graphviz >/dev/null
  fi
fi

if [ ! -x "$build/bin/fuel-opt" ]; then
  "$root/scripts/build.sh" "$build" >/dev/null
fi

dotfile="$(mktemp)"
trap 'rm -f "$dotfile"' EXIT
"$build/bin/fuel-opt" "$example" -mlir-print-op-on-diagnostic=false \
  --fuel-plan="topology=$topology" --fuel-place \
  --fuel-insert-residency-copies --fuel-export-dot="file=$dotfile" \
  -o /dev/null
mkdir -p "$(dirname "$output")"
dot -Tsvg "$dotfile" -o "$output"
echo "render-plan: wrote $output"
