//===- PlacementSearch.cpp - Auto's local search and brute force ----------===//
//
// The searching solvers of SEMANTICS §5.
//
// Brute force is exact: it enumerates every plan of the free nodes (at most
// kBruteForceMaxFreeNodes), pruning only branches whose settled terms plus
// a lower bound on the rest exceed the best objective found.
//
// Auto's search is not exact and has no proven bound; what it guarantees
// is by construction. Each start (greedy, the tree DP, every single-device
// plan) is improved only by moves the exact objective accepts, and the best
// result wins, so auto is never worse than greedy, the tree DP or any
// single-device plan. The moves are single-node moves (a plan no single
// move improves is reached on every start) and α-expansions toward each
// device on a surrogate (PlacementCut.cpp), whose rejected proposals are
// split into the smaller group moves they contain. What that leaves from
// the optimum is measured, not proven: bench/placement-gap compares auto
// with brute force on random three-device functions and on functions built
// to need group moves (docs/PERFORMANCE.md has the figures).
//
//===----------------------------------------------------------------------===//

#include "PlacementModel.h"

#include <algorithm>
#include <limits>

namespace fuel::plan::detail {

/// Per node, a bound on how much the terms other than its own time can
/// change when it moves, whatever the other nodes do: the sum, over the
/// values it reads or produces, of the most that value's copy set can cost
/// (from any source to every device). A node whose own time rises by more
/// than this when it moves never gains by moving, alone or together with
/// others. Empty (no bound) when the problem has coupling terms.
std::vector<Wide> moveRanges(const Model &m) {
  if (m.coupling)
    return {};
  uint64_t all =
      m.numDevices == 64 ? ~uint64_t(0) : (uint64_t(1) << m.numDevices) - 1;
  std::vector<Wide> valueRange(m.vals.size(), 0);
  for (size_t i = 0; i < m.vals.size(); ++i)
    for (unsigned src = 0; src < m.numDevices; ++src)
      valueRange[i] = std::max(valueRange[i], m.copyCost(m.vals[i], src, all));
  std::vector<Wide> range(m.numNodes, 0);
  for (unsigned k = 0; k < m.numNodes; ++k) {
    for (unsigned vi : m.inVals[k])
      range[k] = wadd(range[k], valueRange[vi]);
    for (unsigned vi : m.outVals[k])
      range[k] = wadd(range[k], valueRange[vi]);
  }
  return range;
}

/// Functions with at most this many nodes have every start of auto
/// improved, and every expansion move covers the whole function; larger
/// ones improve only the best start, under the bounds of improve().
constexpr unsigned kImproveEveryStartUpTo = 2000;

/// For functions above kImproveEveryStartUpTo nodes: the cut variables of
/// all expansion moves together are at most this many per (node, device).
constexpr uint64_t kExpansionVarsPerNodeDevice = 4;

/// How far (in shared values) the region of a repeated expansion move
/// reaches around the nodes that changed since the previous one.
constexpr unsigned kExpansionRegionHops = 2;

namespace {

/// Prices moving a group of nodes together exactly and locally: the terms
/// of the objective that involve a node of the group (times, the copy sets
/// of the values they read or produce, the coupling terms they own or are
/// named by), before and after.
class GroupPricer {
public:
  explicit GroupPricer(const Model &m)
      : m(m), inGroup(m.numNodes, 0), valSeen(m.vals.size(), 0) {}

