//===- Cublas.cpp - cuBLAS for the CUDA device's library kernels ----------===//
//
// The row-major to column-major mapping of gemm params and the dlopen of
// libcublas from a search path (Cublas.h).
//
//===----------------------------------------------------------------------===//

#include "cuda/Cublas.h"

#include <climits>
#include <dlfcn.h>
#include <map>
#include <memory>
#include <mutex>

#ifndef FUEL_CUDA_TOOLKIT_LIB64
#define FUEL_CUDA_TOOLKIT_LIB64 ""
#endif

namespace fuel::rt::cuda {

namespace {

Status bad(const std::string &entry, const std::string &what) {
  return Status::error(StatusCode::InvalidArgument,
                       "cuda: cuBLAS entry " + entry + ": " + what);
}

/// The stored extent (rows, row length) of an operand of `rows` x `cols`,
/// transposed or not.
uint64_t operandElements(int64_t batch, int64_t stride, int64_t rows,
                         int64_t cols, int64_t ld, bool trans) {
  int64_t storedRows = trans ? cols : rows;
  int64_t rowLength = trans ? rows : cols;
  if (batch == 0 || storedRows == 0 || rowLength == 0)
    return 0;
  return uint64_t(batch - 1) * uint64_t(stride) +
         uint64_t(storedRows - 1) * uint64_t(ld) + uint64_t(rowLength);
}

} // namespace

StatusOr<RowMajorGemm> parseGemmParams(const std::string &entry,
                                       const uint32_t *params, size_t count,
                                       const uint32_t grid[3]) {
  RowMajorGemm g;
  auto flag = [&](size_t i, const char *name, bool &out) -> Status {
    if (params[i] > 1)
      return bad(entry, std::string(name) + " = " + std::to_string(params[i]) +
                            " (expected 0 or 1)");
    out = params[i] == 1;
    return Status::ok();
  };
  if (entry == kCublasSgemmEntry) {
    if (count != 8 && count != 9)
      return bad(entry, "takes 8 params [M, N, K, lda, ldb, ldc, transA, "
                        "transB] and an optional row-block size, not " +
                            std::to_string(count));
    g.m = params[0];
    g.n = params[1];
    g.k = params[2];
    g.lda = params[3];
    g.ldb = params[4];
    g.ldc = params[5];
    FUEL_RT_RETURN_IF_ERROR(flag(6, "transA", g.transA));
    FUEL_RT_RETURN_IF_ERROR(flag(7, "transB", g.transB));
    uint64_t blocks = 1;
    if (count == 9) {
      uint32_t rows = params[8];
      if (rows == 0 && g.m != 0)
        return bad(entry, "row-block size 0");
      blocks = rows ? (uint64_t(g.m) + rows - 1) / rows : 1;
      if (blocks == 0)
        blocks = 1;
    }
    if (grid[0] != blocks || grid[1] != 1 || grid[2] != 1)
      return bad(entry, "grid [" + std::to_string(grid[0]) + ", " +
                            std::to_string(grid[1]) + ", " +
                            std::to_string(grid[2]) + "] (expected [" +
                            std::to_string(blocks) + ", 1, 1])");
  } else if (entry == kCublasSgemmBatchedEntry ||
             entry == "fuel_shim_cublas_sgemm_batched") {
    if (count != 12)
      return bad(entry, "takes 12 params [batch, M, N, K, lda, ldb, ldc, "
                        "strideA, strideB, strideC, transA, transB], not " +
                            std::to_string(count));
    g.batch = params[0];
    g.m = params[1];
    g.n = params[2];
    g.k = params[3];
    g.lda = params[4];
    g.ldb = params[5];
    g.ldc = params[6];
    g.strideA = params[7];
    g.strideB = params[8];
    g.strideC = params[9];
    FUEL_RT_RETURN_IF_ERROR(flag(10, "transA", g.transA));
    FUEL_RT_RETURN_IF_ERROR(flag(11, "transB", g.transB));
    if (grid[0] != params[0] || grid[1] != 1 || grid[2] != 1)
      return bad(entry, "grid [" + std::to_string(grid[0]) + ", " +
                            std::to_string(grid[1]) + ", " +
                            std::to_string(grid[2]) +
                            "] (expected [batch, 1, "
                            "1] = [" +
                            std::to_string(params[0]) + ", 1, 1])");
  } else {
    return bad(entry, "unknown (expected " + std::string(kCublasSgemmEntry) +
                          " or " + kCublasSgemmBatchedEntry + ")");
  }
  auto fitsInt = [&](int64_t v, const char *name) -> Status {
    if (v > INT_MAX)
      return bad(entry, std::string(name) + " = " + std::to_string(v) +
                            " does not fit cuBLAS's int");
    return Status::ok();
  };
  for (auto [v, name] : {std::pair<int64_t, const char *>{g.batch, "batch"},
                         {g.m, "M"},
                         {g.n, "N"},
                         {g.k, "K"},
                         {g.lda, "lda"},
                         {g.ldb, "ldb"},
                         {g.ldc, "ldc"}})
    FUEL_RT_RETURN_IF_ERROR(fitsInt(v, name));
  auto atLeast = [&](int64_t ld, int64_t rowLength, const char *name,
                     const char *what) -> Status {
    if (ld < std::max<int64_t>(rowLength, 1))
      return bad(entry, std::string(name) + " = " + std::to_string(ld) +
                            " is less than " + what + " = " +
                            std::to_string(rowLength));
    return Status::ok();
  };
  FUEL_RT_RETURN_IF_ERROR(atLeast(g.lda, g.transA ? g.m : g.k, "lda",
                                  g.transA ? "M (transA)" : "K"));
  FUEL_RT_RETURN_IF_ERROR(atLeast(g.ldb, g.transB ? g.k : g.n, "ldb",
                                  g.transB ? "K (transB)" : "N"));
  FUEL_RT_RETURN_IF_ERROR(atLeast(g.ldc, g.n, "ldc", "N"));
  return g;
}

ColumnMajorGemm toColumnMajor(const RowMajorGemm &g) {
  // Row-major C (M x N, ldc) is column-major C^T (N x M, ldc), and
  // C^T = op(B)^T op(A)^T: row-major B read column-major is B^T already,
  // so B goes first with its own op, then A, and m and n swap.
  ColumnMajorGemm c;
  c.opFirst = g.transB ? 1 : 0;
  c.opSecond = g.transA ? 1 : 0;
  c.m = int(g.n);
  c.n = int(g.m);
  c.k = int(g.k);
  c.ldFirst = int(g.ldb);
  c.ldSecond = int(g.lda);
  c.ldc = int(g.ldc);
  c.strideFirst = g.strideB;
  c.strideSecond = g.strideA;
  c.strideC = g.strideC;
  c.batch = int(g.batch);
  c.firstIsB = true;
  return c;
}

uint64_t gemmBytesA(const RowMajorGemm &g) {
  return 4 * operandElements(g.batch, g.strideA, g.m, g.k, g.lda, g.transA);
}
uint64_t gemmBytesB(const RowMajorGemm &g) {
  return 4 * operandElements(g.batch, g.strideB, g.k, g.n, g.ldb, g.transB);
}
uint64_t gemmBytesC(const RowMajorGemm &g) {
  return 4 * operandElements(g.batch, g.strideC, g.m, g.n, g.ldc, false);
}

const std::vector<std::string> &cublasLibraryNames() {
  static const std::vector<std::string> names = {
      "libcublas.so.13", "libcublas.so.12", "libcublas.so.11", "libcublas.so"};
  return names;
}

std::vector<std::string> cublasCandidates(const std::string &searchPath) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= searchPath.size()) {
    size_t end = searchPath.find(':', start);
    if (end == std::string::npos)
      end = searchPath.size();
    std::string dir = searchPath.substr(start, end - start);
    while (dir.size() > 1 && dir.back() == '/')
      dir.pop_back();
    if (!dir.empty())
      for (const std::string &name : cublasLibraryNames())
        out.push_back(dir + "/" + name);
    start = end + 1;
  }
  for (const std::string &name : cublasLibraryNames())
    out.push_back(name);
  return out;
}

