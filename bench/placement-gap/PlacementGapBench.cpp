//===- PlacementGapBench.cpp - Optimality gap of the placement solvers ----===//
//
// Draws random functions (SEMANTICS §5) per cell — two or three devices,
// compute-to-transfer ratio 0.1, 1 or 10, plus an in-forest cell, a coupled
// cell and a cell of three-device functions built to need group moves
// (fan-out values whose producer and some readers must move together) — and
// places each with auto, greedy and brute force. Prints, per cell and over
// all three-device cells, the mean and worst optimality gap of auto and of
// greedy (the baseline) against brute force (percent of the optimum); per
// cell also how often auto was exact and the time auto took as a fraction
// of the time brute force took on the same functions. Not a test: nothing
// here asserts. The functions come from the property tests' generators in
// FuelPlannerTestSupport (fuel/Planner/Testing/RandomPlacement.h).
//
// Usage: fuel-bench-placement-gap [--dags N] [--nodes MAX] [--seed S]
//
// Timing mode on large functions (no brute force): `--scale N` draws one
// function of exactly N nodes from the same generator (`--window W`: nodes
// read only among the last W values, a local, model-like graph; `--devices
// 2|3`, `--ratio R`, `--seed S`); `--load FILE` reads a problem in the text
// form loadProblem() documents (one record a line: `device D cpuType`, `link
// FROM TO BW LAT CLASS`, `pdev D`, `node ID DECISION K [DEV TIME]*K`,
// `value BYTES PRODUCER|-1 SOURCE K [C]*K F [DEV]*F`). Either prints, per
// solver (`--algorithm A` for one), the time of solvePlacement, of the
// explanation figures and of evaluate(), and the objective.
//
//===----------------------------------------------------------------------===//

#include "fuel/Planner/Testing/RandomPlacement.h"

#include "fuel/Planner/Placement.h"

#include "llvm/Support/Error.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

using namespace fuel::plan;
using fuel::plan::testing::groupMoveInstance;
using fuel::plan::testing::Instance;
using fuel::plan::testing::makeLink;
using fuel::plan::testing::randomInstance;
using fuel::plan::testing::Rng;
using fuel::plan::testing::Shape;

