//===- LinkMeasure.h - Timing copies between a device pair ------*- C++ -*-===//
//
// The copy timing that the copy benchmark (CopyLinkBench.cpp) and
// `fuel-judge --calibrate-links` share: copies cpu->D (Device::write from a
// CPU-device buffer, as a session's copy does), D->cpu (Device::read) and
// D->D (Device::copy) at the sizes asked for, the median of repetitions per
// size after one untimed copy, each pair fitted with fitLink (LinkFit.h).
// Uses the Device interface only, so it links with libfuelrt or with the
// device library alike.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_RUNTIME_MEASURE_LINKMEASURE_H
#define FUEL_RUNTIME_MEASURE_LINKMEASURE_H

#include "LinkFit.h"

#include "fuel/Runtime/Device.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace fuel::rt {

/// One direction's timings and fit.
struct LinkPairTiming {
  std::string from, to;            ///< "cpu", "vulkan:0", ...
  std::vector<LinkSample> samples; ///< Median ns per size, in size order.
  LinkFit fit;
};

/// Times the three directions between `cpu` and `dev` at `sizes` (bytes,
/// ascending), `repetitions(size)` timed copies per size. Errors name the
/// copy that failed.
StatusOr<std::vector<LinkPairTiming>>
timeDeviceLinks(Device &cpu, Device &dev, const std::vector<uint64_t> &sizes,
                const std::function<int(uint64_t)> &repetitions);

/// "4 KiB", "64 MiB".
std::string humanBytes(uint64_t bytes);

} // namespace fuel::rt

#endif // FUEL_RUNTIME_MEASURE_LINKMEASURE_H
