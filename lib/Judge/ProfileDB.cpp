//===- ProfileDB.cpp - The profile database in SQLite ---------------------===//
//
// One connection per ProfileDB. WAL mode lets readers run beside one writer;
// busy_timeout makes a second writer wait instead of failing; every write is
// one `BEGIN IMMEDIATE` transaction, so a process killed at any moment leaves
// either all of a transaction or none of it (docs/PROFILE-DB.md). Statements
// are prepared once per connection. Every SQLite failure becomes an
// llvm::Error naming the file and SQLite's message.
//
// The file is untrusted input: values read back are checked (finite,
// non-negative times; well-formed JSON columns) before they reach a caller.
//
//===----------------------------------------------------------------------===//

#include "fuel/Judge/ProfileDB.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <sqlite3.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <thread>

namespace fuel::judge {

//===----------------------------------------------------------------------===//
// The key
//===----------------------------------------------------------------------===//

namespace {

/// Appends `s` length-prefixed ("5:hello"), so no content can be mistaken for
/// a separator and the text is unambiguous.
void appendString(std::string &out, llvm::StringRef s) {
  out += std::to_string(s.size());
  out += ':';
  out += s.str();
}

/// 16 lower-case hex digits, no prefix.
std::string hex64(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof(buf), "%016llx",
                static_cast<unsigned long long>(v));
  return buf;
}

} // namespace

std::string MeasurementKey::canonical() const {
  std::string out = "fuel-measurement-key/1;kernel=";
  appendString(out, kernelId);
  out += ";revision=" + hex64(revision);
  out += ";op=";
  appendString(out, opKind);
  out += ";dtypes=" + std::to_string(dtypes.size()) + "[";
  for (const std::string &d : dtypes) {
    appendString(out, d);
    out += ',';
  }
  out += "];shapes=" + std::to_string(shapes.size()) + "[";
  for (const std::vector<int64_t> &shape : shapes) {
    out += std::to_string(shape.size()) + "(";
    for (int64_t dim : shape)
      out += std::to_string(dim) + ",";
    out += "),";
  }
  out += "];params=" + std::to_string(params.size()) + "{";
  for (const auto &[k, v] : params) {
    appendString(out, k);
    out += '=';
    appendString(out, v);
    out += ',';
  }
  out += "};size-class=" + std::to_string(sizeClass);
  out += ";device=";
  appendString(out, deviceKind);
  out += ":" + std::to_string(deviceOrdinal);
  out += ";name=";
  appendString(out, deviceName);
  out += ";driver=";
  appendString(out, deviceDriver);
  out += ";pool-threads=" + std::to_string(poolThreads);
  out += ";library-threads=" + std::to_string(libraryThreads);
  return out;
}

std::string describe(const MeasurementKey &key) {
  std::string out = key.kernelId + " on " + key.deviceKind;
  if (key.deviceKind != "cpu")
    out += ":" + std::to_string(key.deviceOrdinal);
  out += " (";
  llvm::raw_string_ostream os(out);
  llvm::interleave(
      key.shapes, os,
      [&](const std::vector<int64_t> &shape) {
        llvm::interleave(shape, os, "x");
      },
      ", ");
  os << ")";
  return out;
}

//===----------------------------------------------------------------------===//
// SQLite plumbing
//===----------------------------------------------------------------------===//

namespace {

/// The link table (since version 2).
constexpr const char *kCreateLinks = R"sql(
CREATE TABLE links (
  id INTEGER PRIMARY KEY,
  from_device TEXT NOT NULL,
  to_device TEXT NOT NULL,
  sizes TEXT NOT NULL,
  times_ns TEXT NOT NULL,
  latency_ns REAL NOT NULL,
  bandwidth_bytes_per_sec REAL NOT NULL,
  timestamp INTEGER NOT NULL,
  fuel_version TEXT NOT NULL,
  UNIQUE (from_device, to_device)
) STRICT;
)sql";

/// Schema version 2 (current), with kCreateLinks. Version 1 had no
/// `noise_ns` column and no `links` table; createOrMigrate() adds both.
constexpr const char *kCreateSchema = R"sql(
CREATE TABLE schema_version (
  version INTEGER NOT NULL
) STRICT;
CREATE TABLE measurements (
  id INTEGER PRIMARY KEY,
  key_text TEXT NOT NULL UNIQUE,
  kernel_id TEXT NOT NULL,
  revision TEXT NOT NULL,
  op_kind TEXT NOT NULL,
  dtypes TEXT NOT NULL,
  shapes TEXT NOT NULL,
  params TEXT NOT NULL,
  size_class INTEGER NOT NULL,
  device_kind TEXT NOT NULL,
  device_ordinal INTEGER NOT NULL,
  device_name TEXT NOT NULL,
  device_driver TEXT NOT NULL,
  pool_threads INTEGER NOT NULL,
  library_threads INTEGER NOT NULL,
  median_ns REAL NOT NULL,
  p10_ns REAL NOT NULL,
  p90_ns REAL NOT NULL,
  iterations INTEGER NOT NULL,
  noise_ns REAL NOT NULL DEFAULT 0,
  timestamp INTEGER NOT NULL,
  fuel_version TEXT NOT NULL
) STRICT;
CREATE INDEX measurements_by_kernel ON measurements (kernel_id, revision);
)sql";

