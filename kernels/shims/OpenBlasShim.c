//===- OpenBlasShim.c - Library kernels over OpenBLAS ---------------------===//
//
// libfuel-shim-openblas.so: fuel_shim_openblas_sgemm and
// fuel_shim_openblas_sgemm_batched (docs/SHIMS.md) over cblas_sgemm of the
// serial OpenBLAS, opened by init with its own dlopen handle (the shim does
// not link OpenBLAS). The runtime's thread pool runs the workgroups; OpenBLAS
// is asked for one thread so that it never starts its own.
//
//===----------------------------------------------------------------------===//

#include "SgemmShim.h"

#include <pthread.h>

/* CBLAS enumerators (cblas.h), declared here so that the shim builds
 * without the -dev package. */
enum { FUEL_CBLAS_ROW_MAJOR = 101 };
enum { FUEL_CBLAS_NO_TRANS = 111, FUEL_CBLAS_TRANS = 112 };

/* The OpenBLAS entry points the shim uses: REQUIRED(name, result, params)
 * fail init when missing, OPTIONAL ones are called when present. blasint is
 * int in the LP64 build Debian ships as libopenblas.so.0. */
#define FUEL_OPENBLAS_SYMBOLS(REQUIRED, OPTIONAL)                              \
  REQUIRED(cblas_sgemm, void,                                                  \
           (int, int, int, int, int, int, float, const float *, int,           \
            const float *, int, float, float *, int))                          \
  OPTIONAL(openblas_set_num_threads, void, (int))

#define FUEL_DECLARE(name, result, params) static result(*name##_fn) params;
FUEL_OPENBLAS_SYMBOLS(FUEL_DECLARE, FUEL_DECLARE)
#undef FUEL_DECLARE

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static void *library;

/* Where the library is looked for when FUEL_OPENBLAS_LIBRARY is not set:
 * Debian's serial build first, then whatever the soname resolves to (the
 * alternatives link may name a pthread build; it is told to use one
 * thread). */
static const char *const candidates[] = {
    FUEL_SHIM_LIBDIR "/openblas-serial/libopenblas.so.0",
    "libopenblas.so.0",
};

/* Serial OpenBLAS (a SINGLE_THREADED build) hands out its packing buffers
 * without locks, so two workgroups calling it at once can share one and
 * compute wrong rows (seen as results that differ between runs on two
 * threads). Calls are therefore made one at a time; BLIS needs no lock. */
static pthread_mutex_t call_lock = PTHREAD_MUTEX_INITIALIZER;

static void gemm(int trans_a, int trans_b, uint32_t m, uint32_t n, uint32_t k,
                 const float *a, uint32_t lda, const float *b, uint32_t ldb,
                 float *c, uint32_t ldc) {
  pthread_mutex_lock(&call_lock);
  cblas_sgemm_fn(
      FUEL_CBLAS_ROW_MAJOR, trans_a ? FUEL_CBLAS_TRANS : FUEL_CBLAS_NO_TRANS,
      trans_b ? FUEL_CBLAS_TRANS : FUEL_CBLAS_NO_TRANS, (int)m, (int)n, (int)k,
      1.0f, a, (int)lda, b, (int)ldb, 0.0f, c, (int)ldc);
  pthread_mutex_unlock(&call_lock);
}

static void sgemm(const fuel_dispatch *d, void *workspace, uint32_t x,
                  uint32_t y, uint32_t z) {
  (void)workspace;
  fuel_sgemm_rows(gemm, d, x, y, z);
}

static void sgemm_batched(const fuel_dispatch *d, void *workspace, uint32_t x,
                          uint32_t y, uint32_t z) {
  (void)workspace;
  fuel_sgemm_batch_entry(gemm, d, x, y, z);
}

/* Under lock: opens OpenBLAS and takes its entry points. */
static int open_library(char *error, size_t size) {
  const char *path = NULL;
  void *h = fuel_shim_open_library(
      "OpenBLAS", "FUEL_OPENBLAS_LIBRARY", candidates,
      sizeof candidates / sizeof candidates[0], &path, error, size);
  if (!h)
    return 1;
#define FUEL_REQUIRED(name, result, params)                                    \
  if (!fuel_shim_take(h, path, #name, (void **)&name##_fn, error, size)) {     \
    dlclose(h);                                                                \
    return 1;                                                                  \
  }
#define FUEL_OPTIONAL(name, result, params)                                    \
  name##_fn = (result(*) params)dlsym(h, #name);
  FUEL_OPENBLAS_SYMBOLS(FUEL_REQUIRED, FUEL_OPTIONAL)
#undef FUEL_REQUIRED
#undef FUEL_OPTIONAL
  if (openblas_set_num_threads_fn)
    openblas_set_num_threads_fn(1);
  library = h;
  return 0;
}

FUEL_SGEMM_SHIM_DEFINE(openblas, "openblas-serial")
