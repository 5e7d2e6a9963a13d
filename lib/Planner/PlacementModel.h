//===- PlacementModel.h - The placement problem in solver form --*- C++ -*-===//
//
// Private to lib/Planner. The compiled form of a PlacementProblem that every
// solver of SEMANTICS §5 works on: devices as indices, admitted devices as
// bit masks, hop costs cached per value, adjacency in flat arrays, and the
// exact objective in 128-bit integers (no saturation, so solvers compare
// plans exactly; every result is priced again by evaluate()). It also
// declares the solvers, one file per job:
//
//   PlacementTree.cpp    greedy and the tree DP
//   PlacementCut.cpp     the two-device min cut and the α-expansion move
//   PlacementSearch.cpp  auto's local search and brute force
//   MaxFlow.h/.cpp       the generic max flow behind the cuts
//
// Why each is exact, or how far from exact it can be, is argued in its
// file's header; Placement.cpp dispatches between them.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_LIB_PLANNER_PLACEMENTMODEL_H
#define FUEL_LIB_PLANNER_PLACEMENTMODEL_H

#include "fuel/Planner/Placement.h"
#include "fuel/Planner/Wide.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/bit.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace fuel::plan::detail {

/// Exact sums for the solvers: wide enough that no realistic sum of int64
/// terms overflows; clamped at kWideCap so that even the tree DP's repeated
/// pricing of shared subgraphs cannot wrap.
using Wide = Int128;
inline constexpr Wide kWideCap = Wide(1) << 110;
inline constexpr Wide kWideInf = Wide(1) << 120;

/// a + b, clamped at kWideCap.
inline Wide wadd(Wide a, Wide b) {
  Wide r = a + b;
  return r > kWideCap ? kWideCap : r;
}

/// A coupling adjustment with its other node as an index and its condition
/// as the mask of device indices that meet it.
struct Adj {
  /// The node whose placement the condition reads.
  unsigned other;
  uint64_t matchMask;
  int64_t delta;
};

/// An adjustment of node `node`'s option on device `dev` that names this
/// node (`adjs(node, dev)[k]`).
struct RevAdj {
  unsigned node;
  unsigned dev;
  unsigned k;
};

/// A value of the compiled problem.
struct Val {
  /// Index of the producing node, or -1 when the value lives on `source`.
  int producer = -1;
  /// Device index of a value without a producing node.
  unsigned source = 0;
  /// Distinct consuming nodes, first occurrence order (into Model storage).
  llvm::ArrayRef<unsigned> consumers;
  /// The devices that need the value whatever the placement, as a mask.
  uint64_t fixedMask = 0;
  /// Size in bytes.
  uint64_t bytes = 0;
  /// D*D hop costs, -1 where there is no direct path (into Model storage).
  const int64_t *hop = nullptr;
};

/// Lists of indices stored back to back (compressed rows).
struct Lists {
  std::vector<unsigned> start{0};
  std::vector<unsigned> items;
  llvm::ArrayRef<unsigned> operator[](size_t i) const {
    return llvm::ArrayRef<unsigned>(items.data() + start[i],
                                    items.data() + start[i + 1]);
  }
  /// Closes the current row.
  void endRow() { start.push_back(unsigned(items.size())); }
};

/// The problem with devices as indices (bit i = problem.devices[i]).
struct Model {
  /// The problem compiled.
  const PlacementProblem &problem;
  /// Devices, nodes, and the index of the host `cpu`.
  unsigned numDevices = 0, numNodes = 0, host = 0;
  /// numNodes * numDevices; kMaxNs where not admitted.
  std::vector<int64_t> time;
  /// Per node: the mask of admitted device indices.
  std::vector<uint64_t> allowed;
  /// Admitted device indices: the decision device first, then device order.
  Lists pref;
  /// Coupling terms per (node, device) and the reverse index per node; both
  /// empty when the problem has no coupling term.
  std::vector<std::vector<Adj>> adjs;
  std::vector<std::vector<RevAdj>> rev;
  /// The values, in problem order.
  std::vector<Val> vals;
  /// Per node: the values it reads (each once) and the values it produces.
  Lists inVals, outVals;
  /// Storage behind Val::consumers and Val::hop.
  std::vector<unsigned> consumerStore;
  std::vector<int64_t> hopStore;
  /// True when some coupling term can apply.
  bool coupling = false;

