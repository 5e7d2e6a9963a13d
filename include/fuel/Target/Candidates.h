//===- Candidates.h - Registry records as planner candidates ----*- C++ -*-===//
//
// Candidate construction, IR-free (SEMANTICS §3 steps 3 and 6): the records
// a kernel registry holds for a node's (op kind, dtypes) become
// fuel::plan candidates on every admitted device, and a candidate is priced
// from its record's cost function, the device's rates and the record's
// efficiencies. fuel-enumerate-candidates and fuel-annotate-costs read a
// node's facts from the IR and call these; so can anything that plans
// without IR.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_TARGET_CANDIDATES_H
#define FUEL_TARGET_CANDIDATES_H

#include "fuel/Planner/Admission.h"
#include "fuel/Planner/Candidate.h"
#include "fuel/Planner/Topology.h"
#include "fuel/Target/CostModel.h"
#include "fuel/Target/KernelRegistry.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <utility>
#include <vector>

namespace fuel::target {

/// A frontend coupling entry of a node (SEMANTICS §1): `adjustment` applies
/// to the node's candidates on device `on`.
struct NodeCoupling {
  plan::Device on;
  plan::CouplingAdjustment adjustment;
};

/// What enumeration reads of a node.
struct CandidateQuery {
  plan::OpKind op = plan::OpKind::Generic;
  /// The node's dtypes key: input element types, then the output's.
  std::vector<std::string> dtypes;
  /// Op params, sorted by key; copied onto every candidate.
  std::vector<std::pair<std::string, std::string>> params;
  /// The node's coupling entries; each is copied onto the candidates of its
  /// device.
  std::vector<NodeCoupling> couplings;
  /// The node's `fuel.kernel` (SEMANTICS §1): when non-empty, only the
  /// record with this kernel id gives candidates.
  std::string kernelId;
  /// The `kernel-sources` option (SEMANTICS §3 step 3): when non-empty,
  /// only records of these sources give candidates.
  std::vector<KernelSource> sources;
};

/// SEMANTICS §3 step 3: one candidate per record of `registry` for
/// (query.op, query.dtypes) on each admitted device of that backend, in
/// admitted-device order and, per device, in kernel id order; normalized,
/// and not yet priced. Only records of `query.sources` (when set) and only
/// the record `query.kernelId` (when set) count. Empty when no record
/// matches on any admitted device: step 4's NoBackendForOp (or, with a
/// restriction, explainEmptyEnumeration's message) is the caller's to
/// report.
std::vector<plan::Candidate>
buildCandidates(const KernelRegistry &registry, const CandidateQuery &query,
                llvm::ArrayRef<plan::AdmittedDevice> admitted);

/// Why buildCandidates gave nothing for `query` on `admitted` although the
/// registry has records for (op, dtypes) on one of the admitted devices'
/// backends: the message names the forced kernel (and whether it is not
/// registered at all, is registered for another op, dtype or backend, or is
/// of a source `kernel-sources` excludes) or the sources that left nothing,
/// with the kernels and sources that are registered there. Empty when the
/// restrictions are not the reason (no record matches at all: that is
/// NoBackendForOp).
std::string
explainEmptyEnumeration(const KernelRegistry &registry,
                        const CandidateQuery &query,
                        llvm::ArrayRef<plan::AdmittedDevice> admitted);

/// What pricing reads of a node.
struct PricingQuery {
  /// The cost function's inputs.
  CostQuery cost;
  /// The principal dtype, which selects the device's peak rate.
  std::string dtype;
  /// Bytes of the node's tensor operands and of its results.
  uint64_t operandBytes = 0;
  uint64_t resultBytes = 0;
};

/// SEMANTICS §3 step 6: sets the static cost, Layer-1 time and footprint of
/// `candidate` from its record in `registry` and its device in `topology`.
/// Returns describePriors' warning when the time rests on a prior rate of
/// the device, else an empty string; an error names the candidate when its
/// kernel is not registered, its device is not in the topology or its cost
/// function rejects the query.
llvm::Expected<std::string> priceCandidate(const KernelRegistry &registry,
                                           const plan::Topology &topology,
                                           const PricingQuery &query,
                                           plan::Candidate &candidate);

} // namespace fuel::target

#endif // FUEL_TARGET_CANDIDATES_H
