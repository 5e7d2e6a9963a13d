//===- Topology.h - Devices, capabilities and links -------------*- C++ -*-===//
//
// The machine the planner plans for (SEMANTICS §1, §3 step 6, §5): devices with
// their capabilities and the directed links between them. This is the plain
// struct every layer shares; lib/Target reads and writes it as JSON and probes
// it from the machine, and the dialect converts it to and from
// `#fuel.topology`.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_PLANNER_TOPOLOGY_H
#define FUEL_PLANNER_TOPOLOGY_H

#include "fuel/Planner/Device.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fuel::plan {

/// How a link moves bytes (SEMANTICS §5). Each class has default figures for
/// links the topology does not describe.
enum class PathClass : uint8_t { Peer, SharedMemory, DeviceCopy };

/// "peer", "shared-memory", "device-copy".
std::string_view stringifyPathClass(PathClass c);
/// Inverse of stringifyPathClass.
std::optional<PathClass> symbolizePathClass(std::string_view s);

/// Default bandwidth (bytes per second) and latency (ns) of a path class:
/// peer 12 GB/s + 15 us, shared memory 20 GB/s + 2 us, device copy 8 GB/s +
/// 30 us (SEMANTICS §5).
struct PathDefaults {
  int64_t bandwidthBytesPerSec;
  int64_t latencyNs;
};
PathDefaults pathClassDefaults(PathClass c);

/// What the host's generated code is compiled for (docs/TOPOLOGY.md): an
/// LLVM CPU name ("x86-64-v3", "znver3", "native" is not allowed: the
/// compiler resolves the compiling host itself when a topology has no
/// target) and LLVM target features ("+avx2,+fma"), possibly empty. Only
/// the syntax is checked here; the compiler checks the names against LLVM.
struct CpuTarget {
  std::string cpu;
  std::string features;

  friend bool operator==(const CpuTarget &a, const CpuTarget &b) {
    return a.cpu == b.cpu && a.features == b.features;
  }
  friend bool operator!=(const CpuTarget &a, const CpuTarget &b) {
    return !(a == b);
  }
};

/// What code generation for a GPU device (Vulkan, CUDA) reads of it: the
/// limits its kernels' tiles, workgroups and reductions are sized from, and
/// the alignment of the buffer ranges a dispatch binds. The probe fills them
/// from the device (Vulkan: VkPhysicalDeviceLimits and the subgroup
/// properties); a topology file states them per device (docs/TOPOLOGY.md).
/// A value of 0 means unknown.
struct GpuLimits {
  /// Invocations per subgroup (warp); 8 on lavapipe, 32 on NVIDIA.
  uint32_t subgroupSize = 0;
  /// Shared (workgroup) memory per workgroup, in bytes.
  uint64_t sharedMemoryBytes = 0;
  /// Invocations of one workgroup, in all, and per dimension.
  uint32_t maxWorkgroupInvocations = 0;
  uint32_t maxWorkgroupSize[3] = {0, 0, 0};
  /// The alignment in bytes of a storage-buffer binding's offset.
  uint64_t minStorageBufferOffsetAlignment = 0;
  /// Bytes of push constants (kernel parameters) one dispatch may pass.
  uint32_t maxPushConstantsBytes = 0;
  /// Nanoseconds per timestamp tick.
  double timestampPeriodNs = 0;

  friend bool operator==(const GpuLimits &a, const GpuLimits &b) {
    return a.subgroupSize == b.subgroupSize &&
           a.sharedMemoryBytes == b.sharedMemoryBytes &&
           a.maxWorkgroupInvocations == b.maxWorkgroupInvocations &&
           a.maxWorkgroupSize[0] == b.maxWorkgroupSize[0] &&
           a.maxWorkgroupSize[1] == b.maxWorkgroupSize[1] &&
           a.maxWorkgroupSize[2] == b.maxWorkgroupSize[2] &&
           a.minStorageBufferOffsetAlignment ==
               b.minStorageBufferOffsetAlignment &&
           a.maxPushConstantsBytes == b.maxPushConstantsBytes &&
           a.timestampPeriodNs == b.timestampPeriodNs;
  }
  friend bool operator!=(const GpuLimits &a, const GpuLimits &b) {
    return !(a == b);
  }
};

/// The compute capability of a CUDA device, "major.minor" (e.g. 9.0 for
/// Hopper): the chip CUDA code generation targets (`sm_90`). The probe
/// fills it from the driver; a topology file states it per cuda:N device
/// (docs/TOPOLOGY.md). Absent, code generation takes
/// kDefaultComputeCapability.
struct ComputeCapability {
  uint32_t major = 0;
  uint32_t minor = 0;

  /// "9.0".
  std::string str() const;
  /// The PTX target name of the chip: "sm_90".
  std::string chip() const;

  friend bool operator==(const ComputeCapability &a,
                         const ComputeCapability &b) {
    return a.major == b.major && a.minor == b.minor;
  }
  friend bool operator!=(const ComputeCapability &a,
                         const ComputeCapability &b) {
    return !(a == b);
  }
  friend bool operator<(const ComputeCapability &a,
                        const ComputeCapability &b) {
    return a.major != b.major ? a.major < b.major : a.minor < b.minor;
  }
};

/// What CUDA code generation targets when the topology states no compute
/// capability for the device: 9.0 (H100/H200).
inline constexpr ComputeCapability kDefaultComputeCapability{9, 0};
/// The range a topology accepts: 3.0 (the oldest chip LLVM's NVPTX backend
/// targets) to 99.9; the minor version is one digit, as CUDA spells it.
inline constexpr ComputeCapability kMinComputeCapability{3, 0};
inline constexpr uint32_t kMaxComputeCapabilityMajor = 99;

