//===- Placement.cpp - Phase B: problem, objective, dispatch --------------===//
//
// SEMANTICS §5: the placement problem and its checks, the exact objective of
// a placement, the dispatch of the `placement-algorithm` option to the
// solvers and the per-node explanation figures. The solvers work on a
// compiled form of the problem (PlacementModel.h) and compare plans by the
// exact objective computed without saturation; every result is finally
// priced here by evaluate(), which follows the definition and prices copy
// sets with TransferModel::copySetNs.
//
// What each answer is worth: greedy is a heuristic; the tree DP is exact on
// in-forests without coupling terms (PlacementTree.cpp); mincut is exact
// with two devices and no coupling terms (PlacementCut.cpp); brute force is
// exact (PlacementSearch.cpp). Auto picks the exact solver the problem
// allows and otherwise searches from greedy, the tree DP and every
// single-device plan, so it is never worse than any of them
// (PlacementSearch.cpp). The result says which (`exact`, `solvedBy`, `note`).
//
// Cost on large functions (n nodes, r reads, D devices): building the
// compiled form, greedy, the tree DP, a single-device plan, the objective
// and the explanation figures are O((n + r) · D²); mincut is one max flow
// over O(n + r) edges; auto is bounded as improve() describes.
//
//===----------------------------------------------------------------------===//

#include "fuel/Planner/Placement.h"

#include "PlacementModel.h"

#include "fuel/Planner/Error.h"
#include "fuel/Planner/Numbers.h"

#include <algorithm>
#include <cassert>
#include <limits>
#include <unordered_map>
#include <unordered_set>

namespace fuel::plan {

using detail::couplingIndex;
using detail::Model;
using detail::Plan;
using detail::Wide;

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
  std::unordered_map<int64_t, unsigned> ids = couplingIndex(*this);
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
  std::unordered_map<int64_t, unsigned> indexOf = couplingIndex(problem);
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
  bool inForest = problem.isInForest();
  // "Two devices" for auto (SEMANTICS §5): the devices the nodes admit and
  // those of the residencies (where values without a producing node live
  // and where fixed consumers need them).
  std::vector<Device> inPlay = nodeDevs;
  for (const PlaceValue &v : problem.values) {
    if (!v.producer)
      inPlay.push_back(v.fixedSource);
    inPlay.insert(inPlay.end(), v.fixedConsumers.begin(),
                  v.fixedConsumers.end());
  }
  std::sort(inPlay.begin(), inPlay.end());
  inPlay.erase(std::unique(inPlay.begin(), inPlay.end()), inPlay.end());

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
    return detail::solveMinCut(m, m.index(nodeDevs[0]), m.index(nodeDevs[1]));
  };
  switch (algorithm) {
  case PlacementAlgorithm::Greedy:
    plan = detail::solveGreedy(m);
    result.note = "greedy is a heuristic; the placement is not proven optimal";
    break;
  case PlacementAlgorithm::ExactTree:
    plan = detail::solveTree(m);
    result.exact = inForest;
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
    Plan seed = detail::solveGreedy(m);
    plan = detail::solveBruteForce(m, seed);
    result.exact = true;
    break;
  }
  case PlacementAlgorithm::Auto: {
    if (!m.coupling && inForest) {
      plan = detail::solveTree(m);
      result.exact = true;
      result.solvedBy = PlacementAlgorithm::ExactTree;
      break;
    }
    if (!m.coupling && inPlay.size() <= 2) {
      plan = runMinCut();
      result.exact = true;
      result.solvedBy = PlacementAlgorithm::MinCut;
      break;
    }
    plan = detail::searchAuto(m);
    result.note =
        m.coupling
            ? "the function has coupling terms, so auto searched (best start "
              "improved by moves); the placement is not proven optimal"
            : "the graph is not an in-forest and the placement involves " +
                  std::to_string(inPlay.size()) + " devices (" +
                  deviceList(inPlay) +
                  "), so auto searched (best start improved by moves); "
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
    out[k].deltaNs = have ? clampToInt64(best) : 0;
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
