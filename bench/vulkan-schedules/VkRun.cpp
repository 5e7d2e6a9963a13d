//===- VkRun.cpp - Runs one SPIR-V compute kernel on a Vulkan device ------===//
//
// The runner of the Vulkan schedule benchmark (bench/vulkan-schedules/
// run.py), independent of libfuelrt so that a kernel is timed alone:
//
//   fuel-bench-vk-run KERNEL.spv ENTRY GX GY GZ REPS FILE:BYTES[:in] ...
//
// Each FILE:BYTES is one storage buffer (set 0, binding i in order) of
// BYTES bytes, host-visible and coherent; ":in" buffers are read from FILE,
// the others are zeroed and written to FILE.out after the first dispatch.
// It dispatches GX x GY x GZ workgroups once, then REPS more times, one
// submit and wait each, and prints the best and median wall time of those
// in microseconds ("best_us 12.3 median_us 14.5"). It picks the first
// device of type CPU (lavapipe), else the first device.
//
//===----------------------------------------------------------------------===//

#include <vulkan/vulkan.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

[[noreturn]] void die(const std::string &what) {
  std::fprintf(stderr, "fuel-bench-vk-run: %s\n", what.c_str());
  std::exit(1);
}

void check(VkResult r, const char *what) {
  if (r != VK_SUCCESS)
    die(std::string(what) + " failed: VkResult " + std::to_string(r));
}

struct Buffer {
  std::string file;
  size_t bytes = 0;
  bool input = false;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  void *mapped = nullptr;
};

