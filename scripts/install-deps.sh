#!/usr/bin/env bash
# Installs every package fuel needs to build and test on Debian 12 (bookworm).
# Idempotent: when every package is already present it returns in well under a
# second without touching the network. Must run as root; never prompts.
set -euo pipefail

PACKAGES=(
  clang-22 lld-22 llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
  clang-format-22 cmake ninja-build python3 python3-numpy python3-onnx
  # Every build tree compiles through it (cmake/FuelCcache.cmake).
  ccache
  libgtest-dev libgmock-dev libbenchmark-dev
  libvulkan1 libvulkan-dev mesa-vulkan-drivers spirv-tools vulkan-tools
  flatbuffers-compiler libflatbuffers-dev libclang-rt-22-dev g++-12
  libopenblas0-serial libblis4-serial
  # Only for fuel-bench-cpu-kernels' all-core baselines; the shims and numpy
  # keep the serial flavours (the alternatives are set back below).
  libopenblas0-pthread libblis4-pthread
  liblld-22-dev zlib1g-dev libzstd-dev
  # The profile database (lib/Judge).
  libsqlite3-dev
  # The ONNX importer (lib/Import/Onnx) and its tests' node-test data.
  libonnx-dev libprotobuf-dev libonnx-testdata
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ "${#missing[@]}" -eq 0 ]; then
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: missing packages (${missing[*]}); run as root" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
echo "install-deps: installing ${missing[*]}"
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"

# Installing a pthread flavour makes it the system's default libblas.so.3,
# liblapack.so.3, libopenblas.so.0 and libblis.so.4 (higher alternatives
# priority). Keep the serial ones: the shims' fallback names and numpy's BLAS
# must not start threads of their own.
multiarch="$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)"
for alt in libblas.so.3:openblas-serial liblapack.so.3:openblas-serial \
           libopenblas.so.0:openblas-serial libblis.so.4:blis-serial; do
  name="${alt%%:*}" dir="${alt##*:}"
  path="/usr/lib/$multiarch/$dir/$name"
  if [ -e "$path" ]; then
    update-alternatives --set "$name-$multiarch" "$path" >/dev/null
  fi
done
