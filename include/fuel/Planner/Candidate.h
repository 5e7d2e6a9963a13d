//===- Candidate.h - Candidates, cost vectors, the winner order -*- C++ -*-===//
//
// One way to run a node (SEMANTICS §1), its cost vector (§6), Pareto
// dominance (§6) and the total winner order that ranks an alternative set
// (§3 step 8, §6). Plain structs: passes translate `#fuel.candidate`
// attributes to and from these.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_PLANNER_CANDIDATE_H
#define FUEL_PLANNER_CANDIDATE_H

#include "fuel/Planner/Device.h"
#include "fuel/Planner/OpKind.h"
#include "fuel/Planner/Precision.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace fuel::plan {

/// Where a candidate's time_ns came from (SEMANTICS §3 steps 6-7).
enum class TimeSource : uint8_t { Static, Measured };

/// "static" or "measured".
llvm::StringRef stringifyTimeSource(TimeSource s);

/// The static cost of a variant on a node (SEMANTICS §1): the work and the
/// variant's own overhead.
struct StaticCost {
  uint64_t flops = 0;
  uint64_t bytes = 0;
  int64_t overheadNs = 0;

  friend bool operator==(const StaticCost &a, const StaticCost &b) {
    return a.flops == b.flops && a.bytes == b.bytes &&
           a.overheadNs == b.overheadNs;
  }
};

/// The condition of a coupling adjustment on the other node's placement:
/// either an exact device or a backend (device kind).
using CouplingCondition = std::variant<Device, DeviceKind>;

/// True when a node placed on `placement` meets `condition`.
bool matchesCondition(const CouplingCondition &condition, Device placement);

/// A coupling adjustment copied onto a candidate (SEMANTICS §1): when the
/// node `otherNode` is placed on a device meeting `condition`, this
/// candidate's time changes by `deltaNs` (signed).
struct CouplingAdjustment {
  int64_t otherNode = 0;
  CouplingCondition condition = Device::cpu();
  int64_t deltaNs = 0;

  friend bool operator==(const CouplingAdjustment &a,
                         const CouplingAdjustment &b) {
    return a.otherNode == b.otherNode && a.condition == b.condition &&
           a.deltaNs == b.deltaNs;
  }
};

/// One way to run a node: every field of SEMANTICS §1. The backend is the
/// device's kind.
struct Candidate {
  /// The registry entry, e.g. "cpu.openblas.matmul_f32"; unique in the
  /// registry.
  std::string kernelId;
  /// Capabilities such as "strided_input"; sorted and unique (normalize()).
  std::vector<std::string> caps;
  /// Where it runs.
  Device device;
  /// The precision the variant guarantees.
  Precision precision;
  /// Flops, bytes and the variant's own overhead.
  StaticCost cost;
  /// Kernel time in ns (Layer 1, or Layer 2 when measured).
  int64_t timeNs = 0;
  TimeSource timeSource = TimeSource::Static;
  /// When measured: the Layer-1 time the measurement replaced, which orders
  /// a tie set (SEMANTICS §6 "Measured ties"); 0 and unused when static.
  int64_t staticTimeNs = 0;
  /// When measured: the measurement's noise (median absolute deviation), in
  /// ns, rounded up; 0 when static.
  int64_t noiseNs = 0;
  /// Footprint in the host tier (SEMANTICS §3: operands, results and
  /// workspace of a cpu candidate).
  uint64_t hostBytes = 0;
  /// Footprint in the device tier.
  uint64_t deviceBytes = 0;
  /// Cost of the hops bringing the operands to the device; filled after
  /// placement (SEMANTICS §5).
  int64_t inboundTransferNs = 0;
  /// Op params (strides, function, combiner, pool kind), sorted by key.
  std::vector<std::pair<std::string, std::string>> params;
  /// Coupling adjustments that apply to this candidate.
  std::vector<CouplingAdjustment> couplings;
  /// Who wrote the kernel: "generated", "openblas", "blis", "cublas", ...
  std::string kernelSource;
  /// xxh3 over the registry record, schedule and version; 0 if synthetic.
  uint64_t revisionHash = 0;
  /// Registry priority; higher wins a late tie (SEMANTICS §6).
  int64_t registryPriority = 0;
  /// True for the single frozen winner of a fallback set (SEMANTICS §3).
  bool fallback = false;

