//===- Candidate.cpp - Candidates, cost vectors and the winner order ------===//
//
// SEMANTICS §1 (candidates), §6 (cost vector, dominance, winner order) and
// §3 step 8 (ranking).
//
//===----------------------------------------------------------------------===//

#include "fuel/Planner/Candidate.h"

#include "fuel/Planner/Numbers.h"
#include "fuel/Planner/PrecisionRules.h"
#include "fuel/Planner/SizeClass.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cassert>

namespace fuel::plan {

llvm::StringRef stringifyTimeSource(TimeSource s) {
  return s == TimeSource::Measured ? "measured" : "static";
}

bool matchesCondition(const CouplingCondition &condition, Device placement) {
  if (const Device *d = std::get_if<Device>(&condition))
    return *d == placement;
  return std::get<DeviceKind>(condition) == placement.kind;
}

bool Candidate::hasCap(llvm::StringRef cap) const {
  auto it = std::lower_bound(
      caps.begin(), caps.end(), cap,
      [](const std::string &a, llvm::StringRef b) { return a < b; });
  return it != caps.end() && *it == cap;
}

std::optional<llvm::StringRef> Candidate::param(llvm::StringRef key) const {
  for (const auto &[k, v] : params)
    if (k == key)
      return llvm::StringRef(v);
  return std::nullopt;
}

void Candidate::normalize() {
  std::sort(caps.begin(), caps.end());
  caps.erase(std::unique(caps.begin(), caps.end()), caps.end());
  std::stable_sort(
      params.begin(), params.end(),
      [](const auto &a, const auto &b) { return a.first < b.first; });
}

bool operator==(const Candidate &a, const Candidate &b) {
  return a.kernelId == b.kernelId && a.caps == b.caps && a.device == b.device &&
         a.precision == b.precision && a.cost == b.cost &&
         a.timeNs == b.timeNs && a.timeSource == b.timeSource &&
         a.staticTimeNs == b.staticTimeNs && a.noiseNs == b.noiseNs &&
         a.hostBytes == b.hostBytes && a.deviceBytes == b.deviceBytes &&
         a.inboundTransferNs == b.inboundTransferNs && a.params == b.params &&
         a.couplings == b.couplings && a.kernelSource == b.kernelSource &&
         a.revisionHash == b.revisionHash &&
         a.registryPriority == b.registryPriority && a.fallback == b.fallback;
}

std::string DecisionContext::str() const {
  return std::string(stringifyOpKind(op)) + " " +
         (principalDtype.empty() ? std::string("?") : principalDtype) +
         " size_class=" + formatSizeClass(sizeClass) +
         " decision_device=" + decisionDevice.str();
}

CostVector costVector(const Candidate &c) {
  return {c.timeNs, c.hostBytes, c.deviceBytes, precisionDigits(c.precision),
          accuracyClass(c.precision)};
}

bool dominates(const CostVector &a, const CostVector &b) {
  // Lower is better for time and bytes; higher for digits and class.
  bool noWorse = a.timeNs <= b.timeNs && a.hostBytes <= b.hostBytes &&
                 a.deviceBytes <= b.deviceBytes &&
                 a.precisionDigits >= b.precisionDigits &&
                 a.accuracyClass >= b.accuracyClass;
  if (!noWorse)
    return false;
  return a.timeNs < b.timeNs || a.hostBytes < b.hostBytes ||
         a.deviceBytes < b.deviceBytes ||
         a.precisionDigits > b.precisionDigits ||
         a.accuracyClass > b.accuracyClass;
}

namespace {
/// The winner order's fields, computed once per candidate so a sort does
/// not recompute precision digits at every comparison.
struct RankKey {
  int64_t timeNs;
  unsigned digits;
  unsigned accuracy;
  uint64_t totalBytes;
  int64_t priority;
  bool offDecision;
  Device device;
  const std::string *kernelId;
  unsigned index;

  RankKey(const Candidate &c, Device decision, unsigned index)
      : timeNs(c.timeNs), digits(precisionDigits(c.precision)),
        accuracy(accuracyClass(c.precision)),
        totalBytes(satAddU(c.hostBytes, c.deviceBytes)),
        priority(c.registryPriority), offDecision(c.device != decision),
        device(c.device), kernelId(&c.kernelId), index(index) {}

