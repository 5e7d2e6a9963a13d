//===- Device.h - Device kinds and device identities ------------*- C++ -*-===//
//
// The one definition of a device for every layer of fuel: the planner, the
// probe, the dialect (through checked conversions) and the runtime. A device
// is where bytes live and kernels run: the host `cpu`, `cuda:N` or
// `vulkan:N` (SEMANTICS §1); the backend of a device is its kind. Device
// order (SEMANTICS §5) is `cpu` < `cuda:N` < `vulkan:N`, ordinals ascending;
// every tie-break that falls through to "device order" uses operator<.
//
// Header-only and LLVM-free (C++17 standard library only), so the probe and
// the runtime use it without linking LLVM or MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_SUPPORT_DEVICE_H
#define FUEL_SUPPORT_DEVICE_H

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>

namespace fuel {

/// The kind of a device, which is also its backend. The enumerator order is
/// the device order of SEMANTICS §5.
enum class DeviceKind : uint8_t { Cpu = 0, Cuda = 1, Vulkan = 2 };

/// Every device kind, in device order.
inline constexpr std::array<DeviceKind, 3> kAllDeviceKinds = {
    DeviceKind::Cpu, DeviceKind::Cuda, DeviceKind::Vulkan};

/// Spelling of a device kind as it appears in IR, JSON and diagnostics. The
/// view points at a string literal, so data() is null-terminated.
constexpr std::string_view stringifyDeviceKind(DeviceKind kind) {
  switch (kind) {
  case DeviceKind::Cpu:
    return "cpu";
  case DeviceKind::Cuda:
    return "cuda";
  case DeviceKind::Vulkan:
    return "vulkan";
  }
  return "cpu";
}

/// Parses "cpu", "cuda" or "vulkan"; anything else yields std::nullopt.
constexpr std::optional<DeviceKind> symbolizeDeviceKind(std::string_view s) {
  for (DeviceKind kind : kAllDeviceKinds)
    if (stringifyDeviceKind(kind) == s)
      return kind;
  return std::nullopt;
}

/// A device identity: kind plus ordinal. The host `cpu` has no ordinal and is
/// always stored with ordinal 0.
struct Device {
  DeviceKind kind = DeviceKind::Cpu;
  uint32_t ordinal = 0;

  static constexpr Device cpu() { return {DeviceKind::Cpu, 0}; }
  static constexpr Device cuda(uint32_t n) { return {DeviceKind::Cuda, n}; }
  static constexpr Device vulkan(uint32_t n) { return {DeviceKind::Vulkan, n}; }

  constexpr bool isHost() const { return kind == DeviceKind::Cpu; }

  /// "cpu", "cuda:0", "vulkan:1".
  std::string str() const {
    if (kind == DeviceKind::Cpu)
      return "cpu";
    return std::string(stringifyDeviceKind(kind)) + ":" +
           std::to_string(ordinal);
  }

  /// Parses the bare spelling produced by str(); std::nullopt when malformed
  /// (unknown kind, `cpu:N`, a missing, signed or out-of-range ordinal).
  static constexpr std::optional<Device> parse(std::string_view s) {
    size_t colon = s.find(':');
    std::optional<DeviceKind> kind = symbolizeDeviceKind(s.substr(0, colon));
    if (!kind)
      return std::nullopt;
    if (*kind == DeviceKind::Cpu)
      return colon == std::string_view::npos ? std::optional(cpu())
                                             : std::nullopt;
    if (colon == std::string_view::npos || colon + 1 == s.size())
      return std::nullopt;
    uint64_t n = 0;
    for (char c : s.substr(colon + 1)) {
      if (c < '0' || c > '9')
        return std::nullopt;
      n = n * 10 + uint64_t(c - '0');
      if (n > UINT32_MAX)
        return std::nullopt;
    }
    return Device{*kind, uint32_t(n)};
  }

  friend constexpr bool operator==(const Device &a, const Device &b) {
    return a.kind == b.kind && a.ordinal == b.ordinal;
  }
  friend constexpr bool operator!=(const Device &a, const Device &b) {
    return !(a == b);
  }
  /// Device order: cpu < cuda:N < vulkan:N, ordinals ascending.
  friend constexpr bool operator<(const Device &a, const Device &b) {
    return std::tie(a.kind, a.ordinal) < std::tie(b.kind, b.ordinal);
  }
};

} // namespace fuel

#endif // FUEL_SUPPORT_DEVICE_H
