//===- ProfileDBTest.cpp - Tests of the profile database ------------------===//
//
// Schema creation and migration, exact-key lookup (every key field separates
// hits), the pool sizes a key is held under, replacement, the link table,
// refusal of newer and non-database files, and concurrent writers in
// separate processes.
//
//===----------------------------------------------------------------------===//

#include "fuel/Judge/ProfileDB.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <string>

using namespace fuel::judge;

namespace {

/// A fresh directory for one test's files, removed afterwards.
class ProfileDBTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> dir;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("fuel-profile-db", dir));
    tmp = std::string(dir);
  }
  void TearDown() override { llvm::sys::fs::remove_directories(tmp); }
  std::string file(llvm::StringRef name) const {
    return (llvm::Twine(tmp) + "/" + name).str();
  }
  std::string tmp;
};

MeasurementKey sampleKey() {
  MeasurementKey key;
  key.kernelId = "cpu.openblas.matmul_f32";
  key.revision = 0x0123456789abcdefull;
  key.opKind = "matmul";
  key.dtypes = {"f32", "f32", "f32"};
  key.shapes = {{64, 128}, {128, 256}, {64, 256}};
  key.params = {{"transpose_b", "false"}};
  key.sizeClass = 3;
  key.deviceKind = "cpu";
  key.deviceOrdinal = 0;
  key.deviceName = "AMD EPYC 7B13";
  key.deviceDriver = "";
  key.poolThreads = 2;
  key.libraryThreads = 1;
  return key;
}

Measurement sampleMeasurement(double median = 1000) {
  Measurement m;
  m.medianNs = median;
  m.p10Ns = median * 0.9;
  m.p90Ns = median * 1.2;
  m.iterations = 50;
  m.noiseNs = median * 0.01;
  m.timestamp = 1700000000;
  m.fuelVersion = "0.1.0";
  return m;
}

std::unique_ptr<ProfileDB> openOrFail(const std::string &path) {
  llvm::Expected<std::unique_ptr<ProfileDB>> db = ProfileDB::open(path);
  if (!db) {
    ADD_FAILURE() << llvm::toString(db.takeError());
    return nullptr;
  }
  return std::move(*db);
}

std::string errorText(llvm::Error err) {
  return llvm::toString(std::move(err));
}

/// Runs `sql` on `path` with SQLite directly; the test's own view of the file.
std::string sqliteScalar(const std::string &path, const std::string &sql) {
  sqlite3 *db = nullptr;
  EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  sqlite3_stmt *stmt = nullptr;
  std::string out;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK &&
      sqlite3_step(stmt) == SQLITE_ROW && sqlite3_column_text(stmt, 0))
    out = reinterpret_cast<const char *>(sqlite3_column_text(stmt, 0));
  else
    ADD_FAILURE() << sql << ": " << sqlite3_errmsg(db);
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return out;
}

void sqliteExec(const std::string &path, const std::string &sql) {
  sqlite3 *db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char *msg = nullptr;
  EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &msg), SQLITE_OK)
      << (msg ? msg : "");
  sqlite3_free(msg);
  sqlite3_close(db);
}

TEST_F(ProfileDBTest, CreatesTheSchemaInWalMode) {
  std::string path = file("new.db");
  {
    auto db = openOrFail(path);
    ASSERT_TRUE(db);
    llvm::Expected<int64_t> version = db->schemaVersion();
    ASSERT_TRUE(bool(version));
    EXPECT_EQ(*version, kProfileSchemaVersion);
    EXPECT_EQ(db->path(), path);
  }
  EXPECT_EQ(sqliteScalar(path, "PRAGMA journal_mode"), "wal");
  EXPECT_EQ(sqliteScalar(path, "SELECT version FROM schema_version"),
            std::to_string(kProfileSchemaVersion));
  EXPECT_EQ(sqliteScalar(path, "SELECT count(*) FROM sqlite_master WHERE "
                               "name IN ('measurements', 'links')"),
            "2");
  // Opening again keeps what is there.
  auto again = openOrFail(path);
  ASSERT_TRUE(again);
  EXPECT_EQ(*again->schemaVersion(), kProfileSchemaVersion);
}

