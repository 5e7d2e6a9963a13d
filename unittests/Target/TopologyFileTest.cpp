//===- TopologyFileTest.cpp - Tests of the topology file format -----------===//
//
// Every error class of the version-1 topology format with its exact message,
// the print -> parse round trip, the example files, the default topology and
// resolveTopology.
//
//===----------------------------------------------------------------------===//

#include "fuel/Target/TopologyFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <string>

using namespace fuel;
using namespace fuel::target;
using plan::Device;
using plan::PathClass;
using plan::Topology;

namespace {

/// The error message parseTopology gives for `text`, or "" when it parses.
std::string parseError(llvm::StringRef text) {
  llvm::Expected<Topology> t = parseTopology(text, "t.json");
  if (t)
    return "";
  return llvm::toString(t.takeError());
}

/// A valid document with one device entry spliced in after the host.
std::string withDevice(llvm::StringRef device) {
  return (R"({"version": 1, "devices": [{"device": "cpu"}, )" + device + "]}")
      .str();
}

/// A valid cpu + cuda:0 document with one link entry.
std::string withLink(llvm::StringRef link) {
  return (R"({"version": 1, "devices": [{"device": "cpu"}, {"device": "cuda:0"}], "links": [)" +
          link + "]}")
      .str();
}

//===----------------------------------------------------------------------===//
// Accepted documents
//===----------------------------------------------------------------------===//

TEST(TopologyFile, ParsesEveryField) {
  const char *text = R"({
    "version": 1,
    "devices": [
      {"device": "cuda:0", "name": "gpu", "peak_flops_per_ns": {"f32": 50000, "f16": 1e5},
       "bytes_per_ns": 3000.5, "dispatch_overhead_ns": 5000,
       "memory_bytes": 18446744073709551615, "alignment": 256},
      {"device": "cpu", "name": "host", "cpu_type": true,
       "peak_flops_per_ns": {"f32": 32.25}, "bytes_per_ns": 20,
       "dispatch_overhead_ns": 2000, "memory_bytes": 1.6e10, "alignment": 64}
    ],
    "links": [
      {"from": "cuda:0", "to": "cpu", "path_class": "device-copy",
       "bandwidth_bytes_per_s": 2.5e10, "latency_ns": 10000},
      {"from": "cpu", "to": "cuda:0", "path_class": "device-copy",
       "bandwidth_bytes_per_s": 25000000000, "latency_ns": 10000}
    ]
  })";
  llvm::Expected<Topology> t = parseTopology(text, "t.json");
  ASSERT_TRUE(bool(t)) << llvm::toString(t.takeError());
  ASSERT_EQ(t->devices.size(), 2u);
  // Canonical order: cpu first, links sorted by (from, to).
  EXPECT_EQ(t->devices[0].device, Device::cpu());
  EXPECT_TRUE(t->devices[0].cpuType);
  EXPECT_EQ(t->devices[0].peakFlopsPerNs.at("f32"), 32.25);
  EXPECT_EQ(t->devices[0].memoryBytes, 16000000000u);
  const plan::DeviceInfo &gpu = t->devices[1];
  EXPECT_EQ(gpu.device, Device::cuda(0));
  EXPECT_FALSE(gpu.cpuType);
  EXPECT_EQ(gpu.name, "gpu");
  EXPECT_EQ(gpu.peakFlopsPerNs.at("f16"), 1e5);
  EXPECT_EQ(*gpu.bytesPerNs, 3000.5);
  EXPECT_EQ(gpu.dispatchOverheadNs, 5000);
  EXPECT_EQ(gpu.memoryBytes, UINT64_MAX);
  EXPECT_EQ(gpu.alignment, 256u);
  ASSERT_EQ(t->links.size(), 2u);
  EXPECT_EQ(t->links[0].from, Device::cpu());
  EXPECT_EQ(t->links[0].bandwidthBytesPerSec, 25'000'000'000);
  EXPECT_EQ(t->links[1].from, Device::cuda(0));
  EXPECT_EQ(t->links[1].bandwidthBytesPerSec, 25'000'000'000);
  EXPECT_EQ(t->validate(), "");
}

TEST(TopologyFile, DefaultsForOmittedFields) {
  llvm::Expected<Topology> t = parseTopology(
      R"({"version": 1, "devices": [{"device": "cpu"}, {"device": "vulkan:0", "cpu_type": true}],
          "links": [{"from": "cpu", "to": "vulkan:0", "path_class": "shared-memory"}]})",
      "t.json");
  ASSERT_TRUE(bool(t)) << llvm::toString(t.takeError());
  const plan::DeviceInfo &host = t->devices[0];
  EXPECT_TRUE(host.cpuType);
  EXPECT_EQ(host.name, "");
  EXPECT_TRUE(host.peakFlopsPerNs.empty());
  EXPECT_FALSE(host.bytesPerNs.has_value());
  EXPECT_EQ(host.dispatchOverheadNs, 0);
  EXPECT_EQ(host.memoryBytes, 0u);
  EXPECT_EQ(host.alignment, 64u);
  EXPECT_TRUE(t->devices[1].cpuType);
  // A link naming only its class takes the class defaults (SEMANTICS §5).
  ASSERT_EQ(t->links.size(), 1u);
  EXPECT_EQ(t->links[0].pathClass, PathClass::SharedMemory);
  EXPECT_EQ(t->links[0].bandwidthBytesPerSec, 20'000'000'000);
  EXPECT_EQ(t->links[0].latencyNs, 2'000);
}

TEST(TopologyFile, EveryPathClassSpelling) {
  for (const char *cls : {"peer", "shared-memory", "device-copy"}) {
    std::string link =
        std::string(R"({"from": "cpu", "to": "cuda:0", "path_class": ")") +
        cls + "\"}";
    EXPECT_EQ(parseError(withLink(link)), "") << cls;
  }
}

//===----------------------------------------------------------------------===//
// Errors, one test per class, exact messages
//===----------------------------------------------------------------------===//

TEST(TopologyFileErrors, SyntaxErrorHasLineAndColumn) {
  EXPECT_EQ(parseError("{\n  \"version\": 1,\n  \"devices\": [}\n"),
            "t.json:3:15: error: Invalid JSON value");
  EXPECT_EQ(parseError(""), "t.json:1:1: error: Unexpected EOF");
  // llvm::json accepts repeated keys; the topology format does not.
  EXPECT_EQ(
      parseError("{\"version\": 1,\n \"devices\": [{\"device\": \"cpu\",\n"
                 "   \"alignment\": 64, \"alignment\": 128}]}"),
      "t.json:3:21: error: duplicate key \"alignment\" (each key may "
      "appear once per object)");
  EXPECT_EQ(parseError("{\"version\": 1, \"devices\": [{\"device\": \"cpu\", "
                       "\"n\\u0061me\": \"x\", \"name\": \"y\"}]}"),
            "t.json:1:64: error: duplicate key \"name\" (each key may "
            "appear once per object)");
  // Equal keys in different objects are fine.
  EXPECT_EQ(parseError(withDevice(R"({"device": "cuda:0", "name": "a"})")), "");
}

TEST(TopologyFileErrors, TopLevelNotAnObject) {
  EXPECT_EQ(parseError("[]"),
            "t.json: error: $: expected an object, got an array");
}

TEST(TopologyFileErrors, UnsupportedVersion) {
  EXPECT_EQ(parseError(R"({"version": 2, "devices": []})"),
            "t.json: error: $.version: unsupported topology version 2 (this "
            "fuel reads 1)");
  EXPECT_EQ(parseError(R"({"devices": []})"),
            "t.json: error: $: missing key \"version\" (expected 1)");
  EXPECT_EQ(parseError(R"({"version": "1", "devices": []})"),
            "t.json: error: $.version: expected an integer version, got \"1\"");
}

// Integral doubles at the edge of int64_t and uint64_t: 2^63 and 2^64 as
// doubles were converted with undefined behaviour (llvm::json's
// getAsInteger / getAsUINT64), found by the topology fuzz target
// (test/fuzz-regressions/topology/). They are refused, and the largest
// values that fit are read exactly.
TEST(TopologyFileErrors, IntegralDoublesAtTheLimits) {
  EXPECT_EQ(parseError(R"({"version": 9223372036854775808.0, "devices": []})"),
            "t.json: error: $.version: expected an integer version, got "
            "9.223372036854776e+18");
  // -2^63 - 1 rounds to the double -2^63, which fits.
  EXPECT_EQ(parseError(R"({"version": -9223372036854775809.0})"),
            "t.json: error: $.version: unsupported topology version "
            "-9223372036854775808 (this fuel reads 1)");
  EXPECT_NE(
      parseError(withDevice(
          R"({"device": "cuda:0", "memory_bytes": 18446744073709551616.0})")),
      "");
  EXPECT_NE(
      parseError(withDevice(
          R"({"device": "cuda:0", "dispatch_overhead_ns": 9223372036854775808.0})")),
      "");
  llvm::Expected<Topology> t =
      parseTopology(withDevice(R"({"device": "cuda:0", "memory_bytes": 1.6e10,
                     "alignment": 9223372036854775808.0})"),
                    "t.json");
  ASSERT_TRUE(bool(t)) << llvm::toString(t.takeError());
  EXPECT_EQ(t->devices[1].memoryBytes, uint64_t(16000000000));
  EXPECT_EQ(t->devices[1].alignment, uint64_t(1) << 63);
  t = parseTopology(
      withDevice(
          R"({"device": "cuda:0", "memory_bytes": 18446744073709551615})"),
      "t.json");
  ASSERT_TRUE(bool(t)) << llvm::toString(t.takeError());
  EXPECT_EQ(t->devices[1].memoryBytes, ~uint64_t(0));
}

