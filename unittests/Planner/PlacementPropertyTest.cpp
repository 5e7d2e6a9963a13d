//===- PlacementPropertyTest.cpp - Placement solvers over random DAGs -----===//
//
// Property tests of SEMANTICS §5 over thousands of random functions drawn
// from fixed seeds (up to 10 nodes; two and three devices; compute-to-
// transfer ratios 0.1, 1 and 10): brute force agrees with a direct
// enumeration of the definition; exact-tree equals brute force on
// in-forests and mincut equals it with two devices; auto is never worse
// than greedy or any single-device plan and never better than brute force,
// with and without coupling terms; the explanation figures agree with the
// objective.
//
//===----------------------------------------------------------------------===//

#include "PlannerTestUtil.h"

#include "fuel/Planner/Placement.h"

#include "gtest/gtest.h"

#include <memory>

using namespace fuel::plan;
using fuel::plan::testing::Rng;

namespace {

const double kRatios[] = {0.1, 1.0, 10.0};

/// A random function and the topology it is planned for.
struct Instance {
  std::unique_ptr<TransferModel> tm;
  PlacementProblem p;
};

struct Shape {
  unsigned maxNodes = 10;
  /// Fewest nodes (at most maxNodes).
  unsigned minNodes = 1;
  /// When non-zero, nodes read only among the last `window` values (a
  /// model-like, local graph); else any earlier value.
  unsigned window = 0;
  unsigned numDevices = 2;
  /// Mean node time over mean hop time.
  double ratio = 1.0;
  bool inForest = false;
  bool coupling = false;
};

Link makeLink(Device from, Device to, int64_t bw, int64_t lat,
              PathClass cls = PathClass::DeviceCopy) {
  Link l;
  l.from = from;
  l.to = to;
  l.bandwidthBytesPerSec = bw;
  l.latencyNs = lat;
  l.pathClass = cls;
  return l;
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
    t.links.push_back(
        makeLink(devs[1], devs[2], 12'000'000'000, 15'000, PathClass::Peer));
    if (rng.coin())
      t.links.push_back(
          makeLink(devs[2], devs[1], 12'000'000'000, 15'000, PathClass::Peer));
  }
  t.canonicalize();
  in.tm = std::make_unique<TransferModel>(t);
  PlacementProblem &p = in.p;
  p.transfers = in.tm.get();
  for (const DeviceInfo &d : t.devices)
    p.devices.push_back(d.device);

  unsigned n =
      shape.minNodes + unsigned(rng.below(shape.maxNodes - shape.minNodes + 1));
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
    node.id = int64_t(k) * 3 + 7;
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
    if (rng.coin())
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
  EXPECT_EQ(p.validate(), "");
  return in;
}

PlacementResult solve(const PlacementProblem &p, PlacementAlgorithm a) {
  llvm::Expected<PlacementResult> r = solvePlacement(p, a);
  if (!r) {
    ADD_FAILURE() << llvm::toString(r.takeError());
    return {};
  }
  return std::move(*r);
}

/// Every node that admits `d` on it, the others on their decision device
/// when admitted, else their first admitted device in device order.
std::vector<Device> singleDevicePlan(const PlacementProblem &p, Device d) {
  std::vector<Device> plan;
  for (const PlaceNode &n : p.nodes) {
    if (n.option(d)) {
      plan.push_back(d);
    } else if (n.option(n.decisionDevice)) {
      plan.push_back(n.decisionDevice);
    } else {
      Device least = n.options[0].device;
      for (const PlaceOption &o : n.options)
        least = std::min(least, o.device);
      plan.push_back(least);
    }
  }
  return plan;
}

/// The least plan (node order, device order) of least objective, by
/// enumerating every plan and calling evaluate().
std::pair<std::vector<Device>, int64_t> enumerate(const PlacementProblem &p) {
  std::vector<std::vector<Device>> choices;
  for (const PlaceNode &n : p.nodes) {
    std::vector<Device> c;
    for (const PlaceOption &o : n.options)
      c.push_back(o.device);
    std::sort(c.begin(), c.end());
    choices.push_back(c);
  }
  std::vector<size_t> idx(p.nodes.size(), 0);
  std::vector<Device> plan(p.nodes.size()), best;
  int64_t bestTotal = 0;
  bool first = true;
  while (true) {
    for (size_t k = 0; k < idx.size(); ++k)
      plan[k] = choices[k][idx[k]];
    int64_t total = evaluate(p, plan).totalNs;
    if (first || total < bestTotal) {
      best = plan;
      bestTotal = total;
      first = false;
    }
    if (plan.empty())
      break;
    // Odometer, last node fastest: lexicographic order.
    size_t k = idx.size();
    while (k > 0 && ++idx[k - 1] == choices[k - 1].size())
      idx[--k] = 0;
    if (k == 0)
      break;
  }
  return {best, bestTotal};
}

