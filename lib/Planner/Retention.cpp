//===- Retention.cpp - Per-device Pareto frontier and crowding cap --------===//
//
// SEMANTICS §7, step by step. Everything works on rank indices (positions in
// the ranked input), so "best by the winner order" is "lowest rank index"
// and no tie is ever left to the sort algorithm.
//
//===----------------------------------------------------------------------===//

#include "fuel/Planner/Retention.h"
#include "fuel/Planner/Wide.h"

#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cassert>
#include <limits>

namespace fuel::plan {

namespace {

using I128 = Int128;

/// The five axes of SEMANTICS §6 as exact integers, in the fixed order
/// time, host bytes, device bytes, precision digits, accuracy class. The
/// crowding sum adds the axes in this order, so its rounding is fixed too.
constexpr unsigned kNumAxes = 5;

I128 axisValue(const CostVector &c, unsigned axis) {
  switch (axis) {
  case 0:
    return c.timeNs;
  case 1:
    return c.hostBytes;
  case 2:
    return c.deviceBytes;
  case 3:
    return c.precisionDigits;
  default:
    return c.accuracyClass;
  }
}

/// One device's bucket: its members' rank indices, ascending.
struct Bucket {
  Device device;
  llvm::SmallVector<unsigned, 64> members;
};

} // namespace

/// NSGA-II crowding distance of every member of `members` (SEMANTICS §7
/// step 5). Per axis the members are sorted by (value, rank index); an axis
/// whose range is 0 adds nothing; otherwise both ends get infinity and each
/// interior member adds (next - prev) / range. The differences are exact
/// integers converted to double once, so the figures are reproducible.
static void crowdingDistances(llvm::ArrayRef<CostVector> costs,
                              llvm::ArrayRef<unsigned> members,
                              llvm::SmallVectorImpl<double> &dist) {
  const double inf = std::numeric_limits<double>::infinity();
  size_t m = members.size();
  dist.assign(m, 0.0);
  llvm::SmallVector<unsigned, 64> order(m);
  for (unsigned axis = 0; axis < kNumAxes; ++axis) {
    for (unsigned j = 0; j < m; ++j)
      order[j] = j;
    std::sort(order.begin(), order.end(), [&](unsigned a, unsigned b) {
      I128 va = axisValue(costs[members[a]], axis);
      I128 vb = axisValue(costs[members[b]], axis);
      if (va != vb)
        return va < vb;
      return members[a] < members[b];
    });
    I128 lo = axisValue(costs[members[order.front()]], axis);
    I128 hi = axisValue(costs[members[order.back()]], axis);
    if (hi == lo)
      continue;
    double range = static_cast<double>(hi - lo);
    dist[order.front()] = inf;
    dist[order.back()] = inf;
    for (size_t j = 1; j + 1 < m; ++j) {
      I128 gap = axisValue(costs[members[order[j + 1]]], axis) -
                 axisValue(costs[members[order[j - 1]]], axis);
      dist[order[j]] += static_cast<double>(gap) / range;
    }
  }
}

RetentionReport retainFrontierIndices(llvm::ArrayRef<CostVector> costs,
                                      llvm::ArrayRef<Device> devices,
                                      llvm::ArrayRef<uint32_t> sources,
                                      unsigned keep) {
  assert(costs.size() == devices.size() && costs.size() == sources.size() &&
         "one device and one source per candidate");
  RetentionReport report;
  const unsigned n = costs.size();
  if (n == 0)
    return report;
  if (keep == 0)
    keep = 1;

  // Step 1: bucket by device; buckets in device order, members ascending.
  llvm::SmallVector<Bucket, 4> buckets;
  llvm::SmallVector<unsigned, 64> bucketOf(n);
  for (unsigned i = 0; i < n; ++i) {
    unsigned b = 0;
    while (b < buckets.size() && buckets[b].device != devices[i])
      ++b;
    if (b == buckets.size())
      buckets.push_back({devices[i], {}});
    buckets[b].members.push_back(i);
    bucketOf[i] = b;
  }

  // Step 2: per-bucket Pareto frontier.
  llvm::SmallVector<bool, 64> alive(n, true);
  for (Bucket &bucket : buckets)
    for (unsigned i : bucket.members)
      for (unsigned j : bucket.members)
        if (j != i && dominates(costs[j], costs[i])) {
          alive[i] = false;
          break;
        }

  // Step 3: never strand a (device, kernel source): re-admit the group's
  // best by the winner order, its lowest rank index. The global winner and
  // each bucket's best (the global winner is its bucket's best) are never
  // dominated under the winner order (a
  // dominator would rank first), except when byte totals saturate; they are
  // re-admitted here too so step 4 can protect them unconditionally.
  for (Bucket &bucket : buckets) {
    auto readmit = [&](unsigned i) {
      if (!alive[i]) {
        alive[i] = true;
        ++report.readmitted;
      }
    };
    readmit(bucket.members.front());
    for (size_t a = 0; a < bucket.members.size(); ++a) {
      unsigned first = bucket.members[a];
      bool seenBefore = false;
      for (size_t b = 0; b < a && !seenBefore; ++b)
        seenBefore = sources[bucket.members[b]] == sources[first];
      if (seenBefore)
        continue;
      // `first` is the group's best; keep it if no member of its group
      // survived the frontier.
      bool anyAlive = false;
      for (size_t b = a; b < bucket.members.size() && !anyAlive; ++b)
        anyAlive = sources[bucket.members[b]] == sources[first] &&
                   alive[bucket.members[b]];
      if (!anyAlive)
        readmit(first);
    }
  }
  for (unsigned i = 0; i < n; ++i)
    if (!alive[i])
      ++report.droppedDominated;

  // Steps 4-5: cap each bucket at `keep` by crowding distance.
  llvm::SmallVector<double, 64> dist;
  for (Bucket &bucket : buckets) {
    llvm::SmallVector<unsigned, 64> members;
    for (unsigned i : bucket.members)
      if (alive[i])
        members.push_back(i);
    const unsigned best = members.front();
    while (members.size() > keep) {
      crowdingDistances(costs, members, dist);
      // Protected: the global winner (rank index 0), the bucket's best, and
      // the last member of its (device, kernel source).
      auto isProtected = [&](unsigned j) {
        unsigned i = members[j];
        if (i == 0 || i == best)
          return true;
        for (unsigned o : members)
          if (o != i && sources[o] == sources[i])
            return false;
        return true;
      };
      // Drop the unprotected member with the smallest distance; among equal
      // distances the highest rank index (the worst by the winner order).
      int victim = -1;
      for (unsigned j = 0; j < members.size(); ++j) {
        if (isProtected(j))
          continue;
        if (victim < 0 || dist[j] < dist[victim] ||
            (dist[j] == dist[victim] && members[j] > members[victim]))
          victim = j;
      }
      if (victim < 0)
        break;
      alive[members[victim]] = false;
      members.erase(members.begin() + victim);
      ++report.droppedCrowded;
    }
    if (members.size() > keep) {
      report.overCapDevices.push_back(bucket.device);
      report.overCapExcess += members.size() - keep;
    }
  }
  std::sort(report.overCapDevices.begin(), report.overCapDevices.end());

  // Step 6: survivors in rank-index order, which is the winner order.
  for (unsigned i = 0; i < n; ++i)
    if (alive[i])
      report.keptRankIndices.push_back(i);
  return report;
}

RetentionReport retainFrontier(std::vector<Candidate> &ranked, unsigned keep,
                               Device decisionDevice) {
  const unsigned n = ranked.size();
  llvm::SmallVector<CostVector, 64> costs;
  llvm::SmallVector<Device, 64> devices;
  llvm::SmallVector<uint32_t, 64> sources;
  llvm::SmallVector<const std::string *, 8> sourceNames;
  costs.reserve(n);
  devices.reserve(n);
  sources.reserve(n);
  for (const Candidate &c : ranked) {
    costs.push_back(costVector(c));
    devices.push_back(c.device);
    // Intern the kernel source: a node has a handful of them.
    uint32_t s = 0;
    while (s < sourceNames.size() && *sourceNames[s] != c.kernelSource)
      ++s;
    if (s == sourceNames.size())
      sourceNames.push_back(&c.kernelSource);
    sources.push_back(s);
  }
  RetentionReport report = retainFrontierIndices(costs, devices, sources, keep);

  // Compact the survivors in place: rank indices are ascending, so every
  // move goes to a slot at or before its source.
  unsigned w = 0;
  for (unsigned i : report.keptRankIndices) {
    if (w != i)
      ranked[w] = std::move(ranked[i]);
    ++w;
  }
  ranked.erase(ranked.begin() + w, ranked.end());
  // Step 6: re-rank by the winner order. For a ranked input this is the
  // identity; it also makes an unranked input come out ranked.
  std::vector<unsigned> order = rankOrder(ranked, decisionDevice);
  bool identity = true;
  for (unsigned i = 0; i < order.size() && identity; ++i)
    identity = order[i] == i;
  if (!identity) {
    applyOrder(ranked, order);
    std::vector<unsigned> indices;
    indices.reserve(order.size());
    for (unsigned i : order)
      indices.push_back(report.keptRankIndices[i]);
    report.keptRankIndices = std::move(indices);
  }
  return report;
}

} // namespace fuel::plan
