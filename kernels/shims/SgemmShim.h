//===- SgemmShim.h - What the sgemm shims share ----------------- -*- C -*-===//
//
// The OpenBLAS and BLIS shims (OpenBlasShim.c, BlisShim.c) expose the same
// two entries over different libraries; this header holds everything but the
// library call: the push-constant layouts, their validation, the row-block
// and batch-entry drivers, and the opening of the vendor library with its
// X-macro symbol table. docs/SHIMS.md is the contract; C99, no LLVM.
//
// Entries cannot fail (fuel_kernel_fn returns nothing) and the compiler
// computes every parameter, so a workgroup whose parameters are malformed,
// or that lies outside the work (a row block at or past M, a batch entry at
// or past the batch, y or z non-zero), computes nothing and writes nothing.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_KERNELS_SHIMS_SGEMMSHIM_H
#define FUEL_KERNELS_SHIMS_SGEMMSHIM_H

#include "fuel-c/ShimABI.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUEL_SHIM_EXPORT __attribute__((visibility("default")))

/* Push constants of fuel_shim_<lib>_sgemm (bindings A, B, C). */
enum {
  FUEL_SGEMM_M,
  FUEL_SGEMM_N,
  FUEL_SGEMM_K,
  FUEL_SGEMM_LDA,
  FUEL_SGEMM_LDB,
  FUEL_SGEMM_LDC,
  FUEL_SGEMM_TRANS_A,
  FUEL_SGEMM_TRANS_B,
  FUEL_SGEMM_ROWS_PER_WORKGROUP,
  FUEL_SGEMM_NUM_PARAMS
};

/* Push constants of fuel_shim_<lib>_sgemm_batched (bindings A, B, C). */
enum {
  FUEL_SGEMM_BATCHED_BATCH,
  FUEL_SGEMM_BATCHED_M,
  FUEL_SGEMM_BATCHED_N,
  FUEL_SGEMM_BATCHED_K,
  FUEL_SGEMM_BATCHED_LDA,
  FUEL_SGEMM_BATCHED_LDB,
  FUEL_SGEMM_BATCHED_LDC,
  FUEL_SGEMM_BATCHED_STRIDE_A,
  FUEL_SGEMM_BATCHED_STRIDE_B,
  FUEL_SGEMM_BATCHED_STRIDE_C,
  FUEL_SGEMM_BATCHED_TRANS_A,
  FUEL_SGEMM_BATCHED_TRANS_B,
  FUEL_SGEMM_BATCHED_NUM_PARAMS
};

/* One row-major C = op(A) * op(B) (alpha 1, beta 0) by the library, with
 * m, n, k >= 1 and leading dimensions already validated. */
typedef void (*fuel_shim_gemm_fn)(int trans_a, int trans_b, uint32_t m,
                                  uint32_t n, uint32_t k, const float *a,
                                  uint32_t lda, const float *b, uint32_t ldb,
                                  float *c, uint32_t ldc);

/* Non-zero when m x n = op(A) (m x k) * op(B) (k x n) is well-formed:
 * flags 0 or 1, every value below 2^31 (BLAS integers are 32-bit),
 * lda >= max(1, trans_a ? m : k), ldb >= max(1, trans_b ? k : n),
 * ldc >= max(1, n). Zero sizes are well-formed. */
static inline int fuel_sgemm_shape_ok(uint32_t m, uint32_t n, uint32_t k,
                                      uint32_t lda, uint32_t ldb, uint32_t ldc,
                                      uint32_t trans_a, uint32_t trans_b) {
  const uint32_t limit = 0x7fffffffu;
  if (trans_a > 1 || trans_b > 1)
    return 0;
  if (m > limit || n > limit || k > limit || lda > limit || ldb > limit ||
      ldc > limit)
    return 0;
  uint32_t a_cols = trans_a ? m : k, b_cols = trans_b ? k : n;
  if (lda < (a_cols ? a_cols : 1) || ldb < (b_cols ? b_cols : 1) ||
      ldc < (n ? n : 1))
    return 0;
  return 1;
}

/* The rows [0, m) x [0, n) of C (leading dimension ldc) set to zero: the
 * product when k is 0, since beta is 0. */
static inline void fuel_sgemm_zero(float *c, uint64_t m, uint64_t n,
                                   uint64_t ldc) {
  for (uint64_t i = 0; i < m; ++i)
    memset(c + i * ldc, 0, n * sizeof(float));
}

/* op(A) (m x k) times op(B) (k x n) into C, any k (k = 0 zeroes C). */
static inline void fuel_sgemm_call(fuel_shim_gemm_fn gemm, int trans_a,
                                   int trans_b, uint32_t m, uint32_t n,
                                   uint32_t k, const float *a, uint32_t lda,
                                   const float *b, uint32_t ldb, float *c,
                                   uint32_t ldc) {
  if (m == 0 || n == 0)
    return;
  if (k == 0) {
    fuel_sgemm_zero(c, m, n, ldc);
    return;
  }
  gemm(trans_a, trans_b, m, n, k, a, lda, b, ldb, c, ldc);
}