/// Version 1 -> 2: the noise column (and the link table, kCreateLinks).
constexpr const char *kMigrate1To2 =
    "ALTER TABLE measurements ADD COLUMN noise_ns REAL NOT NULL DEFAULT 0;";

constexpr const char *kMeasurementColumns =
    "key_text, kernel_id, revision, op_kind, dtypes, shapes, params, "
    "size_class, device_kind, device_ordinal, device_name, device_driver, "
    "pool_threads, library_threads, median_ns, p10_ns, p90_ns, iterations, "
    "noise_ns, timestamp, fuel_version";

/// A prepared statement, finalized on destruction.
struct Statement {
  sqlite3_stmt *stmt = nullptr;
  Statement() = default;
  Statement(const Statement &) = delete;
  Statement &operator=(const Statement &) = delete;
  ~Statement() { sqlite3_finalize(stmt); }
};

std::string jsonText(const llvm::json::Value &v) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << v;
  return out;
}

} // namespace

struct ProfileDB::Impl {
  std::string path;
  sqlite3 *db = nullptr;
  Statement lookupStmt, poolThreadsStmt, insertStmt, eraseStmt, insertLinkStmt;

  ~Impl() {
    // Statements first: sqlite3_close refuses while any is alive.
    sqlite3_finalize(lookupStmt.stmt);
    sqlite3_finalize(poolThreadsStmt.stmt);
    sqlite3_finalize(insertStmt.stmt);
    sqlite3_finalize(eraseStmt.stmt);
    sqlite3_finalize(insertLinkStmt.stmt);
    lookupStmt.stmt = poolThreadsStmt.stmt = insertStmt.stmt = eraseStmt.stmt =
        insertLinkStmt.stmt = nullptr;
    if (db)
      sqlite3_close(db);
  }

  llvm::Error error(llvm::StringRef what) const {
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(), "profile database '%s': %s: %s",
        path.c_str(), what.str().c_str(), db ? sqlite3_errmsg(db) : "");
  }
  llvm::Error plainError(const llvm::Twine &what) const {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "profile database '" + path +
                                       "': " + what.str());
  }

  llvm::Error exec(const char *sql, llvm::StringRef what) {
    if (sqlite3_exec(db, sql, nullptr, nullptr, nullptr) != SQLITE_OK)
      return error(what);
    return llvm::Error::success();
  }

  llvm::Error prepare(Statement &s, const std::string &sql) {
    if (s.stmt)
      return llvm::Error::success();
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &s.stmt, nullptr) != SQLITE_OK)
      return error("cannot prepare a statement");
    return llvm::Error::success();
  }

  /// Runs `body` inside BEGIN IMMEDIATE ... COMMIT; rolls back on error.
  llvm::Error transaction(llvm::function_ref<llvm::Error()> body) {
    if (auto err = exec("BEGIN IMMEDIATE", "cannot begin a transaction"))
      return err;
    if (llvm::Error err = body()) {
      sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
      return err;
    }
    if (sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr) != SQLITE_OK) {
      llvm::Error err = error("cannot commit");
      sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
      return err;
    }
    return llvm::Error::success();
  }

  /// The stored version, or 0 for a database without any table.
  llvm::Expected<int64_t> readVersion();
  llvm::Error createOrMigrate(bool create);
  llvm::Error checkSchema();
  llvm::Error checkIntegrity();
  llvm::Error checkTable(llvm::StringRef table);
  llvm::Error bindKey(sqlite3_stmt *stmt, const MeasurementKey &key);
  llvm::Error bindMeasurement(sqlite3_stmt *stmt, const Measurement &m);
  llvm::Expected<Measurement> readMeasurement(sqlite3_stmt *stmt, int first,
                                              llvm::StringRef what);
  llvm::Expected<MeasurementKey> readKey(sqlite3_stmt *stmt);
};

namespace {

llvm::StringRef columnText(sqlite3_stmt *stmt, int col) {
  const unsigned char *text = sqlite3_column_text(stmt, col);
  if (!text)
    return {};
  return llvm::StringRef(reinterpret_cast<const char *>(text),
                         sqlite3_column_bytes(stmt, col));
}

bool bindText(sqlite3_stmt *stmt, int index, llvm::StringRef text) {
  return sqlite3_bind_text(stmt, index, text.data(),
                           static_cast<int>(text.size()),
                           SQLITE_TRANSIENT) == SQLITE_OK;
}

/// Resets a statement and clears its bindings when it leaves scope.
struct ResetOnExit {
  sqlite3_stmt *stmt;
  ~ResetOnExit() {
    sqlite3_reset(stmt);
    sqlite3_clear_bindings(stmt);
  }
};

} // namespace

llvm::Expected<int64_t> ProfileDB::Impl::readVersion() {
  Statement tables;
  if (sqlite3_prepare_v2(db,
                         "SELECT name FROM sqlite_master WHERE type = 'table'",
                         -1, &tables.stmt, nullptr) != SQLITE_OK)
    return error("cannot read the schema");
  bool any = false, hasVersion = false;
  int rc;
  while ((rc = sqlite3_step(tables.stmt)) == SQLITE_ROW) {
    any = true;
    hasVersion |= columnText(tables.stmt, 0) == "schema_version";
  }
  if (rc != SQLITE_DONE)
    return error("cannot read the schema");
  if (!any)
    return 0;
  if (!hasVersion)
    return plainError("not a fuel profile database (it has tables but no "
                      "schema_version table)");
  Statement version;
  if (sqlite3_prepare_v2(db, "SELECT version FROM schema_version", -1,
                         &version.stmt, nullptr) != SQLITE_OK)
    return error("cannot read the schema version");
  std::optional<int64_t> result;
  while ((rc = sqlite3_step(version.stmt)) == SQLITE_ROW) {
    if (result || sqlite3_column_type(version.stmt, 0) != SQLITE_INTEGER)
      return plainError("the schema_version table must hold exactly one "
                        "integer");
    result = sqlite3_column_int64(version.stmt, 0);
  }
  if (rc != SQLITE_DONE)
    return error("cannot read the schema version");
  if (!result || *result < 1)
    return plainError("the schema_version table must hold exactly one "
                      "positive integer");
  return *result;
}

