//===- LinkFit.h - Latency and bandwidth fit of copy times ------*- C++ -*-===//
//
// The transfer model of a link (SEMANTICS §5) is `latency + bytes /
// bandwidth`. fitLink fits it by least squares of the relative residuals
// to measured copy times, so that a benchmark and a command that writes the
// figures into a topology (`bandwidth_bytes_per_s`, `latency_ns`) share one
// fit. LLVM-free.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_RUNTIME_MEASURE_LINKFIT_H
#define FUEL_RUNTIME_MEASURE_LINKFIT_H

#include <cstdint>
#include <string>
#include <vector>

namespace fuel::rt {

/// One measured copy: `bytes` moved in `ns` nanoseconds.
struct LinkSample {
  uint64_t bytes = 0;
  double ns = 0;
};

struct LinkFit {
  /// False when the samples cannot determine a line; `error` says why.
  bool ok = false;
  std::string error;
  /// The intercept in ns (may come out negative when latency is below the
  /// noise; latencyNsClamped() is what a topology can hold).
  double latencyNs = 0;
  /// The inverse slope, in bytes per ns (= GB/s).
  double bytesPerNs = 0;
  /// measured - fitted, per sample in input order.
  std::vector<double> residualsNs;
  /// Root mean square of residual / measured over the samples.
  double rmsRelativeResidual = 0;

  double latencyNsClamped() const { return latencyNs < 0 ? 0 : latencyNs; }
  uint64_t bandwidthBytesPerSecond() const {
    return uint64_t(bytesPerNs * 1e9 + 0.5);
  }
  /// The fitted time of a copy of `bytes`.
  double predictNs(uint64_t bytes) const {
    return latencyNs + double(bytes) / bytesPerNs;
  }
};

/// Fits ns = latency + bytes / bandwidth, minimising the sum of squared
/// relative residuals ((measured - fitted) / measured). Needs at least two
/// distinct sizes, positive finite times and a positive slope (time growing
/// with size); otherwise ok is false.
LinkFit fitLink(const std::vector<LinkSample> &samples);

} // namespace fuel::rt

#endif // FUEL_RUNTIME_MEASURE_LINKFIT_H