TEST(TopologyFileErrors, UnknownKeys) {
  EXPECT_EQ(
      parseError(
          R"({"version": 1, "devices": [{"device": "cpu"}], "link": []})"),
      "t.json: error: $.link: unknown key (expected one of: version, "
      "devices, links)");
  EXPECT_EQ(
      parseError(withDevice(R"({"device": "cuda:0", "bandwith_per_ns": 3})")),
      "t.json: error: $.devices[1].bandwith_per_ns: unknown key "
      "(expected one of: device, name, cpu_type, peak_flops_per_ns, "
      "bytes_per_ns, dispatch_overhead_ns, memory_bytes, alignment, "
      "cpu_target, limits, compute_capability, driver)");
  EXPECT_EQ(
      parseError(withLink(
          R"({"from": "cpu", "to": "cuda:0", "path_class": "peer", "latency": 1})")),
      "t.json: error: $.links[0].latency: unknown key (expected one of: "
      "from, to, path_class, bandwidth_bytes_per_s, latency_ns)");
  EXPECT_EQ(parseError(withDevice(
                R"({"device": "cuda:0", "peak_flops_per_ns": {"fp32": 1}})")),
            "t.json: error: $.devices[1].peak_flops_per_ns.fp32: unknown key "
            "(expected one of: bf16, f16, f32, f64, i1, i16, i32, i64, i8)");
}

