//===- GpuTiling.cpp - GPU schedule parameters from device limits ---------===//
//
// See GpuTiling.h.
//
//===----------------------------------------------------------------------===//

#include "fuel/Target/GpuTiling.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace fuel;
using namespace fuel::target;

namespace {

llvm::Error missing(llvm::StringRef field) {
  return llvm::createStringError(
      llvm::formatv("the device's gpu_limits give no '{0}' (0 = unknown); "
                    "the Vulkan schedules need it",
                    field)
          .str());
}

// The workgroup extent a dimension allows: its own limit when known, else
// only the total.
uint64_t dimLimit(const plan::GpuLimits &limits, unsigned dim) {
  return limits.maxWorkgroupSize[dim] ? limits.maxWorkgroupSize[dim]
                                      : limits.maxWorkgroupInvocations;
}

} // namespace

uint32_t fuel::target::genericGroupSize(const plan::GpuLimits *limits,
                                        uint32_t preferred,
                                        uint32_t unknownLimit) {
  uint32_t threads = unknownLimit;
  uint32_t sizeX = unknownLimit;
  if (limits) {
    if (limits->maxWorkgroupInvocations)
      threads = limits->maxWorkgroupInvocations;
    if (limits->maxWorkgroupSize[0])
      sizeX = limits->maxWorkgroupSize[0];
  }
  uint32_t size = std::min({preferred, threads, sizeX});
  if (limits && limits->subgroupSize && size >= limits->subgroupSize)
    size -= size % limits->subgroupSize;
  return std::max<uint32_t>(size, 1);
}

llvm::Expected<MatmulTiling>
fuel::target::chooseMatmulTiling(const plan::GpuLimits &limits, uint64_t m,
                                 uint64_t n, uint64_t k, unsigned elementBytes,
                                 unsigned block) {
  if (!limits.subgroupSize)
    return missing("subgroup_size");
  if (!limits.maxWorkgroupInvocations)
    return missing("max_workgroup_invocations");
  if (!limits.sharedMemoryBytes)
    return missing("shared_memory_bytes");
  if (!elementBytes)
    return llvm::createStringError("matmul tiling: element size 0");
  if (!block)
    return llvm::createStringError("matmul tiling: block size 0");

  MatmulTiling t;
  const uint64_t sg = limits.subgroupSize;
  uint64_t threadsN = ((16 + sg - 1) / sg) * sg;
  if (threadsN > limits.maxWorkgroupInvocations ||
      threadsN > dimLimit(limits, 0))
    return llvm::createStringError(llvm::formatv(
        "matmul tiling: a row of {0} invocations (whole subgroups of {1}) "
        "exceeds the device's workgroup limits",
        threadsN, sg));
  uint64_t threadsM = 16;
  while (threadsM > 1 &&
         (threadsM * threadsN > limits.maxWorkgroupInvocations ||
          threadsM > dimLimit(limits, 1)))
    threadsM /= 2;
  const uint64_t tileM = threadsM * block;
  const uint64_t tileN = threadsN * block;
  uint64_t tileK = 64;
  while (tileK > 1 && k && tileK / 2 >= k)
    tileK /= 2;
  while (tileK > 1 &&
         (tileM + tileN) * tileK * elementBytes > limits.sharedMemoryBytes)
    tileK /= 2;
  if ((tileM + tileN) * tileK * elementBytes > limits.sharedMemoryBytes)
    return llvm::createStringError(llvm::formatv(
        "matmul tiling: {0} bytes of shared memory cannot hold one column "
        "of a {1} x {2} tile",
        limits.sharedMemoryBytes, tileM, tileN));

  t.tileM = static_cast<uint32_t>(tileM);
  t.tileN = static_cast<uint32_t>(tileN);
  t.tileK = static_cast<uint32_t>(tileK);
  t.blockM = t.blockN = block;
  t.workgroupSize[0] = static_cast<uint32_t>(threadsN);
  t.workgroupSize[1] = static_cast<uint32_t>(threadsM);
  t.workgroupSize[2] = 1;
  t.sharedBytes = (tileM + tileN) * tileK * elementBytes;
  t.divides = m && n && k && m % tileM == 0 && n % tileN == 0 && k % tileK == 0;
  return t;
}

