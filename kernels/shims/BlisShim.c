//===- BlisShim.c - Library kernels over BLIS -----------------------------===//
//
// libfuel-shim-blis.so: fuel_shim_blis_sgemm and fuel_shim_blis_sgemm_batched
// (docs/SHIMS.md) over the typed API's bli_sgemm of the serial BLIS, opened
// by init with its own dlopen handle (the shim does not link BLIS). bli_sgemm
// takes a row and a column stride per matrix, so row-major storage and the
// transposes are strides: op(A) of a row-major A is (rs, cs) = (lda, 1), of a
// transposed one (1, lda). The runtime's thread pool runs the workgroups;
// BLIS is asked for one thread.
//
//===----------------------------------------------------------------------===//

#include "SgemmShim.h"

#include <pthread.h>

/* BLIS types (blis.h), declared here so that the shim builds without the
 * -dev package. dim_t and inc_t are gint_t, 64-bit in Debian's build; init
 * checks bli_info_get_int_type_size_str() and refuses another size. */
typedef int64_t fuel_blis_int;
enum { FUEL_BLIS_NO_TRANSPOSE = 0 };

/* The BLIS entry points the shim uses: REQUIRED(name, result, params) fail
 * init when missing, OPTIONAL ones are called when present. */
#define FUEL_BLIS_SYMBOLS(REQUIRED, OPTIONAL)                                  \
  REQUIRED(bli_info_get_int_type_size_str, const char *, (void))               \
  REQUIRED(bli_sgemm, void,                                                    \
           (int, int, fuel_blis_int, fuel_blis_int, fuel_blis_int,             \
            const float *, const float *, fuel_blis_int, fuel_blis_int,        \
            const float *, fuel_blis_int, fuel_blis_int, const float *,        \
            float *, fuel_blis_int, fuel_blis_int))                            \
  OPTIONAL(bli_thread_set_num_threads, void, (fuel_blis_int))

#define FUEL_DECLARE(name, result, params) static result(*name##_fn) params;
FUEL_BLIS_SYMBOLS(FUEL_DECLARE, FUEL_DECLARE)
#undef FUEL_DECLARE

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static void *library;

/* Where the library is looked for when FUEL_BLIS_LIBRARY is not set:
 * Debian's serial build first, then whatever the soname resolves to (told
 * to use one thread). */
static const char *const candidates[] = {
    FUEL_SHIM_LIBDIR "/blis-serial/libblis.so.4",
    "libblis.so.4",
};

static void gemm(int trans_a, int trans_b, uint32_t m, uint32_t n, uint32_t k,
                 const float *a, uint32_t lda, const float *b, uint32_t ldb,
                 float *c, uint32_t ldc) {
  static const float one = 1.0f, zero = 0.0f;
  fuel_blis_int rsa = trans_a ? 1 : lda, csa = trans_a ? lda : 1;
  fuel_blis_int rsb = trans_b ? 1 : ldb, csb = trans_b ? ldb : 1;
  bli_sgemm_fn(FUEL_BLIS_NO_TRANSPOSE, FUEL_BLIS_NO_TRANSPOSE, m, n, k, &one, a,
               rsa, csa, b, rsb, csb, &zero, c, (fuel_blis_int)ldc, 1);
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

/* Under lock: opens BLIS, takes its entry points, checks its integers. */
static int open_library(char *error, size_t size) {
  const char *path = NULL;
  void *h = fuel_shim_open_library("BLIS", "FUEL_BLIS_LIBRARY", candidates,
                                   sizeof candidates / sizeof candidates[0],
                                   &path, error, size);
  if (!h)
    return 1;
#define FUEL_REQUIRED(name, result, params)                                    \
  if (!fuel_shim_take(h, path, #name, (void **)&name##_fn, error, size)) {     \
    dlclose(h);                                                                \
    return 1;                                                                  \
  }
#define FUEL_OPTIONAL(name, result, params)                                    \
  name##_fn = (result(*) params)dlsym(h, #name);
  FUEL_BLIS_SYMBOLS(FUEL_REQUIRED, FUEL_OPTIONAL)
#undef FUEL_REQUIRED
#undef FUEL_OPTIONAL
  const char *bits = bli_info_get_int_type_size_str_fn();
  if (!bits || strcmp(bits, "64") != 0) {
    snprintf(error, size,
             "%s uses %s-bit integers; the shim needs a BLIS built with "
             "64-bit ones",
             path, bits ? bits : "unknown");
    dlclose(h);
    return 1;
  }
  if (bli_thread_set_num_threads_fn)
    bli_thread_set_num_threads_fn(1);
  library = h;
  return 0;
}

FUEL_SGEMM_SHIM_DEFINE(blis, "blis-serial")