llvm::Error ProfileDB::Impl::createOrMigrate(bool create) {
  // Checked and changed inside one IMMEDIATE transaction, so two processes
  // opening a new file at once create the schema exactly once.
  return transaction([&]() -> llvm::Error {
    llvm::Expected<int64_t> version = readVersion();
    if (!version)
      return version.takeError();
    if (*version == 0) {
      if (!create)
        return plainError("the database is empty (no fuel schema)");
      if (auto err = exec(kCreateSchema, "cannot create the schema"))
        return err;
      if (auto err = exec(kCreateLinks, "cannot create the schema"))
        return err;
      std::string insert = "INSERT INTO schema_version (version) VALUES (" +
                           std::to_string(kProfileSchemaVersion) + ")";
      return exec(insert.c_str(), "cannot write the schema version");
    }
    if (*version > kProfileSchemaVersion)
      return plainError(llvm::formatv(
          "schema version {0} is newer than version {1}, the newest this "
          "fuel reads; use a newer fuel or another database",
          *version, kProfileSchemaVersion));
    if (*version < kOldestProfileSchemaVersion)
      return plainError(llvm::formatv(
          "schema version {0} is older than version {1}, the oldest this "
          "fuel migrates",
          *version, kOldestProfileSchemaVersion));
    // One step per version, in order.
    if (*version == 1) {
      if (auto err = exec(kMigrate1To2, "cannot migrate from version 1"))
        return err;
      if (auto err = exec(kCreateLinks, "cannot migrate from version 1"))
        return err;
    }
    if (*version != kProfileSchemaVersion) {
      std::string update = "UPDATE schema_version SET version = " +
                           std::to_string(kProfileSchemaVersion);
      return exec(update.c_str(), "cannot write the schema version");
    }
    return llvm::Error::success();
  });
}

namespace {

/// What the readers rely on in one table: STRICT (so that a column holds its
/// declared type), each column's declared type and whether it may be NULL,
/// and the column lists that a unique, non-partial index keeps unique.
struct TableLayout {
  struct Column {
    std::string name, type;
    bool notNull = false;
  };
  bool found = false; ///< false: there is no such table
  bool strict = false;
  std::vector<Column> columns; ///< in declaration order
  std::vector<std::vector<std::string>> uniqueKeys;
};

/// Runs `sql` with `binds` (text parameters ?1, ?2, ...), calling `row` for
/// each row; false on any SQLite failure.
bool eachRow(sqlite3 *db, const char *sql,
             llvm::ArrayRef<llvm::StringRef> binds,
             llvm::function_ref<void(sqlite3_stmt *)> row) {
  Statement s;
  if (sqlite3_prepare_v2(db, sql, -1, &s.stmt, nullptr) != SQLITE_OK)
    return false;
  for (auto [i, text] : llvm::enumerate(binds))
    if (!bindText(s.stmt, int(i) + 1, text))
      return false;
  int rc;
  while ((rc = sqlite3_step(s.stmt)) == SQLITE_ROW)
    row(s.stmt);
  return rc == SQLITE_DONE;
}

/// `table`'s layout in the main schema of `db`, or std::nullopt on an SQLite
/// failure. Every name read from the file is bound, never spliced into the
/// SQL.
std::optional<TableLayout> readLayout(sqlite3 *db, llvm::StringRef table) {
  TableLayout layout;
  if (!eachRow(db,
               "SELECT strict FROM pragma_table_list(?1) "
               "WHERE schema = 'main' AND type = 'table'",
               {table}, [&](sqlite3_stmt *s) {
                 layout.found = true;
                 layout.strict = sqlite3_column_int(s, 0) != 0;
               }))
    return std::nullopt;
  if (!layout.found)
    return layout;
  if (!eachRow(db,
               "SELECT name, type, \"notnull\" OR pk FROM "
               "pragma_table_info(?1, 'main') ORDER BY cid",
               {table}, [&](sqlite3_stmt *s) {
                 layout.columns.push_back({columnText(s, 0).str(),
                                           columnText(s, 1).upper(),
                                           sqlite3_column_int(s, 2) != 0});
               }))
    return std::nullopt;
  std::vector<std::string> unique;
  if (!eachRow(db,
               "SELECT name FROM pragma_index_list(?1, 'main') "
               "WHERE \"unique\" AND NOT partial",
               {table}, [&](sqlite3_stmt *s) {
                 unique.push_back(columnText(s, 0).str());
               }))
    return std::nullopt;
  for (const std::string &index : unique) {
    std::vector<std::string> key;
    if (!eachRow(db,
                 "SELECT name FROM pragma_index_info(?1, 'main') "
                 "ORDER BY seqno",
                 {index}, [&](sqlite3_stmt *s) {
                   key.push_back(columnText(s, 0).str());
                 }))
      return std::nullopt;
    layout.uniqueKeys.push_back(std::move(key));
  }
  return layout;
}

/// The layout of `table` as this build creates it (kCreateSchema and
/// kCreateLinks, run once on an in-memory database): the one statement of
/// the schema, so the check cannot drift from it.
const TableLayout &currentLayout(llvm::StringRef table) {
  static const llvm::StringMap<TableLayout> layouts = [] {
    llvm::StringMap<TableLayout> out;
    sqlite3 *db = nullptr;
    bool ok =
        sqlite3_open(":memory:", &db) == SQLITE_OK &&
        sqlite3_exec(db, kCreateSchema, nullptr, nullptr, nullptr) ==
            SQLITE_OK &&
        sqlite3_exec(db, kCreateLinks, nullptr, nullptr, nullptr) == SQLITE_OK;
    for (const char *name : {"measurements", "links"}) {
      std::optional<TableLayout> layout =
          ok ? readLayout(db, name) : std::nullopt;
      if (!layout || !layout->found)
        llvm::report_fatal_error("fuel: the profile schema does not build");
      out[name] = std::move(*layout);
    }
    sqlite3_close(db);
    return out;
  }();
  return layouts.find(table)->second;
}

} // namespace

