//===- FuelDialect.cpp - The fuel dialect ---------------------------------===//
//
// Dialect registration, aliases for the large attributes, and verification of
// the discardable attributes frontends attach (`fuel.pin`, `fuel.kernel`,
// `fuel.residency`, `fuel.destructive`, `fuel.coupling`) and of the stamped
// `fuel.topology`.
//
//===----------------------------------------------------------------------===//

#include "fuel/Dialect/Fuel/IR/FuelOps.h"

#include "fuel/Planner/Device.h"
#include "fuel/Planner/OpKind.h"
#include "fuel/Target/KernelRegistry.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::fuel;

#include "fuel/Dialect/Fuel/IR/FuelDialect.cpp.inc"

namespace {
/// Gives the large attributes short aliases, so printed plans stay readable:
/// each node refers to `#alts`, each alternative set to `#cand` entries that
/// equal candidates of different nodes share.
struct FuelOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;

  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<CandidateAttr>(attr)) {
      os << "cand";
      return AliasResult::FinalAlias;
    }
    if (isa<AlternativeSetAttr>(attr)) {
      os << "alts";
      return AliasResult::FinalAlias;
    }
    if (isa<TopologyAttr>(attr)) {
      os << "topology";
      return AliasResult::FinalAlias;
    }
    return AliasResult::NoAlias;
  }
};
} // namespace

void FuelDialect::initialize() {
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "fuel/Dialect/Fuel/IR/FuelOps.cpp.inc"
      >();
  addInterfaces<FuelOpAsmInterface>();
}

/// True when `attr` denotes one concrete device.
static bool isSingleDevice(Attribute attr) {
  auto placement = dyn_cast<PlacementAttrInterface>(attr);
  return placement && placement.getSingleDevice();
}

/// Checks that `attr`, found under `name`, is a single device.
static LogicalResult verifyDeviceAnnotation(Operation *op, StringRef name,
                                            Attribute attr) {
  if (isSingleDevice(attr))
    return success();
  return op->emitError() << "'" << name
                         << "' must be a device such as #fuel.device<cpu> or "
                            "#fuel.device<cuda:0>, got "
                         << attr;
}

static bool isKernelAttribute(StringRef name) {
  using namespace kernel_attr;
  return name == kKernelId || name == kOpKind || name == kRevision ||
         name == kSchedule || name == kWorkgroups || name == kWorkspaceBytes ||
         name == kInPlace;
}

/// The attributes of a generated kernel function (FuelOps.h, kernel_attr).
static LogicalResult verifyKernelAttribute(Operation *op, StringRef name,
                                           Attribute value) {
  using namespace kernel_attr;
  if (!isa<FunctionOpInterface>(op))
    return op->emitError() << "'" << name << "' belongs on a kernel function";
  if (name == kKernelId || name == kOpKind || name == kSchedule) {
    auto text = dyn_cast<StringAttr>(value);
    if (!text || text.getValue().empty())
      return op->emitError()
             << "'" << name << "' must be a non-empty string, got " << value;
    return success();
  }
  if (name == kRevision) {
    if (!isa<IntegerAttr>(value))
      return op->emitError()
             << "'" << name << "' must be an integer, got " << value;
    return success();
  }
  if (name == kWorkspaceBytes) {
    auto bytes = dyn_cast<IntegerAttr>(value);
    if (!bytes || bytes.getValue().isNegative())
      return op->emitError()
             << "'" << name << "' must be a non-negative integer, got "
             << value;
    return success();
  }
  if (name == kInPlace) {
    auto inPlace = dyn_cast<DenseI64ArrayAttr>(value);
    if (!inPlace ||
        llvm::any_of(inPlace.asArrayRef(), [](int64_t i) { return i < -1; }))
      return op->emitError() << "'" << name
                             << "' must be an array<i64> of input indices or "
                                "-1, got "
                             << value;
    return success();
  }
  auto grid = dyn_cast<DenseI64ArrayAttr>(value);
  if (!grid || grid.size() != 3 ||
      llvm::any_of(grid.asArrayRef(),
                   [](int64_t n) { return n < 1 || n >= (int64_t(1) << 32); }))
    return op->emitError() << "'" << name
                           << "' must be array<i64: x, y, z> with each in "
                              "[1, 2^32), got "
                           << value;
  return success();
}

