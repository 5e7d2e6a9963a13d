//===- ProfileDBFuzzer.cpp - libFuzzer target for the profile database ----===//
//
// The profile database (lib/Judge) is a file that a user may have edited by
// hand, a tool may have broken, or another fuel may have written. The input
// is one of two things:
//
//   - a whole database file, when it starts with SQLite's header
//     ("SQLite format 3\0"): written as it is;
//   - otherwise an SQL script, run on a database that ProfileDB::open has
//     just created with the current schema (so the script edits a real
//     profile database: rows of any type and value, tables dropped and made
//     again without their constraints, the schema version changed, ...).
//
// The script runs with SQLite's defensive mode (no writable_schema edits,
// which would test SQLite rather than fuel), no ATTACH, a length limit and a
// step budget, so that it cannot reach outside its file or run unbounded.
//
// Then fuel reads it as the planner and fuel-profile-db do: ProfileDB::open
// without create. A refusal must carry a message. An accepted database must
// list its measurements and links or refuse with a message; and every
// listed measurement must be found again by lookup() under its own key,
// with the same figures, and its pool size must be among those
// poolThreadsOf() lists for that key. The database must then take a write
// of each listed row (as fuel-judge --ingest would replace it) and list the
// same rows again.
//
//===----------------------------------------------------------------------===//

#include "FuzzCheck.h"

#include "fuel/Judge/ProfileDB.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Error.h"

#include <sqlite3.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>

using fuel::fuzz::fuzzFail;
using fuel::fuzz::fuzzNoteRefusal;
using namespace fuel::judge;

namespace {

constexpr const char *kTarget = "profile-db";

/// A directory of this process's own, on tmpfs when there is one (the
/// database syncs on every commit).
const std::string &workDir() {
  static const std::string dir = [] {
    std::string base = "/dev/shm";
    if (access(base.c_str(), W_OK) != 0) {
      const char *tmp = std::getenv("TMPDIR");
      base = tmp && *tmp ? tmp : "/tmp";
    }
    std::string pattern = base + "/fuel-fuzz-profile-db-XXXXXX";
    if (!mkdtemp(pattern.data()))
      fuzzFail(kTarget, "cannot make a work directory under " + base);
    return pattern;
  }();
  return dir;
}

void removeDatabase(const std::string &path) {
  for (const char *suffix : {"", "-wal", "-shm", "-journal"})
    std::remove((path + suffix).c_str());
}

/// Refuses what would leave the file: ATTACH and DETACH.
int authorize(void *, int action, const char *, const char *, const char *,
              const char *) {
  if (action == SQLITE_ATTACH || action == SQLITE_DETACH)
    return SQLITE_DENY;
  return SQLITE_OK;
}

/// Stops a script after about a million virtual machine steps.
int progress(void *counter) { return ++*static_cast<int *>(counter) > 1000; }

/// Runs the script on `path` (a fresh profile database); the script's own
/// errors are the input's business and stop it, nothing more.
void runScript(const std::string &path, const uint8_t *data, size_t size) {
  sqlite3 *db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) !=
      SQLITE_OK)
    fuzzFail(kTarget, std::string("cannot open the fresh database: ") +
                          sqlite3_errmsg(db));
  sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
  sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, nullptr);
  sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
  sqlite3_limit(db, SQLITE_LIMIT_LENGTH, 1 << 20);
  sqlite3_limit(db, SQLITE_LIMIT_SQL_LENGTH, 1 << 16);
  sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
  sqlite3_set_authorizer(db, authorize, nullptr);
  int steps = 0;
  sqlite3_progress_handler(db, 1000, progress, &steps);
  std::string script(reinterpret_cast<const char *>(data), size);
  sqlite3_exec(db, script.c_str(), nullptr, nullptr, nullptr);
  // A transaction the script left open is rolled back by close.
  sqlite3_close_v2(db);
}

bool sameMeasurement(const Measurement &a, const Measurement &b) {
  auto same = [](double x, double y) {
    return std::memcmp(&x, &y, sizeof(double)) == 0;
  };
  return same(a.medianNs, b.medianNs) && same(a.p10Ns, b.p10Ns) &&
         same(a.p90Ns, b.p90Ns) && same(a.noiseNs, b.noiseNs) &&
         a.iterations == b.iterations && a.timestamp == b.timestamp &&
         a.fuelVersion == b.fuelVersion;
}

