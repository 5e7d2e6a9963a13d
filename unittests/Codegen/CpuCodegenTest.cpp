//===- CpuCodegenTest.cpp - Generated CPU kernels, compiled and run -------===//
//
// The proof that CPU code generation works end to end: outlined cpu kernel
// modules (written here by hand) go through fuel-apply-schedules,
// fuel-bufferize-kernels and convert-fuel-to-llvm for the host, become one
// shared object with emitCpuSharedObject, are loaded with dlopen from a
// memfd, and each kernel is called through the kernel ABI over its whole
// grid; the results are compared with naive references written here
// independently of the code under test.
//
//===----------------------------------------------------------------------===//

#include "../CpuHosts.h"
#include "fuel-c/KernelABI.h"
#include "fuel/Codegen/CPU/CpuObject.h"
#include "fuel/Codegen/Passes.h"
#include "fuel/Conversion/Passes.h"
#include "fuel/Dialect/Fuel/IR/FuelDialect.h"
#include "fuel/Lowering/Passes.h"

#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/TargetParser/Triple.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <dlfcn.h>
#include <functional>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

using namespace mlir;

namespace {

/// `text` with each "$0", "$1", ... replaced by args[0], args[1], ...
std::string subst(std::string text, const std::vector<std::string> &args) {
  for (size_t i = args.size(); i-- > 0;) {
    std::string key = "$" + std::to_string(i);
    for (size_t at = text.find(key); at != std::string::npos;
         at = text.find(key, at + args[i].size()))
      text.replace(at, key.size(), args[i]);
  }
  return text;
}

/// A matmul kernel C[M,N] = A[M,K] * B[K,N] in the outlined form (the fill
/// of the output binding).
std::string matmulKernel(int m, int n, int k, const std::string &suffix = "") {
  return subst(
      R"mlir(
      func.func @matmul_$0x$1x$2$3(%a: memref<$0x$2xf32>, %b: memref<$2x$1xf32>, %c: memref<$0x$1xf32>)
          attributes {fuel.kernel_id = "cpu.generated.matmul_f32", fuel.op_kind = "matmul",
                      fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/matmul.mlir"} {
        %at = bufferization.to_tensor %a restrict : memref<$0x$2xf32> to tensor<$0x$2xf32>
        %bt = bufferization.to_tensor %b restrict : memref<$2x$1xf32> to tensor<$2x$1xf32>
        %ct = bufferization.to_tensor %c restrict writable : memref<$0x$1xf32> to tensor<$0x$1xf32>
        %z = arith.constant 0.0 : f32
        %f = linalg.fill ins(%z : f32) outs(%ct : tensor<$0x$1xf32>) -> tensor<$0x$1xf32>
        %r = linalg.matmul ins(%at, %bt : tensor<$0x$2xf32>, tensor<$2x$1xf32>)
                           outs(%f : tensor<$0x$1xf32>) -> tensor<$0x$1xf32>
        bufferization.materialize_in_destination %r in restrict writable %c
            : (tensor<$0x$1xf32>, memref<$0x$1xf32>) -> ()
        return
      }
)mlir",
      {std::to_string(m), std::to_string(n), std::to_string(k), suffix});
}

/// A host function dispatching the kernel `kernel` (matmulKernel's form) with
/// a constant B: fuel-apply-schedules then packs B at compile time.
std::string constantBDispatch(const std::string &kernel, int m, int n, int k) {
  return subst(
      R"mlir(
  func.func @host_$3(%a: tensor<$0x$2xf32>) -> tensor<$0x$1xf32> {
    %w = arith.constant dense<0.5> : tensor<$2x$1xf32>
    %r = fuel.dispatch @cpu::@$3 (%a, %w) : (tensor<$0x$2xf32>, tensor<$2x$1xf32>) -> tensor<$0x$1xf32>
    return %r : tensor<$0x$1xf32>
  }
)mlir",
      {std::to_string(m), std::to_string(n), std::to_string(k), kernel});
}

/// A batch matmul kernel C[B,M,N] = A[B,M,K] * B[B,K,N] in the outlined
/// form.
std::string batchMatmulKernel(int batch, int m, int n, int k) {
  return subst(R"mlir(
      func.func @batch_matmul_$3x$0x$1x$2(%a: memref<$3x$0x$2xf32>, %b: memref<$3x$2x$1xf32>, %c: memref<$3x$0x$1xf32>)
          attributes {fuel.kernel_id = "cpu.generated.batch_matmul_f32", fuel.op_kind = "batch_matmul",
                      fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/batch_matmul.mlir"} {
        %at = bufferization.to_tensor %a restrict : memref<$3x$0x$2xf32> to tensor<$3x$0x$2xf32>
        %bt = bufferization.to_tensor %b restrict : memref<$3x$2x$1xf32> to tensor<$3x$2x$1xf32>
        %ct = bufferization.to_tensor %c restrict writable : memref<$3x$0x$1xf32> to tensor<$3x$0x$1xf32>
        %z = arith.constant 0.0 : f32
        %f = linalg.fill ins(%z : f32) outs(%ct : tensor<$3x$0x$1xf32>) -> tensor<$3x$0x$1xf32>
        %r = linalg.batch_matmul ins(%at, %bt : tensor<$3x$0x$2xf32>, tensor<$3x$2x$1xf32>)
                                 outs(%f : tensor<$3x$0x$1xf32>) -> tensor<$3x$0x$1xf32>
        bufferization.materialize_in_destination %r in restrict writable %c
            : (tensor<$3x$0x$1xf32>, memref<$3x$0x$1xf32>) -> ()
        return
      }
)mlir",
               {std::to_string(m), std::to_string(n), std::to_string(k),
                std::to_string(batch)});
}

