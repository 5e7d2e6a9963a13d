//===- Measure.h - Measuring kernels from a job manifest --------*- C++ -*-===//
//
// The middle step of measuring kernels (docs/FUEL-JUDGE.md): reads the job
// manifest `fuel-judge --emit-jobs` writes, runs each job's executable (one
// kernel-bearing node, one candidate forced) on its device with random
// inputs, warms it up, repeats it until the median of the node's dispatch
// times is stable or the job's share of the budget is spent, and writes per
// job the median, p10, p90, the iterations, the noise (median absolute
// deviation) and the identity of the device it ran on. LLVM-free: a machine
// with a GPU and no compiler measures with fuel-run alone.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_RUNTIME_MEASURE_H
#define FUEL_RUNTIME_MEASURE_H

#include "fuel/Runtime/Json.h"
#include "fuel/Runtime/Status.h"
#include "fuel/Support/Device.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace fuel::rt {

class Runtime;

/// The manifest format version this build reads and writes.
inline constexpr int64_t kJobManifestVersion = 1;
/// The results format version this build reads and writes.
inline constexpr int64_t kJobResultsVersion = 1;

/// One input of a job's executable.
struct JobInput {
  std::string dtype; ///< "f32", "i64", ... (RUNTIME-IO.md names)
  std::vector<int64_t> shape;
};

/// One job of a manifest: a candidate of a node, compiled alone.
struct MeasureJob {
  std::string id;             ///< Unique in the manifest; names the results.
  std::string executable;     ///< As written in the manifest (relative to it).
  std::string path;           ///< The executable's path to open...
  std::vector<uint8_t> bytes; ///< ...unless its bytes are here (in process).
  ::fuel::Device device;      ///< Where the kernel runs.
  std::string kernel;         ///< The kernel id forced.
  int64_t layer1Ns = 0;       ///< The planner's static (Layer 1) time.
  std::vector<JobInput> inputs;
  /// The measurement key's fields (kernel id, revision, op kind, dtypes,
  /// shapes, params, size class, device kind and ordinal), copied into the
  /// results unchanged for the ingest step.
  json::Value key;
};

/// A parsed manifest.
struct Manifest {
  int64_t version = 0;
  std::string fuelVersion;
  std::vector<MeasureJob> jobs;
};

/// Parses manifest text read from `file`; executables are resolved against
/// `baseDir`. Errors name the file, the line and column, and the field
/// (`jobs[3].device`).
StatusOr<Manifest> parseManifest(std::string_view text, const std::string &file,
                                 const std::string &baseDir);
/// Reads and parses the manifest file at `path`.
StatusOr<Manifest> readManifestFile(const std::string &path);

/// Order statistics of one job's samples (ns).
struct SampleStats {
  double medianNs = 0, p10Ns = 0, p90Ns = 0;
  double noiseNs = 0; ///< Median absolute deviation from the median.
};

/// The statistics of `samples` (not empty): the quantiles interpolate
/// linearly between order statistics (numpy's default).
SampleStats summarizeSamples(std::vector<double> samples);

/// When a job's repetitions stop.
struct StopRule {
  uint64_t warmupIterations = 3; ///< Untimed runs first.
  uint64_t minIterations = 10;   ///< Timed runs at least...
  uint64_t minTimeNs = 20000000; ///< ...and at least this long in all.
  /// Stable: the median moved by less than this fraction over the last
  /// batch (a quarter of the runs so far, at least 5).
  double relativeChange = 0.01;
  uint64_t maxIterations = 100000;
};

/// Whether a run of `samples` is done under `rule` (`elapsedNs` spent).
/// Exposed for tests; measureJobs applies it after every batch.
bool isStable(const std::vector<double> &samples, double previousMedian,
              const StopRule &rule, uint64_t elapsedNs);

/// The device identity stored with a measurement: the probe's name (CPU
/// model or GPU name) and the driver version ("" for the CPU).
struct DeviceIdentity {
  std::string name;
  std::string driver;
};

/// The identity of `device` on this machine, from the probe (fuel::probe),
/// the same one `probe` topologies carry; Unavailable when absent.
StatusOr<DeviceIdentity> probeDeviceIdentity(const ::fuel::Device &device,
                                             const std::string &cudaLibrary);

/// What happened to one job.
struct JobResult {
  enum class State { Measured, Skipped, Failed, Pending };
  std::string id;
  State state = State::Pending;
  std::string reason; ///< Skipped, Failed, Pending: why.
  SampleStats stats;
  uint64_t iterations = 0;
  bool stable = false; ///< False: the budget ran out first.
  DeviceIdentity identity;
  int64_t poolThreads = 0;
  int64_t libraryThreads = 1;
  int64_t timestamp = 0; ///< Seconds since the epoch, when it finished.
};

/// "measured", "skipped", "failed", "pending".
const char *stateName(JobResult::State state);

/// How measureJobs runs.
struct MeasureOptions {
  /// The whole run's wall time; each job gets the remaining time divided by
  /// the jobs left, and the jobs left when it is gone are Pending.
  double budgetSeconds = 600;
  /// Only jobs on this device; the others are Skipped.
  std::optional<::fuel::Device> device;
  StopRule rule;
  uint64_t seed = 1; ///< Input generator seed (RUNTIME-IO.md).
  std::string cudaLibrary = "libcuda.so.1";
  /// Called before each job starts (index, job, seconds left).
  std::function<void(size_t, const MeasureJob &, double)> onJobStart;
};

/// Measures `manifest`'s jobs in order on `runtime`'s devices.
std::vector<JobResult> measureJobs(const Runtime &runtime,
                                   const Manifest &manifest,
                                   const MeasureOptions &options);

/// The results file: per job its id, state and reason, statistics,
/// iterations, identity, threads, timestamp and the manifest's key.
std::string resultsJson(const Manifest &manifest,
                        const std::vector<JobResult> &results,
                        const std::string &fuelVersion);

} // namespace fuel::rt

#endif // FUEL_RUNTIME_MEASURE_H
