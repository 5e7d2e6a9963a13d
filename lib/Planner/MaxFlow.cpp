//===- MaxFlow.cpp - Maximum flow and minimum cut (Dinic) -----------------===//
//
// Dinic's algorithm, iterative: breadth-first levels from the source, then
// blocking flows along level-increasing arcs, until the sink is unreachable
// in the residual graph. It terminates with a maximum flow, and the nodes
// still reachable from the source form the source side of a minimum cut
// (max-flow/min-cut theorem); among all minimum cuts that side is the least,
// since every minimum cut's source side contains it. So the cut is unique
// given the graph, whatever order the arcs are visited in, and the solvers
// built on it are deterministic.
//
// Capacities are exact 128-bit integers. When what leaves the source, or
// what enters the sink, sums to less than 2^61, no flow exceeds that bound:
// the flow then runs in 64-bit integers with every larger capacity (the
// unbounded ones included) lowered to the bound plus one, which no flow can
// fill, so the same cut is found in half the memory.
//
//===----------------------------------------------------------------------===//

#include "MaxFlow.h"

#include <algorithm>

namespace fuel::plan::detail {

namespace {

using Wide = Int128;
using Edge = MaxFlow::Edge;
constexpr Wide kInf = MaxFlow::kUnbounded;

/// The residual graph of Dinic's algorithm in compressed rows (each node's
/// arcs in insertion order, every edge with its reverse arc), with
/// capacities of type Cap; each phase's breadth-first search stops at the
/// sink's level.
template <typename Cap> class FlowGraph {
public:
  /// `inf` replaces capacities of `inf` or more.
  FlowGraph(unsigned numNodes, const std::vector<Edge> &edges, Cap inf)
      : numNodes(numNodes) {
    first.assign(numNodes + 1, 0);
    for (const Edge &e : edges) {
      ++first[e.from + 1];
      ++first[e.to + 1];
    }
    for (unsigned u = 0; u < numNodes; ++u)
      first[u + 1] += first[u];
    size_t numArcs = first[numNodes];
    to.assign(numArcs, 0);
    rev.assign(numArcs, 0);
    cap.assign(numArcs, 0);
    std::vector<unsigned> next(first.begin(), first.end() - 1);
    for (const Edge &e : edges) {
      unsigned a = next[e.from]++, b = next[e.to]++;
      to[a] = e.to;
      cap[a] = e.cap >= Wide(inf) ? inf : Cap(e.cap);
      rev[a] = b;
      to[b] = e.from;
      rev[b] = a;
    }
  }

  void run(unsigned s, unsigned t) {
    while (bfs(s, t))
      blockingFlow(s, t);
  }

  /// After run(): true for the nodes reachable from s in the residual
  /// graph (the source side of the minimum cut with the least source side).
  std::vector<bool> sourceSide(unsigned s) const {
    std::vector<bool> seen(numNodes, false);
    std::vector<unsigned> queue{s};
    seen[s] = true;
    for (size_t i = 0; i < queue.size(); ++i)
      for (unsigned e = first[queue[i]], end = first[queue[i] + 1]; e < end;
           ++e)
        if (cap[e] > 0 && !seen[to[e]]) {
          seen[to[e]] = true;
          queue.push_back(to[e]);
        }
    return seen;
  }

private:
  unsigned numNodes;
  /// Arcs of node u: [first[u], first[u+1]); rev[e] is e's reverse arc.
  std::vector<unsigned> first, to, rev;
  std::vector<Cap> cap;
  std::vector<int> level;
  std::vector<unsigned> it, queue, path;

  bool bfs(unsigned s, unsigned t) {
    level.assign(numNodes, -1);
    queue.clear();
    queue.push_back(s);
    level[s] = 0;
    for (size_t i = 0; i < queue.size(); ++i) {
      unsigned u = queue[i];
      // Nodes at the sink's level or beyond cannot lie on a shortest path.
      if (level[t] >= 0 && level[u] >= level[t])
        break;
      for (unsigned e = first[u], end = first[u + 1]; e < end; ++e)
        if (cap[e] > 0 && level[to[e]] < 0) {
          level[to[e]] = level[u] + 1;
          queue.push_back(to[e]);
        }
    }
    return level[t] >= 0;
  }

  void blockingFlow(unsigned s, unsigned t) {
    it.assign(first.begin(), first.end() - 1);
    path.clear();
    unsigned u = s;
    while (true) {
      if (u == t) {
        Cap f = cap[path.front()];
        for (unsigned e : path)
          f = std::min(f, cap[e]);
        for (unsigned e : path) {
          cap[e] -= f;
          cap[rev[e]] += f;
        }
        size_t k = 0;
        while (cap[path[k]] > 0)
          ++k;
        u = to[rev[path[k]]];
        path.resize(k);
        continue;
      }
      unsigned end = first[u + 1];
      while (it[u] < end) {
        unsigned e = it[u];
        if (cap[e] > 0 && level[to[e]] == level[u] + 1)
          break;
        ++it[u];
      }
      if (it[u] == end) {
        if (u == s)
          break;
        level[u] = -1;
        unsigned e = path.back();
        path.pop_back();
        u = to[rev[e]];
        ++it[u];
        continue;
      }
      unsigned e = it[u];
      path.push_back(e);
      u = to[e];
    }
  }
};

} // namespace

std::vector<bool> MaxFlow::minCutSourceSide(unsigned s, unsigned t) {
  // No flow exceeds what leaves s or what enters t.
  Wide out = 0, in = 0;
  auto add = [](Wide a, Wide b) {
    return b >= kInf || a + b >= kInf ? kInf : a + b;
  };
  for (const Edge &e : edges) {
    if (e.from == s)
      out = add(out, e.cap);
    if (e.to == t)
      in = add(in, e.cap);
  }
  Wide bound = std::min(out, in);
  if (bound < (Wide(1) << 61)) {
    FlowGraph<int64_t> g(numNodes, edges, int64_t(bound) + 1);
    edges = {};
    g.run(s, t);
    return g.sourceSide(s);
  }
  FlowGraph<Wide> g(numNodes, edges, kInf);
  edges = {};
  g.run(s, t);
  return g.sourceSide(s);
}

} // namespace fuel::plan::detail
