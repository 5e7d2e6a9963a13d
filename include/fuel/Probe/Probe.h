//===- Probe.h - Enumerate the devices of this machine ----------*- C++ -*-===//
//
// A small device-enumeration library shared by the compiler (topology
// probing) and the runtime. It links neither LLVM nor MLIR: only the C++
// standard library, the C library and libdl. GPU drivers are loaded at run
// time with dlopen, so the library builds and runs on machines without them:
// a missing driver yields no devices of that kind and a note, never an error.
//
// The library never prints and does not use exceptions. Every figure it
// cannot find is reported as 0 ("unknown"); see docs/PROBE.md for where each
// figure comes from and how the peak estimates are formed.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_PROBE_PROBE_H
#define FUEL_PROBE_PROBE_H

#include "fuel/Support/Device.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fuel::probe {

/// The backend through which a device is driven: the device kind of
/// fuel/Support/Device.h under the probe's name.
using Kind = ::fuel::DeviceKind;

/// Returns "cpu", "cuda" or "vulkan" (null-terminated).
inline const char *kindName(Kind kind) {
  return ::fuel::stringifyDeviceKind(kind).data();
}

/// A memory heap of a Vulkan device.
struct MemoryHeap {
  uint64_t bytes = 0;
  /// VK_MEMORY_HEAP_DEVICE_LOCAL_BIT.
  bool deviceLocal = false;

  friend bool operator==(const MemoryHeap &a, const MemoryHeap &b) {
    return a.bytes == b.bytes && a.deviceLocal == b.deviceLocal;
  }
};

/// What the Vulkan driver reports of a physical device beyond the common
/// figures: its identity, memory and the limits code generation and the
/// runtime read (docs/PROBE.md). 0 is "unknown" throughout.
struct VulkanProperties {
  /// VkPhysicalDeviceType: 0 other, 1 integrated GPU, 2 discrete GPU, 3
  /// virtual GPU, 4 CPU.
  uint32_t deviceType = 0;
  /// VK_MAKE_API_VERSION-encoded Vulkan version; the driver's own encoding.
  uint32_t apiVersion = 0;
  uint32_t driverVersion = 0;
  /// VkPhysicalDeviceIDProperties::deviceUUID (Vulkan 1.1); all zero when
  /// unknown. The pipeline-cache key uses it.
  uint8_t deviceUuid[16] = {};
  /// The memory heaps in the driver's order.
  std::vector<MemoryHeap> heaps;
  /// True when the device's largest device-local heap has a host-visible
  /// memory type: buffers need no staging copy.
  bool unifiedMemory = false;
  /// VkPhysicalDeviceSubgroupProperties::subgroupSize (Vulkan 1.1).
  uint32_t subgroupSize = 0;
  /// VkPhysicalDeviceLimits: maxComputeSharedMemorySize,
  /// maxComputeWorkGroupInvocations, maxComputeWorkGroupSize,
  /// minStorageBufferOffsetAlignment, maxPushConstantsSize.
  uint64_t sharedMemoryBytes = 0;
  uint32_t maxWorkgroupInvocations = 0;
  uint32_t maxWorkgroupSize[3] = {0, 0, 0};
  uint64_t minStorageBufferOffsetAlignment = 0;
  uint32_t maxPushConstantsBytes = 0;
  /// VkPhysicalDeviceLimits::timestampPeriod: nanoseconds per tick.
  double timestampPeriodNs = 0;
  /// True when a queue family with compute has timestampValidBits > 0.
  bool computeTimestamps = false;

  /// "other", "integrated-gpu", "discrete-gpu", "virtual-gpu", "cpu".
  const char *deviceTypeName() const;
  /// The UUID in the usual 8-4-4-4-12 lower-case hex spelling.
  std::string uuidString() const;

  friend bool operator==(const VulkanProperties &a, const VulkanProperties &b);
};

/// "1.3.230": a VK_MAKE_API_VERSION-encoded version.
std::string formatVulkanVersion(uint32_t version);

/// A driver version as its vendor encodes it: NVIDIA's (0x10de) 10.8.8.6
/// bit fields ("550.54.0"), otherwise VK_MAKE_API_VERSION's, as Mesa uses.
std::string formatDriverVersion(uint32_t vendorId, uint32_t version);

