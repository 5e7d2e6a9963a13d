//===- VulkanSymbols.h - The Vulkan entry points, one table -----*- C++ -*-===//
//
// Every Vulkan entry point fuel calls, in one X-macro table per level: the
// Vulkan device and the probe (lib/Probe) take them through one loader
// (VulkanLoader.h), reached through vkGetInstanceProcAddr and
// vkGetDeviceProcAddr, never linked (VK_NO_PROTOTYPES). Each row is
// REQUIRED(name) or OPTIONAL(name), typed by vulkan_core.h's PFN_name:
//
//   global    vkGetInstanceProcAddr(nullptr, name)
//   instance  vkGetInstanceProcAddr(instance, name)
//   device    vkGetDeviceProcAddr(device, name)
//
// A loader missing a REQUIRED entry point cannot run fuel; an OPTIONAL one
// is null where the loader, the instance's version or the device's
// extensions lack it, and its users say what they do then.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_RUNTIME_DEVICE_VULKAN_VULKANSYMBOLS_H
#define FUEL_RUNTIME_DEVICE_VULKAN_VULKANSYMBOLS_H

#define FUEL_VK_GLOBAL_SYMBOLS(REQUIRED, OPTIONAL)                             \
  REQUIRED(vkCreateInstance)                                                   \
  /* Vulkan 1.1 loaders; a 1.0 loader refuses an instance above 1.0. */        \
  OPTIONAL(vkEnumerateInstanceVersion)

#define FUEL_VK_INSTANCE_SYMBOLS(REQUIRED, OPTIONAL)                           \
  REQUIRED(vkDestroyInstance)                                                  \
  REQUIRED(vkEnumeratePhysicalDevices)                                         \
  REQUIRED(vkGetPhysicalDeviceProperties)                                      \
  REQUIRED(vkGetPhysicalDeviceMemoryProperties)                                \
  REQUIRED(vkGetPhysicalDeviceQueueFamilyProperties)                           \
  REQUIRED(vkEnumerateDeviceExtensionProperties)                               \
  REQUIRED(vkCreateDevice)                                                     \
  REQUIRED(vkGetDeviceProcAddr)                                                \
  /* Vulkan 1.1 instances: the device opens only with them, the probe */       \
  /* reads subgroup and ID properties where they exist. */                     \
  OPTIONAL(vkGetPhysicalDeviceProperties2)                                     \
  OPTIONAL(vkGetPhysicalDeviceFeatures2)

#define FUEL_VK_DEVICE_SYMBOLS(REQUIRED, OPTIONAL)                             \
  REQUIRED(vkDestroyDevice)                                                    \
  REQUIRED(vkGetDeviceQueue)                                                   \
  REQUIRED(vkDeviceWaitIdle)                                                   \
  REQUIRED(vkCreateBuffer)                                                     \
  REQUIRED(vkDestroyBuffer)                                                    \
  REQUIRED(vkGetBufferMemoryRequirements)                                      \
  REQUIRED(vkAllocateMemory)                                                   \
  REQUIRED(vkFreeMemory)                                                       \
  REQUIRED(vkMapMemory)                                                        \
  REQUIRED(vkBindBufferMemory)                                                 \
  REQUIRED(vkCreateShaderModule)                                               \
  REQUIRED(vkDestroyShaderModule)                                              \
  REQUIRED(vkCreateDescriptorSetLayout)                                        \
  REQUIRED(vkDestroyDescriptorSetLayout)                                       \
  REQUIRED(vkCreatePipelineLayout)                                             \
  REQUIRED(vkDestroyPipelineLayout)                                            \
  REQUIRED(vkCreatePipelineCache)                                              \
  REQUIRED(vkDestroyPipelineCache)                                             \
  REQUIRED(vkGetPipelineCacheData)                                             \
  REQUIRED(vkCreateComputePipelines)                                           \
  REQUIRED(vkDestroyPipeline)                                                  \
  REQUIRED(vkCreateDescriptorPool)                                             \
  REQUIRED(vkDestroyDescriptorPool)                                            \
  REQUIRED(vkResetDescriptorPool)                                              \
  REQUIRED(vkAllocateDescriptorSets)                                           \
  REQUIRED(vkUpdateDescriptorSets)                                             \
  REQUIRED(vkCreateCommandPool)                                                \
  REQUIRED(vkDestroyCommandPool)                                               \
  REQUIRED(vkAllocateCommandBuffers)                                           \
  REQUIRED(vkResetCommandBuffer)                                               \
  REQUIRED(vkBeginCommandBuffer)                                               \
  REQUIRED(vkEndCommandBuffer)                                                 \
  REQUIRED(vkCmdBindPipeline)                                                  \
  REQUIRED(vkCmdBindDescriptorSets)                                            \
  REQUIRED(vkCmdPushConstants)                                                 \
  REQUIRED(vkCmdDispatch)                                                      \
  REQUIRED(vkCmdCopyBuffer)                                                    \
  REQUIRED(vkCmdPipelineBarrier)                                               \
  REQUIRED(vkCmdWriteTimestamp)                                                \
  REQUIRED(vkCmdResetQueryPool)                                                \
  REQUIRED(vkCreateQueryPool)                                                  \
  REQUIRED(vkDestroyQueryPool)                                                 \
  REQUIRED(vkGetQueryPoolResults)                                              \
  REQUIRED(vkQueueSubmit)                                                      \
  REQUIRED(vkCreateSemaphore)                                                  \
  REQUIRED(vkDestroySemaphore)                                                 \
  REQUIRED(vkWaitSemaphores)                                                   \
  REQUIRED(vkGetSemaphoreCounterValue)                                         \
  REQUIRED(vkCreateFence)                                                      \
  REQUIRED(vkDestroyFence)                                                     \
  REQUIRED(vkWaitForFences)                                                    \
  REQUIRED(vkResetFences)                                                      \
  /* VK_EXT_calibrated_timestamps, where the device has it enabled. */         \
  OPTIONAL(vkGetCalibratedTimestampsEXT)

#endif // FUEL_RUNTIME_DEVICE_VULKAN_VULKANSYMBOLS_H
