//===- CopyLinkBench.cpp - Copy latency and bandwidth per device pair -----===//
//
// Times copies cpu->vulkan:0 (Device::write from a CPU-device buffer, as a
// session's copy does), vulkan:0->cpu (Device::read) and vulkan:0->vulkan:0
// (Device::copy) over sizes from 4 KiB to 64 MiB, the median of several
// repetitions per size, and fits `latency + bytes / bandwidth` to each pair
// with fitLink (LinkFit.h). Prints per pair every size's median, the fitted
// time and the residual, then the fit, and the fit over the sizes of 1 MiB
// and more alone. Checks that the bytes arrive. With --quick: 4 KiB to
// 4 MiB, fewer repetitions (the ctest). With --staging: write() and read()
// staged through a host-visible buffer even where device memory is
// host-visible (VulkanDeviceOptions::forceStaging), the path of a discrete
// GPU. With --device=cuda:N the same pairs for that CUDA device instead
// (write and read staged through pinned memory; scripts/gpu-check.sh).
// Exits 77 with the reason when there is no such device (for vulkan:0, 1
// under CI=true), 1 when a copy or a fit fails.
//
//===----------------------------------------------------------------------===//

#include "LinkFit.h"
#include "LinkMeasure.h"
#include "cpu/CpuDevice.h"
#include "cuda/CudaDevice.h"
#include "vulkan/VulkanDevice.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

using namespace fuel::rt;

namespace {

[[noreturn]] void die(const std::string &what, const Status &s) {
  std::fprintf(stderr, "fuel-bench-copy-links: %s: %s\n", what.c_str(),
               s.message().c_str());
  std::exit(1);
}

} // namespace

int runPairs(Device &vk, bool quick, bool staging);

int main(int argc, char **argv) {
  bool quick = false, staging = false;
  int cudaOrdinal = -1;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--device=cuda:", 14) == 0) {
      char *end = nullptr;
      long n = std::strtol(argv[i] + 14, &end, 10);
      if (!end || *end || n < 0 || end == argv[i] + 14) {
        std::fprintf(stderr,
                     "fuel-bench-copy-links: bad device '%s' "
                     "(expected --device=cuda:N)\n",
                     argv[i] + 9);
        return 2;
      }
      cudaOrdinal = int(n);
    } else if (std::strcmp(argv[i], "--quick") == 0) {
      quick = true;
    } else if (std::strcmp(argv[i], "--staging") == 0) {
      staging = true;
    } else {
      std::fprintf(stderr,
                   "fuel-bench-copy-links: unknown argument '%s' (expected "
                   "--quick or --staging)\n",
                   argv[i]);
      return 1;
    }
  }
  VulkanDeviceOptions vo;
  vo.pipelineCache = false;
  vo.forceStaging = staging;
  if (cudaOrdinal >= 0) {
    auto cudaOr = openCudaDevice(uint32_t(cudaOrdinal));
    if (!cudaOr.isOk()) {
      std::printf("SKIP: no CUDA device: %s\n",
                  cudaOr.status().message().c_str());
      return 77;
    }
    return runPairs(**cudaOr, quick, false);
  }
  auto vkOr = openVulkanDevice(0, vo);
  if (!vkOr.isOk()) {
    const char *ci = std::getenv("CI");
    bool inCi = ci && std::strcmp(ci, "true") == 0;
    std::printf("%s: no Vulkan device: %s\n", inCi ? "FAIL (CI=true)" : "SKIP",
                vkOr.status().message().c_str());
    return inCi ? 1 : 77;
  }
  return runPairs(**vkOr, quick, staging);
}