/* Workgroup x of fuel_shim_<lib>_sgemm: C rows
 * [x * rows, min(M, (x + 1) * rows)). */
static inline void fuel_sgemm_rows(fuel_shim_gemm_fn gemm,
                                   const fuel_dispatch *d, uint32_t x,
                                   uint32_t y, uint32_t z) {
  const uint32_t *p = d->push_constants;
  if (!p || y || z)
    return;
  uint32_t m = p[FUEL_SGEMM_M], n = p[FUEL_SGEMM_N], k = p[FUEL_SGEMM_K];
  uint32_t lda = p[FUEL_SGEMM_LDA], ldb = p[FUEL_SGEMM_LDB],
           ldc = p[FUEL_SGEMM_LDC];
  uint32_t ta = p[FUEL_SGEMM_TRANS_A], tb = p[FUEL_SGEMM_TRANS_B];
  uint32_t rows = p[FUEL_SGEMM_ROWS_PER_WORKGROUP];
  if (rows == 0 || !fuel_sgemm_shape_ok(m, n, k, lda, ldb, ldc, ta, tb))
    return;
  uint64_t begin = (uint64_t)x * rows;
  if (begin >= m)
    return;
  uint64_t end = begin + rows < m ? begin + rows : m;
  const float *a = (const float *)d->bindings[0];
  const float *b = (const float *)d->bindings[1];
  float *c = (float *)d->bindings[2];
  // Rows of op(A) are rows of A, or columns of A (stored K x M) when
  // transposed.
  a += ta ? begin : begin * lda;
  c += begin * ldc;
  fuel_sgemm_call(gemm, (int)ta, (int)tb, (uint32_t)(end - begin), n, k, a, lda,
                  b, ldb, c, ldc);
}

/* Workgroup x of fuel_shim_<lib>_sgemm_batched: batch entry x. Entries of C
 * must not overlap (stride_c >= (M - 1) * ldc + N when batch > 1), or the
 * result would depend on the order workgroups run in; A and B may (a stride
 * of 0 broadcasts). */
static inline void fuel_sgemm_batch_entry(fuel_shim_gemm_fn gemm,
                                          const fuel_dispatch *d, uint32_t x,
                                          uint32_t y, uint32_t z) {
  const uint32_t *p = d->push_constants;
  if (!p || y || z)
    return;
  uint32_t batch = p[FUEL_SGEMM_BATCHED_BATCH];
  uint32_t m = p[FUEL_SGEMM_BATCHED_M], n = p[FUEL_SGEMM_BATCHED_N],
           k = p[FUEL_SGEMM_BATCHED_K];
  uint32_t lda = p[FUEL_SGEMM_BATCHED_LDA], ldb = p[FUEL_SGEMM_BATCHED_LDB],
           ldc = p[FUEL_SGEMM_BATCHED_LDC];
  uint64_t sa = p[FUEL_SGEMM_BATCHED_STRIDE_A],
           sb = p[FUEL_SGEMM_BATCHED_STRIDE_B],
           sc = p[FUEL_SGEMM_BATCHED_STRIDE_C];
  uint32_t ta = p[FUEL_SGEMM_BATCHED_TRANS_A],
           tb = p[FUEL_SGEMM_BATCHED_TRANS_B];
  if (x >= batch || !fuel_sgemm_shape_ok(m, n, k, lda, ldb, ldc, ta, tb))
    return;
  if (batch > 1 && m && n && sc < (uint64_t)(m - 1) * ldc + n)
    return;
  const float *a = (const float *)d->bindings[0] + x * sa;
  const float *b = (const float *)d->bindings[1] + x * sb;
  float *c = (float *)d->bindings[2] + x * sc;
  fuel_sgemm_call(gemm, (int)ta, (int)tb, m, n, k, a, lda, b, ldb, c, ldc);
}

/* Appends printf-style text to error[0..size) at *used, truncating. */
static inline void fuel_shim_append(char *error, size_t size, size_t *used,
                                    const char *text) {
  if (!error || size == 0 || *used >= size - 1)
    return;
  int n = snprintf(error + *used, size - *used, "%s", text);
  if (n > 0)
    *used += (size_t)n < size - *used ? (size_t)n : size - *used - 1;
}

/* The dynamic loader's last error, without the "<path>: " it starts with
 * when it names the path the message is already about. */
static inline const char *fuel_shim_dl_reason(const char *path) {
  const char *e = dlerror();
  if (!e)
    return "unknown dynamic loader error";
  size_t len = strlen(path);
  if (strncmp(e, path, len) == 0 && e[len] == ':' && e[len + 1] == ' ')
    return e + len + 2;
  return e;
}

