//===- TopologyTest.cpp - Topology validation, canonical text, hash -------===//
//
// lib/Planner/Topology.cpp: every structural rule's message, the canonical
// text (SEMANTICS §1: the input of the content hash), and the hash's
// independence from input order and from the descriptive name.
//
//===----------------------------------------------------------------------===//

#include "fuel/Planner/Topology.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace fuel::plan;

namespace {

Topology twoDevices() {
  Topology t;
  DeviceInfo cpu;
  cpu.device = Device::cpu();
  cpu.name = "Host CPU";
  cpu.cpuType = true;
  cpu.peakFlopsPerNs["f32"] = 100.0;
  cpu.bytesPerNs = 20.0;
  cpu.dispatchOverheadNs = 1000;
  DeviceInfo gpu;
  gpu.device = Device::cuda(0);
  gpu.name = "A GPU";
  gpu.peakFlopsPerNs["f32"] = 1000.0;
  gpu.peakFlopsPerNs["f16"] = 2000.0;
  gpu.dispatchOverheadNs = 5000;
  gpu.memoryBytes = 80'000'000'000;
  gpu.alignment = 256;
  t.devices = {cpu, gpu};
  t.links = {{Device::cpu(), Device::cuda(0), 10'000'000'000, 10'000,
              PathClass::DeviceCopy},
             {Device::cuda(0), Device::cpu(), 10'000'000'000, 10'000,
              PathClass::DeviceCopy}};
  return t;
}

TEST(TopologyTest, PathClasses) {
  for (PathClass c :
       {PathClass::Peer, PathClass::SharedMemory, PathClass::DeviceCopy})
    EXPECT_EQ(symbolizePathClass(stringifyPathClass(c)), c);
  EXPECT_EQ(symbolizePathClass("pcie"), std::nullopt);
  EXPECT_EQ(pathClassDefaults(PathClass::Peer).bandwidthBytesPerSec,
            12'000'000'000);
  EXPECT_EQ(pathClassDefaults(PathClass::Peer).latencyNs, 15'000);
  EXPECT_EQ(pathClassDefaults(PathClass::SharedMemory).bandwidthBytesPerSec,
            20'000'000'000);
  EXPECT_EQ(pathClassDefaults(PathClass::SharedMemory).latencyNs, 2'000);
  EXPECT_EQ(pathClassDefaults(PathClass::DeviceCopy).bandwidthBytesPerSec,
            8'000'000'000);
  EXPECT_EQ(pathClassDefaults(PathClass::DeviceCopy).latencyNs, 30'000);
}

TEST(TopologyTest, ValidTopology) {
  Topology t = twoDevices();
  EXPECT_EQ(t.validate(), "");
  ASSERT_NE(t.find(Device::cuda(0)), nullptr);
  EXPECT_EQ(t.find(Device::cuda(0))->name, "A GPU");
  EXPECT_EQ(t.find(Device::vulkan(0)), nullptr);
  ASSERT_NE(t.findLink(Device::cpu(), Device::cuda(0)), nullptr);
  EXPECT_EQ(t.findLink(Device::cpu(), Device::vulkan(0)), nullptr);
}

TEST(TopologyTest, ValidationMessages) {
  Topology t = twoDevices();
  t.devices.erase(t.devices.begin());
  t.links.clear();
  EXPECT_EQ(t.validate(),
            "a topology needs exactly one 'cpu' device (the host), found 0");

  t = twoDevices();
  t.devices.push_back(t.devices[1]);
  EXPECT_EQ(t.validate(), "duplicate device 'cuda:0'");

  t = twoDevices();
  t.devices[1].peakFlopsPerNs["f32"] = -1.0;
  EXPECT_EQ(t.validate(), "device 'cuda:0' has an invalid peak rate for f32 "
                          "(expected a finite, non-negative flop/ns figure)");
  t.devices[1].peakFlopsPerNs["f32"] = std::nan("");
  EXPECT_NE(t.validate().find("invalid peak rate"), std::string::npos);

  t = twoDevices();
  t.devices[0].bytesPerNs = HUGE_VAL;
  EXPECT_EQ(t.validate(), "device 'cpu' has an invalid bandwidth (expected a "
                          "finite, non-negative B/ns figure)");

  t = twoDevices();
  t.devices[0].dispatchOverheadNs = -1;
  EXPECT_EQ(t.validate(), "device 'cpu' has a negative dispatch overhead");

  t = twoDevices();
  t.devices[1].alignment = 48;
  EXPECT_EQ(t.validate(),
            "device 'cuda:0' has an alignment that is not a power of two");
  t.devices[1].alignment = 0;
  EXPECT_NE(t.validate().find("power of two"), std::string::npos);

  t = twoDevices();
  t.links[0].to = Device::vulkan(0);
  EXPECT_EQ(t.validate(), "link to unknown device 'vulkan:0'");
  t = twoDevices();
  t.links[0].from = Device::cuda(1);
  EXPECT_EQ(t.validate(), "link from unknown device 'cuda:1'");
  t = twoDevices();
  t.links[0].to = Device::cpu();
  EXPECT_EQ(t.validate(), "link from 'cpu' to itself");
  t = twoDevices();
  t.links.push_back(t.links[0]);
  EXPECT_EQ(t.validate(), "duplicate link 'cpu' -> 'cuda:0'");
  t = twoDevices();
  t.links[1].bandwidthBytesPerSec = 0;
  EXPECT_EQ(t.validate(), "link 'cuda:0' -> 'cpu' needs a positive bandwidth");
  t = twoDevices();
  t.links[1].latencyNs = -5;
  EXPECT_EQ(t.validate(), "link 'cuda:0' -> 'cpu' has a negative latency");

  t = twoDevices();
  DeviceInfo second;
  second.device = Device::cpu();
  t.devices.push_back(second);
  EXPECT_EQ(t.validate(), "duplicate device 'cpu'");
}

TEST(TopologyTest, CanonicalTextIsStable) {
  // Pinned byte for byte: the content hash of every stamped module depends
  // on it.
  EXPECT_EQ(twoDevices().canonicalText(),
            "fuel-topology-v1\n"
            "device cpu cpu-type peak.f32=0x1.9p+6 bw=0x1.4p+4 dispatch=1000 "
            "memory=0 align=64\n"
            "device cuda:0 accel peak.f16=0x1.f4p+10 peak.f32=0x1.f4p+9 "
            "dispatch=5000 memory=80000000000 align=256\n"
            "link cpu cuda:0 10000000000 10000 device-copy\n"
            "link cuda:0 cpu 10000000000 10000 device-copy\n");
}

TEST(TopologyTest, HashIgnoresOrderAndName) {
  Topology a = twoDevices();
  Topology b = twoDevices();
  std::swap(b.devices[0], b.devices[1]);
  std::swap(b.links[0], b.links[1]);
  EXPECT_EQ(a.canonicalText(), b.canonicalText());
  EXPECT_EQ(a.contentHash(), b.contentHash());
  b.canonicalize();
  EXPECT_EQ(b.devices[0].device, Device::cpu());
  EXPECT_EQ(b.links[0].from, Device::cpu());

  Topology renamed = twoDevices();
  renamed.devices[0].name = "something else entirely";
  EXPECT_EQ(renamed.contentHash(), a.contentHash());

  // Any deciding figure changes the hash.
  Topology changed = twoDevices();
  changed.devices[1].dispatchOverheadNs = 5001;
  EXPECT_NE(changed.contentHash(), a.contentHash());
  changed = twoDevices();
  changed.devices[0].peakFlopsPerNs["f32"] = std::nextafter(100.0, 200.0);
  EXPECT_NE(changed.contentHash(), a.contentHash());
  changed = twoDevices();
  changed.links[0].pathClass = PathClass::Peer;
  EXPECT_NE(changed.contentHash(), a.contentHash());
  changed = twoDevices();
  changed.devices[1].cpuType = true;
  EXPECT_NE(changed.contentHash(), a.contentHash());
}

// The host's cpu_target: in the canonical text (and hash) only when present,
// checked for syntax, and only on the host.
TEST(TopologyTest, CpuTarget) {
  Topology plain = twoDevices();
  Topology named = twoDevices();
  named.devices[0].cpuTarget = CpuTarget{"x86-64-v3", ""};
  Topology featured = twoDevices();
  featured.devices[0].cpuTarget = CpuTarget{"x86-64-v3", "+avx2,-avx512f"};
  EXPECT_EQ(named.validate(), "");
  EXPECT_EQ(featured.validate(), "");
  EXPECT_EQ(plain.canonicalText().find("cpu_target"), std::string::npos);
  EXPECT_NE(named.canonicalText().find(" cpu_target=x86-64-v3;\n"),
            std::string::npos);
  EXPECT_NE(plain.contentHash(), named.contentHash());
  EXPECT_NE(named.contentHash(), featured.contentHash());

  Topology bad = twoDevices();
  bad.devices[1].cpuTarget = CpuTarget{"sm_90", ""};
  EXPECT_EQ(bad.validate(),
            "device 'cuda:0' has a cpu_target; only the host 'cpu' has one");
  EXPECT_EQ(validateCpuTarget({"", ""}),
            "an empty CPU name (expected an LLVM CPU name such as "
            "\"x86-64-v3\" or \"znver3\")");
  EXPECT_NE(validateCpuTarget({"znver3", "avx2"}), "");
  EXPECT_NE(validateCpuTarget({"znver3", "+avx2,"}), "");
  EXPECT_NE(validateCpuTarget({"znver3", "+AVX2"}), "");
  EXPECT_NE(validateCpuTarget({"zn ver3", ""}), "");
  EXPECT_EQ(validateCpuTarget({"znver3", "+sse4.2,+avx512vl,-fma"}), "");
}

TEST(TopologyTest, FormatHash) {
  // Always sixteen digits, so hashes line up and compare as text.
  EXPECT_EQ(formatHash(0), "0x0000000000000000");
  EXPECT_EQ(formatHash(0xc0ffee), "0x0000000000c0ffee");
  EXPECT_EQ(formatHash(~uint64_t(0)), "0xffffffffffffffff");
}

} // namespace