/// out[R,C] = exp(max(x + bias[C], 0)) * 0.5: a broadcast, relu, exp chain.
std::string elementwiseKernel(const std::string &name, const std::string &shape,
                              const std::string &inner, int rank) {
  std::string dims, last;
  for (int i = 0; i < rank; ++i)
    dims += (i ? ", d" : "d") + std::to_string(i);
  last = "d" + std::to_string(rank - 1);
  std::string iters;
  for (int i = 0; i < rank; ++i)
    iters += i ? ", \"parallel\"" : "\"parallel\"";
  return subst(R"mlir(
      func.func @$0(%a: memref<$1xf32>, %b: memref<$2xf32>, %c: memref<$1xf32>)
          attributes {fuel.kernel_id = "cpu.generated.elementwise_f32", fuel.op_kind = "elementwise",
                      fuel.revision = 2 : i64, fuel.schedule = "kernels/schedules/cpu/elementwise.mlir"} {
        %at = bufferization.to_tensor %a restrict : memref<$1xf32> to tensor<$1xf32>
        %bt = bufferization.to_tensor %b restrict : memref<$2xf32> to tensor<$2xf32>
        %e = tensor.empty() : tensor<$1xf32>
        %s = linalg.generic {indexing_maps = [affine_map<($3) -> ($3)>, affine_map<($3) -> ($4)>,
                                              affine_map<($3) -> ($3)>],
                             iterator_types = [$5]}
            ins(%at, %bt : tensor<$1xf32>, tensor<$2xf32>) outs(%e : tensor<$1xf32>) {
        ^bb0(%x: f32, %y: f32, %o: f32):
          %v = arith.addf %x, %y : f32
          linalg.yield %v : f32
        } -> tensor<$1xf32>
        %e2 = tensor.empty() : tensor<$1xf32>
        %r = linalg.generic {indexing_maps = [affine_map<($3) -> ($3)>, affine_map<($3) -> ($3)>],
                             iterator_types = [$5]}
            ins(%s : tensor<$1xf32>) outs(%e2 : tensor<$1xf32>) {
        ^bb0(%x: f32, %o: f32):
          %z = arith.constant 0.0 : f32
          %h = arith.constant 0.5 : f32
          %m = arith.maximumf %x, %z : f32
          %p = math.exp %m : f32
          %q = arith.mulf %p, %h : f32
          linalg.yield %q : f32
        } -> tensor<$1xf32>
        bufferization.materialize_in_destination %r in restrict writable %c
            : (tensor<$1xf32>, memref<$1xf32>) -> ()
        return
      }
)mlir",
               {name, shape, inner, dims, last, iters});
}

std::string executable(const std::string &kernels,
                       const std::string &functions = "") {
  return "module {\n  fuel.executable @cpu on cpu {\n    builtin.module {\n" +
         kernels + "    }\n  }\n" + functions + "}\n";
}

/// A compiled executable: its LLVM-dialect module and its shared object.
struct Compiled {
  OwningOpRef<ModuleOp> module;
  std::vector<uint8_t> object;
};

