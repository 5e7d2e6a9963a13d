//===- CpuTarget.cpp - CPU targets and their ISA classes ------------------===//
//
// The CPU generated kernels are compiled for (CpuTarget.h): the host's
// (exactly the host: what CPUID reports and /proc/cpuinfo lists), a module's
// stamped one, or the topology's; its validation against LLVM's target
// registry, the ISA class schedules are chosen by, and the /proc/cpuinfo
// names of the features the code needs.
//
//===----------------------------------------------------------------------===//

#include "fuel/Target/Cpu/CpuTarget.h"

#include "fuel/Dialect/Fuel/IR/CpuTarget.h"
#include "fuel/Dialect/Fuel/IR/FuelOps.h"
#include "fuel/Probe/Probe.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <fstream>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>

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

// LLVM x86 feature -> the /proc/cpuinfo flag Linux shows it by
// (arch/x86/include/asm/cpufeatures.h: a flag is listed only when its
// comment starts with a quoted name). Every LLVM 22 feature that adds
// instructions and has such a flag; sorted by LLVM name. The unit test
// CpuTarget.EveryX86FeatureIsClassified walks LLVM's table against this one.
constexpr X86FeatureFlag kX86CpuinfoFlags[] = {
    {"64bit", "lm"},
    {"adx", "adx"},
    {"aes", "aes"},
    {"amx-bf16", "amx_bf16"},
    {"amx-int8", "amx_int8"},
    {"amx-tile", "amx_tile"},
    {"avx", "avx"},
    {"avx2", "avx2"},
    {"avx512bf16", "avx512_bf16"},
    {"avx512bitalg", "avx512_bitalg"},
    {"avx512bw", "avx512bw"},
    {"avx512cd", "avx512cd"},
    {"avx512dq", "avx512dq"},
    {"avx512f", "avx512f"},
    {"avx512fp16", "avx512_fp16"},
    {"avx512ifma", "avx512ifma"},
    {"avx512vbmi", "avx512vbmi"},
    {"avx512vbmi2", "avx512_vbmi2"},
    {"avx512vl", "avx512vl"},
    {"avx512vnni", "avx512_vnni"},
    {"avx512vp2intersect", "avx512_vp2intersect"},
    {"avx512vpopcntdq", "avx512_vpopcntdq"},
    {"avxvnni", "avx_vnni"},
    {"bmi", "bmi1"},
    {"bmi2", "bmi2"},
    {"cldemote", "cldemote"},
    {"clflushopt", "clflushopt"},
    {"clwb", "clwb"},
    {"clzero", "clzero"},
    {"cmov", "cmov"},
    {"crc32", "sse4_2"},
    {"cx16", "cx16"},
    {"cx8", "cx8"},
    {"enqcmd", "enqcmd"},
    {"evex512", "avx512f"},
    {"f16c", "f16c"},
    {"fma", "fma"},
    {"fma4", "fma4"},
    {"fsgsbase", "fsgsbase"},
    {"fxsr", "fxsr"},
    {"gfni", "gfni"},
    {"invpcid", "invpcid"},
    {"lwp", "lwp"},
    {"lzcnt", "abm"},
    {"mmx", "mmx"},
    {"movbe", "movbe"},
    {"movdir64b", "movdir64b"},
    {"movdiri", "movdiri"},
    {"mwaitx", "mwaitx"},
    {"nopl", "nopl"},
    {"pclmul", "pclmulqdq"},
    {"pconfig", "pconfig"},
    {"pku", "pku"},
    {"popcnt", "popcnt"},
    {"prfchw", "3dnowprefetch"},
    {"rdpid", "rdpid"},
    {"rdpru", "rdpru"},
    {"rdrnd", "rdrand"},
    {"rdseed", "rdseed"},
    {"rtm", "rtm"},
    {"sahf", "lahf_lm"},
    {"serialize", "serialize"},
    {"sgx", "sgx"},
    {"sha", "sha_ni"},
    {"shstk", "user_shstk"},
    {"sse", "sse"},
    {"sse2", "sse2"},
    {"sse3", "pni"},
    {"sse4.1", "sse4_1"},
    {"sse4.2", "sse4_2"},
    {"sse4a", "sse4a"},
    {"ssse3", "ssse3"},
    {"tbm", "tbm"},
    {"tsxldtrk", "tsxldtrk"},
    {"vaes", "vaes"},
    {"vpclmulqdq", "vpclmulqdq"},
    {"waitpkg", "waitpkg"},
    {"wbnoinvd", "wbnoinvd"},
    {"x87", "fpu"},
    {"xop", "xop"},
    {"xsave", "xsave"},
    {"xsavec", "xsavec"},
    {"xsaveopt", "xsaveopt"},
    {"xsaves", "xsaves"},
};

