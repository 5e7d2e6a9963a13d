//===- LinkMeasure.cpp - Timing copies between a device pair --------------===//
//
// See LinkMeasure.h.
//
//===----------------------------------------------------------------------===//

#include "LinkMeasure.h"

#include <algorithm>
#include <cstdio>

namespace fuel::rt {

std::string humanBytes(uint64_t bytes) {
  char buf[32];
  if (bytes >= (1u << 20))
    std::snprintf(buf, sizeof buf, "%llu MiB",
                  (unsigned long long)(bytes >> 20));
  else
    std::snprintf(buf, sizeof buf, "%llu KiB",
                  (unsigned long long)(bytes >> 10));
  return buf;
}

namespace {

/// The median of `reps` timed calls of `copy`, after one untimed call.
StatusOr<double> medianNs(int reps, const std::function<Status()> &copy,
                          const std::string &what) {
  if (Status warm = copy(); !warm)
    return warm.withContext(what);
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    uint64_t t0 = monotonicNs();
    Status s = copy();
    uint64_t t1 = monotonicNs();
    if (!s)
      return s.withContext(what);
    t.push_back(double(t1 - t0));
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

} // namespace

StatusOr<std::vector<LinkPairTiming>>
timeDeviceLinks(Device &cpu, Device &dev, const std::vector<uint64_t> &sizes,
                const std::function<int(uint64_t)> &repetitions) {
  if (sizes.empty())
    return Status::error(StatusCode::InvalidArgument, "no copy sizes");
  uint64_t largest = *std::max_element(sizes.begin(), sizes.end());
  StatusOr<Buffer> cpuSrc = cpu.allocate(largest, 64);
  if (!cpuSrc)
    return cpuSrc.status().withContext("allocating cpu buffers");
  StatusOr<Buffer> cpuDst = cpu.allocate(largest, 64);
  if (!cpuDst) {
    (void)cpu.free(*cpuSrc);
    return cpuDst.status().withContext("allocating cpu buffers");
  }
  const std::string label = dev.info().id.str();
  StatusOr<Buffer> a = dev.allocate(largest, 64);
  StatusOr<Buffer> b = a ? dev.allocate(largest, 64) : a;
  auto release = [&] {
    if (a)
      (void)dev.free(*a);
    if (a && b)
      (void)dev.free(*b);
    (void)cpu.free(*cpuSrc);
    (void)cpu.free(*cpuDst);
  };
  if (!a || !b) {
    Status s = (a ? b.status() : a.status())
                   .withContext("allocating " + label + " buffers");
    if (a && !b)
      (void)dev.free(*a);
    (void)cpu.free(*cpuSrc);
    (void)cpu.free(*cpuDst);
    return s;
  }
  auto *src = static_cast<unsigned char *>(*cpu.hostPointer(*cpuSrc));
  auto *dst = static_cast<unsigned char *>(*cpu.hostPointer(*cpuDst));
  for (uint64_t i = 0; i < largest; ++i)
    src[i] = (unsigned char)(i * 2654435761u >> 13);

  struct Pair {
    std::string from, to;
    std::function<Status(uint64_t)> copy;
  };
  std::vector<Pair> pairs = {
      {"cpu", label, [&](uint64_t n) { return dev.write(*a, 0, src, n); }},
      {label, "cpu", [&](uint64_t n) { return dev.read(*a, 0, dst, n); }},
      {label, label, [&](uint64_t n) { return dev.copy(*a, 0, *b, 0, n); }},
  };
  std::vector<LinkPairTiming> out;
  for (const Pair &p : pairs) {
    LinkPairTiming t;
    t.from = p.from;
    t.to = p.to;
    for (uint64_t n : sizes) {
      StatusOr<double> ns = medianNs(
          repetitions(n), [&] { return p.copy(n); },
          p.from + "->" + p.to + " of " + humanBytes(n));
      if (!ns) {
        release();
        return ns.status();
      }
      t.samples.push_back({n, *ns});
    }
    t.fit = fitLink(t.samples);
    out.push_back(std::move(t));
  }
  release();
  return out;
}

} // namespace fuel::rt