class CpuCodegen : public ::testing::Test {
protected:
  CpuCodegen() {
    DialectRegistry registry;
    registry.insert<mlir::fuel::FuelDialect>();
    registerAllDialects(registry);
    registerAllExtensions(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  /// Lowers `source` for the host (or for the x86-64 cpu `targetCpu`) and
  /// links it; fails the test on error.
  Compiled compile(const std::string &source, const std::string &targetCpu = "",
                   const std::string &targetFeatures = "") {
    Compiled result;
    result.module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(result.module) << source;
    if (!result.module)
      return result;
    PassManager pm(&context);
    mlir::fuel::FuelApplySchedulesPassOptions options;
    options.targetCpu = targetCpu;
    options.targetFeatures = targetFeatures;
    pm.addPass(mlir::fuel::createFuelApplySchedulesPass(options));
    pm.addPass(mlir::fuel::createFuelBufferizeKernelsPass());
    pm.addPass(mlir::fuel::createConvertFuelToLLVMPass());
    EXPECT_TRUE(succeeded(pm.run(*result.module)));
    ModuleOp kernels;
    result.module->walk([&](ModuleOp m) {
      if (m != *result.module)
        kernels = m;
    });
    EXPECT_TRUE(kernels);
    if (!kernels)
      return result;
    FailureOr<mlir::fuel::CpuTargetSpec> target =
        mlir::fuel::resolveCpuTarget(kernels);
    EXPECT_TRUE(succeeded(target));
    FailureOr<std::vector<uint8_t>> object =
        mlir::fuel::emitCpuSharedObject(kernels, *target);
    EXPECT_TRUE(succeeded(object));
    if (succeeded(object))
      result.object = std::move(*object);
    return result;
  }

  MLIRContext context;
};

/// A shared object loaded from memory.
struct Loaded {
  explicit Loaded(const std::vector<uint8_t> &bytes) {
    fd = memfd_create("fuel-kernels", 0);
    if (fd < 0 || write(fd, bytes.data(), bytes.size()) !=
                      static_cast<ssize_t>(bytes.size()))
      return;
    std::string path = "/proc/self/fd/" + std::to_string(fd);
    handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  }
  ~Loaded() {
    if (handle)
      dlclose(handle);
    if (fd >= 0)
      close(fd);
  }
  fuel_kernel_fn entry(const char *name) {
    return handle ? reinterpret_cast<fuel_kernel_fn>(dlsym(handle, name))
                  : nullptr;
  }
  int fd = -1;
  void *handle = nullptr;
};

/// The grid the kernel `name` records in its entry's attributes.
std::array<uint32_t, 3> gridOf(ModuleOp module, StringRef name) {
  std::array<uint32_t, 3> grid{0, 0, 0};
  module->walk([&](Operation *op) {
    auto sym = op->getAttrOfType<StringAttr>("sym_name");
    auto wg = op->getAttrOfType<DenseI64ArrayAttr>("fuel.workgroups");
    if (sym && wg && sym.getValue() == name)
      for (int i = 0; i < 3; ++i)
        grid[i] = wg[i];
  });
  return grid;
}

/// Runs every workgroup of `fn` over `bindings`.
void runGrid(fuel_kernel_fn fn, std::array<uint32_t, 3> grid,
             std::vector<void *> bindings) {
  fuel_dispatch d{bindings.data(), nullptr, {grid[0], grid[1], grid[2]}};
  alignas(64) static char workspace[64];
  for (uint32_t z = 0; z < grid[2]; ++z)
    for (uint32_t y = 0; y < grid[1]; ++y)
      for (uint32_t x = 0; x < grid[0]; ++x)
        fn(&d, workspace, x, y, z);
}

std::vector<float> randomVector(size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float &x : v)
    x = dist(gen);
  return v;
}

void checkMatmul(CpuCodegen &, fuel_kernel_fn fn, std::array<uint32_t, 3> grid,
                 int m, int n, int k) {
  ASSERT_NE(fn, nullptr);
  std::vector<float> a = randomVector(size_t(m) * k, 1);
  std::vector<float> b = randomVector(size_t(k) * n, 2);
  std::vector<float> c(size_t(m) * n, NAN);
  runGrid(fn, grid, {a.data(), b.data(), c.data()});
  double maxError = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double ref = 0;
      for (int p = 0; p < k; ++p)
        ref += double(a[size_t(i) * k + p]) * b[size_t(p) * n + j];
      maxError = std::max(maxError, std::abs(ref - c[size_t(i) * n + j]));
    }
  // f32 accumulation of k products of values in [-1, 1].
  EXPECT_LT(maxError, 1e-5 * k) << m << "x" << n << "x" << k;
}

} // namespace

TEST_F(CpuCodegen, MatmulShapesMatchReference) {
  const int shapes[][3] = {
      {37, 29, 53}, {64, 1024, 784}, {5, 7, 3}, {1, 16, 4}, {64, 10, 1024}};
  std::string kernels;
  for (const auto &s : shapes)
    kernels += matmulKernel(s[0], s[1], s[2]);
  Compiled compiled = compile(executable(kernels));
  ASSERT_FALSE(compiled.object.empty());
  Loaded loaded(compiled.object);
  ASSERT_NE(loaded.handle, nullptr) << dlerror();
  for (const auto &s : shapes) {
    std::string name = llvm::formatv("matmul_{0}x{1}x{2}", s[0], s[1], s[2]);
    std::array<uint32_t, 3> grid = gridOf(*compiled.module, name);
    EXPECT_GE(grid[0], 1u) << name;
    checkMatmul(*this, loaded.entry(name.c_str()), grid, s[0], s[1], s[2]);
  }
  // The 64x1024 output is split into N panels, one per workgroup.
  EXPECT_GT(gridOf(*compiled.module, "matmul_64x1024x784")[0], 1u);
}

