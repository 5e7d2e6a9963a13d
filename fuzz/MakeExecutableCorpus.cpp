//===- MakeExecutableCorpus.cpp - Seed corpus for the loader fuzzer -------===//
//
// Writes valid executables made with ExecutableWriter into a directory, as
// the seed corpus of fuel-fuzz-executable-loader: an empty program, a
// CPU-only one and one with a Vulkan device, a copy and a library kernel.
// Each is written twice, the second with a trailing odd byte so that the
// fuzzer's resealing mode starts from valid files too.
//
// Usage: fuel-fuzz-make-corpus DIR
//
//===----------------------------------------------------------------------===//

#include "fuel/Runtime/ExecutableWriter.h"

#include "../unittests/Runtime/SpirVTestModule.h"

#include <cstdio>
#include <string>

using namespace fuel;
using namespace fuel::rt;

namespace {

std::vector<uint8_t> bytesOf(size_t n, uint8_t seed) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = static_cast<uint8_t>(seed + 13 * i);
  return v;
}

bool writeFile(const std::string &path, const std::vector<uint8_t> &bytes) {
  FILE *f = std::fopen(path.c_str(), "wb");
  if (!f)
    return false;
  bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  return std::fclose(f) == 0 && ok;
}

void cpuProgram(ExecutableWriter &w) {
  static const std::vector<uint8_t> elf = bytesOf(200, 1);
  static const std::vector<uint8_t> weights = bytesOf(96, 2);
  w.setFuelVersion("fuel corpus");
  w.setFunction("f");
  w.setCpuTarget({"x86_64-unknown-linux-gnu", "x86-64-v3", {"avx2", "fma"}});
  uint32_t cpu = w.addDevice(Device::cpu(), 4096);
  w.addModule(cpu, ModuleFormat::ElfSharedObject, {{"k0", 64, {}, {}}},
              {elf.data(), elf.size()});
  uint32_t c = w.addConstant("w", {weights.data(), weights.size()});
  w.addInput("x", ElementType::F32, {4, 6}, cpu);
  w.addOutput("y", ElementType::F32, {4, 6}, cpu);
  BufferSpec wb;
  wb.kind = BufferKind::Constant;
  wb.device = cpu;
  wb.size = weights.size();
  wb.index = c;
  uint32_t wbuf = w.addBuffer(wb);
  uint32_t t = w.addArenaBuffer(cpu, 96, 0);
  Dispatch d;
  d.grid = {2, 1, 1};
  d.bindings = {{0, 0, 96}, {wbuf, 0, 96}, {t, 0, 96}};
  d.pushConstants = {4, 6};
  uint32_t c0 = w.addDispatch(
      d, {}, {1, "matmul", "cpu.generated.mm", "generated", 1, 100});
  w.addCopy({t, 0, 1, 0, 96}, {c0}, {-1, "copy", "", "copy", 0, 10});
}

void mixedProgram(ExecutableWriter &w) {
  cpuProgram(w);
  // A SPIR-V module whose entry points the loader reads (seeding the fuzzer
  // with the SPIR-V word reader's paths).
  static const std::vector<uint8_t> spirv =
      fuel::rt::test::spirvModule({"other", "main"});
  uint32_t gpu = w.addDevice(Device::vulkan(0), 1024, 256);
  w.addModule(gpu, ModuleFormat::SpirV,
              {{"main", 0, {64, 1, 1}, {{0, 0}, {0, 1}}}},
              {spirv.data(), spirv.size()});
  uint32_t g0 = w.addArenaBuffer(gpu, 96, 0, 256);
  uint32_t g1 = w.addArenaBuffer(gpu, 96, 256, 256);
  uint32_t c = w.addCopy({3, 0, g0, 0, 96}, {0});
  Dispatch d;
  d.module = 1;
  d.grid = {1, 1, 1};
  d.bindings = {{g0, 0, 96}, {g1, 0, 96}};
  uint32_t c2 = w.addDispatch(d, {c});
  LibraryKernel lib{0,
                    "cpu.openblas.matmul_f32",
                    "libfuel-shim-openblas.so",
                    "fuel_shim_sgemm",
                    {4, 6, 6},
                    0};
  w.addLibraryKernel(lib);
  Dispatch l;
  l.source = KernelSource::Library;
  l.bindings = {{1, 0, 96}};
  w.addDispatch(l, {c2});
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  std::string dir = argv[1];
  ExecutableWriter empty, cpu, mixed;
  cpuProgram(cpu);
  mixedProgram(mixed);
  const std::pair<const char *, ExecutableWriter *> seeds[] = {
      {"empty", &empty}, {"cpu", &cpu}, {"mixed", &mixed}};
  for (const auto &[name, writer] : seeds) {
    auto bytes = writer->finish();
    if (!bytes.isOk()) {
      std::fprintf(stderr, "%s: %s\n", name, bytes.status().toString().c_str());
      return 1;
    }
    std::vector<uint8_t> resealing = *bytes;
    resealing.push_back(1);
    if (!writeFile(dir + "/" + name + ".fuelx", *bytes) ||
        !writeFile(dir + "/" + name + "-reseal.fuelx", resealing)) {
      std::fprintf(stderr, "cannot write into %s\n", dir.c_str());
      return 1;
    }
  }
  return 0;
}
