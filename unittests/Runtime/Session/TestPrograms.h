//===- TestPrograms.h - Executables the session tests run -------*- C++ -*-===//
//
// Small executables written with the writer API around the device tests'
// kernel module (unittests/Runtime/Device/TestKernels.c): a vector add with
// a copy to the output, and a chain of two dependent adds. Shared by the
// session and C API tests and by the program that writes the files the C
// test and the fuel-run tests load.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_UNITTESTS_RUNTIME_SESSION_TESTPROGRAMS_H
#define FUEL_UNITTESTS_RUNTIME_SESSION_TESTPROGRAMS_H

#include "fuel/Runtime/ExecutableWriter.h"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace fuel::rt::test {

/// The bytes of the test kernel module.
inline const std::vector<uint8_t> &testKernelModule() {
  static const std::vector<uint8_t> bytes = [] {
    std::ifstream in(FUEL_TEST_KERNELS_PATH, std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
  }();
  return bytes;
}

inline CommandReport testReport(int64_t node, const char *op,
                                const char *kernel, const char *source,
                                uint64_t ns) {
  CommandReport r;
  r.nodeId = node;
  r.opKind = op;
  r.kernelId = kernel;
  r.source = source;
  r.revision = 0x5eed0000u + static_cast<uint64_t>(node);
  r.predictedNs = ns;
  return r;
}

/// Starts a test program named `function`: one cpu device with an arena of
/// `arenaBytes` (rounded up to 64) and, when `kernels` is not empty, the test
/// kernel module with those entries. Returns the cpu device's index.
inline uint32_t startTestProgram(ExecutableWriter &w, const char *function,
                                 uint64_t arenaBytes,
                                 std::vector<const char *> kernels) {
  w.setFuelVersion("fuel test");
  w.setFunction(function);
  uint32_t cpu =
      w.addDevice(::fuel::Device::cpu(), (arenaBytes + 63) / 64 * 64);
  if (!kernels.empty()) {
    const std::vector<uint8_t> &mod = testKernelModule();
    std::vector<KernelEntry> entries;
    for (const char *k : kernels)
      entries.push_back({k, 0, {}, {}});
    w.addModule(cpu, ModuleFormat::ElfSharedObject, std::move(entries),
                {mod.data(), mod.size()});
  }
  return cpu;
}

/// `c = a + b` over `n` f32 elements: dispatch fuel_test_vadd into an arena
/// slot in blocks of `block`, then copy the slot to the output.
/// Inputs a, b; output c; commands: 0 dispatch, 1 copy (after 0).
inline void buildVectorAdd(ExecutableWriter &w, uint32_t n = 1000,
                           uint32_t block = 256) {
  uint64_t bytes = uint64_t(n) * 4;
  uint32_t cpu = startTestProgram(w, "vadd", bytes, {"fuel_test_vadd"});
  uint32_t a = w.addInput("a", ElementType::F32, {int64_t(n)}, cpu);
  uint32_t b = w.addInput("b", ElementType::F32, {int64_t(n)}, cpu);
  uint32_t c = w.addOutput("c", ElementType::F32, {int64_t(n)}, cpu);
  uint32_t tmp = w.addArenaBuffer(cpu, bytes, 0);
  const Program &p = w.program();
  Dispatch d;
  d.grid = {(n + block - 1) / block, 1, 1};
  d.bindings = {{p.inputs[a].buffer, 0, bytes},
                {p.inputs[b].buffer, 0, bytes},
                {tmp, 0, bytes}};
  d.pushConstants = {n, block};
  w.addDispatch(
      d, {}, testReport(1, "fuel.add", "cpu.gen.vadd_f32", "generated", 2000));
  Copy cp;
  cp.src = tmp;
  cp.dst = p.outputs[c].buffer;
  cp.bytes = bytes;
  w.addCopy(cp, {0}, testReport(2, "fuel.copy", "", "copy", 300));
}

/// `c = (a + b) + a`: dispatch 0 writes t = a + b to the arena, dispatch 1
/// (after 0) writes c = t + a to the output.
inline void buildChain(ExecutableWriter &w, uint32_t n = 512,
                       uint32_t block = 64) {
  uint64_t bytes = uint64_t(n) * 4;
  uint32_t cpu = startTestProgram(w, "chain", bytes, {"fuel_test_vadd"});
  uint32_t a = w.addInput("a", ElementType::F32, {int64_t(n)}, cpu);
  uint32_t b = w.addInput("b", ElementType::F32, {int64_t(n)}, cpu);
  uint32_t c = w.addOutput("c", ElementType::F32, {int64_t(n)}, cpu);
  uint32_t t = w.addArenaBuffer(cpu, bytes, 0);
  const Program &p = w.program();
  uint32_t ab = p.inputs[a].buffer, bb = p.inputs[b].buffer,
           cb = p.outputs[c].buffer;
  Dispatch d0;
  d0.grid = {(n + block - 1) / block, 1, 1};
  d0.bindings = {{ab, 0, bytes}, {bb, 0, bytes}, {t, 0, bytes}};
  d0.pushConstants = {n, block};
  w.addDispatch(
      d0, {}, testReport(1, "fuel.add", "cpu.gen.vadd_f32", "generated", 1000));
  Dispatch d1 = d0;
  d1.bindings = {{t, 0, bytes}, {ab, 0, bytes}, {cb, 0, bytes}};
  w.addDispatch(
      d1, {0},
      testReport(2, "fuel.add", "cpu.gen.vadd_f32", "generated", 1000));
}

/// Four commands for lane tests, on one int32 output `flags` of 4 elements
/// and no inputs: 0 sleeps `sleepUs` and writes flags[0] = 1; 1 (independent
/// of 0) sleeps `sleepUs / 50` and writes flags[1] = 1; 2 (after 0) writes
/// flags[2] = flags[0] + 1; 3 (after 0 and 1) writes flags[3] = flags[0] + 1.
/// With two lanes: 0 and 2 share lane 0; 1 goes to lane 1, and so does 3
/// (lane 0's tail is 2, not 0), which then waits for 0 by fence.
/// Predictions are `sleepUs` in ns (the increments 50 us, above
/// kInlineDispatchNs, so that they may take another lane), so the
/// assignment does not depend on the actual sleep.
inline void buildDiamond(ExecutableWriter &w, uint32_t sleepUs,
                         uint64_t predictedUs = 50000) {
  uint32_t cpu = startTestProgram(w, "diamond", 64,
                                  {"fuel_test_sleep", "fuel_test_increment"});
  uint32_t f = w.addOutput("flags", ElementType::I32, {4}, cpu);
  uint32_t fb = w.program().outputs[f].buffer;
  auto sleep = [&](uint32_t us, uint64_t slot, uint64_t ns, int64_t node,
                   std::vector<uint32_t> deps) {
    Dispatch d;
    d.kernel = 0;
    d.bindings = {{fb, slot * 4, 4}};
    d.pushConstants = {us};
    return w.addDispatch(
        d, std::move(deps),
        testReport(node, "fuel.sleep", "cpu.test.sleep", "generated", ns));
  };
  auto increment = [&](uint64_t slot, int64_t node,
                       std::vector<uint32_t> deps) {
    Dispatch d;
    d.kernel = 1;
    d.bindings = {{fb, 0, 4}, {fb, slot * 4, 4}};
    return w.addDispatch(
        d, std::move(deps),
        testReport(node, "fuel.inc", "cpu.test.increment", "generated", 50000));
  };
  sleep(sleepUs, 0, predictedUs * 1000, 1, {});
  sleep(sleepUs / 50, 1, predictedUs * 1000 / 50, 2, {});
  increment(2, 3, {0});
  increment(3, 4, {0, 1});
}

/// Two independent dispatches of fuel_test_sleep, `sleepUs` each, writing 1
/// to the int32 output `flags` (2 elements).
inline void buildTwoSleeps(ExecutableWriter &w, uint32_t sleepUs) {
  uint32_t cpu = startTestProgram(w, "sleeps", 64, {"fuel_test_sleep"});
  uint32_t f = w.addOutput("flags", ElementType::I32, {2}, cpu);
  uint32_t fb = w.program().outputs[f].buffer;
  for (uint32_t i = 0; i < 2; ++i) {
    Dispatch d;
    d.bindings = {{fb, i * 4u, 4}};
    d.pushConstants = {sleepUs};
    w.addDispatch(d, {},
                  testReport(i + 1, "fuel.sleep", "cpu.test.sleep", "generated",
                             uint64_t(sleepUs) * 1000));
  }
}

/// `c = a + b` and `d = b + a` by two independent fuel_test_vadd dispatches
/// over `n` f32 elements: outputs that must not depend on the lanes.
inline void buildTwoAdds(ExecutableWriter &w, uint32_t n, uint32_t block) {
  uint64_t bytes = uint64_t(n) * 4;
  uint32_t cpu = startTestProgram(w, "adds", 64, {"fuel_test_vadd"});
  uint32_t a = w.addInput("a", ElementType::F32, {int64_t(n)}, cpu);
  uint32_t b = w.addInput("b", ElementType::F32, {int64_t(n)}, cpu);
  uint32_t c = w.addOutput("c", ElementType::F32, {int64_t(n)}, cpu);
  uint32_t o = w.addOutput("d", ElementType::F32, {int64_t(n)}, cpu);
  const Program &p = w.program();
  uint32_t ab = p.inputs[a].buffer, bb = p.inputs[b].buffer;
  uint32_t outs[2] = {p.outputs[c].buffer, p.outputs[o].buffer};
  for (uint32_t i = 0; i < 2; ++i) {
    Dispatch d;
    d.grid = {(n + block - 1) / block, 1, 1};
    d.bindings = {
        {i ? bb : ab, 0, bytes}, {i ? ab : bb, 0, bytes}, {outs[i], 0, bytes}};
    d.pushConstants = {n, block};
    w.addDispatch(
        d, {},
        testReport(i + 1, "fuel.add", "cpu.gen.vadd_f32", "generated", 100000));
  }
}

/// `y = x` for any dtype and shape: one copy from the input to the output,
/// no kernel module.
inline void buildCopy(ExecutableWriter &w, ElementType dtype,
                      std::vector<int64_t> shape) {
  uint32_t cpu = startTestProgram(w, "identity", 64, {});
  uint32_t x = w.addInput("x", dtype, shape, cpu);
  uint32_t y = w.addOutput("y", dtype, shape, cpu);
  const Program &p = w.program();
  Copy cp;
  cp.src = p.inputs[x].buffer;
  cp.dst = p.outputs[y].buffer;
  cp.bytes = p.buffers[cp.src].size;
  w.addCopy(cp, {}, testReport(1, "fuel.copy", "", "copy", 100));
}

/// cpu + vulkan:0 around `spirv`, a module whose entry "fuel_vk_vadd" is
/// Kernels/vadd_offsets.spvasm, over `n` f32 elements:
///   0 copy a (cpu input) -> g (vulkan:0 arena)                 cpu -> vulkan
///   1 d = g + b[lead..] on vulkan:0 (b resident there, d an output there)
///   2 copy d -> t (cpu arena)                                  vulkan -> cpu
///   3 c = t + a on the cpu (fuel_test_vadd)   (a read on both devices)
/// b's binding starts at `lead` elements rounded down to `bindAlign` bytes
/// (by default 256, the largest minStorageBufferOffsetAlignment Vulkan
/// allows, so any device binds it), the remainder passed as the kernel's
/// element offset; the Vulkan arena is aligned to at least 256 bytes.
inline void buildVulkanMixed(ExecutableWriter &w,
                             const std::vector<uint8_t> &spirv, uint32_t n,
                             uint32_t lead, uint64_t bindAlign = 256) {
  uint64_t bytes = uint64_t(n) * 4, leadBytes = uint64_t(lead) * 4;
  uint64_t boundAt = leadBytes / bindAlign * bindAlign;
  uint64_t arenaAlign = std::max<uint64_t>(256, bindAlign);
  uint32_t cpu = startTestProgram(w, "mixed", bytes, {"fuel_test_vadd"});
  uint32_t vk = w.addDevice(::fuel::Device::vulkan(0),
                            (bytes + arenaAlign - 1) / arenaAlign * arenaAlign,
                            arenaAlign);
  w.addModule(vk, ModuleFormat::SpirV,
              {{"fuel_vk_vadd", 0, {64, 1, 1}, {{0, 0}, {0, 1}, {0, 2}}}},
              {spirv.data(), spirv.size()});
  uint32_t a = w.addInput("a", ElementType::F32, {int64_t(n)}, cpu);
  uint32_t b = w.addInput("b", ElementType::F32, {int64_t(n + lead)}, vk);
  uint32_t c = w.addOutput("c", ElementType::F32, {int64_t(n)}, cpu);
  uint32_t d = w.addOutput("d", ElementType::F32, {int64_t(n)}, vk);
  uint32_t t = w.addArenaBuffer(cpu, bytes, 0);
  uint32_t g = w.addArenaBuffer(vk, bytes, 0, arenaAlign);
  const Program &p = w.program();
  uint32_t ab = p.inputs[a].buffer, bb = p.inputs[b].buffer,
           cb = p.outputs[c].buffer, db = p.outputs[d].buffer;
  w.addCopy({ab, 0, g, 0, bytes}, {},
            testReport(1, "fuel.copy", "", "copy", 500));
  Dispatch vadd;
  vadd.module = 1;
  vadd.grid = {(n + 63) / 64, 1, 1};
  vadd.bindings = {{g, 0, bytes},
                   {bb, boundAt, bytes + leadBytes - boundAt},
                   {db, 0, bytes}};
  vadd.pushConstants = {n, 0, uint32_t((leadBytes - boundAt) / 4), 0};
  w.addDispatch(
      vadd, {0},
      testReport(2, "fuel.add", "vulkan.generated.add_f32", "generated", 3000));
  w.addCopy({db, 0, t, 0, bytes}, {1},
            testReport(3, "fuel.copy", "", "copy", 500));
  Dispatch cpuAdd;
  cpuAdd.grid = {(n + 127) / 128, 1, 1};
  cpuAdd.bindings = {{t, 0, bytes}, {ab, 0, bytes}, {cb, 0, bytes}};
  cpuAdd.pushConstants = {n, 128};
  w.addDispatch(
      cpuAdd, {2},
      testReport(4, "fuel.add", "cpu.generated.add_f32", "generated", 2000));
}

/// cpu + cuda:0: `c = a + b` over `n` f32 on cuda:0 with `ptx`'s vadd
/// (unittests/Runtime/Device/cuda/ConformanceKernels.ptx: bindings a, b, c,
/// push n, block; 64 threads), a and b copied from the cpu and c back.
inline void buildCudaMixed(ExecutableWriter &w, const std::vector<uint8_t> &ptx,
                           uint32_t n) {
  const uint32_t block = 256;
  uint64_t bytes = uint64_t(n) * 4, slot = (bytes + 255) / 256 * 256;
  uint32_t cpu = startTestProgram(w, "mixed_cuda", 0, {});
  uint32_t gpu = w.addDevice(::fuel::Device::cuda(0), 3 * slot, 256);
  // The CUDA segment is the PTX text and one NUL (EXECUTABLE-FORMAT.md);
  // the writer copies it.
  std::vector<uint8_t> text(ptx.begin(), ptx.end());
  if (text.empty() || text.back() != 0)
    text.push_back(0);
  w.addModule(gpu, ModuleFormat::Ptx, {{"vadd", 0, {64, 1, 1}, {}}},
              {text.data(), text.size()});
  uint32_t a = w.addInput("a", ElementType::F32, {int64_t(n)}, cpu);
  uint32_t b = w.addInput("b", ElementType::F32, {int64_t(n)}, cpu);
  uint32_t c = w.addOutput("c", ElementType::F32, {int64_t(n)}, cpu);
  uint32_t ga = w.addArenaBuffer(gpu, bytes, 0, 256);
  uint32_t gb = w.addArenaBuffer(gpu, bytes, slot, 256);
  uint32_t gc = w.addArenaBuffer(gpu, bytes, 2 * slot, 256);
  const Program &p = w.program();
  uint32_t ab = p.inputs[a].buffer, bb = p.inputs[b].buffer,
           cb = p.outputs[c].buffer;
  w.addCopy({ab, 0, ga, 0, bytes}, {},
            testReport(1, "fuel.copy", "", "copy", 500));
  w.addCopy({bb, 0, gb, 0, bytes}, {},
            testReport(2, "fuel.copy", "", "copy", 500));
  Dispatch vadd;
  vadd.grid = {(n + block - 1) / block, 1, 1};
  vadd.bindings = {{ga, 0, bytes}, {gb, 0, bytes}, {gc, 0, bytes}};
  vadd.pushConstants = {n, block};
  w.addDispatch(
      vadd, {0, 1},
      testReport(3, "fuel.add", "cuda.generated.add_f32", "generated", 3000));
  w.addCopy({gc, 0, cb, 0, bytes}, {2},
            testReport(4, "fuel.copy", "", "copy", 500));
}

/// cpu + cuda:0: row-major `c = a b` (a: m x k, b: k x n, f32) as the
/// cuBLAS library kernel cuda.cublas.matmul_f32, its operands copied from
/// the cpu and the product back.
inline void buildCudaGemm(ExecutableWriter &w, uint32_t m, uint32_t n,
                          uint32_t k) {
  auto round = [](uint64_t x) { return (x + 255) / 256 * 256; };
  uint64_t aBytes = 4ull * m * k, bBytes = 4ull * k * n, cBytes = 4ull * m * n;
  uint32_t cpu = startTestProgram(w, "cublas_gemm", 0, {});
  uint32_t gpu =
      w.addDevice(::fuel::Device::cuda(0),
                  round(aBytes) + round(bBytes) + round(cBytes), 256);
  LibraryKernel lk;
  lk.device = gpu;
  lk.kernelId = "cuda.cublas.matmul_f32";
  lk.shim = "cublas";
  lk.entry = "fuel_shim_cublas_sgemm";
  lk.params = {m, n, k, k, n, n, 0, 0};
  lk.workspaceBytes = 4 << 20;
  uint32_t lib = w.addLibraryKernel(lk);
  uint32_t a = w.addInput("a", ElementType::F32, {m, k}, cpu);
  uint32_t b = w.addInput("b", ElementType::F32, {k, n}, cpu);
  uint32_t c = w.addOutput("c", ElementType::F32, {m, n}, cpu);
  uint32_t ga = w.addArenaBuffer(gpu, aBytes, 0, 256);
  uint32_t gb = w.addArenaBuffer(gpu, bBytes, round(aBytes), 256);
  uint32_t gc =
      w.addArenaBuffer(gpu, cBytes, round(aBytes) + round(bBytes), 256);
  const Program &p = w.program();
  w.addCopy({p.inputs[a].buffer, 0, ga, 0, aBytes}, {},
            testReport(1, "fuel.copy", "", "copy", 500));
  w.addCopy({p.inputs[b].buffer, 0, gb, 0, bBytes}, {},
            testReport(2, "fuel.copy", "", "copy", 500));
  Dispatch d;
  d.source = KernelSource::Library;
  d.kernel = lib;
  d.grid = {1, 1, 1};
  d.bindings = {{ga, 0, aBytes}, {gb, 0, bBytes}, {gc, 0, cBytes}};
  w.addDispatch(
      d, {0, 1},
      testReport(3, "fuel.matmul", "cuda.cublas.matmul_f32", "library", 4000));
  w.addCopy({gc, 0, p.outputs[c].buffer, 0, cBytes}, {2},
            testReport(4, "fuel.copy", "", "copy", 500));
}

/// The bytes of a finished writer; empty on error.
inline std::vector<uint8_t> finishBytes(const ExecutableWriter &w) {
  StatusOr<std::vector<uint8_t>> bytes = w.finish();
  return bytes ? *bytes : std::vector<uint8_t>();
}

} // namespace fuel::rt::test

#endif // FUEL_UNITTESTS_RUNTIME_SESSION_TESTPROGRAMS_H
