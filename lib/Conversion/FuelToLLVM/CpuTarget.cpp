//===- CpuTarget.cpp - CPU targets and their ISA classes ------------------===//
//
// The CPU generated kernels are compiled for (CpuObject.h): the host's, a
// module's stamped one, or the topology's; its validation against LLVM's
// target registry, the ISA class schedules are chosen by, and the
// /proc/cpuinfo names of the features the code needs.
//
//===----------------------------------------------------------------------===//

#include "fuel/Conversion/FuelToLLVM/CpuObject.h"

#include "fuel/Dialect/Fuel/IR/CpuTarget.h"
#include "fuel/Dialect/Fuel/IR/FuelOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <memory>
#include <mutex>
#include <optional>

using namespace mlir;
using namespace mlir::fuel;

namespace {

/// The cpu target the topology of `module`, or of the nearest enclosing
/// module that has one, names (`cpu_target` on the cpu device,
/// docs/TOPOLOGY.md), on the host's triple.
std::optional<CpuTargetSpec> topologyCpuTarget(ModuleOp module) {
  for (ModuleOp m = module; m; m = m->getParentOfType<ModuleOp>()) {
    if (!m->hasAttr(FuelDialect::kTopologyAttrName))
      continue;
    std::optional<std::pair<std::string, std::string>> named = getCpuTarget(m);
    if (!named)
      return std::nullopt;
    return CpuTargetSpec{hostCpuTarget().triple, named->first, named->second};
  }
  return std::nullopt;
}

/// The subtarget of `target`, or an error message.
FailureOr<std::unique_ptr<llvm::MCSubtargetInfo>>
subtargetInfo(const CpuTargetSpec &target, std::string &error) {
  initializeNativeCpuTarget();
  llvm::Triple triple(target.triple);
  const llvm::Target *llvmTarget =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!llvmTarget)
    return failure();
  std::unique_ptr<llvm::MCSubtargetInfo> sti(
      llvmTarget->createMCSubtargetInfo(triple, target.cpu, target.features));
  if (!sti) {
    error = "no subtarget for '" + target.cpu + "'";
    return failure();
  }
  return sti;
}
} // namespace

void mlir::fuel::initializeNativeCpuTarget() {
  static std::once_flag once;
  std::call_once(once, [] {
    // Every target, not only the native one: lld's ELF driver registers
    // them all on each link (for LTO). Registered here once, before any
    // lookup, the registry's list of targets never changes while a compile
    // on another thread walks it.
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargets();
    llvm::InitializeAllTargetMCs();
    llvm::InitializeAllAsmPrinters();
    llvm::InitializeAllAsmParsers();
  });
}

CpuTargetSpec mlir::fuel::hostCpuTarget() {
  CpuTargetSpec spec;
  spec.triple = llvm::Triple::normalize(llvm::sys::getDefaultTargetTriple());
  spec.cpu = llvm::sys::getHostCPUName().str();
  // Only the features the host has, sorted, so the string is deterministic
  // for a machine; the CPU name implies the rest.
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  std::vector<std::string> enabled;
  for (const auto &entry : features)
    if (entry.getValue())
      enabled.push_back("+" + entry.getKey().str());
  llvm::sort(enabled);
  spec.features = llvm::join(enabled, ",");
  return spec;
}

FailureOr<CpuTargetSpec> mlir::fuel::resolveCpuTarget(ModuleOp module) {
  CpuTargetSpec spec;
  if (auto stamped =
          module->getAttrOfType<DictionaryAttr>(kernel_attr::kCpuTarget)) {
    auto get = [&](StringRef key) -> std::string {
      if (auto s = stamped.getAs<StringAttr>(key))
        return s.getValue().str();
      return "";
    };
    spec = {get("triple"), get("cpu"), get("features")};
    if (spec.triple.empty() || spec.cpu.empty())
      return module.emitError() << "'" << kernel_attr::kCpuTarget
                                << "' needs string entries 'triple' and 'cpu'";
  } else if (std::optional<CpuTargetSpec> fromTopology =
                 topologyCpuTarget(module)) {
    spec = *fromTopology;
  } else {
    return hostCpuTarget();
  }
  if (spec.triple.empty())
    spec.triple = hostCpuTarget().triple;
  std::string error;
  // Names are validated on the triple's default subtarget, so that LLVM
  // prints no warning of its own for an unknown CPU.
  FailureOr<std::unique_ptr<llvm::MCSubtargetInfo>> sti =
      subtargetInfo({spec.triple, "", ""}, error);
  if (failed(sti))
    return module.emitError() << "cpu target triple '" << spec.triple
                              << "' is not usable: " << error;
  if (!(*sti)->isCPUStringValid(spec.cpu))
    return module.emitError() << "cpu target: LLVM knows no CPU '" << spec.cpu
                              << "' for '" << spec.triple << "'";
  SmallVector<StringRef> features;
  StringRef(spec.features).split(features, ',', -1, /*KeepEmpty=*/false);
  for (StringRef feature : features) {
    StringRef name = feature.ltrim("+-");
    bool known = llvm::any_of(
        (*sti)->getAllProcessorFeatures(),
        [&](const llvm::SubtargetFeatureKV &kv) { return name == kv.Key; });
    if (feature.size() == name.size() || !known)
      return module.emitError()
             << "cpu target: '" << feature
             << "' is no LLVM feature of the form +name or -name for '"
             << spec.triple << "'";
  }
  return spec;
}

