//===- DispatchOverheadBench.cpp - Runtime overhead per dispatch ----------===//
//
// A chain of 10,000 dispatches of a trivial kernel on one CPU queue, on one
// thread and fanned out to every core. Overhead per dispatch is
// (total - kernel time) / dispatches, where kernel time is the same
// workgroups called directly in a loop; best and median of 15 chains.
// Baselines measured in the same run: a direct call of the kernel per
// workgroup, and a fork/join of std::threads per dispatch (what a runtime
// creating threads per dispatch would pay). Targets: <= 1 us on one
// thread, <= 2 us fanned out.
//
//===----------------------------------------------------------------------===//

#include "cpu/CpuDevice.h"

#include "fuel-c/KernelABI.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <thread>
#include <vector>

using namespace fuel::rt;

namespace {

constexpr int kDispatches = 10000;
constexpr int kChains = 15;

struct Stats {
  double best, median;
};

Stats stats(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return {v.front(), v[v.size() / 2]};
}

[[noreturn]] void die(const Status &s) {
  std::fprintf(stderr, "fuel-bench-dispatch-overhead: %s\n",
               s.message().c_str());
  std::exit(1);
}

/// Nanoseconds per dispatch of calling the kernel directly for `groups`
/// workgroups on this thread.
double directNs(fuel_kernel_fn fn, uint32_t groups, void *counters) {
  void *bindings[1] = {counters};
  fuel_dispatch d{bindings, nullptr, {groups, 1, 1}};
  alignas(64) static char ws[64];
  uint64_t t0 = monotonicNs();
  for (int i = 0; i < kDispatches; ++i)
    for (uint32_t x = 0; x < groups; ++x)
      fn(&d, ws, x, 0, 0);
  return double(monotonicNs() - t0) / kDispatches;
}

/// Nanoseconds per dispatch of a chain on a fresh queue of `dev`.
double chainNs(CpuDevice &dev, Kernel k, Buffer counters, uint32_t groups) {
  auto q = dev.createQueue();
  if (!q.isOk())
    die(q.status());
  Binding b{counters, 0, 64 * 64 * 4};
  Command c = Command::dispatch(k, groups, 1, 1, &b, 1);
  // Warm up: wake the workers and the queue thread.
  for (int i = 0; i < 100; ++i)
    if (!(*q)->submit(c).isOk())
      die(Status::error(StatusCode::Internal, "submit failed"));
  if (Status s = (*q)->finish(); !s.isOk())
    die(s);
  uint64_t t0 = monotonicNs();
  for (int i = 0; i < kDispatches; ++i) {
    auto f = (*q)->submit(c);
    if (!f.isOk())
      die(f.status());
  }
  if (Status s = (*q)->finish(); !s.isOk())
    die(s);
  return double(monotonicNs() - t0) / kDispatches;
}

/// Nanoseconds of a fork/join of `threads` std::threads.
double forkJoinNs(unsigned threads) {
  const int reps = 500;
  uint64_t t0 = monotonicNs();
  for (int i = 0; i < reps; ++i) {
    std::vector<std::thread> ts;
    for (unsigned t = 1; t < threads; ++t)
      ts.emplace_back([] {});
    for (auto &t : ts)
      t.join();
  }
  return double(monotonicNs() - t0) / reps;
}

} // namespace

int main() {
  std::string dir = runtimeDirectory();
  std::ifstream in(dir + "/libfuel-bench-kernels.so", std::ios::binary);
  std::vector<char> bytes(std::istreambuf_iterator<char>(in), {});
  if (bytes.empty())
    die(Status::error(StatusCode::Unavailable,
                      "cannot read " + dir + "/libfuel-bench-kernels.so"));

  unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  std::printf("dispatch overhead: chains of %d dispatches, best and median "
              "of %d, %u cores\n",
              kDispatches, kChains, cores);
  std::printf("%-10s %8s %8s %10s %10s %10s %12s\n", "mode", "threads",
              "groups", "best ns", "median ns", "direct ns", "fork/join ns");
  std::vector<unsigned> modes = {1};
  if (cores > 1)
    modes.push_back(cores);
  for (unsigned threads : modes) {
    CpuDeviceOptions o;
    o.threads = threads;
    auto dev = CpuDevice::create(o);
    if (!dev.isOk())
      die(dev.status());
    ModuleImage image{bytes.data(), bytes.size(), {"fuel_bench_trivial"}};
    auto m = (*dev)->loadModule(image);
    if (!m.isOk())
      die(m.status());
    auto counters = (*dev)->allocate(64 * 64 * 4, 64);
    if (!counters.isOk())
      die(counters.status());
    auto *ptr = static_cast<uint32_t *>(*(*dev)->hostPointer(*counters));
    std::fill(ptr, ptr + 64 * 64, 0u);
    uint32_t groups = threads == 1 ? 1 : std::min(threads, 64u);
    std::vector<double> overhead;
    double direct = 0;
    for (int chain = 0; chain < kChains; ++chain) {
      double total = chainNs(**dev, m->kernels[0], *counters, groups);
      // The kernel time of one dispatch: the same code as
      // fuel_bench_trivial, called directly on the same counters.
      direct = directNs(
          [](const fuel_dispatch *d, void *ws, uint32_t x, uint32_t y,
             uint32_t z) {
            (void)ws;
            (void)y;
            (void)z;
            ((volatile uint32_t *)d->bindings[0])[x * 16] += 1;
          },
          groups, ptr);
      overhead.push_back(total - direct);
    }
    Stats s = stats(overhead);
    double fj = threads > 1 ? forkJoinNs(threads) : 0;
    std::printf("%-10s %8u %8u %10.0f %10.0f %10.1f ",
                threads == 1 ? "one" : "fan-out", threads, groups, s.best,
                s.median, direct);
    if (threads > 1)
      std::printf("%12.0f\n", fj);
    else
      std::printf("%12s\n", "-");
    double target = threads == 1 ? 1000.0 : 2000.0;
    std::printf("  median/target %.2f", s.median / target);
    if (threads > 1)
      std::printf("  median/fork-join %.2f", s.median / fj);
    std::printf("\n");
  }
  return 0;
}
