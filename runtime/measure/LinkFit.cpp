//===- LinkFit.cpp - Latency + bytes / bandwidth fit of copy times --------===//
//
// Weighted least squares of ns against bytes with weights 1 / ns^2, i.e.
// minimising relative residuals: over sizes from KiB to tens of MiB, plain
// least squares would let the largest copies decide the latency alone.
// Centred for accuracy.
//
//===----------------------------------------------------------------------===//

#include "LinkFit.h"

#include <cmath>

namespace fuel::rt {

LinkFit fitLink(const std::vector<LinkSample> &samples) {
  LinkFit fit;
  if (samples.size() < 2) {
    fit.error = "a fit needs at least two samples, got " +
                std::to_string(samples.size());
    return fit;
  }
  double n = double(samples.size()), sumW = 0, meanX = 0, meanY = 0;
  for (const LinkSample &s : samples) {
    if (!(s.ns > 0) || !std::isfinite(s.ns)) {
      fit.error = "a sample of " + std::to_string(s.bytes) +
                  " bytes has a time that is not positive and finite";
      return fit;
    }
    double w = 1 / (s.ns * s.ns);
    sumW += w;
    meanX += w * double(s.bytes);
    meanY += w * s.ns;
  }
  meanX /= sumW;
  meanY /= sumW;
  double sxx = 0, sxy = 0;
  for (const LinkSample &s : samples) {
    double w = 1 / (s.ns * s.ns), dx = double(s.bytes) - meanX;
    sxx += w * dx * dx;
    sxy += w * dx * (s.ns - meanY);
  }
  if (sxx == 0) {
    fit.error = "a fit needs at least two distinct sizes";
    return fit;
  }
  double slope = sxy / sxx; // ns per byte
  if (!(slope > 0)) {
    fit.error = "copy time does not grow with size (slope " +
                std::to_string(slope) + " ns/byte)";
    return fit;
  }
  fit.ok = true;
  fit.bytesPerNs = 1 / slope;
  fit.latencyNs = meanY - slope * meanX;
  double sumSq = 0;
  for (const LinkSample &s : samples) {
    double r = s.ns - fit.predictNs(s.bytes);
    fit.residualsNs.push_back(r);
    sumSq += (r / s.ns) * (r / s.ns);
  }
  fit.rmsRelativeResidual = std::sqrt(sumSq / n);
  return fit;
}

} // namespace fuel::rt