TEST(TopologyFileErrors, MissingDevices) {
  EXPECT_EQ(parseError(R"({"version": 1})"),
            "t.json: error: $: missing key \"devices\"");
  EXPECT_EQ(parseError(R"({"version": 1, "devices": {}})"),
            "t.json: error: $.devices: expected an array, got an object");
  EXPECT_EQ(parseError(withDevice(R"({"name": "x"})")),
            "t.json: error: $.devices[1]: missing key \"device\"");
}

TEST(TopologyFileErrors, UnknownDeviceKind) {
  EXPECT_EQ(parseError(withDevice(R"({"device": "tpu:0"})")),
            "t.json: error: $.devices[1].device: unknown device kind 'tpu' in "
            "\"tpu:0\" (expected cpu, cuda:N or vulkan:N)");
  EXPECT_EQ(parseError(withDevice(R"({"device": "cuda"})")),
            "t.json: error: $.devices[1].device: malformed device \"cuda\" "
            "(expected cpu, cuda:N or vulkan:N)");
  EXPECT_EQ(parseError(withDevice(R"({"device": "cpu:1"})")),
            "t.json: error: $.devices[1].device: malformed device \"cpu:1\" "
            "(expected cpu, cuda:N or vulkan:N)");
  EXPECT_EQ(parseError(withDevice(R"({"device": 3})")),
            "t.json: error: $.devices[1].device: expected a string, got 3");
}

TEST(TopologyFileErrors, DuplicateDevice) {
  EXPECT_EQ(
      parseError(withDevice(R"({"device": "cuda:0"}, {"device": "cuda:0"})")),
      "t.json: error: $.devices[2].device: duplicate device 'cuda:0' "
      "(already declared at $.devices[1])");
}

TEST(TopologyFileErrors, NoCpu) {
  EXPECT_EQ(parseError(R"({"version": 1, "devices": [{"device": "cuda:0"}]})"),
            "t.json: error: $.devices: no 'cpu' device; expected exactly one "
            "host device \"cpu\"");
  EXPECT_EQ(parseError(R"({"version": 1, "devices": []})"),
            "t.json: error: $.devices: no 'cpu' device; expected exactly one "
            "host device \"cpu\"");
}

TEST(TopologyFileErrors, TwoCpus) {
  EXPECT_EQ(parseError(withDevice(R"({"device": "cpu"})")),
            "t.json: error: $.devices[1].device: a second 'cpu' device (the "
            "first is $.devices[0]); expected exactly one host");
}

TEST(TopologyFileErrors, CpuTypeContradictions) {
  EXPECT_EQ(
      parseError(
          R"({"version": 1, "devices": [{"device": "cpu", "cpu_type": false}]})"),
      "t.json: error: $.devices[0].cpu_type: the host 'cpu' is always "
      "CPU-type (expected true)");
  EXPECT_EQ(parseError(withDevice(R"({"device": "cuda:0", "cpu_type": true})")),
            "t.json: error: $.devices[1].cpu_type: a CUDA device is never "
            "CPU-type (expected false)");
  EXPECT_EQ(
      parseError(withDevice(R"({"device": "vulkan:0", "cpu_type": 1})")),
      "t.json: error: $.devices[1].cpu_type: expected true or false, got 1");
}

TEST(TopologyFileErrors, BadNumbers) {
  struct Case {
    const char *device;
    const char *message;
  } cases[] = {
      {R"({"device": "cuda:0", "peak_flops_per_ns": {"f32": -1}})",
       "$.devices[1].peak_flops_per_ns.f32: expected a positive, finite "
       "number, got -1"},
      {R"({"device": "cuda:0", "peak_flops_per_ns": {"f32": 0}})",
       "$.devices[1].peak_flops_per_ns.f32: expected a positive, finite "
       "number, got 0"},
      {R"({"device": "cuda:0", "peak_flops_per_ns": {"f32": "fast"}})",
       "$.devices[1].peak_flops_per_ns.f32: expected a positive, finite "
       "number, got \"fast\""},
      {R"({"device": "cuda:0", "peak_flops_per_ns": [1]})",
       "$.devices[1].peak_flops_per_ns: expected an object, got an array"},
      {R"({"device": "cuda:0", "bytes_per_ns": -0.5})",
       "$.devices[1].bytes_per_ns: expected a positive, finite number, got "
       "-0.5"},
      {R"({"device": "cuda:0", "bytes_per_ns": 1e999})",
       "$.devices[1].bytes_per_ns: expected a positive, finite number, got "
       "inf"},
      {R"({"device": "cuda:0", "dispatch_overhead_ns": -5})",
       "$.devices[1].dispatch_overhead_ns: expected a non-negative integer "
       "(ns), got -5"},
      {R"({"device": "cuda:0", "dispatch_overhead_ns": 1.5})",
       "$.devices[1].dispatch_overhead_ns: expected a non-negative integer "
       "(ns), got 1.5"},
      {R"({"device": "cuda:0", "memory_bytes": -1})",
       "$.devices[1].memory_bytes: expected a non-negative integer (bytes), "
       "got -1"},
      {R"({"device": "cuda:0", "alignment": 48})",
       "$.devices[1].alignment: expected a power of two (bytes), got 48"},
      {R"({"device": "cuda:0", "alignment": 0})",
       "$.devices[1].alignment: expected a power of two (bytes), got 0"},
      {R"({"device": "cuda:0", "name": 7})",
       "$.devices[1].name: expected a string, got 7"},
  };
  for (const Case &c : cases)
    EXPECT_EQ(parseError(withDevice(c.device)),
              std::string("t.json: error: ") + c.message)
        << c.device;

  EXPECT_EQ(
      parseError(withLink(
          R"({"from": "cpu", "to": "cuda:0", "path_class": "peer", "bandwidth_bytes_per_s": 0})")),
      "t.json: error: $.links[0].bandwidth_bytes_per_s: expected a "
      "positive integer (bytes per second), got 0");
  EXPECT_EQ(
      parseError(withLink(
          R"({"from": "cpu", "to": "cuda:0", "path_class": "peer", "latency_ns": -1})")),
      "t.json: error: $.links[0].latency_ns: expected a non-negative "
      "integer (ns), got -1");
}

