//===- PlanningOptions.cpp - fuel-plan option text, typed -----------------===//
//
// parsePlanningOptions: fuel-plan option text (`key=value` items, as in
// `fuel-plan{...}` and `fuel-compile --plan`) read key by key into
// PlanningOptions, with every error in a message naming the option rather
// than printed, as llvm::cl's parsers would print it. fuel-compile and the
// C API read their option text with it.
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

} // namespace

LogicalResult mlir::fuel::parsePlanningOptions(llvm::StringRef text,
                                               PlanningOptions &planning,
                                               std::string &message) {
  llvm::SmallVector<OptionItem> items;
  if (failed(splitOptions(text, items, message)))
    return failure();
  for (const OptionItem &item : items) {
    const std::string &key = item.key;
    // A bare key is a flag (`explain` is `explain=true`); only booleans
    // may be bare.
    const std::string value = item.value.value_or("");
    auto badValue = [&](llvm::StringRef what) {
      message = "fuel-plan option '" + key + "': '" + value + "' is not " +
                what.str();
      return failure();
    };
    auto setString = [&](std::string &field) -> LogicalResult {
      if (!item.value) {
        message =
            "fuel-plan option '" + key + "' needs a value (" + key + "=...)";
        return failure();
      }
      field = value;
      return success();
    };
    auto setBool = [&](bool &field) -> LogicalResult {
      std::optional<bool> b = item.value ? parseBool(value) : true;
      if (!b)
        return badValue("a boolean (true or false)");
      field = *b;
      return success();
    };
    LogicalResult ok = success();
    if (key == "topology") {
      message = "fuel-plan option 'topology' is not read from option text: "
                "set the topology on its own (fuel-compile "
                "--topology=FILE|probe, fuelCompileOptions.topology, "
                "PlanningOptions::topology)";
      return failure();
    } else if (key == "precision") {
      ok = setString(planning.precision);
    } else if (key == "prefer-bit-stable") {
      ok = setBool(planning.preferBitStable);
    } else if (key == "pinned-device") {
      ok = setString(planning.pinnedDevice);
    } else if (key == "price-transfers") {
      ok = setBool(planning.priceTransfers);
    } else if (key == "allow-cost-placement") {
      ok = setBool(planning.allowCostPlacement);
    } else if (key == "require-transfer-pricing") {
      ok = setBool(planning.requireTransferPricing);
    } else if (key == "kernel-sources") {
      std::string list;
      if (failed(setString(list)))
        return failure();
      planning.kernelSources.clear();
      llvm::SmallVector<llvm::StringRef> parts;
      llvm::StringRef(list).split(parts, ',', -1, /*KeepEmpty=*/false);
      for (llvm::StringRef part : parts)
        planning.kernelSources.push_back(part.trim().str());
    } else if (key == "keep-per-device") {
      unsigned n = 0;
      if (!item.value || llvm::StringRef(value).getAsInteger(0, n))
        ok = badValue("an unsigned integer");
      else
        planning.keepPerDevice = n;
    } else if (key == "placement-algorithm") {
      std::optional<::fuel::plan::PlacementAlgorithm> a =
          item.value ? ::fuel::plan::symbolizePlacementAlgorithm(value)
                     : std::nullopt;
      if (!a)
        ok = badValue("a placement algorithm (auto, greedy, exact-tree, "
                      "mincut or brute-force)");
      else
        planning.placementAlgorithm = *a;
    } else if (key == "export-plan") {
      ok = setString(planning.exportPlan);
    } else if (key == "import-plan") {
      ok = setString(planning.importPlan);
    } else if (key == "export-dot") {
      ok = setString(planning.exportDot);
    } else if (key == "explain") {
      ok = setBool(planning.explain);
    } else if (key == "profile") {
      ok = setString(planning.profile);
    } else if (key == "profile-threads") {
      int64_t n = 0;
      if (!item.value || llvm::StringRef(value).getAsInteger(0, n) || n < 1)
        ok = badValue("a positive integer");
      else
        planning.profileThreads = n;
    } else {
      message = "unknown fuel-plan option '" + key +
                "' (docs/SEMANTICS.md §9 lists them)";
      return failure();
    }
    if (failed(ok))
      return failure();
  }
  return success();
}