/// Each table must keep the layout the readers rely on: STRICT, every
/// column of the current schema with its declared type and NOT NULL (the
/// primary key aside), and its key unique: a lookup must never have two
/// rows to choose from.
llvm::Error ProfileDB::Impl::checkTable(llvm::StringRef table) {
  auto fail = [&](const llvm::Twine &what) {
    return plainError("not a fuel profile database: table '" + table + "' " +
                      what);
  };
  std::optional<TableLayout> have = readLayout(db, table);
  if (!have)
    return error("cannot read the schema");
  if (!have->found)
    return fail("is missing");
  if (!have->strict)
    return fail("is not STRICT");
  const TableLayout &want = currentLayout(table);
  for (const TableLayout::Column &column : want.columns) {
    auto it = llvm::find_if(have->columns, [&](const TableLayout::Column &c) {
      return c.name == column.name;
    });
    if (it == have->columns.end())
      return fail("has no column '" + column.name + "'");
    if (it->type != column.type)
      return fail("column '" + column.name + "' is " +
                  (it->type.empty() ? "untyped" : it->type) + ", not " +
                  column.type);
    if (column.notNull && !it->notNull)
      return fail("column '" + column.name + "' may be NULL");
  }
  for (const std::vector<std::string> &key : want.uniqueKeys)
    if (!llvm::is_contained(have->uniqueKeys, key))
      return fail("does not keep (" + llvm::join(key, ", ") + ") unique");
  return llvm::Error::success();
}

/// SQLite's own check of the file (b-trees, free list, every index against
/// its table; a few ms for a database of thousands of rows): a damaged file
/// is refused on open, before a migration writes to it and before a lookup
/// through a damaged index misses a row the table holds.
llvm::Error ProfileDB::Impl::checkIntegrity() {
  Statement check;
  if (sqlite3_prepare_v2(db, "PRAGMA main.integrity_check(1)", -1, &check.stmt,
                         nullptr) != SQLITE_OK)
    return error("cannot check the file");
  int rc = sqlite3_step(check.stmt);
  if (rc == SQLITE_ROW) {
    llvm::StringRef result = columnText(check.stmt, 0);
    if (result == "ok")
      return llvm::Error::success();
    // The first finding, without SQLite's "*** in database main ***" line.
    llvm::StringRef finding = result;
    if (finding.starts_with("***"))
      finding = finding.split('\n').second;
    finding = finding.split('\n').first.trim();
    return plainError(
        "the file is damaged (SQLite's integrity check: " + finding + ")");
  }
  return error("the file is damaged or cannot be checked");
}

llvm::Error ProfileDB::Impl::checkSchema() {
  for (llvm::StringRef table : {"measurements", "links"})
    if (auto err = checkTable(table))
      return err;
  // fuel makes no triggers and no views; a trigger would make fuel's own
  // writes do something else than they say.
  Statement extra;
  if (sqlite3_prepare_v2(db,
                         "SELECT type, name FROM main.sqlite_master WHERE "
                         "type IN ('trigger', 'view') ORDER BY name",
                         -1, &extra.stmt, nullptr) != SQLITE_OK)
    return error("cannot read the schema");
  int rc = sqlite3_step(extra.stmt);
  if (rc == SQLITE_ROW)
    return plainError(
        "not a fuel profile database: it has a " + columnText(extra.stmt, 0) +
        " '" + columnText(extra.stmt, 1) + "' (fuel's databases have none)");
  if (rc != SQLITE_DONE)
    return error("cannot read the schema");
  return llvm::Error::success();
}

