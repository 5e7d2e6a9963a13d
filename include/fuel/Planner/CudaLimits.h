//===- CudaLimits.h - CUDA limits from the compute capability ---*- C++ -*-===//
//
// What CUDA code generation assumes of a cuda:N device whose topology leaves
// a GpuLimits figure unknown: CUDA's own figures for its compute capability
// (docs/TOPOLOGY.md, "CUDA compute capability"), so that tiles and warp
// widths always come from the topology or this table, never from a constant
// in a code generator.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_PLANNER_CUDALIMITS_H
#define FUEL_PLANNER_CUDALIMITS_H

#include "fuel/Planner/Topology.h"

namespace fuel::plan {

/// CUDA's figures for a chip of compute capability `cc` (the CUDA C++
/// Programming Guide's "Technical Specifications per Compute Capability"):
/// a warp of 32 threads, 48 KiB of static shared memory per block (what a
/// kernel without dynamic shared memory or the opt-in attribute may use),
/// 1024 threads per block, blocks of at most 1024 x 1024 x 64. They are the
/// same for every compute capability from 3.0 (the oldest a topology
/// accepts) to 12.x. The Vulkan-only figures stay 0.
GpuLimits cudaLimitsFor(const ComputeCapability &cc);

/// `stated` (a cuda device's `limits`; null when the topology gives none)
/// with every figure it leaves unknown (0) taken from cudaLimitsFor(cc):
/// the block dimensions as one (all three are stated or none is).
GpuLimits completeCudaLimits(const ComputeCapability &cc,
                             const GpuLimits *stated);

} // namespace fuel::plan

#endif // FUEL_PLANNER_CUDALIMITS_H
