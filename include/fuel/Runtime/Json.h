//===- Json.h - A strict JSON reader and writer, LLVM-free ------*- C++ -*-===//
//
// The JSON that the runtime's tools read and write without LLVM: the job
// manifests `fuel-run --measure` reads (written by fuel-judge) and the
// results it writes. Strict RFC 8259: no comments, no trailing commas, no
// duplicate keys, nesting at most 64 deep; every error names the file, the
// line and the column. Numbers keep their text, so an integer beyond a
// double's 53 bits reads back exactly.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_RUNTIME_JSON_H
#define FUEL_RUNTIME_JSON_H

#include "fuel/Runtime/Status.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fuel::rt::json {

/// One JSON value with where it began in its text (1-based line, column).
struct Value {
  enum class Kind { Null, Bool, Number, String, Array, Object };
  Kind kind = Kind::Null;
  bool boolean = false;
  /// Number: its text as written; String: the decoded UTF-8.
  std::string text;
  std::vector<Value> elements;                        ///< Array.
  std::vector<std::pair<std::string, Value>> members; ///< Object, in order.
  unsigned line = 0, column = 0;

  /// The member `key` of an object, or null.
  const Value *find(std::string_view key) const;
  /// The number as a double (Number only).
  double number() const;
  /// The number as an int64 when it is an integer in range.
  std::optional<int64_t> integer() const;
  /// "object", "array", "string", "number", "boolean" or "null".
  const char *kindName() const;
};

/// Parses `text`; errors read `FILE:LINE:COLUMN: message`.
StatusOr<Value> parse(std::string_view text, const std::string &file);

/// `s` as a JSON string literal, quotes included.
std::string quote(std::string_view s);

/// `v` as compact JSON text (numbers as they were written).
std::string write(const Value &v);

} // namespace fuel::rt::json

#endif // FUEL_RUNTIME_JSON_H