llvm::Error ProfileDB::Impl::bindKey(sqlite3_stmt *stmt,
                                     const MeasurementKey &key) {
  llvm::json::Array dtypes, shapes, params;
  for (const std::string &d : key.dtypes)
    dtypes.push_back(d);
  for (const std::vector<int64_t> &shape : key.shapes) {
    llvm::json::Array dims;
    for (int64_t dim : shape)
      dims.push_back(dim);
    shapes.push_back(std::move(dims));
  }
  for (const auto &[k, v] : key.params)
    params.push_back(llvm::json::Array{k, v});
  bool ok =
      bindText(stmt, 1, key.canonical()) && bindText(stmt, 2, key.kernelId) &&
      bindText(stmt, 3, hex64(key.revision)) && bindText(stmt, 4, key.opKind) &&
      bindText(stmt, 5, jsonText(std::move(dtypes))) &&
      bindText(stmt, 6, jsonText(std::move(shapes))) &&
      bindText(stmt, 7, jsonText(std::move(params))) &&
      sqlite3_bind_int64(stmt, 8, key.sizeClass) == SQLITE_OK &&
      bindText(stmt, 9, key.deviceKind) &&
      sqlite3_bind_int64(stmt, 10, key.deviceOrdinal) == SQLITE_OK &&
      bindText(stmt, 11, key.deviceName) &&
      bindText(stmt, 12, key.deviceDriver) &&
      sqlite3_bind_int64(stmt, 13, key.poolThreads) == SQLITE_OK &&
      sqlite3_bind_int64(stmt, 14, key.libraryThreads) == SQLITE_OK;
  if (!ok)
    return error("cannot bind a key");
  return llvm::Error::success();
}

llvm::Error ProfileDB::Impl::bindMeasurement(sqlite3_stmt *stmt,
                                             const Measurement &m) {
  bool ok = sqlite3_bind_double(stmt, 15, m.medianNs) == SQLITE_OK &&
            sqlite3_bind_double(stmt, 16, m.p10Ns) == SQLITE_OK &&
            sqlite3_bind_double(stmt, 17, m.p90Ns) == SQLITE_OK &&
            sqlite3_bind_int64(stmt, 18, m.iterations) == SQLITE_OK &&
            sqlite3_bind_double(stmt, 19, m.noiseNs) == SQLITE_OK &&
            sqlite3_bind_int64(stmt, 20, m.timestamp) == SQLITE_OK &&
            bindText(stmt, 21, m.fuelVersion);
  if (!ok)
    return error("cannot bind a measurement");
  return llvm::Error::success();
}

namespace {

bool validTime(double t) { return std::isfinite(t) && t >= 0; }

llvm::Error
checkMeasurement(const Measurement &m,
                 llvm::function_ref<llvm::Error(llvm::Twine)> fail) {
  if (!validTime(m.medianNs) || !validTime(m.p10Ns) || !validTime(m.p90Ns) ||
      !validTime(m.noiseNs))
    return fail(llvm::formatv("times must be finite and non-negative "
                              "(median {0}, p10 {1}, p90 {2}, noise {3})",
                              m.medianNs, m.p10Ns, m.p90Ns, m.noiseNs)
                    .str());
  if (m.iterations < 0)
    return fail("iterations must be non-negative (" +
                llvm::Twine(m.iterations) + ")");
  return llvm::Error::success();
}

} // namespace

llvm::Expected<Measurement>
ProfileDB::Impl::readMeasurement(sqlite3_stmt *stmt, int first,
                                 llvm::StringRef what) {
  Measurement m;
  m.medianNs = sqlite3_column_double(stmt, first + 0);
  m.p10Ns = sqlite3_column_double(stmt, first + 1);
  m.p90Ns = sqlite3_column_double(stmt, first + 2);
  m.iterations = sqlite3_column_int64(stmt, first + 3);
  m.noiseNs = sqlite3_column_double(stmt, first + 4);
  m.timestamp = sqlite3_column_int64(stmt, first + 5);
  m.fuelVersion = columnText(stmt, first + 6).str();
  if (auto err = checkMeasurement(m, [&](llvm::Twine msg) {
        return plainError("the measurement of " + what + ": " + msg);
      }))
    return std::move(err);
  return m;
}

llvm::Expected<MeasurementKey> ProfileDB::Impl::readKey(sqlite3_stmt *stmt) {
  MeasurementKey key;
  llvm::StringRef keyText = columnText(stmt, 0);
  auto fail = [&](const llvm::Twine &msg) {
    return plainError("row '" + keyText + "': " + msg);
  };
  key.kernelId = columnText(stmt, 1).str();
  if (columnText(stmt, 2).getAsInteger(16, key.revision))
    return fail("revision is not hexadecimal");
  key.opKind = columnText(stmt, 3).str();
  llvm::Expected<llvm::json::Value> dtypes =
      llvm::json::parse(columnText(stmt, 4));
  llvm::Expected<llvm::json::Value> shapes =
      llvm::json::parse(columnText(stmt, 5));
  llvm::Expected<llvm::json::Value> params =
      llvm::json::parse(columnText(stmt, 6));
  if (!dtypes || !shapes || !params) {
    llvm::consumeError(dtypes.takeError());
    llvm::consumeError(shapes.takeError());
    llvm::consumeError(params.takeError());
    return fail("dtypes, shapes or params is not JSON");
  }
  const llvm::json::Array *dt = dtypes->getAsArray();
  const llvm::json::Array *sh = shapes->getAsArray();
  const llvm::json::Array *pa = params->getAsArray();
  if (!dt || !sh || !pa)
    return fail("dtypes, shapes and params must be JSON arrays");
  for (const llvm::json::Value &d : *dt) {
    std::optional<llvm::StringRef> s = d.getAsString();
    if (!s)
      return fail("dtypes must hold strings");
    key.dtypes.push_back(s->str());
  }
  for (const llvm::json::Value &shape : *sh) {
    const llvm::json::Array *dims = shape.getAsArray();
    if (!dims)
      return fail("shapes must hold arrays");
    std::vector<int64_t> out;
    for (const llvm::json::Value &dim : *dims) {
      std::optional<int64_t> v = dim.getAsInteger();
      if (!v)
        return fail("shapes must hold integers");
      out.push_back(*v);
    }
    key.shapes.push_back(std::move(out));
  }
  for (const llvm::json::Value &p : *pa) {
    const llvm::json::Array *kv = p.getAsArray();
    if (!kv || kv->size() != 2 || !(*kv)[0].getAsString() ||
        !(*kv)[1].getAsString())
      return fail("params must hold [key, value] string pairs");
    key.params.emplace_back((*kv)[0].getAsString()->str(),
                            (*kv)[1].getAsString()->str());
  }
  int64_t sizeClass = sqlite3_column_int64(stmt, 7);
  if (sizeClass < 0 || sizeClass > UINT32_MAX)
    return fail("size_class out of range");
  key.sizeClass = static_cast<uint32_t>(sizeClass);
  key.deviceKind = columnText(stmt, 8).str();
  key.deviceOrdinal = sqlite3_column_int64(stmt, 9);
  key.deviceName = columnText(stmt, 10).str();
  key.deviceDriver = columnText(stmt, 11).str();
  key.poolThreads = sqlite3_column_int64(stmt, 12);
  key.libraryThreads = sqlite3_column_int64(stmt, 13);
  // The columns and the canonical text must agree, or a lookup could find a
  // row that describes another key.
  if (key.canonical() != keyText)
    return fail("the columns do not match key_text");
  return key;
}