std::string mlir::fuel::kernelIdShapeProblem(StringRef id) {
  auto fail = [&](const Twine &why) -> std::string {
    return ("kernel id '" + id + "' " + why +
            "; expected '<backend>.<source>.<op kind>_<suffix>' such as "
            "'cpu.openblas.matmul_f32'")
        .str();
  };
  SmallVector<StringRef, 3> parts;
  id.split(parts, '.');
  if (parts.size() != 3)
    return fail("does not have three dot-separated parts");
  if (!::fuel::plan::symbolizeDeviceKind(parts[0].str()))
    return fail("names an unknown backend '" + parts[0] + "'");
  if (!::fuel::target::symbolizeKernelSource(parts[1].str()))
    return fail("names an unknown kernel source '" + parts[1] + "'");
  // The op kind is a known prefix followed by '_' and a snake-case suffix.
  StringRef rest = parts[2];
  for (::fuel::plan::OpKind kind : ::fuel::kAllOpKinds) {
    StringRef name = ::fuel::plan::stringifyOpKind(kind);
    if (rest.starts_with(name) && rest.size() > name.size() + 1 &&
        rest[name.size()] == '_' &&
        llvm::all_of(rest.drop_front(name.size() + 1), [](char c) {
          return llvm::isLower(c) || llvm::isDigit(c) || c == '_';
        }))
      return {};
  }
  return fail("has no '<op kind>_<suffix>' part of a known op kind and a "
              "suffix of [a-z0-9_]");
}

LogicalResult
mlir::fuel::verifyKernelIdShape(function_ref<InFlightDiagnostic()> emitError,
                                StringRef id) {
  std::string problem = kernelIdShapeProblem(id);
  if (problem.empty())
    return success();
  return emitError() << problem;
}

