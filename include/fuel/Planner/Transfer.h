//===- Transfer.h - Transfer model: paths, hops and copy sets ---*- C++ -*-===//
//
// What moving bytes between devices costs (SEMANTICS §5, "Copy set and its
// cost"). Links are directed. The host reaches every device and every device
// reaches the host directly: through the link the topology describes, else
// through the default of the path class (device copy, or shared memory for a
// CPU-type Vulkan device). Two non-host devices have a direct path only when
// the topology describes a link between them; otherwise a copy is staged
// through the host. A hop costs `latency + ceil(bytes * 10^9 / bandwidth)`,
// exact in 128-bit integers (SEMANTICS §2).
//
// The copy set of a value is what copy insertion emits (SEMANTICS §8) and
// what the placement objective charges: one copy per (value, target device),
// with the hop to the host made once and shared by every staged target and
// by a host target.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_PLANNER_TRANSFER_H
#define FUEL_PLANNER_TRANSFER_H

#include "fuel/Planner/Device.h"
#include "fuel/Planner/Topology.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace fuel::plan {

/// The figures of one direct, directed path.
struct PathFigures {
  /// Bytes per second (1 GB = 10^9 bytes); positive.
  int64_t bandwidthBytesPerSec = 0;
  /// Fixed cost of one hop, in ns.
  int64_t latencyNs = 0;
  /// The path class the figures belong to.
  PathClass pathClass = PathClass::DeviceCopy;
  /// True when the topology describes the link; false for a class default.
  bool described = false;
};

/// One hop of a copy set.
struct Hop {
  Device from;
  Device to;
  /// `latency + ceil(bytes * 10^9 / bandwidth)`, saturating.
  int64_t ns = 0;
  /// True when the hop is a leg of a two-hop path through the host: the
  /// host-to-target leg of a staged target, or the source-to-host leg when
  /// at least one staged target uses it (even if the host is also a target).
  bool staged = false;

  friend bool operator==(const Hop &a, const Hop &b) {
    return a.from == b.from && a.to == b.to && a.ns == b.ns &&
           a.staged == b.staged;
  }
};

/// The copies that bring one value from its device to every device that
/// needs it (SEMANTICS §5, §8).
struct CopySet {
  /// The shared source-to-host hop first (when any target needs it), then
  /// one hop per other target in device order: direct, or host-to-target
  /// when staged.
  std::vector<Hop> hops;
  /// Sum of the hops' ns, saturating at INT64_MAX.
  int64_t totalNs = 0;
};

/// Paths and hop costs of a topology. Built once per topology; cheap to
/// query. Devices the topology does not list are treated as plain
/// (non-CPU-type) devices with no described links.
class TransferModel {
public:
  /// Keeps a copy of the topology.
  explicit TransferModel(Topology topology);

  /// The topology the model was built from.
  const Topology &topology() const { return topo; }

  /// The figures of the direct path from -> to: the described link; for a
  /// host<->device pair without one, the class default (device copy, or
  /// shared memory when the non-host end is a Vulkan device whose record
  /// says cpuType); std::nullopt for two non-host devices without a link
  /// and for from == to. A described link with a non-positive bandwidth or
  /// a negative latency takes its class's default for that figure.
  std::optional<PathFigures> directPath(Device from, Device to) const;

  /// True when a copy from -> to needs one hop (from != to).
  bool hasDirectPath(Device from, Device to) const {
    return directPath(from, to).has_value();
  }

  /// The cost of one direct hop from -> to moving `bytes`: 0 when
  /// from == to, INT64_MAX when there is no direct path.
  int64_t hopNs(Device from, Device to, uint64_t bytes) const;

  /// The cost of bringing `bytes` from `from` to `to` alone: 0 when equal,
  /// the direct hop when there is one, else the two hops through the host.
  int64_t pathNs(Device from, Device to, uint64_t bytes) const;

  /// The copy set of a value of `bytes` on `source` needed on `targets`
  /// (any order, duplicates and the source itself allowed): for each
  /// distinct target d != source, a direct hop when there is a direct path,
  /// else two hops through the host where source -> cpu is made once and
  /// shared by every staged target and by a cpu target (SEMANTICS §5).
  CopySet copySet(Device source, llvm::ArrayRef<Device> targets,
                  uint64_t bytes) const;

  /// copySet(source, targets, bytes).totalNs without building the hops.
  int64_t copySetNs(Device source, llvm::ArrayRef<Device> targets,
                    uint64_t bytes) const;

private:
  Topology topo;
};

} // namespace fuel::plan

#endif // FUEL_PLANNER_TRANSFER_H
