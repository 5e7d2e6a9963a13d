//===- PlanningOptions.h - The planning options, declared once --*- C++ -*-===//
//
// The options of the fuel-plan pipeline (SEMANTICS §9), typed, and each
// declared once: its field here gives its type and default, its line in
// PlanningOptions::bindOptions its name, description and modifiers. Binders
// walk that declaration (IREE's `bindOptions(OptionsBinder &)` pattern) to
// make the pipeline's pass options (PlanPipelineOptions, Passes.h), to read
// option text (parsePlanningOptions in fuel/Compiler/Compiler.h, which
// fuel-compile --plan and the C API's planOptions use) and to compare two
// sets of options. Adding an option is its field and its bindOptions line,
// plus its use: the pass option it feeds, set in PlanPipeline.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_PLANNING_PLANNINGOPTIONS_H
#define FUEL_PLANNING_PLANNINGOPTIONS_H

#include "fuel/Planner/Placement.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::fuel {

/// The values of the `placement-algorithm` option of fuel-place and
/// fuel-plan (SEMANTICS §5), spelled by stringifyPlacementAlgorithm:
/// `--help` lists them, and any other name fails when the option is parsed.
inline llvm::cl::ValuesClass placementAlgorithmValues() {
  using ::fuel::plan::PlacementAlgorithm;
  auto value = [](PlacementAlgorithm a, llvm::StringRef help) {
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

/// What a planning option's declaration may add to its name, field and
/// description. Each is also an llvm::cl modifier (most change nothing
/// there), so a binder may hand every modifier to the llvm::cl option it
/// makes.
namespace plan_option {

/// An option that option text does not set; `how` says how to set it
/// instead.
struct NotInText {
  llvm::StringLiteral how;
  template <class Opt> void apply(Opt &) const {}
};

/// The least value option text gives an integer option.
struct AtLeast {
  int64_t value;
  template <class Opt> void apply(Opt &) const {}
};

/// The values of an enum option, and what option text calls one in an
/// error ("a placement algorithm").
struct Values {
  llvm::StringLiteral what;
  llvm::cl::ValuesClass values;
  template <class Opt> void apply(Opt &option) const { values.apply(option); }
};

} // namespace plan_option

/// The planning options (the options of the fuel-plan pipeline, SEMANTICS
/// §9), typed. The defaults are fuel-plan's. A diagnostic about a value
/// names the fuel-plan option (`pinnedDevice` is `pinned-device`, ...).
struct PlanningOptions {
  /// A topology JSON file, "probe" (this machine), or empty: the module's
  /// stamped topology, else the built-in default.
  std::string topology;
  /// none, reference, deterministic, or a list such as
  /// "bit-stable,ulp<=1,rel<=1e-5".
  std::string precision = "none";
  bool preferBitStable = false;
  /// The decision device of unpinned nodes ("cpu", "cuda:0", ...) or "none".
  std::string pinnedDevice = "cpu";
  bool priceTransfers = true;
  bool allowCostPlacement = true;
  bool requireTransferPricing = false;
  /// Kernel sources to admit (generated, openblas, blis, cublas); empty:
  /// every source. fuel-plan's `kernel-sources` is this list joined by
  /// commas.
  std::vector<std::string> kernelSources;
  /// Candidates kept per device (0 means 1).
  unsigned keepPerDevice = 32;
  ::fuel::plan::PlacementAlgorithm placementAlgorithm =
      ::fuel::plan::PlacementAlgorithm::Auto;
  /// Files the plan is exported to or imported from; empty: none.
  std::string exportPlan, importPlan, exportDot;
  /// Emit a remark per node explaining its placement.
  bool explain = false;
  /// A profile database (docs/PROFILE-DB.md) whose measurements replace
  /// Layer-1 times (SEMANTICS §3 step 7); empty: none.
  std::string profile;
  /// The runtime thread-pool size the measurements were taken with: part of
  /// every lookup key.
  int64_t profileThreads = 1;

  /// Declares every option to `binder`, in this order: one
  /// `binder.opt(name, field, description, modifiers...)` each, `field`
  /// pointing at the member above whose type and initializer are the
  /// option's type and default, and `modifiers` from plan_option. A binder
  /// provides `opt` for every field type used here.
  template <typename Binder> static void bindOptions(Binder &binder) {
    using namespace plan_option;
    binder.opt("topology", &PlanningOptions::topology,
               "Topology JSON file, 'probe', or empty (keep the module's, "
               "else the built-in default)",
               NotInText{"set the topology on its own (fuel-compile "
                         "--topology=FILE|probe, fuelCompileOptions.topology, "
                         "PlanningOptions::topology)"});
    binder.opt("precision", &PlanningOptions::precision,
               "Precision requirement: none, reference, deterministic or a "
               "list such as 'bit-stable,ulp<=1,rel<=1e-5'");
    binder.opt("prefer-bit-stable", &PlanningOptions::preferBitStable,
               "Prefer bit-stable candidates on each device");
    binder.opt("pinned-device", &PlanningOptions::pinnedDevice,
               "Decision device of unpinned nodes, or 'none'");
    binder.opt("price-transfers", &PlanningOptions::priceTransfers,
               "Price transfers between devices");
    binder.opt("allow-cost-placement", &PlanningOptions::allowCostPlacement,
               "Let cost move free nodes off their decision device");
    binder.opt("require-transfer-pricing",
               &PlanningOptions::requireTransferPricing,
               "Fail when price-transfers is off");
    binder.opt("kernel-sources", &PlanningOptions::kernelSources,
               "Kernel sources to admit: a comma list of generated, "
               "openblas, blis, cublas (empty: every source)");
    binder.opt("keep-per-device", &PlanningOptions::keepPerDevice,
               "Candidates kept per device (0 means 1)");
    binder.opt("placement-algorithm", &PlanningOptions::placementAlgorithm,
               "Placement solver: auto, greedy, exact-tree, mincut or "
               "brute-force",
               Values{"a placement algorithm", placementAlgorithmValues()});
    binder.opt("export-plan", &PlanningOptions::exportPlan,
               "Write the plan as JSON to this file ('-': stdout)");
    binder.opt("import-plan", &PlanningOptions::importPlan,
               "Pin nodes to the placements of this plan file");
    binder.opt("export-dot", &PlanningOptions::exportDot,
               "Write the plan as Graphviz DOT to this file");
    binder.opt("profile", &PlanningOptions::profile,
               "Profile database file whose measurements replace Layer-1 "
               "times (docs/PROFILE-DB.md); empty: none");
    binder.opt("profile-threads", &PlanningOptions::profileThreads,
               "The runtime thread-pool size the profile's measurements must "
               "have been taken with (fuel-judge --cpu-threads, default 1) "
               "and the plan is priced for (fuel-run --threads)",
               AtLeast{1});
    binder.opt("explain", &PlanningOptions::explain,
               "Emit a remark per node explaining it");
  }

  /// The name of the first option, in bindOptions order, whose value differs
  /// between `a` and `b`; empty when none does.
  static llvm::StringRef firstDifference(const PlanningOptions &a,
                                         const PlanningOptions &b);

  /// Every option's name, in bindOptions order.
  static std::vector<llvm::StringRef> optionNames();

  bool operator==(const PlanningOptions &other) const {
    return firstDifference(*this, other).empty();
  }
  bool operator!=(const PlanningOptions &other) const {
    return !(*this == other);
  }
};

} // namespace mlir::fuel

#endif // FUEL_PLANNING_PLANNINGOPTIONS_H