TEST(PlacementPropertyTest, BruteForceMatchesTheDefinition) {
  Rng rng(0x5eed0001);
  for (unsigned i = 0; i < 1000; ++i) {
    Shape s;
    s.maxNodes = 6;
    s.numDevices = 2 + unsigned(rng.below(2));
    s.ratio = kRatios[rng.below(3)];
    s.inForest = rng.below(4) == 0;
    s.coupling = rng.coin();
    Instance in = randomInstance(rng, s);
    auto [plan, total] = enumerate(in.p);
    PlacementResult r = solve(in.p, PlacementAlgorithm::BruteForce);
    ASSERT_EQ(r.objective.totalNs, total) << "instance " << i;
    ASSERT_EQ(r.placement, plan) << "instance " << i;
    EXPECT_TRUE(r.exact);
  }
}

TEST(PlacementPropertyTest, ExactTreeIsExactOnInForests) {
  Rng rng(0x5eed0002);
  for (unsigned devices : {2u, 3u})
    for (double ratio : kRatios)
      for (unsigned i = 0; i < 500; ++i) {
        Shape s;
        s.numDevices = devices;
        s.ratio = ratio;
        s.inForest = true;
        Instance in = randomInstance(rng, s);
        ASSERT_TRUE(in.p.isInForest());
        int64_t best =
            solve(in.p, PlacementAlgorithm::BruteForce).objective.totalNs;
        PlacementResult tree = solve(in.p, PlacementAlgorithm::ExactTree);
        EXPECT_TRUE(tree.exact);
        ASSERT_EQ(tree.objective.totalNs, best)
            << devices << " devices, ratio " << ratio << ", instance " << i;
        PlacementResult a = solve(in.p, PlacementAlgorithm::Auto);
        EXPECT_TRUE(a.exact);
        ASSERT_EQ(a.objective.totalNs, best);
      }
}

TEST(PlacementPropertyTest, MinCutIsExactWithTwoDevices) {
  Rng rng(0x5eed0003);
  for (double ratio : kRatios)
    for (unsigned i = 0; i < 1000; ++i) {
      Shape s;
      s.numDevices = 2;
      s.ratio = ratio;
      Instance in = randomInstance(rng, s);
      int64_t best =
          solve(in.p, PlacementAlgorithm::BruteForce).objective.totalNs;
      PlacementResult cut = solve(in.p, PlacementAlgorithm::MinCut);
      EXPECT_TRUE(cut.exact);
      ASSERT_EQ(cut.objective.totalNs, best)
          << "ratio " << ratio << ", instance " << i;
      PlacementResult a = solve(in.p, PlacementAlgorithm::Auto);
      EXPECT_TRUE(a.exact);
      ASSERT_EQ(a.objective.totalNs, best);
    }
}

/// brute force <= auto <= greedy and every single-device plan; the other
/// solvers never beat brute force.
void checkAutoBounds(const Instance &in, const std::string &what) {
  const PlacementProblem &p = in.p;
  int64_t best = solve(p, PlacementAlgorithm::BruteForce).objective.totalNs;
  int64_t a = solve(p, PlacementAlgorithm::Auto).objective.totalNs;
  int64_t g = solve(p, PlacementAlgorithm::Greedy).objective.totalNs;
  EXPECT_LE(best, a) << what;
  EXPECT_LE(a, g) << what;
  for (Device d : p.devices)
    EXPECT_LE(a, evaluate(p, singleDevicePlan(p, d)).totalNs)
        << what << ", single device " << d.str();
  if (!p.hasCoupling())
    EXPECT_LE(best, solve(p, PlacementAlgorithm::ExactTree).objective.totalNs)
        << what;
}

TEST(PlacementPropertyTest, AutoBetweenBruteForceAndBaselines) {
  Rng rng(0x5eed0004);
  for (unsigned devices : {2u, 3u})
    for (double ratio : kRatios)
      for (unsigned i = 0; i < 500; ++i) {
        Shape s;
        s.numDevices = devices;
        s.ratio = ratio;
        Instance in = randomInstance(rng, s);
        checkAutoBounds(in, std::to_string(devices) + " devices, ratio " +
                                std::to_string(ratio) + ", instance " +
                                std::to_string(i));
      }
}

