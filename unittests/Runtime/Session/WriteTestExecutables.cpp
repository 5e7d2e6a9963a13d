//===- WriteTestExecutables.cpp - Writes the executables of tool tests ----===//
//
// `FuelRtWriteTestExecutables DIR` writes the executables of TestPrograms.h
// into DIR (created if needed), for the C API's C test and the fuel-run
// tests: vadd.fuel (c = a + b, 1000 f32, then a copy), chain.fuel
// (c = (a + b) + a, 512 f32) and needs-vulkan.fuel (vadd plus a vulkan:31
// device this host lacks), copy-i32.fuel (y = x, 2x3xi32) and copy-f64.fuel
// (y = x, 5xf64), and on cpu + cuda:0 mixed-cuda.fuel (a PTX vadd) and
// cublas-cuda.fuel (a cuBLAS sgemm).
//
//===----------------------------------------------------------------------===//

#include "TestPrograms.h"

#include <cstdio>
#include <filesystem>
#include <fstream>

using namespace fuel::rt;
using namespace fuel::rt::test;

static bool write(const std::string &path, const ExecutableWriter &w) {
  StatusOr<std::vector<uint8_t>> bytes = w.finish();
  if (!bytes) {
    std::fprintf(stderr, "%s: %s\n", path.c_str(),
                 bytes.status().toString().c_str());
    return false;
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char *>(bytes->data()),
            static_cast<std::streamsize>(bytes->size()));
  out.close();
  if (!out) {
    std::fprintf(stderr, "%s: cannot write\n", path.c_str());
    return false;
  }
  return true;
}

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
  if (testKernelModule().empty()) {
    std::fprintf(stderr, "cannot read %s\n", FUEL_TEST_KERNELS_PATH);
    return 1;
  }
  ExecutableWriter vadd, chain, vulkan, copyI32, copyF64, twoAdds;
  buildTwoAdds(twoAdds, 4096, 512);
  buildCopy(copyI32, ElementType::I32, {2, 3});
  buildCopy(copyF64, ElementType::F64, {5});
  buildVectorAdd(vadd, 1000, 256);
  buildChain(chain, 512, 64);
  buildVectorAdd(vulkan, 16, 16);
  vulkan.addDevice(::fuel::Device::vulkan(31), 1024);
  bool ok = write(dir + "/vadd.fuel", vadd) &&
            write(dir + "/chain.fuel", chain) &&
            write(dir + "/needs-vulkan.fuel", vulkan) &&
            write(dir + "/copy-i32.fuel", copyI32) &&
            write(dir + "/copy-f64.fuel", copyF64) &&
            write(dir + "/two-adds.fuel", twoAdds);
  // With the SPIR-V kernel (spirv-as at build time): mixed-vulkan.fuel, cpu
  // and vulkan:0 with copies both ways (buildVulkanMixed, 1009 f32, lead 5).
  std::ifstream spv(FUEL_TEST_SPIRV_VADD, std::ios::binary);
  std::vector<uint8_t> spirv(std::istreambuf_iterator<char>(spv), {});
  if (ok && !spirv.empty()) {
    ExecutableWriter mixed;
    buildVulkanMixed(mixed, spirv, 1009, 5);
    ok = write(dir + "/mixed-vulkan.fuel", mixed);
  }
  // cpu + cuda:0: mixed-cuda.fuel and mixed-cuda-tiny.fuel (buildCudaMixed,
  // 1000 and 64 f32, the PTX vadd)
  // and cublas-cuda.fuel (buildCudaGemm, 37x19 = 37x23 * 23x19).
  std::ifstream ptxFile(FUEL_TEST_PTX_PATH, std::ios::binary);
  std::vector<uint8_t> ptx(std::istreambuf_iterator<char>(ptxFile), {});
  if (ok && ptx.empty()) {
    std::fprintf(stderr, "cannot read %s\n", FUEL_TEST_PTX_PATH);
    ok = false;
  }
  if (ok) {
    ExecutableWriter mixed, tiny, gemm;
    buildCudaMixed(mixed, ptx, 1000);
    buildCudaMixed(tiny, ptx, 64);
    buildCudaGemm(gemm, 37, 19, 23);
    ok = write(dir + "/mixed-cuda.fuel", mixed) &&
         write(dir + "/mixed-cuda-tiny.fuel", tiny) &&
         write(dir + "/cublas-cuda.fuel", gemm);
  }
  return ok ? 0 : 1;
}
