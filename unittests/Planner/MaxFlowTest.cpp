//===- MaxFlowTest.cpp - The generic max flow behind the placement cuts ---===//
//
// lib/Planner/MaxFlow.h alone: a textbook network, and random small graphs
// whose minimum cut is found by enumerating every cut — in 64-bit and in
// 128-bit capacities, with unbounded edges — checking that the returned
// source side is a minimum cut and the least one (inside every other).
//
//===----------------------------------------------------------------------===//

#include "MaxFlow.h"

#include "fuel/Planner/Testing/PlannerTestUtil.h"

#include "gtest/gtest.h"

#include <vector>

using namespace fuel::plan;
using fuel::plan::detail::MaxFlow;
using fuel::plan::testing::Rng;

namespace {

struct TestEdge {
  unsigned from, to;
  Int128 cap;
};

/// Capacity of the cut (side[u] = source side), unbounded edges counted as
/// MaxFlow::kUnbounded.
Int128 cutValue(const std::vector<TestEdge> &edges,
                const std::vector<bool> &side) {
  Int128 sum = 0;
  for (const TestEdge &e : edges)
    if (side[e.from] && !side[e.to])
      sum += e.cap;
  return sum;
}

std::vector<bool> solve(unsigned n, const std::vector<TestEdge> &edges,
                        unsigned s, unsigned t) {
  MaxFlow flow(n);
  for (const TestEdge &e : edges)
    flow.addEdge(e.from, e.to, e.cap);
  return flow.minCutSourceSide(s, t);
}

TEST(MaxFlowTest, TextbookNetwork) {
  // The network of Cormen et al., figure 26.1: maximum flow 23.
  std::vector<TestEdge> edges{{0, 1, 16}, {0, 2, 13}, {2, 1, 4},
                              {1, 3, 12}, {3, 2, 9},  {2, 4, 14},
                              {4, 3, 7},  {3, 5, 20}, {4, 5, 4}};
  std::vector<bool> side = solve(6, edges, 0, 5);
  EXPECT_EQ(cutValue(edges, side), 23);
  EXPECT_EQ(side, (std::vector<bool>{true, true, true, false, true, false}));
}

TEST(MaxFlowTest, DroppedEdgesAndAddedNodes) {
  MaxFlow flow(2);
  unsigned mid = flow.addNode();
  EXPECT_EQ(mid, 2u);
  EXPECT_EQ(flow.size(), 3u);
  flow.addEdge(0, mid, 5);
  flow.addEdge(mid, 1, 0);   // dropped: no capacity
  flow.addEdge(mid, 1, -3);  // dropped
  flow.addEdge(mid, mid, 7); // dropped: a loop
  std::vector<bool> side = flow.minCutSourceSide(0, 1);
  EXPECT_EQ(side, (std::vector<bool>{true, false, true}));
}

/// Random graphs of up to 7 nodes against every cut.
void checkRandomGraphs(uint64_t seed, bool wide) {
  Rng rng(seed);
  for (unsigned iter = 0; iter < 400; ++iter) {
    unsigned n = 2 + unsigned(rng.below(6));
    std::vector<TestEdge> edges;
    unsigned m = unsigned(rng.below(3 * n));
    for (unsigned i = 0; i < m; ++i) {
      unsigned u = unsigned(rng.below(n)), v = unsigned(rng.below(n));
      if (u == v)
        continue;
      Int128 cap = rng.between(1, 20);
      if (wide)
        cap *= Int128(1) << 70;
      if (rng.below(8) == 0)
        cap = MaxFlow::kUnbounded;
      edges.push_back({u, v, cap});
    }
    // Source 0, sink 1; no unbounded s-t path (else every cut is unbounded).
    std::vector<bool> side = solve(n, edges, 0, 1);
    ASSERT_TRUE(side[0]);
    Int128 best = -1;
    std::vector<std::vector<bool>> minima;
    for (uint64_t mask = 0; mask < (uint64_t(1) << n); ++mask) {
      if (!(mask & 1) || (mask & 2))
        continue;
      std::vector<bool> cut(n);
      for (unsigned u = 0; u < n; ++u)
        cut[u] = (mask >> u) & 1;
      Int128 value = cutValue(edges, cut);
      if (best < 0 || value < best) {
        best = value;
        minima.clear();
      }
      if (value == best)
        minima.push_back(cut);
    }
    if (best >= MaxFlow::kUnbounded)
      continue;
    ASSERT_FALSE(side[1]) << "graph " << iter;
    ASSERT_TRUE(cutValue(edges, side) == best) << "graph " << iter;
    for (const std::vector<bool> &other : minima)
      for (unsigned u = 0; u < n; ++u)
        ASSERT_TRUE(!side[u] || other[u])
            << "graph " << iter << ": not the least source side";
  }
}

TEST(MaxFlowTest, RandomGraphsAgainstEveryCut) {
  checkRandomGraphs(0x5eed0f10, false);
}

TEST(MaxFlowTest, RandomGraphsWith128BitCapacities) {
  checkRandomGraphs(0x5eed0f11, true);
}

} // namespace