  /// Compiles `p`, which must be valid.
  explicit Model(const PlacementProblem &p);
  Model(const Model &) = delete;
  Model &operator=(const Model &) = delete;

  /// The index of device `d` (which must be a device of the problem).
  unsigned index(Device d) const {
    auto it =
        std::lower_bound(problem.devices.begin(), problem.devices.end(), d);
    return unsigned(it - problem.devices.begin());
  }
  /// The device of index `i`.
  Device device(unsigned i) const { return problem.devices[i]; }
  /// Node k's time on device index d (kMaxNs where not admitted).
  int64_t t(unsigned k, unsigned d) const { return time[k * numDevices + d]; }
  /// True when node k admits device index d.
  bool admits(unsigned k, unsigned d) const { return (allowed[k] >> d) & 1; }
  /// The coupling terms of node k's option on device index d.
  llvm::ArrayRef<Adj> adj(unsigned k, unsigned d) const {
    if (adjs.empty())
      return {};
    return adjs[k * numDevices + d];
  }
  /// The coupling terms of other options that name node k.
  llvm::ArrayRef<RevAdj> revAdj(unsigned k) const {
    if (rev.empty())
      return {};
    return rev[k];
  }
  /// The cost of one direct hop of `v` from a to b, -1 without a path.
  int64_t hop(const Val &v, unsigned a, unsigned b) const {
    return v.hop[a * numDevices + b];
  }

  /// Cost of the copy set of `v` from `src` to the devices of `mask`.
  ///
  /// This is TransferModel::copySet (lib/Planner/Transfer.cpp) written a
  /// second time, on purpose: the solvers price copy sets millions of times,
  /// and this form works on a bit mask with hop costs cached per value
  /// instead of sorting a device list and looking paths up in the topology.
  /// The two must agree to the nanosecond. The placement property tests tie
  /// them: BruteForceMatchesTheDefinition (brute force, on this form,
  /// against an enumeration priced by evaluate(), which calls
  /// TransferModel::copySetNs) and ExplanationFiguresAgreeWithTheObjective
  /// (moveDelta, on this form, against differences of evaluate()).
  Wide copyCost(const Val &v, unsigned src, uint64_t mask) const {
    mask &= ~(uint64_t(1) << src);
    if (!mask)
      return 0;
    Wide total = 0;
    bool needHost = false;
    for (uint64_t m = mask; m; m &= m - 1) {
      unsigned d = unsigned(llvm::countr_zero(m));
      if (d == host) {
        needHost = true;
        continue;
      }
      int64_t h = hop(v, src, d);
      if (h >= 0) {
        total += h;
      } else {
        needHost = true;
        total += hop(v, host, d);
      }
    }
    if (needHost)
      total += hop(v, src, host);
    return total;
  }
  /// Cost of bringing `v` from `a` to `b` alone.
  Wide pathCost(const Val &v, unsigned a, unsigned b) const {
    return copyCost(v, a, uint64_t(1) << b);
  }
  /// Where `v` lives under `plan`.
  unsigned sourceOf(const Val &v, llvm::ArrayRef<unsigned> plan) const {
    return v.producer >= 0 ? plan[v.producer] : v.source;
  }
  /// The devices that need `v` under `plan`, as a mask.
  uint64_t targetsOf(const Val &v, llvm::ArrayRef<unsigned> plan) const {
    uint64_t mask = v.fixedMask;
    for (unsigned c : v.consumers)
      mask |= uint64_t(1) << plan[c];
    return mask;
  }

