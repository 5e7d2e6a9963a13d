//===- CommandDepsTest.cpp - Command dependencies: cases and properties ---===//
//
// Exact small cases of fuel::plan::commandDependencies (read after write,
// write after read and after write, partial overlaps, separate spaces,
// empty ranges, a command reading and writing the same bytes, the
// transitive reduction) and a property test over random programs from fixed
// seeds: the result equals the reference, every conflicting pair checked
// and reduced with full ancestor sets, and a long program finishes.
//
//===----------------------------------------------------------------------===//

#include "fuel/Planner/Testing/PlannerTestUtil.h"

#include "fuel/Planner/CommandDeps.h"

#include "llvm/ADT/BitVector.h"

#include "gtest/gtest.h"

#include <algorithm>

using namespace fuel::plan;
using fuel::plan::testing::Rng;

namespace {

using Deps = std::vector<std::vector<int64_t>>;

ByteRange bytes(uint64_t space, uint64_t begin, uint64_t end) {
  return ByteRange{space, begin, end};
}

CommandAccess cmd(std::vector<ByteRange> reads, std::vector<ByteRange> writes) {
  CommandAccess c;
  c.reads.assign(reads.begin(), reads.end());
  c.writes.assign(writes.begin(), writes.end());
  return c;
}

Deps depsOf(const std::vector<CommandAccess> &commands) {
  Deps out;
  for (const auto &d : commandDependencies(commands))
    out.emplace_back(d.begin(), d.end());
  return out;
}

/// The definition, quadratically: every earlier command with an overlapping
/// write on either side, latest first, kept unless already an ancestor.
Deps reference(const std::vector<CommandAccess> &commands) {
  // An empty range (a tensor of no elements) touches nothing.
  auto overlaps = [](const ByteRange &a, const ByteRange &b) {
    return a.space == b.space && a.begin < a.end && b.begin < b.end &&
           a.begin < b.end && b.begin < a.end;
  };
  auto any = [&](llvm::ArrayRef<ByteRange> a, llvm::ArrayRef<ByteRange> b) {
    for (const ByteRange &x : a)
      for (const ByteRange &y : b)
        if (overlaps(x, y))
          return true;
    return false;
  };
  size_t n = commands.size();
  Deps deps(n);
  std::vector<llvm::BitVector> ancestors(n, llvm::BitVector(n));
  for (size_t c = 0; c < n; ++c) {
    for (size_t p = c; p-- > 0;) {
      if (ancestors[c].test(p))
        continue;
      const CommandAccess &a = commands[p], &b = commands[c];
      if (any(a.writes, b.reads) || any(a.reads, b.writes) ||
          any(a.writes, b.writes)) {
        deps[c].push_back(int64_t(p));
        ancestors[c] |= ancestors[p];
        ancestors[c].set(p);
      }
    }
    std::reverse(deps[c].begin(), deps[c].end());
  }
  return deps;
}

TEST(CommandDepsTest, ReadAfterWriteAndWriteAfterRead) {
  // 0 writes A, 1 reads A, 2 reads A, 3 writes A: 3 waits for both readers,
  // and through them for 0.
  std::vector<CommandAccess> c = {
      cmd({}, {bytes(1, 0, 64)}), cmd({bytes(1, 0, 64)}, {bytes(2, 0, 8)}),
      cmd({bytes(1, 0, 64)}, {bytes(3, 0, 8)}), cmd({}, {bytes(1, 0, 64)})};
  EXPECT_EQ(depsOf(c), (Deps{{}, {0}, {0}, {1, 2}}));
}

TEST(CommandDepsTest, PartialOverlapsAndSpaces) {
  // 0 and 1 write halves of one range; 2 reads across both; 3 writes the
  // same offsets of another space; 4 reads an empty range.
  std::vector<CommandAccess> c = {
      cmd({}, {bytes(7, 0, 32)}), cmd({}, {bytes(7, 32, 64)}),
      cmd({bytes(7, 16, 48)}, {}), cmd({}, {bytes(8, 0, 64)}),
      cmd({bytes(7, 10, 10)}, {})};
  EXPECT_EQ(depsOf(c), (Deps{{}, {}, {0, 1}, {}, {}}));
}

TEST(CommandDepsTest, WriteAfterWriteIsReduced) {
  // 0, 1, 2 write the same bytes: each waits for the one before only; 3
  // reads them and waits for 2 alone.
  std::vector<CommandAccess> c = {
      cmd({}, {bytes(1, 0, 8)}), cmd({}, {bytes(1, 0, 8)}),
      cmd({}, {bytes(1, 0, 8)}), cmd({bytes(1, 0, 8)}, {})};
  EXPECT_EQ(depsOf(c), (Deps{{}, {0}, {1}, {2}}));
}

TEST(CommandDepsTest, InPlaceReadAndWrite) {
  // 1 reads and overwrites what 0 wrote; 2 reads it and waits for 1 only.
  std::vector<CommandAccess> c = {cmd({}, {bytes(1, 0, 16)}),
                                  cmd({bytes(1, 0, 16)}, {bytes(1, 0, 16)}),
                                  cmd({bytes(1, 0, 16)}, {})};
  EXPECT_EQ(depsOf(c), (Deps{{}, {0}, {1}}));
}

TEST(CommandDepsTest, ImpliedConflictIsDropped) {
  // 2 conflicts with 0 (same bytes) and 1 (other bytes), and 1 already
  // waits for 0: 2 waits for 1 only.
  std::vector<CommandAccess> c = {cmd({}, {bytes(1, 0, 8)}),
                                  cmd({bytes(1, 0, 8)}, {bytes(1, 8, 16)}),
                                  cmd({}, {bytes(1, 0, 16)})};
  EXPECT_EQ(depsOf(c), (Deps{{}, {0}, {1}}));
}

TEST(CommandDepsTest, OnlyReadSpacesOrderNothing) {
  std::vector<CommandAccess> c = {cmd({bytes(5, 0, 8)}, {}),
                                  cmd({bytes(5, 0, 8)}, {}),
                                  cmd({bytes(5, 4, 12)}, {})};
  EXPECT_EQ(depsOf(c), (Deps{{}, {}, {}}));
}

/// Random programs: a few spaces of a few hundred bytes, commands with up to
/// three reads and two writes at random (often overlapping) offsets.
std::vector<CommandAccess> randomProgram(Rng &rng, unsigned n, unsigned spaces,
                                         uint64_t span) {
  std::vector<CommandAccess> program(n);
  auto range = [&]() {
    uint64_t space = rng.below(spaces);
    uint64_t begin = rng.below(span);
    uint64_t end = begin + rng.below(span / 4 + 1);
    return bytes(space, begin, end);
  };
  for (CommandAccess &c : program) {
    for (uint64_t i = 0, k = rng.below(4); i < k; ++i)
      c.reads.push_back(range());
    for (uint64_t i = 0, k = rng.below(3); i < k; ++i)
      c.writes.push_back(range());
  }
  return program;
}

TEST(CommandDepsTest, EqualsTheReferenceOnRandomPrograms) {
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    Rng rng(seed);
    unsigned n = unsigned(rng.between(1, 120));
    unsigned spaces = unsigned(rng.between(1, 4));
    uint64_t span = uint64_t(rng.between(8, 512));
    std::vector<CommandAccess> program = randomProgram(rng, n, spaces, span);
    ASSERT_EQ(depsOf(program), reference(program)) << "seed " << seed;
  }
}

TEST(CommandDepsTest, LongChainIsLinear) {
  // 200,000 commands, each reading the previous one's slot of a ring of 16
  // slots and writing the next: the reference would need 5 GB of ancestor
  // bits; the sweep keeps one dependency per command.
  const unsigned n = 200000;
  std::vector<CommandAccess> program(n);
  for (unsigned i = 0; i < n; ++i) {
    if (i > 0)
      program[i].reads.push_back(
          bytes(0, (i - 1) % 16 * 64, (i - 1) % 16 * 64 + 64));
    program[i].writes.push_back(bytes(0, i % 16 * 64, i % 16 * 64 + 64));
  }
  auto deps = commandDependencies(program);
  ASSERT_EQ(deps.size(), n);
  for (unsigned i = 1; i < n; ++i)
    ASSERT_EQ(deps[i].size(), 1u) << i;
}

} // namespace
