//===- Error.h - The error type of the IR-free planner ----------*- C++ -*-===//
//
// One error type for the whole `fuel::plan` layer (docs/ARCHITECTURE.md: one
// error type per layer). Functions that can fail return `llvm::Expected<T>` or
// `llvm::Error` carrying a PlanError; passes turn it into a diagnostic with
// `llvm::handleAllErrors` and read the structured fields when they want more
// than the message.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_PLANNER_ERROR_H
#define FUEL_PLANNER_ERROR_H

#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fuel::plan {

/// An error of the IR-free planner. The kind says which rule failed; the
/// message is a complete, user-facing sentence; the structured fields are
/// filled for the kinds that name them.
class PlanError : public llvm::ErrorInfo<PlanError> {
public:
  /// What went wrong.
  enum class Kind : uint8_t {
    /// SEMANTICS §3 step 4: no admitted device has a registered variant.
    NoBackendForOp,
    /// SEMANTICS §3 step 4: a hard filter emptied every admitted device.
    FilterRejected,
    /// SEMANTICS §3 step 1: neither a pin nor a pipeline device.
    NoDeviceContext,
    /// The decision device is not a device of the topology.
    UnknownDevice,
    /// A malformed option text, e.g. a precision requirement (SEMANTICS §9).
    InvalidOption,
  };

  /// The ErrorInfo class identity.
  static char ID;

  /// An error of `kind` with a complete message; prefer the factories.
  PlanError(Kind kind, std::string message)
      : kind(kind), msg(std::move(message)) {}

  /// Builds a NoBackendForOp error. `registered` lists the registered
  /// (backend, op, dtypes) combinations, already spelled.
  static llvm::Error noBackendForOp(std::string op, std::string dtypes,
                                    std::vector<std::string> devicesPresent,
                                    std::vector<std::string> registered);
  /// Builds a FilterRejected error: `filter` removed `count` candidates,
  /// leaving no admitted device any; `context` summarises the decision.
  static llvm::Error filterRejected(std::string filter, std::string context,
                                    uint64_t count, std::string detail = {});
  /// Builds an error of any other kind.
  static llvm::Error make(Kind kind, std::string message);

  /// Which rule failed.
  Kind getKind() const { return kind; }
  /// The complete message.
  std::string message() const override { return msg; }

  /// NoBackendForOp: the op kind spelling.
  const std::string &op() const { return opName; }
  /// NoBackendForOp: the dtypes key spelling.
  const std::string &dtypes() const { return dtypesKey; }
  /// NoBackendForOp: the topology's devices, in device order.
  const std::vector<std::string> &devicesPresent() const { return devices; }
  /// NoBackendForOp: the registered (backend, op, dtypes) combinations.
  const std::vector<std::string> &registered() const { return combos; }
  /// FilterRejected: the filter's name, e.g. "precision-floor".
  const std::string &filter() const { return filterName; }
  /// FilterRejected: the decision context summary.
  const std::string &context() const { return contextSummary; }
  /// FilterRejected: how many candidates the filter rejected.
  uint64_t count() const { return rejected; }

  /// Prints the message (llvm::toString and friends use this).
  void log(llvm::raw_ostream &os) const override;
  /// Always llvm::inconvertibleErrorCode(): a PlanError is not an errno.
  std::error_code convertToErrorCode() const override;

private:
  Kind kind;
  std::string msg;
  std::string opName, dtypesKey;
  std::vector<std::string> devices, combos;
  std::string filterName, contextSummary;
  uint64_t rejected = 0;
};

} // namespace fuel::plan

#endif // FUEL_PLANNER_ERROR_H
