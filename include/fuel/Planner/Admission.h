//===- Admission.h - Decision device, admission, filter chain ---*- C++ -*-===//
//
// Phase A steps 1, 2, 4 and 5 of SEMANTICS §3 for one node: which device
// decides, which devices the node may use, and which of its enumerated
// candidates survive the filter chain. Enumeration itself (step 3) needs the
// kernel registry and lives with it; this file takes its output.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_PLANNER_ADMISSION_H
#define FUEL_PLANNER_ADMISSION_H

#include "fuel/Planner/Candidate.h"
#include "fuel/Planner/Device.h"
#include "fuel/Planner/OpKind.h"
#include "fuel/Planner/Precision.h"
#include "fuel/Planner/SizeClass.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fuel::plan {

/// The decision device (SEMANTICS §3 step 1): the node's pin, else the
/// pipeline's `pinned-device` (std::nullopt for `none`), else a
/// PlanError::Kind::NoDeviceContext error naming `nodeName`.
llvm::Expected<Device> decideDevice(std::optional<Device> pin,
                                    std::optional<Device> pipelineDevice,
                                    llvm::StringRef nodeName);

/// How a node may be admitted (SEMANTICS §3 step 2, §9).
struct AdmissionOptions {
  /// The node carries `fuel.pin` (or an imported pin) or is destructive.
  bool pinnedOrDestructive = false;
  /// The `price-transfers` option.
  bool priceTransfers = true;
  /// The `allow-cost-placement` option.
  bool allowCostPlacement = true;
};

/// One admitted device.
struct AdmittedDevice {
  Device device;
  /// Consulted only when the decision device has no survivor; the fallback
  /// set is then frozen to its single winner.
  bool fallback = false;

  friend bool operator==(const AdmittedDevice &a, const AdmittedDevice &b) {
    return a.device == b.device && a.fallback == b.fallback;
  }
};

/// The admission table of SEMANTICS §3 step 2. Returns the admitted devices,
/// the decision device first, then the others of `topologyDevices` in device
/// order: only the decision device for a pinned or destructive node; every
/// device for a free node when pricing and cost placement are both on;
/// otherwise the decision device plus every other device as a fallback.
/// Fails (PlanError::Kind::UnknownDevice) when the decision device is not
/// among `topologyDevices`.
llvm::Expected<std::vector<AdmittedDevice>>
admitDevices(Device decisionDevice, llvm::ArrayRef<Device> topologyDevices,
             const AdmissionOptions &options);

/// Names of the filters of SEMANTICS §3 step 5, in chain order.
inline constexpr llvm::StringLiteral kPrecisionFloorFilter = "precision-floor";
inline constexpr llvm::StringLiteral kStridedInputFilter =
    "strided-input-preference";
inline constexpr llvm::StringLiteral kBitStableFilter = "bit-stable-preference";
/// The capability the strided-input preference looks for.
inline constexpr llvm::StringLiteral kStridedInputCap = "strided_input";

/// The node facts and options the filter chain reads.
struct FilterOptions {
  /// The `precision` requirement (default `none`: everything passes).
  Precision requirement;
  /// An operand of the node is non-contiguous (its producer is a view that
  /// is not a contiguous reshape): enables the strided-input preference.
  bool hasNonContiguousOperand = false;
  /// The `prefer-bit-stable` option: enables the bit-stable preference.
  bool preferBitStable = false;
  /// Freeze a consulted fallback set to its single winner here. Off when the
  /// caller ranks later (the planning passes filter before candidates have
  /// times, and freeze in retention); the survivors then all come back,
  /// tagged `fallback`, in input order.
  bool freezeFallback = true;
};

/// What one filter did on one device.
struct FilterStep {
  enum class Action : uint8_t {
    /// The filter ran and kept `after` of `before` candidates.
    Applied,
    /// A soft filter that would have left fewer than its minimum (1).
    Skipped,
    /// A hard filter left none: the device leaves the admitted set.
    RemovedDevice,
    /// The filter's condition did not hold (e.g. all operands contiguous).
    Inactive,
  };
  /// Which filter (one of the k*Filter names).
  llvm::StringLiteral filter = kPrecisionFloorFilter;
  /// The device whose candidates it saw.
  Device device;
  /// What it did.
  Action action = Action::Applied;
  /// Candidates on the device before and after the filter.
  unsigned before = 0;
  unsigned after = 0;

  /// "applied", "skipped", "removed-device" or "inactive".
  llvm::StringRef actionName() const;
};

/// The inputs of the error messages of SEMANTICS §3 step 4.
struct SelectionContext {
  /// The decision context (op kind, principal dtype, size class, decision
  /// device); its summary names FilterRejected errors.
  DecisionContext decision;
  /// The node's full dtypes key, printed by NoBackendForOp.
  DtypesKey dtypes;
  /// Every device of the topology, in device order.
  std::vector<Device> devicesPresent;
  /// The registry's (backend, op, dtypes) combinations, already spelled
  /// (e.g. "(cpu, matmul, f32,f32->f32)"), for NoBackendForOp.
  std::vector<std::string> registered;
};

/// The outcome of admission plus the filter chain for one node.
struct Selection {
  /// The survivors in input order: every non-fallback admitted device's
  /// survivors, or, when the decision device had none and fallback devices
  /// were consulted, the single winner of the fallback set with its
  /// `fallback` flag set.
  std::vector<Candidate> candidates;
  /// The admitted devices that kept survivors, in admission order.
  std::vector<Device> devices;
  /// True when the candidates come from fallback devices.
  bool usedFallback = false;
  /// Every filter step on every consulted device, in order, so a pass can
  /// explain the decision.
  std::vector<FilterStep> trace;
};

/// Runs SEMANTICS §3 steps 4-5 over `enumerated` (the candidates of every
/// admitted device; candidates on other devices are ignored). Raises
/// NoBackendForOp before filtering when no admitted device has a candidate,
/// and FilterRejected when a hard filter empties every admitted device that
/// had candidates. Fallback devices are filtered only when the decision
/// device has no survivor; their survivors are then ranked by the winner
/// order and frozen to the single winner.
llvm::Expected<Selection>
selectCandidates(std::vector<Candidate> enumerated,
                 llvm::ArrayRef<AdmittedDevice> admitted,
                 const FilterOptions &options, const SelectionContext &context);

} // namespace fuel::plan

#endif // FUEL_PLANNER_ADMISSION_H
