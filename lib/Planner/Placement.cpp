//===- Placement.cpp - Phase B: objective, solvers, explanation -----------===//
//
// SEMANTICS §5: the exact objective of a placement, the solvers of the
// `placement-algorithm` option (greedy, exact-tree, mincut, auto,
// brute-force) and the per-node explanation figures. The solvers share a
// compiled form of the problem (devices as indices, admitted devices as bit
// masks, hop costs cached per value, adjacency in flat arrays) and compare
// plans by the exact objective computed without saturation; every result is
// finally priced by evaluate().
//
// Cost on large functions (n nodes, r reads, D devices): building the
// compiled form, greedy, the tree DP, a single-device plan, the objective
// and the explanation figures are O((n + r) · D²); mincut is one max flow
// over O(n + r) edges; auto is bounded as improve() describes.
//
//===----------------------------------------------------------------------===//

#include "fuel/Planner/Placement.h"

#include "fuel/Planner/Error.h"
#include "fuel/Planner/Numbers.h"

#include <algorithm>
#include <cassert>
#include <limits>
#include <unordered_map>
#include <unordered_set>

namespace fuel::plan {

//===----------------------------------------------------------------------===//
// Problem
//===----------------------------------------------------------------------===//

const PlaceOption *PlaceNode::option(Device d) const {
  for (const PlaceOption &o : options)
    if (o.device == d)
      return &o;
  return nullptr;
}

std::string PlacementProblem::validate() const {
  if (!transfers)
    return "the placement problem has no transfer model";
  if (devices.empty() || devices.size() > 64)
    return "the placement problem needs between 1 and 64 devices, not " +
           std::to_string(devices.size());
  for (size_t i = 1; i < devices.size(); ++i)
    if (!(devices[i - 1] < devices[i]))
      return "the placement problem's devices are not in device order ('" +
             devices[i - 1].str() + "' before '" + devices[i].str() + "')";
  auto known = [&](Device d) {
    return std::binary_search(devices.begin(), devices.end(), d);
  };
  if (!known(Device::cpu()))
    return "the placement problem's devices lack the host 'cpu'";
  std::unordered_set<int64_t> ids;
  ids.reserve(nodes.size());
  for (size_t k = 0; k < nodes.size(); ++k) {
    const PlaceNode &n = nodes[k];
    auto where = [&] { return "node " + std::to_string(n.id); };
    if (!ids.insert(n.id).second)
      return "node id " + std::to_string(n.id) + " appears twice";
    if (n.options.empty())
      return where() + " has no admitted device";
    for (size_t i = 0; i < n.options.size(); ++i) {
      if (!known(n.options[i].device))
        return where() + " admits '" + n.options[i].device.str() +
               "', which is not a device of the problem";
      for (size_t j = 0; j < i; ++j)
        if (n.options[j].device == n.options[i].device)
          return where() + " admits '" + n.options[i].device.str() + "' twice";
    }
  }
  for (size_t i = 0; i < values.size(); ++i) {
    const PlaceValue &v = values[i];
    auto where = [&] { return "value " + std::to_string(i); };
    if (v.producer && *v.producer >= nodes.size())
      return where() + " names producer index " + std::to_string(*v.producer) +
             " of " + std::to_string(nodes.size()) + " nodes";
    if (!v.producer && !known(v.fixedSource))
      return where() + " lives on '" + v.fixedSource.str() +
             "', which is not a device of the problem";
    for (unsigned c : v.consumers) {
      if (c >= nodes.size())
        return where() + " names consumer index " + std::to_string(c) + " of " +
               std::to_string(nodes.size()) + " nodes";
      if (v.producer && c <= *v.producer)
        return where() + " is read by node index " + std::to_string(c) +
               ", which does not come after its producer";
    }
    for (Device d : v.fixedConsumers)
      if (!known(d))
        return where() + " is needed on '" + d.str() +
               "', which is not a device of the problem";
  }
  return {};
}

bool PlacementProblem::hasCoupling() const {
  std::unordered_set<int64_t> ids;
  for (const PlaceNode &n : nodes)
    ids.insert(n.id);
  for (const PlaceNode &n : nodes)
    for (const PlaceOption &o : n.options)
      for (const CouplingAdjustment &a : o.couplings)
        if (a.deltaNs != 0 && ids.count(a.otherNode))
          return true;
  return false;
}

/// Distinct entries of an index list, ascending.
static std::vector<unsigned> distinct(llvm::ArrayRef<unsigned> list) {
  std::vector<unsigned> out(list.begin(), list.end());
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

bool PlacementProblem::isInForest() const {
  std::vector<unsigned> consumedResults(nodes.size(), 0);
  for (const PlaceValue &v : values) {
    std::vector<Device> fixed = v.fixedConsumers;
    std::sort(fixed.begin(), fixed.end());
    fixed.erase(std::unique(fixed.begin(), fixed.end()), fixed.end());
    size_t readers = distinct(v.consumers).size() + fixed.size();
    if (readers > 1)
      return false;
    if (readers == 1 && v.producer && ++consumedResults[*v.producer] > 1)
      return false;
  }
  return true;
}

std::vector<Device> PlacementProblem::nodeDevices() const {
  std::vector<Device> out;
  for (const PlaceNode &n : nodes)
    for (const PlaceOption &o : n.options)
      if (std::find(out.begin(), out.end(), o.device) == out.end())
        out.push_back(o.device);
  std::sort(out.begin(), out.end());
  return out;
}

unsigned PlacementProblem::numFreeNodes() const {
  unsigned n = 0;
  for (const PlaceNode &node : nodes)
    n += node.isFree();
  return n;
}

//===----------------------------------------------------------------------===//
// The objective, straight from the definition
//===----------------------------------------------------------------------===//

Objective evaluate(const PlacementProblem &problem,
                   llvm::ArrayRef<Device> placement) {
  assert(placement.size() == problem.nodes.size() && "one device per node");
  Objective obj;
  // Node ids to indices, only when some option carries a coupling term.
  std::unordered_map<int64_t, size_t> indexOf;
  for (const PlaceNode &n : problem.nodes)
    for (const PlaceOption &o : n.options)
      if (!o.couplings.empty() && indexOf.empty())
        for (size_t k = 0; k < problem.nodes.size(); ++k)
          indexOf.emplace(problem.nodes[k].id, k);
  for (size_t k = 0; k < problem.nodes.size(); ++k) {
    const PlaceOption *o = problem.nodes[k].option(placement[k]);
    if (!o) {
      obj.nodesNs = kMaxNs;
      continue;
    }
    obj.nodesNs = satAdd(obj.nodesNs, o->timeNs);
    for (const CouplingAdjustment &a : o->couplings) {
      auto it = indexOf.find(a.otherNode);
      if (it != indexOf.end() &&
          matchesCondition(a.condition, placement[it->second]))
        obj.couplingNs = satAdd(obj.couplingNs, a.deltaNs);
    }
  }
  std::vector<Device> targets;
  for (const PlaceValue &v : problem.values) {
    Device source = v.producer ? placement[*v.producer] : v.fixedSource;
    targets.assign(v.fixedConsumers.begin(), v.fixedConsumers.end());
    for (unsigned c : v.consumers)
      targets.push_back(placement[c]);
    obj.copiesNs = satAdd(
        obj.copiesNs, problem.transfers->copySetNs(source, targets, v.bytes));
  }
  obj.totalNs = satAdd(satAdd(obj.nodesNs, obj.copiesNs), obj.couplingNs);
  return obj;
}

std::string_view stringifyPlacementAlgorithm(PlacementAlgorithm a) {
  switch (a) {
  case PlacementAlgorithm::Greedy:
    return "greedy";
  case PlacementAlgorithm::ExactTree:
    return "exact-tree";
  case PlacementAlgorithm::MinCut:
    return "mincut";
  case PlacementAlgorithm::Auto:
    return "auto";
  case PlacementAlgorithm::BruteForce:
    return "brute-force";
  }
  return "auto";
}

std::optional<PlacementAlgorithm>
symbolizePlacementAlgorithm(std::string_view s) {
  for (PlacementAlgorithm a :
       {PlacementAlgorithm::Greedy, PlacementAlgorithm::ExactTree,
        PlacementAlgorithm::MinCut, PlacementAlgorithm::Auto,
        PlacementAlgorithm::BruteForce})
    if (stringifyPlacementAlgorithm(a) == s)
      return a;
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// The compiled problem
//===----------------------------------------------------------------------===//

namespace {

/// Exact sums for the solvers: wide enough that no realistic sum of int64
/// terms overflows; clamped at kWideCap so that even the tree DP's repeated
/// pricing of shared subgraphs cannot wrap.
using Wide = __int128;
constexpr Wide kWideCap = Wide(1) << 110;
constexpr Wide kWideInf = Wide(1) << 120;

Wide wadd(Wide a, Wide b) {
  Wide r = a + b;
  return r > kWideCap ? kWideCap : r;
}

int64_t clampToNs(Wide w) {
  if (w > Wide(kMaxNs))
    return kMaxNs;
  if (w < Wide(std::numeric_limits<int64_t>::min()))
    return std::numeric_limits<int64_t>::min();
  return int64_t(w);
}

/// A coupling adjustment with its other node as an index and its condition
/// as the mask of device indices that meet it.
struct Adj {
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

struct Val {
  int producer = -1;
  unsigned source = 0;
  /// Distinct consuming nodes, first occurrence order (into Model storage).
  llvm::ArrayRef<unsigned> consumers;
  uint64_t fixedMask = 0;
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
  const PlacementProblem &problem;
  unsigned numDevices = 0, numNodes = 0, host = 0;
  /// numNodes * numDevices; kMaxNs where not admitted.
  std::vector<int64_t> time;
  std::vector<uint64_t> allowed;
  /// Admitted device indices: the decision device first, then device order.
  Lists pref;
  /// Coupling terms per (node, device) and the reverse index per node; both
  /// empty when the problem has no coupling term.
  std::vector<std::vector<Adj>> adjs;
  std::vector<std::vector<RevAdj>> rev;
  std::vector<Val> vals;
  /// Per node: the values it reads (each once) and the values it produces.
  Lists inVals, outVals;
  /// Storage behind Val::consumers and Val::hop.
  std::vector<unsigned> consumerStore;
  std::vector<int64_t> hopStore;
  bool coupling = false;

  explicit Model(const PlacementProblem &p);
  Model(const Model &) = delete;
  Model &operator=(const Model &) = delete;

  unsigned index(Device d) const {
    auto it =
        std::lower_bound(problem.devices.begin(), problem.devices.end(), d);
    return unsigned(it - problem.devices.begin());
  }
  Device device(unsigned i) const { return problem.devices[i]; }
  int64_t t(unsigned k, unsigned d) const { return time[k * numDevices + d]; }
  bool admits(unsigned k, unsigned d) const { return (allowed[k] >> d) & 1; }
  llvm::ArrayRef<Adj> adj(unsigned k, unsigned d) const {
    if (adjs.empty())
      return {};
    return adjs[k * numDevices + d];
  }
  llvm::ArrayRef<RevAdj> revAdj(unsigned k) const {
    if (rev.empty())
      return {};
    return rev[k];
  }
  int64_t hop(const Val &v, unsigned a, unsigned b) const {
    return v.hop[a * numDevices + b];
  }

  /// Cost of the copy set of `v` from `src` to the devices of `mask`.
  Wide copyCost(const Val &v, unsigned src, uint64_t mask) const {
    mask &= ~(uint64_t(1) << src);
    if (!mask)
      return 0;
    Wide total = 0;
    bool needHost = false;
    for (uint64_t m = mask; m; m &= m - 1) {
      unsigned d = unsigned(__builtin_ctzll(m));
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
  unsigned sourceOf(const Val &v, llvm::ArrayRef<unsigned> plan) const {
    return v.producer >= 0 ? plan[v.producer] : v.source;
  }
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

  /// The in-forest condition under which the tree DP is exact: every value
  /// read either by fixed consumers only, or by exactly one node and no
  /// fixed consumer; every node with at most one reading node in all.
  bool treeExact() const {
    std::vector<unsigned> outEdges(numNodes, 0);
    for (const Val &v : vals) {
      if (v.consumers.empty())
        continue;
      if (v.consumers.size() > 1 || v.fixedMask)
        return false;
      if (v.producer >= 0 && ++outEdges[v.producer] > 1)
        return false;
    }
    return true;
  }

  std::vector<Device> devicesOf(llvm::ArrayRef<unsigned> plan) const {
    std::vector<Device> out;
    for (unsigned d : plan)
      out.push_back(device(d));
    return out;
  }
};

Model::Model(const PlacementProblem &p) : problem(p) {
  numDevices = unsigned(p.devices.size());
  numNodes = unsigned(p.nodes.size());
  host = index(Device::cpu());
  unsigned D = numDevices;
  time.assign(size_t(numNodes) * D, kMaxNs);
  allowed.assign(numNodes, 0);
  pref.start.reserve(numNodes + 1);
  pref.items.reserve(size_t(numNodes) * 2);
  // Node ids to indices, only when some option carries a coupling term.
  std::unordered_map<int64_t, unsigned> indexOf;
  for (const PlaceNode &n : p.nodes)
    for (const PlaceOption &o : n.options)
      if (!o.couplings.empty() && indexOf.empty())
        for (unsigned k = 0; k < numNodes; ++k)
          indexOf.emplace(p.nodes[k].id, k);
  for (unsigned k = 0; k < numNodes; ++k) {
    const PlaceNode &n = p.nodes[k];
    for (const PlaceOption &o : n.options) {
      unsigned d = index(o.device);
      time[k * D + d] = o.timeNs;
      allowed[k] |= uint64_t(1) << d;
      for (const CouplingAdjustment &a : o.couplings) {
        auto it = indexOf.find(a.otherNode);
        if (it == indexOf.end() || a.deltaNs == 0)
          continue;
        Adj adj{it->second, 0, a.deltaNs};
        for (unsigned i = 0; i < D; ++i)
          if (matchesCondition(a.condition, device(i)))
            adj.matchMask |= uint64_t(1) << i;
        if (!adj.matchMask)
          continue;
        coupling = true;
        if (adjs.empty()) {
          adjs.resize(size_t(numNodes) * D);
          rev.resize(numNodes);
        }
        std::vector<Adj> &list = adjs[k * D + d];
        if (adj.other != k)
          rev[adj.other].push_back({k, d, unsigned(list.size())});
        list.push_back(adj);
      }
    }
    // Ties: the decision device, then device order (SEMANTICS §5).
    int first = -1;
    if (std::binary_search(p.devices.begin(), p.devices.end(),
                           n.decisionDevice) &&
        admits(k, index(n.decisionDevice))) {
      first = int(index(n.decisionDevice));
      pref.items.push_back(unsigned(first));
    }
    for (unsigned d = 0; d < D; ++d)
      if (admits(k, d) && int(d) != first)
        pref.items.push_back(d);
    pref.endRow();
  }

  // The direct paths of the topology, once per device pair.
  std::vector<std::optional<PathFigures>> paths(size_t(D) * D);
  for (unsigned a = 0; a < D; ++a)
    for (unsigned b = 0; b < D; ++b)
      if (a != b)
        paths[a * D + b] = p.transfers->directPath(device(a), device(b));

  size_t numVals = p.values.size();
  vals.resize(numVals);
  hopStore.assign(numVals * D * D, 0);
  size_t numReads = 0;
  for (const PlaceValue &pv : p.values)
    numReads += pv.consumers.size();
  consumerStore.reserve(numReads);
  // Distinct consumers in first occurrence order: `seen[c]` holds the last
  // value index (plus one) that listed c.
  std::vector<unsigned> seen(numNodes, 0);
  std::vector<unsigned> inCount(numNodes, 0), outCount(numNodes, 0);
  std::vector<std::pair<size_t, size_t>> consumerRange(numVals);
  for (size_t i = 0; i < numVals; ++i) {
    const PlaceValue &pv = p.values[i];
    Val &v = vals[i];
    v.bytes = pv.bytes;
    v.producer = pv.producer ? int(*pv.producer) : -1;
    v.source = pv.producer ? 0 : index(pv.fixedSource);
    size_t first = consumerStore.size();
    for (unsigned c : pv.consumers)
      if (seen[c] != unsigned(i) + 1) {
        seen[c] = unsigned(i) + 1;
        consumerStore.push_back(c);
        ++inCount[c];
      }
    consumerRange[i] = {first, consumerStore.size()};
    for (Device d : pv.fixedConsumers)
      v.fixedMask |= uint64_t(1) << index(d);
    int64_t *hop = hopStore.data() + i * D * D;
    for (unsigned a = 0; a < D; ++a)
      for (unsigned b = 0; b < D; ++b) {
        if (a == b)
          continue;
        const std::optional<PathFigures> &f = paths[a * D + b];
        hop[a * D + b] =
            f ? fuel::plan::hopNs(pv.bytes, f->bandwidthBytesPerSec,
                                  f->latencyNs)
              : -1;
      }
    v.hop = hop;
    if (v.producer >= 0)
      ++outCount[unsigned(v.producer)];
  }
  // Compressed rows of the values each node reads and produces.
  auto fillRows = [&](Lists &rows, std::vector<unsigned> &count) {
    rows.start.assign(numNodes + 1, 0);
    for (unsigned k = 0; k < numNodes; ++k)
      rows.start[k + 1] = rows.start[k] + count[k];
    rows.items.assign(rows.start[numNodes], 0);
    for (unsigned k = 0; k < numNodes; ++k)
      count[k] = rows.start[k];
  };
  fillRows(inVals, inCount);
  fillRows(outVals, outCount);
  for (size_t i = 0; i < numVals; ++i) {
    Val &v = vals[i];
    v.consumers = llvm::ArrayRef<unsigned>(
        consumerStore.data() + consumerRange[i].first,
        consumerStore.data() + consumerRange[i].second);
    if (v.producer >= 0)
      outVals.items[outCount[unsigned(v.producer)]++] = unsigned(i);
    for (unsigned c : v.consumers)
      inVals.items[inCount[c]++] = unsigned(i);
  }
}

//===----------------------------------------------------------------------===//
// Max flow (Dinic, iterative) for the cut-based solvers
//===----------------------------------------------------------------------===//

/// The residual graph of Dinic's algorithm in compressed rows (each node's
/// arcs in insertion order, every edge with its reverse arc), with
/// capacities of type Cap; each phase's breadth-first search stops at the
/// sink's level.
/// An edge of a flow problem before it is laid out.
struct FlowEdge {
  unsigned from, to;
  Wide cap;
};

template <typename Cap> class FlowGraph {
public:
  using Edge = FlowEdge;
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

/// Maximum flow by Dinic's algorithm on a graph built once. Capacities are
/// exact (Wide, kWideInf meaning unbounded). When the capacities leaving the
/// source, or those entering the sink, sum to a bound below 2^61, no flow
/// exceeds it: the flow runs in 64-bit integers with every capacity above
/// the bound (unbounded ones included) lowered to the bound plus one, which
/// no flow fills, so the same minimum cut is found.
class MaxFlow {
public:
  explicit MaxFlow(unsigned n) : numNodes(n) {}
  unsigned addNode() { return numNodes++; }
  void addEdge(unsigned u, unsigned v, Wide cap) {
    if (cap <= 0 || u == v)
      return;
    edges.push_back({u, v, cap});
  }
  /// Runs the flow from s to t; returns the nodes reachable from s in the
  /// residual graph (the source side of the minimum cut with the least
  /// source side).
  std::vector<bool> minCutSourceSide(unsigned s, unsigned t) {
    // No flow exceeds what leaves s or what enters t.
    Wide out = 0, in = 0;
    for (const Edge &e : edges) {
      if (e.from == s)
        out = e.cap >= kWideInf ? kWideInf : wadd(out, e.cap);
      if (e.to == t)
        in = e.cap >= kWideInf ? kWideInf : wadd(in, e.cap);
    }
    Wide bound = std::min(out, in);
    if (bound < (Wide(1) << 61)) {
      FlowGraph<int64_t> g(numNodes, edges, int64_t(bound) + 1);
      edges = {};
      g.run(s, t);
      return g.sourceSide(s);
    }
    FlowGraph<Wide> g(numNodes, edges, kWideInf);
    edges = {};
    g.run(s, t);
    return g.sourceSide(s);
  }

private:
  using Edge = FlowEdge;
  unsigned numNodes;
  std::vector<Edge> edges;
};

/// A binary labelling problem solved by one minimum cut: label 0 is the
/// source side, label 1 the sink side. Costs are scaled by `scale` so that
/// tie-break preferences of weight 1 per variable never override a real
/// difference.
class BinaryCut {
public:
  BinaryCut(unsigned numVars, Wide scale)
      : flow(numVars + 2), numVars(numVars), scale(scale) {}
  static constexpr unsigned kSource = 0, kSink = 1;
  unsigned var(unsigned i) const { return i + 2; }
  unsigned addAux() { return flow.addNode(); }

  /// Cost c0 when var i takes label 0, c1 for label 1 (kWideInf forbids).
  void addUnary(unsigned i, Wide c0, Wide c1) {
    Wide s0 = c0 >= kWideInf ? kWideInf : c0 * scale;
    Wide s1 = c1 >= kWideInf ? kWideInf : c1 * scale;
    addScaledUnary(i, s0, s1);
  }
  /// A preference of weight 1 (unscaled) against label `label` of var i.
  void addTieBreak(unsigned i, unsigned label) {
    addScaledUnary(i, label == 0 ? 1 : 0, label == 1 ? 1 : 0);
  }
  /// E(li, lj) as a table; a non-submodular table is made submodular by
  /// dropping its negative interaction (a surrogate).
  void addPairwise(unsigned i, unsigned j, Wide e00, Wide e01, Wide e10,
                   Wide e11) {
    // E = e00 + (e10-e00) li + (e11-e10) lj + (e01+e10-e00-e11)(1-li) lj.
    addUnary(i, 0, e10 - e00);
    addUnary(j, 0, e11 - e10);
    Wide lambda = e01 + e10 - e00 - e11;
    if (lambda > 0)
      flow.addEdge(var(i), var(j), lambda * scale);
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

private:
  MaxFlow flow;
  unsigned numVars;
  Wide scale;

  void addScaledUnary(unsigned i, Wide s0, Wide s1) {
    Wide m = std::min(s0, s1);
    if (m >= kWideInf)
      m = 0;
    s0 -= s0 >= kWideInf ? 0 : m;
    s1 -= s1 >= kWideInf ? 0 : m;
    flow.addEdge(var(i), kSink, s0); // paid when i is on the source side
    flow.addEdge(kSource, var(i), s1);
  }
};

//===----------------------------------------------------------------------===//
// Solvers on the compiled problem. Plans are device indices per node.
//===----------------------------------------------------------------------===//

using Plan = std::vector<unsigned>;

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
/// separately. Exact when Model::treeExact() holds.
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
          c = wadd(c, m.pathCost(v, d, unsigned(__builtin_ctzll(f))));
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

/// The s-t cut for two devices a < b (SEMANTICS §5): exact on any DAG
/// without coupling terms. A value's copy toward each side is paid once
/// through one auxiliary node per (value, direction). Ties prefer each
/// node's decision device, then a.
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

/// One α-expansion step: every node that admits `d` may move to it or keep
/// its device; the binary choice is solved by one cut on a submodular
/// surrogate of the objective (shared copies toward `d` are exact, copies
/// toward kept devices priced per edge, non-submodular pair terms
/// dropped). The caller accepts the result only if the exact objective
/// decreases. Nodes outside `region` (when given) keep their device, and so
/// do nodes that cannot gain by moving (`range`, see moveRanges). The number
/// of cut variables is added to `numVarsUsed`.
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
  for (const Val &v : m.vals) {
    // Targets that stay wherever the labels go.
    uint64_t fixedTargets = v.fixedMask;
    std::vector<unsigned> varReaders;
    for (unsigned c : v.consumers) {
      if (varOf[c] < 0)
        fixedTargets |= uint64_t(1) << cur[c];
      else
        varReaders.push_back(c);
    }
    bool srcVar = v.producer >= 0 && varOf[v.producer] >= 0;
    if (!srcVar) {
      unsigned src = m.sourceOf(v, cur);
      uint64_t covered = fixedTargets | (uint64_t(1) << src);
      if (!varReaders.empty() && !(covered & bitD)) {
        Wide c = m.copyCost(v, src, fixedTargets | bitD) -
                 m.copyCost(v, src, fixedTargets);
        unsigned w = cut.addAux();
        cut.addCut(BinaryCut::kSource, w, c);
        for (unsigned r : varReaders)
          cut.addCut(w, cut.var(unsigned(varOf[r])), kWideInf);
      }
      for (unsigned r : varReaders)
        if (!((covered >> cur[r]) & 1))
          cut.addUnary(
              unsigned(varOf[r]),
              m.copyCost(v, src, fixedTargets | (uint64_t(1) << cur[r])) -
                  m.copyCost(v, src, fixedTargets),
              0);
      continue;
    }
    unsigned p = unsigned(v.producer), pi = unsigned(varOf[p]);
    unsigned cp = cur[p];
    Wide base0 = m.copyCost(v, cp, fixedTargets);
    Wide base1 = m.copyCost(v, d, fixedTargets);
    cut.addUnary(pi, base0, base1);
    if (!varReaders.empty() && !(fixedTargets & bitD)) {
      // p keeps its device and some reader moves to d.
      Wide c = m.copyCost(v, cp, fixedTargets | bitD) - base0;
      unsigned w = cut.addAux();
      cut.addCut(cut.var(pi), w, c);
      for (unsigned r : varReaders)
        cut.addCut(w, cut.var(unsigned(varOf[r])), kWideInf);
    }
    for (unsigned r : varReaders) {
      uint64_t bitR = uint64_t(1) << cur[r];
      Wide e00 = (fixedTargets & bitR)
                     ? 0
                     : m.copyCost(v, cp, fixedTargets | bitR) - base0;
      Wide e10 = (fixedTargets & bitR)
                     ? 0
                     : m.copyCost(v, d, fixedTargets | bitR) - base1;
      cut.addPairwise(pi, unsigned(varOf[r]), e00, 0, e10, 0);
    }
  }
  std::vector<bool> label = cut.solve();
  Plan next = cur;
  for (unsigned k = 0; k < N; ++k)
    if (varOf[k] >= 0 && label[unsigned(varOf[k])])
      next[k] = d;
  return next;
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

/// Local improvement: best single-node moves and α-expansions, each
/// accepted only when the exact objective strictly decreases.
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

  for (unsigned round = 0; round < 64; ++round) {
    bool improved = false;
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
        }
      }
      lastRun[d] = version;
    }
    if (!improved)
      break;
  }
}

/// Exhaustive search in (node order, device order) with a lower bound:
/// returns the least plan among those of least objective.
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
  std::vector<std::vector<unsigned>> order(N);
  for (unsigned k = 0; k < N; ++k) {
    order[k] = m.pref[k].vec();
    std::sort(order[k].begin(), order[k].end());
  }
  Plan plan(N, 0), best = seed;
  Wide bestTotal = m.total(seed);
  bool found = false;

  // real: exact terms settled so far; pending: the negative parts of
  // coupling terms of placed nodes that name nodes not yet placed.
  auto rec = [&](auto &&self, unsigned k, Wide real, Wide pending) -> void {
    if (k == N) {
      if (real < bestTotal || (!found && real == bestTotal)) {
        bestTotal = real;
        best = plan;
        found = true;
      }
      return;
    }
    for (unsigned d : order[k]) {
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

} // namespace

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

static llvm::Error invalid(std::string message) {
  return PlanError::make(PlanError::Kind::InvalidOption, std::move(message));
}

/// The first node (by id) with a coupling term, for messages.
static int64_t firstCoupledNode(const PlacementProblem &problem) {
  for (const PlaceNode &n : problem.nodes)
    for (const PlaceOption &o : n.options)
      for (const CouplingAdjustment &a : o.couplings)
        if (a.deltaNs != 0)
          return n.id;
  return 0;
}

static std::string deviceList(llvm::ArrayRef<Device> devices) {
  std::string out;
  for (Device d : devices)
    out += (out.empty() ? "" : ", ") + d.str();
  return out;
}

llvm::Expected<PlacementResult> solvePlacement(const PlacementProblem &problem,
                                               PlacementAlgorithm algorithm) {
  std::string problemError = problem.validate();
  if (!problemError.empty())
    return invalid("invalid placement problem: " + problemError);
  std::string_view name = stringifyPlacementAlgorithm(algorithm);
  Model m(problem);
  std::vector<Device> nodeDevs = problem.nodeDevices();

  if ((algorithm == PlacementAlgorithm::ExactTree ||
       algorithm == PlacementAlgorithm::MinCut) &&
      m.coupling)
    return invalid("placement algorithm '" + std::string(name) +
                   "' does not handle coupling terms (node " +
                   std::to_string(firstCoupledNode(problem)) +
                   " has one); use 'auto' or 'brute-force'");
  if (algorithm == PlacementAlgorithm::MinCut && nodeDevs.size() > 2)
    return invalid("placement algorithm 'mincut' places on at most two "
                   "devices, but the nodes admit " +
                   std::to_string(nodeDevs.size()) + " (" +
                   deviceList(nodeDevs) + ")");
  unsigned numFree = problem.numFreeNodes();
  if (algorithm == PlacementAlgorithm::BruteForce &&
      numFree > kBruteForceMaxFreeNodes)
    return invalid("placement algorithm 'brute-force' handles at most " +
                   std::to_string(kBruteForceMaxFreeNodes) +
                   " free nodes; this function has " + std::to_string(numFree));

  PlacementResult result;
  result.solvedBy = algorithm;
  Plan plan;
  auto runMinCut = [&] {
    if (nodeDevs.size() <= 1 || m.numNodes == 0) {
      Plan p(m.numNodes);
      for (unsigned k = 0; k < m.numNodes; ++k)
        p[k] = m.pref[k].front();
      return p;
    }
    return solveMinCut(m, m.index(nodeDevs[0]), m.index(nodeDevs[1]));
  };
  switch (algorithm) {
  case PlacementAlgorithm::Greedy:
    plan = solveGreedy(m);
    result.note = "greedy is a heuristic; the placement is not proven optimal";
    break;
  case PlacementAlgorithm::ExactTree:
    plan = solveTree(m);
    result.exact = m.treeExact();
    if (!result.exact)
      result.note = "the graph is not an in-forest, so exact-tree priced each "
                    "(value, consumer) edge separately; the placement is not "
                    "proven optimal";
    break;
  case PlacementAlgorithm::MinCut:
    plan = runMinCut();
    result.exact = true;
    break;
  case PlacementAlgorithm::BruteForce: {
    Plan seed = solveGreedy(m);
    plan = solveBruteForce(m, seed);
    result.exact = true;
    break;
  }
  case PlacementAlgorithm::Auto: {
    if (!m.coupling && m.treeExact()) {
      plan = solveTree(m);
      result.exact = true;
      result.solvedBy = PlacementAlgorithm::ExactTree;
      break;
    }
    if (!m.coupling && nodeDevs.size() <= 2) {
      plan = runMinCut();
      result.exact = true;
      result.solvedBy = PlacementAlgorithm::MinCut;
      break;
    }
    // Start from greedy, the tree DP and every single-device plan, and
    // improve each by moves (SEMANTICS §5).
    std::vector<Plan> starts{solveGreedy(m), solveTree(m)};
    for (unsigned d = 0; d < m.numDevices; ++d) {
      Plan p(m.numNodes);
      for (unsigned k = 0; k < m.numNodes; ++k)
        p[k] = m.admits(k, d) ? d : m.pref[k].front();
      starts.push_back(std::move(p));
    }
    // Each start is improved and the best result wins (earlier on ties),
    // so the answer is never worse than the best start. Functions above
    // kImproveEveryStartUpTo nodes improve only the best start, under the
    // bounds improve() documents.
    bool improveAll = m.numNodes <= kImproveEveryStartUpTo;
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
    result.note =
        m.coupling
            ? "the function has coupling terms, so auto searched (best start "
              "improved by moves); the placement is not proven optimal"
            : "the graph is not an in-forest and the nodes admit " +
                  std::to_string(nodeDevs.size()) +
                  " devices, so auto searched (best start improved by moves); "
                  "the placement is not proven optimal";
    break;
  }
  }
  result.placement = m.devicesOf(plan);
  result.objective = evaluate(problem, result.placement);
  return result;
}

std::vector<MoveDelta> bestOtherDevice(const PlacementProblem &problem,
                                       llvm::ArrayRef<Device> placement) {
  assert(placement.size() == problem.nodes.size() && "one device per node");
  Model m(problem);
  Plan plan(m.numNodes);
  for (unsigned k = 0; k < m.numNodes; ++k)
    plan[k] = m.index(placement[k]);
  std::vector<MoveDelta> out(m.numNodes);
  for (unsigned k = 0; k < m.numNodes; ++k) {
    bool have = false;
    Wide best = 0;
    for (unsigned d : m.pref[k]) {
      if (d == plan[k])
        continue;
      Wide delta = m.moveDelta(k, d, plan);
      if (!have || delta < best) {
        have = true;
        best = delta;
        out[k].device = m.device(d);
      }
    }
    out[k].deltaNs = have ? clampToNs(best) : 0;
  }
  return out;
}

std::vector<int64_t> inboundTransferNs(const PlacementProblem &problem,
                                       llvm::ArrayRef<Device> placement) {
  assert(placement.size() == problem.nodes.size() && "one device per node");
  std::vector<int64_t> out(problem.nodes.size(), 0);
  for (const PlaceValue &v : problem.values) {
    Device source = v.producer ? placement[*v.producer] : v.fixedSource;
    for (unsigned c : distinct(v.consumers))
      out[c] = satAdd(out[c],
                      problem.transfers->pathNs(source, placement[c], v.bytes));
  }
  return out;
}

} // namespace fuel::plan
