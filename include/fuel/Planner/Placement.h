//===- Placement.h - Phase B: placement over a whole function ---*- C++ -*-===//
//
// The IR-free part of placement (SEMANTICS §5): a plain problem the
// placement pass fills from a function (nodes with their admitted devices
// and the time of their best candidate on each, values with their bytes,
// producer and consumers), the exact objective, the solvers of the
// `placement-algorithm` option, and the per-node figures the pass records
// for explanation (best other device, inbound transfer ns).
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_PLANNER_PLACEMENT_H
#define FUEL_PLANNER_PLACEMENT_H

#include "fuel/Planner/Candidate.h"
#include "fuel/Planner/Device.h"
#include "fuel/Planner/Transfer.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fuel::plan {

/// One admitted device of a node and what choosing it costs: the time of
/// best(n, d), the node's best candidate there by the winner order, and
/// that candidate's coupling adjustments (SEMANTICS §5).
struct PlaceOption {
  Device device;
  /// time_ns of best(n, d).
  int64_t timeNs = 0;
  /// The coupling adjustments of best(n, d). `otherNode` is a node id of
  /// the same problem; an adjustment naming an id the problem lacks never
  /// applies.
  std::vector<CouplingAdjustment> couplings;
};

/// A kernel-bearing node to place.
struct PlaceNode {
  /// The node's id (unique within the problem); couplings refer to it.
  int64_t id = 0;
  /// The node's decision device: every tie prefers it (SEMANTICS §5).
  Device decisionDevice;
  /// The admitted devices that have a candidate, each once, in any order.
  /// A single entry fixes the node (pinned, destructive, or a frozen
  /// fallback set).
  std::vector<PlaceOption> options;

  /// The option for `d`, or nullptr when `d` is not admitted.
  const PlaceOption *option(Device d) const;
  /// True when the node has more than one admitted device.
  bool isFree() const { return options.size() > 1; }
};

/// A tensor value that may need copies: a node result, a function argument,
/// a host op's result or a constant (views are transparent, SEMANTICS §5).
struct PlaceValue {
  /// Size of the value in bytes.
  uint64_t bytes = 0;
  /// The index (into PlacementProblem::nodes) of the producing node, or
  /// std::nullopt when the value lives on `fixedSource`.
  std::optional<unsigned> producer;
  /// Where a value without a producing node lives: an argument's residency,
  /// `cpu` for a host op's result or a constant.
  Device fixedSource;
  /// Indices of the consuming nodes; a node listed several times counts
  /// once. Every consumer comes after the producer in node order.
  std::vector<unsigned> consumers;
  /// Devices that need the value whatever the placement: `cpu` for host-op
  /// readers, the result residency of a returned value.
  std::vector<Device> fixedConsumers;

  /// A value produced by node `node`.
  static PlaceValue ofNode(unsigned node, uint64_t bytes) {
    PlaceValue v;
    v.bytes = bytes;
    v.producer = node;
    return v;
  }
  /// A value that lives on `device` whatever the placement.
  static PlaceValue onDevice(Device device, uint64_t bytes) {
    PlaceValue v;
    v.bytes = bytes;
    v.fixedSource = device;
    return v;
  }
};

/// A whole function's placement problem (SEMANTICS §5).
struct PlacementProblem {
  /// The transfer model of the topology; must outlive every call.
  const TransferModel *transfers = nullptr;
  /// The devices of the topology in device order (at most 64); every option
  /// and every fixed device must be among them.
  std::vector<Device> devices;
  /// Nodes in program order (index order = node order).
  std::vector<PlaceNode> nodes;
  /// The values that connect them.
  std::vector<PlaceValue> values;

  /// Checks the rules the fields' comments state. An empty string when
  /// valid, otherwise a message naming the first problem.
  std::string validate() const;
  /// True when some option carries a coupling adjustment with a non-zero
  /// delta.
  bool hasCoupling() const;
  /// True when the graph is an in-forest (SEMANTICS §5): each value read by
  /// at most one consumer, counting nodes and fixed consumers together, and
  /// each node with at most one consumed result.
  bool isInForest() const;
  /// The devices that appear among the nodes' options, in device order.
  std::vector<Device> nodeDevices() const;
  /// Number of free nodes (more than one admitted device).
  unsigned numFreeNodes() const;
};

