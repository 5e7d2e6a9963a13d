//===- GpuLimits.h - The GPU limits a planned module names ------*- C++ -*-===//
//
// The code-generation limits of a GPU device, as the module's `fuel.topology`
// records them (`limits` on a cuda:N or vulkan:N device, docs/TOPOLOGY.md).
// GPU code generation sizes tiles, workgroups and reductions through this
// accessor and uses its own defaults only for figures that are absent; CUDA
// code generation reads the chip (`compute_capability`) the same way.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_DIALECT_FUEL_IR_GPULIMITS_H
#define FUEL_DIALECT_FUEL_IR_GPULIMITS_H

#include "fuel/Planner/Topology.h"
#include "fuel/Support/Device.h"

#include "mlir/IR/BuiltinOps.h"

#include <optional>

namespace mlir::fuel {

/// The limits of `device` in the module's `fuel.topology`. std::nullopt when
/// the module has no topology, the topology has no such device, or the
/// device states no limits. Within the returned struct a figure of 0 is
/// unknown: the caller takes its own default for it. The figures have been
/// checked by the topology's verifier (plan::validateGpuLimits).
std::optional<::fuel::plan::GpuLimits>
getGpuLimits(ModuleOp module, const ::fuel::Device &device);

/// The compute capability of the CUDA device `device` in the module's
/// `fuel.topology`; plan::kDefaultComputeCapability (9.0) when the module
/// has no topology, the topology has no such device, or the device states
/// none (docs/TOPOLOGY.md).
::fuel::plan::ComputeCapability
getComputeCapability(ModuleOp module, const ::fuel::Device &device);

} // namespace mlir::fuel

#endif // FUEL_DIALECT_FUEL_IR_GPULIMITS_H