const char *defaultCublasSearchPath() { return FUEL_CUDA_TOOLKIT_LIB64; }

std::string cublasStatusText(int status) {
  const char *name = nullptr;
  switch (status) {
  case 0:
    name = "CUBLAS_STATUS_SUCCESS";
    break;
  case 1:
    name = "CUBLAS_STATUS_NOT_INITIALIZED";
    break;
  case 3:
    name = "CUBLAS_STATUS_ALLOC_FAILED";
    break;
  case 7:
    name = "CUBLAS_STATUS_INVALID_VALUE";
    break;
  case 8:
    name = "CUBLAS_STATUS_ARCH_MISMATCH";
    break;
  case 11:
    name = "CUBLAS_STATUS_MAPPING_ERROR";
    break;
  case 13:
    name = "CUBLAS_STATUS_EXECUTION_FAILED";
    break;
  case 14:
    name = "CUBLAS_STATUS_INTERNAL_ERROR";
    break;
  case 15:
    name = "CUBLAS_STATUS_NOT_SUPPORTED";
    break;
  case 16:
    name = "CUBLAS_STATUS_LICENSE_ERROR";
    break;
  default:
    break;
  }
  std::string text = std::to_string(status);
  if (name)
    text += std::string(" (") + name + ")";
  return text;
}

namespace {

StatusOr<std::unique_ptr<Cublas>> loadCublasOnce(const std::string &path) {
  std::string tried;
  for (const std::string &candidate : cublasCandidates(path)) {
    dlerror();
    void *handle = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      const char *why = dlerror();
      tried += "\n  " + candidate + ": " + (why ? why : "not opened");
      continue;
    }
    auto c = std::make_unique<Cublas>();
    c->handle = handle;
    c->path = candidate;
    bool ok = true;
    auto take = [&](auto &fn, const char *symbol) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(
          dlsym(handle, symbol));
      ok = ok && fn;
    };
    take(c->create, "cublasCreate_v2");
    take(c->destroy, "cublasDestroy_v2");
    take(c->setStream, "cublasSetStream_v2");
    take(c->setWorkspace, "cublasSetWorkspace_v2");
    take(c->sgemm, "cublasSgemm_v2");
    take(c->sgemmStridedBatched, "cublasSgemmStridedBatched");
    if (ok)
      return c;
    tried += "\n  " + candidate + ": not cuBLAS (entry points missing)";
    dlclose(handle);
  }
  return Status::error(StatusCode::Unavailable,
                       "cuda: cuBLAS not found (search path '" + path +
                           "'); tried:" + tried);
}

} // namespace

StatusOr<const Cublas *> loadCublas(const std::string &searchPath) {
  static std::mutex mu;
  static auto *loaded =
      new std::map<std::string, StatusOr<std::unique_ptr<Cublas>>>();
  std::lock_guard<std::mutex> lock(mu);
  auto it = loaded->find(searchPath);
  if (it == loaded->end())
    it = loaded->emplace(searchPath, loadCublasOnce(searchPath)).first;
  if (!it->second)
    return it->second.status();
  return static_cast<const Cublas *>(it->second->get());
}

} // namespace fuel::rt::cuda