  /// The exact objective total, unsaturated.
  Wide total(llvm::ArrayRef<unsigned> plan) const {
    Wide sum = 0;
    for (unsigned k = 0; k < numNodes; ++k) {
      sum += t(k, plan[k]);
      for (const Adj &a : adj(k, plan[k]))
        if ((a.matchMask >> plan[a.other]) & 1)
          sum += a.delta;
    }
    for (const Val &v : vals)
      sum += copyCost(v, sourceOf(v, plan), targetsOf(v, plan));
    return sum;
  }

  /// The part of the objective that involves node k: its time, the copy
  /// sets of the values it produces or reads, and the coupling terms that
  /// name it or belong to its option.
  Wide local(unsigned k, llvm::ArrayRef<unsigned> plan) const {
    Wide sum = t(k, plan[k]);
    for (const Adj &a : adj(k, plan[k]))
      if ((a.matchMask >> plan[a.other]) & 1)
        sum += a.delta;
    for (const RevAdj &r : revAdj(k))
      if (plan[r.node] == r.dev) {
        const Adj &a = adj(r.node, r.dev)[r.k];
        if ((a.matchMask >> plan[k]) & 1)
          sum += a.delta;
      }
    for (unsigned vi : inVals[k]) {
      const Val &v = vals[vi];
      sum += copyCost(v, sourceOf(v, plan), targetsOf(v, plan));
    }
    for (unsigned vi : outVals[k]) {
      const Val &v = vals[vi];
      sum += copyCost(v, sourceOf(v, plan), targetsOf(v, plan));
    }
    return sum;
  }

  /// Objective change of moving node k alone to device d.
  Wide moveDelta(unsigned k, unsigned d, std::vector<unsigned> &plan) const {
    unsigned cur = plan[k];
    if (cur == d)
      return 0;
    if (!admits(k, d))
      return kWideInf;
    Wide before = local(k, plan);
    plan[k] = d;
    Wide after = local(k, plan);
    plan[k] = cur;
    return after - before;
  }

  /// The devices of a plan.
  std::vector<Device> devicesOf(llvm::ArrayRef<unsigned> plan) const {
    std::vector<Device> out;
    for (unsigned d : plan)
      out.push_back(device(d));
    return out;
  }
};

/// A plan: one device index per node, in node order.
using Plan = std::vector<unsigned>;

/// Node ids to node indices when some option of the problem carries a
/// coupling adjustment, else empty: the one index evaluate(),
/// PlacementProblem::hasCoupling() and the Model use to resolve
/// CouplingAdjustment::otherNode.
std::unordered_map<int64_t, unsigned>
couplingIndex(const PlacementProblem &problem);

//===----------------------------------------------------------------------===//
// Solvers (device indices per node)
//===----------------------------------------------------------------------===//

/// Greedy (PlacementTree.cpp).
Plan solveGreedy(const Model &m);
/// The tree DP (PlacementTree.cpp); exact on in-forests without coupling.
Plan solveTree(const Model &m);
/// The s-t cut for two device indices a < b (PlacementCut.cpp); exact
/// without coupling terms when every node admits only a and b.
Plan solveMinCut(const Model &m, unsigned a, unsigned b);
/// Per node, a bound on how much the terms other than its own time can
/// change when it moves (PlacementSearch.cpp); empty with coupling terms.
std::vector<Wide> moveRanges(const Model &m);
/// One α-expansion proposal toward device index `d` (PlacementCut.cpp).
Plan expansionMove(const Model &m, const Plan &cur, unsigned d,
                   llvm::ArrayRef<Wide> range,
                   const std::vector<uint8_t> *region, uint64_t &numVarsUsed);
/// Auto's local search on one start (PlacementSearch.cpp).
void improve(const Model &m, Plan &plan, llvm::ArrayRef<Wide> range);
/// Auto's search from greedy, the tree DP and every single-device plan
/// (PlacementSearch.cpp).
Plan searchAuto(const Model &m);
/// Brute force (PlacementSearch.cpp): the least plan of least objective.
Plan solveBruteForce(const Model &m, const Plan &seed);

} // namespace fuel::plan::detail

#endif // FUEL_LIB_PLANNER_PLACEMENTMODEL_H