TEST_F(CpuCodegen, PackedMatmulsMatchReferencePerIsa) {
  // Shapes for each path of the packed-B schedules, compiled for every ISA
  // class this host can run: N a multiple of every panel width (split over
  // panels), one or two panels with prime M and K (split over M, peeled
  // rows and K), N that no panel divides (unpacked), K = 2048 (packed but
  // for 32-wide panels, which would not fit the stack), and batch matmuls
  // (packed and not).
  const int shapes[][3] = {{8, 64, 12},  {37, 32, 53},  {64, 10, 16},
                           {67, 96, 29}, {16, 256, 40}, {4, 64, 2048}};
  const int batches[][4] = {{4, 12, 32, 8}, {1, 9, 64, 7}, {3, 5, 10, 6}};
  std::string kernels;
  for (const auto &s : shapes)
    kernels += matmulKernel(s[0], s[1], s[2]);
  for (const auto &b : batches)
    kernels += batchMatmulKernel(b[0], b[1], b[2], b[3]);
  // The host, and each lower ISA class as x86-64 with exactly the class's
  // features (never a CPU name, which implies more than the host may have).
  std::vector<std::pair<std::string, std::string>> targets{{"", ""}};
  mlir::fuel::IsaClass host = mlir::fuel::isaClass(mlir::fuel::hostCpuTarget());
  if (host == mlir::fuel::IsaClass::Avx512)
    targets.push_back({"x86-64", "+avx2,+fma"});
  if (host != mlir::fuel::IsaClass::Generic)
    targets.push_back({"x86-64", ""});
  for (const auto &[cpu, features] : targets) {
    SCOPED_TRACE("target cpu '" + cpu + "' features '" + features + "'");
    Compiled compiled = compile(executable(kernels), cpu, features);
    ASSERT_FALSE(compiled.object.empty());
    Loaded loaded(compiled.object);
    ASSERT_NE(loaded.handle, nullptr) << dlerror();
    for (const auto &s : shapes) {
      std::string name = llvm::formatv("matmul_{0}x{1}x{2}", s[0], s[1], s[2]);
      checkMatmul(*this, loaded.entry(name.c_str()),
                  gridOf(*compiled.module, name), s[0], s[1], s[2]);
    }
    for (const auto &b : batches) {
      int batch = b[0], m = b[1], n = b[2], k = b[3];
      std::string name =
          llvm::formatv("batch_matmul_{0}x{1}x{2}x{3}", batch, m, n, k);
      fuel_kernel_fn fn = loaded.entry(name.c_str());
      ASSERT_NE(fn, nullptr) << name;
      std::vector<float> x = randomVector(size_t(batch) * m * k, 5);
      std::vector<float> y = randomVector(size_t(batch) * k * n, 6);
      std::vector<float> out(size_t(batch) * m * n, NAN);
      runGrid(fn, gridOf(*compiled.module, name),
              {x.data(), y.data(), out.data()});
      double maxError = 0;
      for (int e = 0; e < batch; ++e)
        for (int i = 0; i < m; ++i)
          for (int j = 0; j < n; ++j) {
            double ref = 0;
            for (int p = 0; p < k; ++p)
              ref += double(x[(size_t(e) * m + i) * k + p]) *
                     y[(size_t(e) * k + p) * n + j];
            maxError = std::max(
                maxError, std::abs(ref - out[(size_t(e) * m + i) * n + j]));
          }
      EXPECT_LT(maxError, 1e-5 * k) << name;
    }
  }
}

TEST_F(CpuCodegen, ElementwiseMatchesReference) {
  std::string kernels = elementwiseKernel("ew2", "64x1024", "1024", 2) +
                        elementwiseKernel("ew3", "3x37x53", "53", 3) +
                        elementwiseKernel("ew1", "1031", "1031", 1);
  Compiled compiled = compile(executable(kernels));
  ASSERT_FALSE(compiled.object.empty());
  Loaded loaded(compiled.object);
  ASSERT_NE(loaded.handle, nullptr) << dlerror();
  struct Case {
    const char *name;
    size_t size, inner;
  } cases[] = {
      {"ew2", 64 * 1024, 1024}, {"ew3", 3 * 37 * 53, 53}, {"ew1", 1031, 1031}};
  for (const Case &c : cases) {
    fuel_kernel_fn fn = loaded.entry(c.name);
    ASSERT_NE(fn, nullptr) << c.name;
    std::vector<float> x = randomVector(c.size, 3);
    std::vector<float> bias = randomVector(c.inner, 4);
    std::vector<float> out(c.size, NAN);
    runGrid(fn, gridOf(*compiled.module, c.name),
            {x.data(), bias.data(), out.data()});
    for (size_t i = 0; i < c.size; ++i) {
      double ref =
          std::exp(std::max(0.0, double(x[i]) + bias[i % c.inner])) * 0.5;
      // The polynomial exp is accurate to a few ulp.
      ASSERT_NEAR(out[i], ref, 1e-6 * std::max(1.0, ref))
          << c.name << " element " << i;
    }
  }
  EXPECT_EQ(gridOf(*compiled.module, "ew2")[0], 16u);
}

