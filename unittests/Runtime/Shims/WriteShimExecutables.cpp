//===- WriteShimExecutables.cpp - Executables of the shims' fuel-run test -===//
//
// `FuelRtWriteShimExecutables DIR` writes, per library (openblas, blis), the
// executables fuel_run_shims_test.py runs with fuel-run, whose libfuelrt.so
// finds the shims beside itself:
//   matmul-<lib>.fuel     c (37x53) = a (37x29) * b (29x53), rows of 8;
//   matmul-tb-<lib>.fuel  c (37x53) = a (37x29) * b^T, b stored 53x29;
//   bmm-<lib>.fuel        c (3x17x19) = a (3x17x23) * b (3x23x19);
//   large-<lib>.fuel      c (64x1024) = a (64x784) * b (784x1024), rows of
//                         16 (the MLP's first layer), predicted long enough
//                         that its workgroups run on every thread.
// Each is one library-kernel dispatch writing its output directly.
//
//===----------------------------------------------------------------------===//

#include "fuel/Runtime/ExecutableWriter.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace fuel::rt;

namespace {

/// One dispatch of `entry` over inputs a, b and output c of these shapes.
bool write(const std::string &path, const std::string &lib, bool batched,
           std::vector<int64_t> aShape, std::vector<int64_t> bShape,
           std::vector<int64_t> cShape, std::vector<int64_t> params,
           uint32_t gridX, uint64_t predictedNs = 10000) {
  ExecutableWriter w;
  w.setFuelVersion("fuel test");
  w.setFunction(batched ? "bmm" : "matmul");
  uint32_t cpu = w.addDevice(::fuel::Device::cpu(), 64);
  auto elements = [](const std::vector<int64_t> &s) {
    int64_t n = 1;
    for (int64_t d : s)
      n *= d;
    return uint64_t(n);
  };
  const Program &p = w.program();
  uint32_t a = p.inputs[w.addInput("a", ElementType::F32, aShape, cpu)].buffer;
  uint32_t b = p.inputs[w.addInput("b", ElementType::F32, bShape, cpu)].buffer;
  uint32_t c =
      p.outputs[w.addOutput("c", ElementType::F32, cShape, cpu)].buffer;
  std::string op = batched ? "batch_matmul" : "matmul";
  LibraryKernel lk;
  lk.device = cpu;
  lk.kernelId = "cpu." + lib + "." + op + "_f32";
  lk.shim = "libfuel-shim-" + lib + ".so";
  lk.entry = "fuel_shim_" + lib + "_sgemm" + (batched ? "_batched" : "");
  lk.params = std::move(params);
  Dispatch d;
  d.source = KernelSource::Library;
  d.kernel = w.addLibraryKernel(lk);
  d.grid = {gridX, 1, 1};
  d.bindings = {{a, 0, elements(aShape) * 4},
                {b, 0, elements(bShape) * 4},
                {c, 0, elements(cShape) * 4}};
  CommandReport r;
  r.nodeId = 0;
  r.opKind = op;
  r.kernelId = lk.kernelId;
  r.source = lib;
  r.predictedNs = predictedNs;
  w.addDispatch(d, {}, r);
  StatusOr<std::vector<uint8_t>> bytes = w.finish();
  if (!bytes) {
    std::fprintf(stderr, "%s: %s\n", path.c_str(),
                 bytes.status().toString().c_str());
    return false;
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char *>(bytes->data()),
            static_cast<std::streamsize>(bytes->size()));
  return bool(out);
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  std::string dir = argv[1];
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    std::fprintf(stderr, "%s: %s\n", dir.c_str(), ec.message().c_str());
    return 1;
  }
  bool ok = true;
  for (std::string lib : {"openblas", "blis"}) {
    // M N K lda ldb ldc transA transB rows
    ok &= write(dir + "/matmul-" + lib + ".fuel", lib, false, {37, 29},
                {29, 53}, {37, 53}, {37, 53, 29, 29, 53, 53, 0, 0, 8}, 5);
    ok &= write(dir + "/matmul-tb-" + lib + ".fuel", lib, false, {37, 29},
                {53, 29}, {37, 53}, {37, 53, 29, 29, 29, 53, 0, 1, 8}, 5);
    // batch M N K lda ldb ldc strideA strideB strideC transA transB
    ok &=
        write(dir + "/bmm-" + lib + ".fuel", lib, true, {3, 17, 23},
              {3, 23, 19}, {3, 17, 19},
              {3, 17, 19, 23, 23, 19, 19, 17 * 23, 23 * 19, 17 * 19, 0, 0}, 3);
    ok &= write(dir + "/large-" + lib + ".fuel", lib, false, {64, 784},
                {784, 1024}, {64, 1024},
                {64, 1024, 784, 784, 1024, 1024, 0, 0, 16}, 4,
                /*predictedNs=*/2000000);
  }
  return ok ? 0 : 1;
}
