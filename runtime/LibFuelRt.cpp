//===- LibFuelRt.cpp - The entry points of libfuelrt.so itself ------------===//
//
// libfuelrt.so is the runtime libraries linked whole; this file adds what
// belongs to the shared library as such: the ABI versions it was built
// with, so an embedder can check them after dlopen.
//
//===----------------------------------------------------------------------===//

#include "fuel-c/KernelABI.h"
#include "fuel-c/ShimABI.h"

extern "C" {

/// The kernel ABI version (FUEL_KERNEL_ABI_VERSION) the runtime runs.
__attribute__((visibility("default"))) uint32_t fuelRtKernelAbiVersion(void) {
  return FUEL_KERNEL_ABI_VERSION;
}

/// The shim ABI version (FUEL_SHIM_ABI_VERSION) the runtime loads.
__attribute__((visibility("default"))) uint32_t fuelRtShimAbiVersion(void) {
  return FUEL_SHIM_ABI_VERSION;
}

} // extern "C"
