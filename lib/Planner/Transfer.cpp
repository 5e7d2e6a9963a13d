//===- Transfer.cpp - The transfer model: paths, hops and copy sets -------===//
//
// Direct paths with their class defaults, exact hop costs and copy sets with
// a shared host hop (SEMANTICS §2, §5, §8).
//
//===----------------------------------------------------------------------===//

#include "fuel/Planner/Transfer.h"

#include "fuel/Planner/Numbers.h"

#include <algorithm>

namespace fuel::plan {

TransferModel::TransferModel(Topology topology) : topo(std::move(topology)) {}

std::optional<PathFigures> TransferModel::directPath(Device from,
                                                     Device to) const {
  if (from == to)
    return std::nullopt;
  // SEMANTICS §5: host<->device is a device copy, shared memory for a
  // CPU-type Vulkan device; two non-host devices need a described link.
  PathClass defaultClass = PathClass::DeviceCopy;
  if (from.isHost() || to.isHost()) {
    Device other = from.isHost() ? to : from;
    const DeviceInfo *info = topo.find(other);
    if (other.kind == DeviceKind::Vulkan && info && info->cpuType)
      defaultClass = PathClass::SharedMemory;
  }
  PathFigures figures;
  if (const Link *link = topo.findLink(from, to)) {
    PathDefaults defaults = pathClassDefaults(link->pathClass);
    figures.pathClass = link->pathClass;
    figures.described = true;
    figures.bandwidthBytesPerSec = link->bandwidthBytesPerSec > 0
                                       ? link->bandwidthBytesPerSec
                                       : defaults.bandwidthBytesPerSec;
    figures.latencyNs =
        link->latencyNs >= 0 ? link->latencyNs : defaults.latencyNs;
    return figures;
  }
  if (!from.isHost() && !to.isHost())
    return std::nullopt;
  PathDefaults defaults = pathClassDefaults(defaultClass);
  figures.pathClass = defaultClass;
  figures.bandwidthBytesPerSec = defaults.bandwidthBytesPerSec;
  figures.latencyNs = defaults.latencyNs;
  return figures;
}

int64_t TransferModel::hopNs(Device from, Device to, uint64_t bytes) const {
  if (from == to)
    return 0;
  std::optional<PathFigures> path = directPath(from, to);
  if (!path)
    return kMaxNs;
  return fuel::plan::hopNs(bytes, path->bandwidthBytesPerSec, path->latencyNs);
}

int64_t TransferModel::pathNs(Device from, Device to, uint64_t bytes) const {
  if (from == to)
    return 0;
  if (hasDirectPath(from, to))
    return hopNs(from, to, bytes);
  return satAdd(hopNs(from, Device::cpu(), bytes),
                hopNs(Device::cpu(), to, bytes));
}

// The placement solvers price the same rule a second time, deliberately, as
// Model::copyCost (lib/Planner/PlacementModel.h): a bit mask of targets and
// hop costs cached per value, because they price copy sets millions of
// times. The two must agree to the nanosecond; the placement property tests
// (brute force against evaluate(), the explanation figures against
// evaluate()) tie them.
CopySet TransferModel::copySet(Device source, llvm::ArrayRef<Device> targets,
                               uint64_t bytes) const {
  std::vector<Device> sorted(targets.begin(), targets.end());
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  sorted.erase(std::remove(sorted.begin(), sorted.end(), source), sorted.end());

  CopySet set;
  // Which targets are staged, and whether the source -> host hop is needed
  // at all (by a staged target or by a host target).
  bool anyStaged = false, hostTarget = false;
  std::vector<bool> direct(sorted.size());
  for (size_t i = 0; i < sorted.size(); ++i) {
    if (sorted[i].isHost()) {
      hostTarget = true;
      direct[i] = true;
      continue;
    }
    direct[i] = hasDirectPath(source, sorted[i]);
    anyStaged |= !direct[i];
  }
  if (anyStaged || hostTarget) {
    Hop h{source, Device::cpu(), hopNs(source, Device::cpu(), bytes),
          anyStaged};
    set.hops.push_back(h);
  }
  for (size_t i = 0; i < sorted.size(); ++i) {
    if (sorted[i].isHost())
      continue;
    if (direct[i])
      set.hops.push_back(
          {source, sorted[i], hopNs(source, sorted[i], bytes), false});
    else
      set.hops.push_back({Device::cpu(), sorted[i],
                          hopNs(Device::cpu(), sorted[i], bytes), true});
  }
  for (const Hop &h : set.hops)
    set.totalNs = satAdd(set.totalNs, h.ns);
  return set;
}

int64_t TransferModel::copySetNs(Device source, llvm::ArrayRef<Device> targets,
                                 uint64_t bytes) const {
  return copySet(source, targets, bytes).totalNs;
}

} // namespace fuel::plan