TEST_F(ProfileDBTest, LookupFindsOnlyTheExactKey) {
  auto db = openOrFail(file("keys.db"));
  ASSERT_TRUE(db);
  MeasurementKey key = sampleKey();
  ASSERT_FALSE(db->insert(key, sampleMeasurement(1234.5)));

  auto hit = db->lookup(key);
  ASSERT_TRUE(bool(hit));
  ASSERT_TRUE(hit->has_value());
  EXPECT_EQ((*hit)->medianNs, 1234.5);
  EXPECT_EQ((*hit)->p10Ns, 1234.5 * 0.9);
  EXPECT_EQ((*hit)->p90Ns, 1234.5 * 1.2);
  EXPECT_EQ((*hit)->iterations, 50);
  EXPECT_EQ((*hit)->noiseNs, 1234.5 * 0.01);
  EXPECT_EQ((*hit)->timestamp, 1700000000);
  EXPECT_EQ((*hit)->fuelVersion, "0.1.0");

  // Each variation changes one field; none may hit.
  std::vector<std::pair<std::string, std::function<void(MeasurementKey &)>>>
      variations = {
          {"kernel id", [](MeasurementKey &k) { k.kernelId += "x"; }},
          {"revision", [](MeasurementKey &k) { k.revision ^= 1; }},
          {"op kind", [](MeasurementKey &k) { k.opKind = "conv2d"; }},
          {"dtype", [](MeasurementKey &k) { k.dtypes[1] = "f16"; }},
          {"dtype count", [](MeasurementKey &k) { k.dtypes.pop_back(); }},
          {"shape", [](MeasurementKey &k) { k.shapes[0][1] = 129; }},
          {"rank", [](MeasurementKey &k) { k.shapes[2].push_back(1); }},
          {"shape split",
           [](MeasurementKey &k) {
             // Same numbers, another split between operands.
             k.shapes = {{64}, {128, 128, 256}, {64, 256}};
           }},
          {"param value",
           [](MeasurementKey &k) { k.params[0].second = "true"; }},
          {"param added",
           [](MeasurementKey &k) { k.params.push_back({"z", "1"}); }},
          {"size class", [](MeasurementKey &k) { k.sizeClass = 4; }},
          {"device kind", [](MeasurementKey &k) { k.deviceKind = "vulkan"; }},
          {"ordinal", [](MeasurementKey &k) { k.deviceOrdinal = 1; }},
          {"device name",
           [](MeasurementKey &k) { k.deviceName = "Intel Xeon"; }},
          {"driver", [](MeasurementKey &k) { k.deviceDriver = "1.2"; }},
          {"pool threads", [](MeasurementKey &k) { k.poolThreads = 4; }},
          {"library threads", [](MeasurementKey &k) { k.libraryThreads = 2; }},
      };
  for (auto &[what, change] : variations) {
    MeasurementKey other = key;
    change(other);
    EXPECT_NE(other.canonical(), key.canonical()) << what;
    auto miss = db->lookup(other);
    ASSERT_TRUE(bool(miss)) << what;
    EXPECT_FALSE(miss->has_value()) << what;
  }
}

