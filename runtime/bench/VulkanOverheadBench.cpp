//===- VulkanOverheadBench.cpp - Per-dispatch and per-submit overhead -----===//
//
// On vulkan:0 (lavapipe in CI), an empty kernel (EmptyKernel.spvasm, found
// beside the benchmark): N dispatches batched into one submit (the queue's
// default: submitted when the last fence is waited on) against one submit
// per dispatch (waiting on each fence). Prints the time per dispatch of each,
// best and median of 7 runs, and their ratio, with the submits the device
// counted. Exits 0 with a message when there is no Vulkan device.
//
//===----------------------------------------------------------------------===//

#include "vulkan/VulkanDevice.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>
#include <vector>

using namespace fuel::rt;

namespace {

constexpr int kRuns = 7;

struct Stats {
  double best, median;
};

Stats stats(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return {v.front(), v[v.size() / 2]};
}

std::string selfDir() {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0)
    return ".";
  std::string p(buf, size_t(n));
  return p.substr(0, p.rfind('/'));
}

} // namespace

int main() {
  VulkanDeviceOptions options;
  options.pipelineCache = false;
  auto devOr = openVulkanDevice(0, options);
  if (!devOr.isOk()) {
    std::printf("no Vulkan device: %s\n", devOr.status().message().c_str());
    return 0;
  }
  Device &dev = **devOr;
  auto &vk = static_cast<VulkanDevice &>(dev);
  std::string path = selfDir() + "/fuel-bench-empty-kernel.spv";
  std::ifstream in(path, std::ios::binary);
  std::vector<char> words((std::istreambuf_iterator<char>(in)), {});
  ModuleImage image;
  image.data = words.data();
  image.size = words.size();
  image.kernelNames = {"empty"};
  image.layouts = {KernelLayout{}};
  auto m = dev.loadModule(image);
  if (!m.isOk()) {
    std::fprintf(stderr, "loading %s: %s\n", path.c_str(),
                 m.status().message().c_str());
    return 1;
  }
  Kernel k = m->kernels[0];
  auto q = dev.createQueue();
  if (!q.isOk())
    return 1;
  Queue &queue = **q;
  const Command c = Command::dispatch(k, 1, 1, 1, nullptr, 0);
  // Warm up: the first dispatch may compile the shader.
  (void)queue.wait(*queue.submit(c));

  const int batched = 2000, single = 300;
  std::vector<double> perBatched, perSingle;
  uint64_t batchedSubmits = 0, singleSubmits = 0;
  for (int run = 0; run < kRuns; ++run) {
    uint64_t s0 = vk.counters().submits;
    uint64_t t0 = monotonicNs();
    Fence last{};
    for (int i = 0; i < batched; ++i)
      last = *queue.submit(c);
    if (!queue.wait(last).isOk())
      return 1;
    uint64_t t1 = monotonicNs();
    batchedSubmits = vk.counters().submits - s0;
    perBatched.push_back(double(t1 - t0) / batched / 1000);

    s0 = vk.counters().submits;
    t0 = monotonicNs();
    for (int i = 0; i < single; ++i)
      if (!queue.wait(*queue.submit(c)).isOk())
        return 1;
    t1 = monotonicNs();
    singleSubmits = vk.counters().submits - s0;
    perSingle.push_back(double(t1 - t0) / single / 1000);
  }
  Stats b = stats(perBatched), s = stats(perSingle);
  std::printf("device: %s\n", dev.info().name.c_str());
  std::printf("batched: %d dispatches in %llu submits: %.2f us/dispatch "
              "best, %.2f median\n",
              batched, (unsigned long long)batchedSubmits, b.best, b.median);
  std::printf("one submit each: %d dispatches in %llu submits: %.2f "
              "us/dispatch best, %.2f median\n",
              single, (unsigned long long)singleSubmits, s.best, s.median);
  std::printf("ratio (one submit each / batched): %.1fx best, %.1fx median\n",
              s.best / b.best, s.median / b.median);
  return 0;
}