/* Opens the vendor library: the path in environment variable `env` when it
 * is set (and only it), else each of `candidates` in order, with
 * dlopen(RTLD_NOW | RTLD_LOCAL). Returns the handle and sets *opened to the
 * path that opened, or returns null with a message in error naming `what`
 * and every path tried with its reason. */
static inline void *fuel_shim_open_library(const char *what, const char *env,
                                           const char *const *candidates,
                                           size_t num_candidates,
                                           const char **opened, char *error,
                                           size_t size) {
  size_t used = 0;
  const char *override_path = getenv(env);
  if (override_path && *override_path) {
    void *h = dlopen(override_path, RTLD_NOW | RTLD_LOCAL);
    *opened = override_path;
    if (h)
      return h;
    fuel_shim_append(error, size, &used, "cannot open ");
    fuel_shim_append(error, size, &used, what);
    fuel_shim_append(error, size, &used, ": ");
    fuel_shim_append(error, size, &used, env);
    fuel_shim_append(error, size, &used, "=");
    fuel_shim_append(error, size, &used, override_path);
    fuel_shim_append(error, size, &used, " (");
    fuel_shim_append(error, size, &used, fuel_shim_dl_reason(override_path));
    fuel_shim_append(error, size, &used, ")");
    return NULL;
  }
  fuel_shim_append(error, size, &used, "cannot open ");
  fuel_shim_append(error, size, &used, what);
  fuel_shim_append(error, size, &used, "; tried ");
  for (size_t i = 0; i < num_candidates; ++i) {
    void *h = dlopen(candidates[i], RTLD_NOW | RTLD_LOCAL);
    *opened = candidates[i];
    if (h)
      return h;
    if (i)
      fuel_shim_append(error, size, &used, ", ");
    fuel_shim_append(error, size, &used, candidates[i]);
    fuel_shim_append(error, size, &used, " (");
    fuel_shim_append(error, size, &used, fuel_shim_dl_reason(candidates[i]));
    fuel_shim_append(error, size, &used, ")");
  }
  fuel_shim_append(error, size, &used, "; set ");
  fuel_shim_append(error, size, &used, env);
  fuel_shim_append(error, size, &used, " to its path");
  return NULL;
}

/* Takes `symbol` from `handle` into *slot; on failure writes
 * "<library> has no <symbol>" to error (the caller closes the handle). */
static inline int fuel_shim_take(void *handle, const char *library,
                                 const char *symbol, void **slot, char *error,
                                 size_t size) {
  dlerror();
  *slot = dlsym(handle, symbol);
  if (*slot)
    return 1;
  snprintf(error, size, "%s has no %s", library, symbol);
  return 0;
}

/* The multiarch library directory Debian installs the serial builds under. */
#if defined(__x86_64__)
#define FUEL_SHIM_LIBDIR "/usr/lib/x86_64-linux-gnu"
#elif defined(__aarch64__)
#define FUEL_SHIM_LIBDIR "/usr/lib/aarch64-linux-gnu"
#else
#define FUEL_SHIM_LIBDIR "/usr/lib"
#endif

/* The part every sgemm shim shares once its file defines `lock` (a
 * pthread_mutex_t), `library` (the vendor library's handle or null),
 * `open_library(error, size)`, `sgemm` and `sgemm_batched`: init opens the
 * library once per load of the shim, unloading the shim drops its
 * reference, and fuel_shim_info lists the two entries
 * fuel_shim_<NAME>_sgemm and fuel_shim_<NAME>_sgemm_batched. */
#define FUEL_SGEMM_SHIM_DEFINE(NAME, LIBRARY_LABEL)                            \
  static int init(char *error, size_t size) {                                  \
    pthread_mutex_lock(&lock);                                                 \
    int rc = library ? 0 : open_library(error, size);                          \
    pthread_mutex_unlock(&lock);                                               \
    return rc;                                                                 \
  }                                                                            \
  __attribute__((destructor)) static void fini(void) {                         \
    if (library)                                                               \
      dlclose(library);                                                        \
    library = NULL;                                                            \
  }                                                                            \
  static const fuel_shim_entry entries[] = {                                   \
      {"fuel_shim_" #NAME "_sgemm", sgemm, 3, FUEL_SGEMM_NUM_PARAMS},          \
      {"fuel_shim_" #NAME "_sgemm_batched", sgemm_batched, 3,                  \
       FUEL_SGEMM_BATCHED_NUM_PARAMS},                                         \
  };                                                                           \
  static const fuel_shim_info_t info = {FUEL_SHIM_ABI_VERSION,                 \
                                        FUEL_KERNEL_ABI_VERSION,               \
                                        LIBRARY_LABEL,                         \
                                        init,                                  \
                                        sizeof entries / sizeof entries[0],    \
                                        entries};                              \
  FUEL_SHIM_EXPORT const fuel_shim_info_t *fuel_shim_info(void) {              \
    return &info;                                                              \
  }

#endif /* FUEL_KERNELS_SHIMS_SGEMMSHIM_H */