//===----------------------------------------------------------------------===//
// ProfileDB
//===----------------------------------------------------------------------===//

ProfileDB::ProfileDB() : impl(std::make_unique<Impl>()) {}
ProfileDB::~ProfileDB() = default;

llvm::StringRef ProfileDB::path() const { return impl->path; }

llvm::Expected<std::unique_ptr<ProfileDB>> ProfileDB::open(llvm::StringRef path,
                                                           bool create) {
  std::unique_ptr<ProfileDB> result(new ProfileDB());
  Impl &impl = *result->impl;
  impl.path = path.str();
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX;
  if (create)
    flags |= SQLITE_OPEN_CREATE;
  if (sqlite3_open_v2(impl.path.c_str(), &impl.db, flags, nullptr) != SQLITE_OK)
    return impl.error(create ? "cannot open or create"
                             : "cannot open (it must exist)");
  sqlite3_extended_result_codes(impl.db, 1);
  sqlite3_busy_timeout(impl.db, kProfileBusyTimeoutMs);
  // The file is untrusted: no schema edits through PRAGMA writable_schema,
  // and no function with side effects called from the file's own schema.
  sqlite3_db_config(impl.db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
  sqlite3_db_config(impl.db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);

  // WAL mode is stored in the file; switching needs a moment alone with it,
  // which busy_timeout does not always wait for, so retry within the same
  // budget. A file that is not a database fails here.
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::milliseconds(kProfileBusyTimeoutMs);
  while (true) {
    Statement wal;
    int rc = sqlite3_prepare_v2(impl.db, "PRAGMA journal_mode = WAL", -1,
                                &wal.stmt, nullptr);
    if (rc == SQLITE_OK)
      rc = sqlite3_step(wal.stmt);
    if (rc == SQLITE_ROW) {
      if (columnText(wal.stmt, 0) != "wal")
        return impl.plainError("cannot switch to WAL mode (journal mode is " +
                               columnText(wal.stmt, 0) + ")");
      break;
    }
    if ((rc & 0xff) == SQLITE_BUSY &&
        std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      continue;
    }
    return impl.error("cannot open as a database");
  }
  // FULL: a committed transaction survives power loss too, not only a
  // killed process.
  if (auto err =
          impl.exec("PRAGMA synchronous = FULL", "cannot set synchronous mode"))
    return std::move(err);
  if (auto err =
          impl.exec("PRAGMA foreign_keys = ON", "cannot enable foreign keys"))
    return std::move(err);
  if (auto err = impl.checkIntegrity())
    return std::move(err);
  if (auto err = impl.createOrMigrate(create))
    return std::move(err);
  if (auto err = impl.checkSchema())
    return std::move(err);
  return result;
}

llvm::Expected<int64_t> ProfileDB::schemaVersion() {
  return impl->readVersion();
}

llvm::Expected<std::optional<Measurement>>
ProfileDB::lookup(const MeasurementKey &key) {
  std::string sql = std::string("SELECT median_ns, p10_ns, p90_ns, "
                                "iterations, noise_ns, timestamp, "
                                "fuel_version FROM measurements WHERE "
                                "key_text = ?1");
  if (auto err = impl->prepare(impl->lookupStmt, sql))
    return std::move(err);
  sqlite3_stmt *stmt = impl->lookupStmt.stmt;
  ResetOnExit reset{stmt};
  if (!bindText(stmt, 1, key.canonical()))
    return impl->error("cannot bind a key");
  int rc = sqlite3_step(stmt);
  if (rc == SQLITE_DONE)
    return std::nullopt;
  if (rc != SQLITE_ROW)
    return impl->error("cannot look up " + describe(key));
  llvm::Expected<Measurement> m = impl->readMeasurement(stmt, 0, describe(key));
  if (!m)
    return m.takeError();
  return std::optional<Measurement>(std::move(*m));
}

llvm::Expected<std::vector<int64_t>>
ProfileDB::poolThreadsOf(const MeasurementKey &key) {
  // The canonical text is `PREFIX<pool threads>SUFFIX`: the pool size comes
  // second to last (only ";library-threads=N" follows it, which cannot hold
  // the marker), so the last marker splits it. The rows of every pool size
  // are then the key_text range [PREFIX, PREFIX with its last byte + 1) of
  // the UNIQUE index, matched on key_text alone as lookup() is.
  const std::string text = key.canonical();
  constexpr llvm::StringLiteral kMarker = ";pool-threads=";
  const size_t at = llvm::StringRef(text).rfind(kMarker);
  const std::string digits = std::to_string(key.poolThreads);
  if (at == llvm::StringRef::npos ||
      !llvm::StringRef(text).substr(at + kMarker.size()).starts_with(digits))
    return impl->plainError("the key of " + describe(key) +
                            " has no pool size where one belongs");
  const std::string prefix = text.substr(0, at + kMarker.size());
  const std::string suffix = text.substr(prefix.size() + digits.size());
  std::string bound = prefix;
  ++bound.back(); // '=' + 1: every text that starts with `prefix` is below
  if (auto err = impl->prepare(impl->poolThreadsStmt,
                               "SELECT key_text, pool_threads FROM "
                               "measurements WHERE key_text >= ?1 AND "
                               "key_text < ?2 ORDER BY pool_threads"))
    return std::move(err);
  sqlite3_stmt *stmt = impl->poolThreadsStmt.stmt;
  ResetOnExit reset{stmt};
  if (!bindText(stmt, 1, prefix) || !bindText(stmt, 2, bound))
    return impl->error("cannot bind a key");
  std::vector<int64_t> out;
  int rc;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    // The row holds this key only when its text is exactly PREFIX, its own
    // pool size and SUFFIX (another library setting differs in SUFFIX); a
    // pool size below 1 is none a plan can ask for.
    int64_t threads = sqlite3_column_int64(stmt, 1);
    if (threads < 1 ||
        columnText(stmt, 0) != prefix + std::to_string(threads) + suffix)
      continue;
    if (out.empty() || out.back() != threads)
      out.push_back(threads);
  }
  if (rc != SQLITE_DONE)
    return impl->error("cannot look up the pool sizes of " + describe(key));
  return out;
}

