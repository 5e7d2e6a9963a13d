//===- TransferTest.cpp - Paths, hops and copy sets -----------------------===//
//
// lib/Planner/Transfer.cpp: SEMANTICS §5's hop cost with the worked
// example's figures, the exact 128-bit rounding of §2, directed links, the
// path-class defaults for links the topology does not describe, and copy
// sets staged through the host with the host hop made once.
//
//===----------------------------------------------------------------------===//

#include "fuel/Planner/Transfer.h"
#include "fuel/Planner/Numbers.h"

#include "fuel/Planner/Testing/RandomPlacement.h"

#include "gtest/gtest.h"

using namespace fuel::plan;
using fuel::plan::testing::makeLink;

namespace {

DeviceInfo info(Device d, bool cpuType = false) {
  DeviceInfo i;
  i.device = d;
  i.cpuType = cpuType || d.isHost();
  return i;
}

/// cpu, cuda:0, cuda:1, vulkan:0 (a CPU-type device), vulkan:1 (a GPU); the
/// §5 example's link between cpu and cuda:0 both ways, nothing else.
Topology machine() {
  Topology t;
  t.devices = {info(Device::cpu()), info(Device::cuda(0)),
               info(Device::cuda(1)), info(Device::vulkan(0), true),
               info(Device::vulkan(1))};
  t.links = {makeLink(Device::cpu(), Device::cuda(0), 10'000'000'000, 10'000),
             makeLink(Device::cuda(0), Device::cpu(), 10'000'000'000, 10'000)};
  t.canonicalize();
  return t;
}

const Device cpu = Device::cpu(), cuda0 = Device::cuda(0),
             cuda1 = Device::cuda(1), vk0 = Device::vulkan(0),
             vk1 = Device::vulkan(1);

TEST(TransferTest, WorkedExampleHop) {
  TransferModel tm(machine());
  // SEMANTICS §5: 10 GB/s + 10 us, 4,000,000 bytes -> 410,000 ns per hop.
  EXPECT_EQ(tm.hopNs(cpu, cuda0, 4'000'000), 410'000);
  EXPECT_EQ(tm.hopNs(cuda0, cpu, 4'000'000), 410'000);
  EXPECT_EQ(tm.hopNs(cpu, cpu, 4'000'000), 0);
  EXPECT_EQ(tm.hopNs(cpu, cuda0, 0), 10'000);
  std::optional<PathFigures> p = tm.directPath(cpu, cuda0);
  ASSERT_TRUE(p);
  EXPECT_TRUE(p->described);
  EXPECT_EQ(p->bandwidthBytesPerSec, 10'000'000'000);
}

TEST(TransferTest, ExactRounding) {
  // ceil(bytes * 10^9 / bandwidth) in 128 bits (SEMANTICS §2).
  EXPECT_EQ(hopNs(1, 3'000'000'000, 0), 1);
  EXPECT_EQ(hopNs(3, 3'000'000'000, 0), 1);
  EXPECT_EQ(hopNs(4, 3'000'000'000, 5), 7);
  // bytes * 10^9 overflows 64 bits but the quotient fits.
  EXPECT_EQ(hopNs(uint64_t(1) << 40, 3'000'000'000, 0), 366'503'875'926);
  EXPECT_EQ(hopNs((uint64_t(1) << 40) + 1, 7'000'000'003, 0), 157'073'089'616);
  EXPECT_EQ(hopNs(12'345'678'901, 3'000'000'007, 0), 4'115'226'291);
  // Saturation at INT64_MAX, including latency on top of a huge term.
  EXPECT_EQ(hopNs(UINT64_MAX, 1, 0), kMaxNs);
  EXPECT_EQ(hopNs(uint64_t(9'223'372'036), 1'000'000'000, kMaxNs - 5), kMaxNs);
}

TEST(TransferTest, ClassDefaults) {
  TransferModel tm(machine());
  // Host <-> plain device without a link: device copy, 8 GB/s + 30 us.
  std::optional<PathFigures> dc = tm.directPath(cpu, cuda1);
  ASSERT_TRUE(dc);
  EXPECT_FALSE(dc->described);
  EXPECT_EQ(dc->pathClass, PathClass::DeviceCopy);
  EXPECT_EQ(tm.hopNs(cpu, cuda1, 4'000'000), 30'000 + 500'000);
  EXPECT_EQ(tm.hopNs(cuda1, cpu, 4'000'000), 30'000 + 500'000);
  EXPECT_EQ(tm.hopNs(vk1, cpu, 4'000'000), 30'000 + 500'000);
  // A CPU-type Vulkan device reaches the host through shared memory,
  // 20 GB/s + 2 us.
  std::optional<PathFigures> sm = tm.directPath(vk0, cpu);
  ASSERT_TRUE(sm);
  EXPECT_EQ(sm->pathClass, PathClass::SharedMemory);
  EXPECT_EQ(tm.hopNs(cpu, vk0, 4'000'000), 2'000 + 200'000);
  // Two non-host devices without a link: no direct path; staged.
  EXPECT_FALSE(tm.hasDirectPath(cuda0, cuda1));
  EXPECT_FALSE(tm.hasDirectPath(vk0, vk1));
  EXPECT_EQ(tm.hopNs(cuda0, cuda1, 4'000'000), kMaxNs);
  EXPECT_EQ(tm.pathNs(cuda0, cuda1, 4'000'000), 410'000 + 530'000);
  EXPECT_EQ(tm.pathNs(cuda0, cuda0, 4'000'000), 0);
  EXPECT_FALSE(tm.hasDirectPath(cpu, cpu));
}

TEST(TransferTest, DirectedLinks) {
  Topology t = machine();
  // A peer link one way only, and a slower way back to the host.
  t.links = {makeLink(cpu, cuda0, 10'000'000'000, 10'000),
             makeLink(cuda0, cpu, 5'000'000'000, 20'000),
             makeLink(cuda0, cuda1, 12'000'000'000, 15'000, PathClass::Peer)};
  t.canonicalize();
  TransferModel tm(t);
  EXPECT_EQ(tm.hopNs(cpu, cuda0, 4'000'000), 410'000);
  EXPECT_EQ(tm.hopNs(cuda0, cpu, 4'000'000), 820'000);
  EXPECT_TRUE(tm.hasDirectPath(cuda0, cuda1));
  EXPECT_FALSE(tm.hasDirectPath(cuda1, cuda0));
  EXPECT_EQ(tm.hopNs(cuda0, cuda1, 4'000'000), 15'000 + 333'334);
  // cuda:1 -> cuda:0 is staged: default device copy out, described link in.
  EXPECT_EQ(tm.pathNs(cuda1, cuda0, 4'000'000), 530'000 + 410'000);
}

TEST(TransferTest, DescribedLinkWithoutFiguresTakesClassDefaults) {
  Topology t = machine();
  t.links.push_back(makeLink(cuda0, cuda1, 0, -1, PathClass::Peer));
  t.canonicalize();
  TransferModel tm(t);
  std::optional<PathFigures> p = tm.directPath(cuda0, cuda1);
  ASSERT_TRUE(p);
  EXPECT_TRUE(p->described);
  EXPECT_EQ(p->bandwidthBytesPerSec, 12'000'000'000);
  EXPECT_EQ(p->latencyNs, 15'000);
}

TEST(TransferTest, CopySetSharesTheHostHop) {
  TransferModel tm(machine());
  // From cuda:0 to cuda:1 and vulkan:1 (no links: staged) and to the host:
  // cuda:0 -> cpu once, then cpu -> each device, in device order.
  CopySet s = tm.copySet(cuda0, {vk1, cpu, cuda1, cuda1, cuda0}, 4'000'000);
  ASSERT_EQ(s.hops.size(), 3u);
  EXPECT_EQ(s.hops[0], (Hop{cuda0, cpu, 410'000, true}));
  EXPECT_EQ(s.hops[1], (Hop{cpu, cuda1, 530'000, true}));
  EXPECT_EQ(s.hops[2], (Hop{cpu, vk1, 530'000, true}));
  EXPECT_EQ(s.totalNs, 410'000 + 530'000 + 530'000);
  EXPECT_EQ(tm.copySetNs(cuda0, {vk1, cpu, cuda1}, 4'000'000), s.totalNs);
  // The host alone: one direct hop, not a staging leg.
  CopySet h = tm.copySet(cuda0, {cpu}, 4'000'000);
  ASSERT_EQ(h.hops.size(), 1u);
  EXPECT_EQ(h.hops[0], (Hop{cuda0, cpu, 410'000, false}));
  // Nothing to move.
  EXPECT_EQ(tm.copySet(cuda0, {cuda0}, 4'000'000).hops.size(), 0u);
  EXPECT_EQ(tm.copySet(cuda0, {}, 4'000'000).totalNs, 0);
}

TEST(TransferTest, CopySetDirectAndStagedMixed) {
  Topology t = machine();
  t.links.push_back(
      makeLink(cuda0, cuda1, 12'000'000'000, 15'000, PathClass::Peer));
  t.canonicalize();
  TransferModel tm(t);
  // cuda:1 direct over the peer link; vulkan:1 staged, so a host hop.
  CopySet s = tm.copySet(cuda0, {cuda1, vk1}, 4'000'000);
  ASSERT_EQ(s.hops.size(), 3u);
  EXPECT_EQ(s.hops[0], (Hop{cuda0, cpu, 410'000, true}));
  EXPECT_EQ(s.hops[1], (Hop{cuda0, cuda1, 348'334, false}));
  EXPECT_EQ(s.hops[2], (Hop{cpu, vk1, 530'000, true}));
  // From the host everything is direct.
  CopySet fromHost = tm.copySet(cpu, {vk1, cuda0, vk0}, 4'000'000);
  ASSERT_EQ(fromHost.hops.size(), 3u);
  EXPECT_EQ(fromHost.hops[0], (Hop{cpu, cuda0, 410'000, false}));
  EXPECT_EQ(fromHost.hops[1], (Hop{cpu, vk0, 202'000, false}));
  EXPECT_EQ(fromHost.hops[2], (Hop{cpu, vk1, 530'000, false}));
  EXPECT_EQ(fromHost.totalNs, 410'000 + 202'000 + 530'000);
}

TEST(TransferTest, CopySetSaturates) {
  Topology t = machine();
  t.links.push_back(makeLink(cpu, cuda1, 1'000, 0));
  t.canonicalize();
  TransferModel tm(t);
  // cpu -> cuda:1 alone needs 10^15 ns for 10^9 bytes; a large value
  // saturates the hop and the sum.
  EXPECT_EQ(tm.hopNs(cpu, cuda1, 1'000'000'000), 1'000'000'000'000'000);
  CopySet s = tm.copySet(cuda0, {cuda1, vk1}, uint64_t(1) << 60);
  EXPECT_EQ(s.hops[1].ns, kMaxNs);
  EXPECT_EQ(s.totalNs, kMaxNs);
}

} // namespace