TEST(TopologyFileErrors, LinkToUnknownDevice) {
  EXPECT_EQ(parseError(withLink(
                R"({"from": "cpu", "to": "cuda:1", "path_class": "peer"})")),
            "t.json: error: $.links[0].to: link to unknown device 'cuda:1' "
            "(the devices are cpu, cuda:0)");
  EXPECT_EQ(parseError(withLink(
                R"({"from": "vulkan:0", "to": "cpu", "path_class": "peer"})")),
            "t.json: error: $.links[0].from: link from unknown device "
            "'vulkan:0' (the devices are cpu, cuda:0)");
  EXPECT_EQ(parseError(withLink(
                R"({"from": "gpu", "to": "cpu", "path_class": "peer"})")),
            "t.json: error: $.links[0].from: unknown device kind 'gpu' in "
            "\"gpu\" (expected cpu, cuda:N or vulkan:N)");
  EXPECT_EQ(parseError(withLink(R"({"to": "cpu", "path_class": "peer"})")),
            "t.json: error: $.links[0]: missing key \"from\"");
}

TEST(TopologyFileErrors, UnknownPathClass) {
  EXPECT_EQ(parseError(withLink(
                R"({"from": "cpu", "to": "cuda:0", "path_class": "pcie"})")),
            "t.json: error: $.links[0].path_class: unknown path class 'pcie' "
            "(expected peer, shared-memory or device-copy)");
  EXPECT_EQ(parseError(withLink(R"({"from": "cpu", "to": "cuda:0"})")),
            "t.json: error: $.links[0]: missing key \"path_class\"");
}

TEST(TopologyFileErrors, SelfAndDuplicateLinks) {
  EXPECT_EQ(parseError(withLink(
                R"({"from": "cuda:0", "to": "cuda:0", "path_class": "peer"})")),
            "t.json: error: $.links[0]: a link from 'cuda:0' to itself "
            "(expected two distinct devices)");
  EXPECT_EQ(parseError(withLink(
                R"({"from": "cpu", "to": "cuda:0", "path_class": "peer"},
                                   {"from": "cpu", "to": "cuda:0", "path_class": "device-copy"})")),
            "t.json: error: $.links[1]: duplicate link 'cpu' -> 'cuda:0' "
            "(already declared at $.links[0])");
  EXPECT_EQ(
      parseError(
          R"({"version": 1, "devices": [{"device": "cpu"}], "links": {}})"),
      "t.json: error: $.links: expected an array, got an object");
}

TEST(TopologyFileErrors, UnreadableFile) {
  llvm::Expected<Topology> t = loadTopologyFile("/nonexistent/topo.json");
  ASSERT_FALSE(bool(t));
  std::string message = llvm::toString(t.takeError());
  EXPECT_EQ(message.rfind("/nonexistent/topo.json: error: cannot read "
                          "topology file: ",
                          0),
            0u)
      << message;
}

//===----------------------------------------------------------------------===//
// Printing and round trips
//===----------------------------------------------------------------------===//

TEST(TopologyFile, PrintIsStableAndExact) {
  Topology t = defaultTopology();
  EXPECT_EQ(printTopologyJSON(t), R"json({
  "version": 1,
  "devices": [
    {
      "device": "cpu",
      "name": "host (built-in default topology)",
      "cpu_type": true,
      "peak_flops_per_ns": {
        "f32": 32.0,
        "f64": 16.0
      },
      "bytes_per_ns": 20.0,
      "dispatch_overhead_ns": 2000,
      "memory_bytes": 17179869184,
      "alignment": 64
    }
  ],
  "links": []
}
)json");
}

TEST(TopologyFile, PrintParseRoundTrip) {
  Topology t = defaultTopology();
  plan::DeviceInfo gpu;
  gpu.device = Device::cuda(3);
  gpu.name = "odd \"quoted\" name\twith tab";
  gpu.peakFlopsPerNs = {{"f32", 0.1}, {"f16", 1.0 / 3.0}, {"bf16", 1e300}};
  gpu.bytesPerNs = 2.5e-7;
  gpu.dispatchOverheadNs = 123;
  gpu.memoryBytes = UINT64_MAX;
  gpu.alignment = 1;
  t.devices.push_back(gpu);
  plan::DeviceInfo lavapipe;
  lavapipe.device = Device::vulkan(0);
  lavapipe.cpuType = true;
  t.devices.push_back(lavapipe);
  t.links.push_back({Device::cuda(3), Device::cpu(), 1, 0, PathClass::Peer});
  t.links.push_back({Device::cpu(), Device::vulkan(0), INT64_MAX, INT64_MAX,
                     PathClass::SharedMemory});
  t.links.push_back({Device::cpu(), Device::cuda(3), 7'000'000'001, 5,
                     PathClass::DeviceCopy});

  std::string text = printTopologyJSON(t);
  llvm::Expected<Topology> back = parseTopology(text, "printed.json");
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError()) << "\n" << text;
  EXPECT_TRUE(topologiesEqual(*back, t)) << text;
  EXPECT_EQ(back->contentHash(), t.contentHash());
  // Printing is a fixed point.
  EXPECT_EQ(printTopologyJSON(*back), text);
}