/// The objective of a placement and its three parts (SEMANTICS §5), each a
/// saturating sum; coupling deltas are signed.
struct Objective {
  /// Σ time_ns(best(n, P(n))).
  int64_t nodesNs = 0;
  /// Σ over values of the cost of their copy sets.
  int64_t copiesNs = 0;
  /// Σ of the satisfied coupling deltas of the chosen candidates.
  int64_t couplingNs = 0;
  /// nodesNs + copiesNs + couplingNs, saturating.
  int64_t totalNs = 0;

  friend bool operator==(const Objective &a, const Objective &b) {
    return a.nodesNs == b.nodesNs && a.copiesNs == b.copiesNs &&
           a.couplingNs == b.couplingNs && a.totalNs == b.totalNs;
  }
};

/// The objective of `placement` (one device per node, in node order):
/// Σ_nodes [time_ns(best(n, P(n))) + satisfied coupling deltas of that
/// candidate] + Σ_v cost(copy set of v), where the copy set of v brings it
/// from its producer's placement (or fixed source) to the placements of its
/// consumers and to its fixed consumers, once per (value, target device). A
/// node placed on a device it does not admit costs INT64_MAX. The problem
/// must be valid.
Objective evaluate(const PlacementProblem &problem,
                   llvm::ArrayRef<Device> placement);

/// The `placement-algorithm` option (SEMANTICS §5).
enum class PlacementAlgorithm : uint8_t {
  Greedy,
  ExactTree,
  MinCut,
  Auto,
  BruteForce
};

/// "greedy", "exact-tree", "mincut", "auto", "brute-force".
std::string_view stringifyPlacementAlgorithm(PlacementAlgorithm a);
/// Inverse of stringifyPlacementAlgorithm.
std::optional<PlacementAlgorithm>
symbolizePlacementAlgorithm(std::string_view s);

/// The most free nodes brute force enumerates (SEMANTICS §5).
inline constexpr unsigned kBruteForceMaxFreeNodes = 14;

/// A solver's answer.
struct PlacementResult {
  /// One device per node, in node order.
  std::vector<Device> placement;
  /// evaluate(problem, placement).
  Objective objective;
  /// True when the placement is known to minimise the objective.
  bool exact = false;
  /// The solver that produced the placement (for auto: the one it chose,
  /// Auto itself when it searched).
  PlacementAlgorithm solvedBy = PlacementAlgorithm::Auto;
  /// Empty, or a sentence saying why the result is not exact.
  std::string note;
};

/// Places every node of a valid problem with `algorithm` (SEMANTICS §5).
/// Deterministic; at every choice the node's decision device is preferred,
/// then device order (brute force: among equal objectives, the least plan
/// compared node by node in ascending id, each node's devices ranked the
/// same way). Auto is exact, without coupling terms, on an in-forest or
/// when at most two devices appear among the nodes' options and the values'
/// fixed sources and fixed consumers; otherwise it searches and is never
/// worse than greedy, the tree DP or a single-device plan. Errors
/// (PlanError::Kind::InvalidOption): an invalid problem; brute force over more
/// than 14 free nodes; exact-tree or mincut on a problem with coupling terms;
/// mincut with more than two devices among the nodes' options.
llvm::Expected<PlacementResult> solvePlacement(const PlacementProblem &problem,
                                               PlacementAlgorithm algorithm);

/// For explanation: the best other device of one node and the objective
/// change of moving that node alone there.
struct MoveDelta {
  /// The best other admitted device (least objective change; ties: the
  /// decision device, then device order); std::nullopt for a fixed node.
  std::optional<Device> device;
  /// objective(after the move) - objective(before), signed; 0 when there is
  /// no other device.
  int64_t deltaNs = 0;
};

/// Per node, in node order: its best other device under `placement` and the
/// objective change of moving it alone there (SEMANTICS §5, "After
/// placement"). Exact unless the objective saturates.
std::vector<MoveDelta> bestOtherDevice(const PlacementProblem &problem,
                                       llvm::ArrayRef<Device> placement);

/// Per node, in node order: the inbound transfer ns, the cost of the hops
/// that bring its operands (each distinct value once) from where they live
/// to the node's device. A shared host hop appears on each reader; the
/// objective counts it once (SEMANTICS §5).
std::vector<int64_t> inboundTransferNs(const PlacementProblem &problem,
                                       llvm::ArrayRef<Device> placement);

} // namespace fuel::plan

#endif // FUEL_PLANNER_PLACEMENT_H