// LLVM x86 features that add instructions but have no /proc/cpuinfo flag
// (Linux keeps their CPUID bits unlisted, or not at all); sorted.
constexpr const char *kX86FeaturesWithoutFlag[] = {
    "amx-avx512", "amx-complex",  "amx-fp16",     "amx-fp8",     "amx-movrs",
    "amx-tf32",   "avx10.1",      "avx10.1-512",  "avx10.2",     "avx10.2-512",
    "avxifma",    "avxneconvert", "avxvnniint16", "avxvnniint8", "ccmp",
    "cf",         "cmpccxadd",    "egpr",         "hreset",      "kl",
    "movrs",      "ndd",          "nf",           "ppx",         "prefetchi",
    "ptwrite",    "push2pop2",    "raoint",       "sha512",      "sm3",
    "sm4",        "uintr",        "usermsr",      "widekl",      "zu",
};

bool isX86_64(StringRef triple) {
  return llvm::Triple(triple).getArch() == llvm::Triple::x86_64;
}

/// The /proc/cpuinfo flag of LLVM feature `feature`, or null.
const char *cpuinfoFlagOf(StringRef feature) {
  for (const X86FeatureFlag &entry : kX86CpuinfoFlags)
    if (feature == entry.llvmFeature)
      return entry.cpuinfoFlag;
  return nullptr;
}

bool hasNoCpuinfoFlag(StringRef feature) {
  return llvm::is_contained(kX86FeaturesWithoutFlag, feature);
}

/// The subtarget of `target` when it is an x86-64 one LLVM knows, else null.
std::unique_ptr<llvm::MCSubtargetInfo>
x86Subtarget(const CpuTargetSpec &target) {
  if (!isX86_64(target.triple))
    return nullptr;
  std::string error;
  FailureOr<std::unique_ptr<llvm::MCSubtargetInfo>> sti =
      subtargetInfo(target, error);
  return succeeded(sti) ? std::move(*sti) : nullptr;
}

/// `target` with every feature of kX86FeaturesWithoutFlag it enables turned
/// off ("-name" appended, sorted), so its code needs nothing a loader cannot
/// check. Unchanged off x86-64 or when it enables none.
CpuTargetSpec withoutUncheckableFeatures(CpuTargetSpec target) {
  std::unique_ptr<llvm::MCSubtargetInfo> sti = x86Subtarget(target);
  if (!sti)
    return target;
  for (const char *feature : kX86FeaturesWithoutFlag)
    if (sti->checkFeatures(std::string("+") + feature))
      target.features +=
          (target.features.empty() ? "-" : ",-") + std::string(feature);
  return target;
}

std::mutex injectedHostMutex;
std::optional<HostCpu> injectedHost;
} // namespace

ArrayRef<X86FeatureFlag> mlir::fuel::x86CpuinfoFlags() {
  return kX86CpuinfoFlags;
}

ArrayRef<const char *> mlir::fuel::x86FeaturesWithoutCpuinfoFlag() {
  return kX86FeaturesWithoutFlag;
}

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

HostCpu mlir::fuel::readHostCpu() {
  static const HostCpu host = [] {
    HostCpu h;
    h.triple = llvm::Triple::normalize(llvm::sys::getDefaultTargetTriple());
    h.cpu = llvm::sys::getHostCPUName().str();
    for (const auto &entry : llvm::sys::getHostCPUFeatures())
      h.features.emplace_back(entry.getKey().str(), entry.getValue());
    llvm::sort(h.features);
    // The probe's parser, as the runtime's loader reads the host.
    std::ifstream in("/proc/cpuinfo");
    std::stringstream text;
    text << in.rdbuf();
    h.cpuinfoFlags = ::fuel::probe::parseCpuInfo(text.str()).flags;
    llvm::sort(h.cpuinfoFlags);
    h.cpuinfoFlags.erase(llvm::unique(h.cpuinfoFlags), h.cpuinfoFlags.end());
    return h;
  }();
  return host;
}

