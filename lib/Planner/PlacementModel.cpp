//===- PlacementModel.cpp - The placement problem in solver form ----------===//
//
// Compiles a PlacementProblem into the Model every solver works on
// (SEMANTICS §5) in O((n + r) · D²) for n nodes, r reads and D devices, and
// builds the one node-id index that resolves coupling adjustments.
//
//===----------------------------------------------------------------------===//

#include "PlacementModel.h"

#include "fuel/Planner/Numbers.h"

#include <algorithm>
#include <optional>

namespace fuel::plan::detail {

std::unordered_map<int64_t, unsigned>
couplingIndex(const PlacementProblem &problem) {
  std::unordered_map<int64_t, unsigned> indexOf;
  for (const PlaceNode &n : problem.nodes)
    for (const PlaceOption &o : n.options)
      if (!o.couplings.empty()) {
        indexOf.reserve(problem.nodes.size());
        for (unsigned k = 0; k < problem.nodes.size(); ++k)
          indexOf.emplace(problem.nodes[k].id, k);
        return indexOf;
      }
  return indexOf;
}

Model::Model(const PlacementProblem &p) : problem(p) {
  numDevices = unsigned(p.devices.size());
  numNodes = unsigned(p.nodes.size());
  host = index(Device::cpu());
  unsigned D = numDevices;
  time.assign(size_t(numNodes) * D, kMaxNs);
  allowed.assign(numNodes, 0);
  pref.start.reserve(numNodes + 1);
  pref.items.reserve(size_t(numNodes) * 2);
  std::unordered_map<int64_t, unsigned> indexOf = couplingIndex(p);
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

} // namespace fuel::plan::detail