TEST_F(CpuCodegen, SharedObjectIsDeterministic) {
  std::string source = executable(matmulKernel(37, 29, 53) +
                                  elementwiseKernel("ew", "8x40", "40", 2));
  Compiled first = compile(source);
  Compiled second = compile(source);
  ASSERT_FALSE(first.object.empty());
  EXPECT_EQ(first.object, second.object);
}

TEST_F(CpuCodegen, MatmulSpeedAgainstOpenBlas) {
  // Informative, never asserted: the time of each generated (batch) matmul
  // over its whole grid on one thread, as a ratio to OpenBLAS's
  // (cblas_sgemm, one thread; a batch is one call per entry, as the
  // library shim does) in the same process. 31 rounds interleave the
  // contenders (the order alternates); each sample is the mean of enough
  // calls to last ~3 ms; best and median over the rounds. On an AVX-512
  // host the AVX2 kernels (x86-64 with avx2 and fma) are measured too.
  void *blas = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
  if (!blas)
    GTEST_SKIP() << "no libopenblas.so.0 to compare with";
  using Sgemm = void (*)(int, int, int, int, int, int, float, const float *,
                         int, const float *, int, float, float *, int);
  auto sgemm = reinterpret_cast<Sgemm>(dlsym(blas, "cblas_sgemm"));
  ASSERT_NE(sgemm, nullptr);
  if (auto setThreads = reinterpret_cast<void (*)(int)>(
          dlsym(blas, "openblas_set_num_threads")))
    setThreads(1);

  struct Shape {
    int batch, m, k, n; // M x K x N, as the benchmarks name them
  };
  const Shape shapes[] = {{1, 64, 784, 1024},  {1, 64, 1024, 1024},
                          {1, 128, 256, 1024}, {1, 256, 256, 256},
                          {1, 512, 512, 512},  {4, 128, 64, 128}};
  auto nameOf = [](const Shape &s) {
    return s.batch == 1
               ? std::string(llvm::formatv("matmul_{0}x{1}x{2}", s.m, s.n, s.k))
               : std::string(llvm::formatv("batch_matmul_{0}x{1}x{2}x{3}",
                                           s.batch, s.m, s.n, s.k));
  };
  // Each matmul also as a "_cb" kernel whose only dispatch binds a constant
  // B: packed at compile time, the kernel reads panels and copies nothing
  // (its B binding is then [N/P][K][P]; the timing binds B's bytes as such).
  std::string kernels, functions;
  for (const Shape &s : shapes) {
    kernels += s.batch == 1 ? matmulKernel(s.m, s.n, s.k)
                            : batchMatmulKernel(s.batch, s.m, s.n, s.k);
    if (s.batch == 1) {
      kernels += matmulKernel(s.m, s.n, s.k, "_cb");
      functions += constantBDispatch(nameOf(s) + "_cb", s.m, s.n, s.k);
    }
  }
  struct Variant {
    const char *label;
    std::string suffix; // of the kernel name
    size_t object;      // index into `objects`
  };
  std::vector<Compiled> objects;
  objects.push_back(compile(executable(kernels, functions)));
  std::vector<Variant> variants{{"host", "", 0},
                                {"host, constant B", "_cb", 0}};
  if (mlir::fuel::isaClass(mlir::fuel::hostCpuTarget()) ==
      mlir::fuel::IsaClass::Avx512) {
    objects.push_back(
        compile(executable(kernels, functions), "x86-64", "+avx2,+fma"));
    variants.push_back({"avx2", "", 1});
  }
  std::vector<std::unique_ptr<Loaded>> loaded;
  for (Compiled &object : objects) {
    ASSERT_FALSE(object.object.empty());
    loaded.push_back(std::make_unique<Loaded>(object.object));
    ASSERT_NE(loaded.back()->handle, nullptr) << dlerror();
  }

  const int rounds = 31;
  for (const Shape &s : shapes) {
    std::string name = nameOf(s);
    size_t aSize = size_t(s.m) * s.k, bSize = size_t(s.k) * s.n,
           cSize = size_t(s.m) * s.n;
    std::vector<float> a = randomVector(aSize * s.batch, 1);
    std::vector<float> b = randomVector(bSize * s.batch, 2);
    std::vector<float> c(cSize * s.batch);
    // Contender 0: OpenBLAS; then one per variant.
    std::vector<std::function<void()>> runs;
    runs.push_back([&] {
      for (int e = 0; e < s.batch; ++e)
        sgemm(101, 111, 111, s.m, s.n, s.k, 1.0f, a.data() + e * aSize, s.k,
              b.data() + e * bSize, s.n, 0.0f, c.data() + e * cSize, s.n);
    });
    std::vector<const Variant *> timed;
    for (const Variant &v : variants) {
      std::string kernel = name + v.suffix;
      fuel_kernel_fn fn = loaded[v.object]->entry(kernel.c_str());
      if (!fn && !v.suffix.empty())
        continue; // no constant-B twin (batch matmul)
      ASSERT_NE(fn, nullptr) << kernel;
      std::array<uint32_t, 3> grid = gridOf(*objects[v.object].module, kernel);
      runs.push_back(
          [&, fn, grid] { runGrid(fn, grid, {a.data(), b.data(), c.data()}); });
      timed.push_back(&v);
    }
    // Calls per sample: ~3 ms of OpenBLAS.
    auto time = [](const std::function<void()> &run, int calls) {
      auto start = std::chrono::steady_clock::now();
      for (int i = 0; i < calls; ++i)
        run();
      std::chrono::duration<double> elapsed =
          std::chrono::steady_clock::now() - start;
      return elapsed.count() / calls;
    };
    for (auto &run : runs)
      run(); // warm up
    int calls = std::max(1, int(3e-3 / time(runs[0], 1)));
    std::vector<std::vector<double>> samples(runs.size());
    for (int round = 0; round < rounds; ++round)
      for (size_t i = 0; i < runs.size(); ++i) {
        size_t who = round % 2 ? runs.size() - 1 - i : i;
        samples[who].push_back(time(runs[who], calls));
      }
    auto best = [](std::vector<double> v) {
      return *std::min_element(v.begin(), v.end());
    };
    auto median = [](std::vector<double> v) {
      std::sort(v.begin(), v.end());
      return v[v.size() / 2];
    };
    double flops = 2.0 * s.batch * s.m * s.n * s.k;
    std::string label =
        (s.batch == 1 ? "" : std::to_string(s.batch) + "x") +
        std::string(llvm::formatv("{0}x{1}x{2}", s.m, s.k, s.n));
    std::printf("%-16s (MxKxN) OpenBLAS %6.1f GFLOP/s (best)", label.c_str(),
                flops / best(samples[0]) * 1e-9);
    for (size_t i = 1; i < runs.size(); ++i)
      std::printf(" | %s: %6.1f GFLOP/s, time/OpenBLAS best %.2f median %.2f",
                  timed[i - 1]->label, flops / best(samples[i]) * 1e-9,
                  best(samples[i]) / best(samples[0]),
                  median(samples[i]) / median(samples[0]));
    std::printf("\n");
  }
  dlclose(blas);
}