TEST_F(ProfileDBTest, PoolThreadsOfListsThePoolSizesOfOneKey) {
  auto db = openOrFail(file("pools.db"));
  ASSERT_TRUE(db);
  MeasurementKey key = sampleKey();
  for (int64_t threads : {4, 1, 16}) {
    MeasurementKey k = key;
    k.poolThreads = threads;
    ASSERT_FALSE(db->insert(k, sampleMeasurement()));
  }
  // Keys that differ elsewhere are not listed: another shape, another
  // library setting, a device name that extends this one's (holding the
  // text the pool size follows in a key's canonical text).
  MeasurementKey otherShape = key;
  otherShape.poolThreads = 2;
  otherShape.shapes[0][1] = 129;
  MeasurementKey otherLibrary = key;
  otherLibrary.poolThreads = 3;
  otherLibrary.libraryThreads = 2;
  MeasurementKey longerName = key;
  longerName.poolThreads = 5;
  longerName.deviceName += ";pool-threads=7";
  for (const MeasurementKey &k : {otherShape, otherLibrary, longerName})
    ASSERT_FALSE(db->insert(k, sampleMeasurement()));

  // Asked under a pool size it lacks (the planner's miss), and under one it
  // holds.
  llvm::Expected<std::vector<int64_t>> pools = db->poolThreadsOf(key);
  ASSERT_TRUE(bool(pools)) << llvm::toString(pools.takeError());
  EXPECT_EQ(*pools, (std::vector<int64_t>{1, 4, 16}));
  key.poolThreads = 4;
  pools = db->poolThreadsOf(key);
  ASSERT_TRUE(bool(pools)) << llvm::toString(pools.takeError());
  EXPECT_EQ(*pools, (std::vector<int64_t>{1, 4, 16}));
  pools = db->poolThreadsOf(longerName);
  ASSERT_TRUE(bool(pools)) << llvm::toString(pools.takeError());
  EXPECT_EQ(*pools, (std::vector<int64_t>{5}));
  key.kernelId = "cpu.blis.matmul_f32";
  pools = db->poolThreadsOf(key);
  ASSERT_TRUE(bool(pools)) << llvm::toString(pools.takeError());
  EXPECT_TRUE(pools->empty());
}

TEST_F(ProfileDBTest, CanonicalTextIsUnambiguous) {
  // A separator inside a string must not make two keys collide.
  MeasurementKey a = sampleKey(), b = sampleKey();
  a.params = {{"a", "b,c=d"}};
  b.params = {{"a", "b"}, {"c", "d"}};
  EXPECT_NE(a.canonical(), b.canonical());
  a = sampleKey();
  b = sampleKey();
  a.deviceName = "x;driver=1:y";
  b.deviceName = "x";
  b.deviceDriver = "y";
  EXPECT_NE(a.canonical(), b.canonical());
}

TEST_F(ProfileDBTest, ReinsertReplaces) {
  std::string path = file("replace.db");
  auto db = openOrFail(path);
  ASSERT_TRUE(db);
  MeasurementKey key = sampleKey();
  ASSERT_FALSE(db->insert(key, sampleMeasurement(1000)));
  ASSERT_FALSE(db->insert(key, sampleMeasurement(800)));
  auto hit = db->lookup(key);
  ASSERT_TRUE(bool(hit) && hit->has_value());
  EXPECT_EQ((*hit)->medianNs, 800);
  EXPECT_EQ(sqliteScalar(path, "SELECT count(*) FROM measurements"), "1");

  auto all = db->measurements();
  ASSERT_TRUE(bool(all));
  ASSERT_EQ(all->size(), 1u);
  EXPECT_EQ((*all)[0].first.canonical(), key.canonical());
  EXPECT_EQ((*all)[0].second.medianNs, 800);

  auto removed = db->erase(key);
  ASSERT_TRUE(bool(removed));
  EXPECT_TRUE(*removed);
  EXPECT_FALSE(db->lookup(key)->has_value());
}

