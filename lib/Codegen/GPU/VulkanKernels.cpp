//===- VulkanKernels.cpp - Launch shape of vulkan kernels -----------------===//
//
// The static iteration space of a vulkan kernel's workgroup scf.forall,
// which fuel-apply-schedules sizes the grid from and convert-fuel-to-spirv
// linearizes into invocations.
//
//===----------------------------------------------------------------------===//

#include "fuel/Codegen/GPU/VulkanKernels.h"

#include "fuel/Codegen/CPU/CpuKernels.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <algorithm>
#include <optional>

using namespace mlir;

FailureOr<mlir::fuel::VulkanForallSpace>
mlir::fuel::getVulkanForallSpace(Operation *kernel, scf::ForallOp forall) {
  VulkanForallSpace space;
  for (auto [lb, ub, step] :
       llvm::zip(forall.getMixedLowerBound(), forall.getMixedUpperBound(),
                 forall.getMixedStep())) {
    std::optional<int64_t> l = getConstantIntValue(lb);
    std::optional<int64_t> u = getConstantIntValue(ub);
    std::optional<int64_t> s = getConstantIntValue(step);
    if (!l || !u || !s || *s <= 0)
      return kernel->emitError()
             << "kernel " << describeKernel(kernel)
             << ": the scf.forall of a vulkan kernel needs static bounds "
                "and positive steps";
    space.lowerBounds.push_back(*l);
    space.steps.push_back(*s);
    space.counts.push_back(std::max<int64_t>(0, (*u - *l + *s - 1) / *s));
    space.iterations *= space.counts.back();
  }
  return space;
}
