//===- BenchKernels.c - The trivial kernel of the overhead benchmark ------===//
//
// One kernel that does almost nothing (it counts its workgroups), so a
// chain of its dispatches measures the runtime's overhead alone.
//
//===----------------------------------------------------------------------===//

#include "fuel-c/KernelABI.h"

__attribute__((visibility("default"))) void
fuel_bench_trivial(const fuel_dispatch *d, void *workspace, uint32_t x,
                   uint32_t y, uint32_t z) {
  (void)workspace;
  (void)y;
  (void)z;
  ((volatile uint32_t *)d->bindings[0])[x * 16] += 1;
}