namespace {

using Clock = std::chrono::steady_clock;

/// Solves and adds the elapsed seconds to `seconds`.
PlacementResult timedSolve(const PlacementProblem &p, PlacementAlgorithm a,
                           double &seconds) {
  Clock::time_point start = Clock::now();
  llvm::Expected<PlacementResult> r = solvePlacement(p, a);
  seconds += std::chrono::duration<double>(Clock::now() - start).count();
  if (!r) {
    std::fprintf(stderr, "error: %s\n", llvm::toString(r.takeError()).c_str());
    std::exit(1);
  }
  return std::move(*r);
}

/// Gap of `total` over the optimum in percent of the optimum's magnitude
/// (at least 1 ns, so coupled optima near zero stay finite).
double gapPercent(int64_t total, int64_t best) {
  double denom = std::max<double>(1.0, std::abs(double(best)));
  return 100.0 * double(total - best) / denom;
}

/// Reads a problem written in the text form of writeProblem (one record a
/// line: device, link, pdev, node, value); exits on a malformed file.
Instance loadProblem(const char *path) {
  Instance in;
  FILE *f = std::fopen(path, "r");
  if (!f) {
    std::fprintf(stderr, "error: cannot open %s\n", path);
    std::exit(1);
  }
  auto fail = [&](const char *what) {
    std::fprintf(stderr, "error: %s: malformed %s\n", path, what);
    std::exit(1);
  };
  auto dev = [&](const char *s) {
    std::optional<Device> d = Device::parse(s);
    if (!d)
      fail("device");
    return *d;
  };
  Topology t;
  PlacementProblem &p = in.p;
  char word[64], a[64], b[64];
  while (std::fscanf(f, "%63s", word) == 1) {
    std::string w = word;
    if (w == "fuelplace") {
      int version;
      if (std::fscanf(f, "%d", &version) != 1)
        fail("header");
    } else if (w == "device") {
      int cpuType;
      if (std::fscanf(f, "%63s %d", a, &cpuType) != 2)
        fail("device");
      DeviceInfo info;
      info.device = dev(a);
      info.cpuType = cpuType != 0;
      t.devices.push_back(info);
    } else if (w == "link") {
      long long bw, lat;
      int cls;
      if (std::fscanf(f, "%63s %63s %lld %lld %d", a, b, &bw, &lat, &cls) != 5)
        fail("link");
      t.links.push_back(makeLink(dev(a), dev(b), bw, lat, PathClass(cls)));
    } else if (w == "pdev") {
      if (std::fscanf(f, "%63s", a) != 1)
        fail("pdev");
      p.devices.push_back(dev(a));
    } else if (w == "node") {
      long long id;
      size_t n;
      if (std::fscanf(f, "%lld %63s %zu", &id, a, &n) != 3)
        fail("node");
      PlaceNode node;
      node.id = id;
      node.decisionDevice = dev(a);
      for (size_t i = 0; i < n; ++i) {
        long long time;
        if (std::fscanf(f, "%63s %lld", a, &time) != 2)
          fail("option");
        node.options.push_back({dev(a), time, {}});
      }
      p.nodes.push_back(std::move(node));
    } else if (w == "value") {
      unsigned long long bytes;
      int producer;
      size_t n;
      if (std::fscanf(f, "%llu %d %63s %zu", &bytes, &producer, a, &n) != 4)
        fail("value");
      PlaceValue v = producer >= 0
                         ? PlaceValue::ofNode(unsigned(producer), bytes)
                         : PlaceValue::onDevice(dev(a), bytes);
      for (size_t i = 0; i < n; ++i) {
        unsigned c;
        if (std::fscanf(f, "%u", &c) != 1)
          fail("consumer");
        v.consumers.push_back(c);
      }
      if (std::fscanf(f, "%zu", &n) != 1)
        fail("value");
      for (size_t i = 0; i < n; ++i) {
        if (std::fscanf(f, "%63s", a) != 1)
          fail("fixed consumer");
        v.fixedConsumers.push_back(dev(a));
      }
      p.values.push_back(std::move(v));
    } else {
      fail("record");
    }
  }
  std::fclose(f);
  t.canonicalize();
  in.tm = std::make_unique<TransferModel>(t);
  p.transfers = in.tm.get();
  return in;
}

/// Times every solver and the explanation figures on one problem.
void timeProblem(const std::string &name, const Instance &in,
                 const char *only) {
  std::vector<Device> nodeDevs = in.p.nodeDevices();
  std::printf("%s: %zu nodes, %zu values, %zu devices among the nodes, "
              "in-forest %d\n",
              name.c_str(), in.p.nodes.size(), in.p.values.size(),
              nodeDevs.size(), int(in.p.isInForest()));
  for (PlacementAlgorithm a :
       {PlacementAlgorithm::Greedy, PlacementAlgorithm::ExactTree,
        PlacementAlgorithm::MinCut, PlacementAlgorithm::Auto}) {
    if (only && stringifyPlacementAlgorithm(a) != only)
      continue;
    if (a == PlacementAlgorithm::MinCut && nodeDevs.size() > 2)
      continue;
    double solveS = 0;
    PlacementResult r = timedSolve(in.p, a, solveS);
    Clock::time_point t1 = Clock::now();
    std::vector<MoveDelta> moves = bestOtherDevice(in.p, r.placement);
    double moveS = std::chrono::duration<double>(Clock::now() - t1).count();
    t1 = Clock::now();
    std::vector<int64_t> inbound = inboundTransferNs(in.p, r.placement);
    double inS = std::chrono::duration<double>(Clock::now() - t1).count();
    t1 = Clock::now();
    Objective o = evaluate(in.p, r.placement);
    double evalS = std::chrono::duration<double>(Clock::now() - t1).count();
    std::printf("  %-11s solve %7.3f s  bestOther %6.3f s  inbound %6.3f s  "
                "evaluate %6.3f s  total %lld ns%s (%s)\n",
                std::string(stringifyPlacementAlgorithm(a)).c_str(), solveS,
                moveS, inS, evalS, (long long)o.totalNs,
                r.exact ? " exact" : "",
                std::string(stringifyPlacementAlgorithm(r.solvedBy)).c_str());
  }
}

struct Cell {
  const char *name;
  Shape shape;
  /// Draw with groupMoveInstance() (functions built to need group moves)
  /// instead of randomInstance().
  bool groupMoves = false;
};

} // namespace

