#!/usr/bin/env bash
# Installs what is missing, builds fuel and runs every test: the lit suites
# and every GoogleTest binary, through ctest.
# Usage: scripts/test.sh [build-dir]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"

"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" "$build"
cd "$build"
ctest --output-on-failure -j "${FUEL_JOBS:-2}"