TEST(CpuTarget, IsaClassesAndCpuinfoFeatures) {
  using mlir::fuel::CpuTargetSpec;
  using mlir::fuel::IsaClass;
  const std::string triple = "x86_64-unknown-linux-gnu";
  CpuTargetSpec skx{triple, "skylake-avx512", ""};
  CpuTargetSpec zen{triple, "znver3", ""};
  CpuTargetSpec base{triple, "x86-64", ""};
  CpuTargetSpec baseAvx2{triple, "x86-64", "+avx2,+fma"};
  EXPECT_EQ(mlir::fuel::isaClass(skx), IsaClass::Avx512);
  EXPECT_EQ(mlir::fuel::isaClass(zen), IsaClass::Avx2);
  EXPECT_EQ(mlir::fuel::isaClass(base), IsaClass::Generic);
  EXPECT_EQ(mlir::fuel::isaClass(baseAvx2), IsaClass::Avx2);
  EXPECT_EQ(mlir::fuel::isaClassName(IsaClass::Avx512), "avx512");

  auto has = [](const std::vector<std::string> &v, const char *name) {
    return std::find(v.begin(), v.end(), name) != v.end();
  };
  std::vector<std::string> skxFlags = mlir::fuel::cpuinfoFeatures(skx);
  EXPECT_TRUE(has(skxFlags, "avx512f"));
  EXPECT_TRUE(has(skxFlags, "avx512bw"));
  EXPECT_TRUE(has(skxFlags, "avx2"));
  EXPECT_TRUE(has(skxFlags, "fma"));
  EXPECT_TRUE(has(skxFlags, "sse4_2"));
  EXPECT_TRUE(std::is_sorted(skxFlags.begin(), skxFlags.end()));
  std::vector<std::string> zenFlags = mlir::fuel::cpuinfoFeatures(zen);
  EXPECT_TRUE(has(zenFlags, "avx2"));
  EXPECT_FALSE(has(zenFlags, "avx512f"));
  std::vector<std::string> baseFlags = mlir::fuel::cpuinfoFeatures(base);
  EXPECT_TRUE(has(baseFlags, "sse2"));
  EXPECT_FALSE(has(baseFlags, "avx"));
  EXPECT_TRUE(has(mlir::fuel::cpuinfoFeatures(baseAvx2), "avx2"));

  // The host is a valid target of its own class.
  CpuTargetSpec host = mlir::fuel::hostCpuTarget();
  EXPECT_FALSE(host.triple.empty());
  EXPECT_FALSE(host.cpu.empty());
}