std::vector<char> readFile(const std::string &path) {
  FILE *f = std::fopen(path.c_str(), "rb");
  if (!f)
    die("cannot read '" + path + "'");
  std::vector<char> data;
  char chunk[65536];
  size_t n;
  while ((n = std::fread(chunk, 1, sizeof(chunk), f)) > 0)
    data.insert(data.end(), chunk, chunk + n);
  std::fclose(f);
  return data;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 8)
    die("usage: fuel-bench-vk-run KERNEL.spv ENTRY GX GY GZ REPS "
        "FILE:BYTES[:in]...");
  std::vector<char> code = readFile(argv[1]);
  if (code.empty() || code.size() % 4)
    die(std::string("'") + argv[1] + "' is not a SPIR-V binary");
  const char *entry = argv[2];
  uint32_t groups[3] = {uint32_t(std::atoi(argv[3])),
                        uint32_t(std::atoi(argv[4])),
                        uint32_t(std::atoi(argv[5]))};
  int reps = std::max(1, std::atoi(argv[6]));
  std::vector<Buffer> buffers;
  for (int i = 7; i < argc; ++i) {
    std::string spec = argv[i];
    size_t a = spec.find(':');
    if (a == std::string::npos)
      die("buffer '" + spec + "' is not FILE:BYTES[:in]");
    size_t b = spec.find(':', a + 1);
    Buffer buf;
    buf.file = spec.substr(0, a);
    buf.bytes =
        std::strtoull(spec.substr(a + 1, b - a - 1).c_str(), nullptr, 10);
    buf.input = b != std::string::npos && spec.substr(b + 1) == "in";
    if (!buf.bytes)
      die("buffer '" + spec + "' has no size");
    buffers.push_back(buf);
  }

  VkApplicationInfo app{};
  app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  app.apiVersion = VK_API_VERSION_1_1;
  VkInstanceCreateInfo ici{};
  ici.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  ici.pApplicationInfo = &app;
  VkInstance instance;
  check(vkCreateInstance(&ici, nullptr, &instance), "vkCreateInstance");
  uint32_t count = 0;
  vkEnumeratePhysicalDevices(instance, &count, nullptr);
  if (!count)
    die("no Vulkan device");
  std::vector<VkPhysicalDevice> physical(count);
  vkEnumeratePhysicalDevices(instance, &count, physical.data());
  VkPhysicalDevice pd = physical[0];
  for (VkPhysicalDevice d : physical) {
    VkPhysicalDeviceProperties p;
    vkGetPhysicalDeviceProperties(d, &p);
    if (p.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU) {
      pd = d;
      break;
    }
  }
  uint32_t families = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &families, nullptr);
  std::vector<VkQueueFamilyProperties> fam(families);
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &families, fam.data());
  uint32_t family = families;
  for (uint32_t i = 0; i < families; ++i)
    if (fam[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
      family = i;
      break;
    }
  if (family == families)
    die("no compute queue");
  float priority = 1;
  VkDeviceQueueCreateInfo qci{};
  qci.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
  qci.queueFamilyIndex = family;
  qci.queueCount = 1;
  qci.pQueuePriorities = &priority;
  VkDeviceCreateInfo dci{};
  dci.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  VkDevice device;
  check(vkCreateDevice(pd, &dci, nullptr, &device), "vkCreateDevice");
  VkQueue queue;
  vkGetDeviceQueue(device, family, 0, &queue);
  VkPhysicalDeviceMemoryProperties mem;
  vkGetPhysicalDeviceMemoryProperties(pd, &mem);
  const VkMemoryPropertyFlags hostFlags = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                          VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;

  std::vector<VkDescriptorSetLayoutBinding> bindings;
  for (size_t i = 0; i < buffers.size(); ++i) {
    Buffer &b = buffers[i];
    VkBufferCreateInfo bci{};
    bci.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    bci.size = b.bytes;
    bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    check(vkCreateBuffer(device, &bci, nullptr, &b.buffer), "vkCreateBuffer");
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(device, b.buffer, &req);
    uint32_t type = 0;
    while (type < mem.memoryTypeCount &&
           !((req.memoryTypeBits >> type & 1) &&
             (mem.memoryTypes[type].propertyFlags & hostFlags) == hostFlags))
      ++type;
    if (type == mem.memoryTypeCount)
      die("no host-visible coherent memory");
    VkMemoryAllocateInfo mai{};
    mai.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    mai.allocationSize = req.size;
    mai.memoryTypeIndex = type;
    check(vkAllocateMemory(device, &mai, nullptr, &b.memory),
          "vkAllocateMemory");
    check(vkBindBufferMemory(device, b.buffer, b.memory, 0),
          "vkBindBufferMemory");
    check(vkMapMemory(device, b.memory, 0, b.bytes, 0, &b.mapped),
          "vkMapMemory");
    std::memset(b.mapped, 0, b.bytes);
    if (b.input) {
      std::vector<char> data = readFile(b.file);
      if (data.size() != b.bytes)
        die("'" + b.file + "' holds " + std::to_string(data.size()) +
            " bytes, not " + std::to_string(b.bytes));
      std::memcpy(b.mapped, data.data(), b.bytes);
    }
    bindings.push_back({uint32_t(i), VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                        VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
  }

  VkDescriptorSetLayoutCreateInfo dsl{};
  dsl.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
  dsl.bindingCount = uint32_t(bindings.size());
  dsl.pBindings = bindings.data();
  VkDescriptorSetLayout setLayout;
  check(vkCreateDescriptorSetLayout(device, &dsl, nullptr, &setLayout),
        "vkCreateDescriptorSetLayout");
  VkPipelineLayoutCreateInfo plci{};
  plci.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
  plci.setLayoutCount = 1;
  plci.pSetLayouts = &setLayout;
  VkPipelineLayout pipelineLayout;
  check(vkCreatePipelineLayout(device, &plci, nullptr, &pipelineLayout),
        "vkCreatePipelineLayout");
  VkShaderModuleCreateInfo smci{};
  smci.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
  smci.codeSize = code.size();
  smci.pCode = reinterpret_cast<const uint32_t *>(code.data());
  VkShaderModule shader;
  check(vkCreateShaderModule(device, &smci, nullptr, &shader),
        "vkCreateShaderModule");
  VkComputePipelineCreateInfo cpci{};
  cpci.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
  cpci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  cpci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  cpci.stage.module = shader;
  cpci.stage.pName = entry;
  cpci.layout = pipelineLayout;
  VkPipeline pipeline;
  check(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &cpci, nullptr,
                                 &pipeline),
        "vkCreateComputePipelines");
  VkDescriptorPoolSize poolSize{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                uint32_t(buffers.size())};
  VkDescriptorPoolCreateInfo dpci{};
  dpci.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
  dpci.maxSets = 1;
  dpci.poolSizeCount = 1;
  dpci.pPoolSizes = &poolSize;
  VkDescriptorPool pool;
  check(vkCreateDescriptorPool(device, &dpci, nullptr, &pool),
        "vkCreateDescriptorPool");
  VkDescriptorSetAllocateInfo dsai{};
  dsai.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
  dsai.descriptorPool = pool;
  dsai.descriptorSetCount = 1;
  dsai.pSetLayouts = &setLayout;
  VkDescriptorSet set;
  check(vkAllocateDescriptorSets(device, &dsai, &set),
        "vkAllocateDescriptorSets");
  std::vector<VkDescriptorBufferInfo> infos;
  for (Buffer &b : buffers)
    infos.push_back({b.buffer, 0, VK_WHOLE_SIZE});
  std::vector<VkWriteDescriptorSet> writes;
  for (size_t i = 0; i < buffers.size(); ++i) {
    VkWriteDescriptorSet w{};
    w.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    w.dstSet = set;
    w.dstBinding = uint32_t(i);
    w.descriptorCount = 1;
    w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    w.pBufferInfo = &infos[i];
    writes.push_back(w);
  }
  vkUpdateDescriptorSets(device, uint32_t(writes.size()), writes.data(), 0,
                         nullptr);
  VkCommandPoolCreateInfo cpoolci{};
  cpoolci.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  cpoolci.queueFamilyIndex = family;
  VkCommandPool commandPool;
  check(vkCreateCommandPool(device, &cpoolci, nullptr, &commandPool),
        "vkCreateCommandPool");
  VkCommandBufferAllocateInfo cbai{};
  cbai.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
  cbai.commandPool = commandPool;
  cbai.commandBufferCount = 1;
  VkCommandBuffer cmd;
  check(vkAllocateCommandBuffers(device, &cbai, &cmd),
        "vkAllocateCommandBuffers");
  VkCommandBufferBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  vkBeginCommandBuffer(cmd, &begin);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipelineLayout,
                          0, 1, &set, 0, nullptr);
  vkCmdDispatch(cmd, groups[0], groups[1], groups[2]);
  check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");

  VkSubmitInfo submit{};
  submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cmd;
  check(vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE), "vkQueueSubmit");
  check(vkQueueWaitIdle(queue), "vkQueueWaitIdle");
  for (Buffer &b : buffers) {
    if (b.input)
      continue;
    std::string out = b.file + ".out";
    FILE *f = std::fopen(out.c_str(), "wb");
    if (!f || std::fwrite(b.mapped, 1, b.bytes, f) != b.bytes)
      die("cannot write '" + out + "'");
    std::fclose(f);
  }
  std::vector<double> times;
  for (int r = 0; r < reps; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    check(vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE), "vkQueueSubmit");
    check(vkQueueWaitIdle(queue), "vkQueueWaitIdle");
    times.push_back(std::chrono::duration<double, std::micro>(
                        std::chrono::steady_clock::now() - t0)
                        .count());
  }
  std::sort(times.begin(), times.end());
  std::printf("best_us %.1f median_us %.1f\n", times.front(),
              times[times.size() / 2]);
  vkDestroyDevice(device, nullptr);
  vkDestroyInstance(instance, nullptr);
  return 0;
}
