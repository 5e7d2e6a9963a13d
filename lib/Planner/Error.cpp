//===- Error.cpp - The error type of the IR-free planner ------------------===//
//
// Message composition for PlanError (SEMANTICS §3 step 4).
//
//===----------------------------------------------------------------------===//

#include "fuel/Planner/Error.h"

#include "llvm/Support/raw_ostream.h"

namespace fuel::plan {

char PlanError::ID = 0;

static std::string joinList(const std::vector<std::string> &items) {
  if (items.empty())
    return "none";
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i)
      out += ", ";
    out += items[i];
  }
  return out;
}

llvm::Error PlanError::noBackendForOp(std::string op, std::string dtypes,
                                      std::vector<std::string> devicesPresent,
                                      std::vector<std::string> registered) {
  std::string message =
      "no backend for op '" + op + "' with dtypes (" + dtypes +
      ") on the admitted devices; devices present: " +
      joinList(devicesPresent) +
      "; registered (backend, op, dtypes): " + joinList(registered);
  auto err =
      std::make_unique<PlanError>(Kind::NoBackendForOp, std::move(message));
  err->opName = std::move(op);
  err->dtypesKey = std::move(dtypes);
  err->devices = std::move(devicesPresent);
  err->combos = std::move(registered);
  return llvm::Error(std::move(err));
}

llvm::Error PlanError::filterRejected(std::string filter, std::string context,
                                      uint64_t count, std::string detail) {
  std::string message = "filter '" + filter + "' rejected every candidate (" +
                        std::to_string(count) + ") of " + context;
  if (!detail.empty())
    message += " (" + detail + ")";
  auto err =
      std::make_unique<PlanError>(Kind::FilterRejected, std::move(message));
  err->filterName = std::move(filter);
  err->contextSummary = std::move(context);
  err->rejected = count;
  return llvm::Error(std::move(err));
}

llvm::Error PlanError::make(Kind kind, std::string message) {
  return llvm::make_error<PlanError>(kind, std::move(message));
}

void PlanError::log(llvm::raw_ostream &os) const { os << msg; }

std::error_code PlanError::convertToErrorCode() const {
  return llvm::inconvertibleErrorCode();
}

} // namespace fuel::plan