TEST_F(ProfileDBTest, InsertAllIsAllOrNone) {
  auto db = openOrFail(file("batch.db"));
  ASSERT_TRUE(db);
  MeasurementKey a = sampleKey(), b = sampleKey();
  b.revision = 7;
  Measurement bad = sampleMeasurement();
  bad.medianNs = -1;
  std::vector<std::pair<MeasurementKey, Measurement>> rows = {
      {a, sampleMeasurement()}, {b, bad}};
  std::string msg = errorText(db->insertAll(rows));
  EXPECT_NE(msg.find("finite and non-negative"), std::string::npos) << msg;
  EXPECT_FALSE(db->lookup(a)->has_value());

  rows[1].second = sampleMeasurement(5);
  ASSERT_FALSE(db->insertAll(rows));
  EXPECT_EQ((*db->lookup(a))->medianNs, 1000);
  EXPECT_EQ((*db->lookup(b))->medianNs, 5);
}

TEST_F(ProfileDBTest, LinkTableRoundTrip) {
  auto db = openOrFail(file("links.db"));
  ASSERT_TRUE(db);
  LinkMeasurement link;
  link.from = "cpu";
  link.to = "vulkan:0";
  link.sizes = {65536, 4194304, 67108864};
  link.timesNs = {12000.5, 410000, 6500000.25};
  link.latencyNs = 9000;
  link.bandwidthBytesPerSec = 1.05e10;
  link.timestamp = 1700000001;
  link.fuelVersion = "0.1.0";
  ASSERT_FALSE(db->insertLink(link));
  LinkMeasurement back = link;
  back.from = "vulkan:0";
  back.to = "cpu";
  back.latencyNs = 9500;
  ASSERT_FALSE(db->insertLink(back));
  // Replaces the first.
  link.bandwidthBytesPerSec = 1.1e10;
  ASSERT_FALSE(db->insertLink(link));

  auto links = db->links();
  ASSERT_TRUE(bool(links)) << llvm::toString(links.takeError());
  ASSERT_EQ(links->size(), 2u);
  const LinkMeasurement &l = (*links)[0];
  EXPECT_EQ(l.from, "cpu");
  EXPECT_EQ(l.to, "vulkan:0");
  EXPECT_EQ(l.sizes, link.sizes);
  EXPECT_EQ(l.timesNs, link.timesNs);
  EXPECT_EQ(l.latencyNs, 9000);
  EXPECT_EQ(l.bandwidthBytesPerSec, 1.1e10);
  EXPECT_EQ(l.timestamp, 1700000001);
  EXPECT_EQ(l.fuelVersion, "0.1.0");
  EXPECT_EQ((*links)[1].from, "vulkan:0");
  EXPECT_EQ((*links)[1].latencyNs, 9500);

  LinkMeasurement uneven = link;
  uneven.timesNs.pop_back();
  std::string msg = errorText(db->insertLink(uneven));
  EXPECT_NE(msg.find("3 sizes but 2 times"), std::string::npos) << msg;
}

