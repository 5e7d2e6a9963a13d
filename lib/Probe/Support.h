//===- Support.h - Helpers shared by the probe backends ---------*- C++ -*-===//
//
// Small text and file helpers used by the CPU, CUDA and Vulkan probes. Kept
// private to lib/Probe; they depend on the C++ standard library only.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_LIB_PROBE_SUPPORT_H
#define FUEL_LIB_PROBE_SUPPORT_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace fuel::probe::detail {

/// Returns the whole content of `path`, or nullopt when it cannot be read.
/// Works for /proc and /sys files, whose reported size is 0.
std::optional<std::string> readFile(const char *path);

/// Returns `text` without leading and trailing blanks (space, tab, newline).
std::string_view trim(std::string_view text);

/// Parses a decimal floating-point number at the start of `text`, independent
/// of the C locale. Returns nullopt when `text` does not start with one.
std::optional<double> parseDouble(std::string_view text);

/// Parses an unsigned integer at the start of `text` in base 10, or in base 16
/// with a "0x" prefix. Returns nullopt when `text` does not start with one.
std::optional<uint64_t> parseUnsigned(std::string_view text);

/// Returns printf-style formatted text.
std::string format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

} // namespace fuel::probe::detail

#endif // FUEL_LIB_PROBE_SUPPORT_H
