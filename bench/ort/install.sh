#!/usr/bin/env bash
# Installs the npm package onnxruntime-node@1.30.0 into <build-dir>/ort-node
# (never into the source tree) unless it is there already, and prints that
# directory. `--ignore-scripts`: the package's postinstall step would fetch a
# CUDA execution provider from outside the npm registry and fail; the CPU
# library for linux-x64 ships inside the package itself. Needs node and npm
# and the npm registry (about 290 MB on disk, seconds to install).
# Usage: bench/ort/install.sh [build-dir]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="$(mkdir -p "${1:-$root/build}" && cd "${1:-$root/build}" && pwd)"
version=1.30.0
dir="$build/ort-node"
marker="$dir/node_modules/onnxruntime-node/package.json"

installed_version() {
  node -e "process.stdout.write(require(process.argv[1]).version)" "$marker" \
    2>/dev/null || true
}

if [ -f "$marker" ] && [ "$(installed_version)" = "$version" ]; then
  echo "$dir"
  exit 0
fi
for tool in node npm; do
  if ! command -v "$tool" >/dev/null; then
    echo "install.sh: $tool is missing (Debian: nodejs, npm)" >&2
    exit 1
  fi
done
mkdir -p "$dir"
if [ ! -f "$dir/package.json" ]; then
  printf '{\n  "name": "fuel-bench-ort",\n  "private": true\n}\n' \
    >"$dir/package.json"
fi
echo "install.sh: npm install --ignore-scripts onnxruntime-node@$version" \
  "into $dir" >&2
(cd "$dir" && npm install --ignore-scripts --no-audit --no-fund \
  --loglevel=error "onnxruntime-node@$version" >&2)
if [ "$(installed_version)" != "$version" ]; then
  echo "install.sh: onnxruntime-node@$version did not install into $dir" >&2
  exit 1
fi
echo "$dir"