TEST_F(ProfileDBTest, MigratesFromVersionOne) {
  std::string path = file("v1.db");
  // The layout of version 1, written by hand: no noise column, no links.
  sqliteExec(path, R"sql(
    CREATE TABLE schema_version (version INTEGER NOT NULL) STRICT;
    INSERT INTO schema_version VALUES (1);
    CREATE TABLE measurements (
      id INTEGER PRIMARY KEY, key_text TEXT NOT NULL UNIQUE,
      kernel_id TEXT NOT NULL, revision TEXT NOT NULL, op_kind TEXT NOT NULL,
      dtypes TEXT NOT NULL, shapes TEXT NOT NULL, params TEXT NOT NULL,
      size_class INTEGER NOT NULL, device_kind TEXT NOT NULL,
      device_ordinal INTEGER NOT NULL, device_name TEXT NOT NULL,
      device_driver TEXT NOT NULL, pool_threads INTEGER NOT NULL,
      library_threads INTEGER NOT NULL, median_ns REAL NOT NULL,
      p10_ns REAL NOT NULL, p90_ns REAL NOT NULL, iterations INTEGER NOT NULL,
      timestamp INTEGER NOT NULL, fuel_version TEXT NOT NULL) STRICT;
    CREATE INDEX measurements_by_kernel ON measurements (kernel_id, revision);
  )sql");
  MeasurementKey key = sampleKey();
  key.params = {};
  key.shapes = {{4, 4}};
  key.dtypes = {"f32"};
  std::string insert =
      "INSERT INTO measurements (key_text, kernel_id, revision, op_kind, "
      "dtypes, shapes, params, size_class, device_kind, device_ordinal, "
      "device_name, device_driver, pool_threads, library_threads, median_ns, "
      "p10_ns, p90_ns, iterations, timestamp, fuel_version) VALUES ('" +
      key.canonical() +
      "', 'cpu.openblas.matmul_f32', '0123456789abcdef', 'matmul', "
      "'[\"f32\"]', '[[4,4]]', '[]', 3, 'cpu', 0, 'AMD EPYC 7B13', '', 2, 1, "
      "777, 700, 800, 10, 1600000000, '0.0.9')";
  sqliteExec(path, insert);

  auto db = openOrFail(path);
  ASSERT_TRUE(db);
  EXPECT_EQ(*db->schemaVersion(), 2);
  auto hit = db->lookup(key);
  ASSERT_TRUE(bool(hit)) << llvm::toString(hit.takeError());
  ASSERT_TRUE(hit->has_value());
  EXPECT_EQ((*hit)->medianNs, 777);
  EXPECT_EQ((*hit)->noiseNs, 0); // the column's default for old rows
  EXPECT_EQ((*hit)->fuelVersion, "0.0.9");
  auto all = db->measurements();
  ASSERT_TRUE(bool(all)) << llvm::toString(all.takeError());
  EXPECT_EQ(all->size(), 1u);
  // The link table exists now.
  auto links = db->links();
  ASSERT_TRUE(bool(links));
  EXPECT_TRUE(links->empty());
  EXPECT_EQ(sqliteScalar(path, "SELECT version FROM schema_version"), "2");
}

TEST_F(ProfileDBTest, RefusesANewerVersion) {
  std::string path = file("v9.db");
  {
    ASSERT_TRUE(openOrFail(path));
  }
  sqliteExec(path, "UPDATE schema_version SET version = 9");
  auto db = ProfileDB::open(path);
  ASSERT_FALSE(bool(db));
  std::string msg = errorText(db.takeError());
  EXPECT_NE(msg.find(path), std::string::npos) << msg;
  EXPECT_NE(msg.find("schema version 9 is newer than version 2"),
            std::string::npos)
      << msg;
}

TEST_F(ProfileDBTest, RefusesAFileThatIsNotADatabase) {
  std::string path = file("garbage.db");
  {
    std::ofstream out(path, std::ios::binary);
    for (int i = 0; i < 4096; ++i)
      out.put(static_cast<char>((i * 131 + 7) & 0xff));
  }
  auto db = ProfileDB::open(path);
  ASSERT_FALSE(bool(db));
  std::string msg = errorText(db.takeError());
  EXPECT_NE(msg.find(path), std::string::npos) << msg;
  EXPECT_NE(msg.find("file is not a database"), std::string::npos) << msg;
}

TEST_F(ProfileDBTest, RefusesAnotherApplicationsDatabase) {
  std::string path = file("other.db");
  sqliteExec(path, "CREATE TABLE t (x INTEGER)");
  auto db = ProfileDB::open(path);
  ASSERT_FALSE(bool(db));
  std::string msg = errorText(db.takeError());
  EXPECT_NE(msg.find("not a fuel profile database"), std::string::npos) << msg;
}

