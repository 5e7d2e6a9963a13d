//===- CudaLimits.cpp - CUDA limits from the compute capability -----------===//
//
// See CudaLimits.h.
//
//===----------------------------------------------------------------------===//

#include "fuel/Planner/CudaLimits.h"

namespace fuel::plan {

GpuLimits cudaLimitsFor(const ComputeCapability &cc) {
  // Every compute capability a topology accepts (3.0 and later) has the
  // same figures; `cc` selects among them should a chip ever differ.
  (void)cc;
  GpuLimits limits;
  limits.subgroupSize = 32;
  limits.sharedMemoryBytes = 48 * 1024;
  limits.maxWorkgroupInvocations = 1024;
  limits.maxWorkgroupSize[0] = 1024;
  limits.maxWorkgroupSize[1] = 1024;
  limits.maxWorkgroupSize[2] = 64;
  return limits;
}

GpuLimits completeCudaLimits(const ComputeCapability &cc,
                             const GpuLimits *stated) {
  GpuLimits table = cudaLimitsFor(cc);
  if (!stated)
    return table;
  GpuLimits limits = *stated;
  if (!limits.subgroupSize)
    limits.subgroupSize = table.subgroupSize;
  if (!limits.sharedMemoryBytes)
    limits.sharedMemoryBytes = table.sharedMemoryBytes;
  if (!limits.maxWorkgroupInvocations)
    limits.maxWorkgroupInvocations = table.maxWorkgroupInvocations;
  if (!limits.maxWorkgroupSize[0] && !limits.maxWorkgroupSize[1] &&
      !limits.maxWorkgroupSize[2])
    for (int d = 0; d < 3; ++d)
      limits.maxWorkgroupSize[d] = table.maxWorkgroupSize[d];
  return limits;
}

} // namespace fuel::plan
