//===- OpKindTest.cpp - Tests of fuel/Support/OpKind.h --------------------===//
//
// Op kinds: the spellings of SEMANTICS §4, parse round trips and rejects.
//
//===----------------------------------------------------------------------===//

#include "fuel/Support/OpKind.h"

#include "gtest/gtest.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

using namespace fuel;

namespace {

// Tests the spellings, in declaration order, and that each parses back.
TEST(OpKindTest, SpellingRoundTrips) {
  std::vector<std::string> spellings;
  for (OpKind kind : kAllOpKinds) {
    std::string_view s = stringifyOpKind(kind);
    spellings.emplace_back(s);
    EXPECT_EQ(symbolizeOpKind(s), kind) << s;
    EXPECT_EQ(s.data()[s.size()], '\0');
  }
  EXPECT_EQ(spellings, (std::vector<std::string>{
                           "matmul", "batch_matmul", "conv2d", "pool", "reduce",
                           "softmax", "elementwise", "transpose", "generic"}));
}

// Tests that kAllOpKinds lists every enumerator once, in value order.
TEST(OpKindTest, AllKindsAreDense) {
  for (size_t i = 0; i < kAllOpKinds.size(); ++i)
    EXPECT_EQ(static_cast<size_t>(kAllOpKinds[i]), i);
  std::set<OpKind> unique(kAllOpKinds.begin(), kAllOpKinds.end());
  EXPECT_EQ(unique.size(), kAllOpKinds.size());
}

// Tests that only the exact spellings parse.
TEST(OpKindTest, RejectsOtherSpellings) {
  for (const char *s : {"", "Matmul", "batch-matmul", "batchmatmul", "conv",
                        "max_pool", "matmul ", "linalg.matmul"})
    EXPECT_EQ(symbolizeOpKind(s), std::nullopt) << '"' << s << '"';
}

static_assert(symbolizeOpKind("softmax") == OpKind::Softmax);
static_assert(stringifyOpKind(OpKind::BatchMatmul) == "batch_matmul");

} // namespace