/// One device found on this machine. Figures that could not be determined are
/// 0; they are estimates from the driver's or the OS's description of the
/// device, never measurements.
struct ProbedDevice {
  /// Backend of the device.
  Kind kind = Kind::Cpu;
  /// Position among the devices of the same kind, in enumeration order: the
  /// host CPU is always 0; cuda:N and vulkan:N are dense from 0.
  uint32_t ordinal = 0;
  /// Marketing name, e.g. "AMD EPYC 9654", "NVIDIA H200",
  /// "llvmpipe (LLVM 15.0.6, 256 bits)".
  std::string name;
  /// True when the compute units are CPU cores: the host, or a Vulkan device
  /// of type PHYSICAL_DEVICE_TYPE_CPU such as lavapipe.
  bool cpuType = false;
  /// Logical cores the process may use (cpu and CPU-type Vulkan devices),
  /// streaming multiprocessors (cuda); 0 if unknown.
  uint32_t cores = 0;
  /// Physical cores behind `cores` (SMT siblings counted once), cpu only; 0
  /// if unknown.
  uint32_t physicalCores = 0;
  /// SIMD width in bits (128/256/512) of the host or of a CPU-type Vulkan
  /// device; 0 if unknown.
  uint32_t vectorBits = 0;
  /// The host's code-generation target in LLVM's names (cpu only): the CPU
  /// name ("x86-64", the baseline, on x86; empty elsewhere or when unknown)
  /// and the features the code generator cares about that /proc/cpuinfo
  /// lists (cpuTargetFeaturesFromFlags). docs/PROBE.md.
  std::string targetCpu;
  std::string targetFeatures;
  /// Total memory in bytes (host RAM, device memory, or the device-local
  /// Vulkan heaps); 0 if unknown.
  uint64_t memoryBytes = 0;
  /// Core clock in GHz; 0 if unknown.
  double clockGHz = 0;
  /// Estimated peak single-precision rate in flop per ns (= GFLOP/s); 0 if
  /// unknown. The cpu estimate is deliberately conservative (docs/PROBE.md).
  double peakF32FlopsPerNs = 0;
  /// Estimated peak memory bandwidth in bytes per ns (= GB/s); 0 if unknown.
  double bytesPerNs = 0;
  /// CUDA compute capability; 0.0 for other kinds.
  int computeMajor = 0, computeMinor = 0;
  /// CUDA devices: the driver's CUDA version as cuDriverGetVersion gives it
  /// (1000 * major + 10 * minor, e.g. 12040); 0 when unknown.
  int cudaDriverVersion = 0;
  /// PCI vendor and device ids when known (cuda, vulkan); 0 otherwise.
  uint32_t vendorId = 0, deviceId = 0;
  /// Vulkan devices only: the driver's further description.
  VulkanProperties vulkan;

  /// Returns the device's identity; the host is `cpu` whatever `ordinal`
  /// says.
  ::fuel::Device device() const {
    return kind == Kind::Cpu ? ::fuel::Device::cpu()
                             : ::fuel::Device{kind, ordinal};
  }
  /// Returns the device's short label: "cpu", "cuda:0", "vulkan:1".
  std::string label() const { return device().str(); }
  /// Returns a one-line human-readable description of the device.
  std::string describe() const;
  /// The driver part of the device's identity as the profile database
  /// stores it and `probe` topologies carry it (docs/FUEL-JUDGE.md): a
  /// Vulkan device's "vulkan " + driver version (formatDriverVersion), ""
  /// otherwise. With `name`, what tells this device from another.
  std::string identityDriver() const;
  /// Returns further lines for a Vulkan device (identity and memory, then
  /// the limits), none for other kinds; fuel-probe prints them indented.
  std::vector<std::string> describeDetails() const;

  friend bool operator==(const ProbedDevice &a, const ProbedDevice &b);
  friend bool operator!=(const ProbedDevice &a, const ProbedDevice &b) {
    return !(a == b);
  }
};

/// The devices found and human-readable notes on what was not found or could
/// not be determined (e.g. "cuda: no CUDA driver (libcuda.so.1: cannot open
/// shared object file ...)"). Notes are for people; do not parse them.
struct ProbeResult {
  std::vector<ProbedDevice> devices;
  std::vector<std::string> notes;

  /// Appends the devices and notes of `other`.
  void append(ProbeResult other);

  friend bool operator==(const ProbeResult &a, const ProbeResult &b) {
    return a.devices == b.devices && a.notes == b.notes;
  }
  friend bool operator!=(const ProbeResult &a, const ProbeResult &b) {
    return !(a == b);
  }
};