TEST(TopologyFile, EqualityNoticesEveryField) {
  Topology a = defaultTopology();
  EXPECT_TRUE(topologiesEqual(a, defaultTopology()));
  Topology b = a;
  b.devices[0].name = "other";
  EXPECT_FALSE(topologiesEqual(a, b));
  b = a;
  b.devices[0].bytesPerNs.reset();
  EXPECT_FALSE(topologiesEqual(a, b));
  b = a;
  b.devices[0].alignment = 128;
  EXPECT_FALSE(topologiesEqual(a, b));
}

//===----------------------------------------------------------------------===//
// GPU limits
//===----------------------------------------------------------------------===//

/// A vulkan:0 device with `limits` as its limits object.
std::string withLimits(llvm::StringRef limits) {
  return withDevice(
      (R"({"device": "vulkan:0", "limits": )" + limits + "}").str());
}

TEST(TopologyFileLimits, ParsesEveryLimit) {
  llvm::Expected<Topology> t = parseTopology(
      withLimits(R"({"subgroup_size": 8, "shared_memory_bytes": 32768,
        "max_workgroup_invocations": 1024, "max_workgroup_size": [1024, 512, 64],
        "min_storage_buffer_offset_alignment": 16,
        "max_push_constants_bytes": 128, "timestamp_period_ns": 1.5})"),
      "t.json");
  ASSERT_TRUE(bool(t)) << llvm::toString(t.takeError());
  const plan::DeviceInfo *vk = t->find(Device::vulkan(0));
  ASSERT_TRUE(vk && vk->gpuLimits);
  const plan::GpuLimits &l = *vk->gpuLimits;
  EXPECT_EQ(l.subgroupSize, 8u);
  EXPECT_EQ(l.sharedMemoryBytes, 32768u);
  EXPECT_EQ(l.maxWorkgroupInvocations, 1024u);
  EXPECT_EQ(l.maxWorkgroupSize[0], 1024u);
  EXPECT_EQ(l.maxWorkgroupSize[1], 512u);
  EXPECT_EQ(l.maxWorkgroupSize[2], 64u);
  EXPECT_EQ(l.minStorageBufferOffsetAlignment, 16u);
  EXPECT_EQ(l.maxPushConstantsBytes, 128u);
  EXPECT_EQ(l.timestampPeriodNs, 1.5);
  // Absent limits: none; some limits: the rest unknown (0).
  llvm::Expected<Topology> none =
      parseTopology(withDevice(R"({"device": "vulkan:0"})"), "t.json");
  ASSERT_TRUE(bool(none));
  EXPECT_FALSE(none->find(Device::vulkan(0))->gpuLimits);
  llvm::Expected<Topology> some =
      parseTopology(withLimits(R"({"subgroup_size": 32})"), "t.json");
  ASSERT_TRUE(bool(some));
  plan::GpuLimits expected;
  expected.subgroupSize = 32;
  EXPECT_EQ(*some->find(Device::vulkan(0))->gpuLimits, expected);
}

TEST(TopologyFileLimits, Errors) {
  struct Case {
    std::string text;
    const char *message;
  } cases[] = {
      {withLimits(R"({"subgroup_size": 12})"),
       "$.devices[1].limits.subgroup_size: expected a power of two from 1 to "
       "128, got 12"},
      {withLimits(R"({"subgroup_size": 0})"),
       "$.devices[1].limits.subgroup_size: expected a power of two from 1 to "
       "128, got 0"},
      {withLimits(R"({"subgroup_size": 256})"),
       "$.devices[1].limits.subgroup_size: expected a power of two from 1 to "
       "128, got 256"},
      {withLimits(R"({"shared_memory_bytes": -1})"),
       "$.devices[1].limits.shared_memory_bytes: expected an integer from 1 "
       "to 1073741824, got -1"},
      {withLimits(R"({"max_workgroup_invocations": 100000})"),
       "$.devices[1].limits.max_workgroup_invocations: expected an integer "
       "from 1 to 65536, got 100000"},
      {withLimits(R"({"max_workgroup_size": [1, 2]})"),
       "$.devices[1].limits.max_workgroup_size: expected three sizes [x, y, "
       "z], got 2"},
      {withLimits(R"({"max_workgroup_size": [64, 0, 1]})"),
       "$.devices[1].limits.max_workgroup_size[1]: expected an integer from "
       "1 to 65536, got 0"},
      {withLimits(R"({"max_workgroup_size": 64})"),
       "$.devices[1].limits.max_workgroup_size: expected an array, got 64"},
      {withLimits(R"({"min_storage_buffer_offset_alignment": 24})"),
       "$.devices[1].limits.min_storage_buffer_offset_alignment: expected a "
       "power of two from 1 to 256, got 24"},
      {withLimits(R"({"max_push_constants_bytes": 130})"),
       "$.devices[1].limits.max_push_constants_bytes: expected an integer "
       "from 1 to 65536, a multiple of 4, got 130"},
      {withLimits(R"({"timestamp_period_ns": 0})"),
       "$.devices[1].limits.timestamp_period_ns: expected a positive number "
       "of ns up to 1e9, got 0"},
      {withLimits(R"({"max_workgroup_invocations": 256,
                      "max_workgroup_size": [1024, 1, 1]})"),
       "$.devices[1].limits: expected consistent limits, got "
       "max_workgroup_size[0] 1024 is more than max_workgroup_invocations "
       "256"},
      {withLimits(R"({"subgroupsize": 8})"),
       "$.devices[1].limits.subgroupsize: unknown key (expected one of: "
       "subgroup_size, shared_memory_bytes, max_workgroup_invocations, "
       "max_workgroup_size, min_storage_buffer_offset_alignment, "
       "max_push_constants_bytes, timestamp_period_ns)"},
      {withLimits("[8]"),
       "$.devices[1].limits: expected an object, got an array"},
      {R"({"version": 1, "devices": [{"device": "cpu", "limits": {}}]})",
       "$.devices[0].limits: the host 'cpu' has no GPU limits (only cuda:N "
       "and vulkan:N devices have \"limits\")"},
  };
  for (const Case &c : cases)
    EXPECT_EQ(parseError(c.text), std::string("t.json: error: ") + c.message)
        << c.text;
}

