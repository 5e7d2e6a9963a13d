//===- Judge.h - fuel-judge: measure, ingest, calibrate ---------*- C++ -*-===//
//
// What fuel-judge does besides emitting jobs (docs/FUEL-JUDGE.md): ingest
// the results `fuel-run --measure` wrote into a profile database in one
// transaction; measure a program's pending jobs here, in process, within a
// wall-time budget, committing each measurement as it is made (a run killed
// at any moment loses at most the job in flight, and a rerun skips what the
// database holds); and measure the copy links between the devices present.
//
//===----------------------------------------------------------------------===//

#ifndef TOOLS_FUEL_JUDGE_JUDGE_H
#define TOOLS_FUEL_JUDGE_JUDGE_H

#include "Jobs.h"
#include "fuel/Judge/ProfileDB.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace fuel::rt {
class Runtime;
} // namespace fuel::rt

namespace fuel::judge {

/// The in-process runtime fuel-judge measures with: a CPU pool of `threads`
/// threads (0: every core); the runtime's error when it cannot start.
llvm::Expected<std::unique_ptr<rt::Runtime>> createRuntime(unsigned threads);

/// The full key of `key` measured on a device of `deviceName` and
/// `deviceDriver` with the given thread settings.
MeasurementKey measurementKey(const JobKey &key, llvm::StringRef deviceName,
                              llvm::StringRef deviceDriver, int64_t poolThreads,
                              int64_t libraryThreads);

/// Reads a results file of `fuel-run --measure` (untrusted: errors name
/// the file and the field) and stores its measured jobs in `db`, all in one
/// transaction. Returns how many were stored.
llvm::Expected<size_t> ingestResults(llvm::StringRef path, ProfileDB &db);

/// How measureProgram runs.
struct JudgeOptions {
  std::string topology;
  double budgetSeconds = 600;
  /// The CPU pool's threads (0: every core); 1, as fuel-plan's
  /// profile-threads, by default.
  unsigned threads = 1;
  /// Progress: a bar when true (stderr is a terminal), else plain lines.
  bool progressBar = false;
};

/// What measureProgram did, per job.
struct JudgedJob {
  std::string id, kernel, device, function;
  int64_t nodeId = 0;
  int64_t layer1Ns = 0;
  enum class Outcome { Measured, AlreadyMeasured, Skipped, Failed, Left };
  Outcome outcome = Outcome::Left;
  std::string reason;
  double medianNs = 0, noiseNs = 0;
  uint64_t iterations = 0;
  double judgeSeconds = 0; ///< Compile + measure wall time of this job.
};

/// Measures every job of `module` the database does not hold yet, within
/// the budget; progress goes to `log`. Jobs left when the budget is spent
/// are reported Left; that is not an error.
llvm::Expected<std::vector<JudgedJob>>
measureProgram(mlir::ModuleOp module, ProfileDB &db,
               const JudgeOptions &options, llvm::raw_ostream &log);

/// Prints the summary: counts, what is left, and the measured jobs against
/// their Layer-1 times, largest relative error first.
void printSummary(const std::vector<JudgedJob> &jobs, llvm::raw_ostream &os);

/// How calibrateLinks runs.
struct CalibrateOptions {
  /// The topology to start from (a file, "probe" or "" for the default):
  /// its devices present here get measured figures, the others keep theirs.
  std::string topology;
  unsigned threads = 1; ///< The CPU pool's threads; 0: every core.
  /// The copy sizes, bytes.
  std::vector<uint64_t> sizes = {64u << 10, 4u << 20, 64u << 20};
};

/// `fuel-judge --calibrate-links`: for every device of the topology that
/// is present here besides the host, times copies cpu->D, D->cpu and D->D
/// at each size (the median of repetitions), fits latency + bytes /
/// bandwidth, and returns the topology with those links (path classes kept,
/// new links `shared-memory` for CPU-type devices, else `device-copy`), each
/// present device's streaming bandwidth (twice the rate of a copy within
/// it, which reads and writes every byte) and dispatch overhead (the median
/// time of a one-element add dispatched on it). Each link measured goes to
/// `db` when it is not null. Progress and the fits go to `log`.
llvm::Expected<std::string> calibrateLinks(const CalibrateOptions &options,
                                           ProfileDB *db,
                                           llvm::raw_ostream &log);

} // namespace fuel::judge

#endif // TOOLS_FUEL_JUDGE_JUDGE_H
