#!/usr/bin/env bash
# Installs what is missing, builds fuel and runs the main job on the example
# program: fuel-compile plans the three-layer perceptron for this machine and
# lowers it to an executable, and fuel-run runs it on random inputs with
# --report, each command's predicted time beside its measured one.
# Usage: scripts/run-example.sh [example.mlir [topology.json|probe [repeat]]]
# (default: examples/mlp.mlir, probed, 20 runs; scripts/report-example.sh).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FUEL_BUILD_DIR:-$root/build}"

"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" "$build" >/dev/null
FUEL_BUILD_DIR="$build" "$root/scripts/report-example.sh" "$@"
