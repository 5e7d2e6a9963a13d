//===- CostModel.h - Layer-1 kernel time ------------------------*- C++ -*-===//
//
// The static kernel time of SEMANTICS §3 step 6:
//
//   time_ns = max(ceil(flops / rate), ceil(bytes / bw))
//             + device dispatch overhead + variant overhead
//   rate    = peak flop/ns (per dtype) x efficiency_compute
//   bw      = peak B/ns x efficiency_memory
//
// Peaks and the dispatch overhead come from the topology's DeviceInfo, the
// only rate source; efficiencies and the variant overhead come from the
// registry record. When the topology lacks a figure a prior is used (CPU 1
// flop/ns and 4 B/ns; GPU 30 flop/ns and 40 B/ns; a CPU-type Vulkan device
// takes the CPU priors) and the result says so, so the caller can warn.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_PLANNER_COSTMODEL_H
#define FUEL_PLANNER_COSTMODEL_H

#include "fuel/Planner/Topology.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace fuel::plan {

/// Prior compute rate of a CPU-type device, flop/ns (SEMANTICS §3 step 6).
inline constexpr double kCpuPriorFlopsPerNs = 1.0;
/// Prior memory bandwidth of a CPU-type device, B/ns.
inline constexpr double kCpuPriorBytesPerNs = 4.0;
/// Prior compute rate of a GPU, flop/ns.
inline constexpr double kGpuPriorFlopsPerNs = 30.0;
/// Prior memory bandwidth of a GPU, B/ns.
inline constexpr double kGpuPriorBytesPerNs = 40.0;

/// What a registry variant contributes to its kernel time: how much of the
/// device's peaks it reaches and its own fixed overhead.
struct VariantEfficiency {
  /// Fraction of the device's peak flop rate this variant reaches.
  double compute = 1.0;
  /// Fraction of the device's peak bandwidth this variant reaches.
  double memory = 1.0;
  /// The variant's own overhead per call, in ns.
  int64_t overheadNs = 0;
};

/// The work of one kernel call.
struct KernelWork {
  /// Floating-point operations; an FMA counts 2 (matmul: 2*M*N*K).
  uint64_t flops = 0;
  /// Bytes moved to and from memory.
  uint64_t bytes = 0;
};

/// A kernel time and how it was obtained.
struct KernelTime {
  /// The Layer-1 time in ns, saturated at INT64_MAX.
  int64_t timeNs = 0;
  /// The compute term `ceil(flops / rate)`.
  int64_t computeNs = 0;
  /// The memory term `ceil(bytes / bw)`.
  int64_t memoryNs = 0;
  /// True when the topology had no peak rate for the dtype and a prior was
  /// used.
  bool usedFlopsPrior = false;
  /// True when the topology had no bandwidth and a prior was used.
  bool usedBandwidthPrior = false;

  /// True when any prior was used.
  bool usedPrior() const { return usedFlopsPrior || usedBandwidthPrior; }
};

/// True when `info` takes the CPU priors: a `cpu` device or a CPU-type
/// Vulkan device (SEMANTICS §3 step 6). CUDA devices always take the GPU
/// priors.
bool takesCpuPriors(const DeviceInfo &info);

/// The Layer-1 kernel time of `work` in element type `dtype` on `info` with
/// the variant's efficiencies (SEMANTICS §3 step 6). Zero work gives a zero
/// term whatever the rate; positive work at a zero or non-finite rate
/// saturates the term at INT64_MAX.
KernelTime kernelTime(const DeviceInfo &info, llvm::StringRef dtype,
                      const KernelWork &work, const VariantEfficiency &variant);

/// A one-line warning naming the priors `t` used on `info` for `dtype`, e.g.
/// "device 'cuda:0' has no peak f16 rate; using the GPU prior of 30 flop/ns".
/// Empty when no prior was used.
std::string describePriors(const DeviceInfo &info, llvm::StringRef dtype,
                           const KernelTime &t);

/// A candidate's memory footprint per tier (SEMANTICS §3).
struct Footprint {
  uint64_t hostBytes = 0;
  uint64_t deviceBytes = 0;
};

/// Footprint = operand bytes + result bytes + the variant's workspace, all in
/// the tier of `device`: the host tier for `cpu`, the device tier otherwise
/// (a CPU-type Vulkan device still has its own tier). Sums saturate.
Footprint footprint(Device device, uint64_t operandBytes, uint64_t resultBytes,
                    uint64_t workspaceBytes);

} // namespace fuel::plan

#endif // FUEL_PLANNER_COSTMODEL_H
