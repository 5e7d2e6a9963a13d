//===- ProbeTest.cpp - Tests of the FuelProbe library ---------------------===//
//
// These tests pass on any machine: with or without a GPU, a CUDA driver or a
// Vulkan loader. They check the shape of the result (one cpu device first,
// dense ordinals, determinism), that missing or wrong driver libraries give
// notes instead of devices, and the pure helpers on fixed inputs.
//
//===----------------------------------------------------------------------===//

#include "fuel/Probe/Probe.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <map>
#include <optional>
#include <string>

using namespace fuel::probe;

namespace {

/// A library name that no machine has.
constexpr const char *kMissingLibrary = "libfuel-probe-no-such-library.so.1";

/// A library every Linux machine has, and that is neither a CUDA driver nor a
/// Vulkan loader.
constexpr const char *kWrongLibrary = "libc.so.6";

bool anyNoteContains(const ProbeResult &result, const std::string &text) {
  for (const std::string &note : result.notes)
    if (note.find(text) != std::string::npos)
      return true;
  return false;
}

// Tests that the host is always reported once, first, with usable figures.
TEST(ProbeAllTest, HostCpuIsFirstAndUnique) {
  ProbeResult result = probeAll();
  ASSERT_FALSE(result.devices.empty());
  const ProbedDevice &cpu = result.devices.front();
  EXPECT_EQ(cpu.kind, Kind::Cpu);
  EXPECT_EQ(cpu.ordinal, 0u);
  EXPECT_TRUE(cpu.cpuType);
  EXPECT_GE(cpu.cores, 1u);
  EXPECT_GE(cpu.physicalCores, 1u);
  EXPECT_LE(cpu.physicalCores, cpu.cores);
  EXPECT_FALSE(cpu.name.empty());
  EXPECT_GT(cpu.memoryBytes, 0u);
  EXPECT_TRUE(cpu.vectorBits == 0 || cpu.vectorBits == 128 ||
              cpu.vectorBits == 256 || cpu.vectorBits == 512)
      << cpu.vectorBits;
  EXPECT_GE(cpu.peakF32FlopsPerNs, 0.0);
  EXPECT_EQ(cpu.label(), "cpu");
  size_t cpus = 0;
  for (const ProbedDevice &device : result.devices)
    cpus += device.kind == Kind::Cpu;
  EXPECT_EQ(cpus, 1u);
}

// Tests that kinds come in the order cpu, cuda, vulkan and that each kind's
// ordinals are 0, 1, 2, ... in that order.
TEST(ProbeAllTest, KindsOrderedAndOrdinalsDense) {
  ProbeResult result = probeAll();
  std::map<Kind, uint32_t> next;
  for (size_t i = 0; i < result.devices.size(); ++i) {
    const ProbedDevice &device = result.devices[i];
    // Braces: g++ -Wall reads the macro's inner if-else as a dangling else.
    if (i > 0) {
      EXPECT_LE(static_cast<int>(result.devices[i - 1].kind),
                static_cast<int>(device.kind));
    }
    EXPECT_EQ(device.ordinal, next[device.kind]++) << device.describe();
    EXPECT_FALSE(device.name.empty());
  }
}

// Tests that probing twice gives the same devices and notes.
TEST(ProbeAllTest, Deterministic) {
  ProbeResult first = probeAll();
  ProbeResult second = probeAll();
  EXPECT_EQ(first, second);
  EXPECT_EQ(probeCpu(), probeCpu());
  EXPECT_EQ(probeCuda(), probeCuda());
  EXPECT_EQ(probeVulkan(), probeVulkan());
}

// Tests that probeAll passes its options on: disabled backends and missing
// libraries leave only the host.
TEST(ProbeAllTest, OptionsSelectBackends) {
  ProbeOptions off;
  off.cuda = false;
  off.vulkan = false;
  ProbeResult result = probeAll(off);
  ASSERT_EQ(result.devices.size(), 1u);
  EXPECT_EQ(result.devices[0].kind, Kind::Cpu);
  EXPECT_TRUE(anyNoteContains(result, "cuda: not probed"));
  EXPECT_TRUE(anyNoteContains(result, "vulkan: not probed"));

  ProbeOptions missing;
  missing.cudaLibrary = kMissingLibrary;
  missing.vulkanLibrary = kMissingLibrary;
  result = probeAll(missing);
  ASSERT_EQ(result.devices.size(), 1u);
  EXPECT_TRUE(anyNoteContains(result, "cuda: no CUDA driver"));
  EXPECT_TRUE(anyNoteContains(result, "vulkan: no Vulkan loader"));
}

// Tests that a missing CUDA driver is a note, not an error or a device.
TEST(ProbeCudaTest, MissingDriverGivesNote) {
  ProbeResult result = probeCuda(kMissingLibrary);
  EXPECT_TRUE(result.devices.empty());
  ASSERT_EQ(result.notes.size(), 1u);
  EXPECT_NE(result.notes[0].find("cuda: no CUDA driver"), std::string::npos)
      << result.notes[0];
  EXPECT_NE(result.notes[0].find(kMissingLibrary), std::string::npos)
      << result.notes[0];
}

// Tests that a library without the driver API is rejected before any call.
TEST(ProbeCudaTest, WrongLibraryGivesNote) {
  ProbeResult result = probeCuda(kWrongLibrary);
  EXPECT_TRUE(result.devices.empty());
  EXPECT_TRUE(anyNoteContains(result, "not a CUDA driver")) << result.notes[0];
}

// Tests that no library name at all is handled.
TEST(ProbeCudaTest, EmptyNameGivesNote) {
  EXPECT_TRUE(probeCuda(nullptr).devices.empty());
  EXPECT_EQ(probeCuda("").notes.size(), 1u);
}

// Tests that devices found by the real driver, if any, are well formed.
TEST(ProbeCudaTest, DevicesWellFormed) {
  ProbeResult result = probeCuda();
  EXPECT_TRUE(!result.devices.empty() || !result.notes.empty());
  for (const ProbedDevice &device : result.devices) {
    EXPECT_EQ(device.kind, Kind::Cuda);
    EXPECT_FALSE(device.cpuType);
    EXPECT_EQ(device.vendorId, 0x10deu);
    EXPECT_GE(device.computeMajor, 1) << device.describe();
  }
}

// Tests that a missing Vulkan loader is a note, not an error or a device.
TEST(ProbeVulkanTest, MissingLoaderGivesNote) {
  ProbeResult result = probeVulkan(kMissingLibrary);
  EXPECT_TRUE(result.devices.empty());
  ASSERT_EQ(result.notes.size(), 1u);
  EXPECT_NE(result.notes[0].find("vulkan: no Vulkan loader"), std::string::npos)
      << result.notes[0];
}

// Tests that a library without vkGetInstanceProcAddr is rejected.
TEST(ProbeVulkanTest, WrongLibraryGivesNote) {
  ProbeResult result = probeVulkan(kWrongLibrary);
  EXPECT_TRUE(result.devices.empty());
  EXPECT_TRUE(anyNoteContains(result, "not a Vulkan loader"));
  EXPECT_TRUE(probeVulkan("").devices.empty());
}

/// Sets an environment variable for one scope and restores it afterwards.
class ScopedEnv {
public:
  ScopedEnv(const char *name, const char *value) : name(name) {
    if (const char *old = std::getenv(name))
      saved = old;
    setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (saved)
      setenv(name, saved->c_str(), 1);
    else
      unsetenv(name);
  }

private:
  const char *name;
  std::optional<std::string> saved;
};

// Tests that a loader with no driver behind it gives no device and a note.
// The loader reads VK_ICD_FILENAMES when the instance is created.
TEST(ProbeVulkanTest, LoaderWithoutDriverGivesNote) {
  ScopedEnv icds("VK_ICD_FILENAMES", "/nonexistent/fuel-probe-icd.json");
  ScopedEnv drivers("VK_DRIVER_FILES", "/nonexistent/fuel-probe-icd.json");
  ProbeResult result = probeVulkan();
  EXPECT_TRUE(result.devices.empty());
  EXPECT_EQ(result.notes.size(), 1u);
}

// Tests that Vulkan devices, if any, are well formed, and that lavapipe is a
// CPU-type device running on the host's cores.
TEST(ProbeVulkanTest, CpuTypeDevicesReported) {
  ProbeResult result = probeVulkan();
  EXPECT_TRUE(!result.devices.empty() || !result.notes.empty());
  uint32_t hostCores = probeCpu().devices.front().cores;
  for (const ProbedDevice &device : result.devices) {
    EXPECT_EQ(device.kind, Kind::Vulkan);
    if (device.name.rfind("llvmpipe", 0) == 0) {
      EXPECT_TRUE(device.cpuType) << device.describe();
      EXPECT_TRUE(device.vectorBits == 128 || device.vectorBits == 256 ||
                  device.vectorBits == 512)
          << device.describe();
    }
    if (device.cpuType) {
      EXPECT_EQ(device.cores, hostCores) << device.describe();
    }
  }
}

// Tests the /proc/cpuinfo parser on an x86 excerpt with two processors.
TEST(CpuInfoTest, ParsesX86) {
  const char *text = "processor\t: 0\n"
                     "vendor_id\t: GenuineIntel\n"
                     "model name\t: Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz\n"
                     "cpu MHz\t\t: 3100.042\n"
                     "siblings\t: 40\n"
                     "cpu cores\t: 20\n"
                     "flags\t\t: fpu sse sse2 avx fma avx2 avx512f\n"
                     "\n"
                     "processor\t: 1\n"
                     "model name\t: something else\n"
                     "cpu MHz\t\t: 1000.000\n"
                     "flags\t\t: fpu\n";
  CpuInfoText info = parseCpuInfo(text);
  EXPECT_EQ(info.processors, 2u);
  EXPECT_EQ(info.vendor, "GenuineIntel");
  EXPECT_EQ(info.modelName, "Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz");
  EXPECT_DOUBLE_EQ(info.mhz, 3100.042);
  EXPECT_EQ(info.siblings, 40u);
  EXPECT_EQ(info.cpuCores, 20u);
  ASSERT_EQ(info.flags.size(), 7u);
  EXPECT_EQ(info.flags.back(), "avx512f");
  EXPECT_EQ(vectorBitsFromFlags(info.flags), 512u);
  EXPECT_DOUBLE_EQ(clockFromModelName(info.modelName), 2.5);
}

// Tests the parser on an arm64 excerpt and on empty or malformed text.
TEST(CpuInfoTest, ParsesArmAndGarbage) {
  CpuInfoText arm = parseCpuInfo("processor : 0\nBogoMIPS : 50.00\n"
                                 "Features : fp asimd evtstrm aes\n"
                                 "CPU implementer : 0x41\n");
  EXPECT_EQ(arm.processors, 1u);
  EXPECT_EQ(vectorBitsFromFlags(arm.flags), 128u);
  EXPECT_TRUE(arm.modelName.empty());

  CpuInfoText empty = parseCpuInfo("");
  EXPECT_EQ(empty.processors, 0u);
  EXPECT_TRUE(empty.flags.empty());
  CpuInfoText junk = parseCpuInfo("no colon here\n:\ncpu MHz : fast\n:::\n");
  EXPECT_EQ(junk.mhz, 0.0);
}

// Tests the cpu target the probe records: the x86-64 baseline plus the
// features the code generator cares about, in a fixed order; nothing for a
// CPU that is not x86.
TEST(CpuInfoTest, CpuTargetFromFlags) {
  std::vector<std::string> flags = {
      "fpu",  "sse2",    "avx512vl", "fma",      "sse4_2",   "avx",     "avx2",
      "bmi2", "avx512f", "f16c",     "avx512bw", "avx512dq", "avx512cd"};
  EXPECT_EQ(cpuTargetCpuFromFlags(flags), "x86-64");
  EXPECT_EQ(cpuTargetFeaturesFromFlags(flags),
            "+sse4.2,+avx,+avx2,+fma,+f16c,+bmi2,+avx512f,+avx512bw,"
            "+avx512vl,+avx512dq");
  EXPECT_EQ(cpuTargetFeaturesFromFlags({"sse2", "avx"}), "+avx");
  EXPECT_EQ(cpuTargetFeaturesFromFlags({"sse2"}), "");
  EXPECT_EQ(cpuTargetCpuFromFlags({"fp", "asimd"}), "");
  EXPECT_EQ(cpuTargetCpuFromFlags({}), "");
}

// Tests the widest-width rule of the flag fallback.
TEST(CpuInfoTest, VectorBitsFromFlags) {
  EXPECT_EQ(vectorBitsFromFlags({}), 0u);
  EXPECT_EQ(vectorBitsFromFlags({"fpu", "sse2"}), 128u);
  EXPECT_EQ(vectorBitsFromFlags({"sse2", "avx"}), 256u);
  EXPECT_EQ(vectorBitsFromFlags({"avx2", "sse2"}), 256u);
  EXPECT_EQ(vectorBitsFromFlags({"avx512f", "avx2"}), 512u);
  EXPECT_EQ(vectorBitsFromFlags({"avx512"}), 0u);
}

// Tests reading the nominal clock from model names.
TEST(CpuInfoTest, ClockFromModelName) {
  EXPECT_DOUBLE_EQ(
      clockFromModelName("Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz"), 3.2);
  EXPECT_DOUBLE_EQ(clockFromModelName("Some CPU @ 800MHz"), 0.8);
  EXPECT_EQ(clockFromModelName("AMD EPYC 9654 96-Core Processor"), 0.0);
  EXPECT_EQ(clockFromModelName("odd @ "), 0.0);
  EXPECT_EQ(clockFromModelName("odd @ 3.2"), 0.0);
}

// Tests the conservative CPU peak: one vector FMA per physical core per cycle.
TEST(PeakTest, CpuFormula) {
  // 2 cores * 2.5 GHz * 8 lanes * 2 flops.
  EXPECT_DOUBLE_EQ(cpuPeakF32FlopsPerNs(2, 2.5, 256, true), 80.0);
  EXPECT_DOUBLE_EQ(cpuPeakF32FlopsPerNs(2, 2.5, 256, false), 40.0);
  EXPECT_DOUBLE_EQ(cpuPeakF32FlopsPerNs(1, 1.0, 512, true), 32.0);
  EXPECT_EQ(cpuPeakF32FlopsPerNs(0, 2.5, 256, true), 0.0);
  EXPECT_EQ(cpuPeakF32FlopsPerNs(2, 0.0, 256, true), 0.0);
  EXPECT_EQ(cpuPeakF32FlopsPerNs(2, 2.5, 0, true), 0.0);
}

// Tests the FP32-lanes table for a few architectures.
TEST(PeakTest, CudaLanesPerSM) {
  EXPECT_EQ(cudaF32LanesPerSM(9, 0), 128u); // Hopper
  EXPECT_EQ(cudaF32LanesPerSM(8, 0), 64u);  // A100
  EXPECT_EQ(cudaF32LanesPerSM(8, 6), 128u); // Ampere consumer
  EXPECT_EQ(cudaF32LanesPerSM(7, 0), 64u);  // Volta
  EXPECT_EQ(cudaF32LanesPerSM(2, 0), 0u);   // unknown to the table
}

// Tests labels and one-line descriptions.
TEST(DescribeTest, LabelsAndLines) {
  ProbedDevice gpu;
  gpu.kind = Kind::Cuda;
  gpu.ordinal = 1;
  gpu.name = "NVIDIA H200";
  gpu.cores = 132;
  gpu.computeMajor = 9;
  gpu.vendorId = 0x10de;
  gpu.deviceId = 0x2335;
  EXPECT_EQ(gpu.label(), "cuda:1");
  EXPECT_EQ(gpu.describe(),
            "cuda:1 \"NVIDIA H200\", sm_90, 132 SMs, id 10de:2335");
  ProbedDevice vk;
  vk.kind = Kind::Vulkan;
  vk.name = "llvmpipe";
  vk.cpuType = true;
  EXPECT_EQ(vk.describe(), "vulkan:0 \"llvmpipe\", cpu-type");
  EXPECT_STREQ(kindName(Kind::Cpu), "cpu");
  EXPECT_NE(gpu, vk);
}

} // namespace
