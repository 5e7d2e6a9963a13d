//===- Compiler.h - fuel as a stage of a caller's compiler ------*- C++ -*-===//
//
// The C++ compile API: what a frontend that builds MLIR on tensors calls to
// plan and lower it with fuel, either inside its own pass manager (register
// the dialects and passes, add the pipelines) or in one call (compile, which
// returns the executable's bytes). Errors are reported as diagnostics
// through the caller's MLIRContext, at the offending op. docs/EMBEDDING.md
// describes the API, its stability and its threading rules.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_COMPILER_COMPILER_H
#define FUEL_COMPILER_COMPILER_H

#include "fuel/Planner/Placement.h"
#include "fuel/Planning/PlanningOptions.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "mlir/Support/Timing.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace fuel::target {
class KernelRegistry;
} // namespace fuel::target

namespace mlir {
class DialectRegistry;
class OpPassManager;
class PassManager;
} // namespace mlir

namespace mlir::fuel {

struct SerializeStats;

/// Inserts into `registry` every dialect, interface model, extension and
/// LLVM IR translation that fuel's input, planning and lowering use, and no
/// other dialect: the fuel dialect, and func, arith, math, linalg, tensor,
/// bufferization, memref, scf, vector, x86vector, affine, cf, index, ub,
/// transform and llvm with their interface models and extensions.
void registerCompilerDialects(DialectRegistry &registry);

/// Registers fuel's passes and pipelines (the fuel-* passes,
/// convert-fuel-to-llvm, fuel-plan, fuel-plan-candidates and fuel-lower)
/// with the global pass registry, so that a textual pipeline may name them.
/// Idempotent; safe to call from several threads. `compile`, `lower` and the
/// pipeline builders below do not need it: they add passes by constructor.
void registerCompilerPasses();

/// Reads fuel-plan option text into `options` (PlanningOptions, declared
/// with its options in fuel/Planning/PlanningOptions.h), over
/// their current values:
/// `key=value` items separated by spaces, as in `fuel-plan{...}` and
/// `fuel-compile --plan` (a value may be quoted with ' or ", or braced; a
/// bare boolean key means true; `kernel-sources` is a comma list). Every
/// fuel-plan option but `topology`, which is set on its own, is read, as
/// PlanningOptions::bindOptions declares it. An unknown key, `topology`, a
/// missing or bad value or an unterminated quote fails with `error` naming
/// the option; nothing is printed.
LogicalResult parsePlanningOptions(llvm::StringRef text,
                                   PlanningOptions &options,
                                   std::string &error);

/// The IR stages of docs/ARCHITECTURE.md, in pipeline order.
enum class CompileStage {
  Planned,    // after fuel-plan
  Outlined,   // after fuel-outline-kernels
  Kernels,    // after fuel-apply-schedules
  Bufferized, // after fuel-bufferize-kernels
  Host,       // after fuel-plan-buffers
  Llvm,       // after convert-fuel-to-llvm
  Spirv,      // after convert-fuel-to-spirv
  Ptx,        // after convert-fuel-to-nvvm
};

/// The stage's name in docs/ARCHITECTURE.md and `fuel-compile --emit`:
/// planned, outlined, kernels, bufferized, host, llvm, spirv, ptx.
StringRef stringifyCompileStage(CompileStage stage);

/// The stage named `name` (as stringifyCompileStage spells it), if any.
std::optional<CompileStage> symbolizeCompileStage(StringRef name);

/// True when `module` is already planned: it carries a topology
/// (`fuel.topology`), every node is placed and no kernel-bearing op is left
/// outside a node. `compile` and `lower` lower such a module as it is;
/// planning it again would re-form its nodes.
bool isPlanned(ModuleOp module);

/// Adds the fuel-plan pipeline with `options` to `pm` (anchored on
/// builtin.module). A bad option value is reported when the pipeline runs,
/// as a diagnostic at the module.
void addPlanningPipeline(OpPassManager &pm, const PlanningOptions &options);

/// Adds the lowering passes after planning, through `last`, to `pm`
/// (anchored on builtin.module): the passes of fuel-lower, in its order;
/// nothing for CompileStage::Planned.
void addLoweringPipeline(OpPassManager &pm,
                         CompileStage last = CompileStage::Ptx,
                         std::optional<std::string> cudaToolkit = {});

/// How `compile` and `lower` run.
struct CompileOptions {
  /// Used when the module is not planned yet. A module that is already
  /// planned (a stamped topology, every node placed) is lowered as it is;
  /// then a non-empty `planning.topology` must have the stamp's hash, and
  /// the other planning options must keep their defaults.
  PlanningOptions planning;
  /// The kernel registry the planning passes read during the call; null:
  /// the context's (mlir::fuel::setKernelRegistry's, else the built-in
  /// one). The context's is restored afterwards. Must outlive the call.
  const ::fuel::target::KernelRegistry *kernelRegistry = nullptr;
  /// Called on the pass manager (anchored on builtin.module, implicit
  /// nesting) after the passes are added and before it runs, to add
  /// instrumentation or apply command-line options; a failure stops the
  /// compile (the callback reports why).
  std::function<LogicalResult(PassManager &)> configurePassManager;
  /// When not empty, the passes and serialization's steps (nested in its
  /// pass) are timed under this timer, e.g. a DefaultTimingManager's
  /// getRootTimer(): they show at the timer's level (the compile's own
  /// timer is hidden).
  Timer timing;
  /// When set, serialization's counts and wall seconds are written here.
  SerializeStats *stats = nullptr;
  /// The CUDA toolkit whose libdevice convert-fuel-to-nvvm links for math
  /// functions without an approximation or an NVPTX instruction; "" for
  /// none; unset: the toolkit CMake found when fuel was built
  /// (defaultCudaToolkit()). Never taken from the environment.
  std::optional<std::string> cudaToolkit;
};

/// The CUDA toolkit directory CMake found when fuel was built
/// (FUEL_CUDA_TOOLKIT_DIR), "" when none.
StringRef defaultCudaToolkit();

/// Plans `module` (unless it is planned) and lowers it in place through
/// `stage`. Diagnostics go to the module's context. On failure the module
/// may be partly lowered.
LogicalResult lower(ModuleOp module, const CompileOptions &options,
                    CompileStage stage);

/// The executable's bytes of `module` lowered through CompileStage::Ptx (by
/// `lower`, or by a caller's pass manager with the pipelines above): what
/// `compile` returns for it. The IR is not changed. Counts and wall seconds
/// go to `stats` when it is not null. Diagnostics go to the module's context.
FailureOr<std::vector<uint8_t>> serialize(ModuleOp module,
                                          SerializeStats *stats = nullptr);

/// Plans, lowers and serializes `module`, returning the executable's bytes
/// (docs/EXECUTABLE-FORMAT.md), which libfuelrt loads. The module is
/// lowered in place (clone it to keep it). The same module, topology and
/// options give the same bytes. Diagnostics go to the module's context.
FailureOr<std::vector<uint8_t>> compile(ModuleOp module,
                                        const CompileOptions &options = {});

} // namespace mlir::fuel

#endif // FUEL_COMPILER_COMPILER_H
