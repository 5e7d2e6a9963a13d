//===- PlanningOptionsTest.cpp - One declaration, every reader ------------===//
//
// The planning options are declared once (PlanningOptions::bindOptions);
// these tests check that what is made from the declaration agrees: the
// fuel-plan pipeline's pass options and the option text reader that
// fuel-compile --plan and the C API's planOptions use have the same options
// with the same defaults, read every value alike, and the pipeline's
// printed options read back through option text.
//
//===----------------------------------------------------------------------===//

#include "fuel/Compiler/Compiler.h"
#include "fuel/Planning/Passes.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>
#include <vector>

using namespace mlir;
using namespace mlir::fuel;

namespace {

/// Per option, option text that sets it to a value other than its default,
/// made from the option's type (so an option added later is covered too).
struct SampleBinder {
  std::vector<std::pair<std::string, std::string>> samples;
  std::set<std::string> notInText;
  const PlanningOptions defaults{};

  template <typename... Modifiers>
  void opt(StringRef name, std::string PlanningOptions::*field, StringRef,
           const Modifiers &...modifiers) {
    add(name, defaults.*field + "x", modifiers...);
  }
  template <typename... Modifiers>
  void opt(StringRef name, bool PlanningOptions::*field, StringRef,
           const Modifiers &...modifiers) {
    add(name, defaults.*field ? "false" : "true", modifiers...);
  }
  template <typename... Modifiers>
  void opt(StringRef name, unsigned PlanningOptions::*field, StringRef,
           const Modifiers &...modifiers) {
    add(name, std::to_string(defaults.*field + 1), modifiers...);
  }
  template <typename... Modifiers>
  void opt(StringRef name, int64_t PlanningOptions::*field, StringRef,
           const Modifiers &...modifiers) {
    add(name, std::to_string(defaults.*field + 1), modifiers...);
  }
  template <typename... Modifiers>
  void opt(StringRef name, std::vector<std::string> PlanningOptions::*field,
           StringRef, const Modifiers &...modifiers) {
    EXPECT_TRUE((defaults.*field).empty()) << name.str();
    add(name, "generated,openblas", modifiers...);
  }
  template <typename E>
  void opt(StringRef name, E PlanningOptions::*field, StringRef,
           const plan_option::Values &values) {
    struct Names {
      struct Parser {
        std::vector<std::pair<StringRef, int>> values;
        void addLiteralOption(StringRef n, int v, StringRef) {
          values.emplace_back(n, v);
        }
      } parser;
      Parser &getParser() { return parser; }
    } names;
    values.values.apply(names);
    for (const auto &[valueName, value] : names.parser.values)
      if (static_cast<E>(value) != defaults.*field) {
        add(name, valueName.str());
        return;
      }
    ADD_FAILURE() << name.str() << " has no value but its default";
  }

  template <typename... Modifiers>
  void add(StringRef name, std::string value, const Modifiers &...) {
    samples.emplace_back(name.str(), std::move(value));
    if ((std::is_same_v<Modifiers, plan_option::NotInText> || ...))
      notInText.insert(name.str());
  }
};

/// The option names of option text as PassOptions::print writes it:
/// `{a=1 b=x ...}`.
std::vector<std::string> printedNames(StringRef printed) {
  std::vector<std::string> names;
  printed = printed.trim().drop_front().drop_back();
  SmallVector<StringRef> items;
  printed.split(items, ' ', -1, /*KeepEmpty=*/false);
  for (StringRef item : items)
    names.push_back(item.split('=').first.str());
  return names;
}

/// PassOptions::print's text of `options`.
std::string print(const PlanPipelineOptions &options) {
  std::string text;
  llvm::raw_string_ostream os(text);
  options.print(os);
  return text;
}

} // namespace

TEST(PlanningOptionsTest, PipelineOptionsAreTheDeclaredOnes) {
  std::vector<StringRef> declared = PlanningOptions::optionNames();
  std::set<std::string> expected(declared.begin(), declared.end());
  EXPECT_EQ(expected.size(), declared.size()) << "an option name repeats";
  std::vector<std::string> printed = printedNames(print(PlanPipelineOptions()));
  EXPECT_EQ(std::set<std::string>(printed.begin(), printed.end()), expected);
  EXPECT_EQ(printed.size(), declared.size());
  // The same defaults.
  EXPECT_EQ(PlanPipelineOptions().getPlanningOptions(), PlanningOptions());
}

TEST(PlanningOptionsTest, EveryOptionReadsAlikeInTextAndPipeline) {
  SampleBinder binder;
  PlanningOptions::bindOptions(binder);
  ASSERT_EQ(binder.samples.size(), PlanningOptions::optionNames().size());
  ASSERT_EQ(binder.notInText, std::set<std::string>{"topology"});
  for (const auto &[name, value] : binder.samples) {
    std::string item = name + "=" + value;
    SCOPED_TRACE(item);
    PlanPipelineOptions pipeline;
    ASSERT_TRUE(succeeded(pipeline.parseFromString(item)));
    PlanningOptions fromPipeline = pipeline.getPlanningOptions();
    EXPECT_EQ(PlanningOptions::firstDifference(fromPipeline, PlanningOptions()),
              name);

    PlanningOptions fromText;
    std::string error;
    if (binder.notInText.count(name)) {
      EXPECT_TRUE(failed(parsePlanningOptions(item, fromText, error)));
      EXPECT_NE(error.find("is not read from option text"), std::string::npos)
          << error;
      continue;
    }
    ASSERT_TRUE(succeeded(parsePlanningOptions(item, fromText, error)))
        << error;
    // Text read one key, so the pipeline too changed that option alone.
    EXPECT_EQ(fromText, fromPipeline);
  }
}

TEST(PlanningOptionsTest, PrintedPipelineOptionsReadBackAsOptionText) {
  // Every option changed (but the topology, which option text does not
  // set), printed by the pipeline's options and read as option text.
  SampleBinder binder;
  PlanningOptions::bindOptions(binder);
  std::string text;
  for (const auto &[name, value] : binder.samples)
    if (!binder.notInText.count(name))
      text += name + "=" + value + " ";
  PlanPipelineOptions pipeline;
  ASSERT_TRUE(succeeded(pipeline.parseFromString(text))) << text;
  PlanningOptions expected = pipeline.getPlanningOptions();

  std::string printed = print(pipeline);
  StringRef body = StringRef(printed).trim().drop_front().drop_back();
  // PassOptions::print writes `topology=` first of the sorted options when
  // it is empty; option text refuses the key, so it is dropped.
  std::string withoutTopology;
  SmallVector<StringRef> items;
  body.split(items, ' ', -1, /*KeepEmpty=*/false);
  for (StringRef item : items)
    if (!item.starts_with("topology="))
      withoutTopology += item.str() + " ";
  PlanningOptions readBack;
  std::string error;
  ASSERT_TRUE(succeeded(parsePlanningOptions(withoutTopology, readBack, error)))
      << error << "\n"
      << printed;
  EXPECT_EQ(readBack, expected) << printed;
}