llvm::Error ProfileDB::insert(const MeasurementKey &key, const Measurement &m) {
  std::pair<MeasurementKey, Measurement> row{key, m};
  return insertAll(llvm::ArrayRef(row));
}

llvm::Error ProfileDB::insertAll(
    llvm::ArrayRef<std::pair<MeasurementKey, Measurement>> rows) {
  for (const auto &row : rows)
    if (auto err = checkMeasurement(row.second, [&](llvm::Twine msg) {
          return impl->plainError("cannot store " + describe(row.first) + ": " +
                                  msg);
        }))
      return err;
  std::string sql = std::string("INSERT INTO measurements (") +
                    kMeasurementColumns +
                    ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, "
                    "?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21) "
                    "ON CONFLICT (key_text) DO UPDATE SET "
                    "median_ns = excluded.median_ns, p10_ns = excluded.p10_ns, "
                    "p90_ns = excluded.p90_ns, iterations = "
                    "excluded.iterations, noise_ns = excluded.noise_ns, "
                    "timestamp = excluded.timestamp, fuel_version = "
                    "excluded.fuel_version";
  if (auto err = impl->prepare(impl->insertStmt, sql))
    return err;
  return impl->transaction([&]() -> llvm::Error {
    sqlite3_stmt *stmt = impl->insertStmt.stmt;
    for (const auto &[key, m] : rows) {
      ResetOnExit reset{stmt};
      if (auto err = impl->bindKey(stmt, key))
        return err;
      if (auto err = impl->bindMeasurement(stmt, m))
        return err;
      if (sqlite3_step(stmt) != SQLITE_DONE)
        return impl->error("cannot store " + describe(key));
    }
    return llvm::Error::success();
  });
}

llvm::Expected<bool> ProfileDB::erase(const MeasurementKey &key) {
  if (auto err = impl->prepare(impl->eraseStmt,
                               "DELETE FROM measurements WHERE key_text = ?1"))
    return std::move(err);
  bool removed = false;
  if (auto err = impl->transaction([&]() -> llvm::Error {
        sqlite3_stmt *stmt = impl->eraseStmt.stmt;
        ResetOnExit reset{stmt};
        if (!bindText(stmt, 1, key.canonical()))
          return impl->error("cannot bind a key");
        if (sqlite3_step(stmt) != SQLITE_DONE)
          return impl->error("cannot remove " + describe(key));
        removed = sqlite3_changes(impl->db) > 0;
        return llvm::Error::success();
      }))
    return std::move(err);
  return removed;
}

llvm::Expected<std::vector<std::pair<MeasurementKey, Measurement>>>
ProfileDB::measurements() {
  std::string sql = std::string("SELECT ") + kMeasurementColumns +
                    " FROM measurements ORDER BY key_text";
  Statement s;
  if (auto err = impl->prepare(s, sql))
    return std::move(err);
  std::vector<std::pair<MeasurementKey, Measurement>> out;
  int rc;
  while ((rc = sqlite3_step(s.stmt)) == SQLITE_ROW) {
    llvm::Expected<MeasurementKey> key = impl->readKey(s.stmt);
    if (!key)
      return key.takeError();
    llvm::Expected<Measurement> m =
        impl->readMeasurement(s.stmt, 14, describe(*key));
    if (!m)
      return m.takeError();
    out.emplace_back(std::move(*key), std::move(*m));
  }
  if (rc != SQLITE_DONE)
    return impl->error("cannot read the measurements");
  return out;
}