  /// Objective change of moving every node of `group` to `d` (each admits
  /// it and none is on it).
  Wide delta(llvm::ArrayRef<unsigned> group, unsigned d, Plan &plan) {
    for (unsigned k : group)
      inGroup[k] = 1;
    ++stamp;
    values.clear();
    for (unsigned k : group) {
      for (unsigned vi : m.inVals[k])
        if (valSeen[vi] != stamp) {
          valSeen[vi] = stamp;
          values.push_back(vi);
        }
      for (unsigned vi : m.outVals[k])
        if (valSeen[vi] != stamp) {
          valSeen[vi] = stamp;
          values.push_back(vi);
        }
    }
    Wide before = part(group, plan);
    saved.clear();
    for (unsigned k : group) {
      saved.push_back(plan[k]);
      plan[k] = d;
    }
    Wide after = part(group, plan);
    for (size_t i = 0; i < group.size(); ++i)
      plan[group[i]] = saved[i];
    for (unsigned k : group)
      inGroup[k] = 0;
    return after - before;
  }

private:
  const Model &m;
  std::vector<uint8_t> inGroup;
  std::vector<uint64_t> valSeen;
  uint64_t stamp = 0;
  std::vector<unsigned> values, saved;

  Wide part(llvm::ArrayRef<unsigned> group, llvm::ArrayRef<unsigned> plan) {
    Wide sum = 0;
    for (unsigned k : group) {
      sum += m.t(k, plan[k]);
      for (const Adj &a : m.adj(k, plan[k]))
        if ((a.matchMask >> plan[a.other]) & 1)
          sum += a.delta;
      // Terms owned by nodes outside the group that name k (those owned
      // inside were counted above).
      for (const RevAdj &r : m.revAdj(k))
        if (!inGroup[r.node] && plan[r.node] == r.dev &&
            ((m.adj(r.node, r.dev)[r.k].matchMask >> plan[k]) & 1))
          sum += m.adj(r.node, r.dev)[r.k].delta;
    }
    for (unsigned vi : values) {
      const Val &v = m.vals[vi];
      sum += m.copyCost(v, m.sourceOf(v, plan), m.targetsOf(v, plan));
    }
    return sum;
  }
};

} // namespace

/// Local improvement: best single-node moves and α-expansions, each
/// accepted only when the exact objective strictly decreases. An expansion
/// the exact objective rejects is not dropped whole: the sub-moves it
/// contains are tried, each alone and exactly priced (GroupPricer) — first
/// its connected parts (moved nodes linked by a shared value or a coupling
/// term), then, inside a rejected part, the moved nodes of each value it
/// touches (a producer and its readers, or the readers of one value) — and
/// every one that decreases the objective is kept, in node order.
///
/// Cost and scaling rule. A sweep examines only the nodes whose
/// neighbourhood (the nodes sharing a value or a coupling term with them)
/// changed since they were last examined — exactly the nodes that may now
/// have an improving move, so the result equals that of full sweeps — and
/// prices each move locally (Model::moveDelta: the node's time, its
/// coupling terms and the copy sets of the values it reads or produces).
/// An expansion toward `d` is skipped when nothing changed since the last
/// one toward `d`, and leaves out the nodes that cannot gain by moving
/// (moveRanges). In functions of at most kImproveEveryStartUpTo nodes
/// every expansion covers the whole function. In larger ones the first
/// expansion toward each device covers the whole function, later ones only
/// the nodes within kExpansionRegionHops values of a node that changed
/// since the previous expansion toward that device, and expansions stop
/// once their cut variables reach kExpansionVarsPerNodeDevice · n · D in
/// all; sweeps go on until no single move improves (at most 64 rounds). So
/// for large functions the work is a few max-flow computations over
/// O(n + reads) edges plus linear sweeps.
void improve(const Model &m, Plan &plan, llvm::ArrayRef<Wide> range) {
  unsigned N = m.numNodes, D = m.numDevices;
  bool large = N > kImproveEveryStartUpTo;
  uint64_t budget = large ? kExpansionVarsPerNodeDevice * uint64_t(N) * D
                          : std::numeric_limits<uint64_t>::max();
  uint64_t varsUsed = 0;
  Wide current = m.total(plan);

  // The nodes whose moves can change node k's move deltas.
  auto forNeighbours = [&](unsigned k, auto &&fn) {
    for (unsigned vi : m.inVals[k]) {
      const Val &v = m.vals[vi];
      if (v.producer >= 0)
        fn(unsigned(v.producer));
      for (unsigned c : v.consumers)
        fn(c);
    }
    for (unsigned vi : m.outVals[k])
      for (unsigned c : m.vals[vi].consumers)
        fn(c);
    if (m.coupling) {
      for (unsigned d = 0; d < D; ++d)
        for (const Adj &a : m.adj(k, d))
          fn(a.other);
      for (const RevAdj &r : m.revAdj(k))
        fn(r.node);
    }
  };

  // Change tracking: version counts accepted node moves; changedAt[k] is
  // the version of k's last move, lastRun[d] the version right after the
  // last expansion toward d (0: none yet).
  std::vector<uint8_t> dirty(N, 1);
  uint64_t version = 1;
  std::vector<uint64_t> changedAt(N, 1), lastRun(D, 0);
  auto moved = [&](unsigned k) {
    changedAt[k] = ++version;
    dirty[k] = 1;
    forNeighbours(k, [&](unsigned j) { dirty[j] = 1; });
  };
  std::vector<uint8_t> region;
  std::vector<unsigned> frontier, nextFrontier;

  // Sub-moves of a rejected expansion toward d: `next` differs from `plan`
  // on the nodes it moves to d. Returns true when one was kept.
  GroupPricer pricer(m);
  std::vector<uint8_t> inMove(N, 0), done(N, 0);
  std::vector<unsigned> movedNodes, part, partNodes, around, group;
  auto tryGroup = [&](llvm::ArrayRef<unsigned> g, unsigned d) {
    group.clear();
    for (unsigned k : g)
      if (plan[k] != d)
        group.push_back(k);
    if (group.empty())
      return false;
    Wide delta = pricer.delta(group, d, plan);
    if (delta >= 0)
      return false;
    for (unsigned k : group) {
      plan[k] = d;
      moved(k);
    }
    current += delta;
    return true;
  };
  auto trySubMoves = [&](const Plan &next, unsigned d) {
    movedNodes.clear();
    for (unsigned k = 0; k < N; ++k)
      if (next[k] != plan[k]) {
        movedNodes.push_back(k);
        inMove[k] = 1;
      }
    bool kept = false;
    if (movedNodes.size() > 1) {
      for (unsigned start : movedNodes) {
        if (done[start])
          continue;
        // One connected part of the move, in node order.
        part.assign(1, start);
        done[start] = 1;
        for (size_t i = 0; i < part.size(); ++i)
          forNeighbours(part[i], [&](unsigned j) {
            if (inMove[j] && !done[j]) {
              done[j] = 1;
              part.push_back(j);
            }
          });
        std::sort(part.begin(), part.end());
        if (tryGroup(part, d)) {
          kept = true;
          continue;
        }
        if (part.size() < 3)
          continue;
        // The moved nodes around each value the part touches.
        partNodes = part;
        for (unsigned k : partNodes)
          for (unsigned side = 0; side < 2; ++side)
            for (unsigned vi : side ? m.outVals[k] : m.inVals[k]) {
              const Val &v = m.vals[vi];
              around.clear();
              if (v.producer >= 0 && inMove[unsigned(v.producer)])
                around.push_back(unsigned(v.producer));
              for (unsigned c : v.consumers)
                if (inMove[c])
                  around.push_back(c);
              if (around.size() > 1 && around.size() < partNodes.size() &&
                  around.front() == k)
                kept |= tryGroup(around, d);
            }
      }
    }
    for (unsigned k : movedNodes)
      inMove[k] = done[k] = 0;
    return kept;
  };

  for (unsigned round = 0; round < 64; ++round) {
    bool improved = false;
    // Best single-node moves, for the nodes whose neighbourhood changed.
    for (unsigned k = 0; k < N; ++k) {
      if (!dirty[k])
        continue;
      dirty[k] = 0;
      Wide bestDelta = 0;
      unsigned bestDev = plan[k];
      for (unsigned d : m.pref[k]) {
        if (d == plan[k])
          continue;
        Wide delta = m.moveDelta(k, d, plan);
        if (delta < bestDelta) {
          bestDelta = delta;
          bestDev = d;
        }
      }
      if (bestDev != plan[k]) {
        plan[k] = bestDev;
        current += bestDelta;
        improved = true;
        moved(k);
      }
    }
    // One expansion toward each device.
    for (unsigned d = 0; d < D; ++d) {
      if (lastRun[d] == version || varsUsed >= budget)
        continue;
      const std::vector<uint8_t> *within = nullptr;
      if (large && lastRun[d] != 0) {
        region.assign(N, 0);
        frontier.clear();
        for (unsigned k = 0; k < N; ++k)
          if (changedAt[k] > lastRun[d]) {
            region[k] = 1;
            frontier.push_back(k);
          }
        for (unsigned hop = 0; hop < kExpansionRegionHops; ++hop) {
          nextFrontier.clear();
          for (unsigned k : frontier)
            forNeighbours(k, [&](unsigned j) {
              if (!region[j]) {
                region[j] = 1;
                nextFrontier.push_back(j);
              }
            });
          frontier.swap(nextFrontier);
        }
        within = &region;
      }
      Plan next = expansionMove(m, plan, d, range, within, varsUsed);
      uint64_t before = version;
      if (next != plan) {
        Wide total = m.total(next);
        if (total < current) {
          for (unsigned k = 0; k < N; ++k)
            if (next[k] != plan[k]) {
              plan[k] = next[k];
              moved(k);
            }
          current = total;
          improved = true;
        } else if (trySubMoves(next, d)) {
          // The plan changed under a proposal built for the old one: let
          // the next round propose toward d again.
          improved = true;
          lastRun[d] = before;
          continue;
        }
      }
      lastRun[d] = version;
    }
    if (!improved)
      break;
  }
}

/// Exhaustive search with a lower bound: returns, among the plans of least
/// objective, the least in (node id, device order) — compared node by node
/// in ascending id, each node's devices ranked decision device first, then
/// device order (SEMANTICS §5). Exact by construction: a branch is cut only
/// when its settled terms plus a lower bound of the rest already exceed the
/// best objective found (equal ones are still explored, for the tie order).
Plan solveBruteForce(const Model &m, const Plan &seed) {
  unsigned N = m.numNodes;
  // Values (and the constant ones) are priced at the last node they touch.
  std::vector<std::vector<unsigned>> completeAt(N);
  Wide constant = 0;
  for (size_t i = 0; i < m.vals.size(); ++i) {
    const Val &v = m.vals[i];
    int last = v.producer;
    for (unsigned c : v.consumers)
      last = std::max(last, int(c));
    if (last < 0)
      constant += m.copyCost(v, v.source, v.fixedMask);
    else
      completeAt[unsigned(last)].push_back(unsigned(i));
  }
  // Lower bound of what nodes k.. add: least time plus negative deltas.
  std::vector<Wide> suffix(N + 1, 0);
  for (unsigned k = N; k-- > 0;) {
    Wide best = kWideInf;
    for (unsigned d : m.pref[k]) {
      Wide c = m.t(k, d);
      for (const Adj &a : m.adj(k, d))
        c += std::min<int64_t>(a.delta, 0);
      best = std::min(best, c);
    }
    suffix[k] = suffix[k + 1] + best;
  }
  // The tie order: nodes by id, each node's devices by rank in m.pref
  // (decision device first, then device order).
  std::vector<unsigned> byId(N);
  for (unsigned k = 0; k < N; ++k)
    byId[k] = k;
  std::sort(byId.begin(), byId.end(), [&](unsigned a, unsigned b) {
    return m.problem.nodes[a].id < m.problem.nodes[b].id;
  });
  std::vector<unsigned> rank(size_t(N) * m.numDevices, 0);
  for (unsigned k = 0; k < N; ++k)
    for (unsigned i = 0; i < m.pref[k].size(); ++i)
      rank[size_t(k) * m.numDevices + m.pref[k][i]] = i;
  auto tieLess = [&](const Plan &a, const Plan &b) {
    for (unsigned k : byId)
      if (a[k] != b[k])
        return rank[size_t(k) * m.numDevices + a[k]] <
               rank[size_t(k) * m.numDevices + b[k]];
    return false;
  };
  Plan plan(N, 0), best = seed;
  Wide bestTotal = m.total(seed);
  bool found = false;

  // real: exact terms settled so far; pending: the negative parts of
  // coupling terms of placed nodes that name nodes not yet placed.
  auto rec = [&](auto &&self, unsigned k, Wide real, Wide pending) -> void {
    if (k == N) {
      if (real < bestTotal ||
          (real == bestTotal && (!found || tieLess(plan, best)))) {
        bestTotal = real;
        best = plan;
        found = true;
      }
      return;
    }
    for (unsigned d : m.pref[k]) {
      plan[k] = d;
      Wide r = real + m.t(k, d), pend = pending;
      for (const Adj &a : m.adj(k, d)) {
        if (a.other <= k) {
          if ((a.matchMask >> plan[a.other]) & 1)
            r += a.delta;
        } else {
          pend += std::min<int64_t>(a.delta, 0);
        }
      }
      for (const RevAdj &ra : m.revAdj(k)) {
        if (ra.node > k || plan[ra.node] != ra.dev)
          continue;
        const Adj &a = m.adj(ra.node, ra.dev)[ra.k];
        pend -= std::min<int64_t>(a.delta, 0);
        if ((a.matchMask >> d) & 1)
          r += a.delta;
      }
      if (r + pend + suffix[k + 1] > bestTotal)
        continue;
      for (unsigned vi : completeAt[k]) {
        const Val &v = m.vals[vi];
        r += m.copyCost(v, m.sourceOf(v, plan), m.targetsOf(v, plan));
      }
      if (r + pend + suffix[k + 1] > bestTotal)
        continue;
      self(self, k + 1, r, pend);
    }
  };
  rec(rec, 0, constant, 0);
  return best;
}

/// Auto's search (SEMANTICS §5) when no exact solver applies.
Plan searchAuto(const Model &m) {
  Plan plan;
  // Start from greedy, the tree DP and every single-device plan, and
  // improve each by moves (SEMANTICS §5).
  std::vector<Plan> starts{solveGreedy(m), solveTree(m)};
  for (unsigned d = 0; d < m.numDevices; ++d) {
    Plan p(m.numNodes);
    for (unsigned k = 0; k < m.numNodes; ++k)
      p[k] = m.admits(k, d) ? d : m.pref[k].front();
    starts.push_back(std::move(p));
  }
  // In functions whose starts are all improved, also one two-device start
  // per pair a < b: from the single-device plan on a, one expansion toward
  // b. With the nodes on a or b the surrogate overcharges only host hops
  // shared by several targets (PlacementCut.cpp), so this is close to the
  // best plan between a and b: a group move the searches from the other
  // starts may not reach one step at a time.
  bool improveAll = m.numNodes <= kImproveEveryStartUpTo;
  if (improveAll) {
    std::vector<Wide> noRange;
    uint64_t vars = 0;
    for (unsigned a = 0; a < m.numDevices; ++a)
      for (unsigned b = a + 1; b < m.numDevices; ++b)
        starts.push_back(
            expansionMove(m, starts[2 + a], b, noRange, nullptr, vars));
  }
  // Each start is improved and the best result wins (earlier on ties),
  // so the answer is never worse than the best start. Functions above
  // kImproveEveryStartUpTo nodes improve only the best start, under the
  // bounds improve() documents.
  std::vector<Wide> range = moveRanges(m);
  Wide best = 0;
  for (size_t i = 0; i < starts.size(); ++i) {
    if (improveAll)
      improve(m, starts[i], range);
    Wide total = m.total(starts[i]);
    if (i == 0 || total < best) {
      best = total;
      plan = starts[i];
    }
  }
  if (!improveAll)
    improve(m, plan, range);
  return plan;
}

} // namespace fuel::plan::detail
