//===- DeviceTest.cpp - Tests of fuel/Support/Device.h --------------------===//
//
// Device kinds and identities: spelling and parsing round trips, the inputs
// the parser rejects, and device order.
//
//===----------------------------------------------------------------------===//

#include "fuel/Support/Device.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

using namespace fuel;

namespace {

// Tests that every device kind spells and parses back to itself, in order.
TEST(DeviceKindTest, SpellingRoundTrips) {
  std::vector<std::string> spellings;
  for (DeviceKind kind : kAllDeviceKinds) {
    std::string_view s = stringifyDeviceKind(kind);
    spellings.emplace_back(s);
    EXPECT_EQ(symbolizeDeviceKind(s), kind) << s;
    // The view is a literal, so it can be handed to C APIs as is.
    EXPECT_EQ(s.data()[s.size()], '\0');
  }
  EXPECT_EQ(spellings, (std::vector<std::string>{"cpu", "cuda", "vulkan"}));
}

// Tests that spellings are exact: no case folding, no ordinal, no padding.
TEST(DeviceKindTest, RejectsOtherSpellings) {
  for (const char *s : {"", "CPU", "Cuda", "gpu", "cuda:0", " cpu", "vulkan "})
    EXPECT_EQ(symbolizeDeviceKind(s), std::nullopt) << '"' << s << '"';
}

// Tests that the spelling of a device parses back to the same device.
TEST(DeviceTest, SpellingRoundTrips) {
  for (Device d : {Device::cpu(), Device::cuda(0), Device::cuda(7),
                   Device::vulkan(1), Device::vulkan(UINT32_MAX)}) {
    std::optional<Device> parsed = Device::parse(d.str());
    ASSERT_TRUE(parsed) << d.str();
    EXPECT_EQ(*parsed, d);
  }
  EXPECT_EQ(Device::cpu().str(), "cpu");
  EXPECT_EQ(Device::cuda(0).str(), "cuda:0");
  EXPECT_EQ(Device::vulkan(1).str(), "vulkan:1");
  EXPECT_EQ(Device::parse("cuda:00"), Device::cuda(0));
  EXPECT_TRUE(Device::cpu().isHost());
  EXPECT_FALSE(Device::vulkan(0).isHost());
}

// Tests the malformed spellings: unknown kinds, an ordinal on the host, a
// missing, signed, non-decimal or out-of-range ordinal.
TEST(DeviceTest, RejectsMalformedSpellings) {
  for (const char *s :
       {"", ":", "gpu:0", "cpu:0", "cpu:", "cuda", "cuda:", "vulkan:-1",
        "cuda:+1", "cuda:0x1", "cuda:1a", "cuda: 1", "cuda:1:2",
        "cuda:4294967296", "cuda:99999999999999999999"})
    EXPECT_EQ(Device::parse(s), std::nullopt) << '"' << s << '"';
}

// Tests device order: cpu < cuda:N < vulkan:N, ordinals ascending.
TEST(DeviceTest, Order) {
  std::vector<Device> devices = {Device::vulkan(1), Device::cuda(2),
                                 Device::vulkan(0), Device::cpu(),
                                 Device::cuda(0),   Device::cuda(10)};
  std::sort(devices.begin(), devices.end());
  std::vector<std::string> spelled;
  for (Device d : devices)
    spelled.push_back(d.str());
  EXPECT_EQ(spelled,
            (std::vector<std::string>{"cpu", "cuda:0", "cuda:2", "cuda:10",
                                      "vulkan:0", "vulkan:1"}));
  EXPECT_FALSE(Device::cuda(3) < Device::cuda(3));
  EXPECT_NE(Device::cuda(0), Device::vulkan(0));
}

// Tests that the vocabulary is usable in constant expressions.
static_assert(Device::parse("vulkan:3") == Device::vulkan(3));
static_assert(!Device::parse("cpu:0"));
static_assert(Device::cpu() < Device::cuda(0) &&
              Device::cuda(UINT32_MAX) < Device::vulkan(0));
static_assert(symbolizeDeviceKind("cuda") == DeviceKind::Cuda);

} // namespace