/// Default shared-object names of the drivers. Always the versioned SONAMEs:
/// the unversioned "libcuda.so" may be the toolkit's stub, whose cuInit fails.
inline constexpr const char *kDefaultCudaLibrary = "libcuda.so.1";
inline constexpr const char *kDefaultVulkanLibrary = "libvulkan.so.1";

/// Returns exactly one device, the host CPU (ordinal 0). The host is examined
/// once per process; later calls return the same description.
ProbeResult probeCpu();

/// Returns the CUDA devices visible through the driver `library` (loaded with
/// dlopen), in the driver's order. A missing library, missing symbols, a
/// failing cuInit or zero devices give no devices and a note.
ProbeResult probeCuda(const char *library = kDefaultCudaLibrary);

/// Returns the Vulkan physical devices visible through the loader `library`
/// (loaded with dlopen), in the loader's order. A missing loader, no driver
/// or a failing call give no devices and a note.
ProbeResult probeVulkan(const char *library = kDefaultVulkanLibrary);

/// Selects what probeAll examines; the library names are test seams.
struct ProbeOptions {
  bool cuda = true;
  bool vulkan = true;
  std::string cudaLibrary = kDefaultCudaLibrary;
  std::string vulkanLibrary = kDefaultVulkanLibrary;
};

/// Returns the cpu device first, then the CUDA devices, then the Vulkan
/// devices, each kind in enumeration order, and the notes in the same order.
ProbeResult probeAll(const ProbeOptions &options = {});

/// What /proc/cpuinfo says about the host, as far as the probe uses it.
/// Exposed so that the parser can be tested on fixed text.
struct CpuInfoText {
  std::string modelName;   ///< "model name" (x86) or "Model name"/"Hardware".
  std::string vendor;      ///< "vendor_id", e.g. "GenuineIntel".
  double mhz = 0;          ///< "cpu MHz" of the first processor; 0 if absent.
  uint32_t siblings = 0;   ///< "siblings": logical cpus per package.
  uint32_t cpuCores = 0;   ///< "cpu cores": physical cores per package.
  uint32_t processors = 0; ///< Number of "processor" entries.
  std::vector<std::string> flags; ///< "flags" (x86) or "Features" (arm).
};

/// Parses the text of /proc/cpuinfo. Unknown keys are ignored; missing keys
/// leave the defaults.
CpuInfoText parseCpuInfo(std::string_view text);

/// The cpuinfo flags the CPU code generator cares about, mapped to LLVM
/// feature names, in this fixed order: sse4_2 -> +sse4.2, avx, avx2, fma,
/// f16c, bmi2, avx512f, avx512bw, avx512vl, avx512dq (the same names with a
/// '+'). Returns them comma-separated ("+sse4.2,+avx,+avx2,+fma"); flags
/// that are absent are left out, so an older CPU simply lists fewer.
std::string cpuTargetFeaturesFromFlags(const std::vector<std::string> &flags);

/// The LLVM CPU name the probe records for a host whose cpuinfo flags are
/// `flags`: "x86-64" (the baseline; the features say the rest) when the
/// flags are an x86 CPU's (they include sse2), otherwise empty (unknown: the
/// compiler targets the compiling host).
std::string cpuTargetCpuFromFlags(const std::vector<std::string> &flags);

/// Returns the widest SIMD width in bits implied by cpuinfo flags: 512 for
/// avx512f, 256 for avx2 or avx, 128 for sse2, asimd or neon; 0 otherwise.
uint32_t vectorBitsFromFlags(const std::vector<std::string> &flags);

/// Returns the nominal clock in GHz written in a CPU model name such as
/// "Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz"; 0 if there is none.
double clockFromModelName(std::string_view modelName);

/// Returns the conservative single-precision peak used for CPUs, in flop/ns:
/// physicalCores * clockGHz * lanes * (fma ? 2 : 1), lanes = vectorBits / 32,
/// that is one vector FMA (or one vector op without FMA) per core per cycle.
double cpuPeakF32FlopsPerNs(uint32_t physicalCores, double clockGHz,
                            uint32_t vectorBits, bool fma);

/// Returns the FP32 lanes per streaming multiprocessor of a CUDA compute
/// capability, or 0 when the capability is unknown to this table.
uint32_t cudaF32LanesPerSM(int major, int minor);

} // namespace fuel::probe

#endif // FUEL_PROBE_PROBE_H
