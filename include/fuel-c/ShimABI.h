//===- ShimABI.h - How libfuelrt loads library-kernel shims ----- -*- C -*-===//
//
// A shim turns a vendor library routine (OpenBLAS, BLIS, ...) into kernels
// of the kernel ABI (KernelABI.h): each entry is a fuel_kernel_fn that
// computes its block (row block, batch entry) from the workgroup id and calls
// the serial library once for it. A shim is a shared library in
// kernels/shims/, installed beside libfuelrt as libfuel-shim-<name>.so.
//
// Loading, by the runtime:
//   1. dlopen(path, RTLD_NOW | RTLD_LOCAL);
//   2. dlsym(FUEL_SHIM_INFO_SYMBOL) and call it; the runtime refuses a shim
//      whose abi_version or kernel_abi_version differs from its own;
//   3. call init once; it returns 0, or non-zero with a message in `error`;
//   4. resolve entries by name in the info's entry list.
//
// A shim never links its vendor library (no DT_NEEDED) and never uses
// RTLD_DEEPBIND: init opens the library with its own
// dlopen(RTLD_NOW | RTLD_LOCAL) handle and takes the few entry points it
// uses by dlsym on that handle, so two libraries that export the same symbol
// (cblas_sgemm) coexist in one process.
//
// Integer parameters of a library kernel (sizes, leading dimensions, block
// sizes) reach the entry as the dispatch's push constants, in the order the
// entry documents; buffers are the dispatch's bindings. C99, no LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_C_SHIMABI_H
#define FUEL_C_SHIMABI_H

#include "fuel-c/KernelABI.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bump on any change to the types or rules of this header. */
#define FUEL_SHIM_ABI_VERSION 1u

/* The symbol every shim exports, of type fuel_shim_info_fn. */
#define FUEL_SHIM_INFO_SYMBOL "fuel_shim_info"

/* One entry of a shim: a kernel of the kernel ABI. */
typedef struct {
  const char *name;        /* unique within the shim */
  fuel_kernel_fn fn;       /* valid once init has succeeded */
  uint32_t num_bindings;   /* bindings the entry reads and writes */
  uint32_t num_int_params; /* push constants the entry reads */
} fuel_shim_entry;

/* What a shim is. Static storage, valid while the shim is loaded. */
typedef struct {
  uint32_t abi_version;        /* FUEL_SHIM_ABI_VERSION */
  uint32_t kernel_abi_version; /* FUEL_KERNEL_ABI_VERSION */
  const char *library;         /* e.g. "openblas-serial", for messages */
  /* Opens the vendor library and resolves its entry points; 0 on success,
   * otherwise non-zero with a null-terminated message in error[0..size). */
  int (*init)(char *error, size_t error_size);
  uint32_t num_entries;
  const fuel_shim_entry *entries;
} fuel_shim_info_t;

typedef const fuel_shim_info_t *(*fuel_shim_info_fn)(void);

#ifdef __cplusplus
}
#endif

#endif /* FUEL_C_SHIMABI_H */