TEST(TopologyFileLimits, RoundTripAndHash) {
  Topology t = defaultTopology();
  plan::DeviceInfo vk;
  vk.device = Device::vulkan(0);
  vk.cpuType = true;
  t.devices.push_back(vk);
  uint64_t without = t.contentHash();
  std::string canonicalWithout = t.canonicalText();
  EXPECT_EQ(canonicalWithout.find("limits"), std::string::npos);

  plan::GpuLimits l;
  l.subgroupSize = 8;
  l.sharedMemoryBytes = 32768;
  l.maxWorkgroupInvocations = 1024;
  l.maxWorkgroupSize[0] = l.maxWorkgroupSize[1] = l.maxWorkgroupSize[2] = 1024;
  l.minStorageBufferOffsetAlignment = 16;
  l.maxPushConstantsBytes = 128;
  l.timestampPeriodNs = 0.1;
  t.devices[1].gpuLimits = l;
  EXPECT_NE(t.contentHash(), without);
  std::string text = printTopologyJSON(t);
  EXPECT_NE(text.find("\"limits\": {"), std::string::npos) << text;
  llvm::Expected<Topology> back = parseTopology(text, "printed.json");
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError()) << "\n" << text;
  EXPECT_TRUE(topologiesEqual(*back, t)) << text;
  EXPECT_EQ(back->contentHash(), t.contentHash());
  EXPECT_EQ(printTopologyJSON(*back), text);

  // Each limit is in the hash.
  auto hashWith = [&](auto change) {
    Topology u = t;
    change(*u.devices[1].gpuLimits);
    return u.contentHash();
  };
  uint64_t with = t.contentHash();
  EXPECT_NE(hashWith([](plan::GpuLimits &g) { g.subgroupSize = 16; }), with);
  EXPECT_NE(hashWith([](plan::GpuLimits &g) { g.sharedMemoryBytes = 1; }),
            with);
  EXPECT_NE(
      hashWith([](plan::GpuLimits &g) { g.maxWorkgroupInvocations = 512; }),
      with);
  EXPECT_NE(hashWith([](plan::GpuLimits &g) { g.maxWorkgroupSize[2] = 64; }),
            with);
  EXPECT_NE(hashWith([](plan::GpuLimits &g) {
              g.minStorageBufferOffsetAlignment = 256;
            }),
            with);
  EXPECT_NE(hashWith([](plan::GpuLimits &g) { g.maxPushConstantsBytes = 256; }),
            with);
  EXPECT_NE(hashWith([](plan::GpuLimits &g) { g.timestampPeriodNs = 0.2; }),
            with);
  // Equality notices limits.
  Topology u = t;
  u.devices[1].gpuLimits->subgroupSize = 4;
  EXPECT_FALSE(topologiesEqual(t, u));
  u.devices[1].gpuLimits.reset();
  EXPECT_FALSE(topologiesEqual(t, u));
  // validate() rejects limits on the host.
  u = t;
  u.devices[0].gpuLimits = l;
  EXPECT_EQ(u.validate(), "device 'cpu' has GPU limits; only GPU devices "
                          "(cuda:N, vulkan:N) have them");
}

TEST(TopologyFileLimits, ValidateRules) {
  plan::GpuLimits l;
  EXPECT_EQ(plan::validateGpuLimits(l), "");
  l.maxWorkgroupSize[0] = 8;
  EXPECT_EQ(plan::validateGpuLimits(l),
            "max_workgroup_size has an unknown (0) dimension; give all three "
            "or none");
  l = {};
  l.minStorageBufferOffsetAlignment = 512;
  EXPECT_EQ(plan::validateGpuLimits(l),
            "min_storage_buffer_offset_alignment 512 is not a power of two up "
            "to 256");
  l = {};
  l.timestampPeriodNs = -1;
  EXPECT_NE(plan::validateGpuLimits(l), "");
}

// The lavapipe topology states the limits the probe reports for lavapipe.
TEST(TopologyFileLimits, LavapipeFile) {
  std::string dir = std::string(FUEL_SOURCE_DIR) + "/test/topologies/";
  llvm::Expected<Topology> t = loadTopologyFile(dir + "cpu-lavapipe.json");
  ASSERT_TRUE(bool(t)) << llvm::toString(t.takeError());
  const plan::DeviceInfo *vk = t->find(Device::vulkan(0));
  ASSERT_TRUE(vk && vk->gpuLimits);
  EXPECT_EQ(vk->gpuLimits->subgroupSize, 8u);
  EXPECT_EQ(vk->gpuLimits->sharedMemoryBytes, 32768u);
  EXPECT_EQ(vk->gpuLimits->minStorageBufferOffsetAlignment, 16u);
  EXPECT_EQ(vk->gpuLimits->maxPushConstantsBytes, 128u);
  EXPECT_FALSE(t->find(Device::cpu())->gpuLimits);
}

//===----------------------------------------------------------------------===//
// CUDA compute capability
//===----------------------------------------------------------------------===//

