//===- PlacementCut.cpp - Cut-based placement solvers ---------------------===//
//
// The solvers of SEMANTICS §5 that label nodes by one minimum cut
// (MaxFlow.h): the two-device `mincut` and auto's α-expansion move.
//
// Why `mincut` is exact. With two devices a < b, a plan is a binary
// labelling (label 0 = a = source side). Node times are unary terms. For a
// value v with producer p and readers R, the copy set cost depends only on
// p's label and on whether some reader is on the other side: cost =
// base(p) + [p on a ∧ ∃ r ∈ R on b] · (copy toward b) + [p on b ∧ ∃ r on a]
// · (copy toward a). Each bracket is one auxiliary node w joined to the
// readers by unbounded edges — "any reader on b forces w to b", so the
// copy is cut once per (value, direction) however many readers share it.
// For a value with a fixed source the same holds with terminals in place
// of p; returns and host reads are constants inside base(). Every term is
// submodular, so the minimum cut is the minimum objective, exactly. Ties:
// each free node carries a tie-break of weight 1 against leaving its
// decision device, and real costs are scaled by n + 1 so that all
// tie-breaks together never outweigh one nanosecond.
//
// How far α-expansion is from exact. A move toward d lets every node keep
// its device or go to d; the objective restricted to that choice is not
// submodular in general (copies shared across several kept devices, a host
// hop shared by staged targets, couplings), so the cut minimises a
// surrogate that is never lower than the objective and may overcharge
// every plan, the current one included. The proposal is therefore only a
// proposal: PlacementSearch.cpp accepts it when the exact objective
// decreases, and otherwise tries the smaller moves it contains.
//
//===----------------------------------------------------------------------===//

#include "MaxFlow.h"
#include "PlacementModel.h"

#include <algorithm>

namespace fuel::plan::detail {

static_assert(kWideInf == MaxFlow::kUnbounded,
              "the solvers' infinity is the flow's unbounded capacity");

namespace {

/// A binary labelling problem solved by one minimum cut: label 0 is the
/// source side, label 1 the sink side. Costs are scaled by `scale` so that
/// tie-break preferences of weight 1 per variable never override a real
/// difference.
class BinaryCut {
public:
  /// `numVars` variables; every cost is multiplied by `scale`.
  BinaryCut(unsigned numVars, Wide scale)
      : flow(numVars + 2), numVars(numVars), scale(scale) {}
  /// The terminals' graph nodes.
  static constexpr unsigned kSource = 0, kSink = 1;
  /// The graph node of variable i.
  unsigned var(unsigned i) const { return i + 2; }
  /// A new auxiliary graph node.
  unsigned addAux() { return flow.addNode(); }

  /// Cost c0 when var i takes label 0, c1 for label 1 (kWideInf forbids).
  void addUnary(unsigned i, Wide c0, Wide c1) {
    Wide s0 = c0 >= kWideInf ? kWideInf : c0 * scale;
    Wide s1 = c1 >= kWideInf ? kWideInf : c1 * scale;
    addNodeUnary(var(i), s0, s1);
  }
  /// A preference of weight 1 (unscaled) against label `label` of var i.
  void addTieBreak(unsigned i, unsigned label) {
    addNodeUnary(var(i), label == 0 ? 1 : 0, label == 1 ? 1 : 0);
  }
  /// E(li, lj) as a table; a non-submodular table is made submodular by
  /// dropping its negative interaction (a surrogate).
  void addPairwise(unsigned i, unsigned j, Wide e00, Wide e01, Wide e10,
                   Wide e11) {
    addNodePairwise(var(i), var(j), e00, e01, e10, e11);
  }
  /// addPairwise() on two graph nodes (variables or aux nodes): the side of
  /// node u is its label.
  void addNodePairwise(unsigned u, unsigned v, Wide e00, Wide e01, Wide e10,
                       Wide e11) {
    // E = e00 + (e10-e00) lu + (e11-e10) lv + (e01+e10-e00-e11)(1-lu) lv.
    addNodeUnary(u, 0, (e10 - e00) * scale);
    addNodeUnary(v, 0, (e11 - e10) * scale);
    Wide lambda = e01 + e10 - e00 - e11;
    if (lambda > 0)
      flow.addEdge(u, v, lambda * scale);
  }
  /// Cost c when node u is on the source side and node v on the sink side
  /// (graph nodes: var(i), aux nodes, kSource, kSink).
  void addCut(unsigned u, unsigned v, Wide c) {
    flow.addEdge(u, v, c >= kWideInf ? kWideInf : c * scale);
  }
  /// Solves; label[i] is true for label 1.
  std::vector<bool> solve() {
    std::vector<bool> side = flow.minCutSourceSide(kSource, kSink);
    std::vector<bool> label(numVars);
    for (unsigned i = 0; i < numVars; ++i)
      label[i] = !side[var(i)];
    return label;
  }