LogicalResult FuelDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attribute) {
  StringRef name = attribute.getName().getValue();
  Attribute value = attribute.getValue();
  if (name == kPinAttrName)
    return verifyDeviceAnnotation(op, name, value);
  if (name == kKernelAttrName) {
    auto id = dyn_cast<StringAttr>(value);
    if (!id)
      return op->emitError() << "'" << name
                             << "' must be a kernel id string such as "
                                "\"cpu.openblas.matmul_f32\", got "
                             << value;
    return verifyKernelIdShape(
        [&] { return op->emitError() << "'" << name << "': "; }, id.getValue());
  }
  if (name == kDestructiveAttrName) {
    if (!isa<UnitAttr>(value))
      return op->emitError()
             << "'" << name << "' is a unit attribute, got " << value;
    return success();
  }
  if (name == kCouplingAttrName) {
    auto list = dyn_cast<ArrayAttr>(value);
    if (!list)
      return op->emitError()
             << "'" << name << "' must be a list of #fuel.coupling";
    for (auto [index, entry] : llvm::enumerate(list)) {
      auto coupling = dyn_cast<CouplingAttr>(entry);
      if (!coupling)
        return op->emitError() << "'" << name << "' entry #" << index
                               << " is not a #fuel.coupling: " << entry;
      if (!coupling.getOn())
        return op->emitError()
               << "'" << name << "' entry #" << index
               << " needs 'on = <device>': the device of this op it applies "
                  "to";
    }
    return success();
  }
  if (name == kTopologyAttrName) {
    if (!isa<TopologyAttr>(value))
      return op->emitError()
             << "'" << name << "' must be a #fuel.topology, got " << value;
    if (!isa<ModuleOp>(op))
      return op->emitError() << "'" << name << "' belongs on a builtin.module";
    return success();
  }
  if (name == kConfigAttrName) {
    if (!isa<PlanConfigAttr>(value))
      return op->emitError()
             << "'" << name << "' must be a #fuel.config, got " << value;
    if (!isa<ModuleOp>(op))
      return op->emitError() << "'" << name << "' belongs on a builtin.module";
    return success();
  }
  if (name == kPredictedNsAttrName) {
    if (!isa<PredictedAttr>(value))
      return op->emitError()
             << "'" << name << "' must be a #fuel.predicted, got " << value;
    if (!isa<FunctionOpInterface>(op))
      return op->emitError() << "'" << name << "' belongs on a function";
    return success();
  }
  // fuel-annotate-costs' deferred warnings, for fuel-warn-costs, which
  // checks the entries (docs/FuelPlanningPasses.md).
  if (name == "fuel.cost_warnings") {
    if (!isa<DictionaryAttr>(value) || !isa<FunctionOpInterface>(op))
      return op->emitError()
             << "'" << name << "' must be a dictionary on a function, got "
             << value;
    return success();
  }
  if (name == kResidencyAttrName)
    return op->emitError() << "'" << name
                           << "' belongs on function arguments and results, "
                              "not on an operation";
  if (isKernelAttribute(name))
    return verifyKernelAttribute(op, name, value);
  if (name == kernel_attr::kCpuTarget) {
    auto dict = dyn_cast<DictionaryAttr>(value);
    if (!dict || !isa<ModuleOp>(op) ||
        !llvm::all_of(dict, [](NamedAttribute entry) {
          return isa<StringAttr>(entry.getValue());
        }))
      return op->emitError()
             << "'" << name
             << "' must be a dictionary of strings {triple, cpu, features} "
                "on a builtin.module, got "
             << value;
    return success();
  }
  // A schedule's packed-B panel width (docs/CPU-CODEGEN.md, "Packed B
  // panels").
  if (name == kernel_attr::kSchedulePackB) {
    auto width = dyn_cast<IntegerAttr>(value);
    if (!width || !width.getType().isInteger(64) || width.getInt() <= 0 ||
        op->getName().getStringRef() != "transform.named_sequence")
      return op->emitError()
             << "'" << name
             << "' must be a positive i64 on a transform.named_sequence, got "
             << value;
    return success();
  }
  if (name == kernel_attr::kSchedulePackBIfConstant) {
    if (!isa<UnitAttr>(value) ||
        op->getName().getStringRef() != "transform.named_sequence" ||
        !op->hasAttr(kernel_attr::kSchedulePackB))
      return op->emitError() << "'" << name
                             << "' must be a unit attribute on a "
                                "transform.named_sequence with '"
                             << kernel_attr::kSchedulePackB << "'";
    return success();
  }
  if (name == kernel_attr::kKernelBody) {
    if (!isa<FlatSymbolRefAttr>(value) || !isa<FunctionOpInterface>(op))
      return op->emitError()
             << "'" << name << "' must be a symbol on a kernel entry function";
    return success();
  }
  // A vulkan kernel's workgroup size (fuel-apply-schedules) and, once
  // convert-fuel-to-spirv lowered it, its SPIR-V entry point
  // (docs/LOWERING.md, "Vulkan").
  if (name == "fuel.workgroup_size") {
    auto size = dyn_cast<DenseI64ArrayAttr>(value);
    if (!size || size.size() != 3 || !isa<FunctionOpInterface>(op) ||
        llvm::any_of(size.asArrayRef(), [](int64_t v) { return v < 1; }))
      return op->emitError() << "'" << name
                             << "' must be array<i64: x, y, z> of positive "
                                "sizes on a kernel function, got "
                             << value;
    return success();
  }
  // A GPU matmul's or conv2d's shared-memory schedule, or why a kernel
  // keeps the per-element one, each naming the target it was chosen for
  // (docs/LOWERING.md, "GPU schedules").
  if (name == "fuel.gpu_matmul" || name == "fuel.gpu_conv2d" ||
      name == "fuel.gpu_schedule_note") {
    auto dict = dyn_cast<DictionaryAttr>(value);
    auto target = dict ? dict.getAs<StringAttr>("target") : StringAttr();
    bool note = name == "fuel.gpu_schedule_note";
    if (!dict || !isa<FunctionOpInterface>(op) || !target ||
        !llvm::is_contained({"vulkan", "cuda"}, target.getValue()) ||
        (note && !dict.getAs<StringAttr>("reason")))
      return op->emitError()
             << "'" << name << "' must be a dictionary on a kernel function "
             << "with 'target' = \"vulkan\" or \"cuda\""
             << (note ? " and 'reason', a string" : "") << ", got " << value;
    return success();
  }
  if (name == "fuel.spirv_entry" || name == "fuel.ptx_entry") {
    if (!isa<StringAttr>(value) || !isa<FunctionOpInterface>(op))
      return op->emitError()
             << "'" << name << "' must be a string on a kernel function";
    return success();
  }
  // A GPU kernel of the subgroup row schedule (fuel-apply-schedules,
  // GpuRowKernels.h): what it computes per row and its shape and widths.
  if (name == "fuel.row_kernel") {
    auto kind = dyn_cast<StringAttr>(value);
    if (!kind || !isa<FunctionOpInterface>(op) ||
        !llvm::is_contained({"sum", "max", "min", "softmax"}, kind.getValue()))
      return op->emitError() << "'" << name
                             << "' must be \"sum\", \"max\", \"min\" or "
                                "\"softmax\" on a kernel function, got "
                             << value;
    return success();
  }
  if (name == "fuel.row_tiling") {
    auto tiling = dyn_cast<DenseI64ArrayAttr>(value);
    if (!tiling || tiling.size() != 4 || !isa<FunctionOpInterface>(op) ||
        llvm::any_of(tiling.asArrayRef(), [](int64_t v) { return v < 1; }))
      return op->emitError() << "'" << name
                             << "' must be array<i64: rows, cols, subgroup "
                                "size, subgroups> of positive values on a "
                                "kernel function, got "
                             << value;
    return success();
  }
  return op->emitError() << "unknown fuel attribute '" << name << "'";
}