using ::fuel::testing::NamedHost;
using ::fuel::testing::namedHosts;

TEST(CpuTarget, HostTargetIsExactlyTheHost) {
  // For each host, by its CPU name and /proc/cpuinfo flags alone: the
  // target keeps the name (for tuning) and needs exactly the flags it lists
  // that the map covers, so the loader on that host accepts it, even where
  // the name implies more (znver4/5 imply lzcnt and sse4a, whose abm and
  // sse4a flags a hypervisor hides).
  std::set<std::string> mapped;
  for (const mlir::fuel::X86FeatureFlag &f : mlir::fuel::x86CpuinfoFlags())
    mapped.insert(f.cpuinfoFlag);
  for (const NamedHost &h : namedHosts()) {
    SCOPED_TRACE(h.cpu);
    mlir::fuel::HostCpu host = mlir::fuel::hostCpuFromCpuinfo(h.cpu, h.flags);
    mlir::fuel::CpuTargetSpec target = mlir::fuel::hostCpuTarget(host);
    EXPECT_EQ(target.cpu, h.cpu);
    EXPECT_EQ(mlir::fuel::isaClass(target), mlir::fuel::IsaClass::Avx512);
    std::vector<std::string> needed = mlir::fuel::cpuinfoFeatures(target);
    std::vector<std::string> expected;
    for (const std::string &flag : h.flags)
      if (mapped.count(flag))
        expected.push_back(flag);
    EXPECT_EQ(needed, expected) << "features: " << target.features;
    // Deterministic for a host.
    EXPECT_EQ(mlir::fuel::hostCpuTarget(host).features, target.features);
  }
  // What the name alone would need, and the fix removes: lzcnt and sse4a.
  mlir::fuel::HostCpu zen5 =
      mlir::fuel::hostCpuFromCpuinfo("znver5", namedHosts()[3].flags);
  std::vector<std::string> byName =
      mlir::fuel::cpuinfoFeatures({zen5.triple, "znver5", ""});
  EXPECT_TRUE(llvm::is_contained(byName, "abm"));
  EXPECT_TRUE(llvm::is_contained(byName, "sse4a"));
  std::string features = mlir::fuel::hostCpuTarget(zen5).features;
  EXPECT_NE(features.find("-lzcnt"), std::string::npos) << features;
  EXPECT_NE(features.find("-sse4a"), std::string::npos) << features;
  // A feature CPUID reports but /proc/cpuinfo does not list is off too.
  for (auto &[name, reported] : zen5.features)
    if (name == "lzcnt")
      reported = true;
  EXPECT_FALSE(llvm::is_contained(
      mlir::fuel::cpuinfoFeatures(mlir::fuel::hostCpuTarget(zen5)), "abm"));
}

TEST(CpuTarget, EveryX86FeatureIsClassified) {
  // LLVM 22's x86 feature table against fuel's: every feature that adds
  // instructions is either mapped to its /proc/cpuinfo flag or listed as
  // having none (then code never uses it); what remains must be one of the
  // tuning, mode and mitigation features below, which add no instruction.
  // A new LLVM feature fails here until it is classified.
  static const char *const kTuningPrefixes[] = {
      "false-deps-",     // false output dependencies of an instruction
      "fast-",           // relative speed of instruction choices
      "slow-",           // relative speed of instruction choices
      "prefer-",         // instruction and vector-width preferences
      "no-bypass-delay", // domain-crossing costs
      "tuning-",         // scheduling costs
      "retpoline",       // Spectre v2 mitigation (code shape only)
      "harden-sls-",     // straight-line speculation mitigation
      "lvi-",            // load value injection mitigation
  };
  static const char *const kTuningFeatures[] = {
      "16bit-mode",
      "32bit-mode",
      "64bit-mode",
      "x32", // code models
      "allow-light-256-bit",
      "branchfusion",
      "macrofusion",
      "ermsb",
      "fsrm",
      "faster-shift-than-shuffle",
      "idivl-to-divb",
      "idivq-to-divl",
      "lea-sp",
      "lea-uses-ag",
      "pad-short-functions",
      "sbb-dep-breaking",
      "use-glm-div-sqrt-costs",
      "use-slm-arith-costs",
      "vzeroupper",
      "branch-hint",          // a prefix older CPUs ignore
      "seses",                // speculation barriers (a mitigation)
      "soft-float",           // an ABI choice
      "tagged-globals",       // an addressing sequence
      "inline-asm-use-gpr32", // inline assembly registers
      "sse-unaligned-mem",    // a mode the OS enables (MXCSR.MM), no opcode
  };
  mlir::fuel::initializeNativeCpuTarget();
  std::string error;
  llvm::Triple triple("x86_64-unknown-linux-gnu");
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  ASSERT_NE(target, nullptr) << error;
  std::unique_ptr<llvm::MCSubtargetInfo> sti(
      target->createMCSubtargetInfo(triple, "x86-64", ""));
  ASSERT_TRUE(sti);
  std::set<std::string> llvmFeatures;
  for (const llvm::SubtargetFeatureKV &kv : sti->getAllProcessorFeatures())
    llvmFeatures.insert(kv.Key);
  ASSERT_GT(llvmFeatures.size(), 150u);

  std::set<std::string> mapped, flagless;
  for (const mlir::fuel::X86FeatureFlag &f : mlir::fuel::x86CpuinfoFlags())
    mapped.insert(f.llvmFeature);
  for (const char *f : mlir::fuel::x86FeaturesWithoutCpuinfoFlag())
    flagless.insert(f);
  for (const std::string &f : mapped) {
    EXPECT_TRUE(llvmFeatures.count(f)) << "mapped '" << f << "' is no LLVM "
                                       << "feature";
    EXPECT_FALSE(flagless.count(f)) << f << " is in both lists";
  }
  for (const std::string &f : flagless)
    EXPECT_TRUE(llvmFeatures.count(f)) << "listed '" << f << "' is no LLVM "
                                       << "feature";
  for (const std::string &f : llvmFeatures) {
    if (mapped.count(f) || flagless.count(f))
      continue;
    bool tuning = llvm::is_contained(kTuningFeatures, StringRef(f)) ||
                  llvm::any_of(kTuningPrefixes, [&](const char *p) {
                    return StringRef(f).starts_with(p);
                  });
    EXPECT_TRUE(tuning) << "LLVM x86 feature '" << f
                        << "' is neither mapped to a /proc/cpuinfo flag, "
                           "listed as having none, nor tuning-only";
  }
}

