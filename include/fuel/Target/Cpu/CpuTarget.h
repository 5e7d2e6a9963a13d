//===- CpuTarget.h - The CPU the generated kernels are for ------*- C++ -*-===//
//
// What CPU the generated kernels are compiled for: a topology's `cpu_target`
// or exactly the compiling host, resolved and checked against LLVM's target
// registry; the ISA class schedules and prices are chosen by; the map from
// LLVM features to the /proc/cpuinfo flags the runtime's loader checks. No
// code generation: planning prices per ISA class from here without linking
// the object step (include/fuel/Codegen/CPU/CpuObject.h).
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_TARGET_CPU_CPUTARGET_H
#define FUEL_TARGET_CPU_CPUTARGET_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <string>
#include <utility>
#include <vector>

namespace mlir::fuel {

/// A CPU to compile for, in LLVM's terms.
struct CpuTargetSpec {
  /// The target triple, e.g. "x86_64-unknown-linux-gnu".
  std::string triple;
  /// The LLVM CPU name, e.g. "znver3" or "x86-64-v3".
  std::string cpu;
  /// LLVM subtarget features, e.g. "+avx2,+fma" (may be empty).
  std::string features;
};

/// Registers LLVM's targets (the native one among them), their assembly
/// printers and parsers, once per process and thread-safely (target checks
/// and the object step need the native one; lld registers them all on each
/// link, which then finds them registered).
void initializeNativeCpuTarget();

/// The compiling host as hostCpuTarget() reads it.
struct HostCpu {
  /// The target triple, normalized.
  std::string triple;
  /// LLVM's name for the host CPU (llvm::sys::getHostCPUName), e.g. "znver5".
  std::string cpu;
  /// The LLVM features CPUID reports, each on or off
  /// (llvm::sys::getHostCPUFeatures), sorted by name.
  std::vector<std::pair<std::string, bool>> features;
  /// The flags /proc/cpuinfo lists (the probe's parser), the ones the
  /// runtime's loader checks an executable's requirements against.
  std::vector<std::string> cpuinfoFlags;
};

/// The machine this process runs on (read once; CPUID and /proc/cpuinfo).
HostCpu readHostCpu();

/// A host known only by its CPU name and /proc/cpuinfo flags, as tests
/// describe one: each LLVM feature the map of cpuinfoFeatures() covers is on
/// exactly when its flag is listed, every other one is off.
HostCpu hostCpuFromCpuinfo(std::string cpu, std::vector<std::string> flags);

/// The target that is exactly `host`: its CPU name (for tuning), with every
/// feature the host has and the name does not imply added, and every feature
/// the name implies and the host lacks removed. On x86-64, a feature counts
/// as present only when CPUID reports it *and* /proc/cpuinfo lists its flag
/// (a hypervisor may hide a flag the CPUID bit still shows, e.g. `abm` for
/// lzcnt), and features /proc/cpuinfo has no flag for are always off, so
/// the code never needs a flag the loader does not see. Deterministic for a
/// host: "+" entries sorted, then "-" entries sorted.
CpuTargetSpec hostCpuTarget(const HostCpu &host);

/// The compiling host's target: hostCpuTarget(readHostCpu()), or the host a
/// ScopedHostCpu installed.
CpuTargetSpec hostCpuTarget();

/// Makes hostCpuTarget() describe `host` instead of this machine while it
/// lives (tests of host targeting; compile-side twin of the loader's
/// LoadOptions::hostCpuFeatures). Not nestable across threads.
class ScopedHostCpu {
public:
  explicit ScopedHostCpu(HostCpu host);
  ~ScopedHostCpu();
  ScopedHostCpu(const ScopedHostCpu &) = delete;
  ScopedHostCpu &operator=(const ScopedHostCpu &) = delete;
};

/// The cpu target stamped on `module` (kernel_attr::kCpuTarget, set on kernel
/// modules by fuel-apply-schedules), else that of `module`'s topology, else
/// the compiling host's; an error at the module when it names a CPU or
/// feature LLVM does not know.
FailureOr<CpuTargetSpec> resolveCpuTarget(ModuleOp module);

/// `target` as the dictionary attribute resolveCpuTarget reads.
DictionaryAttr cpuTargetAttr(MLIRContext *ctx, const CpuTargetSpec &target);

/// The register-file class a schedule is chosen by.
enum class IsaClass { Generic, Avx2, Avx512 };

/// The class of `target`: Avx512 with avx512f, Avx2 with avx2 and fma,
/// Generic otherwise.
IsaClass isaClass(const CpuTargetSpec &target);

/// The name of the schedule's named sequence for `isa`: "generic", "avx2" or
/// "avx512".
StringRef isaClassName(IsaClass isa);

/// The f32 lanes of one vector register of `isa`: 4, 8 or 16.
unsigned vectorWidthF32(IsaClass isa);

/// The CPU features, spelled as /proc/cpuinfo spells them ("avx2", "fma"),
/// that code compiled for `target` needs on the host; the executable records
/// them and the runtime refuses a CPU that lacks one. Every LLVM x86 feature
/// that adds instructions and has a Linux flag is covered
/// (x86CpuinfoFlags()); docs/CPU-CODEGEN.md lists the mapping.
std::vector<std::string> cpuinfoFeatures(const CpuTargetSpec &target);

/// One LLVM x86 feature and the /proc/cpuinfo flag that shows it.
struct X86FeatureFlag {
  const char *llvmFeature;
  const char *cpuinfoFlag;
};

/// The map cpuinfoFeatures() uses, sorted by LLVM name.
ArrayRef<X86FeatureFlag> x86CpuinfoFlags();

/// LLVM x86 features that add instructions but that Linux lists under no
/// /proc/cpuinfo flag, so no loader can check for them: the host target
/// leaves them off and resolveCpuTarget() turns them off in any x86 target
/// (e.g. a topology's "sapphirerapids" loses amx-complex). Sorted.
ArrayRef<const char *> x86FeaturesWithoutCpuinfoFlag();

} // namespace mlir::fuel

#endif // FUEL_TARGET_CPU_CPUTARGET_H
