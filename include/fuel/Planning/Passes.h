//===- Passes.h - Planning passes -------------------------------*- C++ -*-===//
//
// Declarations of the planning passes (Passes.td), of the `fuel-plan`
// pipeline that runs them, and of the kernel registry they read.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_PLANNING_PASSES_H
#define FUEL_PLANNING_PASSES_H

#include "fuel/Dialect/Fuel/IR/FuelDialect.h"
#include "fuel/Planner/Placement.h"
#include "fuel/Planning/PlanningOptions.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

#include <functional>
#include <memory>
#include <vector>

namespace mlir::fuel {

#define GEN_PASS_DECL
#include "fuel/Planning/Passes.h.inc"

/// Makes the planning passes run in `ctx` (fuel-enumerate-candidates,
/// fuel-annotate-costs and the pipelines that contain them) read `registry`
/// instead of the one built into fuel; nullptr restores the built-in one.
/// Loads the fuel dialect. The registry is not copied: it must outlive
/// every pass run in `ctx` after this call. Set it before running passes,
/// not while they run. docs/KERNELS.md shows an embedder's use.
void setKernelRegistry(MLIRContext *ctx,
                       const ::fuel::target::KernelRegistry *registry);

/// The kernel registry the planning passes run in `ctx` read: the one set
/// by setKernelRegistry, else fuel::target::KernelRegistry::get().
const ::fuel::target::KernelRegistry &getKernelRegistry(MLIRContext *ctx);

/// The options of the `fuel-plan` and `fuel-plan-candidates` pipelines
/// (SEMANTICS §9): one pass option per planning option, made from its
/// declaration (PlanningOptions::bindOptions) with its name, description
/// and default.
struct PlanPipelineOptions : public PassPipelineOptions<PlanPipelineOptions> {
  PlanPipelineOptions();
  ~PlanPipelineOptions();

  /// The options' values, typed (`kernel-sources` split at its commas).
  PlanningOptions getPlanningOptions() const;

private:
  class Binder;
  /// The pass options, registered with this PassOptions.
  std::vector<std::unique_ptr<llvm::cl::Option>> boundOptions;
  /// Per pass option, the copy of its value into a PlanningOptions.
  std::vector<std::function<void(PlanningOptions &)>> readBack;
};

/// Adds the `fuel-plan` pipeline to `pm` (a module pass manager):
/// attach-topology, then per function form-nodes, phase A, placement and
/// copy insertion.
void buildPlanPipeline(OpPassManager &pm, const PlanningOptions &options);

/// Adds `fuel-plan-candidates` to `pm`: the stages of fuel-plan before
/// placement (attach-topology, form-nodes, phase A), leaving every admitted
/// device's alternatives in the IR. `placement-algorithm` is ignored.
void buildPlanCandidatesPipeline(OpPassManager &pm,
                                 const PlanningOptions &options);

/// Registers the `fuel-plan` and `fuel-plan-candidates` pipelines (the passes
/// register through the generated registerFuelPlanningPasses()).
void registerFuelPlanPipeline();

#define GEN_PASS_REGISTRATION
#include "fuel/Planning/Passes.h.inc"

} // namespace mlir::fuel

#endif // FUEL_PLANNING_PASSES_H