namespace {
/// The disassembly of `object` by llvm-objdump, or "" (a test failure).
std::string disassemble(const std::vector<uint8_t> &object) {
  llvm::SmallString<128> path;
  if (llvm::sys::fs::createTemporaryFile("fuel-ctlz", "so", path)) {
    ADD_FAILURE() << "no temporary file";
    return "";
  }
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    os.write(reinterpret_cast<const char *>(object.data()), object.size());
  }
  llvm::SmallString<128> out = path;
  out += ".txt";
  std::optional<llvm::StringRef> redirects[] = {
      std::nullopt, llvm::StringRef(out), std::nullopt};
  int rc = llvm::sys::ExecuteAndWait(FUEL_LLVM_OBJDUMP,
                                     {FUEL_LLVM_OBJDUMP, "-d", path.str()},
                                     std::nullopt, redirects);
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> text =
      llvm::MemoryBuffer::getFile(out);
  llvm::sys::fs::remove(path);
  llvm::sys::fs::remove(out);
  if (rc != 0 || !text) {
    ADD_FAILURE() << FUEL_LLVM_OBJDUMP << " failed (" << rc << ")";
    return "";
  }
  return (*text)->getBuffer().str();
}
} // namespace

TEST_F(CpuCodegen, LzcntOnlyWhereTheHostListsAbm) {
  // math.ctlz on i32, lowered to the LLVM dialect and compiled for the host
  // through the object step: for a znver5 host whose /proc/cpuinfo lists
  // abm the object holds lzcnt and the executable needs abm; hidden (as a
  // hypervisor may), neither.
  const char *source = R"mlir(
    func.func @count(%x: i32) -> i32 {
      %r = math.ctlz %x : i32
      return %r : i32
    }
  )mlir";
  std::vector<std::string> flags = namedHosts()[3].flags;
  for (bool abm : {true, false}) {
    SCOPED_TRACE(abm ? "with abm" : "without abm");
    std::vector<std::string> hostFlags = flags;
    if (abm)
      hostFlags.push_back("abm");
    mlir::fuel::ScopedHostCpu fake(
        mlir::fuel::hostCpuFromCpuinfo("znver5", hostFlags));
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(source, &context);
    ASSERT_TRUE(module);
    PassManager pm(&context);
    pm.addPass(createConvertMathToLLVMPass());
    pm.addPass(createConvertFuncToLLVMPass());
    pm.addPass(createReconcileUnrealizedCastsPass());
    ASSERT_TRUE(succeeded(pm.run(*module)));
    FailureOr<mlir::fuel::CpuTargetSpec> target =
        mlir::fuel::resolveCpuTarget(*module);
    ASSERT_TRUE(succeeded(target));
    EXPECT_EQ(target->cpu, "znver5");
    FailureOr<std::vector<uint8_t>> object =
        mlir::fuel::emitCpuSharedObject(*module, *target);
    ASSERT_TRUE(succeeded(object));
    std::string text = disassemble(*object);
    ASSERT_NE(text.find("<count>:"), std::string::npos) << text;
    EXPECT_EQ(text.find("lzcnt") != std::string::npos, abm) << text;
    EXPECT_EQ(llvm::is_contained(mlir::fuel::cpuinfoFeatures(*target), "abm"),
              abm);
  }
}
