//===- Jobs.h - Measurement jobs: one candidate of one node -----*- C++ -*-===//
//
// The first step of measuring (docs/FUEL-JUDGE.md): plan a program keeping
// every retained alternative on every admitted device (fuel-plan-candidates),
// and turn each distinct (node payload, candidate) into a job: a one-node
// program that forces that candidate (`fuel.kernel` and `fuel.pin` on the
// node's op), compiled through the compile API into a standalone executable,
// described in a versioned manifest (the runtime reads it:
// fuel/Runtime/Measure.h). Same program and topology, same jobs, manifest
// and bytes.
//
//===----------------------------------------------------------------------===//

#ifndef TOOLS_FUEL_JUDGE_JOBS_H
#define TOOLS_FUEL_JUDGE_JOBS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace fuel::judge {

/// The fields of a measurement key the compiler knows (ProfileDB.h's
/// MeasurementKey less the device identity and the thread settings, which
/// the machine that measures supplies).
struct JobKey {
  std::string kernelId;
  uint64_t revision = 0;
  std::string opKind;
  std::vector<std::string> dtypes;          ///< operands then results
  std::vector<std::vector<int64_t>> shapes; ///< operands then results
  std::vector<std::pair<std::string, std::string>> params; ///< sorted by key
  uint64_t sizeClass = 0;
  std::string deviceKind; ///< "cpu" | "cuda" | "vulkan"
  int64_t deviceOrdinal = 0;

  /// "cpu", "cuda:0", "vulkan:1".
  std::string device() const;
  /// A canonical text of every field (the job id is its hash).
  std::string canonical() const;
};

/// One job: where it came from, its key, and its one-node program.
struct Job {
  std::string id; ///< 16 hex digits of the key's canonical text's hash
  JobKey key;
  std::string function; ///< The first node it measures: function...
  int64_t nodeId = 0;   ///< ...and node id.
  int64_t layer1Ns = 0; ///< The candidate's static time_ns.
  /// Every (function, node id) the job measures, the first one included.
  std::vector<std::pair<std::string, int64_t>> nodes;
  std::vector<std::string> inputDtypes;
  std::vector<std::vector<int64_t>> inputShapes;
  /// The one-node module, forcing the candidate; not yet planned.
  mlir::OwningOpRef<mlir::ModuleOp> program;
};

/// Plans `module` (a clone; `module` is not changed) with
/// fuel-plan-candidates against `topology` (a file, "probe" or "" for the
/// default) and returns one job per distinct key, in function, node and
/// candidate order. Errors are the planner's diagnostics, reported through
/// the module's context; the returned error says that planning failed.
llvm::Expected<std::vector<Job>> enumerateJobs(mlir::ModuleOp module,
                                               llvm::StringRef topology);

/// Compiles `job`'s program (cloned) for `topology`, checking that the
/// executable's dispatch runs the forced kernel. Its errors are reported
/// through the program's context; its warnings, which repeat what planning
/// the input (enumerateJobs) warned about, are not.
llvm::Expected<std::vector<uint8_t>> compileJob(const Job &job,
                                                llvm::StringRef topology);

/// The manifest entry of `job` (its executable `executable`), as JSON text.
std::string manifestEntry(const Job &job, llvm::StringRef executable);

/// The manifest of `jobs`, whose executables are `<id>.fuelx` beside it.
std::string manifestText(const std::vector<Job> &jobs);

/// `fuel-judge --emit-jobs=DIR`: writes each job's executable and
/// DIR/manifest.json (created; existing files replaced).
llvm::Error emitJobs(const std::vector<Job> &jobs, llvm::StringRef topology,
                     llvm::StringRef dir);

} // namespace fuel::judge

#endif // TOOLS_FUEL_JUDGE_JOBS_H
