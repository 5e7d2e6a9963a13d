//===- ValueFlow.cpp - Where values live and who reads them ---------------===//
//
// Residency rules shared by fuel-place and fuel-insert-residency-copies.
//
//===----------------------------------------------------------------------===//

#include "fuel/Dialect/Fuel/Transforms/ValueFlow.h"

#include "fuel/Dialect/Fuel/IR/FuelOps.h"
#include "fuel/Dialect/Fuel/Transforms/NodeAnalysis.h"
#include "fuel/Dialect/Fuel/Transforms/PlanState.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::fuel;
namespace plan = ::fuel::plan;

Value mlir::fuel::rootValue(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (auto copy = dyn_cast<CopyOp>(def)) {
      v = copy.getSource();
      continue;
    }
    Value source = getViewSource(def);
    if (!source)
      break;
    v = source;
  }
  return v;
}

plan::Device mlir::fuel::defaultResidency(PlanConfigAttr config) {
  if (config)
    if (DeviceAttr d = config.getPinnedDevice())
      return toPlan(d);
  return plan::Device::cpu();
}

/// The device of a `fuel.residency` entry of `attrs`, or `fallback`.
static plan::Device residencyIn(DictionaryAttr attrs, plan::Device fallback) {
  if (attrs)
    if (auto d = attrs.getAs<DeviceAttr>(FuelDialect::kResidencyAttrName))
      return toPlan(d);
  return fallback;
}

plan::Device mlir::fuel::argumentResidency(func::FuncOp func, unsigned index,
                                           plan::Device fallback) {
  return residencyIn(func.getArgAttrDict(index), fallback);
}

plan::Device mlir::fuel::resultResidency(func::FuncOp func, unsigned index,
                                         plan::Device fallback) {
  return residencyIn(func.getResultAttrDict(index), fallback);
}

LogicalResult mlir::fuel::verifyResidencies(func::FuncOp func,
                                            ArrayRef<plan::Device> devices) {
  auto check = [&](DictionaryAttr attrs, StringRef what,
                   unsigned index) -> LogicalResult {
    if (!attrs)
      return success();
    auto d = attrs.getAs<DeviceAttr>(FuelDialect::kResidencyAttrName);
    if (!d || llvm::is_contained(devices, toPlan(d)))
      return success();
    return emitFunctionError(func)
           << "residency of " << what << " #" << index << " is " << d.str()
           << ", which is not a device of the topology";
  };
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
    if (failed(check(func.getArgAttrDict(i), "argument", i)))
      return failure();
  for (unsigned i = 0, e = func.getNumResults(); i < e; ++i)
    if (failed(check(func.getResultAttrDict(i), "result", i)))
      return failure();
  return success();
}