/// Verifies a discardable attribute on a region argument or op result.
static LogicalResult verifyValueAttribute(Operation *op, StringRef kind,
                                          unsigned index,
                                          NamedAttribute attribute) {
  StringRef name = attribute.getName().getValue();
  // A schedule's shape parameter (docs/CPU-CODEGEN.md, "Schedule files").
  if (name == kernel_attr::kScheduleParam && kind == StringRef("argument") &&
      op->getName().getStringRef() == "transform.named_sequence") {
    if (isa<StringAttr>(attribute.getValue()))
      return success();
    return op->emitError() << "'" << name << "' on argument #" << index
                           << " must be a string such as \"chunk(1, 16)\"";
  }
  if (name == FuelDialect::kResidencyAttrName) {
    if (isSingleDevice(attribute.getValue()))
      return success();
    return op->emitError() << "'" << name << "' on " << kind << " #" << index
                           << " must be a device such as #fuel.device<cpu> "
                              "or #fuel.device<cuda:0>, got "
                           << attribute.getValue();
  }
  return op->emitError() << "'" << name << "' is not valid on " << kind << " #"
                         << index << "; only 'fuel.residency' is allowed there";
}

LogicalResult FuelDialect::verifyRegionArgAttribute(Operation *op, unsigned,
                                                    unsigned argIndex,
                                                    NamedAttribute attribute) {
  return verifyValueAttribute(op, "argument", argIndex, attribute);
}

LogicalResult FuelDialect::verifyRegionResultAttribute(
    Operation *op, unsigned, unsigned resultIndex, NamedAttribute attribute) {
  return verifyValueAttribute(op, "result", resultIndex, attribute);
}