TEST(PlacementPropertyTest, CoupledAutoAgainstBruteForce) {
  Rng rng(0x5eed0005);
  for (unsigned devices : {2u, 3u})
    for (unsigned i = 0; i < 500; ++i) {
      Shape s;
      s.numDevices = devices;
      s.ratio = kRatios[rng.below(3)];
      s.coupling = true;
      Instance in = randomInstance(rng, s);
      checkAutoBounds(in, std::to_string(devices) +
                              " devices, coupled, "
                              "instance " +
                              std::to_string(i));
    }
}

/// Functions above 2000 nodes take auto's bounded search (one start
/// improved, regional expansion moves under a budget): it still never loses
/// to greedy, the tree DP or a single-device plan, prices its plan exactly
/// and is deterministic.
TEST(PlacementPropertyTest, LargeAutoKeepsItsBounds) {
  Rng rng(0x5eed0007);
  for (unsigned i = 0; i < 8; ++i) {
    Shape s;
    s.numDevices = 3;
    s.minNodes = 2001;
    s.maxNodes = 5000;
    s.window = i % 2 ? 40 : 0;
    s.ratio = kRatios[i % 3];
    s.coupling = i >= 6;
    Instance in = randomInstance(rng, s);
    const PlacementProblem &p = in.p;
    std::string what = "large instance " + std::to_string(i);
    PlacementResult a = solve(p, PlacementAlgorithm::Auto);
    ASSERT_EQ(a.placement.size(), p.nodes.size()) << what;
    EXPECT_EQ(a.objective, evaluate(p, a.placement)) << what;
    EXPECT_LE(a.objective.totalNs,
              solve(p, PlacementAlgorithm::Greedy).objective.totalNs)
        << what;
    if (!p.hasCoupling())
      EXPECT_LE(a.objective.totalNs,
                solve(p, PlacementAlgorithm::ExactTree).objective.totalNs)
          << what;
    for (Device d : p.devices)
      EXPECT_LE(a.objective.totalNs,
                evaluate(p, singleDevicePlan(p, d)).totalNs)
          << what << ", single device " << d.str();
    EXPECT_EQ(solve(p, PlacementAlgorithm::Auto).placement, a.placement)
        << what;
  }
}

TEST(PlacementPropertyTest, ExplanationFiguresAgreeWithTheObjective) {
  Rng rng(0x5eed0006);
  for (unsigned i = 0; i < 1000; ++i) {
    Shape s;
    s.numDevices = 2 + unsigned(rng.below(2));
    s.ratio = kRatios[rng.below(3)];
    s.coupling = rng.coin();
    Instance in = randomInstance(rng, s);
    const PlacementProblem &p = in.p;
    std::vector<Device> plan;
    for (const PlaceNode &n : p.nodes)
      plan.push_back(n.options[rng.below(n.options.size())].device);
    int64_t total = evaluate(p, plan).totalNs;
    std::vector<MoveDelta> moves = bestOtherDevice(p, plan);
    for (size_t k = 0; k < p.nodes.size(); ++k) {
      const PlaceNode &n = p.nodes[k];
      // The least change over the other devices; ties: decision device,
      // then device order.
      std::optional<Device> want;
      int64_t wantDelta = 0;
      std::vector<Device> order;
      if (n.option(n.decisionDevice))
        order.push_back(n.decisionDevice);
      for (Device d : p.devices)
        if (n.option(d) && d != n.decisionDevice)
          order.push_back(d);
      for (Device d : order) {
        if (d == plan[k])
          continue;
        std::vector<Device> moved = plan;
        moved[k] = d;
        int64_t delta = evaluate(p, moved).totalNs - total;
        if (!want || delta < wantDelta) {
          want = d;
          wantDelta = delta;
        }
      }
      ASSERT_EQ(moves[k].device.has_value(), want.has_value());
      if (want) {
        EXPECT_EQ(*moves[k].device, *want) << "instance " << i;
        EXPECT_EQ(moves[k].deltaNs, wantDelta) << "instance " << i;
      }
    }
    std::vector<int64_t> inbound = inboundTransferNs(p, plan);
    std::vector<int64_t> want(p.nodes.size(), 0);
    for (const PlaceValue &v : p.values) {
      Device src = v.producer ? plan[*v.producer] : v.fixedSource;
      std::vector<unsigned> readers = v.consumers;
      std::sort(readers.begin(), readers.end());
      readers.erase(std::unique(readers.begin(), readers.end()), readers.end());
      for (unsigned c : readers)
        want[c] += p.transfers->pathNs(src, plan[c], v.bytes);
    }
    EXPECT_EQ(inbound, want);
  }
}

} // namespace
