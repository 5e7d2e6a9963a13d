//===- JSONReader.h - Strict llvm::json reading with JSON paths -*- C++ -*-===//
//
// The one strict reader fuel's JSON formats use on top of llvm::json:
// topology files and the kernel registry (lib/Target) and plan files
// (fuel-import-plan). It keeps the first error, and every error names the
// file, then either the line and column (syntax errors, from
// llvm::json::parse) or a JSON path in the style of llvm::json::Path
// (`$.devices[1].alignment`), then what was expected. llvm::json::Path itself
// only carries string-literal messages, which cannot quote the offending
// value, hence this reader.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_TARGET_JSONREADER_H
#define FUEL_TARGET_JSONREADER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <optional>
#include <string>

namespace fuel::target {

/// `path.key`, or `key` alone when `path` is empty (a format whose paths
/// start at the root's keys).
std::string jsonField(llvm::StringRef path, llvm::StringRef key);
/// `path[index]`.
std::string jsonIndex(llvm::StringRef path, size_t index);
/// A short description of a value for "got ..." in messages: numbers and
/// strings verbatim (strings quoted), otherwise "an object", "an array",
/// "null", "true", "false".
std::string describeJSON(const llvm::json::Value &value);
/// Shortest decimal text that reads back as exactly `v` (integral values
/// below 10^15 as "N.0").
std::string formatDouble(double v);
/// A number as an int64_t (uint64_t): an integer in range, or an integral
/// double in range; nullopt otherwise. Fuel reads JSON integers through
/// these, not llvm::json::Value::getAsInteger/getAsUINT64, which convert
/// the double 2^63 (2^64), e.g. `9223372036854775808.0`, with undefined
/// behaviour.
std::optional<int64_t> jsonInt64(const llvm::json::Value &value);
std::optional<uint64_t> jsonUInt64(const llvm::json::Value &value);

/// A strict reader that remembers the first error.
class JSONReader {
public:
  explicit JSONReader(llvm::StringRef fileName) : fileName(fileName.str()) {}

  /// Parses `text`; a syntax error becomes `<file>:<line>:<col>: error: ...`.
  std::optional<llvm::json::Value> parse(llvm::StringRef text);

  /// Records `<file>: error: <path>: <message>` unless an error is already
  /// recorded. Always returns false, so callers can `return fail(...)`.
  bool fail(llvm::StringRef path, const llvm::Twine &message);

  bool failed() const { return error.has_value(); }
  /// The recorded error (or success) as one message, consuming it:
  /// `<location>: error: <path>: <message>`, or `<location>: error:
  /// <message>` for a syntax error.
  llvm::Error takeError();

  /// The parts of the recorded error, for a caller that words the message
  /// itself. The location is `<file>:<line>:<col>` for a syntax error and
  /// `<file>` otherwise; the path is empty for a syntax error. Empty when
  /// nothing failed.
  llvm::StringRef errorLocation() const;
  llvm::StringRef errorPath() const;
  llvm::StringRef errorMessage() const;

  /// `value` as an object, or an error "expected an object".
  const llvm::json::Object *object(const llvm::json::Value &value,
                                   llvm::StringRef path);
  /// `value` as an array, or an error "expected an array".
  const llvm::json::Array *array(const llvm::json::Value &value,
                                 llvm::StringRef path);
  /// Fails on the first key (in sorted order) not in `allowed`.
  bool checkKeys(const llvm::json::Object &object, llvm::StringRef path,
                 llvm::ArrayRef<llvm::StringLiteral> allowed);
  /// The value of a required key, or an error naming the key.
  const llvm::json::Value *required(const llvm::json::Object &object,
                                    llvm::StringRef path, llvm::StringRef key);

  bool readString(const llvm::json::Value &value, llvm::StringRef path,
                  std::string &out);
  bool readBool(const llvm::json::Value &value, llvm::StringRef path,
                bool &out);
  /// An integer in [min, INT64_MAX]; `expectation` completes "expected ...".
  bool readInt(const llvm::json::Value &value, llvm::StringRef path,
               int64_t min, llvm::StringRef expectation, int64_t &out);
  /// A non-negative integer up to UINT64_MAX.
  bool readUInt(const llvm::json::Value &value, llvm::StringRef path,
                llvm::StringRef expectation, uint64_t &out);
  /// A finite number greater than `lowerBound` (or >= when `inclusive`) and
  /// at most `upperBound`.
  bool readDouble(const llvm::json::Value &value, llvm::StringRef path,
                  double lowerBound, bool inclusive, double upperBound,
                  llvm::StringRef expectation, double &out);

private:
  /// The first error, in parts.
  struct Failure {
    std::string location;
    std::string path;
    std::string message;
  };
  /// Records `failure` unless an error is already recorded.
  void record(Failure failure);

  std::string fileName;
  std::optional<Failure> error;
};

} // namespace fuel::target

#endif // FUEL_TARGET_JSONREADER_H