/// A refusal: it must say something.
void refused(llvm::Error err) {
  std::string message = llvm::toString(std::move(err));
  if (message.empty())
    fuzzFail(kTarget, "a refusal without a message");
  fuzzNoteRefusal(kTarget, message);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string path = workDir() + "/profile.db";
  removeDatabase(path);

  static const char kHeader[] = "SQLite format 3";
  if (size >= sizeof(kHeader) &&
      std::memcmp(data, kHeader, sizeof(kHeader)) == 0) {
    FILE *f = std::fopen(path.c_str(), "wb");
    if (!f || std::fwrite(data, 1, size, f) != size || std::fclose(f) != 0)
      fuzzFail(kTarget, "cannot write the input database");
  } else {
    llvm::Expected<std::unique_ptr<ProfileDB>> fresh =
        ProfileDB::open(path, /*create=*/true);
    if (!fresh)
      fuzzFail(kTarget, "cannot create a fresh database: " +
                            llvm::toString(fresh.takeError()));
    fresh->reset();
    runScript(path, data, size);
  }

  // As the planner (fuel-plan profile=) and fuel-profile-db open it.
  llvm::Expected<std::unique_ptr<ProfileDB>> opened =
      ProfileDB::open(path, /*create=*/false);
  if (!opened) {
    refused(opened.takeError());
    removeDatabase(path);
    return 0;
  }
  ProfileDB &db = **opened;
  llvm::Expected<int64_t> version = db.schemaVersion();
  if (!version)
    fuzzFail(kTarget, "an opened database has no schema version: " +
                          llvm::toString(version.takeError()));
  if (*version != kProfileSchemaVersion)
    fuzzFail(kTarget, "an opened database holds schema version " +
                          std::to_string(*version) + ", not the current " +
                          std::to_string(kProfileSchemaVersion));

  if (llvm::Expected<std::vector<LinkMeasurement>> links = db.links(); !links)
    refused(links.takeError());

  llvm::Expected<std::vector<std::pair<MeasurementKey, Measurement>>> rows =
      db.measurements();
  if (!rows) {
    refused(rows.takeError());
    removeDatabase(path);
    return 0;
  }
  for (const auto &[key, m] : *rows) {
    llvm::Expected<std::optional<Measurement>> found = db.lookup(key);
    if (!found)
      fuzzFail(kTarget, "a listed measurement's lookup fails: " +
                            llvm::toString(found.takeError()));
    if (!*found)
      fuzzFail(kTarget, "a listed measurement is not found by its key",
               key.canonical());
    if (!sameMeasurement(**found, m))
      fuzzFail(kTarget, "a listed measurement's lookup gives other figures",
               key.canonical());
    llvm::Expected<std::vector<int64_t>> pools = db.poolThreadsOf(key);
    if (!pools)
      fuzzFail(kTarget, "a listed measurement's pool sizes cannot be read: " +
                            llvm::toString(pools.takeError()));
    if (key.poolThreads >= 1 && !llvm::is_contained(*pools, key.poolThreads))
      fuzzFail(kTarget,
               "a listed measurement's pool size is not among its key's",
               key.canonical());
  }

  // Rewriting every row (what fuel-judge --ingest does for a key it
  // measures again) must keep the listing as it was. The script may have
  // dropped the constraints a write needs; then the write refuses.
  if (llvm::Error err = db.insertAll(*rows)) {
    refused(std::move(err));
    removeDatabase(path);
    return 0;
  }
  llvm::Expected<std::vector<std::pair<MeasurementKey, Measurement>>> again =
      db.measurements();
  if (!again)
    fuzzFail(kTarget, "the database cannot list what it has just stored: " +
                          llvm::toString(again.takeError()));
  if (again->size() != rows->size())
    fuzzFail(kTarget, "rewriting the rows changes how many are listed");
  for (size_t i = 0; i < rows->size(); ++i)
    if ((*again)[i].first.canonical() != (*rows)[i].first.canonical() ||
        !sameMeasurement((*again)[i].second, (*rows)[i].second))
      fuzzFail(kTarget, "rewriting the rows changes a row",
               (*rows)[i].first.canonical(), (*again)[i].first.canonical());
  opened->reset();
  removeDatabase(path);
  return 0;
}