int main(int argc, char **argv) {
  unsigned dags = 1000, maxNodes = 12;
  uint64_t seed = 1;
  const char *only = nullptr;
  std::vector<const char *> loads;
  unsigned scale = 0, window = 0, numDevices = 3;
  double ratio = 1.0;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--load"))
      loads.push_back(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--scale"))
      scale = unsigned(std::strtoul(argv[i + 1], nullptr, 10));
    else if (!std::strcmp(argv[i], "--window"))
      window = unsigned(std::strtoul(argv[i + 1], nullptr, 10));
    else if (!std::strcmp(argv[i], "--devices"))
      numDevices = unsigned(std::strtoul(argv[i + 1], nullptr, 10));
    else if (!std::strcmp(argv[i], "--ratio"))
      ratio = std::strtod(argv[i + 1], nullptr);
    else if (!std::strcmp(argv[i], "--algorithm"))
      only = argv[i + 1];
    else if (!std::strcmp(argv[i], "--dags"))
      dags = unsigned(std::strtoul(argv[i + 1], nullptr, 10));
    else if (!std::strcmp(argv[i], "--nodes"))
      maxNodes = unsigned(std::strtoul(argv[i + 1], nullptr, 10));
    else if (!std::strcmp(argv[i], "--seed"))
      seed = std::strtoull(argv[i + 1], nullptr, 10);
    else {
      std::fprintf(stderr,
                   "usage: %s [--dags N] [--nodes MAX] [--seed S]\n"
                   "       %s --load PROBLEM [--load PROBLEM...] "
                   "[--algorithm A]\n"
                   "       %s --scale NODES [--window W] [--devices 2|3] "
                   "[--ratio R] [--seed S] [--algorithm A]\n",
                   argv[0], argv[0], argv[0]);
      return 2;
    }
  }
  if (!loads.empty()) {
    for (const char *path : loads) {
      Clock::time_point t0 = Clock::now();
      Instance in = loadProblem(path);
      std::printf("(loaded in %.2f s)\n",
                  std::chrono::duration<double>(Clock::now() - t0).count());
      timeProblem(path, in, only);
    }
    return 0;
  }
  if (scale) {
    Shape shape;
    shape.exactNodes = scale;
    shape.window = window;
    shape.numDevices = numDevices == 2 ? 2 : 3;
    shape.ratio = ratio;
    Rng rng(seed);
    Instance in = randomInstance(rng, shape);
    timeProblem("random, " + std::to_string(scale) + " nodes, window " +
                    std::to_string(window) + ", " +
                    std::to_string(shape.numDevices) + " devices, ratio " +
                    std::to_string(ratio),
                in, only);
    return 0;
  }
  maxNodes = std::min(std::max(maxNodes, 1u), kBruteForceMaxFreeNodes);

  std::vector<Cell> cells;
  static std::vector<std::string> names;
  for (unsigned devices : {2u, 3u})
    for (double ratio : {0.1, 1.0, 10.0}) {
      Shape s;
      s.maxNodes = maxNodes;
      s.numDevices = devices;
      s.ratio = ratio;
      char buf[64];
      std::snprintf(buf, sizeof buf, "%u devices, ratio %g", devices, ratio);
      names.push_back(buf);
      cells.push_back({nullptr, s});
    }
  for (unsigned devices : {2u, 3u}) {
    Shape s;
    s.maxNodes = maxNodes;
    s.numDevices = devices;
    s.inForest = true;
    names.push_back(std::to_string(devices) + " devices, in-forest");
    cells.push_back({nullptr, s});
  }
  {
    Shape s;
    s.maxNodes = maxNodes;
    s.numDevices = 3;
    s.coupling = true;
    names.push_back("3 devices, coupled");
    cells.push_back({nullptr, s});
  }
  {
    Shape s;
    s.maxNodes = maxNodes;
    s.numDevices = 3;
    names.push_back("3 devices, group moves");
    cells.push_back({nullptr, s, true});
  }
  for (size_t i = 0; i < cells.size(); ++i)
    cells[i].name = names[i].c_str();

  std::printf("placement gap against brute force: %u DAGs per cell, 1-%u "
              "nodes, seed %llu\n\n",
              dags, maxNodes, (unsigned long long)seed);
  std::printf("%-24s | %9s %9s | %9s %9s | %7s | %12s %9s %9s\n", "cell",
              "auto mean", "auto max", "grdy mean", "grdy max", "optimal",
              "auto/brute t", "auto us", "brute us");
  std::printf("%s\n",
              std::string(24 + 3 + 19 + 3 + 19 + 3 + 7 + 3 + 32, '-').c_str());
  Rng rng(seed);
  // Over every three-device cell together.
  double all3AutoSum = 0, all3AutoMax = 0, all3GreedySum = 0, all3GreedyMax = 0;
  unsigned all3Count = 0;
  for (const Cell &cell : cells) {
    double autoSum = 0, autoMax = 0, greedySum = 0, greedyMax = 0;
    double autoTime = 0, bruteTime = 0, greedyTime = 0;
    unsigned optimal = 0;
    for (unsigned i = 0; i < dags; ++i) {
      Instance in =
          cell.groupMoves
              ? groupMoveInstance(rng, std::min(4u, maxNodes), maxNodes)
              : randomInstance(rng, cell.shape);
      PlacementResult brute =
          timedSolve(in.p, PlacementAlgorithm::BruteForce, bruteTime);
      PlacementResult a = timedSolve(in.p, PlacementAlgorithm::Auto, autoTime);
      PlacementResult g =
          timedSolve(in.p, PlacementAlgorithm::Greedy, greedyTime);
      int64_t best = brute.objective.totalNs;
      double ga = gapPercent(a.objective.totalNs, best);
      double gg = gapPercent(g.objective.totalNs, best);
      autoSum += ga;
      autoMax = std::max(autoMax, ga);
      greedySum += gg;
      greedyMax = std::max(greedyMax, gg);
      optimal += a.objective.totalNs == best;
      if (cell.shape.numDevices == 3) {
        all3AutoSum += ga;
        all3AutoMax = std::max(all3AutoMax, ga);
        all3GreedySum += gg;
        all3GreedyMax = std::max(all3GreedyMax, gg);
        ++all3Count;
      }
    }
    std::printf("%-24s | %8.3f%% %8.3f%% | %8.3f%% %8.3f%% | %6.1f%% | "
                "%12.3f %9.1f %9.1f\n",
                cell.name, autoSum / dags, autoMax, greedySum / dags, greedyMax,
                100.0 * optimal / dags,
                bruteTime > 0 ? autoTime / bruteTime : 0.0,
                1e6 * autoTime / dags, 1e6 * bruteTime / dags);
  }
  std::printf("%-24s | %8.3f%% %8.3f%% | %8.3f%% %8.3f%% |\n",
              "all 3-device cells", all3AutoSum / std::max(all3Count, 1u),
              all3AutoMax, all3GreedySum / std::max(all3Count, 1u),
              all3GreedyMax);
  std::printf("\ngap = (objective - optimum) / optimum; optimal = share of "
              "DAGs where auto matched brute force; auto/brute t = total "
              "time of auto over total time of brute force on the same "
              "DAGs; auto us, brute us = mean microseconds per DAG.\n");
  return 0;
}
