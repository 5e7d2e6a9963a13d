//===- TestShim.c - A shim over libm for the shim-ABI tests ---------------===//
//
// A shim as kernels/shims/ will hold them, over libm instead of a BLAS: its
// init opens libm with its own dlopen(RTLD_NOW | RTLD_LOCAL) handle and
// takes cosf by dlsym (the shim does not link libm). Its entry is a
// workgroup function computing one block of out[i] = cosf(in[i]).
//
//===----------------------------------------------------------------------===//

#include "fuel-c/ShimABI.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#define EXPORT __attribute__((visibility("default")))

static float (*cosfPtr)(float);

// Integer params (push constants): n, block. Bindings: in, out (float).
static void vcos(const fuel_dispatch *d, void *workspace, uint32_t x,
                 uint32_t y, uint32_t z) {
  (void)workspace;
  (void)y;
  (void)z;
  const float *in = (const float *)d->bindings[0];
  float *out = (float *)d->bindings[1];
  uint32_t n = d->push_constants[0], block = d->push_constants[1];
  uint64_t begin = (uint64_t)x * block, end = begin + block;
  if (end > n)
    end = n;
  for (uint64_t i = begin; i < end; ++i)
    out[i] = cosfPtr(in[i]);
}

static int init(char *error, size_t size) {
  // FUEL_TEST_SHIM_LIBRARY lets a test name a library that does not exist.
  const char *lib = getenv("FUEL_TEST_SHIM_LIBRARY");
  if (!lib)
    lib = "libm.so.6";
  void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    snprintf(error, size, "cannot open %s", lib);
    return 1;
  }
  cosfPtr = (float (*)(float))dlsym(h, "cosf");
  if (!cosfPtr) {
    snprintf(error, size, "%s has no cosf", lib);
    return 1;
  }
  return 0;
}

static const fuel_shim_entry entries[] = {
    {"test_vcos", vcos, 2, 2},
};

static fuel_shim_info_t info = {
    FUEL_SHIM_ABI_VERSION, FUEL_KERNEL_ABI_VERSION, "libm", init, 1, entries};

EXPORT const fuel_shim_info_t *fuel_shim_info(void) {
  // FUEL_TEST_SHIM_ABI overrides the version, to test the refusal.
  const char *abi = getenv("FUEL_TEST_SHIM_ABI");
  info.abi_version = abi ? (uint32_t)atoi(abi) : FUEL_SHIM_ABI_VERSION;
  return &info;
}