/// Parses "major.minor" (decimal, no sign, no leading zero on a major above
/// 9, one-digit minor) within the range above; std::nullopt otherwise.
std::optional<ComputeCapability> parseComputeCapability(std::string_view s);

/// The ranges a topology accepts for GpuLimits figures (docs/TOPOLOGY.md).
/// 0 is "unknown" and always accepted here; the topology file, which states
/// only what it knows, rejects an explicit 0.
inline constexpr uint32_t kMaxSubgroupSize = 128;
inline constexpr uint64_t kMaxSharedMemoryBytes = 1ull << 30;
inline constexpr uint32_t kMaxWorkgroupInvocations = 1u << 16;
inline constexpr uint64_t kMaxStorageBufferOffsetAlignment = 256;
inline constexpr uint32_t kMaxPushConstantsBytes = 1u << 16;
inline constexpr double kMaxTimestampPeriodNs = 1e9;

/// Checks GPU limits: subgroup size a power of two up to 128; shared memory
/// up to 1 GiB; workgroup invocations and each workgroup dimension up to
/// 65536, each dimension no more than the invocations, the three
/// dimensions all known or all unknown; the storage-buffer
/// offset alignment a power of two up to 256 (Vulkan's bound); push
/// constants a multiple of 4 up to 65536; the timestamp period positive,
/// finite and at most 1 s. Zeros (unknown) pass. Returns an empty string
/// when valid, otherwise what is wrong, naming the field by its topology
/// file key ("subgroup_size").
std::string validateGpuLimits(const GpuLimits &limits);

/// Checks a CPU target's syntax: a non-empty CPU name of letters, digits,
/// '-', '_' and '.'; features empty or a comma list of '+name' / '-name'
/// (names of lower-case letters, digits, '-', '_' and '.'). Returns an empty
/// string when valid, otherwise what is wrong.
std::string validateCpuTarget(const CpuTarget &target);

/// One device and what it can do. Absent figures fall back to the priors of
/// SEMANTICS §3 step 6, with a warning, when a kernel time is computed.
struct DeviceInfo {
  Device device;
  /// Human-readable description, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)".
  std::string name;
  /// True when the device's compute units are CPU cores: the host, or a
  /// Vulkan device of type CPU such as Mesa lavapipe. Such devices take the
  /// CPU priors and reach the host through shared memory.
  bool cpuType = false;
  /// Peak throughput in flop/ns, per element type name ("f32", "f16", ...).
  std::map<std::string, double> peakFlopsPerNs;
  /// Peak memory bandwidth in bytes per ns.
  std::optional<double> bytesPerNs;
  /// Fixed cost of dispatching one kernel on this device, in ns.
  int64_t dispatchOverheadNs = 0;
  /// Memory capacity in bytes; 0 when unknown.
  uint64_t memoryBytes = 0;
  /// Required buffer alignment in bytes (a power of two).
  uint64_t alignment = 64;
  /// The code-generation target, on the host `cpu` only; absent means the
  /// compiling host. Part of the content hash only when present.
  std::optional<CpuTarget> cpuTarget;
  /// The code-generation limits of a GPU device (Vulkan, CUDA); absent on
  /// the host. Part of the content hash only when present.
  std::optional<GpuLimits> gpuLimits;
  /// The compute capability of a cuda:N device; absent elsewhere, and
  /// absent when unknown (code generation then takes
  /// kDefaultComputeCapability). Part of the content hash only when present.
  std::optional<ComputeCapability> computeCapability;
  /// The driver's version ("mesa 22.3.6", "CUDA driver 12.4"); empty for
  /// the host and when unknown. With `name` (the CPU model or GPU name) it
  /// is the device's identity that profile-database keys carry
  /// (docs/PROFILE-DB.md), so a measurement taken under another driver does
  /// not hit. Part of the content hash only when non-empty.
  std::string driver;
};

/// A directed link. Links are one-way; a pair of devices usually has two.
struct Link {
  Device from;
  Device to;
  /// Bytes per second (1 GB = 10^9 bytes).
  int64_t bandwidthBytesPerSec = 0;
  int64_t latencyNs = 0;
  PathClass pathClass = PathClass::DeviceCopy;
};

/// A whole topology. Devices are kept in device order and links sorted by
/// (from, to), so equal topologies compare and hash equal.
struct Topology {
  std::vector<DeviceInfo> devices;
  std::vector<Link> links;

  /// The device's record, or nullptr.
  const DeviceInfo *find(Device d) const;
  /// The direct link from -> to, or nullptr.
  const Link *findLink(Device from, Device to) const;
  /// Sorts devices into device order and links by (from, to).
  void canonicalize();
  /// Checks the structural rules: exactly one cpu, no duplicate devices,
  /// links between known, distinct devices, no duplicate links, non-negative
  /// figures, positive bandwidths, power-of-two alignments, a CPU target
  /// only on the host and of valid syntax, GPU limits only on devices other
  /// than the host and within validateGpuLimits' ranges, a compute
  /// capability only on cuda:N devices and within its range. Returns an empty
  /// string when valid, otherwise a message naming the first problem.
  std::string validate() const;

  /// Canonical text serialisation: the input of the content hash. Figures are
  /// printed exactly (doubles as hexadecimal floating point), devices in
  /// device order, links sorted; the name is excluded (it describes, it does
  /// not decide).
  std::string canonicalText() const;
  /// `llvm::xxh3_64bits` over canonicalText() (SEMANTICS §1).
  uint64_t contentHash() const;
};

/// The one spelling of a 64-bit hash (topology content hashes, kernel
/// revisions): `0x` and sixteen lower-case hexadecimal digits, e.g.
/// "0x00c0ffee00c0ffee".
std::string formatHash(uint64_t hash);

} // namespace fuel::plan

#endif // FUEL_PLANNER_TOPOLOGY_H
