//===- FakeCublas.c - A test double of libcublas --------------------------===//
//
// A TEST DOUBLE of cuBLAS for the fake driver (FakeCudaDriver.c), whose
// device addresses are host addresses: cublasSgemm_v2 and
// cublasSgemmStridedBatched computed column-major by plain loops, exactly
// as cuBLAS defines them, so that the CUDA device's row-major operand swap
// is checked against a row-major reference. It remembers the workspace it
// was given and the calls made (fuelFakeCublasWorkspaceBytes,
// fuelFakeCublasCalls).
//
//===----------------------------------------------------------------------===//

#include <stddef.h>
#include <stdlib.h>

#define EXPORT __attribute__((visibility("default")))

EXPORT size_t fuelFakeCublasWorkspaceBytes;
EXPORT int fuelFakeCublasCalls;

struct Handle {
  void *stream;
};

EXPORT int cublasCreate_v2(void **handle) {
  *handle = calloc(1, sizeof(struct Handle));
  return 0;
}
EXPORT int cublasDestroy_v2(void *handle) {
  free(handle);
  return 0;
}
EXPORT int cublasSetStream_v2(void *handle, void *stream) {
  ((struct Handle *)handle)->stream = stream;
  return 0;
}
EXPORT int cublasSetWorkspace_v2(void *handle, void *workspace, size_t bytes) {
  (void)handle;
  if (!workspace && bytes)
    return 7;
  fuelFakeCublasWorkspaceBytes = bytes;
  return 0;
}

/* op(X)[i][j] of a column-major X with leading dimension ld. */
static float at(const float *x, int ld, int trans, int i, int j) {
  return trans ? x[j + (size_t)i * ld] : x[i + (size_t)j * ld];
}

static void gemm(int ta, int tb, int m, int n, int k, float alpha,
                 const float *a, int lda, const float *b, int ldb, float beta,
                 float *c, int ldc) {
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      double sum = 0;
      for (int p = 0; p < k; ++p)
        sum += (double)at(a, lda, ta, i, p) * at(b, ldb, tb, p, j);
      float *out = &c[i + (size_t)j * ldc];
      *out = (float)(alpha * sum + (beta != 0 ? beta * *out : 0));
    }
}

EXPORT int cublasSgemm_v2(void *handle, int ta, int tb, int m, int n, int k,
                          const float *alpha, const float *a, int lda,
                          const float *b, int ldb, const float *beta, float *c,
                          int ldc) {
  (void)handle;
  if (lda < (ta ? k : m) || ldb < (tb ? n : k) || ldc < m)
    return 7; /* CUBLAS_STATUS_INVALID_VALUE, as cuBLAS checks */
  ++fuelFakeCublasCalls;
  gemm(ta, tb, m, n, k, *alpha, a, lda, b, ldb, *beta, c, ldc);
  return 0;
}

EXPORT int cublasSgemmStridedBatched(void *handle, int ta, int tb, int m, int n,
                                     int k, const float *alpha, const float *a,
                                     int lda, long long sa, const float *b,
                                     int ldb, long long sb, const float *beta,
                                     float *c, int ldc, long long sc,
                                     int batch) {
  (void)handle;
  if (lda < (ta ? k : m) || ldb < (tb ? n : k) || ldc < m)
    return 7;
  ++fuelFakeCublasCalls;
  for (int i = 0; i < batch; ++i)
    gemm(ta, tb, m, n, k, *alpha, a + i * sa, lda, b + i * sb, ldb, *beta,
         c + i * sc, ldc);
  return 0;
}