  /// The backend: the device's kind (SEMANTICS §1).
  DeviceKind backend() const { return device.kind; }
  /// True when timeNs is a measurement (Layer 2).
  bool measured() const { return timeSource == TimeSource::Measured; }
  /// The Layer-1 time: staticTimeNs when measured, else timeNs.
  int64_t layer1TimeNs() const { return measured() ? staticTimeNs : timeNs; }
  /// True when `cap` is among the caps (binary search: caps are sorted).
  bool hasCap(llvm::StringRef cap) const;
  /// The value of op param `key`, or std::nullopt.
  std::optional<llvm::StringRef> param(llvm::StringRef key) const;
  /// Sorts and deduplicates caps; sorts params by key (stable, so a
  /// repeated key keeps its first value first).
  void normalize();

  friend bool operator==(const Candidate &a, const Candidate &b);
  friend bool operator!=(const Candidate &a, const Candidate &b) {
    return !(a == b);
  }
};

/// The decision context of an alternative set (SEMANTICS §1).
struct DecisionContext {
  OpKind op = OpKind::Generic;
  std::string principalDtype;
  uint32_t sizeClass = 0;
  Device decisionDevice;

  /// "matmul f32 size_class=0x0f0608 decision_device=cpu": the summary that
  /// diagnostics and FilterRejected errors print.
  std::string str() const;
};

/// The five axes of SEMANTICS §6. Lower time and bytes are better; higher
/// precision digits and accuracy class are better.
struct CostVector {
  int64_t timeNs = 0;
  uint64_t hostBytes = 0;
  uint64_t deviceBytes = 0;
  unsigned precisionDigits = 0;
  unsigned accuracyClass = 0;

  friend bool operator==(const CostVector &a, const CostVector &b) {
    return a.timeNs == b.timeNs && a.hostBytes == b.hostBytes &&
           a.deviceBytes == b.deviceBytes &&
           a.precisionDigits == b.precisionDigits &&
           a.accuracyClass == b.accuracyClass;
  }
};

/// The cost vector of a candidate.
CostVector costVector(const Candidate &c);

/// `a` dominates `b`: no worse on every axis and strictly better on at least
/// one (SEMANTICS §6).
bool dominates(const CostVector &a, const CostVector &b);

/// The winner order (SEMANTICS §6), a total order: lower time; higher
/// precision digits; higher accuracy class; lower total bytes (host +
/// device, saturating); higher registry priority; the decision device before
/// others; device order; kernel id bytewise ascending. True when `a` ranks
/// strictly before `b`.
bool winnerLess(const Candidate &a, const Candidate &b, Device decisionDevice);

/// True when measured candidate `c` ties with `fastest`, the fastest
/// measured candidate of its device (SEMANTICS §6 "Measured ties"): its time
/// exceeds the fastest one's by at most max(2% of the fastest one's time,
/// the sum of both noises). Exact integer arithmetic.
bool withinMeasuredTie(const Candidate &c, const Candidate &fastest);

/// Sorts `candidates` by the winner order with measured ties (SEMANTICS §6),
/// stably (equal candidates keep their order), so index 0 is the winner
/// (SEMANTICS §3 step 8). Per device, the measured candidates that tie with
/// the device's fastest measured one form a block placed where that fastest
/// one ranks, ordered inside by the winner order over their Layer-1 times;
/// every other candidate ranks by the plain winner order.
void rank(std::vector<Candidate> &candidates, Device decisionDevice);

/// Reorders `candidates` in place so position i holds the candidate that
/// was at `order[i]`; `order` must be a permutation of the positions.
void applyOrder(std::vector<Candidate> &candidates,
                llvm::ArrayRef<unsigned> order);

/// The permutation rank() would apply: position i of the result is the
/// input index of the candidate ranked i-th. Independent of the input order
/// up to candidates equal in every field the order reads.
std::vector<unsigned> rankOrder(const std::vector<Candidate> &candidates,
                                Device decisionDevice);

} // namespace fuel::plan

#endif // FUEL_PLANNER_CANDIDATE_H
