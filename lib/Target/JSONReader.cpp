//===- JSONReader.cpp - Strict llvm::json reading with JSON paths ---------===//
//
// Implementation of the reader shared by the topology, registry and plan
// file parsers.
//
//===----------------------------------------------------------------------===//

#include "fuel/Target/JSONReader.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Regex.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <vector>

namespace fuel::target {

using llvm::json::Value;

std::string jsonField(llvm::StringRef path, llvm::StringRef key) {
  if (path.empty())
    return key.str();
  return (path + "." + key).str();
}

std::string jsonIndex(llvm::StringRef path, size_t index) {
  return (path + "[" + llvm::Twine(index) + "]").str();
}

std::string formatDouble(double v) {
  char buf[64];
  if (std::isfinite(v) && v == std::trunc(v) && std::fabs(v) < 1e15) {
    std::snprintf(buf, sizeof(buf), "%.1f", v);
    return buf;
  }
  // The shortest %g form that reads back exactly; 17 digits always do.
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof(buf), "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v)
      break;
  }
  return buf;
}

/// Whether a number is held as a double. llvm::json prints a double with
/// %.17g, so every double at or above 2^63 in magnitude prints with an
/// exponent, and no integer does.
static bool heldAsDouble(const Value &value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << value;
  os.flush();
  return text.find_first_of(".eEin") != std::string::npos;
}

std::optional<int64_t> jsonInt64(const Value &value) {
  if (value.kind() != Value::Number)
    return std::nullopt;
  if (!heldAsDouble(value))
    return value.getAsInteger();
  double d = *value.getAsNumber();
  // [-2^63, 2^63): both bounds exact in a double.
  if (std::trunc(d) == d && d >= -9223372036854775808.0 &&
      d < 9223372036854775808.0)
    return int64_t(d);
  return std::nullopt;
}

std::optional<uint64_t> jsonUInt64(const Value &value) {
  if (value.kind() != Value::Number)
    return std::nullopt;
  if (!heldAsDouble(value)) {
    if (std::optional<uint64_t> u = value.getAsUINT64())
      return u;
    std::optional<int64_t> i = value.getAsInteger();
    if (i && *i >= 0)
      return uint64_t(*i);
    return std::nullopt;
  }
  double d = *value.getAsNumber();
  // [0, 2^64).
  if (std::trunc(d) == d && d >= 0 && d < 18446744073709551616.0)
    return uint64_t(d);
  return std::nullopt;
}

std::string describeJSON(const Value &value) {
  switch (value.kind()) {
  case Value::Null:
    return "null";
  case Value::Boolean:
    return *value.getAsBoolean() ? "true" : "false";
  case Value::Number:
    if (heldAsDouble(value))
      return formatDouble(*value.getAsNumber());
    if (std::optional<int64_t> i = value.getAsInteger())
      return std::to_string(*i);
    if (std::optional<uint64_t> u = value.getAsUINT64())
      return std::to_string(*u);
    return formatDouble(*value.getAsNumber());
  case Value::String:
    return ("\"" + *value.getAsString() + "\"").str();
  case Value::Array:
    return "an array";
  case Value::Object:
    return "an object";
  }
  return "a value";
}

namespace {
/// A key that appears twice in one object, and where its second occurrence
/// starts (1-based line and column).
struct DuplicateKey {
  std::string key;
  unsigned line, column;
};
} // namespace

/// llvm::json keeps one of two equal keys silently; a strict format must not
/// (a second "alignment" would hide the first). Scans text that llvm::json
/// already accepted, so it only tracks nesting, strings and key positions.
static std::optional<DuplicateKey> findDuplicateKey(llvm::StringRef text) {
  struct Frame {
    bool isObject;
    bool expectKey;
    std::set<std::string> keys;
  };
  std::vector<Frame> stack;
  unsigned line = 1, column = 1;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    unsigned startLine = line, startColumn = column;
    if (c == '\n') {
      ++line;
      column = 1;
      continue;
    }
    ++column;
    switch (c) {
    case '{':
      stack.push_back({true, true, {}});
      break;
    case '[':
      stack.push_back({false, false, {}});
      break;
    case '}':
    case ']':
      if (!stack.empty())
        stack.pop_back();
      break;
    case ',':
      if (!stack.empty() && stack.back().isObject)
        stack.back().expectKey = true;
      break;
    case '"': {
      size_t end = i + 1;
      bool escaped = false;
      for (; end < text.size() && text[end] != '"'; ++end) {
        if (text[end] == '\\') {
          escaped = true;
          ++end;
        }
      }
      llvm::StringRef token = text.slice(i, end + 1);
      column += unsigned(token.size() - 1);
      i = end;
      if (stack.empty() || !stack.back().isObject || !stack.back().expectKey)
        break;
      stack.back().expectKey = false;
      std::string key = token.drop_front().drop_back().str();
      // Decode escapes so "a" and "\u0061" are one key.
      if (escaped) {
        if (llvm::Expected<Value> v = llvm::json::parse(token))
          key = v->getAsString()->str();
        else
          llvm::consumeError(v.takeError());
      }
      if (!stack.back().keys.insert(key).second)
        return DuplicateKey{key, startLine, startColumn};
      break;
    }
    default:
      break;
    }
  }
  return std::nullopt;
}

