//===- VulkanModules.cpp - The Vulkan device's modules and pipelines ------===//
//
// SPIR-V modules checked and parsed for their entry points, one compute
// pipeline per kernel with its descriptor-set and push-constant layout, and
// a VkPipelineCache per module persisted on disk, keyed by the device's
// UUID, the driver's version and the module's bytes (VulkanDeviceImpl.h).
//
//===----------------------------------------------------------------------===//

#include "vulkan/VulkanDeviceImpl.h"

#include "DeviceChecks.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fuel::rt {

using namespace vulkan_detail;
using detail::checkRange;
using detail::outOfRange;
using detail::unknownBuffer;

namespace {

uint64_t fnv1a(const void *data, size_t size) {
  const auto *p = static_cast<const uint8_t *>(data);
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < size; ++i) {
    h ^= p[i];
    h *= 1099511628211ull;
  }
  return h;
}

std::string hex(const uint8_t *p, size_t n) {
  static const char *digits = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    s += digits[p[i] >> 4];
    s += digits[p[i] & 15];
  }
  return s;
}

std::string hex64(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", (unsigned long long)v);
  return buf;
}

bool mkdirs(const std::string &dir) {
  if (dir.empty())
    return false;
  std::string path;
  size_t pos = 0;
  while (pos != std::string::npos) {
    pos = dir.find('/', pos + 1);
    path = dir.substr(0, pos);
    if (path.empty())
      continue;
    if (::mkdir(path.c_str(), 0755) != 0 && errno != EEXIST)
      return false;
  }
  struct stat st;
  return ::stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// The pipeline cache file: this header, then the driver's cache data.
struct CacheFileHeader {
  char magic[8];
  uint64_t payloadBytes;
  uint64_t payloadChecksum;
};
constexpr char kCacheMagic[8] = {'F', 'U', 'E', 'L', 'V', 'K', 'P', '1'};

} // namespace

namespace {

struct SpirvEntry {
  uint32_t id = 0;
  uint32_t model = 0;
  uint32_t localSize[3] = {0, 0, 0};
};

// The entry points of a SPIR-V module and their LocalSize, checking the
// instruction stream's framing on the way.
Status parseSpirv(const uint32_t *words, size_t n,
                  std::map<std::string, SpirvEntry> &entries) {
  std::vector<std::pair<uint32_t, std::array<uint32_t, 3>>> sizes;
  for (size_t i = 5; i < n;) {
    uint32_t count = words[i] >> 16, op = words[i] & 0xffff;
    if (count == 0 || count > n - i)
      return Status::error(StatusCode::InvalidArgument,
                           "module: SPIR-V instruction at word " +
                               std::to_string(i) + " has a bad word count");
    if (op == 15 && count >= 4) { // OpEntryPoint
      size_t maxChars = 4 * (count - 3);
      const char *s = reinterpret_cast<const char *>(words + i + 3);
      std::string name(s, strnlen(s, maxChars));
      SpirvEntry e;
      e.model = words[i + 1];
      e.id = words[i + 2];
      entries[name] = e;
    } else if (op == 16 && count >= 6 && words[i + 2] == 17) {
      // OpExecutionMode %id LocalSize x y z
      sizes.push_back(
          {words[i + 1], {words[i + 3], words[i + 4], words[i + 5]}});
    }
    i += count;
  }
  for (auto &[name, e] : entries)
    for (auto &[id, s] : sizes)
      if (id == e.id)
        std::copy(s.begin(), s.end(), e.localSize);
  return Status::ok();
}

} // namespace