HostCpu mlir::fuel::hostCpuFromCpuinfo(std::string cpu,
                                       std::vector<std::string> flags) {
  HostCpu h;
  h.triple = llvm::Triple::normalize("x86_64-unknown-linux-gnu");
  h.cpu = std::move(cpu);
  llvm::sort(flags);
  flags.erase(llvm::unique(flags), flags.end());
  for (const X86FeatureFlag &entry : kX86CpuinfoFlags)
    h.features.emplace_back(entry.llvmFeature,
                            llvm::is_contained(flags, entry.cpuinfoFlag));
  for (const char *feature : kX86FeaturesWithoutFlag)
    h.features.emplace_back(feature, false);
  llvm::sort(h.features);
  h.cpuinfoFlags = std::move(flags);
  return h;
}

CpuTargetSpec mlir::fuel::hostCpuTarget(const HostCpu &host) {
  CpuTargetSpec spec{host.triple, host.cpu, ""};
  bool x86 = isX86_64(host.triple);
  // Whether the host has `feature`: CPUID says so and, on x86-64, the
  // loader will see it in /proc/cpuinfo too (a host whose /proc/cpuinfo
  // lists no flags at all, outside Linux, is taken at CPUID's word).
  auto usable = [&](StringRef feature, bool reported) {
    if (!reported || !x86)
      return reported;
    if (hasNoCpuinfoFlag(feature))
      return false;
    const char *flag = cpuinfoFlagOf(feature);
    return !flag || host.cpuinfoFlags.empty() ||
           llvm::is_contained(host.cpuinfoFlags, StringRef(flag));
  };
  std::string error;
  FailureOr<std::unique_ptr<llvm::MCSubtargetInfo>> named =
      subtargetInfo({host.triple, host.cpu, ""}, error);
  std::vector<std::string> added, removed;
  for (const auto &[feature, reported] : host.features) {
    bool want = usable(feature, reported);
    // What the CPU name alone implies (nothing when LLVM does not know it:
    // then every feature is spelled out).
    bool implied = succeeded(named) && (*named)->checkFeatures("+" + feature);
    if (want && !implied)
      added.push_back("+" + feature);
    else if (!want && implied)
      removed.push_back("-" + feature);
  }
  // Flags the name implies that CPUID does not report on its own (LLVM's
  // host detection lists none for them) still need /proc/cpuinfo's word.
  if (x86 && succeeded(named) && !host.cpuinfoFlags.empty())
    for (const X86FeatureFlag &entry : kX86CpuinfoFlags) {
      bool listed = llvm::any_of(host.features, [&](const auto &f) {
        return f.first == entry.llvmFeature;
      });
      if (!listed &&
          !llvm::is_contained(host.cpuinfoFlags,
                              StringRef(entry.cpuinfoFlag)) &&
          (*named)->checkFeatures(std::string("+") + entry.llvmFeature))
        removed.push_back(std::string("-") + entry.llvmFeature);
    }
  llvm::sort(added);
  llvm::sort(removed);
  // "-" after "+": a removed feature also removes every added one that
  // implies it (no avx512vl without avx512f).
  added.insert(added.end(), removed.begin(), removed.end());
  spec.features = llvm::join(added, ",");
  return withoutUncheckableFeatures(spec);
}

CpuTargetSpec mlir::fuel::hostCpuTarget() {
  {
    std::lock_guard<std::mutex> lock(injectedHostMutex);
    if (injectedHost)
      return hostCpuTarget(*injectedHost);
  }
  static const CpuTargetSpec host = hostCpuTarget(readHostCpu());
  return host;
}

ScopedHostCpu::ScopedHostCpu(HostCpu host) {
  std::lock_guard<std::mutex> lock(injectedHostMutex);
  injectedHost = std::move(host);
}

ScopedHostCpu::~ScopedHostCpu() {
  std::lock_guard<std::mutex> lock(injectedHostMutex);
  injectedHost.reset();
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
  return withoutUncheckableFeatures(std::move(spec));
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
  std::vector<std::string> result;
  std::unique_ptr<llvm::MCSubtargetInfo> sti = x86Subtarget(target);
  if (!sti)
    return result;
  for (const X86FeatureFlag &entry : kX86CpuinfoFlags)
    if (sti->checkFeatures(std::string("+") + entry.llvmFeature))
      result.push_back(entry.cpuinfoFlag);
  llvm::sort(result);
  result.erase(llvm::unique(result), result.end());
  return result;
}