llvm::Error ProfileDB::insertLink(const LinkMeasurement &link) {
  if (link.sizes.size() != link.timesNs.size())
    return impl->plainError(
        llvm::formatv("link {0} -> {1}: {2} sizes but {3} times", link.from,
                      link.to, link.sizes.size(), link.timesNs.size()));
  if (!validTime(link.latencyNs) || !validTime(link.bandwidthBytesPerSec) ||
      !llvm::all_of(link.timesNs, validTime))
    return impl->plainError("link " + link.from + " -> " + link.to +
                            ": times and bandwidth must be finite and "
                            "non-negative");
  if (auto err = impl->prepare(
          impl->insertLinkStmt,
          "INSERT INTO links (from_device, to_device, sizes, times_ns, "
          "latency_ns, bandwidth_bytes_per_sec, timestamp, fuel_version) "
          "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT (from_device, "
          "to_device) DO UPDATE SET sizes = excluded.sizes, times_ns = "
          "excluded.times_ns, latency_ns = excluded.latency_ns, "
          "bandwidth_bytes_per_sec = excluded.bandwidth_bytes_per_sec, "
          "timestamp = excluded.timestamp, fuel_version = "
          "excluded.fuel_version"))
    return err;
  llvm::json::Array sizes, times;
  for (uint64_t s : link.sizes)
    sizes.push_back(s);
  for (double t : link.timesNs)
    times.push_back(t);
  return impl->transaction([&]() -> llvm::Error {
    sqlite3_stmt *stmt = impl->insertLinkStmt.stmt;
    ResetOnExit reset{stmt};
    bool ok =
        bindText(stmt, 1, link.from) && bindText(stmt, 2, link.to) &&
        bindText(stmt, 3, jsonText(std::move(sizes))) &&
        bindText(stmt, 4, jsonText(std::move(times))) &&
        sqlite3_bind_double(stmt, 5, link.latencyNs) == SQLITE_OK &&
        sqlite3_bind_double(stmt, 6, link.bandwidthBytesPerSec) == SQLITE_OK &&
        sqlite3_bind_int64(stmt, 7, link.timestamp) == SQLITE_OK &&
        bindText(stmt, 8, link.fuelVersion);
    if (!ok)
      return impl->error("cannot bind a link");
    if (sqlite3_step(stmt) != SQLITE_DONE)
      return impl->error("cannot store link " + link.from + " -> " + link.to);
    return llvm::Error::success();
  });
}

llvm::Expected<std::vector<LinkMeasurement>> ProfileDB::links() {
  Statement s;
  if (auto err = impl->prepare(
          s, "SELECT from_device, to_device, sizes, times_ns, latency_ns, "
             "bandwidth_bytes_per_sec, timestamp, fuel_version FROM links "
             "ORDER BY from_device, to_device"))
    return std::move(err);
  std::vector<LinkMeasurement> out;
  int rc;
  while ((rc = sqlite3_step(s.stmt)) == SQLITE_ROW) {
    LinkMeasurement link;
    link.from = columnText(s.stmt, 0).str();
    link.to = columnText(s.stmt, 1).str();
    auto fail = [&](const llvm::Twine &msg) {
      return impl->plainError("link " + link.from + " -> " + link.to + ": " +
                              msg);
    };
    llvm::Expected<llvm::json::Value> sizes =
        llvm::json::parse(columnText(s.stmt, 2));
    llvm::Expected<llvm::json::Value> times =
        llvm::json::parse(columnText(s.stmt, 3));
    if (!sizes || !times) {
      llvm::consumeError(sizes.takeError());
      llvm::consumeError(times.takeError());
      return fail("sizes or times is not JSON");
    }
    const llvm::json::Array *sa = sizes->getAsArray();
    const llvm::json::Array *ta = times->getAsArray();
    if (!sa || !ta || sa->size() != ta->size())
      return fail("sizes and times must be JSON arrays of one length");
    for (const llvm::json::Value &v : *sa) {
      std::optional<uint64_t> u = v.getAsUINT64();
      if (!u)
        return fail("sizes must hold non-negative integers");
      link.sizes.push_back(*u);
    }
    for (const llvm::json::Value &v : *ta) {
      std::optional<double> d = v.getAsNumber();
      if (!d || !validTime(*d))
        return fail("times must hold finite non-negative numbers");
      link.timesNs.push_back(*d);
    }
    link.latencyNs = sqlite3_column_double(s.stmt, 4);
    link.bandwidthBytesPerSec = sqlite3_column_double(s.stmt, 5);
    if (!validTime(link.latencyNs) || !validTime(link.bandwidthBytesPerSec))
      return fail("latency and bandwidth must be finite and non-negative");
    link.timestamp = sqlite3_column_int64(s.stmt, 6);
    link.fuelVersion = columnText(s.stmt, 7).str();
    out.push_back(std::move(link));
  }
  if (rc != SQLITE_DONE)
    return impl->error("cannot read the links");
  return out;
}

} // namespace fuel::judge
