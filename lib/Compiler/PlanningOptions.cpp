//===- PlanningOptions.cpp - fuel-plan option text, typed -----------------===//
//
// parsePlanningOptions: fuel-plan option text (`key=value` items, as in
// `fuel-plan{...}` and `fuel-compile --plan`) read key by key into
// PlanningOptions, each key by the option PlanningOptions::bindOptions
// declares under that name, with every error in a message naming the option
// rather than printed, as llvm::cl's parsers would print it. fuel-compile
// and the C API read their option text with it.
//
//===----------------------------------------------------------------------===//

#include "fuel/Compiler/Compiler.h"

#include "fuel/Planner/Placement.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

using namespace mlir;
using namespace mlir::fuel;

namespace {

/// One `key=value` (or bare `key`) of fuel-plan option text.
struct OptionItem {
  std::string key;
  std::optional<std::string> value;
};

/// Splits fuel-plan option text into key=value items as the pass-option
/// parser does: items are separated by spaces; a value may be quoted with '
/// or " (the quotes are dropped) or braced with {} (kept), and may then
/// hold spaces.
LogicalResult splitOptions(llvm::StringRef text,
                           llvm::SmallVectorImpl<OptionItem> &items,
                           std::string &message) {
  size_t i = 0, n = text.size();
  auto isSpace = [](char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
  };
  while (i < n) {
    while (i < n && isSpace(text[i]))
      ++i;
    if (i == n)
      break;
    size_t keyStart = i;
    while (i < n && text[i] != '=' && !isSpace(text[i]))
      ++i;
    std::string key = text.slice(keyStart, i).str();
    std::optional<std::string> value;
    if (i < n && text[i] == '=') {
      ++i;
      std::string v;
      while (i < n && !isSpace(text[i])) {
        char c = text[i];
        if (c == '\'' || c == '"') {
          size_t close = text.find(c, i + 1);
          if (close == llvm::StringRef::npos) {
            message = "unterminated quote in the value of '" + key + "'";
            return failure();
          }
          v += text.slice(i + 1, close).str();
          i = close + 1;
        } else if (c == '{') {
          int depth = 0;
          size_t start = i;
          for (; i < n; ++i) {
            if (text[i] == '{')
              ++depth;
            else if (text[i] == '}' && --depth == 0)
              break;
          }
          if (i == n) {
            message = "unbalanced '{' in the value of '" + key + "'";
            return failure();
          }
          ++i;
          v += text.slice(start, i).str();
        } else {
          v += c;
          ++i;
        }
      }
      value = std::move(v);
    }
    if (key.empty()) {
      message = "an option without a name";
      return failure();
    }
    items.push_back({std::move(key), std::move(value)});
  }
  return success();
}

/// A boolean as llvm::cl reads one.
std::optional<bool> parseBool(llvm::StringRef v) {
  if (v == "true" || v == "TRUE" || v == "True" || v == "1")
    return true;
  if (v == "false" || v == "FALSE" || v == "False" || v == "0")
    return false;
  return std::nullopt;
}

/// Reads one item of option text into the planning option it names: a
/// binder of PlanningOptions::bindOptions that parses the value by the
/// option's type and modifiers. A bare key is a flag (`explain` is
/// `explain=true`); only booleans may be bare.
class TextBinder {
public:
  TextBinder(const OptionItem &item, PlanningOptions &planning,
             std::string &message)
      : item(item), value(item.value.value_or("")), planning(planning),
        message(message) {}

  template <typename T, typename... Modifiers>
  void opt(llvm::StringRef name, T PlanningOptions::*field, llvm::StringRef,
           const Modifiers &...modifiers) {
    if (found || name != item.key)
      return;
    found = true;
    result = read(planning.*field, modifiers...);
  }

  /// Whether the item named an option, and then whether it was read.
  bool found = false;
  LogicalResult result = success();

private:
  LogicalResult badValue(llvm::StringRef what) {
    message = "fuel-plan option '" + item.key + "': '" + value + "' is not " +
              what.str();
    return failure();
  }

  LogicalResult needsValue() {
    if (item.value)
      return success();
    message = "fuel-plan option '" + item.key + "' needs a value (" + item.key +
              "=...)";
    return failure();
  }

  /// An option set apart from option text (`topology`).
  template <typename T>
  LogicalResult read(T &, const plan_option::NotInText &apart) {
    message = "fuel-plan option '" + item.key +
              "' is not read from option text: " + apart.how.str();
    return failure();
  }

  LogicalResult read(std::string &field) {
    if (failed(needsValue()))
      return failure();
    field = value;
    return success();
  }

  LogicalResult read(bool &field) {
    std::optional<bool> b = item.value ? parseBool(value) : true;
    if (!b)
      return badValue("a boolean (true or false)");
    field = *b;
    return success();
  }

  LogicalResult read(unsigned &field) {
    unsigned n = 0;
    if (!item.value || llvm::StringRef(value).getAsInteger(0, n))
      return badValue("an unsigned integer");
    field = n;
    return success();
  }

  LogicalResult read(int64_t &field, const plan_option::AtLeast &least) {
    int64_t n = 0;
    if (!item.value || llvm::StringRef(value).getAsInteger(0, n) ||
        n < least.value)
      return badValue(least.value == 1 ? std::string("a positive integer")
                                       : "an integer of at least " +
                                             std::to_string(least.value));
    field = n;
    return success();
  }

  /// A comma list; spaces around an item and empty items are dropped.
  LogicalResult read(std::vector<std::string> &field) {
    std::string list;
    if (failed(read(list)))
      return failure();
    field.clear();
    llvm::SmallVector<llvm::StringRef> parts;
    llvm::StringRef(list).split(parts, ',', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef part : parts)
      field.push_back(part.trim().str());
    return success();
  }

  /// An enum option, by the names of its values.
  template <typename E>
  LogicalResult read(E &field, const plan_option::Values &values) {
    ValueNames names;
    values.values.apply(names);
    for (const auto &[name, v] : names.parser.values)
      if (item.value && value == name) {
        field = static_cast<E>(v);
        return success();
      }
    std::string list;
    for (size_t i = 0, n = names.parser.values.size(); i < n; ++i)
      list += (i == 0       ? ""
               : i + 1 == n ? " or "
                            : ", ") +
              names.parser.values[i].first.str();
    return badValue(values.what.str() + " (" + list + ")");
  }

  /// What llvm::cl::ValuesClass::apply fills: the values' names, in order.
  struct ValueNames {
    struct Parser {
      std::vector<std::pair<llvm::StringRef, int>> values;
      void addLiteralOption(llvm::StringRef name, int v, llvm::StringRef) {
        values.emplace_back(name, v);
      }
    } parser;
    Parser &getParser() { return parser; }
  };

  const OptionItem &item;
  const std::string value;
  PlanningOptions &planning;
  std::string &message;
};

} // namespace

LogicalResult mlir::fuel::parsePlanningOptions(llvm::StringRef text,
                                               PlanningOptions &planning,
                                               std::string &message) {
  llvm::SmallVector<OptionItem> items;
  if (failed(splitOptions(text, items, message)))
    return failure();
  for (const OptionItem &item : items) {
    TextBinder binder(item, planning, message);
    PlanningOptions::bindOptions(binder);
    if (!binder.found) {
      message = "unknown fuel-plan option '" + item.key +
                "' (docs/SEMANTICS.md §9 lists them)";
      return failure();
    }
    if (failed(binder.result))
      return failure();
  }
  return success();
}
