//===- PlacementTree.cpp - Greedy and the tree DP -------------------------===//
//
// The two one-pass solvers of SEMANTICS §5, both in node order and
// O((n + r) · D²) for n nodes, r reads and D devices.
//
// Greedy is a heuristic with no bound: each node takes the device that is
// cheapest given the earlier nodes' choices, counting a copy already made
// for an earlier reader as free. It is the fair baseline auto must never
// lose to.
//
// The tree DP is exact on an in-forest without coupling terms
// (PlacementProblem::isInForest): there every value has at most one
// reader and every node at most one consumed result, so the objective is a
// sum of per-node times and per-edge copy costs over a forest whose edges
// point to the root, and cost[k][d] = t(k, d) + Σ over operands of the
// cheapest (cost[p][dp] + path(dp → d)) is the least cost of k's subtree
// with k on d. Values read only by fixed consumers (returns, host ops) are
// priced exactly in their producer's table. On other graphs a value read
// twice is priced once per reader and a shared subgraph once per path to
// it, so the DP can overcharge plans that share copies; it is then only a
// start for auto's search.
//
//===----------------------------------------------------------------------===//

#include "PlacementModel.h"

namespace fuel::plan::detail {

/// Greedy (SEMANTICS §5): nodes in order, each on the device minimising its
/// own time, the copies it newly causes, the copies of its results to their
/// fixed consumers and the coupling terms it settles.
Plan solveGreedy(const Model &m) {
  Plan plan(m.numNodes, 0);
  std::vector<uint64_t> mask(m.vals.size());
  for (size_t i = 0; i < m.vals.size(); ++i)
    mask[i] = m.vals[i].fixedMask;
  for (unsigned k = 0; k < m.numNodes; ++k) {
    Wide best = 0;
    bool have = false;
    for (unsigned d : m.pref[k]) {
      Wide c = m.t(k, d);
      for (unsigned vi : m.inVals[k]) {
        const Val &v = m.vals[vi];
        unsigned src = m.sourceOf(v, plan);
        c += m.copyCost(v, src, mask[vi] | (uint64_t(1) << d)) -
             m.copyCost(v, src, mask[vi]);
      }
      for (unsigned vi : m.outVals[k])
        c += m.copyCost(m.vals[vi], d, m.vals[vi].fixedMask);
      for (const Adj &a : m.adj(k, d))
        if (a.other <= k &&
            ((a.matchMask >> (a.other == k ? d : plan[a.other])) & 1))
          c += a.delta;
      for (const RevAdj &r : m.revAdj(k))
        if (r.node < k && plan[r.node] == r.dev &&
            ((m.adj(r.node, r.dev)[r.k].matchMask >> d) & 1))
          c += m.adj(r.node, r.dev)[r.k].delta;
      if (!have || c < best) {
        best = c;
        plan[k] = d;
        have = true;
      }
    }
    for (unsigned vi : m.inVals[k])
      mask[vi] |= uint64_t(1) << plan[k];
  }
  return plan;
}

/// The tree DP (SEMANTICS §5) in O(n·D²), ignoring coupling terms: each
/// node's cost table adds, per operand, the cheapest way to bring it from
/// its producer's table (or fixed source); values read only by fixed
/// consumers are priced exactly, every other (value, consumer) edge
/// separately.
Plan solveTree(const Model &m) {
  unsigned D = m.numDevices;
  // The edge a node's device is chosen through: its first reading node.
  std::vector<int> parent(m.numNodes, -1), parentVal(m.numNodes, -1);
  for (unsigned k = 0; k < m.numNodes; ++k)
    for (unsigned vi : m.outVals[k])
      for (unsigned c : m.vals[vi].consumers)
        if (parent[k] < 0 || int(c) < parent[k]) {
          parent[k] = int(c);
          parentVal[k] = int(vi);
        }
  std::vector<Wide> cost(size_t(m.numNodes) * D, kWideInf);
  std::vector<unsigned> choice(size_t(m.numNodes) * D, 0);
  for (unsigned k = 0; k < m.numNodes; ++k) {
    for (unsigned d : m.pref[k]) {
      Wide c = m.t(k, d);
      for (unsigned vi : m.outVals[k]) {
        const Val &v = m.vals[vi];
        if (v.consumers.empty()) {
          c = wadd(c, m.copyCost(v, d, v.fixedMask));
          continue;
        }
        for (uint64_t f = v.fixedMask; f; f &= f - 1)
          c = wadd(c, m.pathCost(v, d, unsigned(llvm::countr_zero(f))));
      }
      for (unsigned vi : m.inVals[k]) {
        const Val &v = m.vals[vi];
        if (v.producer < 0) {
          c = wadd(c, m.pathCost(v, v.source, d));
          continue;
        }
        unsigned p = unsigned(v.producer);
        Wide best = kWideInf;
        unsigned arg = m.pref[p].front();
        for (unsigned dp : m.pref[p]) {
          Wide e = wadd(cost[p * D + dp], m.pathCost(v, dp, d));
          if (e < best) {
            best = e;
            arg = dp;
          }
        }
        if (parent[p] == int(k) && parentVal[p] == int(vi))
          choice[p * D + d] = arg;
        c = wadd(c, best);
      }
      cost[k * D + d] = c;
    }
  }
  Plan plan(m.numNodes, 0);
  for (unsigned k = m.numNodes; k-- > 0;) {
    if (parent[k] >= 0) {
      plan[k] = choice[k * D + plan[parent[k]]];
      continue;
    }
    Wide best = kWideInf;
    plan[k] = m.pref[k].front();
    for (unsigned d : m.pref[k])
      if (cost[k * D + d] < best) {
        best = cost[k * D + d];
        plan[k] = d;
      }
  }
  return plan;
}

} // namespace fuel::plan::detail
