//===- KernelABI.h - The kernel ABI of compiler and runtime ----- -*- C -*-===//
//
// One kernel ABI for every CPU kernel fuel runs, generated or a library shim:
// a workgroup function over a 3-D grid. The compiler emits functions of this
// type and libfuelrt calls them. C99, no LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_C_KERNELABI_H
#define FUEL_C_KERNELABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The ABI's version. An executable records the version its kernels were
 * compiled for; the runtime refuses a module built for another one. Bump it
 * on any change to the types or rules below. */
#define FUEL_KERNEL_ABI_VERSION 1u

/* What a kernel sees of one dispatch, the same for every workgroup of it.
 * - bindings: one base pointer per binding, in the order the executable's
 *   dispatch lists them (already offset into their buffers); shapes are
 *   static, so bare pointers suffice.
 * - push_constants: the dispatch's 32-bit immediate values (may be null when
 *   there are none).
 * - grid: the workgroup count in x, y, z, fixed at compile time from tile
 *   sizes, never from the core count. */
typedef struct {
  void *const *bindings;
  const uint32_t *push_constants;
  uint32_t grid[3];
} fuel_dispatch;

/* One workgroup (x, y, z) of a dispatch, 0 <= x < grid[0] and so on.
 * - workspace: scratch private to the calling worker thread, at least the
 *   largest workspace any kernel of the executable declares, allocated once
 *   per session and 64-byte aligned; its contents are undefined on entry.
 * - A kernel may use at most 256 KiB of stack (workers have stacks of at
 *   least 8 MiB).
 * - No workgroup reads another's partial results: the workgroups of a
 *   dispatch may run in any order and on any thread, and outputs are
 *   bit-identical for every thread-pool size. */
typedef void (*fuel_kernel_fn)(const fuel_dispatch *dispatch, void *workspace,
                               uint32_t x, uint32_t y, uint32_t z);

/* Limits the runtime guarantees and kernels respect. */
#define FUEL_KERNEL_MAX_STACK_BYTES (256u * 1024u)
#define FUEL_WORKER_MIN_STACK_BYTES (8u * 1024u * 1024u)
#define FUEL_WORKSPACE_ALIGNMENT 64u

#ifdef __cplusplus
}
#endif

#endif /* FUEL_C_KERNELABI_H */
