//===- MaxFlow.h - Maximum flow and minimum cut -----------------*- C++ -*-===//
//
// Private to lib/Planner. A generic s-t maximum flow on a graph built once,
// returning the source side of a minimum cut; the placement solvers' cuts
// (PlacementCut.cpp) are built on it. It knows nothing of placement and is
// tested alone (unittests/Planner/MaxFlowTest.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_LIB_PLANNER_MAXFLOW_H
#define FUEL_LIB_PLANNER_MAXFLOW_H

#include "fuel/Planner/Wide.h"

#include <vector>

namespace fuel::plan::detail {

/// Maximum flow by Dinic's algorithm. Capacities are exact 128-bit
/// integers; kUnbounded or more means unbounded.
class MaxFlow {
public:
  /// Capacities at or above this are unbounded.
  static constexpr Int128 kUnbounded = Int128(1) << 120;

  /// An edge before the graph is laid out.
  struct Edge {
    unsigned from, to;
    Int128 cap;
  };

  /// A graph of nodes 0 .. n-1 and no edges.
  explicit MaxFlow(unsigned n) : numNodes(n) {}
  /// Adds a node and returns its number.
  unsigned addNode() { return numNodes++; }
  /// The number of nodes.
  unsigned size() const { return numNodes; }
  /// Adds an edge u -> v; non-positive capacities and loops are dropped.
  void addEdge(unsigned u, unsigned v, Int128 cap) {
    if (cap <= 0 || u == v)
      return;
    edges.push_back({u, v, cap});
  }
  /// Runs the flow from s to t (once: it consumes the edges) and returns,
  /// per node, whether it is reachable from s in the residual graph: the
  /// source side of the minimum cut with the least source side.
  std::vector<bool> minCutSourceSide(unsigned s, unsigned t);

private:
  unsigned numNodes;
  std::vector<Edge> edges;
};

} // namespace fuel::plan::detail

#endif // FUEL_LIB_PLANNER_MAXFLOW_H