std::optional<Value> JSONReader::parse(llvm::StringRef text) {
  llvm::Expected<Value> parsed = llvm::json::parse(text);
  if (parsed) {
    if (std::optional<DuplicateKey> dup = findDuplicateKey(text)) {
      record({fileName + ":" + std::to_string(dup->line) + ":" +
                  std::to_string(dup->column),
              "",
              "duplicate key \"" + dup->key +
                  "\" (each key may appear once per object)"});
      return std::nullopt;
    }
    return std::move(*parsed);
  }
  // llvm::json reports "[line:col, byte=N]: message".
  std::string message = llvm::toString(parsed.takeError());
  llvm::SmallVector<llvm::StringRef, 4> groups;
  static const llvm::Regex kPosition(
      "^\\[([0-9]+):([0-9]+), byte=[0-9]+\\]: (.*)$");
  if (kPosition.match(message, &groups)) {
    // llvm::json counts the characters before the error point; an error at
    // the start of a line (an empty file) is column 1, not 0.
    llvm::StringRef column = groups[2] == "0" ? "1" : groups[2];
    record({(fileName + ":" + groups[1] + ":" + column).str(), "",
            groups[3].str()});
  } else
    record({fileName, "", message});
  return std::nullopt;
}

void JSONReader::record(Failure failure) {
  if (!error)
    error = std::move(failure);
}

bool JSONReader::fail(llvm::StringRef path, const llvm::Twine &message) {
  record({fileName, path.str(), message.str()});
  return false;
}

llvm::Error JSONReader::takeError() {
  if (!error)
    return llvm::Error::success();
  Failure f = std::move(*error);
  error.reset();
  std::string text = f.location + ": error: ";
  if (!f.path.empty())
    text += f.path + ": ";
  return llvm::createStringError(text + f.message);
}

llvm::StringRef JSONReader::errorLocation() const {
  return error ? llvm::StringRef(error->location) : llvm::StringRef();
}

llvm::StringRef JSONReader::errorPath() const {
  return error ? llvm::StringRef(error->path) : llvm::StringRef();
}

llvm::StringRef JSONReader::errorMessage() const {
  return error ? llvm::StringRef(error->message) : llvm::StringRef();
}

const llvm::json::Object *JSONReader::object(const Value &value,
                                             llvm::StringRef path) {
  if (const llvm::json::Object *o = value.getAsObject())
    return o;
  fail(path, "expected an object, got " + describeJSON(value));
  return nullptr;
}

const llvm::json::Array *JSONReader::array(const Value &value,
                                           llvm::StringRef path) {
  if (const llvm::json::Array *a = value.getAsArray())
    return a;
  fail(path, "expected an array, got " + describeJSON(value));
  return nullptr;
}

bool JSONReader::checkKeys(const llvm::json::Object &object,
                           llvm::StringRef path,
                           llvm::ArrayRef<llvm::StringLiteral> allowed) {
  // json::Object iterates in hash order; sort so the first unknown key
  // reported does not depend on it.
  llvm::SmallVector<llvm::StringRef, 16> keys;
  for (const auto &kv : object)
    keys.push_back(kv.first);
  llvm::sort(keys);
  for (llvm::StringRef key : keys) {
    if (llvm::is_contained(allowed, key))
      continue;
    std::string expected;
    for (llvm::StringLiteral a : allowed)
      expected += (expected.empty() ? "" : ", ") + a.str();
    return fail(jsonField(path, key),
                "unknown key (expected one of: " + expected + ")");
  }
  return true;
}

const Value *JSONReader::required(const llvm::json::Object &object,
                                  llvm::StringRef path, llvm::StringRef key) {
  if (const Value *v = object.get(key))
    return v;
  fail(path, "missing key \"" + key + "\"");
  return nullptr;
}

bool JSONReader::readString(const Value &value, llvm::StringRef path,
                            std::string &out) {
  if (std::optional<llvm::StringRef> s = value.getAsString()) {
    out = s->str();
    return true;
  }
  return fail(path, "expected a string, got " + describeJSON(value));
}

bool JSONReader::readBool(const Value &value, llvm::StringRef path, bool &out) {
  if (std::optional<bool> b = value.getAsBoolean()) {
    out = *b;
    return true;
  }
  return fail(path, "expected true or false, got " + describeJSON(value));
}

bool JSONReader::readInt(const Value &value, llvm::StringRef path, int64_t min,
                         llvm::StringRef expectation, int64_t &out) {
  std::optional<int64_t> i = jsonInt64(value);
  if (!i || *i < min)
    return fail(path,
                "expected " + expectation + ", got " + describeJSON(value));
  out = *i;
  return true;
}

bool JSONReader::readUInt(const Value &value, llvm::StringRef path,
                          llvm::StringRef expectation, uint64_t &out) {
  // An integral double such as 1.6e10 reads as an integer too.
  std::optional<uint64_t> u = jsonUInt64(value);
  if (!u)
    return fail(path,
                "expected " + expectation + ", got " + describeJSON(value));
  out = *u;
  return true;
}

bool JSONReader::readDouble(const Value &value, llvm::StringRef path,
                            double lowerBound, bool inclusive,
                            double upperBound, llvm::StringRef expectation,
                            double &out) {
  std::optional<double> d = value.getAsNumber();
  bool ok = d && std::isfinite(*d) &&
            (inclusive ? *d >= lowerBound : *d > lowerBound) &&
            *d <= upperBound;
  if (!ok)
    return fail(path,
                "expected " + expectation + ", got " + describeJSON(value));
  out = *d;
  return true;
}

} // namespace fuel::target
