//===- BufferPlan.cpp - Arena offsets by interval packing -----------------===//
//
// Greedy best-fit interval packing. In-place hints first merge buffers into
// chains that share one slot (a result taking over an operand that dies at
// the command writing it); each chain is then placed as one unit, largest
// first, at the tightest aligned gap left by the already placed units whose
// live intervals intersect its own, found through buckets of commands so that
// a unit meets only the units live around it.
//
//===----------------------------------------------------------------------===//

#include "fuel/Planner/BufferPlan.h"

#include "fuel/Planner/Error.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <numeric>
#include <string>
#include <tuple>

using namespace fuel::plan;

namespace {

bool isPowerOfTwo(uint64_t x) { return x != 0 && (x & (x - 1)) == 0; }

/// `x` rounded up to a multiple of `alignment` (a power of two); false on
/// overflow.
bool alignUp(uint64_t x, uint64_t alignment, uint64_t &out) {
  uint64_t sum;
  if (__builtin_add_overflow(x, alignment - 1, &sum))
    return false;
  out = sum & ~(alignment - 1);
  return true;
}

/// A chain of buffers sharing one slot, placed as one unit.
struct Unit {
  unsigned device = 0;
  uint64_t size = 0;
  uint64_t alignment = 1;
  unsigned first = 0;
  unsigned last = 0;
  /// The smallest member index: the final, stable tie-break between units
  /// that are equal in every other respect (and so interchangeable).
  unsigned minIndex = 0;
  std::vector<unsigned> members;
  uint64_t offset = 0;
};

bool intersects(const Unit &a, const Unit &b) {
  return a.first <= b.last && b.first <= a.last;
}

/// Union-find over request indices.
unsigned findRoot(std::vector<unsigned> &parent, unsigned i) {
  while (parent[i] != i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

llvm::Error invalid(const std::string &message) {
  return PlanError::make(PlanError::Kind::InvalidOption, message);
}

} // namespace

llvm::Expected<BufferPlan>
fuel::plan::planBuffers(llvm::ArrayRef<BufferRequest> requests,
                        unsigned numDevices) {
  const unsigned n = requests.size();
  for (unsigned i = 0; i < n; ++i) {
    const BufferRequest &r = requests[i];
    std::string which = "buffer " + std::to_string(i);
    if (r.device >= numDevices)
      return invalid(which + " is on device " + std::to_string(r.device) +
                     " of " + std::to_string(numDevices));
    if (r.firstUse > r.lastUse)
      return invalid(which + " is first used at command " +
                     std::to_string(r.firstUse) + ", after its last use " +
                     std::to_string(r.lastUse));
    if (!isPowerOfTwo(r.alignment))
      return invalid(which + " has alignment " + std::to_string(r.alignment) +
                     ", not a power of two");
    if (r.inPlaceOf && *r.inPlaceOf >= n)
      return invalid(which + " may overwrite buffer " +
                     std::to_string(*r.inPlaceOf) + " of " + std::to_string(n));
  }

  BufferPlan plan;
  plan.offsets.assign(n, 0);
  plan.sharesWith.assign(n, std::nullopt);
  plan.arenaBytes.assign(numDevices, 0);
  plan.arenaAlignment.assign(numDevices, kDefaultBufferAlignment);

  // In-place hints. For each operand, the taker is the best of the results
  // hinting at it: largest, then most aligned, then longest lived, then the
  // lowest index (only interchangeable candidates get that far).
  auto hintUsable = [&](unsigned r) {
    const BufferRequest &req = requests[r];
    if (!req.inPlaceOf || *req.inPlaceOf == r || req.size == 0)
      return false;
    const BufferRequest &op = requests[*req.inPlaceOf];
    return op.device == req.device && op.lastUse == req.firstUse &&
           op.size >= req.size && op.alignment >= req.alignment;
  };
  auto takerKey = [&](unsigned r) {
    const BufferRequest &req = requests[r];
    return std::make_tuple(~req.size, ~req.alignment, ~req.lastUse, r);
  };
  std::vector<std::optional<unsigned>> takerOf(n);
  for (unsigned r = 0; r < n; ++r) {
    if (!hintUsable(r))
      continue;
    std::optional<unsigned> &taker = takerOf[*requests[r].inPlaceOf];
    if (!taker || takerKey(r) < takerKey(*taker))
      taker = r;
  }
  std::vector<unsigned> parent(n);
  std::iota(parent.begin(), parent.end(), 0u);
  // Merge in operand order of first use so that chains form the same way
  // whatever the request order; a hint closing a cycle (possible only for
  // buffers live at a single command) is dropped.
  std::vector<unsigned> byFirst(n);
  std::iota(byFirst.begin(), byFirst.end(), 0u);
  llvm::stable_sort(byFirst, [&](unsigned a, unsigned b) {
    return std::make_tuple(requests[a].firstUse, requests[a].lastUse,
                           ~requests[a].size) <
           std::make_tuple(requests[b].firstUse, requests[b].lastUse,
                           ~requests[b].size);
  });
  for (unsigned h : byFirst) {
    if (!takerOf[h])
      continue;
    unsigned r = *takerOf[h];
    unsigned rootH = findRoot(parent, h), rootR = findRoot(parent, r);
    if (rootH == rootR)
      continue;
    parent[rootR] = rootH;
    plan.sharesWith[r] = h;
  }

  // Units: one per chain.
  std::vector<Unit> units;
  std::vector<int> unitOfRoot(n, -1);
  for (unsigned i = 0; i < n; ++i) {
    const BufferRequest &r = requests[i];
    if (r.size == 0)
      continue;
    unsigned root = findRoot(parent, i);
    if (unitOfRoot[root] < 0) {
      unitOfRoot[root] = units.size();
      Unit u;
      u.device = r.device;
      u.first = r.firstUse;
      u.last = r.lastUse;
      u.minIndex = i;
      units.push_back(u);
    }
    Unit &u = units[unitOfRoot[root]];
    u.size = std::max(u.size, r.size);
    u.alignment = std::max(u.alignment, r.alignment);
    u.first = std::min(u.first, r.firstUse);
    u.last = std::max(u.last, r.lastUse);
    u.members.push_back(i);
  }

  // Largest first; then earliest, shortest-lived, most aligned, by device.
  std::vector<unsigned> order(units.size());
  std::iota(order.begin(), order.end(), 0u);
  llvm::sort(order, [&](unsigned a, unsigned b) {
    const Unit &x = units[a], &y = units[b];
    return std::make_tuple(~x.size, x.first, x.last, ~x.alignment, x.device,
                           x.minIndex) < std::make_tuple(~y.size, y.first,
                                                         y.last, ~y.alignment,
                                                         y.device, y.minIndex);
  });

  // The placed units by time: bucket b of a device lists the units live at
  // some command in [b * kBucket, (b + 1) * kBucket). A unit meets in time
  // only units of the buckets its interval covers, so finding them costs
  // what is live around it, not every unit placed before it.
  // Buckets of 32 commands, wider where commands are sparse (at most about
  // two buckets per unit, whatever the command numbers).
  unsigned lastCommand = 0;
  for (const Unit &u : units)
    lastCommand = std::max(lastCommand, u.last);
  const unsigned kBucket = std::max<unsigned>(
      32, unsigned(lastCommand / (2 * uint64_t(units.size()) + 1)) + 1);
  unsigned horizon = units.empty() ? 0 : lastCommand / kBucket + 1;
  std::vector<std::vector<std::vector<unsigned>>> placedOn(
      numDevices, std::vector<std::vector<unsigned>>(horizon));
  // seen[p] == u: placed unit p was already met by unit u.
  std::vector<unsigned> seen(units.size(), ~0u);
  std::vector<std::pair<uint64_t, uint64_t>> busy;
  for (unsigned ui : order) {
    Unit &u = units[ui];
    // The placed units this one meets in time, by offset (the sort makes
    // the order they were found in irrelevant).
    busy.clear();
    std::vector<std::vector<unsigned>> &buckets = placedOn[u.device];
    for (unsigned b = u.first / kBucket; b <= u.last / kBucket; ++b)
      for (unsigned pi : buckets[b])
        if (seen[pi] != ui) {
          seen[pi] = ui;
          if (intersects(u, units[pi]))
            busy.push_back(
                {units[pi].offset, units[pi].offset + units[pi].size});
        }
    llvm::sort(busy);
    std::optional<uint64_t> best;
    uint64_t bestGap = 0;
    uint64_t cursor = 0;
    for (auto [begin, end] : busy) {
      uint64_t start;
      if (!alignUp(cursor, u.alignment, start))
        return invalid("the arena of device " + std::to_string(u.device) +
                       " overflows 64 bits");
      if (begin > start && begin - start >= u.size) {
        uint64_t gap = begin - start;
        if (!best || gap < bestGap) {
          best = start;
          bestGap = gap;
        }
      }
      cursor = std::max(cursor, end);
    }
    if (!best) {
      uint64_t start, end;
      if (!alignUp(cursor, u.alignment, start) ||
          __builtin_add_overflow(start, u.size, &end))
        return invalid("the arena of device " + std::to_string(u.device) +
                       " overflows 64 bits");
      best = start;
    }
    u.offset = *best;
    for (unsigned b = u.first / kBucket; b <= u.last / kBucket; ++b)
      buckets[b].push_back(ui);
    for (unsigned m : u.members)
      plan.offsets[m] = u.offset;
    uint64_t end = u.offset + u.size, rounded;
    if (!alignUp(end, kDefaultBufferAlignment, rounded))
      return invalid("the arena of device " + std::to_string(u.device) +
                     " overflows 64 bits");
    plan.arenaBytes[u.device] = std::max(plan.arenaBytes[u.device], rounded);
    plan.arenaAlignment[u.device] =
        std::max(plan.arenaAlignment[u.device], u.alignment);
  }
  return plan;
}

uint64_t fuel::plan::peakLiveBytes(llvm::ArrayRef<BufferRequest> requests,
                                   const BufferPlan &plan, unsigned device) {
  const unsigned n = requests.size();
  std::vector<unsigned> parent(n);
  std::iota(parent.begin(), parent.end(), 0u);
  for (unsigned i = 0; i < n; ++i)
    if (i < plan.sharesWith.size() && plan.sharesWith[i]) {
      unsigned a = findRoot(parent, i),
               b = findRoot(parent, *plan.sharesWith[i]);
      if (a != b)
        parent[a] = b;
    }
  // Per chain: its size (the largest member) and its live interval.
  std::vector<uint64_t> size(n, 0);
  std::vector<unsigned> first(n, ~0u), last(n, 0);
  unsigned horizon = 0;
  for (unsigned i = 0; i < n; ++i) {
    if (requests[i].device != device)
      continue;
    unsigned root = findRoot(parent, i);
    size[root] = std::max(size[root], requests[i].size);
    first[root] = std::min(first[root], requests[i].firstUse);
    last[root] = std::max(last[root], requests[i].lastUse);
    horizon = std::max(horizon, requests[i].lastUse + 1);
  }
  // Sweep: +size at first, -size after last.
  std::vector<int64_t> delta(horizon + 1, 0);
  for (unsigned i = 0; i < n; ++i)
    if (size[i] != 0 && findRoot(parent, i) == i) {
      delta[first[i]] += size[i];
      delta[last[i] + 1] -= size[i];
    }
  int64_t live = 0, peak = 0;
  for (int64_t d : delta)
    peak = std::max(peak, live += d);
  return peak;
}