int runPairs(Device &vk, bool quick, bool staging) {
  auto cpuOr = CpuDevice::create(CpuDeviceOptions{});
  if (!cpuOr.isOk())
    die("opening the cpu device", cpuOr.status());
  Device &cpu = **cpuOr;

  std::vector<uint64_t> sizes;
  uint64_t largest = quick ? (4u << 20) : (64u << 20);
  for (uint64_t b = 4096; b <= largest; b *= 4)
    sizes.push_back(b);

  std::printf("device: %s%s; %s to %s, median of repetitions per size\n",
              vk.info().name.c_str(), staging ? ", staged" : "",
              humanBytes(sizes.front()).c_str(),
              humanBytes(sizes.back()).c_str());
  StatusOr<std::vector<LinkPairTiming>> timed =
      timeDeviceLinks(cpu, vk, sizes, [&](uint64_t n) {
        return n <= (256u << 10) ? (quick ? 15 : 41) : (quick ? 5 : 9);
      });
  if (!timed)
    die("timing copies", timed.status());
  int failed = 0;
  for (const LinkPairTiming &p : *timed) {
    const std::vector<LinkSample> &samples = p.samples;
    const LinkFit &fit = p.fit;
    std::printf("\n%s->%s\n  %10s %14s %14s %14s %9s\n", p.from.c_str(),
                p.to.c_str(), "bytes", "median ns", "fitted ns", "residual ns",
                "residual");
    for (size_t i = 0; i < samples.size(); ++i) {
      double fitted = fit.ok ? fit.predictNs(samples[i].bytes) : 0;
      double r = fit.ok ? fit.residualsNs[i] : 0;
      std::printf("  %10s %14.0f %14.0f %14.0f %8.1f%%\n",
                  humanBytes(samples[i].bytes).c_str(), samples[i].ns, fitted,
                  r, 100 * r / samples[i].ns);
    }
    if (!fit.ok) {
      std::printf("  fit failed: %s\n", fit.error.c_str());
      ++failed;
      continue;
    }
    std::printf("  fit: latency %.0f ns, bandwidth %.2f GB/s "
                "(bandwidth_bytes_per_s %llu, latency_ns %.0f), rms relative "
                "residual %.1f%%\n",
                fit.latencyNs, fit.bytesPerNs,
                (unsigned long long)fit.bandwidthBytesPerSecond(),
                fit.latencyNsClamped(), 100 * fit.rmsRelativeResidual);
    // Copies that fit in a cache and copies that do not run at different
    // rates; the large sizes alone are what big tensors see.
    std::vector<LinkSample> large;
    for (const LinkSample &sample : samples)
      if (sample.bytes >= (1u << 20))
        large.push_back(sample);
    LinkFit big = fitLink(large);
    if (big.ok)
      std::printf("  fit over >= 1 MiB only: latency %.0f ns, bandwidth "
                  "%.2f GB/s, rms relative residual %.1f%%\n",
                  big.latencyNs, big.bytesPerNs, 100 * big.rmsRelativeResidual);
  }

  // The bytes arrive: cpu -> device -> device -> cpu.
  auto cpuSrc = cpu.allocate(largest, 64), cpuDst = cpu.allocate(largest, 64);
  auto vkA = vk.allocate(largest, 64), vkB = vk.allocate(largest, 64);
  if (!cpuSrc.isOk() || !cpuDst.isOk())
    die("allocating cpu buffers",
        cpuSrc.isOk() ? cpuDst.status() : cpuSrc.status());
  if (!vkA.isOk() || !vkB.isOk())
    die("allocating " + vk.info().id.str() + " buffers",
        vkA.isOk() ? vkB.status() : vkA.status());
  auto *src = static_cast<unsigned char *>(*cpu.hostPointer(*cpuSrc));
  auto *dst = static_cast<unsigned char *>(*cpu.hostPointer(*cpuDst));
  for (uint64_t i = 0; i < largest; ++i)
    src[i] = (unsigned char)(i * 2654435761u >> 13);
  const std::string label = vk.info().id.str();
  std::memset(dst, 0, largest);
  Status s = vk.write(*vkA, 0, src, largest);
  if (s.isOk())
    s = vk.copy(*vkA, 0, *vkB, 0, largest);
  if (s.isOk())
    s = vk.read(*vkB, 0, dst, largest);
  if (!s.isOk())
    die("the round trip", s);
  if (std::memcmp(src, dst, largest) != 0) {
    std::printf("FAIL: the round trip cpu->%s->%s->cpu of %s changed the "
                "bytes\n",
                label.c_str(), label.c_str(), humanBytes(largest).c_str());
    return 1;
  }
  std::printf("\nround trip cpu->%s->%s->cpu of %s: bytes intact\n",
              label.c_str(), label.c_str(), humanBytes(largest).c_str());
  (void)vk.free(*vkA);
  (void)vk.free(*vkB);
  (void)cpu.free(*cpuSrc);
  (void)cpu.free(*cpuDst);
  return failed ? 1 : 0;
}