static uint64_t convOut(uint64_t in, uint64_t k, uint64_t stride,
                        uint64_t dilation) {
  uint64_t span = dilation * (k - 1) + 1;
  if (!k || !stride || in < span)
    return 0;
  return (in - span) / stride + 1;
}

uint64_t fuel::target::Conv2dShape::outH() const {
  return convOut(h, kh, strides[0], dilations[0]);
}

uint64_t fuel::target::Conv2dShape::outW() const {
  return convOut(w, kw, strides[1], dilations[1]);
}

llvm::Expected<Conv2dTiling>
fuel::target::chooseConv2dTiling(const plan::GpuLimits &limits,
                                 const Conv2dShape &shape,
                                 unsigned elementBytes, unsigned block) {
  if (!shape.n || !shape.c || !shape.f || !shape.outH() || !shape.outW())
    return llvm::createStringError(
        "conv2d tiling: an empty batch, channel count or output");
  Conv2dTiling t;
  t.batch = shape.n;
  const uint64_t pixels = shape.outH() * shape.outW();
  t.gemmK = shape.c * shape.kh * shape.kw;
  t.gemmM = shape.nchw ? shape.f : pixels;
  t.gemmN = shape.nchw ? pixels : shape.f;
  llvm::Expected<MatmulTiling> m = chooseMatmulTiling(
      limits, t.gemmM, t.gemmN, t.gemmK, elementBytes, block);
  if (!m)
    return m.takeError();
  t.matmul = *m;
  return t;
}

llvm::Expected<ReductionTiling>
fuel::target::chooseReductionTiling(const plan::GpuLimits &limits,
                                    uint64_t cols, unsigned elementBytes) {
  if (!limits.subgroupSize)
    return missing("subgroup_size");
  if (!limits.maxWorkgroupInvocations)
    return missing("max_workgroup_invocations");
  if (!limits.sharedMemoryBytes)
    return missing("shared_memory_bytes");
  const uint64_t sg = limits.subgroupSize;
  const uint64_t maxInvocations = std::min<uint64_t>(
      {256, limits.maxWorkgroupInvocations, dimLimit(limits, 0)});
  if (sg > maxInvocations)
    return llvm::createStringError(llvm::formatv(
        "reduction tiling: a subgroup of {0} (subgroup_size) exceeds the "
        "workgroup limit of {1} invocations (max_workgroup_invocations, "
        "max_workgroup_size[0])",
        sg, maxInvocations));
  uint64_t subgroups = std::max<uint64_t>(1, (cols + sg - 1) / sg);
  subgroups = std::min<uint64_t>({subgroups, sg, maxInvocations / sg});
  if (subgroups * elementBytes > limits.sharedMemoryBytes)
    subgroups = std::max<uint64_t>(1, limits.sharedMemoryBytes / elementBytes);
  ReductionTiling t;
  t.subgroupSize = static_cast<uint32_t>(sg);
  t.subgroups = static_cast<uint32_t>(subgroups);
  t.workgroupSize = static_cast<uint32_t>(sg * subgroups);
  t.sharedBytes = subgroups * elementBytes;
  return t;
}

RowSchedule fuel::target::chooseRowSchedule(const plan::GpuLimits &limits,
                                            uint64_t rows, uint64_t cols) {
  // One workgroup per row: Vulkan guarantees 65535 along x.
  if (!limits.subgroupSize || rows == 0 || rows > 65535 || cols == 0)
    return RowSchedule::PerElement;
  llvm::Expected<ReductionTiling> tiling = chooseReductionTiling(limits, cols);
  if (!tiling) {
    llvm::consumeError(tiling.takeError());
    return RowSchedule::PerElement;
  }
  if (rows < limits.subgroupSize &&
      cols >= kRowScheduleColumnsPerInvocation * tiling->workgroupSize)
    return RowSchedule::Subgroup;
  return RowSchedule::PerElement;
}