  /// -1, 0 or 1: the winner order of SEMANTICS §6, index excluded.
  int compare(const RankKey &o) const {
    if (timeNs != o.timeNs)
      return timeNs < o.timeNs ? -1 : 1;
    if (digits != o.digits)
      return digits > o.digits ? -1 : 1;
    if (accuracy != o.accuracy)
      return accuracy > o.accuracy ? -1 : 1;
    if (totalBytes != o.totalBytes)
      return totalBytes < o.totalBytes ? -1 : 1;
    if (priority != o.priority)
      return priority > o.priority ? -1 : 1;
    if (offDecision != o.offDecision)
      return offDecision ? 1 : -1;
    if (device != o.device)
      return device < o.device ? -1 : 1;
    // std::string compares through char_traits<char>, which orders bytes
    // as unsigned char: bytewise ascending.
    int c = kernelId->compare(*o.kernelId);
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
  }
};
} // namespace

bool winnerLess(const Candidate &a, const Candidate &b, Device decisionDevice) {
  return RankKey(a, decisionDevice, 0).compare(RankKey(b, decisionDevice, 0)) <
         0;
}

bool withinMeasuredTie(const Candidate &c, const Candidate &fastest) {
  // 128-bit: no product or sum below can overflow.
  __int128 t = c.timeNs, tf = fastest.timeNs;
  __int128 excess = t - tf;
  if (excess <= 0)
    return true;
  // Within 2% of the fastest: 100 * excess <= 2 * tf.
  if (100 * excess <= 2 * tf)
    return true;
  __int128 noise = __int128(c.noiseNs) + __int128(fastest.noiseNs);
  return excess <= noise;
}

std::vector<unsigned> rankOrder(const std::vector<Candidate> &candidates,
                                Device decisionDevice) {
  const unsigned n = candidates.size();
  std::vector<RankKey> keys;
  keys.reserve(n);
  for (unsigned i = 0; i < n; ++i)
    keys.emplace_back(candidates[i], decisionDevice, i);
  // The input index as the last key makes std::sort stable and the result
  // independent of the sort algorithm.
  auto less = [](const RankKey &a, const RankKey &b) {
    int c = a.compare(b);
    return c != 0 ? c < 0 : a.index < b.index;
  };
  std::sort(keys.begin(), keys.end(), less);

  // Measured ties (SEMANTICS §6). The first measured candidate of a device
  // in the plain order is its fastest; every measured candidate of that
  // device within the tie bound of it joins its block. Membership is
  // decided against that one reference, so it is a partition, whatever the
  // pairwise relations between the other members are.
  std::vector<int> leaderOf(n, -1); // input index of the block's fastest
  std::vector<std::pair<Device, unsigned>> fastest; // few devices: a list
  for (const RankKey &k : keys) {
    const Candidate &c = candidates[k.index];
    if (!c.measured())
      continue;
    auto it = llvm::find_if(fastest,
                            [&](const auto &f) { return f.first == c.device; });
    if (it == fastest.end()) {
      fastest.emplace_back(c.device, k.index);
      leaderOf[k.index] = k.index;
    } else if (withinMeasuredTie(c, candidates[it->second])) {
      leaderOf[k.index] = it->second;
    }
  }
  if (fastest.empty()) {
    std::vector<unsigned> order;
    order.reserve(n);
    for (const RankKey &k : keys)
      order.push_back(k.index);
    return order;
  }

  // Each block takes the place of its fastest member; members are ordered
  // by the winner order over their Layer-1 times.
  std::vector<unsigned> order;
  order.reserve(n);
  for (const RankKey &k : keys) {
    int leader = leaderOf[k.index];
    if (leader < 0) {
      order.push_back(k.index);
      continue;
    }
    if (leader != static_cast<int>(k.index))
      continue; // placed with its block
    std::vector<RankKey> block;
    for (unsigned i = 0; i < n; ++i)
      if (leaderOf[i] == leader) {
        block.emplace_back(candidates[i], decisionDevice, i);
        block.back().timeNs = candidates[i].layer1TimeNs();
      }
    std::sort(block.begin(), block.end(), less);
    for (const RankKey &b : block)
      order.push_back(b.index);
  }
  return order;
}

void applyOrder(std::vector<Candidate> &candidates,
                llvm::ArrayRef<unsigned> order) {
  assert(order.size() == candidates.size() && "one position per candidate");
  // Follow each cycle of the permutation once, moving every element
  // exactly once plus one temporary per cycle: no allocation.
  std::vector<bool> done(order.size(), false);
  for (unsigned start = 0, e = order.size(); start < e; ++start) {
    if (done[start] || order[start] == start) {
      done[start] = true;
      continue;
    }
    Candidate tmp = std::move(candidates[start]);
    unsigned j = start;
    while (order[j] != start) {
      candidates[j] = std::move(candidates[order[j]]);
      done[j] = true;
      j = order[j];
    }
    candidates[j] = std::move(tmp);
    done[j] = true;
  }
}

void rank(std::vector<Candidate> &candidates, Device decisionDevice) {
  applyOrder(candidates, rankOrder(candidates, decisionDevice));
}

} // namespace fuel::plan
