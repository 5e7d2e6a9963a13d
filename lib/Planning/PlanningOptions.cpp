//===- PlanningOptions.cpp - The planning options' binders ----------------===//
//
// The binders of PlanningOptions::bindOptions that the pipeline needs: one
// that makes a pass option of the fuel-plan pipeline per planning option
// (PlanPipelineOptions), one that compares two sets of options, one that
// lists the names. The option text reader is in lib/Compiler.
//
//===----------------------------------------------------------------------===//

#include "fuel/Planning/Passes.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::fuel;

//===----------------------------------------------------------------------===//
// Pass options
//===----------------------------------------------------------------------===//

/// Makes one pass option of a PlanPipelineOptions per planning option, with
/// the option's name, description, default and modifiers, and records how
/// to read its value back.
class PlanPipelineOptions::Binder {
public:
  explicit Binder(PlanPipelineOptions &parent) : parent(parent) {}

  template <typename T, typename... Modifiers>
  void opt(StringRef name, T PlanningOptions::*field, StringRef description,
           const Modifiers &...modifiers) {
    auto option = std::make_unique<PassOptions::Option<T>>(
        parent, name, llvm::cl::desc(description),
        llvm::cl::init(defaults.*field), modifiers...);
    PassOptions::Option<T> *value = option.get();
    parent.readBack.push_back(
        [value, field](PlanningOptions &out) { out.*field = *value; });
    parent.boundOptions.push_back(std::move(option));
  }

  /// A list option (`kernel-sources`) is one string option, the list
  /// joined by commas, as option text writes it.
  template <typename... Modifiers>
  void opt(StringRef name, std::vector<std::string> PlanningOptions::*field,
           StringRef description, const Modifiers &...modifiers) {
    auto option = std::make_unique<PassOptions::Option<std::string>>(
        parent, name, llvm::cl::desc(description),
        llvm::cl::init(llvm::join(defaults.*field, ",")), modifiers...);
    PassOptions::Option<std::string> *value = option.get();
    parent.readBack.push_back([value, field](PlanningOptions &out) {
      // Split keeping empty items, so that joining gives back the text as
      // written and the passes see it unchanged.
      std::vector<std::string> items;
      StringRef text = *value;
      if (!text.empty()) {
        SmallVector<StringRef> parts;
        text.split(parts, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/true);
        for (StringRef part : parts)
          items.push_back(part.str());
      }
      out.*field = std::move(items);
    });
    parent.boundOptions.push_back(std::move(option));
  }

private:
  PlanPipelineOptions &parent;
  const PlanningOptions defaults{};
};

PlanPipelineOptions::PlanPipelineOptions() {
  Binder binder(*this);
  PlanningOptions::bindOptions(binder);
}

PlanPipelineOptions::~PlanPipelineOptions() = default;

PlanningOptions PlanPipelineOptions::getPlanningOptions() const {
  PlanningOptions options;
  for (const std::function<void(PlanningOptions &)> &read : readBack)
    read(options);
  return options;
}

//===----------------------------------------------------------------------===//
// Comparison and names
//===----------------------------------------------------------------------===//

namespace {
/// Finds the first option whose values in two sets of options differ.
struct DifferenceBinder {
  const PlanningOptions &a, &b;
  StringRef first;

  template <typename T, typename... Modifiers>
  void opt(StringRef name, T PlanningOptions::*field, StringRef,
           const Modifiers &...) {
    if (first.empty() && !(a.*field == b.*field))
      first = name;
  }
};

/// Lists the options' names.
struct NameBinder {
  std::vector<StringRef> names;

  template <typename T, typename... Modifiers>
  void opt(StringRef name, T PlanningOptions::*, StringRef,
           const Modifiers &...) {
    names.push_back(name);
  }
};
} // namespace

StringRef PlanningOptions::firstDifference(const PlanningOptions &a,
                                           const PlanningOptions &b) {
  DifferenceBinder binder{a, b, {}};
  bindOptions(binder);
  return binder.first;
}

std::vector<StringRef> PlanningOptions::optionNames() {
  NameBinder binder;
  bindOptions(binder);
  return binder.names;
}