TEST(TopologyFileComputeCapability, Parses) {
  llvm::Expected<Topology> t = parseTopology(
      withDevice(R"({"device": "cuda:0", "compute_capability": "8.6"})"),
      "t.json");
  ASSERT_TRUE(bool(t)) << llvm::toString(t.takeError());
  const plan::DeviceInfo *gpu = t->find(Device::cuda(0));
  ASSERT_TRUE(gpu && gpu->computeCapability);
  EXPECT_EQ(gpu->computeCapability->major, 8u);
  EXPECT_EQ(gpu->computeCapability->minor, 6u);
  EXPECT_EQ(gpu->computeCapability->str(), "8.6");
  EXPECT_EQ(gpu->computeCapability->chip(), "sm_86");
  llvm::Expected<Topology> none =
      parseTopology(withDevice(R"({"device": "cuda:0"})"), "t.json");
  ASSERT_TRUE(bool(none));
  EXPECT_FALSE(none->find(Device::cuda(0))->computeCapability);
  EXPECT_EQ(plan::kDefaultComputeCapability.chip(), "sm_90");
  EXPECT_EQ(plan::parseComputeCapability("10.0")->chip(), "sm_100");
}

TEST(TopologyFileComputeCapability, Errors) {
  const char *expectation =
      "expected a compute capability \"major.minor\" from \"3.0\" to "
      "\"99.9\" (e.g. \"9.0\"), got ";
  struct Case {
    const char *value;
    const char *got;
  };
  const Case cases[] = {{"8.6", "8.6"},           {"\"9\"", "\"9\""},
                        {"\"9.10\"", "\"9.10\""}, {"\"2.1\"", "\"2.1\""},
                        {"\"09.0\"", "\"09.0\""}, {"\"\"", "\"\""},
                        {"\"x.0\"", "\"x.0\""},   {"\"100.0\"", "\"100.0\""}};
  for (const Case &c : cases) {
    std::string text = withDevice(
        std::string(R"({"device": "cuda:0", "compute_capability": )") +
        c.value + "}");
    EXPECT_EQ(parseError(text),
              std::string("t.json: error: $.devices[1].compute_capability: ") +
                  expectation + c.got)
        << text;
  }
  EXPECT_EQ(parseError(withDevice(
                R"({"device": "vulkan:0", "compute_capability": "9.0"})")),
            "t.json: error: $.devices[1].compute_capability: only CUDA "
            "devices (cuda:N) have a compute_capability");
  EXPECT_EQ(parseError(R"({"version": 1, "devices": [{"device": "cpu", )"
                       R"("compute_capability": "9.0"}]})"),
            "t.json: error: $.devices[0].compute_capability: only CUDA "
            "devices (cuda:N) have a compute_capability");
}

TEST(TopologyFileComputeCapability, RoundTripAndHash) {
  Topology t = defaultTopology();
  plan::DeviceInfo gpu;
  gpu.device = Device::cuda(0);
  t.devices.push_back(gpu);
  uint64_t without = t.contentHash();
  EXPECT_EQ(t.canonicalText().find("cc="), std::string::npos);
  t.devices[1].computeCapability = plan::ComputeCapability{8, 0};
  uint64_t with = t.contentHash();
  EXPECT_NE(with, without);
  std::string text = printTopologyJSON(t);
  EXPECT_NE(text.find("\"compute_capability\": \"8.0\""), std::string::npos)
      << text;
  llvm::Expected<Topology> back = parseTopology(text, "printed.json");
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError()) << "\n" << text;
  EXPECT_TRUE(topologiesEqual(*back, t)) << text;
  EXPECT_EQ(back->contentHash(), with);
  Topology u = t;
  u.devices[1].computeCapability = plan::ComputeCapability{9, 0};
  EXPECT_NE(u.contentHash(), with);
  EXPECT_FALSE(topologiesEqual(t, u));
  // validate() rejects a compute capability off a CUDA device.
  u = t;
  u.devices[0].computeCapability = plan::ComputeCapability{9, 0};
  EXPECT_EQ(u.validate(), "device 'cpu' has a compute_capability; only CUDA "
                          "devices (cuda:N) have one");
}

// The driver version: read, printed, hashed only when present, and part of
// equality (docs/TOPOLOGY.md, "Device identity").
TEST(TopologyFileDriver, RoundTripAndHash) {
  llvm::Expected<Topology> parsed =
      parseTopology(withDevice(R"({"device": "vulkan:0", "name": "llvmpipe", )"
                               R"("driver": "vulkan 22.3.6"})"),
                    "t.json");
  ASSERT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  const plan::DeviceInfo *vk = parsed->find(Device::vulkan(0));
  ASSERT_TRUE(vk);
  EXPECT_EQ(vk->driver, "vulkan 22.3.6");
  EXPECT_EQ(vk->name, "llvmpipe");

  Topology t = *parsed;
  uint64_t with = t.contentHash();
  std::string text = printTopologyJSON(t);
  EXPECT_NE(text.find("\"driver\": \"vulkan 22.3.6\""), std::string::npos)
      << text;
  llvm::Expected<Topology> back = parseTopology(text, "printed.json");
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  EXPECT_TRUE(topologiesEqual(*back, t));
  EXPECT_EQ(back->contentHash(), with);

  Topology other = t;
  other.devices[1].driver = "vulkan 23.0.0";
  EXPECT_NE(other.contentHash(), with);
  EXPECT_FALSE(topologiesEqual(other, t));
  // Without a driver the text has no trace of it: old files keep their
  // hashes.
  other.devices[1].driver.clear();
  EXPECT_EQ(other.canonicalText().find("driver="), std::string::npos);
  EXPECT_EQ(printTopologyJSON(other).find("\"driver\""), std::string::npos);

  EXPECT_EQ(parseError(withDevice(R"({"device": "vulkan:0", "driver": 3})")),
            "t.json: error: $.devices[1].driver: expected a string, got 3");
}