TEST_F(ProfileDBTest, RefusesATableThatLostItsLayout) {
  // Each edit, made by hand to a fresh database, breaks a promise a reader
  // relies on; open() must name it.
  const std::string kColumns =
      "id INTEGER PRIMARY KEY, key_text TEXT NOT NULL{0}, kernel_id TEXT NOT "
      "NULL, revision TEXT NOT NULL, op_kind TEXT NOT NULL, dtypes TEXT NOT "
      "NULL, shapes TEXT NOT NULL, params TEXT NOT NULL, size_class INTEGER "
      "NOT NULL, device_kind TEXT NOT NULL, device_ordinal INTEGER NOT NULL, "
      "device_name TEXT NOT NULL, device_driver TEXT NOT NULL, pool_threads "
      "INTEGER NOT NULL, library_threads INTEGER NOT NULL, median_ns {1} NOT "
      "NULL, p10_ns REAL NOT NULL, p90_ns REAL NOT NULL, iterations INTEGER "
      "NOT NULL, noise_ns REAL {2}, timestamp INTEGER NOT NULL, fuel_version "
      "TEXT NOT NULL";
  struct Case {
    const char *name, *unique, *medianType, *noiseNull, *strict, *expected;
  };
  const Case cases[] = {
      {"no-unique", "", "REAL", "NOT NULL", "STRICT",
       "table 'measurements' does not keep (key_text) unique"},
      {"not-strict", " UNIQUE", "REAL", "NOT NULL", "",
       "table 'measurements' is not STRICT"},
      {"text-median", " UNIQUE", "TEXT", "NOT NULL", "STRICT",
       "column 'median_ns' is TEXT, not REAL"},
      {"nullable", " UNIQUE", "REAL", "", "STRICT",
       "column 'noise_ns' may be NULL"},
  };
  for (const Case &c : cases) {
    std::string path = file(std::string(c.name) + ".db");
    {
      ASSERT_TRUE(openOrFail(path));
    }
    sqliteExec(path, "DROP TABLE measurements; CREATE TABLE measurements (" +
                         llvm::formatv(kColumns.c_str(), c.unique, c.medianType,
                                       c.noiseNull)
                             .str() +
                         ") " + c.strict);
    auto db = ProfileDB::open(path, /*create=*/false);
    ASSERT_FALSE(bool(db)) << c.name;
    std::string msg = errorText(db.takeError());
    EXPECT_NE(msg.find("not a fuel profile database"), std::string::npos)
        << msg;
    EXPECT_NE(msg.find(c.expected), std::string::npos) << msg;
    EXPECT_NE(msg.find(path), std::string::npos) << msg;
  }
  // No triggers (or views): they would change what fuel's writes do.
  {
    std::string path = file("trigger.db");
    {
      ASSERT_TRUE(openOrFail(path));
    }
    sqliteExec(path, "CREATE TRIGGER wipe AFTER INSERT ON measurements BEGIN "
                     "DELETE FROM measurements; END");
    auto db = ProfileDB::open(path, /*create=*/false);
    ASSERT_FALSE(bool(db));
    std::string msg = errorText(db.takeError());
    EXPECT_NE(msg.find("not a fuel profile database: it has a trigger 'wipe'"),
              std::string::npos)
        << msg;
  }
  // The links table is checked as well.
  std::string path = file("no-links.db");
  {
    ASSERT_TRUE(openOrFail(path));
  }
  sqliteExec(path, "DROP TABLE links");
  auto db = ProfileDB::open(path, /*create=*/false);
  ASSERT_FALSE(bool(db));
  std::string msg = errorText(db.takeError());
  EXPECT_NE(msg.find("table 'links' is missing"), std::string::npos) << msg;
}

TEST_F(ProfileDBTest, FindsTheUniqueKeyUnderAnyIndexName) {
  // The key kept unique by an index of its own, whose name (read from the
  // file) holds a quote: the layout check binds it, and accepts the file.
  std::string path = file("quoted-index.db");
  {
    auto db = openOrFail(path);
    ASSERT_TRUE(db);
    ASSERT_FALSE(db->insert(sampleKey(), sampleMeasurement()));
  }
  sqliteExec(path, "CREATE TABLE copy AS SELECT * FROM measurements; "
                   "DELETE FROM measurements; "
                   "CREATE UNIQUE INDEX \"it's\" ON measurements (key_text); "
                   "INSERT INTO measurements SELECT * FROM copy; "
                   "DROP TABLE copy");
  auto db = openOrFail(path);
  ASSERT_TRUE(db);
  auto hit = db->lookup(sampleKey());
  ASSERT_TRUE(bool(hit)) << llvm::toString(hit.takeError());
  EXPECT_TRUE(hit->has_value());
}