  /// Scaled cost s0 when graph node u is on the source side, s1 on the
  /// sink side; only the difference matters to the cut.
  void addNodeUnary(unsigned u, Wide s0, Wide s1) {
    Wide m = std::min(s0, s1);
    if (m >= kWideInf)
      m = 0;
    s0 -= s0 >= kWideInf ? 0 : m;
    s1 -= s1 >= kWideInf ? 0 : m;
    flow.addEdge(u, kSink, s0); // paid when u is on the source side
    flow.addEdge(kSource, u, s1);
  }

private:
  MaxFlow flow;
  unsigned numVars;
  Wide scale;
};

} // namespace

/// The s-t cut for two devices a < b (SEMANTICS §5): exact on any DAG
/// without coupling terms whose nodes admit only a and b (see the file
/// header). Ties prefer each node's decision device, then a.
Plan solveMinCut(const Model &m, unsigned a, unsigned b) {
  unsigned N = m.numNodes;
  BinaryCut cut(N, Wide(N) + 1);
  uint64_t bitA = uint64_t(1) << a, bitB = uint64_t(1) << b;
  for (unsigned k = 0; k < N; ++k) {
    cut.addUnary(k, m.admits(k, a) ? Wide(m.t(k, a)) : kWideInf,
                 m.admits(k, b) ? Wide(m.t(k, b)) : kWideInf);
    if (m.admits(k, a) && m.admits(k, b))
      cut.addTieBreak(k, m.pref[k].front() == a ? 1 : 0);
  }
  for (const Val &v : m.vals) {
    uint64_t F = v.fixedMask;
    if (v.producer >= 0) {
      unsigned p = unsigned(v.producer);
      Wide baseA = m.copyCost(v, a, F), baseB = m.copyCost(v, b, F);
      cut.addUnary(p, baseA, baseB);
      if (v.consumers.empty())
        continue;
      // p on a and some reader on b.
      Wide toB = m.copyCost(v, a, F | bitB) - baseA;
      if (toB > 0) {
        unsigned w = cut.addAux();
        cut.addCut(cut.var(p), w, toB);
        for (unsigned c : v.consumers)
          cut.addCut(w, cut.var(c), kWideInf);
      }
      // p on b and some reader on a.
      Wide toA = m.copyCost(v, b, F | bitA) - baseB;
      if (toA > 0) {
        unsigned u = cut.addAux();
        cut.addCut(u, cut.var(p), toA);
        for (unsigned c : v.consumers)
          cut.addCut(cut.var(c), u, kWideInf);
      }
      continue;
    }
    if (v.consumers.empty())
      continue;
    // A fixed source read by at least one node: with g10 (readers only on
    // a), g01 (only on b), g11 (both), the cost is a constant plus
    // [some reader on a](g11 - g01) plus [some reader on b](g11 - g10).
    Wide g10 = m.copyCost(v, v.source, F | bitA);
    Wide g01 = m.copyCost(v, v.source, F | bitB);
    Wide g11 = m.copyCost(v, v.source, F | bitA | bitB);
    if (g11 - g01 > 0) {
      unsigned w = cut.addAux();
      cut.addCut(w, BinaryCut::kSink, g11 - g01);
      for (unsigned c : v.consumers)
        cut.addCut(cut.var(c), w, kWideInf);
    }
    if (g11 - g10 > 0) {
      unsigned w = cut.addAux();
      cut.addCut(BinaryCut::kSource, w, g11 - g10);
      for (unsigned c : v.consumers)
        cut.addCut(w, cut.var(c), kWideInf);
    }
  }
  std::vector<bool> label = cut.solve();
  Plan plan(N);
  for (unsigned k = 0; k < N; ++k)
    plan[k] = label[k] ? b : a;
  return plan;
}

/// One α-expansion step: every node that admits `d` may move to it or keep
/// its device; the binary choice is solved by one cut on a submodular
/// surrogate of the objective. The caller accepts the result only if the
/// exact objective decreases, and otherwise tries the sub-moves it
/// contains (PlacementSearch.cpp). Nodes outside `region` (when given) keep
/// their device, and so do nodes that cannot gain by moving (`range`, see
/// moveRanges). The number of cut variables is added to `numVarsUsed`.
///
/// The surrogate, per value v with source s and readers R:
/// - the copy toward d is paid once, through one aux node per value ("some
///   reader moves to d"), exact;
/// - the copy toward a device k that readers keep is paid once per (v, k),
///   through one aux node per (v, kept device) standing for "some reader of
///   R that is on k keeps it". With a fixed source that is exact; with a
///   moving producer p the table E(p, group) is exact when moving p makes
///   the copy to k dearer, and otherwise overcharges only the plan where p
///   keeps its device while every reader on k moves (the negative
///   interaction of a non-submodular table is dropped);
/// - copies are summed per target device, so a host hop shared by several
///   staged targets is charged to each; coupling terms that are not
///   submodular are dropped.
/// Each of these only overcharges (a copy set's marginal costs shrink as
/// targets are added), so the surrogate is never below the objective; but
/// it can overcharge the current plan too, which is why a proposal can be
/// rejected.
Plan expansionMove(const Model &m, const Plan &cur, unsigned d,
                   llvm::ArrayRef<Wide> range,
                   const std::vector<uint8_t> *region, uint64_t &numVarsUsed) {
  unsigned N = m.numNodes;
  std::vector<int> varOf(N, -1);
  unsigned numVars = 0;
  for (unsigned k = 0; k < N; ++k) {
    if (cur[k] == d || !m.admits(k, d) || (region && !(*region)[k]))
      continue;
    if (!range.empty() && Wide(m.t(k, d)) - m.t(k, cur[k]) > range[k])
      continue;
    varOf[k] = int(numVars++);
  }
  numVarsUsed += numVars;
  if (!numVars)
    return cur;
  BinaryCut cut(numVars, Wide(numVars) + 1);
  uint64_t bitD = uint64_t(1) << d;
  auto devOf = [&](unsigned k, unsigned label) { return label ? d : cur[k]; };
  for (unsigned k = 0; k < N; ++k) {
    if (varOf[k] < 0)
      continue;
    unsigned i = unsigned(varOf[k]);
    cut.addUnary(i, m.t(k, cur[k]), m.t(k, d));
    cut.addTieBreak(i, m.pref[k].front() == d ? 0 : 1);
    // Coupling terms of each label's option.
    for (unsigned label = 0; label < 2; ++label)
      for (const Adj &a : m.adj(k, devOf(k, label))) {
        unsigned o = a.other;
        auto e = [&](unsigned lk, unsigned lo) -> Wide {
          if (lk != label)
            return 0;
          unsigned od =
              o == k ? devOf(k, lk) : (varOf[o] < 0 ? cur[o] : devOf(o, lo));
          return ((a.matchMask >> od) & 1) ? Wide(a.delta) : 0;
        };
        if (o == k || varOf[o] < 0)
          cut.addUnary(i, e(0, 0), e(1, 0));
        else
          cut.addPairwise(i, unsigned(varOf[o]), e(0, 0), e(0, 1), e(1, 0),
                          e(1, 1));
      }
  }
  // The variable readers of one value grouped by the device they keep.
  std::vector<std::pair<unsigned, unsigned>> kept; // (device, reader)
  for (const Val &v : m.vals) {
    // Targets that stay wherever the labels go.
    uint64_t fixedTargets = v.fixedMask;
    kept.clear();
    for (unsigned c : v.consumers) {
      if (varOf[c] < 0)
        fixedTargets |= uint64_t(1) << cur[c];
      else
        kept.push_back({cur[c], c});
    }
    if (kept.empty() && !(v.producer >= 0 && varOf[v.producer] >= 0))
      continue;
    std::sort(kept.begin(), kept.end());
    bool srcVar = v.producer >= 0 && varOf[v.producer] >= 0;
    unsigned src = m.sourceOf(v, cur);
    unsigned pNode = srcVar ? cut.var(unsigned(varOf[v.producer])) : 0;
    Wide base0 = m.copyCost(v, src, fixedTargets);
    Wide base1 = srcVar ? m.copyCost(v, d, fixedTargets) : base0;
    if (srcVar)
      cut.addUnary(unsigned(varOf[v.producer]), base0, base1);
    // Some reader moves to d while the value stays on src: one aux node w
    // on the sink side unless a reader is, paying the copy when the source
    // side (the producer, or the source terminal) is not on d.
    if (!kept.empty() && !((fixedTargets | (uint64_t(1) << src)) & bitD)) {
      Wide c = m.copyCost(v, src, fixedTargets | bitD) - base0;
      unsigned w = cut.addAux();
      cut.addCut(srcVar ? pNode : unsigned(BinaryCut::kSource), w, c);
      for (auto [dev, r] : kept)
        cut.addCut(w, cut.var(unsigned(varOf[r])), kWideInf);
    }
    // Some reader keeps device k: one aux node y per (value, k), forced to
    // the source side (label 0) by any reader on k that keeps it.
    for (size_t g = 0; g < kept.size();) {
      unsigned k = kept[g].first;
      size_t end = g;
      while (end < kept.size() && kept[end].first == k)
        ++end;
      uint64_t bitK = uint64_t(1) << k;
      Wide a = ((fixedTargets | (uint64_t(1) << src)) & bitK)
                   ? 0
                   : m.copyCost(v, src, fixedTargets | bitK) - base0;
      Wide b = a;
      if (srcVar)
        b = (fixedTargets & bitK)
                ? 0
                : m.copyCost(v, d, fixedTargets | bitK) - base1;
      if (a > 0 || b > 0) {
        unsigned y = cut.addAux();
        for (size_t j = g; j < end; ++j)
          cut.addCut(cut.var(unsigned(varOf[kept[j].second])), y, kWideInf);
        if (srcVar)
          cut.addNodePairwise(pNode, y, a, 0, b, 0);
        else
          cut.addCut(y, BinaryCut::kSink, a);
      }
      g = end;
    }
  }
  std::vector<bool> label = cut.solve();
  Plan next = cur;
  for (unsigned k = 0; k < N; ++k)
    if (varOf[k] >= 0 && label[unsigned(varOf[k])])
      next[k] = d;
  return next;
}

} // namespace fuel::plan::detail