// The H100-class topology states the chip and CUDA's limits.
TEST(TopologyFileComputeCapability, CudaFile) {
  std::string dir = std::string(FUEL_SOURCE_DIR) + "/test/topologies/";
  llvm::Expected<Topology> t = loadTopologyFile(dir + "cpu-cuda.json");
  ASSERT_TRUE(bool(t)) << llvm::toString(t.takeError());
  const plan::DeviceInfo *gpu = t->find(Device::cuda(0));
  ASSERT_TRUE(gpu && gpu->computeCapability && gpu->gpuLimits);
  EXPECT_EQ(gpu->computeCapability->chip(), "sm_90");
  EXPECT_EQ(gpu->gpuLimits->subgroupSize, 32u);
  EXPECT_EQ(gpu->gpuLimits->sharedMemoryBytes, 49152u);
  EXPECT_EQ(gpu->gpuLimits->maxWorkgroupInvocations, 1024u);
  llvm::Expected<Topology> a100 = loadTopologyFile(dir + "cpu-cuda-sm80.json");
  ASSERT_TRUE(bool(a100)) << llvm::toString(a100.takeError());
  EXPECT_EQ(a100->find(Device::cuda(0))->computeCapability->chip(), "sm_80");
}

//===----------------------------------------------------------------------===//
// Example files and the default topology
//===----------------------------------------------------------------------===//

class ExampleTopology : public ::testing::TestWithParam<const char *> {};

TEST_P(ExampleTopology, ParsesAndRoundTrips) {
  std::string path =
      std::string(FUEL_SOURCE_DIR) + "/test/topologies/" + GetParam();
  llvm::Expected<Topology> t = loadTopologyFile(path);
  ASSERT_TRUE(bool(t)) << llvm::toString(t.takeError());
  EXPECT_EQ(t->validate(), "");
  ASSERT_NE(t->find(Device::cpu()), nullptr);
  llvm::Expected<Topology> back = parseTopology(printTopologyJSON(*t), "p");
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  EXPECT_TRUE(topologiesEqual(*t, *back));
}

INSTANTIATE_TEST_SUITE_P(
    Files, ExampleTopology,
    ::testing::Values("cpu-only.json", "cpu-cuda.json", "cpu-2cuda-peer.json",
                      "cpu-cuda-vulkan.json", "cpu-lavapipe.json",
                      "cpu-2cuda.json", "worked-example.json",
                      "cpu-cuda-no-rates.json", "cpu-cuda-sm80.json"));

TEST(TopologyFile, ExampleContents) {
  std::string dir = std::string(FUEL_SOURCE_DIR) + "/test/topologies/";
  llvm::Expected<Topology> only = loadTopologyFile(dir + "cpu-only.json");
  ASSERT_TRUE(bool(only));
  EXPECT_EQ(only->devices.size(), 1u);
  EXPECT_TRUE(only->links.empty());

  llvm::Expected<Topology> one = loadTopologyFile(dir + "cpu-cuda.json");
  ASSERT_TRUE(bool(one));
  ASSERT_NE(one->findLink(Device::cpu(), Device::cuda(0)), nullptr);
  EXPECT_EQ(one->findLink(Device::cpu(), Device::cuda(0))->pathClass,
            PathClass::DeviceCopy);

  llvm::Expected<Topology> two = loadTopologyFile(dir + "cpu-2cuda-peer.json");
  ASSERT_TRUE(bool(two));
  ASSERT_NE(two->findLink(Device::cuda(0), Device::cuda(1)), nullptr);
  EXPECT_EQ(two->findLink(Device::cuda(0), Device::cuda(1))->pathClass,
            PathClass::Peer);
  EXPECT_NE(two->findLink(Device::cuda(1), Device::cuda(0)), nullptr);

  llvm::Expected<Topology> mixed =
      loadTopologyFile(dir + "cpu-cuda-vulkan.json");
  ASSERT_TRUE(bool(mixed));
  EXPECT_NE(mixed->find(Device::cuda(0)), nullptr);
  EXPECT_NE(mixed->find(Device::vulkan(0)), nullptr);

  llvm::Expected<Topology> lavapipe =
      loadTopologyFile(dir + "cpu-lavapipe.json");
  ASSERT_TRUE(bool(lavapipe));
  EXPECT_TRUE(lavapipe->find(Device::vulkan(0))->cpuType);
  EXPECT_EQ(lavapipe->findLink(Device::cpu(), Device::vulkan(0))->pathClass,
            PathClass::SharedMemory);
}

TEST(TopologyFile, DefaultTopologyIsFixed) {
  Topology t = defaultTopology();
  EXPECT_EQ(t.validate(), "");
  ASSERT_EQ(t.devices.size(), 1u);
  EXPECT_EQ(t.devices[0].device, Device::cpu());
  EXPECT_TRUE(t.devices[0].cpuType);
  EXPECT_TRUE(t.links.empty());
  // Never probed: every call gives the same topology and content hash.
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(topologiesEqual(defaultTopology(), t));
    EXPECT_EQ(defaultTopology().contentHash(), t.contentHash());
  }
}

TEST(TopologyFile, ResolveTopology) {
  llvm::Expected<Topology> none = resolveTopology("");
  ASSERT_TRUE(bool(none));
  EXPECT_TRUE(topologiesEqual(*none, defaultTopology()));

  std::string path =
      std::string(FUEL_SOURCE_DIR) + "/test/topologies/cpu-cuda.json";
  llvm::Expected<Topology> file = resolveTopology(path);
  ASSERT_TRUE(bool(file)) << llvm::toString(file.takeError());
  EXPECT_NE(file->find(Device::cuda(0)), nullptr);

  llvm::Expected<Topology> missing = resolveTopology("no-such-topology.json");
  ASSERT_FALSE(bool(missing));
  llvm::consumeError(missing.takeError());
}

} // namespace