TEST_F(ProfileDBTest, OpenWithoutCreateNeedsTheFile) {
  std::string path = file("missing.db");
  auto db = ProfileDB::open(path, /*create=*/false);
  ASSERT_FALSE(bool(db));
  std::string msg = errorText(db.takeError());
  EXPECT_NE(msg.find(path), std::string::npos) << msg;
  EXPECT_NE(msg.find("unable to open database file"), std::string::npos) << msg;
  EXPECT_FALSE(llvm::sys::fs::exists(path));
}

TEST_F(ProfileDBTest, RejectsRowsWhoseColumnsDisagreeWithTheKey) {
  std::string path = file("tampered.db");
  MeasurementKey key = sampleKey();
  {
    auto db = openOrFail(path);
    ASSERT_TRUE(db);
    ASSERT_FALSE(db->insert(key, sampleMeasurement()));
  }
  sqliteExec(path, "UPDATE measurements SET median_ns = -5");
  auto db = openOrFail(path);
  ASSERT_TRUE(db);
  auto hit = db->lookup(key);
  ASSERT_FALSE(bool(hit));
  std::string msg = errorText(hit.takeError());
  EXPECT_NE(msg.find("finite and non-negative"), std::string::npos) << msg;

  sqliteExec(path, "UPDATE measurements SET median_ns = 5, pool_threads = 9");
  auto all = db->measurements();
  ASSERT_FALSE(bool(all));
  msg = errorText(all.takeError());
  EXPECT_NE(msg.find("do not match key_text"), std::string::npos) << msg;
}

TEST_F(ProfileDBTest, ConcurrentWritersInTwoProcesses) {
  std::string path = file("concurrent.db");
  constexpr int kProcesses = 3, kRows = 40;
  std::vector<pid_t> children;
  for (int p = 0; p < kProcesses; ++p) {
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      // A child: its own connection, one transaction per row, interleaved
      // with the others.
      auto db = ProfileDB::open(path);
      if (!db) {
        llvm::errs() << llvm::toString(db.takeError()) << "\n";
        _exit(2);
      }
      for (int i = 0; i < kRows; ++i) {
        MeasurementKey key = sampleKey();
        key.revision = static_cast<uint64_t>(p * 1000 + i);
        if (llvm::Error err =
                (*db)->insert(key, sampleMeasurement(p * 1000 + i + 1))) {
          llvm::errs() << llvm::toString(std::move(err)) << "\n";
          _exit(3);
        }
        // A shared key that every process rewrites.
        if (llvm::Error err =
                (*db)->insert(sampleKey(), sampleMeasurement(p + 1))) {
          llvm::errs() << llvm::toString(std::move(err)) << "\n";
          _exit(4);
        }
      }
      _exit(0);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
  }
  auto db = openOrFail(path);
  ASSERT_TRUE(db);
  for (int p = 0; p < kProcesses; ++p)
    for (int i = 0; i < kRows; ++i) {
      MeasurementKey key = sampleKey();
      key.revision = static_cast<uint64_t>(p * 1000 + i);
      auto hit = db->lookup(key);
      ASSERT_TRUE(bool(hit) && hit->has_value()) << p << " " << i;
      EXPECT_EQ((*hit)->medianNs, p * 1000 + i + 1);
    }
  EXPECT_EQ(sqliteScalar(path, "SELECT count(*) FROM measurements"),
            std::to_string(kProcesses * kRows + 1));
  EXPECT_EQ(sqliteScalar(path, "PRAGMA integrity_check"), "ok");
}

} // namespace
