//===- DriverLoaderTest.cpp - The drivers' entry-point tables and loaders -===//
//
// FuelRtDrivers: the CUDA driver's table (cuda/CudaSymbols.h) taken whole
// from the driver's test double, a library that is no driver named by its
// first missing entry point, one load per library name; the Vulkan loader's
// refusals, and its global and instance tables on this machine's loader
// where it has one (lavapipe). The probe loads through the same code
// (unittests/Probe/CudaProbeTest.cpp checks that its notes are these
// messages).
//
//===----------------------------------------------------------------------===//

#include "cuda/CudaDriver.h"
#include "vulkan/VulkanLoader.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace fuel::rt;

namespace {

bool contains(const std::string &s, const std::string &what) {
  return s.find(what) != std::string::npos;
}

TEST(CudaDriverLoader, TakesEveryRequiredEntryPointOfTheDouble) {
  StatusOr<const cuda::Driver *> d =
      cuda::openDriver(FUEL_FAKE_CUDA_DRIVER_PATH);
  ASSERT_TRUE(d.isOk()) << d.status().message();
  std::vector<std::string> missing;
#define FUEL_EXPECT_TAKEN(member, params, ...)                                 \
  if (!(*d)->member)                                                           \
    missing.push_back(#member);
#define FUEL_IGNORE(member, params, ...)
  FUEL_CUDA_DRIVER_SYMBOLS(FUEL_EXPECT_TAKEN, FUEL_IGNORE)
#undef FUEL_EXPECT_TAKEN
#undef FUEL_IGNORE
  EXPECT_TRUE(missing.empty()) << missing.front();
  // The peer-copy entry points come all three or not at all.
  bool peer = (*d)->cuDeviceCanAccessPeer;
  EXPECT_EQ(peer, (*d)->cuCtxEnablePeerAccess != nullptr);
  EXPECT_EQ(peer, (*d)->cuMemcpyPeerAsync != nullptr);
  EXPECT_EQ((*d)->library, FUEL_FAKE_CUDA_DRIVER_PATH);
}

TEST(CudaDriverLoader, OpensEachNameOnceAndInitialisesOnLoad) {
  StatusOr<const cuda::Driver *> opened =
      cuda::openDriver(FUEL_FAKE_CUDA_DRIVER_PATH);
  StatusOr<const cuda::Driver *> again =
      cuda::openDriver(FUEL_FAKE_CUDA_DRIVER_PATH);
  StatusOr<const cuda::Driver *> loaded =
      cuda::loadDriver(FUEL_FAKE_CUDA_DRIVER_PATH);
  ASSERT_TRUE(opened.isOk() && again.isOk() && loaded.isOk());
  EXPECT_EQ(*opened, *again);
  EXPECT_EQ(*opened, *loaded);
  int count = 0;
  EXPECT_EQ((*loaded)->cuDeviceGetCount(&count), cuda::kSuccess);
  EXPECT_GE(count, 1);
}

TEST(CudaDriverLoader, NamesTheMissingLibraryAndTheMissingEntryPoint) {
  StatusOr<const cuda::Driver *> none =
      cuda::openDriver("libfuel-no-such-driver.so.1");
  ASSERT_FALSE(none.isOk());
  EXPECT_EQ(none.status().code(), StatusCode::Unavailable);
  EXPECT_TRUE(contains(none.status().message(), "no CUDA driver ("))
      << none.status().message();
  StatusOr<const cuda::Driver *> libc = cuda::openDriver("libc.so.6");
  ASSERT_FALSE(libc.isOk());
  EXPECT_EQ(libc.status().message(),
            "libc.so.6 is not a CUDA driver (cuInit missing)");
  // Remembered: the same answer without another dlopen.
  EXPECT_EQ(cuda::loadDriver("libc.so.6").status().message(),
            libc.status().message());
}

TEST(VulkanLoaderTest, NamesTheMissingLibraryAndTheMissingEntryPoint) {
  StatusOr<VulkanSymbols> none =
      openVulkanLoader("libfuel-no-such-loader.so.1");
  ASSERT_FALSE(none.isOk());
  EXPECT_EQ(none.status().code(), StatusCode::Unavailable);
  EXPECT_TRUE(contains(none.status().message(), "no Vulkan loader ("))
      << none.status().message();
  StatusOr<VulkanSymbols> libc = openVulkanLoader("libc.so.6");
  ASSERT_FALSE(libc.isOk());
  EXPECT_EQ(libc.status().message(),
            "libc.so.6 is not a Vulkan loader (vkGetInstanceProcAddr missing)");
}

TEST(VulkanLoaderTest, TakesTheGlobalAndInstanceTablesOfThisLoader) {
  StatusOr<VulkanSymbols> loader = openVulkanLoader(kVulkanLoaderLibrary);
  if (!loader.isOk())
    GTEST_SKIP() << loader.status().message();
  VulkanSymbols vk = *loader;
  ASSERT_NE(vk.vkCreateInstance, nullptr);
  VkApplicationInfo app{};
  app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  app.apiVersion = VK_API_VERSION_1_1;
  VkInstanceCreateInfo ici{};
  ici.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  ici.pApplicationInfo = &app;
  VkInstance instance = VK_NULL_HANDLE;
  if (vk.vkCreateInstance(&ici, nullptr, &instance) != VK_SUCCESS)
    GTEST_SKIP() << "no Vulkan driver behind the loader";
  Status s = loadVulkanInstanceSymbols(vk, instance);
  EXPECT_TRUE(s.isOk()) << s.message();
  std::vector<std::string> missing;
#define FUEL_EXPECT_TAKEN(name)                                                \
  if (!vk.name)                                                                \
    missing.push_back(#name);
#define FUEL_IGNORE(name)
  FUEL_VK_INSTANCE_SYMBOLS(FUEL_EXPECT_TAKEN, FUEL_IGNORE)
#undef FUEL_EXPECT_TAKEN
#undef FUEL_IGNORE
  EXPECT_TRUE(missing.empty()) << missing.front();
  if (vk.vkDestroyInstance)
    vk.vkDestroyInstance(instance, nullptr);
}

} // namespace
