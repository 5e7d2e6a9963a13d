#!/usr/bin/env bash
# Installs what is missing, builds fuel and runs the main job on the example
# program: fuel-opt parses, verifies and prints a planned layer.
# Usage: scripts/run-example.sh [example.mlir]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FUEL_BUILD_DIR:-$root/build}"
example="${1:-$root/examples/layer.mlir}"

"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" "$build" >/dev/null
"$build/bin/fuel-opt" "$example"
