//===- ProfileDB.h - The profile database (Layer 2) -------------*- C++ -*-===//
//
// Measured kernel latencies and link figures, stored in SQLite (WAL mode,
// busy_timeout for concurrent writers, a schema version with migrations).
// A measurement is found again only under the exact key it was stored
// with: kernel id and revision, op kind, dtypes, exact operand shapes and op
// params, device kind and ordinal, the device's identity (name and driver or
// CPU model), the thread-pool size and the library's thread setting. A
// stale revision, another machine's device or another pool size never hits.
// docs/PROFILE-DB.md documents the schema.
//
// Free of MLIR: the planner's passes, fuel-judge and tests use it alike.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_JUDGE_PROFILEDB_H
#define FUEL_JUDGE_PROFILEDB_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace fuel::judge {

/// The schema version this build writes; older databases are migrated on
/// open, newer ones are refused with both versions named.
constexpr int64_t kProfileSchemaVersion = 2;
/// The oldest schema version open() still migrates (docs/PROFILE-DB.md).
constexpr int64_t kOldestProfileSchemaVersion = 1;
/// How long a writer waits for another process's transaction, in ms.
constexpr int kProfileBusyTimeoutMs = 10000;

/// What identifies one measurement. Every field takes part in the lookup.
struct MeasurementKey {
  std::string kernelId;                     ///< e.g. "cpu.openblas.matmul_f32"
  uint64_t revision = 0;                    ///< the candidate's revision hash
  std::string opKind;                       ///< "matmul", "elementwise", ...
  std::vector<std::string> dtypes;          ///< operands then results
  std::vector<std::vector<int64_t>> shapes; ///< operands then results
  std::vector<std::pair<std::string, std::string>> params; ///< sorted by key
  uint32_t sizeClass = 0; ///< stored for queries; implied by the shapes
  std::string deviceKind; ///< "cpu" | "cuda" | "vulkan"
  int64_t deviceOrdinal = 0;
  std::string deviceName;     ///< CPU model or GPU name
  std::string deviceDriver;   ///< driver version; "" for the CPU
  int64_t poolThreads = 1;    ///< the runtime's thread-pool size
  int64_t libraryThreads = 1; ///< the vendor library's thread setting

  /// A canonical, unambiguous text of every field: the column the lookup
  /// matches on (besides the indexed ones).
  std::string canonical() const;
};

/// A printable summary of a key ("kernel on device, shapes") for messages.
std::string describe(const MeasurementKey &key);

/// Statistics of one measurement (nanoseconds).
struct Measurement {
  double medianNs = 0;
  double p10Ns = 0;
  double p90Ns = 0;
  int64_t iterations = 0;
  double noiseNs = 0;    ///< median absolute deviation
  int64_t timestamp = 0; ///< seconds since the epoch
  std::string fuelVersion;
};

/// One measured link: copies between two devices at several sizes, and the
/// fitted latency + bytes / bandwidth.
struct LinkMeasurement {
  std::string from; ///< device name as in the topology, e.g. "cpu", "vulkan:0"
  std::string to;
  std::vector<uint64_t> sizes; ///< bytes
  std::vector<double> timesNs; ///< median per size
  double latencyNs = 0;
  double bandwidthBytesPerSec = 0;
  int64_t timestamp = 0;
  std::string fuelVersion;
};

/// An open profile database.
class ProfileDB {
public:
  /// Opens (creating when `create`) the database at `path`: WAL mode,
  /// busy_timeout, schema created or migrated. Errors name the path.
  static llvm::Expected<std::unique_ptr<ProfileDB>> open(llvm::StringRef path,
                                                         bool create = true);
  ~ProfileDB();

  /// The stored measurement for exactly `key`, or std::nullopt.
  llvm::Expected<std::optional<Measurement>> lookup(const MeasurementKey &key);
  /// The pool sizes (`poolThreads`, each at least 1; distinct, ascending)
  /// under which the database holds a measurement of `key` with every
  /// other field equal, `key.poolThreads` included when it is there: what
  /// a planner whose lookup missed can name (docs/PROFILE-DB.md).
  llvm::Expected<std::vector<int64_t>> poolThreadsOf(const MeasurementKey &key);
  /// Stores (replacing any earlier one for the same key) in one transaction.
  llvm::Error insert(const MeasurementKey &key, const Measurement &m);
  /// Several in one transaction: all or none.
  llvm::Error
  insertAll(llvm::ArrayRef<std::pair<MeasurementKey, Measurement>> rows);

  llvm::Error insertLink(const LinkMeasurement &link);
  llvm::Expected<std::vector<LinkMeasurement>> links();

  /// The schema version stored in the file.
  llvm::Expected<int64_t> schemaVersion();

  /// Every stored measurement, ordered by canonical key text (deterministic).
  llvm::Expected<std::vector<std::pair<MeasurementKey, Measurement>>>
  measurements();
  /// Removes the measurement of exactly `key`; true when one was removed.
  llvm::Expected<bool> erase(const MeasurementKey &key);

  /// The file this database was opened from.
  llvm::StringRef path() const;

private:
  ProfileDB();
  struct Impl;
  std::unique_ptr<Impl> impl;
};

} // namespace fuel::judge

#endif // FUEL_JUDGE_PROFILEDB_H
