//===- RetentionBench.cpp - Ranking and retention against a plain sort ----===//
//
// Times rank() + retainFrontier() (SEMANTICS §3 step 8, §7) over many random
// alternative sets of 4-64 candidates and, in the same run and on the same
// sets, a baseline that merely std::sorts each set by time. Prints both and
// their ratio. Not a test: nothing here asserts a time.
//
// Usage: fuel-bench-retention [--sets N] [--keep K] [--seed S]
//
//===----------------------------------------------------------------------===//

#include "fuel/Planner/Candidate.h"
#include "fuel/Planner/Retention.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace fuel::plan;

namespace {

/// Deterministic draws; the mapping is ours (std::uniform_*_distribution is
/// implementation-defined).
struct Rng {
  std::mt19937_64 engine;
  explicit Rng(uint64_t seed) : engine(seed) {}
  uint64_t below(uint64_t n) { return engine() % n; }
};

const Device kDevices[] = {Device::cpu(), Device::cuda(0), Device::vulkan(0)};
const char *const kSources[] = {"generated", "openblas", "blis", "cublas"};

/// One alternative set shaped like a real node's: a few devices, a few
/// sources per device, trade-offs between time, footprint and precision.
std::vector<Candidate> randomSet(Rng &rng) {
  unsigned n = 4 + rng.below(61);
  std::vector<Candidate> set(n);
  for (unsigned i = 0; i < n; ++i) {
    Candidate &c = set[i];
    c.device = kDevices[rng.below(3)];
    // cpu: generated, openblas, blis; accelerators: generated, cublas.
    c.kernelSource =
        c.device.isHost() ? kSources[rng.below(3)] : kSources[3 * rng.below(2)];
    c.kernelId = std::string(stringifyDeviceKind(c.device.kind)) + "." +
                 c.kernelSource + ".matmul_f32_v" + std::to_string(i);
    c.timeNs = int64_t(1000 + rng.below(1'000'000));
    uint64_t bytes = 1'000'000 + rng.below(8'000'000);
    (c.device.isHost() ? c.hostBytes : c.deviceBytes) = bytes;
    switch (rng.below(4)) {
    case 0:
      c.precision = Precision::reference();
      break;
    case 1:
      c.precision = Precision::deterministic();
      break;
    case 2:
      c.precision.maxUlp = rng.below(4);
      break;
    default:
      break;
    }
    c.registryPriority = int64_t(rng.below(3));
  }
  return set;
}

double seconds(std::chrono::steady_clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

} // namespace

int main(int argc, char **argv) {
  unsigned numSets = 100'000;
  unsigned keep = kDefaultKeepPerDevice;
  uint64_t seed = 0x5e7a11'2024ull;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--sets"))
      numSets = unsigned(std::strtoul(argv[i + 1], nullptr, 10));
    else if (!std::strcmp(argv[i], "--keep"))
      keep = unsigned(std::strtoul(argv[i + 1], nullptr, 10));
    else if (!std::strcmp(argv[i], "--seed"))
      seed = std::strtoull(argv[i + 1], nullptr, 0);
    else {
      std::fprintf(stderr, "usage: %s [--sets N] [--keep K] [--seed S]\n",
                   argv[0]);
      return 2;
    }
  }

  // Sets are generated and copied in batches outside the timed regions, so
  // memory stays small and only the operations themselves are timed.
  const unsigned batch = 1000;
  Rng rng(seed);
  std::chrono::steady_clock::duration planTime{}, sortTime{};
  uint64_t candidates = 0, kept = 0, overCap = 0, crowded = 0;
  int64_t checksum = 0;
  for (unsigned done = 0; done < numSets; done += batch) {
    unsigned count = std::min(batch, numSets - done);
    std::vector<std::vector<Candidate>> planned, sorted;
    planned.reserve(count);
    for (unsigned i = 0; i < count; ++i) {
      planned.push_back(randomSet(rng));
      candidates += planned.back().size();
    }
    sorted = planned;

    auto t0 = std::chrono::steady_clock::now();
    for (std::vector<Candidate> &set : planned) {
      rank(set, Device::cpu());
      RetentionReport r = retainFrontier(set, keep, Device::cpu());
      overCap += r.overCap();
      crowded += r.droppedCrowded;
    }
    auto t1 = std::chrono::steady_clock::now();
    for (std::vector<Candidate> &set : sorted)
      std::sort(set.begin(), set.end(),
                [](const Candidate &a, const Candidate &b) {
                  return a.timeNs < b.timeNs;
                });
    auto t2 = std::chrono::steady_clock::now();
    planTime += t1 - t0;
    sortTime += t2 - t1;
    for (unsigned i = 0; i < count; ++i) {
      kept += planned[i].size();
      checksum += planned[i].front().timeNs - sorted[i].front().timeNs;
    }
  }

  double plan = seconds(planTime), sort = seconds(sortTime);
  std::printf("sets: %u, candidates: %llu (mean %.1f per set), keep: %u\n",
              numSets, (unsigned long long)candidates,
              double(candidates) / numSets, keep);
  std::printf("retained: %llu (mean %.1f per set), dropped by crowding: "
              "%llu, over-cap sets: %llu\n",
              (unsigned long long)kept, double(kept) / numSets,
              (unsigned long long)crowded, (unsigned long long)overCap);
  std::printf("baseline std::sort by time: %8.3f ms total, %7.1f ns/set\n",
              sort * 1e3, sort * 1e9 / numSets);
  std::printf("rank + retainFrontier:      %8.3f ms total, %7.1f ns/set\n",
              plan * 1e3, plan * 1e9 / numSets);
  std::printf("ratio (rank + retain) / sort: %.2f\n", plan / sort);
  // The winner has the lowest time, so it matches the sorted set's front.
  if (checksum != 0) {
    std::fprintf(stderr, "error: a winner is not the fastest candidate\n");
    return 1;
  }
  return 0;
}