DictionaryAttr mlir::fuel::cpuTargetAttr(MLIRContext *ctx,
                                         const CpuTargetSpec &target) {
  Builder b(ctx);
  return b.getDictionaryAttr(
      {b.getNamedAttr("cpu", b.getStringAttr(target.cpu)),
       b.getNamedAttr("features", b.getStringAttr(target.features)),
       b.getNamedAttr("triple", b.getStringAttr(target.triple))});
}

namespace {
/// Whether code for `target` may use LLVM feature `feature`.
bool hasFeature(const CpuTargetSpec &target, StringRef feature) {
  std::string error;
  FailureOr<std::unique_ptr<llvm::MCSubtargetInfo>> sti =
      subtargetInfo(target, error);
  if (failed(sti))
    return false;
  return (*sti)->checkFeatures(("+" + feature).str());
}
} // namespace

IsaClass mlir::fuel::isaClass(const CpuTargetSpec &target) {
  if (hasFeature(target, "avx512f"))
    return IsaClass::Avx512;
  if (hasFeature(target, "avx2") && hasFeature(target, "fma"))
    return IsaClass::Avx2;
  return IsaClass::Generic;
}

StringRef mlir::fuel::isaClassName(IsaClass isa) {
  switch (isa) {
  case IsaClass::Avx512:
    return "avx512";
  case IsaClass::Avx2:
    return "avx2";
  case IsaClass::Generic:
    return "generic";
  }
  llvm_unreachable("unknown ISA class");
}

unsigned mlir::fuel::vectorWidthF32(IsaClass isa) {
  switch (isa) {
  case IsaClass::Avx512:
    return 16;
  case IsaClass::Avx2:
    return 8;
  case IsaClass::Generic:
    return 4;
  }
  llvm_unreachable("unknown ISA class");
}

std::vector<std::string>
mlir::fuel::cpuinfoFeatures(const CpuTargetSpec &target) {
  // LLVM feature name -> /proc/cpuinfo flag (Linux arch/x86 cpufeatures
  // names). Only features that change what instructions the code may hold;
  // docs/CPU-CODEGEN.md lists the mapping.
  static const std::pair<const char *, const char *> kMap[] = {
      {"sse2", "sse2"},
      {"sse3", "pni"},
      {"ssse3", "ssse3"},
      {"sse4.1", "sse4_1"},
      {"sse4.2", "sse4_2"},
      {"popcnt", "popcnt"},
      {"avx", "avx"},
      {"avx2", "avx2"},
      {"fma", "fma"},
      {"f16c", "f16c"},
      {"bmi", "bmi1"},
      {"bmi2", "bmi2"},
      {"lzcnt", "abm"},
      {"movbe", "movbe"},
      {"avx512f", "avx512f"},
      {"avx512dq", "avx512dq"},
      {"avx512cd", "avx512cd"},
      {"avx512bw", "avx512bw"},
      {"avx512vl", "avx512vl"},
      {"avx512vnni", "avx512_vnni"},
      {"avx512bf16", "avx512_bf16"},
      {"avx512fp16", "avx512_fp16"},
  };
  std::vector<std::string> result;
  if (llvm::Triple(target.triple).getArch() != llvm::Triple::x86_64)
    return result;
  std::string error;
  FailureOr<std::unique_ptr<llvm::MCSubtargetInfo>> sti =
      subtargetInfo(target, error);
  if (failed(sti))
    return result;
  for (const auto &[llvmName, cpuinfoName] : kMap)
    if ((*sti)->checkFeatures(std::string("+") + llvmName))
      result.push_back(cpuinfoName);
  llvm::sort(result);
  return result;
}