Status VulkanDevice::Impl::createPipelines(ModuleRec &m,
                                           const ModuleImage &image,
                                           std::vector<KernelRec> &out) {
  // The pipeline cache: read from disk where it matches this device.
  std::string cachePath;
  std::vector<char> cacheData;
  bool hit = false;
  if (!cacheDir.empty()) {
    uint64_t sum = fnv1a(image.data, image.size);
    for (const auto &name : image.kernelNames)
      sum = fnv1a(name.data(), name.size()) ^ (sum * 1099511628211ull);
    cachePath =
        cacheDir + "/vulkan-pipelines-" + hex(deviceUUID, VK_UUID_SIZE) + "-" +
        hex64(props.driverVersion).substr(8) + "-" + hex64(sum) + ".bin";
    if (FILE *f = std::fopen(cachePath.c_str(), "rb")) {
      std::vector<char> bytes;
      char buf[65536];
      size_t got;
      while ((got = std::fread(buf, 1, sizeof buf, f)) > 0)
        bytes.insert(bytes.end(), buf, buf + got);
      std::fclose(f);
      CacheFileHeader h;
      if (bytes.size() >= sizeof h) {
        std::memcpy(&h, bytes.data(), sizeof h);
        const char *payload = bytes.data() + sizeof h;
        size_t payloadBytes = bytes.size() - sizeof h;
        // The driver's header (VkPipelineCacheHeaderVersionOne).
        uint32_t vh[4] = {};
        if (payloadBytes >= 16 + VK_UUID_SIZE)
          std::memcpy(vh, payload, 16);
        if (std::memcmp(h.magic, kCacheMagic, 8) == 0 &&
            h.payloadBytes == payloadBytes &&
            h.payloadChecksum == fnv1a(payload, payloadBytes) &&
            payloadBytes >= 16 + VK_UUID_SIZE && vh[0] >= 16 + VK_UUID_SIZE &&
            vh[1] == VK_PIPELINE_CACHE_HEADER_VERSION_ONE &&
            vh[2] == props.vendorID && vh[3] == props.deviceID &&
            std::memcmp(payload + 16, props.pipelineCacheUUID, VK_UUID_SIZE) ==
                0) {
          cacheData.assign(payload, payload + payloadBytes);
          hit = true;
        }
      }
    }
  }
  VkPipelineCache cache = VK_NULL_HANDLE;
  if (!cacheDir.empty()) {
    VkPipelineCacheCreateInfo pci{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
    pci.initialDataSize = cacheData.size();
    pci.pInitialData = cacheData.empty() ? nullptr : cacheData.data();
    if (vk.vkCreatePipelineCache(device, &pci, nullptr, &cache) != VK_SUCCESS) {
      pci.initialDataSize = 0;
      pci.pInitialData = nullptr;
      hit = false;
      if (vk.vkCreatePipelineCache(device, &pci, nullptr, &cache) != VK_SUCCESS)
        cache = VK_NULL_HANDLE;
    }
  }
  Status status = Status::ok();
  for (size_t i = 0; i < image.kernelNames.size() && status.isOk(); ++i) {
    const KernelLayout &layout = image.layouts[i];
    KernelRec k;
    k.slots = layout.bindingSlots;
    k.pushBytes = pushBytes;
    for (const auto &slot : k.slots)
      k.numSets = std::max(k.numSets, slot.first + 1);
    for (uint32_t set = 0; set < k.numSets; ++set) {
      std::vector<VkDescriptorSetLayoutBinding> bindings;
      for (const auto &slot : k.slots)
        if (slot.first == set) {
          VkDescriptorSetLayoutBinding b{};
          b.binding = slot.second;
          b.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
          b.descriptorCount = 1;
          b.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
          bindings.push_back(b);
        }
      VkDescriptorSetLayoutCreateInfo li{
          VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
      li.bindingCount = uint32_t(bindings.size());
      li.pBindings = bindings.data();
      VkDescriptorSetLayout l;
      if (VkResult r = vk.vkCreateDescriptorSetLayout(device, &li, nullptr, &l);
          r != VK_SUCCESS) {
        status = vkStatus("vkCreateDescriptorSetLayout", r);
        break;
      }
      k.setLayouts.push_back(l);
    }
    if (!status.isOk()) {
      out.push_back(std::move(k));
      break;
    }
    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, k.pushBytes};
    VkPipelineLayoutCreateInfo pli{
        VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    pli.setLayoutCount = uint32_t(k.setLayouts.size());
    pli.pSetLayouts = k.setLayouts.data();
    pli.pushConstantRangeCount = k.pushBytes ? 1 : 0;
    pli.pPushConstantRanges = &range;
    if (VkResult r =
            vk.vkCreatePipelineLayout(device, &pli, nullptr, &k.layout);
        r != VK_SUCCESS) {
      status = vkStatus("vkCreatePipelineLayout", r);
      out.push_back(std::move(k));
      break;
    }
    VkComputePipelineCreateInfo cpi{
        VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    cpi.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    cpi.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    cpi.stage.module = m.shader;
    cpi.stage.pName = image.kernelNames[i].c_str();
    cpi.layout = k.layout;
    if (VkResult r = vk.vkCreateComputePipelines(device, cache, 1, &cpi,
                                                 nullptr, &k.pipeline);
        r != VK_SUCCESS) {
      k.pipeline = VK_NULL_HANDLE;
      status = vkStatus(
          ("vkCreateComputePipelines for kernel '" + image.kernelNames[i] + "'")
              .c_str(),
          r);
    }
    out.push_back(std::move(k));
  }
  if (cache && status.isOk()) {
    if (hit) {
      ++cacheHits;
    } else if (mkdirs(cacheDir)) {
      size_t size = 0;
      std::vector<char> data;
      if (vk.vkGetPipelineCacheData(device, cache, &size, nullptr) ==
              VK_SUCCESS &&
          size) {
        data.resize(size);
        if (vk.vkGetPipelineCacheData(device, cache, &size, data.data()) !=
            VK_SUCCESS)
          data.clear();
        data.resize(size);
      }
      if (!data.empty()) {
        // Written whole to a temporary file, then renamed over the old one.
        std::string tmp = cachePath + ".tmp" + std::to_string(::getpid()) +
                          "." + std::to_string(newId());
        CacheFileHeader h;
        std::memcpy(h.magic, kCacheMagic, 8);
        h.payloadBytes = data.size();
        h.payloadChecksum = fnv1a(data.data(), data.size());
        bool ok = false;
        if (FILE *f = std::fopen(tmp.c_str(), "wb")) {
          ok = std::fwrite(&h, sizeof h, 1, f) == 1 &&
               std::fwrite(data.data(), 1, data.size(), f) == data.size();
          ok = (std::fclose(f) == 0) && ok;
        }
        if (ok && std::rename(tmp.c_str(), cachePath.c_str()) == 0)
          ++cacheWrites;
        else
          std::remove(tmp.c_str());
      }
    }
  }
  if (cache)
    vk.vkDestroyPipelineCache(device, cache, nullptr);
  return status;
}

StatusOr<ModuleHandle> VulkanDevice::loadModule(const ModuleImage &image) {
  Impl &d = *impl_;
  if (!image.data && image.size)
    return Status::error(StatusCode::InvalidArgument,
                         "module: null data with a non-zero size");
  if (image.size % 4 || image.size < 20)
    return Status::error(StatusCode::InvalidArgument,
                         "module: a SPIR-V module of " +
                             std::to_string(image.size) +
                             " bytes is not a whole number of 32-bit words "
                             "with a header");
  std::vector<uint32_t> words(image.size / 4);
  std::memcpy(words.data(), image.data, image.size);
  if (words[0] != 0x07230203)
    return Status::error(StatusCode::InvalidArgument,
                         "module: not SPIR-V (bad magic number)");
  if (image.layouts.size() != image.kernelNames.size())
    return Status::error(StatusCode::InvalidArgument,
                         "module: " + std::to_string(image.kernelNames.size()) +
                             " kernel names but " +
                             std::to_string(image.layouts.size()) + " layouts");
  std::map<std::string, SpirvEntry> entries;
  if (Status s = parseSpirv(words.data(), words.size(), entries); !s.isOk())
    return s;
  const VkPhysicalDeviceLimits &lim = d.props.limits;
  for (size_t i = 0; i < image.kernelNames.size(); ++i) {
    const std::string &name = image.kernelNames[i];
    const KernelLayout &l = image.layouts[i];
    auto e = entries.find(name);
    if (e == entries.end())
      return Status::error(StatusCode::InvalidArgument,
                           "module: no entry point '" + name +
                               "' in the SPIR-V module");
    if (e->second.model != 5) // GLCompute
      return Status::error(StatusCode::InvalidArgument,
                           "module: entry point '" + name +
                               "' is not a compute (GLCompute) entry point");
    uint64_t invocations = 1;
    for (int a = 0; a < 3; ++a) {
      uint32_t w = l.workgroupSize[a];
      if (w == 0 || w > lim.maxComputeWorkGroupSize[a])
        return Status::error(
            StatusCode::InvalidArgument,
            "module: kernel '" + name + "' workgroup size " +
                std::to_string(w) + " in dimension " + std::to_string(a) +
                " is outside the device's maxComputeWorkGroupSize of " +
                std::to_string(lim.maxComputeWorkGroupSize[a]));
      invocations *= w;
      if (e->second.localSize[0] && e->second.localSize[a] != w)
        return Status::error(
            StatusCode::InvalidArgument,
            "module: kernel '" + name + "' layout's workgroup size " +
                std::to_string(w) + " in dimension " + std::to_string(a) +
                " differs from the module's LocalSize " +
                std::to_string(e->second.localSize[a]));
    }
    if (invocations > lim.maxComputeWorkGroupInvocations)
      return Status::error(
          StatusCode::InvalidArgument,
          "module: kernel '" + name + "' has " + std::to_string(invocations) +
              " invocations per workgroup; the device's "
              "maxComputeWorkGroupInvocations is " +
              std::to_string(lim.maxComputeWorkGroupInvocations));
    if (l.bindingSlots.size() > kMaxBindings)
      return Status::error(StatusCode::InvalidArgument,
                           "module: kernel '" + name + "' has " +
                               std::to_string(l.bindingSlots.size()) +
                               " bindings; the limit is " +
                               std::to_string(kMaxBindings));
    for (size_t j = 0; j < l.bindingSlots.size(); ++j) {
      if (l.bindingSlots[j].first >= kMaxSets ||
          l.bindingSlots[j].first >= lim.maxBoundDescriptorSets)
        return Status::error(StatusCode::InvalidArgument,
                             "module: kernel '" + name + "' binding " +
                                 std::to_string(j) + " uses descriptor set " +
                                 std::to_string(l.bindingSlots[j].first) +
                                 "; at most " +
                                 std::to_string(std::min<uint32_t>(
                                     kMaxSets, lim.maxBoundDescriptorSets)) +
                                 " sets are supported");
      for (size_t k = 0; k < j; ++k)
        if (l.bindingSlots[k] == l.bindingSlots[j])
          return Status::error(StatusCode::InvalidArgument,
                               "module: kernel '" + name + "' bindings " +
                                   std::to_string(k) + " and " +
                                   std::to_string(j) +
                                   " share one (set, binding) slot");
    }
  }
  if (d.lost)
    return Status::error(StatusCode::Unavailable,
                         "module: the Vulkan device was lost");
  Impl::ModuleRec m;
  VkShaderModuleCreateInfo sci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  sci.codeSize = image.size;
  sci.pCode = words.data();
  if (VkResult r =
          d.vk.vkCreateShaderModule(d.device, &sci, nullptr, &m.shader);
      r != VK_SUCCESS)
    return vkStatus("vkCreateShaderModule", r);
  std::vector<Impl::KernelRec> kernels;
  Status s = d.createPipelines(m, image, kernels);
  if (!s.isOk()) {
    for (auto &k : kernels) {
      if (k.pipeline)
        d.vk.vkDestroyPipeline(d.device, k.pipeline, nullptr);
      if (k.layout)
        d.vk.vkDestroyPipelineLayout(d.device, k.layout, nullptr);
      for (VkDescriptorSetLayout l : k.setLayouts)
        d.vk.vkDestroyDescriptorSetLayout(d.device, l, nullptr);
    }
    d.vk.vkDestroyShaderModule(d.device, m.shader, nullptr);
    return s;
  }
  ModuleHandle handle;
  handle.id = newId();
  std::lock_guard<std::mutex> lock(d.mu);
  for (auto &k : kernels) {
    uint64_t id = newId();
    k.module = handle.id;
    d.kernels[id] = std::move(k);
    m.kernels.push_back(id);
    handle.kernels.push_back(Kernel{id});
  }
  d.modules[handle.id] = std::move(m);
  return handle;
}

Status VulkanDevice::unloadModule(const ModuleHandle &module) {
  Impl &d = *impl_;
  std::lock_guard<std::mutex> lock(d.mu);
  auto it = d.modules.find(module.id);
  if (it == d.modules.end())
    return Status::error(StatusCode::InvalidArgument,
                         "unloadModule: module " + std::to_string(module.id) +
                             " is not a loaded module of this device");
  for (uint64_t id : it->second.kernels) {
    auto k = d.kernels.find(id);
    d.vk.vkDestroyPipeline(d.device, k->second.pipeline, nullptr);
    d.vk.vkDestroyPipelineLayout(d.device, k->second.layout, nullptr);
    for (VkDescriptorSetLayout l : k->second.setLayouts)
      d.vk.vkDestroyDescriptorSetLayout(d.device, l, nullptr);
    d.kernels.erase(k);
  }
  d.vk.vkDestroyShaderModule(d.device, it->second.shader, nullptr);
  d.modules.erase(it);
  return Status::ok();
}

} // namespace fuel::rt
