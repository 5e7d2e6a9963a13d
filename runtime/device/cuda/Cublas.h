//===- Cublas.h - cuBLAS for the CUDA device's library kernels --*- C++ -*-===//
//
// The CUDA device runs `cuda.cublas.*` library kernels as cuBLAS calls:
// the shim params of a row-major sgemm (docs/LOWERING.md, "Library params")
// become a column-major cublasSgemm_v2 / cublasSgemmStridedBatched call by
// swapping the operands (C^T = B^T A^T), and libcublas is opened with
// dlopen from a search path. Independent of the driver, so the mapping and
// the search are tested without a GPU. docs/RUNTIME.md, "CUDA device".
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_RUNTIME_DEVICE_CUDA_CUBLAS_H
#define FUEL_RUNTIME_DEVICE_CUDA_CUBLAS_H

#include "fuel/Runtime/Status.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fuel::rt::cuda {

/// The cuBLAS library entries, as the executable's library kernels name
/// them (KERNELS.md lists them as the records' lowering).
inline constexpr const char *kCublasSgemmEntry = "fuel_shim_cublas_sgemm";
inline constexpr const char *kCublasSgemmBatchedEntry =
    "fuel_shim_cublas_sgemm_strided_batched";

/// A row-major C = op(A) op(B), sizes and strides in elements.
struct RowMajorGemm {
  int64_t batch = 1;
  int64_t m = 0, n = 0, k = 0;
  int64_t lda = 0, ldb = 0, ldc = 0;
  int64_t strideA = 0, strideB = 0, strideC = 0;
  bool transA = false, transB = false;
};

/// The column-major call computing it: cuBLAS's first operand is B, its
/// second A (`firstIsB`), m and n are swapped. Operations: 0 = N, 1 = T
/// (cublasOperation_t).
struct ColumnMajorGemm {
  int opFirst = 0, opSecond = 0;
  int m = 0, n = 0, k = 0;
  int ldFirst = 0, ldSecond = 0, ldc = 0;
  long long strideFirst = 0, strideSecond = 0, strideC = 0;
  int batch = 1;
  bool firstIsB = true;
};

/// Reads an entry's params (the dispatch's push constants: the library
/// kernel's params first) and its grid, and checks them: the entry is one
/// of the two above; sgemm takes [M, N, K, lda, ldb, ldc, transA, transB]
/// with an optional row-block size (grid [ceil(M/rows), 1, 1], computed as
/// one call), the batched one [batch, M, N, K, lda, ldb, ldc, strideA,
/// strideB, strideC, transA, transB] with grid [batch, 1, 1]; every leading
/// dimension at least its operand's row length; every value fits cuBLAS's
/// int. InvalidArgument naming the param otherwise.
StatusOr<RowMajorGemm> parseGemmParams(const std::string &entry,
                                       const uint32_t *params, size_t count,
                                       const uint32_t grid[3]);

/// The operand swap.
ColumnMajorGemm toColumnMajor(const RowMajorGemm &g);

/// The bytes of A, B and C a gemm touches (the last batch entry's end), for
/// checking its bindings.
uint64_t gemmBytesA(const RowMajorGemm &g);
uint64_t gemmBytesB(const RowMajorGemm &g);
uint64_t gemmBytesC(const RowMajorGemm &g);

/// The file names libcublas is tried under, newest first.
const std::vector<std::string> &cublasLibraryNames();

/// The files to try, in order: each directory of `searchPath` (':'
/// separated; empty elements skipped) with each name, then each bare name
/// (the dynamic loader's default search).
std::vector<std::string> cublasCandidates(const std::string &searchPath);

/// The default search path: the toolkit's lib64 found when the runtime was
/// configured ("" when none was found).
const char *defaultCublasSearchPath();

/// cuBLAS's entry points, opaque types as void *.
struct Cublas {
  void *handle = nullptr;
  std::string path;
  int (*create)(void **);
  int (*destroy)(void *);
  int (*setStream)(void *, void *);
  int (*setWorkspace)(void *, void *, size_t);
  int (*sgemm)(void *, int, int, int, int, int, const float *, const float *,
               int, const float *, int, const float *, float *, int);
  int (*sgemmStridedBatched)(void *, int, int, int, int, int, const float *,
                             const float *, int, long long, const float *, int,
                             long long, const float *, float *, int, long long,
                             int);
};

/// Loads the first candidate of `searchPath` that opens and has every
/// entry point (once per search path per process, never closed);
/// Unavailable listing what was tried otherwise.
StatusOr<const Cublas *> loadCublas(const std::string &searchPath);

/// "13 (CUBLAS_STATUS_EXECUTION_FAILED)".
std::string cublasStatusText(int status);

} // namespace fuel::rt::cuda

#endif // FUEL_RUNTIME_DEVICE_CUDA_CUBLAS_H
