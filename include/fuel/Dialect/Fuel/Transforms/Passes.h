//===- Passes.h - Planning passes of the fuel dialect -----------*- C++ -*-===//
//
// Declarations of the fuel passes (Passes.td), of the `fuel-plan` pipeline
// that runs them, and of the kernel registry they read.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_DIALECT_FUEL_TRANSFORMS_PASSES_H
#define FUEL_DIALECT_FUEL_TRANSFORMS_PASSES_H

#include "fuel/Dialect/Fuel/IR/FuelDialect.h"
#include "fuel/Dialect/Fuel/Transforms/GpuMatmul.h"
#include "fuel/Dialect/Fuel/Transforms/VulkanRowKernels.h"
#include "fuel/Planner/Placement.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::fuel {

/// The values of the `placement-algorithm` option of fuel-place and
/// fuel-plan (SEMANTICS §5), spelled by stringifyPlacementAlgorithm:
/// `--help` lists them, and any other name fails when the option is parsed.
inline llvm::cl::ValuesClass placementAlgorithmValues() {
  using ::fuel::plan::PlacementAlgorithm;
  auto value = [](PlacementAlgorithm a, StringRef help) {
    return llvm::cl::OptionEnumValue{
        ::fuel::plan::stringifyPlacementAlgorithm(a), static_cast<int>(a),
        help};
  };
  return llvm::cl::values(
      value(PlacementAlgorithm::Auto,
            "exact where the graph allows, else improved by moves"),
      value(PlacementAlgorithm::Greedy,
            "nodes in program order, each on its cheapest device"),
      value(PlacementAlgorithm::ExactTree,
            "dynamic program, exact on in-forests"),
      value(PlacementAlgorithm::MinCut, "s-t cut, exact for two devices"),
      value(PlacementAlgorithm::BruteForce,
            "every placement of at most 14 free nodes"));
}

#define GEN_PASS_DECL
#include "fuel/Dialect/Fuel/Transforms/Passes.h.inc"

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

/// The options of the `fuel-plan` pipeline (SEMANTICS §9).
struct PlanPipelineOptions : public PassPipelineOptions<PlanPipelineOptions> {
  PassOptions::Option<std::string> topology{
      *this, "topology",
      llvm::cl::desc("Topology JSON file, 'probe', or empty (keep the "
                     "module's, else the built-in default)"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> precision{
      *this, "precision",
      llvm::cl::desc("Precision requirement: none, reference, deterministic "
                     "or a list such as 'bit-stable,ulp<=1,rel<=1e-5'"),
      llvm::cl::init("none")};
  PassOptions::Option<bool> preferBitStable{
      *this, "prefer-bit-stable",
      llvm::cl::desc("Prefer bit-stable candidates on each device"),
      llvm::cl::init(false)};
  PassOptions::Option<std::string> pinnedDevice{
      *this, "pinned-device",
      llvm::cl::desc("Decision device of unpinned nodes, or 'none'"),
      llvm::cl::init("cpu")};
  PassOptions::Option<bool> priceTransfers{
      *this, "price-transfers",
      llvm::cl::desc("Price transfers between devices"), llvm::cl::init(true)};
  PassOptions::Option<bool> allowCostPlacement{
      *this, "allow-cost-placement",
      llvm::cl::desc("Let cost move free nodes off their decision device"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> requireTransferPricing{
      *this, "require-transfer-pricing",
      llvm::cl::desc("Fail when price-transfers is off"),
      llvm::cl::init(false)};
  PassOptions::Option<std::string> kernelSources{
      *this, "kernel-sources",
      llvm::cl::desc("Kernel sources to admit: a comma list of generated, "
                     "openblas, blis, cublas (empty: every source)"),
      llvm::cl::init("")};
  PassOptions::Option<unsigned> keepPerDevice{
      *this, "keep-per-device",
      llvm::cl::desc("Candidates kept per device (0 means 1)"),
      llvm::cl::init(32)};
  PassOptions::Option<::fuel::plan::PlacementAlgorithm> placementAlgorithm{
      *this, "placement-algorithm",
      llvm::cl::desc("Placement solver: auto, greedy, exact-tree, mincut or "
                     "brute-force"),
      llvm::cl::init(::fuel::plan::PlacementAlgorithm::Auto),
      placementAlgorithmValues()};
  PassOptions::Option<std::string> exportPlan{
      *this, "export-plan",
      llvm::cl::desc("Write the plan as JSON to this file ('-': stdout)"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> importPlan{
      *this, "import-plan",
      llvm::cl::desc("Pin nodes to the placements of this plan file"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> exportDot{
      *this, "export-dot",
      llvm::cl::desc("Write the plan as Graphviz DOT to this file"),
      llvm::cl::init("")};
  PassOptions::Option<bool> explain{
      *this, "explain", llvm::cl::desc("Emit a remark per node explaining it"),
      llvm::cl::init(false)};
  PassOptions::Option<std::string> profile{
      *this, "profile",
      llvm::cl::desc("Profile database file whose measurements replace "
                     "Layer-1 times (docs/PROFILE-DB.md); empty: none"),
      llvm::cl::init("")};
  PassOptions::Option<int64_t> profileThreads{
      *this, "profile-threads",
      llvm::cl::desc("The runtime thread-pool size the profile's "
                     "measurements must have been taken with (fuel-judge "
                     "--cpu-threads, default 1) and the plan is priced for "
                     "(fuel-run --threads)"),
      llvm::cl::init(1)};
};

/// Adds the `fuel-plan` pipeline to `pm` (a module pass manager):
/// attach-topology, then per function form-nodes, phase A, placement and
/// copy insertion.
void buildPlanPipeline(OpPassManager &pm, const PlanPipelineOptions &options);

/// Adds `fuel-plan-candidates` to `pm`: the stages of fuel-plan before
/// placement (attach-topology, form-nodes, phase A), leaving every admitted
/// device's alternatives in the IR. `placement-algorithm` is ignored.
void buildPlanCandidatesPipeline(OpPassManager &pm,
                                 const PlanPipelineOptions &options);

/// Registers the `fuel-plan` and `fuel-plan-candidates` pipelines (the passes
/// register through the generated registerFuelPasses()).
void registerFuelPlanPipeline();

#define GEN_PASS_REGISTRATION
#include "fuel/Dialect/Fuel/Transforms/Passes.h.inc"

} // namespace mlir::fuel

#endif // FUEL_DIALECT_FUEL_TRANSFORMS_PASSES_H
