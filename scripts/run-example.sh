#!/usr/bin/env bash
# Installs what is missing, builds fuel and runs the main job on the example
# program: fuel-plan plans a two-layer perceptron for a CPU + GPU machine and
# explains each node's winner.
# Usage: scripts/run-example.sh [example.mlir [topology.json]]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FUEL_BUILD_DIR:-$root/build}"
example="${1:-$root/examples/mlp.mlir}"
topology="${2:-$root/test/topologies/cpu-cuda.json}"

"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" "$build" >/dev/null
"$build/bin/fuel-opt" "$example" -mlir-print-op-on-diagnostic=false \
  --fuel-plan="topology=$topology explain=true"
