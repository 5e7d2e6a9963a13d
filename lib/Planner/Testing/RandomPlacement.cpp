//===- RandomPlacement.cpp - Random placement problems for tests ----------===//
//
// The generators of fuel/Planner/Testing/RandomPlacement.h. The order of
// the draws is part of their contract (see the header).
//
//===----------------------------------------------------------------------===//

#include "fuel/Planner/Testing/RandomPlacement.h"

#include <algorithm>

namespace fuel::plan::testing {

/// The peer link the generators draw between two GPUs.
static Link peerLink(Device from, Device to) {
  return makeLink(from, to, 12'000'000'000, 15'000, PathClass::Peer);
}

/// Makes `t` the topology of `in`: its transfer model, and its devices as
/// the problem's.
static void setTopology(Instance &in, Topology t) {
  t.canonicalize();
  in.tm = std::make_unique<TransferModel>(t);
  in.p.transfers = in.tm.get();
  for (const DeviceInfo &d : t.devices)
    in.p.devices.push_back(d.device);
}

Instance randomInstance(Rng &rng, const Shape &shape) {
  Instance in;
  Topology t;
  std::vector<Device> devs{Device::cpu(), Device::cuda(0)};
  if (shape.numDevices == 3)
    devs.push_back(rng.coin() ? Device::cuda(1) : Device::vulkan(0));
  for (Device d : devs) {
    DeviceInfo info;
    info.device = d;
    info.cpuType = d.isHost() || (d.kind == DeviceKind::Vulkan && rng.coin());
    t.devices.push_back(info);
    if (d.isHost() || rng.below(4) == 0)
      continue; // host links left to the class defaults
    static const int64_t bws[] = {8'000'000'000, 10'000'000'000, 16'000'000'000,
                                  25'000'000'000};
    static const int64_t lats[] = {5'000, 10'000, 30'000};
    t.links.push_back(
        makeLink(Device::cpu(), d, bws[rng.below(4)], lats[rng.below(3)]));
    t.links.push_back(
        makeLink(d, Device::cpu(), bws[rng.below(4)], lats[rng.below(3)]));
  }
  if (devs.size() == 3 && !devs[2].isHost() && rng.coin()) {
    // A peer link one way or both.
    t.links.push_back(peerLink(devs[1], devs[2]));
    if (rng.coin())
      t.links.push_back(peerLink(devs[2], devs[1]));
  }
  setTopology(in, std::move(t));
  PlacementProblem &p = in.p;

  unsigned n =
      shape.exactNodes
          ? shape.exactNodes
          : shape.minNodes +
                unsigned(rng.below(shape.maxNodes - shape.minNodes + 1));
  // Mean node time ~ 800,000 ns; bytes so that one hop at ~10 GB/s costs
  // about that divided by the ratio.
  double meanBytes = 800'000.0 / shape.ratio * 10.0;
  auto bytes = [&] {
    return uint64_t(meanBytes * double(25 + rng.below(176)) / 100.0);
  };
  auto someDevice = [&] {
    return rng.below(3) == 0 ? p.devices[rng.below(p.devices.size())]
                             : Device::cpu();
  };
  for (unsigned k = 0; k < n; ++k) {
    PlaceNode node;
    node.id = shape.irregularOrder ? int64_t(k) * 3 + 7 : int64_t(k);
    node.decisionDevice = p.devices[rng.below(p.devices.size())];
    int64_t base = rng.between(100'000, 1'000'000);
    std::vector<Device> admitted;
    if (rng.below(10) == 0) {
      admitted.push_back(p.devices[rng.below(p.devices.size())]);
    } else {
      for (Device d : p.devices)
        if (rng.below(6) != 0)
          admitted.push_back(d);
      if (admitted.size() < 2)
        admitted = p.devices;
    }
    for (Device d : admitted)
      node.options.push_back(
          {d, base * rng.between(10, 300) / 100 + rng.between(0, 999), {}});
    if (shape.irregularOrder && rng.coin())
      std::reverse(node.options.begin(), node.options.end());
    p.nodes.push_back(std::move(node));
  }

  if (shape.inForest) {
    // Each node result is read by at most one later node or returned.
    std::vector<unsigned> open; // values not yet read
    for (unsigned k = 0; k < n; ++k) {
      std::vector<unsigned> still;
      for (unsigned vi : open) {
        if (rng.below(5) < 2)
          p.values[vi].consumers.push_back(k);
        else
          still.push_back(vi);
      }
      open = std::move(still);
      if (rng.coin()) {
        PlaceValue arg = PlaceValue::onDevice(someDevice(), bytes());
        arg.consumers.push_back(k);
        p.values.push_back(arg);
      }
      p.values.push_back(PlaceValue::ofNode(k, bytes()));
      open.push_back(unsigned(p.values.size() - 1));
    }
    for (unsigned vi : open)
      if (rng.coin())
        p.values[vi].fixedConsumers.push_back(someDevice());
  } else {
    unsigned numArgs = 1 + unsigned(rng.below(3));
    for (unsigned i = 0; i < numArgs; ++i)
      p.values.push_back(PlaceValue::onDevice(someDevice(), bytes()));
    for (unsigned k = 0; k < n; ++k) {
      unsigned reads = unsigned(rng.below(4));
      for (unsigned r = 0; r < reads && !p.values.empty(); ++r) {
        size_t size = p.values.size();
        size_t lo =
            shape.window && size > shape.window ? size - shape.window : 0;
        PlaceValue &v = p.values[lo + rng.below(size - lo)];
        if (!v.producer || *v.producer < k)
          v.consumers.push_back(k);
      }
      unsigned results = rng.below(6) == 0 ? 2 : 1;
      for (unsigned r = 0; r < results; ++r) {
        PlaceValue v = PlaceValue::ofNode(k, bytes());
        if (rng.below(5) == 0)
          v.fixedConsumers.push_back(someDevice());
        if (rng.below(10) == 0)
          v.fixedConsumers.push_back(Device::cpu());
        p.values.push_back(v);
      }
    }
  }

  if (shape.coupling) {
    unsigned numAdj = 1 + unsigned(rng.below(4));
    for (unsigned i = 0; i < numAdj; ++i) {
      PlaceNode &node = p.nodes[rng.below(n)];
      PlaceOption &o = node.options[rng.below(node.options.size())];
      CouplingAdjustment a;
      a.otherNode = p.nodes[rng.below(n)].id;
      if (rng.coin())
        a.condition = p.devices[rng.below(p.devices.size())];
      else
        a.condition = rng.coin() ? DeviceKind::Cpu : DeviceKind::Cuda;
      a.deltaNs = rng.between(-400'000, 200'000);
      o.couplings.push_back(a);
    }
  }
  return in;
}

Instance groupMoveInstance(Rng &rng, unsigned minNodes, unsigned maxNodes) {
  Instance in;
  Topology t;
  std::vector<Device> devs{Device::cpu(), Device::cuda(0), Device::cuda(1)};
  for (Device d : devs) {
    DeviceInfo info;
    info.device = d;
    info.cpuType = d.isHost();
    t.devices.push_back(info);
    if (d.isHost())
      continue;
    t.links.push_back(makeLink(Device::cpu(), d, 10'000'000'000, 10'000));
    t.links.push_back(makeLink(d, Device::cpu(), 10'000'000'000, 10'000));
  }
  if (rng.coin()) {
    t.links.push_back(peerLink(devs[1], devs[2]));
    t.links.push_back(peerLink(devs[2], devs[1]));
  }
  setTopology(in, std::move(t));
  PlacementProblem &p = in.p;

  unsigned n = minNodes + unsigned(rng.below(maxNodes - minNodes + 1));
  for (unsigned k = 0; k < n; ++k) {
    PlaceNode node;
    node.id = int64_t(k);
    node.decisionDevice = Device::cpu();
    for (Device d : devs)
      node.options.push_back({d, rng.between(1, 20) * 100'000, {}});
    p.nodes.push_back(std::move(node));
  }
  auto bytes = [&] { return uint64_t(rng.between(1, 3)) * 4'000'000; };
  unsigned numArgs = 1 + unsigned(rng.below(2));
  for (unsigned i = 0; i < numArgs; ++i) {
    PlaceValue arg = PlaceValue::onDevice(Device::cpu(), bytes());
    for (unsigned k = 0; k < std::min(n, 2u); ++k)
      if (i == 0 || rng.coin())
        arg.consumers.push_back(k);
    p.values.push_back(arg);
  }
  for (unsigned k = 0; k < n; ++k) {
    PlaceValue v = PlaceValue::ofNode(k, bytes());
    // Two or three readers among the next four nodes, in node order.
    std::vector<unsigned> later;
    for (unsigned c = k + 1; c < std::min(n, k + 5); ++c)
      later.push_back(c);
    rng.shuffle(later);
    unsigned readers = 2 + unsigned(rng.below(2));
    if (later.size() > readers)
      later.resize(readers);
    std::sort(later.begin(), later.end());
    v.consumers = later;
    if (later.size() < 2)
      v.fixedConsumers.push_back(Device::cpu());
    p.values.push_back(std::move(v));
  }
  return in;
}

} // namespace fuel::plan::testing
